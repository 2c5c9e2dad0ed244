"""ENV-009..015: the machine and shell a run starts in (shared memory, limits, disk, downloads, variables).

Pure: the probe's report is data (wizard.detect.env.env_probe_script). `judge_environment` runs these and the package
checks of environment.py, in catalogue order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wizard.core.findings import Finding, Fix, Severity, error, info, warning
from wizard.core.model_facts import from_catalogue
from wizard.core.plan import build_plan
from wizard.core.rules.declare import emits, make_finding, why
from wizard.core.rules.env.packages import PACKAGE_CHECKS, Run
from wizard.core.targets import spec
from wizard.i18n.text import msg

GIB = 1024**3
NCCL_MIN_SHM = GIB  # NCCL's shared-memory transport between GPUs of one node needs far more than a container's 64 MB
OBJECT_STORE_SHARE = 0.3  # Ray's default object store: 30% of the node's memory, in /dev/shm when it fits
OPEN_FILES = 65536
# A full FSDP checkpoint per parameter: bf16 weights (2 bytes) + fp32 Adam moments (8) + fp32 master copy (4).
CHECKPOINT_BYTES_PER_PARAM = 14
UNKNOWN_MODEL_DISK = 10 * GIB
SLOW_PATHS = ("NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_IB_DISABLE")
OFFLINE = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")


def _gib(n: float) -> str:
    return f"{n / GIB:.1f}"


@emits(
    "ENV-009",
    Severity.WARNING,
    title="/dev/shm is too small",
    why="Ray puts its object store in /dev/shm and falls back to slow disk when it is smaller than the store (30% of memory); NCCL uses it for transfers between GPUs of one node, and a container's default 64 MB makes multi-GPU collectives fail.",
)
def check_shm(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    shm, memory = report.get("shm_bytes"), report.get("memory_bytes")
    if shm is None:
        return
    per_node = build_plan(run.answers).gpus_per_node
    fix = (Fix(set={}, label=msg("env.fix.shm")),)
    if per_node > 1 and shm < NCCL_MIN_SHM:
        yield error("ENV-009", ["/dev/shm"], msg("env.shm_nccl", have=_gib(shm), gpus=per_node), why("ENV-009"), fix)
    elif memory and shm < OBJECT_STORE_SHARE * memory:
        yield make_finding(
            "ENV-009",
            ["/dev/shm"],
            msg("env.shm_object_store", have=_gib(shm), need=_gib(OBJECT_STORE_SHARE * memory)),
            fix,
        )


@emits(
    "ENV-010",
    Severity.WARNING,
    title="The open-files limit is low",
    why="Ray and verl's workers hold many sockets and files per process; under a soft limit of 65536 a larger run fails with 'Too many open files' part way.",
)
def check_open_files(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    limits = report.get("open_files")
    if not limits or limits[0] < 0 or limits[0] >= OPEN_FILES:
        return
    soft, hard = limits
    if hard < 0 or hard >= OPEN_FILES:
        fix = Fix(set={}, label=msg("env.fix.run", command=f"ulimit -n {OPEN_FILES}"))
    else:  # the soft limit cannot go past the hard one without root
        fix = Fix(set={}, label=msg("env.fix.hard_limit", n=OPEN_FILES))
    yield make_finding(
        "ENV-010", ["ulimit -n"], msg("env.open_files", soft=soft, hard=hard if hard >= 0 else "unlimited"), (fix,)
    )


@emits(
    "ENV-011",
    Severity.ERROR,
    title="Too little free disk for a checkpoint under trainer.default_local_dir",
    why="verl saves the model, optimizer and extra state every trainer.save_freq steps; a checkpoint that does not fit kills the run at its first save, after the training time it took to get there.",
)
def check_disk(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    disk = report.get("disk") or {}
    free = disk.get("free_bytes")
    if free is None:
        return
    facts = from_catalogue(run.answers.models.actor_path or "")
    if facts is not None and facts.complete:
        need = facts.param_count() * CHECKPOINT_BYTES_PER_PARAM
        if free < need:
            yield make_finding(
                "ENV-011",
                ["trainer.default_local_dir"],
                msg(
                    "env.disk_short",
                    path=disk.get("path", "?"),
                    free=_gib(free),
                    need=_gib(need),
                    model=run.answers.models.actor_path,
                ),
            )
    elif free < UNKNOWN_MODEL_DISK:
        yield warning(
            "ENV-011",
            ["trainer.default_local_dir"],
            msg("env.disk_low", path=disk.get("path", "?"), free=_gib(free)),
            why("ENV-011"),
        )


def is_hub_id(path: str | None) -> bool:
    """A Hugging Face repo id (org/name), not a local or remote path: what verl downloads at start."""
    if not path or path.startswith(("/", ".", "~", "hdfs://", "s3://", "gs://")) or "://" in path:
        return False
    return path.count("/") == 1 and all(path.split("/"))


@emits(
    "ENV-012",
    Severity.ERROR,
    title="A model that must be downloaded cannot be",
    why="A Hugging Face id not in the cache is downloaded into HF_HOME at start; with HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE set, or HF_HOME not writable, the load fails on every worker.",
)
def check_downloads(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    hf = report.get("hf") or {}
    env = report.get("env") or {}
    offline = [name for name in OFFLINE if env.get(name, "").strip().lower() in ("1", "true", "yes", "on")]
    for model, cached in sorted((hf.get("cached") or {}).items()):
        if cached:
            continue
        if offline:
            yield make_finding(
                "ENV-012", ["actor_rollout_ref.model.path"], msg("env.offline_not_cached", model=model, flags=offline)
            )
        elif hf.get("writable") is False:
            yield make_finding(
                "ENV-012",
                ["actor_rollout_ref.model.path"],
                msg("env.hf_home_read_only", model=model, home=hf.get("home", "?")),
            )


@emits(
    "ENV-013",
    Severity.ERROR,
    title="A GPU mask in this shell that does not fit the run",
    why="Where verl starts its own Ray, that Ray takes its GPUs from CUDA_VISIBLE_DEVICES: a mask with another count than trainer.n_gpus_per_node leaves verl short of GPUs or GPUs idle; RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES puts every worker on the same devices.",
)
def check_gpu_mask(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    env = report.get("env") or {}
    if env.get("RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES"):
        yield make_finding(
            "ENV-013",
            ["RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES"],
            msg("env.noset_mask"),
            (Fix(set={}, label=msg("env.fix.run", command="unset RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES")),),
        )
    mask = env.get("CUDA_VISIBLE_DEVICES")
    if mask is None or not spec(run.target).runs_here or env.get("RAY_ADDRESS"):
        return
    count = len([d for d in mask.split(",") if d.strip()])
    need = build_plan(run.answers).gpus_per_node
    if count != need:
        yield make_finding(
            "ENV-013",
            ["CUDA_VISIBLE_DEVICES"],
            msg("env.mask_count", mask=mask, count=count, need=need),
            (Fix(set={"trainer.n_gpus_per_node": count}, label=msg("env.fix.gpus", n=count)),) if count else (),
        )


@emits(
    "ENV-014",
    Severity.WARNING,
    title="RAY_ADDRESS in this shell changes where the run starts",
    why="With RAY_ADDRESS set, verl's ray.init joins that cluster instead of starting its own on this machine; an http:// (Jobs API) address there makes ray.init fail.",
)
def check_ray_address(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    address = (report.get("env") or {}).get("RAY_ADDRESS")
    if not address or not spec(run.target).runs_here:
        return
    if address.startswith(("http://", "https://")):
        yield error("ENV-014", ["RAY_ADDRESS"], msg("env.ray_address_jobs_api", address=address), why("ENV-014"))
    else:
        yield make_finding("ENV-014", ["RAY_ADDRESS"], msg("env.ray_address_joins", address=address))


def _interface_matches(setting: str, interfaces: list[str]) -> bool:
    """NCCL's syntax: a comma list of prefixes, `=` for exact names, a leading `^` to exclude."""
    if setting.startswith("^"):
        return True  # an exclusion list leaves the others
    exact = setting.startswith("=")
    names = [n.strip() for n in setting.lstrip("=").split(",") if n.strip()]
    return any((i == n) if exact else i.startswith(n) for n in names for i in interfaces)


