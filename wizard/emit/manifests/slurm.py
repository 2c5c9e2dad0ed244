"""job.sbatch: a Ray cluster over the Slurm allocation (one task per node), then verl's driver on the head.

Head first, then one worker per other node, each a background `srun ... ray start --block` step; the
script waits for the head's GCS and then until every node has joined (by count, with a deadline and a
message saying which), and only then starts the driver with `srun --overlap` on the head. Host names come
from `scontrol show hostnames` into one array element each (verl's own example quotes them into one
element: verl issue 548). Every step inherits one environment (`--export=ALL`), so the interface names and
the one Ray token reach every node.
"""

from __future__ import annotations

from wizard.core.answers.model import Answers
from wizard.core.choices import Target
from wizard.core.plan import Plan
from wizard.core.rules.deploy.facts import (
    dns_label,
    gpu_nodes_needed,
    k8s_name,
    node_env,
    ray_cpus,
    secret_env_names,
    verl_cpus_beyond_bundles,
)
from wizard.emit.manifests.common import header_lines, launch_header, q, shell_comment
from wizard.emit.manifests.registry import renders

WAIT_FOR_NODES = """\
import sys, time
import ray
address, want, budget = sys.argv[1], int(sys.argv[2]), max(10, int(sys.argv[3]))
ray.init(address=address, logging_level="ERROR", log_to_driver=False)
deadline = time.time() + budget
while True:
    alive = sum(1 for node in ray.nodes() if node["Alive"])
    if alive >= want:
        print(f"job.sbatch: {alive} of {want} Ray nodes joined")
        break
    if time.time() > deadline:
        sys.exit(f"job.sbatch: only {alive} of {want} Ray nodes joined within the deadline; see the worker steps' output above")
    time.sleep(5)"""


def _directives(answers: Answers, plan: Plan, nodes: int) -> list[str]:
    d = answers.deploy
    per = plan.gpus_per_node
    lines = [
        f"#SBATCH --job-name={dns_label(k8s_name(answers))}",
        f"#SBATCH --nodes={nodes}",
        "#SBATCH --ntasks-per-node=1",
        f"#SBATCH --gpus-per-node={per}",
        f"#SBATCH --cpus-per-task={d.cpus_per_gpu * per}",
        f"#SBATCH --mem={d.memory_per_gpu_gib * per}G",
        "#SBATCH --exclusive",
        f"#SBATCH --time={d.slurm_time}",
        "#SBATCH --output=%x-%j.out",
    ]
    if d.slurm_partition:
        lines.append(f"#SBATCH --partition={d.slurm_partition}")
    if d.slurm_account:
        lines.append(f"#SBATCH --account={d.slurm_account}")
    return lines


def _auth(answers: Answers) -> list[str]:
    if answers.deploy.auth_mode == "disabled":
        return [
            "# Ray token authentication off on every node and the driver, said explicitly: with the mode unset,",
            "# ray start --head turns it on whenever a token file exists on the head, and the workers then cannot join.",
            "export RAY_AUTH_MODE=disabled",
            "unset RAY_AUTH_TOKEN RAY_AUTH_TOKEN_PATH",
        ]
    return [
        "# Ray token authentication: one token for the head, every worker and the driver. Yours (RAY_AUTH_TOKEN),",
        "# or a fresh one for this job; every srun step inherits it (--export=ALL). It is never written to a file.",
        "export RAY_AUTH_MODE=token",
        'if [ -z "${RAY_AUTH_TOKEN:-}" ]; then',
        "  RAY_AUTH_TOKEN=\"$(python3 -c 'import secrets; print(secrets.token_hex(32))')\"",
        "fi",
        "export RAY_AUTH_TOKEN",
        "unset RAY_AUTH_TOKEN_PATH",
    ]


