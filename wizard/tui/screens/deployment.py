"""Deployment: the target and its answers, and the tracking names."""

from __future__ import annotations

from wizard.tui.screens.base import StepScreen


class DeploymentScreen(StepScreen):
    STEP = "deployment"