@emits(
    "ENV-015",
    Severity.ERROR,
    title="An NCCL or Gloo setting that does not fit this machine",
    why="NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME naming no interface here makes the first collective hang or fail; NCCL_P2P_DISABLE, NCCL_SHM_DISABLE or NCCL_IB_DISABLE force slow paths that cost a large share of the step time.",
)
def check_nccl(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    env, interfaces = report.get("env") or {}, report.get("interfaces")
    for name in ("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"):
        setting = env.get(name)
        if setting and interfaces is not None and not _interface_matches(setting, interfaces):
            yield make_finding(
                "ENV-015", [name], msg("env.no_such_interface", name=name, value=setting, interfaces=interfaces)
            )
    for name in SLOW_PATHS:
        if env.get(name, "").strip() not in ("", "0"):
            yield warning(
                "ENV-015",
                [name],
                msg("env.nccl_slow_path", name=name, value=env[name]),
                why("ENV-015"),
                (Fix(set={}, label=msg("env.fix.run", command=f"unset {name}")),),
            )


def check_where(run: Run, report: dict[str, Any]) -> Iterator[Finding]:
    """For a target whose workers start elsewhere, say where doctor must run to judge them."""
    where = spec(run.target).doctor_where  # where the workers run, and how to ask doctor there
    if where is None:
        return
    yield info("ENV-004", [], where, why("ENV-004"))


MACHINE_CHECKS = (
    check_shm,
    check_open_files,
    check_disk,
    check_downloads,
    check_gpu_mask,
    check_ray_address,
    check_nccl,
    check_where,
)


def judge_environment(run: Run, report: dict[str, Any]) -> list[Finding]:
    """Every ENV finding for this report, errors first, then by id."""
    findings = [f for check in (*PACKAGE_CHECKS, *MACHINE_CHECKS) for f in check(run, report)]
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    return sorted(findings, key=lambda f: (order[f.severity], f.id))
