"""Training data read in bounded memory and time, judged the way verl reads it, and converted."""
