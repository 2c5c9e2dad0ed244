#!/usr/bin/env bash
# ray job submit script for experiment qwen2.5-7b-grpo-2x8 (verl 0.9.1), written by verl-wizard 0.1.0.
# Ray nodes with GPUs: 2 x 8 = trainer.nnodes x trainer.n_gpus_per_node in config.yaml.
# Regenerate with verl-wizard new --answers answers.yaml rather than editing counts here; `verl-wizard check` reads it back.
# Launch (from this folder): ./ray-job.sh
# Watch: ray job list --address http://127.0.0.1:8265; ray job logs --follow --address http://127.0.0.1:8265 SUBMISSION_ID
# Stop: ray job stop --address http://127.0.0.1:8265 SUBMISSION_ID
# Usage: ./ray-job.sh [Hydra overrides ...]   The Ray cluster must already run (ray start on every node).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# The Jobs API (the head's dashboard port 8265), not the GCS port; RAY_API_SERVER_ADDRESS overrides it.
DEFAULT_ADDRESS=http://127.0.0.1:8265
ADDRESS="${RAY_API_SERVER_ADDRESS:-$DEFAULT_ADDRESS}"
case "$ADDRESS" in
  http://*|https://*) ;;
  *) echo "ray-job.sh: $ADDRESS is not a Jobs API address; use http://HEAD:8265 (the dashboard port)" >&2; exit 2 ;;
esac

# Ray token authentication (deploy.auth_mode=token): the cluster refuses requests without its token.
# The ray CLI reads it from RAY_AUTH_TOKEN, else from the file RAY_AUTH_TOKEN_PATH, else ~/.ray/auth_token.
# Get it where the head runs: `ray get-auth-token` (KubeRay: the Secret of spec.authOptions, key auth_token).
export RAY_AUTH_MODE=token
if [ -z "${RAY_AUTH_TOKEN:-}" ] && [ ! -s "${RAY_AUTH_TOKEN_PATH:-$HOME/.ray/auth_token}" ]; then
  echo "ray-job.sh: the cluster uses token authentication and this shell has no token: export RAY_AUTH_TOKEN=<the head's token> (run ray get-auth-token on the head)" >&2
  exit 2
fi

# Secrets come from this shell into the job's environment (Ray keeps them in its job table); never into this file.
: "${WANDB_API_KEY:?set WANDB_API_KEY in this shell first}"
RUNTIME_ENV='{"excludes": [".git", "__pycache__"]}'
MERGE_SECRETS='import json, os, sys
env = json.loads(sys.argv[1])
env.setdefault("env_vars", {}).update({n: os.environ[n] for n in sys.argv[2:]})
print(json.dumps(env))'
RUNTIME_ENV="$(python3 -c "$MERGE_SECRETS" "$RUNTIME_ENV" WANDB_API_KEY)"

exec ray job submit --address "$ADDRESS" --working-dir "$HERE" --runtime-env-json "$RUNTIME_ENV" -- python3 -m verl.trainer.main_ppo --config-dir=. --config-name=config "$@"
