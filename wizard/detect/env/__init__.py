"""The interpreter and machine a run starts in: doctor's probe, verl's own verdict, the secrets set."""
