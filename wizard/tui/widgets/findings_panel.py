"""The findings beside every step: severity, message with the numbers, the reason, the fixes (one key each)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from wizard.core.findings import Finding, Severity
from wizard.i18n import finding_message, language, rule_text, t
from wizard.tui.bindings import LocalizedBindings
from wizard.tui.messages import FixRequested, JumpRequested
from wizard.tui.widgets.repaint import update_static

MARK = {Severity.ERROR: "✗", Severity.WARNING: "!", Severity.INFO: "i"}
STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
# The panel's border colour (a theme variable) says the worst severity. It is set on the panel alone:
# a CSS class would restyle and repaint every widget inside the panel on each edit.
BORDER_COLOUR = {"errors": "error", "warnings": "warning", "clean": "success"}


def finding_text(finding: Finding) -> Text:
    from wizard.core.rules.catalogue import CATALOGUE  # loads the rules package: not before the first paint

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

    _lines_width: int | None = None

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        # The list is as tall as the panel leaves it (1fr): the layouts it asks for are for its virtual size (how
        # many lines the findings take), which scrolls inside it, so a repaint shows them. A scrollbar that comes
        # or goes asks for its own layout; so does the detail below when its height changes.
        return super().refresh(*regions, repaint=repaint, layout=False, recompose=recompose)

    def _on_resize(self, event: events.Resize) -> None:
        # OptionList re-renders every option on any resize. Their lines depend on the width alone, and the
        # list's height follows the finding's detail below it: keep the rendered options when only that changed.
        width = self.scrollable_content_region.width
        if width == self._lines_width:
            event.prevent_default()  # skips OptionList._on_resize (Textual calls each class's handler)
        self._lines_width = width

    def action_apply(self, n: int) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).apply_fix(self.highlighted, n)

    def action_toggle_why(self) -> None:
        next(a for a in self.ancestors if isinstance(a, FindingsPanel)).toggle_class("-show-why")


class FindingDetail(Static):
    """The highlighted finding's reason and fixes, under the list."""

    def _size_updated(self, size, virtual_size, container_size, layout: bool = True) -> bool:
        # When the layout gives this text a new height, Textual records the new virtual size with a second
        # screen layout (the size of scrollable content). This text does not scroll: record it without one.
        return super()._size_updated(size, virtual_size, container_size, layout=False)


class FindingsPanel(Vertical):
    """Renders a list of findings; posts JumpRequested on select and FixRequested on a fix key."""

    def __init__(self) -> None:
        super().__init__(id="findings-panel", classes="-show-why")
        self.findings: list[Finding] = []
        self.shown_once = False  # False until the session's findings are shown (a plain start builds it after the first paint)
        self._state = "clean"
        self._options: dict[tuple, Option] = {}  # reused across edits: an Option keeps its rendered text

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._paint_border())

    def compose(self) -> ComposeResult:
        yield Label(t("findings.title"), id="findings-title")
        yield Label("", id="findings-count")
        with Vertical(id="findings-body"):
            yield FindingList(id="findings-list")
            yield FindingDetail("", id="finding-detail")
        yield Label(t("findings.keys"), id="findings-keys")

    def _part(self, selector: str):
        # query_one once per part: the panel's children stay, and a DOM query per edit adds up.
        parts = self.__dict__.setdefault("_parts", {})
        if selector not in parts:
            parts[selector] = self.query_one(selector)
        return parts[selector]

    def show(self, findings: list[Finding]) -> None:
        self.shown_once = True
        if findings == self.findings and self._part("#findings-list").option_count:
            return  # nothing changed: keep the list and its highlight as they are
        self.findings = list(findings)
        errors = sum(f.severity is Severity.ERROR for f in findings)
        warnings = sum(f.severity is Severity.WARNING for f in findings)
        state = "errors" if errors else "warnings" if warnings else "clean"
        if state != self._state:
            self._state = state
            self._paint_border()
        update_static(self._part("#findings-count"), t("findings.count", errors=errors, warnings=warnings))
        listing = self._part("#findings-list")
        keep = listing.highlighted
        # One set_options, not clear + add: the list is measured once and a scrollbar that stays is not
        # hidden and shown again (each of those is a layout and a repaint).
        if findings:
            listing.set_options([self._option(i, f) for i, f in enumerate(findings)])
            listing.highlighted = min(keep or 0, len(findings) - 1)
        else:
            listing.set_options([Option(Text(t("findings.none"), style="green"), disabled=True)])
        self._show_detail(listing.highlighted)

    def _option(self, index: int, finding: Finding) -> Option:
        key = (index, finding.id, finding.severity, finding.message, language())
        option = self._options.get(key)
        if option is None:
            if len(self._options) > 200:
                self._options.clear()
            option = self._options[key] = Option(finding_text(finding), id=f"finding-{index}")
        return option

    def _paint_border(self) -> None:
        colour = self.app.theme_variables.get(BORDER_COLOUR[self._state])
        if colour:
            self.styles.border = ("round", Color.parse(colour))

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
        # The highlight message after show() asks for the same text again: update_static skips it.
        update_static(self._part("#finding-detail"), text)

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
