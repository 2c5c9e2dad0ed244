"""verl's key tree (KEY-*)."""