@renders(Target.SLURM)
def render_slurm(answers: Answers, plan: Plan, config_text: str = "") -> str:
    """job.sbatch (config_text unused: the job reads config.yaml from this folder on a shared filesystem)."""
    d = answers.deploy
    per = plan.gpus_per_node
    nodes = gpu_nodes_needed(plan)
    env = node_env(answers)
    secrets = secret_env_names(answers)
    lines = [
        "#!/usr/bin/env bash",
        *_directives(answers, plan, nodes),
        *[shell_comment(h) for h in header_lines(answers, plan, "Slurm batch script") + launch_header(answers)],
        "# Submit from the folder that holds config.yaml: cd DIR && sbatch job.sbatch [Hydra overrides ...]",
        "set -euo pipefail",
        "",
        f"NNODES={nodes}  # trainer.nnodes (with split pools: every pool's nodes)",
        f"GPUS_PER_NODE={per}  # trainer.n_gpus_per_node",
        f"CPUS_PER_NODE={d.cpus_per_gpu * per}  # --cpus-per-task; verl reserves 3 CPUs per GPU",
        f"RAY_CPUS={ray_cpus(answers, plan, d.cpus_per_gpu * per)}  # CPUS_PER_NODE + {verl_cpus_beyond_bundles(answers, nodes)} "
        "for verl's TransferQueue actors, which hold a CPU each and mostly wait",
        f"RAY_PORT={d.ray_port}",
        f"JOIN_TIMEOUT={d.join_timeout_s}  # seconds for the head and every worker to join",
        'CONFIG_DIR="${VERL_WIZARD_CONFIG_DIR:-${SLURM_SUBMIT_DIR:-$PWD}}"',
        "",
        'fail() { echo "job.sbatch: $*" >&2; exit 1; }',
        '[ -f "$CONFIG_DIR/config.yaml" ] || fail "no config.yaml in $CONFIG_DIR: submit from the folder that holds it (cd DIR && sbatch job.sbatch)"',
        '[ "${SLURM_JOB_NUM_NODES:-$NNODES}" = "$NNODES" ] || fail "the job has ${SLURM_JOB_NUM_NODES} nodes but config.yaml needs $NNODES"',
        "",
        "# Every srun step below inherits this environment (--export=ALL): the same variables on every node.",
        "export PYTHONUNBUFFERED=1",
    ]
    lines += [f"export {name}={q(value)}" for name, value in env.items()]
    lines += ["", *_auth(answers), ""]
    if secrets:
        lines.append("# Secrets come from the environment sbatch was called in; they are never written here.")
        lines += [f': "${{{n}:?export {n} before sbatch}}"' for n in secrets]
        lines.append("")
    lines += [
        "# One host name per array element.",
        'mapfile -t NODES < <(scontrol show hostnames "$SLURM_JOB_NODELIST")',
        '[ "${#NODES[@]}" -eq "$NNODES" ] || fail "scontrol lists ${#NODES[@]} hosts, expected $NNODES"',
        'HEAD_NODE="${NODES[0]}"',
        'HEAD_IP="$(srun --nodes=1 --ntasks=1 --nodelist="$HEAD_NODE" hostname --ip-address | awk \'{print $1}\')"',
        '[ -n "$HEAD_IP" ] || fail "could not read the IP address of $HEAD_NODE"',
        'HEAD_ADDRESS="$HEAD_IP:$RAY_PORT"',
        'echo "job.sbatch: Ray head on $HEAD_NODE ($HEAD_ADDRESS), ${NNODES} node(s) x ${GPUS_PER_NODE} GPU(s)"',
        "",
        "# Ray counts the GPUs each step really has (Slurm's CUDA_VISIBLE_DEVICES): verl then checks them itself.",
        'srun --nodes=1 --ntasks=1 --nodelist="$HEAD_NODE" --export=ALL \\',
        '  ray start --head --node-ip-address="$HEAD_IP" --port="$RAY_PORT" --num-cpus="$RAY_CPUS" --disable-usage-stats --block &',
        "HEAD_STEP=$!",
        "",
        "DEADLINE=$((SECONDS + JOIN_TIMEOUT))",
        'until ray health-check --address "$HEAD_ADDRESS" >/dev/null 2>&1; do',
        '  kill -0 "$HEAD_STEP" 2>/dev/null || fail "the Ray head step on $HEAD_NODE ended; see its output above"',
        '  [ "$SECONDS" -lt "$DEADLINE" ] || fail "the Ray head did not answer at $HEAD_ADDRESS within ${JOIN_TIMEOUT}s; see its output above"',
        "  sleep 2",
        "done",
        "",
        'for node in "${NODES[@]:1}"; do',
        '  srun --nodes=1 --ntasks=1 --nodelist="$node" --export=ALL \\',
        '    ray start --address="$HEAD_ADDRESS" --num-cpus="$RAY_CPUS" --disable-usage-stats --block &',
        "done",
        "",
        "# Wait until every node has joined, counted, with the same deadline (not a fixed sleep).",
        'python3 - "$HEAD_ADDRESS" "$NNODES" "$((DEADLINE - SECONDS))" <<\'PY\' || fail "not every node joined the Ray cluster within ${JOIN_TIMEOUT}s"',
        WAIT_FOR_NODES,
        "PY",
        "",
        "# verl's driver on the head, attached to this cluster (the GCS address, not http://).",
        'export RAY_ADDRESS="$HEAD_ADDRESS"',
        'srun --overlap --nodes=1 --ntasks=1 --nodelist="$HEAD_NODE" --export=ALL \\',
        '  python3 -m verl.trainer.main_ppo --config-path="$CONFIG_DIR" --config-name=config "$@"',
    ]
    return "\n".join(lines) + "\n"
