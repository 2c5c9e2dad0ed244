"""DEPLOY-016: trainer.logger includes wandb while WANDB_API_KEY is not known to be set where the run starts.

verl's wandb logger stops at start-up without the key (run.sh checks it first). The key counts as set when the
door's environment facts (`ctx.env`, wizard.detect.env.secrets_set) hold it, or, on Kubernetes, when a Secret
(deploy.k8s_secret) provides the run's secret variables. A door that gathered no environment facts (`new`,
`check`) knows nothing either way and says nothing: RUN.md and run.sh say it there.
"""

from __future__ import annotations

from wizard.core.findings import Fix, warning
from wizard.core.rules.catalogue import why
from wizard.core.targets import spec
from wizard.i18n.text import msg

LOGGER = "trainer.logger"
KEY = "WANDB_API_KEY"


def _loggers(answers) -> list[str]:
    value = answers.trainer.logger
    return list(value) if isinstance(value, list | tuple) else [value]


def check_wandb_key(ctx):
    loggers = _loggers(ctx.answers)
    if "wandb" not in loggers or ctx.env is None or KEY in ctx.env:
        return
    d = ctx.answers.deploy
    if spec(d.target).kubernetes and d.k8s_secret:
        return
    rest = [name for name in loggers if name != "wandb"]
    console = rest if "console" in rest else ["console", *rest]
    fixes = [Fix({LOGGER: console}, msg("deploy.fix.logger_without_wandb", loggers=", ".join(console)))]
    yield warning("DEPLOY-016", [LOGGER], msg("deploy.wandb_key_not_set", key=KEY), why("DEPLOY-016"), fixes)


FAMILIES = ("DEPLOY",)  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [check_wandb_key]
