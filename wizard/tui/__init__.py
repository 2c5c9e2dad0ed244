"""The Textual TUI: screens render the session's answers and findings, and send edits back."""
