"""The link matrix with the rollout's TP groups coloured, and a GPU budget bar per pool."""

from __future__ import annotations

from rich.text import Text

from wizard.core.topology import group_quality, link_label, naive_tp_groups
from wizard.i18n import t

GROUP_COLOURS = ("magenta", "cyan", "green", "yellow", "blue", "red", "bright_magenta", "bright_cyan")
LABEL_STYLE = {"good": "green", "acceptable": "yellow", "poor": "red", "unknown": "dim"}


def matrix_text(topology, tp: int) -> Text:
    """One node's matrix; each GPU is coloured by the TP group verl would give it (consecutive GPUs)."""
    n = len(topology.gpus)
    groups = naive_tp_groups(topology, tp)[: max(1, n // tp)] if 1 <= tp <= n and n % tp == 0 else []
    colour = {gpu: GROUP_COLOURS[i % len(GROUP_COLOURS)] for i, group in enumerate(groups) for gpu in group}
    group_of = {gpu: i for i, group in enumerate(groups) for gpu in group}
    cell = max(len(s) for row in topology.links for s in row) + 1
    text = Text(no_wrap=True, overflow="crop")
    text.append("GPU " + "".join(f"{i:<{cell}}" for i in range(n)) + "\n", style="bold")
    for i in range(n):
        text.append(f"{i:<4}", style=f"bold {colour.get(i, '')}")
        for j in range(n):
            symbol = topology.links[i][j]
            same = group_of.get(i) is not None and group_of.get(i) == group_of.get(j) and i != j
            style = f"reverse {colour[i]}" if same else LABEL_STYLE[link_label(symbol)] if symbol != "X" else "dim"
            text.append(f"{symbol:<{cell - 1}}", style=style)
            text.append(" ")
        text.append("\n")
    for i, group in enumerate(groups):
        quality = group_quality(topology, group)
        text.append(t("topo.group", i=i, group=group, quality=quality) + "\n", style=colour[group[0]])
    return text


def budget_text(plan, topology) -> Text:
    """GPUs each pool takes, against what the topology offers (when known)."""
    text = Text()
    have = topology.nodes * len(topology.gpus) if topology is not None else None
    width = 20
    scale = max(plan.total_gpus, have or 0, 1)
    styles = ("cyan", "magenta", "green")
    for pool, style in zip(plan.pools, styles, strict=False):
        cells = max(1, round(pool.gpus / scale * width)) if pool.gpus else 0
        roles = (
            t("topo.trainer_roles") + (t("topo.critic_role") if plan.need_critic else "")
            if pool.name == "trainer"
            else t("pool." + pool.name)
        )
        text.append(f"{t('pool.' + pool.name):<10}", style="bold")
        text.append("█" * cells, style=style)
        text.append(f" {pool.gpus}\n")
        text.append(f"{'':<10}{roles}\n", style="dim")
    if have is not None:
        ok = plan.total_gpus <= have
        text.append(f"{t('topo.available'):<10}", style="bold")
        text.append("░" * round(have / scale * width), style="green" if ok else "red")
        text.append(f" {have}\n")
        text.append(f"{'':<10}{t('topo.needs', need=plan.total_gpus, have=have)}\n", style="dim" if ok else "bold red")
    return text
