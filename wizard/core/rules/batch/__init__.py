"""Batch arithmetic (BATCH-*)."""
