"""What one machine or pod offers the run, judged for the DEPLOY rules: the GPUs of a CUDA_VISIBLE_DEVICES mask,
the logical CPUs of the Ray instance verl starts itself, and the local paths a Kubernetes pod can see.

Part of the deployment family (wizard.core.rules.deploy.checks runs these checks with the others, over the same facts).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from wizard.core import verl_schema
from wizard.core.field_keys import address_of
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.plan import need_critic
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import emits, make_finding
from wizard.core.rules.deploy.facts import (
    CONFIG_DIR,
    CPUS_PER_GPU_BUNDLE,
    DeployFacts,
    local_ray_cpus_needed,
    tq_storage_units,
)
from wizard.core.targets import spec
from wizard.i18n.text import msg

NUM_CPUS_KEY = address_of("deploy.ray_init_num_cpus")  # the verl key its Spec declares


def visible_count(mask: str) -> int:
    """GPUs a CUDA_VISIBLE_DEVICES value shows: its non-empty comma-separated entries (as run.sh counts them)."""
    return sum(1 for device in mask.split(",") if device.strip())


@emits(
    "DEPLOY-005",
    Severity.ERROR,
    title="Too few CPUs per GPU",
    why="verl reserves {CPU: 3, GPU: 1} per GPU in placement groups packed onto one node; verl 0.9.1's V1 trainer first starts TransferQueue, whose controller and storage units (8, pinned round-robin to every Ray node) hold a CPU each for the whole run; and Ray places an actor without num_cpus (the TaskRunner, the rollout servers) only where a CPU is free. With fewer logical CPUs something never gets placed and training hangs without an error. Ray's logical CPUs are what ray start --num-cpus or ray_kwargs.ray_init.num_cpus gives, else the node's CPU count (or a container's cgroup quota): Slurm's --cpus-per-task does not set them.",
)
def check_own_ray_cpus(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    """Answers that give the Ray instance verl starts itself (local, k8s-job) fewer CPUs than verl 0.9.1 holds."""
    num_cpus = ctx.answers.deploy.ray_init_num_cpus
    if facts.origin != "answers" or not spec(facts.target).starts_ray or num_cpus is None:
        return
    need = local_ray_cpus_needed(ctx.answers, ctx.plan)
    if num_cpus < need:
        yield make_finding(
            "DEPLOY-005",
            [NUM_CPUS_KEY],
            msg(
                "deploy.cpus_local",
                setting=NUM_CPUS_KEY,
                cpus=num_cpus,
                need=need,
                gpus=ctx.plan.total_gpus,
                per=CPUS_PER_GPU_BUNDLE,
                units=tq_storage_units(ctx.answers),
                version=verl_schema.TARGET_VERSION,
            ),
            [Fix({NUM_CPUS_KEY: need}, msg("deploy.cpus_local_fix", need=need))],
        )


def run_paths(answers) -> list[tuple[str, str]]:
    """(verl key, value) of every data file, model and reward function the run reads, in config order."""
    m = answers.models
    items: list[tuple[str, object]] = [
        ("data.train_files", answers.data.train_files),
        ("data.val_files", answers.data.val_files),
        ("actor_rollout_ref.model.path", m.actor_path),
        ("critic.model.path", m.critic_path if need_critic(answers) else None),
        ("reward.reward_model.model_path", m.reward_model_path if m.reward_model_enable else None),
        ("reward.custom_reward_function.path", m.custom_reward_path),
    ]
    return [(key, str(v)) for key, value in items for v in (value if isinstance(value, list) else [value]) if v]


def _local_paths(answers) -> list[tuple[str, str]]:
    """The absolute local paths among run_paths (not Hugging Face ids, not hdfs:// or s3:// URLs)."""
    return [(key, path) for key, path in run_paths(answers) if path.startswith("/")]


def _under(path: str, folder: str) -> bool:
    folder = folder.rstrip("/") or "/"
    return folder == "/" or path == folder or path.startswith(folder + "/")


@emits(
    "DEPLOY-015",
    Severity.WARNING,
    title="Local paths the pods cannot see",
    why="A Kubernetes pod sees its image and its volumes only: a data file or model folder at a local path that no volume mounts does not exist there, and verl fails when it opens it, after the cluster has started.",
)
def check_pod_paths(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    """Kubernetes pods see the image and their volumes only: a local path elsewhere does not exist there."""
    if not spec(facts.target).kubernetes or facts.mounts is None:
        return
    mounts = [m for m in facts.mounts if m not in ("/dev/shm", CONFIG_DIR)]
    local = _local_paths(ctx.answers)
    unseen = [(key, path) for key, path in local if not any(_under(path, m) for m in mounts)]
    if not unseen:
        return
    d = ctx.answers.deploy
    shown = list(dict.fromkeys(path for _, path in unseen))
    fixes = []
    if facts.origin == "answers":
        parent = posixpath.commonpath([posixpath.dirname(path) for _, path in local])
        change = {} if d.data_volume else {"deploy.data_volume": "verl-data"}
        if parent != "/" and parent != d.data_mount:
            change["deploy.data_mount"] = parent
        if change:
            label = (
                msg("deploy.pod_paths_fix_mount", mount=change.get("deploy.data_mount", d.data_mount))
                if d.data_volume
                else msg("deploy.pod_paths_fix_pvc", mount=change.get("deploy.data_mount", d.data_mount))
            )
            fixes = [Fix(change, label)]
    message = (
        msg("deploy.pod_paths_outside", paths=shown, mounts=mounts, n=len(shown))
        if mounts
        else msg("deploy.pod_paths_unmounted", paths=shown, n=len(shown))
    )
    yield make_finding(
        "DEPLOY-015",
        ["deploy.data_volume", "deploy.data_mount"] if facts.origin == "answers" else [facts.source],
        message,
        fixes,
    )
