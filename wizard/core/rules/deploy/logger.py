"""DEPLOY-016: trainer.logger includes wandb while WANDB_API_KEY is not known to be set where the run starts.

verl's wandb logger stops at start-up without the key (run.sh checks it first). The key counts as set when the
door's environment facts (`ctx.env`, wizard.detect.env.secrets_set) hold it, or, on Kubernetes, when a Secret
(deploy.k8s_secret) provides the run's secret variables. A door that gathered no environment facts (`new`,
`check`) knows nothing either way and says nothing: RUN.md and run.sh say it there.
"""

from __future__ import annotations

from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule
from wizard.core.targets import spec
from wizard.i18n.text import msg

LOGGER = "trainer.logger"
KEY = "WANDB_API_KEY"


def _loggers(answers) -> list[str]:
    value = answers.trainer.logger
    return list(value) if isinstance(value, list | tuple) else [value]


@rule(
    "DEPLOY-016",
    Severity.WARNING,
    title="Logging to wandb without WANDB_API_KEY set",
    why="verl's wandb logger needs WANDB_API_KEY where the trainer starts; without it run.sh stops before the run (and a run that skips the check fails at start-up), so a first run that only needs to train should log to the console.",
    about="machine",
)
def check_wandb_key(ctx: RuleContext) -> Iterator[Finding]:
    loggers = _loggers(ctx.answers)
    if "wandb" not in loggers or ctx.env is None or KEY in ctx.env:
        return
    d = ctx.answers.deploy
    if spec(d.target).kubernetes and d.k8s_secret:
        return
    rest = [name for name in loggers if name != "wandb"]
    console = rest if "console" in rest else ["console", *rest]
    fixes = [Fix({LOGGER: console}, msg("deploy.fix.logger_without_wandb", loggers=", ".join(console)))]
    yield make_finding("DEPLOY-016", [LOGGER], msg("deploy.wandb_key_not_set", key=KEY), fixes)
