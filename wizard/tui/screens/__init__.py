"""One screen per step; each file composes its step's body on the shared StepScreen layout."""
