"""ray-job.sh: `ray job submit` of the run to a Ray cluster that already runs, through its Jobs API.

The folder holding config.yaml is the job's working_dir (uploaded by the CLI), so the entrypoint reads
`--config-dir=.` there. Variables for every node (interface names, deploy.env) go in the runtime env;
secrets are taken from the submitting shell at submit time and never written into the file. The script
says where the Ray token comes from and refuses to submit without one when token authentication is on.
"""

from __future__ import annotations

import json

from wizard.core.answers.model import Answers
from wizard.core.choices import Target
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import jobs_address, node_env, secret_env_names
from wizard.emit.manifests.common import header_lines, launch_header, q, shell_comment
from wizard.emit.manifests.registry import renders

ENTRY = ["python3", "-m", "verl.trainer.main_ppo", "--config-dir=.", "--config-name=config"]
# Fixed program (no user data in it): adds the named variables of this shell to the runtime env's env_vars.
MERGE_SECRETS = (
    "import json, os, sys\n"
    "env = json.loads(sys.argv[1])\n"
    'env.setdefault("env_vars", {}).update({n: os.environ[n] for n in sys.argv[2:]})\n'
    "print(json.dumps(env))"
)


def runtime_env(answers: Answers) -> dict:
    env: dict = {"excludes": list(answers.deploy.excludes)}
    variables = node_env(answers)
    if variables:
        env["env_vars"] = variables
    return env


def _auth_block(answers: Answers) -> list[str]:
    if answers.deploy.auth_mode == "disabled":
        return [
            "# Ray token authentication is off (deploy.auth_mode=disabled): the cluster must have been started with",
            "# RAY_AUTH_MODE=disabled on every node too, or it refuses this submission.",
            "export RAY_AUTH_MODE=disabled",
        ]
    return [
        "# Ray token authentication (deploy.auth_mode=token): the cluster refuses requests without its token.",
        "# The ray CLI reads it from RAY_AUTH_TOKEN, else from the file RAY_AUTH_TOKEN_PATH, else ~/.ray/auth_token.",
        "# Get it where the head runs: `ray get-auth-token` (KubeRay: the Secret of spec.authOptions, key auth_token).",
        "export RAY_AUTH_MODE=token",
        'if [ -z "${RAY_AUTH_TOKEN:-}" ] && [ ! -s "${RAY_AUTH_TOKEN_PATH:-$HOME/.ray/auth_token}" ]; then',
        '  echo "ray-job.sh: the cluster uses token authentication and this shell has no token: export RAY_AUTH_TOKEN=<the head\'s token> (run ray get-auth-token on the head)" >&2',
        "  exit 2",
        "fi",
    ]


@renders(Target.RAY_JOB)
def render_ray_job(answers: Answers, plan: Plan, config_text: str = "") -> str:
    """ray-job.sh (config_text unused: the script uploads this folder with config.yaml in it)."""
    secrets = secret_env_names(answers)
    lines = [
        "#!/usr/bin/env bash",
        *[shell_comment(h) for h in header_lines(answers, plan, "ray job submit script") + launch_header(answers)],
        "# Usage: ./ray-job.sh [Hydra overrides ...]   The Ray cluster must already run (ray start on every node).",
        "set -euo pipefail",
        'HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"',
        "",
        "# The Jobs API (the head's dashboard port 8265), not the GCS port; RAY_API_SERVER_ADDRESS overrides it.",
        f"DEFAULT_ADDRESS={q(jobs_address(answers))}",
        'ADDRESS="${RAY_API_SERVER_ADDRESS:-$DEFAULT_ADDRESS}"',
        'case "$ADDRESS" in',
        "  http://*|https://*) ;;",
        '  *) echo "ray-job.sh: $ADDRESS is not a Jobs API address; use http://HEAD:8265 (the dashboard port)" >&2; exit 2 ;;',
        "esac",
        "",
        *_auth_block(answers),
        "",
    ]
    if secrets:
        lines.append(
            "# Secrets come from this shell into the job's environment (Ray keeps them in its job table); never into this file."
        )
        lines += [f': "${{{n}:?set {n} in this shell first}}"' for n in secrets]
    lines += [
        f"RUNTIME_ENV={q(json.dumps(runtime_env(answers), sort_keys=True))}",
        f"MERGE_SECRETS={q(MERGE_SECRETS)}",
        'RUNTIME_ENV="$(python3 -c "$MERGE_SECRETS" "$RUNTIME_ENV"' + "".join(f" {n}" for n in secrets) + ')"',
        "",
        'exec ray job submit --address "$ADDRESS" --working-dir "$HERE" --runtime-env-json "$RUNTIME_ENV" -- '
        + " ".join(ENTRY)
        + ' "$@"',
    ]
    return "\n".join(lines) + "\n"
