"""The batch chain as styled text: each arrow one division verl performs, uneven ones in red."""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

from wizard.core.plan import BatchChain
from wizard.i18n import t


def _num(x) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        return f"{float(x):.2f}"
    return str(int(x))


def _part(text: Text, label: str, value, ok: bool = True) -> None:
    text.append(f"{label} ", style="dim")
    text.append(_num(value) if not isinstance(value, str) else value, style="bold" if ok else "bold red")


def chain_line(chain: BatchChain, n: int) -> Text:
    text = Text()
    text.append(f"{chain.role:>6}  ", style="bold cyan")
    _part(text, t("chain.prompts"), chain.prompts_per_step)
    text.append(f" ×{n} → ")
    _part(text, t("chain.responses"), chain.responses_per_step)
    text.append(" → ")
    _part(text, t("chain.mini_batches"), chain.mini_batches_per_step, chain.mini_batches_per_step.denominator == 1)
    text.append(f" {t('chain.of')} ")
    _part(text, "", chain.mini_batch_responses)
    text.append(f" / dp {_num(chain.dp)} → ")
    _part(text, t("chain.per_gpu"), chain.mini_batch_per_gpu, chain.mini_batch_per_gpu.denominator == 1)
    if chain.dynamic:
        text.append(" → " + t("chain.packed", tokens=chain.token_budget_per_gpu))
    elif chain.micro_steps_per_mini_batch is not None:
        text.append(" → ")
        _part(
            text,
            t("chain.micro_steps"),
            chain.micro_steps_per_mini_batch,
            chain.micro_steps_per_mini_batch.denominator == 1,
        )
        text.append(f" {t('chain.of')} {chain.micro_batch_per_gpu}")
    text.append(" → ")
    _part(text, t("chain.optimizer_steps"), chain.optimizer_steps_per_step)
    return text
