"""Memory bars per GPU: each role's phase as stacked parts (weights, grads, optimizer, activations, KV cache)."""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from wizard.i18n import t
from wizard.i18n.text import render

PART_COLOURS = ("cyan", "magenta", "green", "yellow", "blue", "red", "bright_cyan", "bright_magenta")
WIDTH = 30


def memory_text(estimate) -> Text:
    """One bar per phase against the GPU's memory; parts that are formulas only (not calibrated) are dim."""
    text = Text(no_wrap=True, overflow="crop")
    gpu = estimate.gpu_bytes
    scale = max([gpu or 0] + [phase.total for phase in estimate.phases]) or 1
    labels: dict[str, str] = {}
    for phase in estimate.phases:
        name = render(phase.name)  # padded by cells: a Chinese character takes two
        text.append(set_cell_size(name, min(22, cell_len(name))) + " " * max(1, 23 - cell_len(name)))
        used = 0
        for part in phase.parts:
            colour = labels.setdefault(render(part.label), PART_COLOURS[len(labels) % len(PART_COLOURS)])
            cells = round(part.bytes / scale * WIDTH)
            used += cells
            text.append("█" * cells, style=colour if part.measured else f"dim {colour}")
        limit = round(gpu / scale * WIDTH) if gpu else None
        if limit and limit > used:
            text.append("░" * (limit - used), style="dim")
        over = gpu is not None and phase.total > gpu
        text.append(
            f" {phase.total / 2**30:.1f}" + (f"/{gpu / 2**30:.0f} GiB" if gpu else " GiB"),
            style="bold red" if over else "",
        )
        text.append("\n")
    text.append(t("memory.legend") + " ", style="dim")
    for label, colour in labels.items():
        text.append(f"■ {label}  ", style=colour)
    return text
