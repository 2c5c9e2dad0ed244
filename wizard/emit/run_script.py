"""run.sh: the local launch of config.yaml (one node, or the driver on an existing Ray cluster).

Every value that comes from the user is shell-quoted; secrets are read from the environment, never
written into the script. Where verl starts its own Ray (RAY_ADDRESS unset) the script checks what that
instance will get from this machine: the GPUs of a CUDA_VISIBLE_DEVICES mask (their count must be
trainer.n_gpus_per_node) and enough logical CPUs for verl 0.9.1's TransferQueue actors.
"""

from __future__ import annotations

import shlex

from wizard.core.answers.model import Answers
from wizard.core.field_keys import address_of
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import local_ray_cpus_needed, node_env
from wizard.emit.yaml_text import one_line

ENTRY = "verl.trainer.main_ppo"
NUM_CPUS_KEY = address_of("deploy.ray_init_num_cpus")  # the verl key its Spec declares


def uses_wandb(answers: Answers) -> bool:
    logger = answers.trainer.logger
    return "wandb" in (logger if isinstance(logger, list) else [logger])


def _mask_check(gpus_per_node: int) -> list[str]:
    """Refuse a CUDA_VISIBLE_DEVICES whose count is not the GPUs per node (an override on the command line counts)."""
    return [
        "# verl's own Ray instance takes its GPUs from CUDA_VISIBLE_DEVICES (how a shared machine gives each user",
        "# some): the mask must show exactly trainer.n_gpus_per_node GPUs. A driver joining a cluster (RAY_ADDRESS)",
        "# does not pass it on: Ray places the workers there.",
        f"GPUS_PER_NODE={gpus_per_node}  # trainer.n_gpus_per_node",
        'for arg in "$@"; do',
        '  case "$arg" in trainer.n_gpus_per_node=*|+trainer.n_gpus_per_node=*) GPUS_PER_NODE="${arg#*=}" ;; esac',
        "done",
        'if [ -z "${RAY_ADDRESS:-}" ] && [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then',
        '  IFS=, read -ra MASK <<< "$CUDA_VISIBLE_DEVICES"',
        "  VISIBLE=0",
        '  for device in ${MASK[@]+"${MASK[@]}"}; do',
        '    if [ -n "${device// /}" ]; then VISIBLE=$((VISIBLE + 1)); fi',
        "  done",
        '  if [ "$VISIBLE" != "$GPUS_PER_NODE" ]; then',
        '    echo "run.sh: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES shows $VISIBLE GPU(s) but the run needs'
        ' $GPUS_PER_NODE (trainer.n_gpus_per_node): show $GPUS_PER_NODE, or pass trainer.n_gpus_per_node=$VISIBLE" >&2',
        "    exit 2",
        "  fi",
        "fi",
    ]


def _cpu_check(need: int) -> list[str]:
    """Raise Ray's logical CPUs where the machine has fewer than verl 0.9.1 holds before training starts."""
    return [
        "# verl 0.9.1 holds 3 CPUs per GPU, and a CPU for each of its TransferQueue actors (they mostly wait): with",
        "# fewer logical CPUs in its Ray instance it waits forever. On a smaller machine Ray is told there are more.",
        f"NEED_CPUS={need}",
        'if [ -z "${RAY_ADDRESS:-}" ] && [ "$(nproc)" -lt "$NEED_CPUS" ]; then',
        "  echo \"run.sh: $(nproc) CPUs here; starting verl's Ray with " + NUM_CPUS_KEY + '=$NEED_CPUS" >&2',
        '  set -- "' + NUM_CPUS_KEY + '=$NEED_CPUS" "$@"  # an override of your own comes later and wins',
        "fi",
    ]


def render_run_script(answers: Answers, plan: Plan) -> str:
    name = one_line(answers.trainer.experiment_name)
    lines = [
        "#!/usr/bin/env bash",
        f"# Launch experiment {shlex.quote(name)} with verl (written by verl-wizard).",
        "# Extra Hydra overrides given to this script are passed on: ./run.sh trainer.total_epochs=1",
        "set -euo pipefail",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        "",
    ]
    env = node_env(answers)
    if env:
        lines += [
            "# deploy.env, the interface names and HF_HOME.",
            *[f"export {k}={shlex.quote(v)}" for k, v in env.items()],
        ]
        lines.append("")
    if uses_wandb(answers):
        lines += [
            "# trainer.logger includes wandb: the key comes from the environment, never from this file.",
            ': "${WANDB_API_KEY:?set WANDB_API_KEY (or remove wandb from trainer.logger)}"',
            "",
        ]
    lines += [*_mask_check(plan.gpus_per_node), ""]
    if answers.deploy.ray_init_num_cpus is None:
        lines += [*_cpu_check(local_ray_cpus_needed(answers, plan)), ""]
    lines.append(f'exec python3 -m {ENTRY} --config-path="$HERE" --config-name=config "$@"')
    return "\n".join(lines) + "\n"
