"""Nothing a field shows is cut: at 80x24 and 100x40, in English and Chinese, on every step.

The screen is read as the compositor paints it (the characters a user sees), one page of the step at a time.
For every field row whose label is on screen, its whole label, its whole source badge and (for a dropdown)
its whole chosen option must be among the characters painted in their boxes; a label or badge that is
cut, hidden or wider than its box fails.
"""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.errors import NoWidget
from textual.widgets import Select

from tests.tui.helpers import make_app
from wizard.i18n import t
from wizard.tui.clip import FOLD_MARK
from wizard.tui.steps import STEPS
from wizard.tui.textual_compat import screen_strips
from wizard.tui.widgets.field_row import FieldRow, label_of

SIZES = [(80, 24), (100, 40)]


def _painted(lines, region) -> str:
    """The characters painted in a screen region, with no whitespace (a wrapped text reads as one)."""
    text = "".join(strip.crop(region.x, region.right).text for strip in lines[region.y : region.bottom])
    return "".join(text.split())


def _visible(screen, widget):
    """The widget's region if it is wholly on screen, else None (scrolled out, hidden or clipped)."""
    try:
        geometry = screen.find_widget(widget)
    except NoWidget:
        return None
    return geometry.region if geometry.visible_region == geometry.region and geometry.region.area else None


def _at_page_edge(screen, widget) -> bool:
    """Whether the widget is cut only by the bottom or top of the page (its whole width shows)."""
    try:
        geometry = screen.find_widget(widget)
    except NoWidget:
        return True  # below the page: not painted yet
    return geometry.visible_region.width in (0, geometry.region.width)


def _cut_texts(screen) -> list[str]:
    """What the fully visible field rows of this page show cut: 'field: which part (expected)'."""
    lines = screen_strips(screen)
    problems = []
    for row in screen.query(FieldRow):
        label = row.query_one(".field-label")
        region = _visible(screen, label)
        if region is None:
            continue  # this row is not on this page
        expected = {"label": label_of(row.field_name), "badge": t("source." + row._shown_source)}
        if isinstance(row.input_widget, Select) and row.input_widget.value is not Select.NULL:
            expected["option"] = str(row.input_widget.value)
        boxes = {"label": label, "badge": row.query_one(".field-source"), "option": row.input_widget}
        for part, text in expected.items():
            box = _visible(screen, boxes[part]) if part != "label" else region
            if part == "option" and box is None and _at_page_edge(screen, boxes[part]):
                continue  # the dropdown below its label is on the next page
            if box is None or "".join(text.split()) not in _painted(lines, box):
                shown = _painted(lines, box) if box is not None else "<not shown>"
                problems.append(f"{row.field_name}: {part} {text!r} shows as {shown!r}")
    return problems


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("step", [s for s in STEPS if s not in ("start", "review")])
async def test_no_field_label_badge_or_option_is_cut(step, size, lang):
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang=lang)
    async with app.run_test(size=size) as pilot:
        app.goto(step)
        await pilot.pause()
        screen = app.screen
        body = screen.query_one("#step-body")
        problems, pages = [], 0
        while True:
            await pilot.pause()
            problems += _cut_texts(screen)
            pages += 1
            if body.scroll_y >= body.max_scroll_y or pages > 40:
                break
            body.scroll_page_down(animate=False)
        assert not problems, "\n".join(problems)


async def test_the_scan_sees_a_cut_badge():
    """The scan can fail: a badge squeezed to three columns is reported."""
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100")
    async with app.run_test(size=(100, 40)) as pilot:
        app.goto("models")
        await pilot.pause()
        for badge in app.screen.query(".field-source"):
            badge.styles.width = 3
        await pilot.pause()
        assert any("badge" in problem for problem in _cut_texts(app.screen))


