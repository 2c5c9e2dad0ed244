"""Launch scripts read the way bash runs them (the bash reader) and turned into verl overrides or answers."""
