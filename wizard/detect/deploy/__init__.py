"""Deployments read back: manifests and job scripts on disk, and a running Ray cluster."""
