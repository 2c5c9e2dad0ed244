"""A served wizard (`verl-wizard serve`, headless Chromium) takes a burst across three fields as typed (issue 32
item 1): the keys were found wrong there 11-20 ms apart; here they go with no pause at all, then ctrl+s, and the
answers downloaded are the typed ones. Conformance tier (a browser and a server per run)."""

from __future__ import annotations

import pytest
import yaml

from tests.agreement.tiers import skip_unless_conformance
from tests.serve.helpers import need_browser, start_serve, stop_quietly

BURST = [
    *["End", *["Backspace"] * 4, "1", "2", "8", "Tab"],
    *["End", *["Backspace"] * 2, "8", "Tab"],
    *["End", *["Backspace"] * 3, "3", "2"],
]


@pytest.mark.conformance
@pytest.mark.browser
def test_a_burst_in_the_browser_saves_what_was_typed(request, tmp_path):
    skip_unless_conformance(request)
    need_browser()
    from tests.serve.browser import Browser

    browser = Browser(tmp_path / "profile")
    served = start_serve(tmp_path / "teacher", "--preset", "workshop-grpo-0.5b-1gpu")
    try:
        tab = browser.open(served.url)
        tab.wait_for("1/7 Start")
        tab.focus()
        tab.press(*["Control+n"] * 4, pause_ms=600)  # Models, Data, Hardware, Batch
        tab.wait_for("5/7 Batch")
        tab.page.wait_for_timeout(1000)  # the step focuses its first field, Prompts per step (64)
        for key in [*BURST, "Control+s"]:
            tab.page.keyboard.press(key)  # no pause between keys
        (answers,) = browser.wait_for_downloads(1)
        answers.save_as(tmp_path / "answers.yaml")
        saved = yaml.safe_load((tmp_path / "answers.yaml").read_text())["batch"]
        assert (saved["train_batch_size"], saved["rollout_n"], saved["ppo_mini_batch_size"]) == (128, 8, 32)
    finally:
        stop_quietly(served)
        browser.close()
