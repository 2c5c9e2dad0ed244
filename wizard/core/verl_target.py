"""The verl release the wizard writes for. Standard library only: the TUI shows it before anything else loads."""

TARGET_VERSION = "0.9.1"
