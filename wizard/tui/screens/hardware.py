"""Hardware and placement: the topology (detected, pasted or named), the matrix with TP groups, the pools."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, HorizontalScroll
from textual.message import Message
from textual.widgets import Button, Input, Label, Static

from wizard.core.memory.estimate import estimate_memory
from wizard.core.rules.roles.model_files import gpu_memory_mib
from wizard.detect.hardware.fake import NAMED
from wizard.i18n import t
from wizard.tui.screens.base import StepScreen
from wizard.tui.widgets.memory_view import memory_text
from wizard.tui.widgets.topology_view import budget_text, matrix_text


class HardwareScreen(StepScreen):
    STEP = "hardware"

    class TopologyChosen(Message):
        """Plan for this topology (a fake name, a `nvidia-smi topo -m` file, `detect`; None: none); the app
        answers with `show_topology`."""

        def __init__(self, hardware: HardwareScreen, spec: str | None) -> None:
            super().__init__()
            self.hardware = hardware
            self.spec = spec

    def compose_top(self) -> ComposeResult:
        yield Label(t("hardware.topology"), classes="section-title")
        with Horizontal(classes="inline-form"):
            yield Input(
                self.session.topology_spec or "",
                placeholder=" | ".join(list(NAMED)[:4]) + " | detect | FILE",
                id="topology-spec",
            )
            yield Button(t("hardware.apply"), id="use-topology")
        yield Label("", id="topology-status")
        yield Label(t("hardware.budget"), classes="section-title")
        yield Static("", id="budget")
        yield Label(t("hardware.memory"), classes="section-title")
        yield Static("", id="memory")
        yield Label(t("hardware.matrix"), classes="section-title")
        with HorizontalScroll(id="matrix-box"):  # a matrix wider than the pane scrolls here, not the step
            yield Static("", id="matrix")

    def _use(self, spec: str) -> None:
        self.post_message(self.TopologyChosen(self, spec or None))

    def show_topology(self, error: str | None = None) -> None:
        """Say the topology the session plans for, or (error) why the one given was not taken."""
        status = self.query_one("#topology-status", Label)
        if error is not None:
            status.update(error)
            status.add_class("-error")
            return
        status.remove_class("-error")
        topo = self.session.topology
        status.update(
            t(
                "hardware.status",
                label=topo.label or topo.source,
                nodes=topo.nodes,
                gpus=len(topo.gpus),
                name=topo.gpus[0].name or "GPU",
            )
            if topo
            else t("hardware.none")
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "use-topology":
            self._use(self.query_one("#topology-spec", Input).value.strip())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "topology-spec":
            event.stop()
            self._use(event.value.strip())

    def refresh_extra(self) -> None:
        session = self.session
        self.query_one("#budget", Static).update(budget_text(session.plan, session.topology))
        self.query_one("#memory", Static).update(self._memory())
        matrix = self.query_one("#matrix", Static)
        matrix.set_class(session.topology is None, "-prose")
        if session.topology is None:
            matrix.update(t("hardware.none"))
        else:
            matrix.update(matrix_text(session.topology, session.plan.rollout_tp))

    def _memory(self):
        session = self.session
        models = session.ctx.models or {}
        if not models.get("actor"):
            return t("hardware.memory_unknown")
        estimate = estimate_memory(session.layered.answers, session.ctx.plan, models, gpu_memory_mib(session.topology))
        return memory_text(estimate)
