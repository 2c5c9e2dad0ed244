"""The typed answers: the model and one section per step, every field declared once."""
