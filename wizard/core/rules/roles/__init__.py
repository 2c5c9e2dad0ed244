"""Roles and models (ROLE-*)."""
