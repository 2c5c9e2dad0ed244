"""The batch chain as styled text: each arrow one division verl performs, uneven ones in red.

Every segment is a catalogue message (wizard/i18n/messages/chain.py), so that each language puts the number where
its grammar wants it; the numbers are bold (red where the division is uneven), the words dim.
"""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

from wizard.core.plan import BatchChain
from wizard.i18n.text import Msg, msg, spans


def _num(x) -> str:
    if isinstance(x, Fraction) and x.denominator != 1:
        return f"{float(x):.2f}"
    return str(int(x))


def _segment(text: Text, message: Msg, even: bool = True) -> None:
    """The message with its parameters bold; `n` (the count of the division) red when it is not whole."""
    for piece, name in spans(message):
        if name is None:
            text.append(piece, style="dim")
        else:
            text.append(piece, style="bold" if even or name != "n" else "bold red")


def _whole(x) -> bool:
    return Fraction(x).denominator == 1


def chain_line(chain: BatchChain, n: int) -> Text:
    text = Text()
    text.append(f"{chain.role:>6}  ", style="bold cyan")
    _segment(text, msg("chain.prompts", n=_num(chain.prompts_per_step)))
    text.append(f" ×{n} → ")
    _segment(text, msg("chain.responses", n=_num(chain.responses_per_step)))
    text.append(" → ")
    mini = chain.mini_batches_per_step
    _segment(text, msg("chain.mini_batches", n=_num(mini), size=_num(chain.mini_batch_responses)), _whole(mini))
    text.append(f" / dp {_num(chain.dp)} → ")
    _segment(text, msg("chain.per_gpu", n=_num(chain.mini_batch_per_gpu)), _whole(chain.mini_batch_per_gpu))
    if chain.dynamic:
        text.append(" → ")
        _segment(text, msg("chain.packed", tokens=chain.token_budget_per_gpu))
    elif chain.micro_steps_per_mini_batch is not None:
        text.append(" → ")
        micro = chain.micro_steps_per_mini_batch
        _segment(text, msg("chain.micro_steps", n=_num(micro), size=chain.micro_batch_per_gpu), _whole(micro))
    text.append(" → ")
    _segment(text, msg("chain.optimizer_steps", n=_num(chain.optimizer_steps_per_step)))
    return text
