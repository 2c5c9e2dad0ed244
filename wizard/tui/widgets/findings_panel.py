"""The findings beside every step: severity, message with the numbers, the reason, the fixes (one key each)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.strip import Strip
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from wizard.core.findings import Finding, Severity
from wizard.i18n import language, rule_text, t
from wizard.i18n.text import render
from wizard.tui.bindings import LocalizedBindings
from wizard.tui.clip import clip_words
from wizard.tui.messages import FixRequested, JumpRequested
from wizard.tui.textual_compat import KeptOptionsList
from wizard.tui.visited import step_at, to_do
from wizard.tui.widgets.wrapped_text import WrappedText

MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}
STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
# The count line says the worst severity in its colour (a theme variable) and mark. It is the count's own
# text style: a new border colour, or a CSS class on the panel, would repaint every line of the panel's
# column on each edit that adds or clears an error, a sixth of a keystroke's frame.
STATE_COLOUR = {"errors": "error", "warnings": "warning", "to_do": "secondary", "clean": "success"}
STATE_MARK = {"errors": "✗", "warnings": "!", "to_do": "○", "clean": "✓"}
RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


def in_order(findings: list[Finding], seen: frozenset[str] | None, step: str | None) -> list[Finding]:
    """The findings as the panel lists them: this step's first, then other shown steps', then those still to do.

    Each group worst first. The list shows a few lines at 80x24: the errors of the step on screen must not
    wait below another step's to-do items (issue 32 item 3). Review lists every step's: worst first."""

    def key(finding: Finding) -> tuple[bool, bool, int]:
        pending = seen is not None and to_do(finding, seen)
        here = step != "review" and bool(finding.paths) and step_at(finding.paths[0]) == step
        return (pending, not here, RANK[finding.severity])

    return sorted(findings, key=key)


def finding_text(finding: Finding, pending: bool = False) -> Text:
    from wizard.core.rules.catalogue import (
        CATALOGUE,  # loads the rules package: not before the first paint
    )

    title, _ = rule_text(finding.id, CATALOGUE[finding.id].title if finding.id in CATALOGUE else "", finding.why)
    text = Text()
    if pending:  # a step not shown yet: what is still to do, not a failure
        text.append(f"○ {t('findings.to_do_mark')} {finding.id} ", style="dim")
        text.append(title + "\n", style="dim bold")
        text.append(clip_words(render(finding.message)), style="dim")
        return text
    text.append(f"{MARK[finding.severity]} {finding.id} ", style=STYLE[finding.severity])
    text.append(title + "\n", style="bold")
    text.append(clip_words(render(finding.message)))
    return text


class FindingList(LocalizedBindings, KeptOptionsList):
    BINDINGS = [
        # Not in the footer: the panel's own key line says them, and at 80 columns they pushed Quit out of it.
        Binding("f", "apply(1)", "key.fix", id="apply-fix", show=False),
        *[Binding(str(n), f"apply({n})", show=False) for n in range(1, 10)],
        Binding("w", "toggle_why", "key.why", id="toggle-why", show=False),
    ]

    _batched = False

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        # The list is as tall as the panel leaves it (1fr): the layouts it asks for are for its virtual size (how
        # many lines the findings take), which scrolls inside it, so a repaint shows them.
        if self._batched and not regions and not recompose:
            return self  # replace_findings repaints the list once
        return super().refresh(*regions, repaint=repaint, layout=False, recompose=recompose)

    def replace_findings(self, options: list[Option], highlighted: int | None) -> None:
        """Show these options and this highlight, with one repaint of the list (and no layout)."""
        self._batched = True
        try:
            self.set_options(options)
            self.highlighted = highlighted
        finally:
            self._batched = False
        self.refresh()

    def action_apply(self, n: int) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).apply_fix(self.highlighted, n)

    def action_toggle_why(self) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).toggle_class("-show-why")


class FindingDetail(WrappedText):
    """The highlighted finding's fixes and reason, under the list.

    Its height is fixed (6 lines on a 24-line terminal): a reason longer than that ends in a line saying where
    the whole of it is (`verl-wizard explain ID`), instead of being cut mid-sentence."""

    more = ""  # the last line when the text does not fit; set with the text
    _for_height = -1

    def _wrapped(self, width: int) -> list[Strip]:
        lines = super()._wrapped(width)
        height = self.content_size.height
        if not self.more or not height or len(lines) <= height:
            return lines
        console = self.app.console
        more = [
            Strip(list(line.render(console)), line.cell_len)
            for line in Text(self.more, style="dim italic").wrap(console, max(width, 1))
        ][:height]
        return [*lines[: height - len(more)], *more]

    def set_more(self, more: str) -> None:
        """The line that ends a text too long for the detail (wrapped and painted again when it changes)."""
        if more != self.more:
            self.more, self._lines, self._painted_for = more, None, ()

    def _paint(self) -> list[Strip]:
        if self.content_size.height != self._for_height:  # a new height cuts elsewhere: paint again
            self._for_height, self._painted_for = self.content_size.height, ()
        return super()._paint()


class FindingsPanel(Vertical):
    """Renders a list of findings; posts JumpRequested on select and FixRequested on a fix key."""

    def __init__(self) -> None:
        super().__init__(id="findings-panel", classes="-show-why")
        self.findings: list[Finding] = []
        self.shown_once = (
            False  # False until the session's findings are shown (a plain start builds it after the first paint)
        )
        self._counts = (0, 0, 0)
        self._seen: frozenset[str] | None = None
        self._options: dict[tuple, Option] = {}  # reused across edits: an Option keeps its rendered text

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._show_count())

    def compose(self) -> ComposeResult:
        yield Label(t("findings.title"), id="findings-title")
        yield WrappedText(id="findings-count")  # a Label's content conversion costs more than the line
        with Vertical(id="findings-body"):
            yield FindingList(id="findings-list")
            yield FindingDetail(id="finding-detail")
        yield Label(t("findings.keys"), id="findings-keys")

    def _part(self, selector: str):
        # query_one once per part: the panel's children stay, and a DOM query per edit adds up.
        parts = self.__dict__.setdefault("_parts", {})
        if selector not in parts:
            parts[selector] = self.query_one(selector)
        return parts[selector]

    def show(self, findings: list[Finding], seen: frozenset[str] | None = None) -> None:
        """Show these findings; those of steps not in `seen` as to do (None: every step is seen)."""
        self.shown_once = True
        findings = in_order(findings, seen, getattr(self.screen, "STEP", None))
        if findings == self.findings and seen == self._seen and self._part("#findings-list").option_count:
            return  # nothing changed: keep the list and its highlight as they are
        self.findings, self._seen = list(findings), seen
        pending = [seen is not None and to_do(f, seen) for f in findings]
        self._pending = pending
        errors = sum(f.severity is Severity.ERROR and not p for f, p in zip(findings, pending, strict=True))
        warnings = sum(f.severity is Severity.WARNING and not p for f, p in zip(findings, pending, strict=True))
        severe = (Severity.ERROR, Severity.WARNING)
        self._counts = (
            errors,
            warnings,
            sum(p and f.severity in severe for f, p in zip(findings, pending, strict=True)),
        )
        self._show_count()
        listing = self._part("#findings-list")
        keep = listing.highlighted
        # One set_options, not clear + add: the list is measured once and a scrollbar that stays is not
        # hidden and shown again (each of those is a layout and a repaint).
        if findings:
            listing.replace_findings(
                [self._option(i, f) for i, f in enumerate(findings)], min(keep or 0, len(findings) - 1)
            )
        else:
            listing.replace_findings([self._option(-1, None)], None)
        self._show_detail(listing.highlighted)

    def _option(self, index: int, finding: Finding | None) -> Option:
        """The option of a finding at this index (None: the "no findings" line), the same object while it shows the same."""
        pending = finding is not None and self._pending[index]
        key = (
            (index, finding.id, finding.severity, finding.message, pending, language())
            if finding
            else (index, language())
        )
        option = self._options.get(key)
        if option is None:
            if len(self._options) > 200:
                self._options.clear()
            if finding is None:
                option = Option(Text(t("findings.none"), style="green"), disabled=True)
            else:
                option = Option(finding_text(finding, pending), id=f"finding-{index}")
            self._options[key] = option
        return option

    @property
    def state(self) -> str:
        """ "errors", "warnings", "to_do" (only steps not shown yet miss something) or "clean"."""
        errors, warnings, _ = self._counts
        return "errors" if errors else "warnings" if warnings else "to_do" if self._counts[2] else "clean"

    def _show_count(self) -> None:
        errors, warnings, pending = self._counts
        colour = self.app.theme_variables.get(STATE_COLOUR[self.state], "")
        count = t("findings.count", errors=errors, warnings=warnings)
        if pending:
            count += " · " + t("findings.to_do", n=pending)
        text = Text(f"{STATE_MARK[self.state]} " + count, style=f"bold {colour}".strip())
        self._part("#findings-count").update(text)

    def _show_detail(self, index) -> None:
        if index is None or not self.findings or index >= len(self.findings):
            self._update_detail(Text())
            return
        finding = self.findings[index]
        _, why = rule_text(finding.id, "", finding.why)
        # The fixes first: the detail has a fixed height (6 lines on a 24-line terminal) and the reason may not fit.
        text = Text()
        for n, fix in enumerate(finding.fixes, 1):
            text.append(clip_words(t("findings.fix", n=n, label=render(fix.label))) + "\n", style="green")
        text.append(t("findings.why", why=why) + "\n", style="italic")
        self._update_detail(text, t("findings.more", id=finding.id))

    def _update_detail(self, text: Text, more: str = "") -> None:
        # The highlight message after show() asks for the same text again: update() skips it.
        detail = self._part("#finding-detail")
        detail.set_more(more)
        detail.update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.findings and event.option_index < len(self.findings):
            paths = self.findings[event.option_index].paths
            if paths:
                self.post_message(JumpRequested(paths[0]))

    def apply_fix(self, index, n: int) -> None:
        if index is None or index >= len(self.findings):
            return
        finding = self.findings[index]
        if 1 <= n <= len(finding.fixes):
            self.post_message(FixRequested(finding, finding.fixes[n - 1]))