def _cut_labels(screen) -> list[str]:
    """The one-line texts (Labels) of the step that are cut at the pane's edge instead of wrapped."""
    lines = screen_strips(screen)
    problems = []
    for label in screen.query("#step-body Label"):
        try:
            geometry = screen.find_widget(label)
        except NoWidget:
            continue
        region, seen = geometry.region, geometry.visible_region
        text = "".join(str(label.render()).split())
        if not seen.area or not text:
            continue
        if seen.width < region.width:
            problems.append(f"{text!r}: {region.width} columns wide, {seen.width} shown")
        elif seen == region and text not in _painted(lines, region):
            problems.append(f"{text!r} shows as {_painted(lines, region)!r}")
    return problems


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("step", STEPS)
async def test_one_line_texts_wrap_instead_of_being_cut(step, size, lang):
    app = make_app("grpo-8b-1x8", out="/tmp/a-rather-long-output-folder/for-this-run/verl-run", lang=lang)
    async with app.run_test(size=size) as pilot:
        app.goto(step)
        await pilot.pause()
        if step == "review":
            app.screen.show_written(t("review.written", n=4, out=app.session.out_dir))
        body = app.screen.query_one("#step-body")
        problems, pages = [], 0
        while True:
            await pilot.pause()
            problems += _cut_labels(app.screen)
            pages += 1
            if body.scroll_y >= body.max_scroll_y or pages > 40:
                break
            body.scroll_page_down(animate=False)
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_link_matrix_scrolls_in_its_own_box(size):
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100")
    async with app.run_test(size=size) as pilot:
        app.goto("hardware")
        await pilot.pause()
        body = app.screen.query_one("#step-body")
        for _ in range(25):  # through every field, the matrix among them
            await pilot.press("tab")
            await pilot.pause()
            assert body.scroll_x == 0 and body.max_scroll_x == 0, "the step scrolled sideways"
        box = app.screen.query_one("#matrix-box")
        if size == (80, 24):
            assert box.max_scroll_x > 0, "the matrix fits: this size does not test the box"
        box.scroll_end(animate=False)
        await pilot.pause()
        assert body.scroll_x == 0
        assert not _cut_texts(app.screen) and not _cut_labels(app.screen)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_footer_keeps_quit_and_help_when_the_findings_are_focused(size, lang):
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100", lang=lang)
    async with app.run_test(size=size) as pilot:
        app.goto("batch")
        await pilot.pause()
        app.session.set("data.train_batch_size", 100)  # a finding with a fix: its keys are active
        app.screen.refresh_view()
        await pilot.pause()
        app.screen.query_one("#findings-list").focus()
        await pilot.pause()
        await pilot.pause()
        footer = screen_strips(app.screen)[-1].text
        for key in ("key.quit", "key.help"):
            assert t(key) in footer, footer


async def test_the_yaml_preview_folds_long_lines_with_a_mark():
    """At 80 columns the preview is about 38 cells wide: its lines were cut at the box's edge (issue 32 item 8).
    Each is folded to the box, the rest of it marked so that a folded comment never reads as a key."""
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100")
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("review")
        await pilot.pause()
        await pilot.pause()
        preview, box = app.screen.query_one("#preview"), app.screen.query_one("#preview-box")
        code = app.session.render_files()["config.yaml"]
        width = box.scrollable_content_region.width
        assert max(map(len, code.splitlines())) > width, "no line is longer than the box: this does not test it"
        shown = preview.content.plain.splitlines()
        assert max(map(cell_len, shown)) <= width and box.max_scroll_x == 0
        assert "\n".join(shown).replace("\n" + FOLD_MARK, "") == code.rstrip("\n")  # every character, in order
        assert app.screen.query_one("#step-body").max_scroll_x == 0


async def test_a_preview_that_fits_is_not_folded():
    app = make_app("grpo-8b-1x8", out="verl-run", topology="8xH100")
    async with app.run_test(size=(400, 60)) as pilot:
        app.goto("review")
        await pilot.pause()
        await pilot.pause()
        code = app.session.render_files()["config.yaml"]
        box = app.screen.query_one("#preview-box")
        assert max(map(len, code.splitlines())) <= box.scrollable_content_region.width
        content = app.screen.query_one("#preview").content
        shown = content.plain if hasattr(content, "plain") else content.code  # a Text, or a Syntax shown whole
        assert shown.rstrip("\n") == code.rstrip("\n")
