"""The environment a run starts in (ENV-*): `doctor` and `preflight`."""
