"""verl-wizard: set up a verl RL post-training run correctly, in a TUI or headless."""

__version__ = "0.1.0"
