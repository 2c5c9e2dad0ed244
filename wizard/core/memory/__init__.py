"""The estimate of peak GPU memory per role and phase, and the smallest changes that make it fit."""
