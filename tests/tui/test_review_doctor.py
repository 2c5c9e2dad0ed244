"""Review offers `doctor` for the target and, in a terminal on the machine itself, runs it (issue 30).

The run uses this test's interpreter, which has no verl: the findings shown must be doctor's own (ENV-002 with the
install line's command), in the wizard's language. A served wizard (a browser tab) does not offer the button: its
machine is the workshop's server, not the student's.
"""

from __future__ import annotations

import time

from textual.widgets import Button

from tests.tui.helpers import make_app
from wizard.tui.delivery import BrowserDelivery

WORKSHOP = "workshop-grpo-0.5b-1gpu"


async def _review(app, pilot):
    await pilot.pause()
    app.goto("review")
    await pilot.pause()
    await pilot.pause()


async def _run_doctor(app, pilot) -> str:
    """Press the button, wait for the worker's findings (the probe is a child process), return the status line."""
    app.screen.query_one("#doctor-run", Button).press()
    deadline = time.monotonic() + 30
    while not str(app.screen.query_one("#doctor-findings").render()).strip():
        await pilot.pause(0.2)
        assert time.monotonic() < deadline, "doctor did not finish"
    return str(app.screen.query_one("#doctor-status").render())


async def test_review_shows_the_doctor_command_and_runs_it_here(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        shown = str(app.screen.query_one("#launch-info").render())
        assert f"Check the environment: verl-wizard doctor {tmp_path / 'out'}/config.yaml" in shown
        status = await _run_doctor(app, pilot)
        findings = str(app.screen.query_one("#doctor-findings").render())
        assert status.startswith("doctor on this machine: ") and " error(s)" in status
        assert "✗ ENV-002 verl is not installed for" in findings
        assert app.screen.query_one("#doctor-run", Button).disabled is False


async def test_in_chinese(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"), lang="zh")  # the autouse fixture resets the language
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        assert "检查运行环境：verl-wizard doctor" in str(app.screen.query_one("#launch-info").render())
        status = await _run_doctor(app, pilot)
        assert status.startswith("本机 doctor 结果：")
        assert "没有安装 verl" in str(app.screen.query_one("#doctor-findings").render())


async def test_a_served_wizard_offers_the_command_but_runs_nothing_on_the_server(tmp_path):
    app = make_app(preset=WORKSHOP, out=str(tmp_path / "out"))
    app.delivery = BrowserDelivery()
    async with app.run_test(size=(100, 40)) as pilot:
        await _review(app, pilot)
        assert "Check the environment: verl-wizard doctor" in str(app.screen.query_one("#launch-info").render())
        assert app.screen.query_one("#doctor-row").display is False


def test_the_doctor_command_is_where_each_target_runs_its_workers():
    from wizard.core.layers import build
    from wizard.core.presets import load_preset
    from wizard.emit.launch import doctor_line

    def line(target: str) -> str:
        values = {**load_preset("grpo-8b-1x8").values, "deploy.target": target}
        return doctor_line(build([("preset", values)]).answers, "runs/a b")

    assert line("local") == "verl-wizard doctor 'runs/a b/config.yaml'"
    assert line("slurm") == "srun --nodes=1 --gres=gpu:8 verl-wizard doctor 'runs/a b/config.yaml'"
    assert line("ray-job") == "verl-wizard preflight --address HEAD:6379 --config 'runs/a b/config.yaml'"
    assert line("kuberay-job").endswith("-- verl-wizard doctor /verl-wizard/config/config.yaml")
    assert line("kuberay-job").startswith("kubectl exec -it $(kubectl get pod -l ray.io/cluster=")
