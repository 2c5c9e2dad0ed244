#!/usr/bin/env bash
# Launch experiment qwen3-8b-grpo-megatron with verl (written by verl-wizard).
# Extra Hydra overrides given to this script are passed on: ./run.sh trainer.total_epochs=1
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# trainer.logger includes wandb: the key comes from the environment, never from this file.
: "${WANDB_API_KEY:?set WANDB_API_KEY (or remove wandb from trainer.logger)}"

# Ray places workers on GPUs itself; a hand-set mask breaks its placement.
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  echo "run.sh: unset CUDA_VISIBLE_DEVICES; size the run with trainer.n_gpus_per_node instead" >&2
  exit 2
fi

exec python3 -m verl.trainer.main_ppo --config-path="$HERE" --config-name=config "$@"
