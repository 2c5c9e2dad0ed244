"""Data: training and validation files, the prompt column, the length limits and filtering."""

from __future__ import annotations

from wizard.tui.screens.base import StepScreen


class DataScreen(StepScreen):
    STEP = "data"
