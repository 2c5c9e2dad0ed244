"""The verdict of the verl installed for an interpreter (VERL-*)."""
