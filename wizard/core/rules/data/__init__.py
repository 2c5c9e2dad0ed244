"""Data (DATA-*)."""
