"""Launch scripts (SCRIPT-*)."""
