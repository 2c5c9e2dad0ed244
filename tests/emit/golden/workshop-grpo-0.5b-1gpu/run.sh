#!/usr/bin/env bash
# Launch experiment grpo-qwen2.5-0.5b-gsm8k with verl (written by verl-wizard).
# Extra Hydra overrides given to this script are passed on: ./run.sh trainer.total_epochs=1
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# verl's own Ray instance takes its GPUs from CUDA_VISIBLE_DEVICES (how a shared machine gives each user
# some): the mask must show exactly trainer.n_gpus_per_node GPUs. A driver joining a cluster (RAY_ADDRESS)
# does not pass it on: Ray places the workers there.
GPUS_PER_NODE=1  # trainer.n_gpus_per_node
for arg in "$@"; do
  case "$arg" in trainer.n_gpus_per_node=*|+trainer.n_gpus_per_node=*) GPUS_PER_NODE="${arg#*=}" ;; esac
done
if [ -z "${RAY_ADDRESS:-}" ] && [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  IFS=, read -ra MASK <<< "$CUDA_VISIBLE_DEVICES"
  VISIBLE=0
  for device in ${MASK[@]+"${MASK[@]}"}; do
    if [ -n "${device// /}" ]; then VISIBLE=$((VISIBLE + 1)); fi
  done
  if [ "$VISIBLE" != "$GPUS_PER_NODE" ]; then
    echo "run.sh: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES shows $VISIBLE GPU(s) but the run needs $GPUS_PER_NODE (trainer.n_gpus_per_node): show $GPUS_PER_NODE, or pass trainer.n_gpus_per_node=$VISIBLE" >&2
    exit 2
  fi
fi

# verl 0.9.1 holds 3 CPUs per GPU, and a CPU for each of its TransferQueue actors (they mostly wait): with
# fewer logical CPUs in its Ray instance it waits forever. On a smaller machine Ray is told there are more.
NEED_CPUS=13
if [ -z "${RAY_ADDRESS:-}" ] && [ "$(nproc)" -lt "$NEED_CPUS" ]; then
  echo "run.sh: $(nproc) CPUs here; starting verl's Ray with ray_kwargs.ray_init.num_cpus=$NEED_CPUS" >&2
  set -- "ray_kwargs.ray_init.num_cpus=$NEED_CPUS" "$@"  # an override of your own comes later and wins
fi

exec python3 -m verl.trainer.main_ppo --config-path="$HERE" --config-name=config "$@"
