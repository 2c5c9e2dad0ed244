"""run.sh: the local launch of config.yaml (one node, or the driver on an existing Ray cluster).

Every value that comes from the user is shell-quoted; secrets are read from the environment, never
written into the script.
"""

from __future__ import annotations

import shlex

from wizard.core.answers import Answers
from wizard.emit.yaml_text import one_line

ENTRY = "verl.trainer.main_ppo"


def uses_wandb(answers: Answers) -> bool:
    logger = answers.trainer.logger
    return "wandb" in (logger if isinstance(logger, list) else [logger])


def render_run_script(answers: Answers) -> str:
    name = one_line(answers.trainer.experiment_name)
    lines = [
        "#!/usr/bin/env bash",
        f"# Launch experiment {shlex.quote(name)} with verl (written by verl-wizard).",
        "# Extra Hydra overrides given to this script are passed on: ./run.sh trainer.total_epochs=1",
        "set -euo pipefail",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        "",
    ]
    if uses_wandb(answers):
        lines += [
            "# trainer.logger includes wandb: the key comes from the environment, never from this file.",
            ': "${WANDB_API_KEY:?set WANDB_API_KEY (or remove wandb from trainer.logger)}"',
            "",
        ]
    lines += [
        "# Ray places workers on GPUs itself; a hand-set mask breaks its placement.",
        'if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then',
        '  echo "run.sh: unset CUDA_VISIBLE_DEVICES; size the run with trainer.n_gpus_per_node instead" >&2',
        "  exit 2",
        "fi",
        "",
        f'exec python3 -m {ENTRY} --config-path="$HERE" --config-name=config "$@"',
    ]
    return "\n".join(lines) + "\n"
