"""The TUI's steps in order; a field's declaration names one of the middle five (wizard.core.fields).

Imports nothing: the TUI lists the steps on its first screen, before anything else of the core is loaded.
"""

STEPS = ("start", "models", "data", "hardware", "batch", "deployment", "review")
FIELD_STEPS = STEPS[1:-1]
