"""Device mapping (PLACE-*)."""
