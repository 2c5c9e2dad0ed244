"""The findings beside every step: severity, message with the numbers, the reason, the fixes (one key each)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from wizard.core.findings import Finding, Severity
from wizard.core.rules.catalogue import CATALOGUE
from wizard.i18n import finding_message, rule_text, t
from wizard.tui.bindings import LocalizedBindings
from wizard.tui.messages import FixRequested, JumpRequested

MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}
STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def finding_text(finding: Finding) -> Text:
    title, _ = rule_text(finding.id, CATALOGUE[finding.id].title if finding.id in CATALOGUE else "", finding.why)
    text = Text()
    text.append(f"{MARK[finding.severity]} {finding.id} ", style=STYLE[finding.severity])
    text.append(title + "\n", style="bold")
    text.append(finding_message(finding.id, finding.message))
    return text


class FindingList(LocalizedBindings, OptionList):
    BINDINGS = [
        Binding("f", "apply(1)", "key.fix", id="apply-fix"),
        *[Binding(str(n), f"apply({n})", show=False) for n in range(1, 10)],
        Binding("w", "toggle_why", "key.why", id="toggle-why"),
    ]

    def action_apply(self, n: int) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).apply_fix(self.highlighted, n)

    def action_toggle_why(self) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).toggle_class("-show-why")


class FindingsPanel(Vertical):
    """Renders a list of findings; posts JumpRequested on select and FixRequested on a fix key."""

    def __init__(self) -> None:
        super().__init__(id="findings-panel", classes="-show-why")
        self.findings: list[Finding] = []

    def compose(self) -> ComposeResult:
        yield Label(t("findings.title"), id="findings-title")
        yield Label("", id="findings-count")
        with Vertical(id="findings-body"):
            yield FindingList(id="findings-list")
            yield Static("", id="finding-detail")
        yield Label(t("findings.keys"), id="findings-keys")

    def show(self, findings: list[Finding]) -> None:
        if findings == self.findings and self.query_one(FindingList).option_count:
            return  # nothing changed: keep the list and its highlight as they are
        self.findings = list(findings)
        errors = sum(f.severity is Severity.ERROR for f in findings)
        warnings = sum(f.severity is Severity.WARNING for f in findings)
        self.set_class(errors > 0, "-errors")
        self.set_class(errors == 0 and warnings > 0, "-warnings")
        self.set_class(not findings, "-clean")
        self.query_one("#findings-count", Label).update(t("findings.count", errors=errors, warnings=warnings))
        listing = self.query_one(FindingList)
        keep = listing.highlighted
        listing.clear_options()
        if findings:
            listing.add_options([Option(finding_text(f), id=f"finding-{i}") for i, f in enumerate(findings)])
            listing.highlighted = min(keep or 0, len(findings) - 1)
        else:
            listing.add_option(Option(Text(t("findings.none"), style="green"), disabled=True))
        self._show_detail(listing.highlighted)

    def _show_detail(self, index) -> None:
        if index is None or not self.findings or index >= len(self.findings):
            self._update_detail(Text())
            return
        finding = self.findings[index]
        _, why = rule_text(finding.id, "", finding.why)
        text = Text()
        text.append(t("findings.why", why=why) + "\n", style="italic")
        for n, fix in enumerate(finding.fixes, 1):
            text.append(t("findings.fix", n=n, label=fix.label) + "\n", style="green")
        self._update_detail(text)

    def _update_detail(self, text: Text) -> None:
        # The highlight message after show() asks for the same text again; an update costs a layout and a frame.
        if text != getattr(self, "_detail_shown", None):
            self._detail_shown = text
            self.query_one("#finding-detail", Static).update(text)

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
