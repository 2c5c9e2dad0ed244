"""Reusable widgets: a field row, the findings panel, the step list, the topology and chain views."""
