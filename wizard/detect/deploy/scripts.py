"""Read job.sbatch (Slurm starting Ray) and `ray job submit` scripts into DeployFacts, without running them.

The script is followed the way bash would run it (wizard.detect.script.bash): variables, arrays, functions and
exports, `#SBATCH` directives give the allocation, each `srun ... ray start` gives a node group and the
environment it inherits (`--export=NONE` passes none), and the `python -m verl.trainer.main_ppo` command
gives the driver and the Hydra overrides. A one-node script with no `ray start` is a local run: verl starts
its own Ray on the allocation. The config is the one the command's config folder holds (the config.yaml
beside the script), with the command's overrides on top.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, TypeGuard

from wizard.core.choices import Target
from wizard.core.rules.deploy.facts import TOKEN_SLURM, TOKEN_SUBMITTER, DeployFacts, NodeGroup
from wizard.detect.config.files import read_launch_script
from wizard.detect.deploy.manifest_input import ManifestInput
from wizard.detect.script.bash.values import Spread, Unknown, shown
from wizard.detect.script.check_input import read_beside
from wizard.detect.script.launch import NotMainPpo
from wizard.detect.script.reading import follow
from wizard.errors import UsageError
from wizard.i18n.text import Msg

_ONE_ELEMENT = re.compile(r"^\s*(\w+)=\(\s*\"\$\{?(\w+)\}?\"\s*\)", re.M)
_DIRECTIVE = re.compile(r"^#SBATCH\s+(.*)$", re.M)


def _steps(path: Path, text: str, seed: dict[str, str], env: dict | None, args: list | None):
    """The commands the script would start (bash reader Steps), and the values each variable was given."""
    trace, _notes, _sourced, history = follow(text, str(path), {**seed, **(env or {})}, args, read_beside, True)
    return trace, history


def _words(fields) -> list[str]:
    """A step's fields as text; an unknown part is written as the script writes it ($VAR, $(cmd))."""
    return [f.shown if isinstance(f, Spread) else shown(f) for f in fields]


_PLAIN_VARIABLE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")


def _env_text(value) -> str:
    """An environment value as the rules read it: a variable bash expands when the step runs as ${NAME} (so it
    reads apart from a literal '$X' the script quoted), a command's output as its substitution $(cmd)."""
    parts = []
    for piece in value:
        if isinstance(piece, Unknown) and (m := _PLAIN_VARIABLE.match(piece.shown)):
            parts.append("${" + m.group(1) + "}")
        else:
            parts.append(piece if isinstance(piece, str) else piece.shown)
    return "".join(parts)


def _env_of(step) -> dict[str, str]:
    return {name: _env_text(value) for name, value in sorted(step.env.items())}


def _prefix_of(step) -> dict[str, str]:
    return {name: shown(value) for name, value in step.assigns.items()}


def _option(fields: list[str], *names: str) -> str | None:
    """The value of --name=value / --name value / -n value among fields."""
    for i, f in enumerate(fields):
        for name in names:
            if f.startswith(name + "="):
                return f.split("=", 1)[1]
            if f == name and i + 1 < len(fields):
                return fields[i + 1]
    return None


def _int(text: str | None) -> int | None:
    m = re.search(r"(\d+)\s*$", text or "")
    return int(m.group(1)) if m else None


def _directives(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in _DIRECTIVE.findall(text):
        fields = line.split("#", 1)[0].split()
        for i, f in enumerate(fields):
            if f.startswith("--"):
                key, _, value = f[2:].partition("=")
                out[key] = value
            elif f.startswith("-") and len(f) == 2 and i + 1 < len(fields):
                out[
                    {
                        "N": "nodes",
                        "c": "cpus-per-task",
                        "n": "ntasks",
                        "t": "time",
                        "p": "partition",
                        "A": "account",
                    }.get(f[1], f[1])
                ] = fields[i + 1]
    return out


def _srun_env(exported: dict[str, str], fields: list[str], prefix: dict[str, str]) -> dict[str, str]:
    spec = _option(fields[: _tool_index(fields)], "--export")
    if spec is None or spec.upper().startswith("ALL"):
        env = dict(exported)
    elif spec.upper() == "NONE":
        env = {}
    else:
        names = {item.split("=")[0] for item in spec.split(",")}
        env = {n: v for n, v in exported.items() if n in names}
    env.update(prefix)
    if spec and "," in spec:
        env.update(dict(item.split("=", 1) for item in spec.split(",") if "=" in item))
    return env


def _resolved(value: str | None) -> TypeGuard[str]:
    """A value written in the script (not one that only exists when it runs)."""
    return bool(value and "$" not in value and "`" not in value)


def _tool_index(fields: list[str]) -> int:
    """Where the command that srun runs begins (after srun's own options)."""
    for i, f in enumerate(fields):
        if f.endswith("ray") or f.startswith("python") or f in ("hostname", "apptainer", "singularity"):
            return i
    return len(fields)


def _auth(env: dict[str, str], submitter: bool = False) -> tuple[str | None, str | Msg | None]:
    mode = env.get("RAY_AUTH_MODE")
    source: str | Msg | None
    if submitter and mode == "token":
        source = TOKEN_SUBMITTER  # the ray CLI's own lookup in the shell that runs the script
    elif "RAY_AUTH_TOKEN" in env:
        source = TOKEN_SLURM if env["RAY_AUTH_TOKEN"].startswith("$") else "written in the script"
    elif "RAY_AUTH_TOKEN_PATH" in env:
        source = f"file:{env['RAY_AUTH_TOKEN_PATH']}"
    else:
        source = "~/.ray/auth_token of each node" if mode == "token" else None
    return mode, source


def _config(path: Path, text: str, env: dict | None, args: list | None, seed: dict | None = None):
    """The verl overrides of the script on top of the config folder it names (wizard.detect.script.check_input)."""
    try:
        command = read_launch_script(path, text, {**(seed or {}), **(env or {})}, args)
    except UsageError as exc:
        # a job that runs another verl program (a recipe's trainer, SFT) has no main_ppo config to compare with
        # verl's defaults: check says it has nothing to judge (SCRIPT-017), as for a plain launch script
        if isinstance(exc, NotMainPpo) and exc.reason.key == "script.other_entry":
            raise
        return {}, [f"{path} has no python -m verl.trainer.main_ppo command; compared with verl's defaults"], None, None
    return dict(command.flat), list(command.notes), command.script, command


NUM_CPUS_OVERRIDES = tuple(f"{p}ray_kwargs.ray_init.num_cpus=" for p in ("", "+", "++"))


def _cpus(value: str | None) -> float | None:
    """Ray's logical CPUs given as a number (--num-cpus N, ray_init.num_cpus=N); None when not given or not one."""
    number = _int(value)
    return float(number) if number else None


def read_sbatch(path: Path, text: str, env: dict | None = None, args: list | None = None) -> ManifestInput:
    directives = _directives(text)
    nodes = _int(directives.get("nodes")) or 1
    per_node = _int(directives.get("gpus-per-node")) or _int(directives.get("gres"))
    cpus = _int(directives.get("cpus-per-task"))
    seed = {"SLURM_JOB_NUM_NODES": str(nodes), "SLURM_NNODES": str(nodes)}
    if "gpus-per-node" in directives and per_node:
        seed["SLURM_GPUS_PER_NODE"] = str(per_node)
    if per_node:
        # set in the job's environment whenever it has GPUs, by --gres or --gpus-per-node alike
        seed["SLURM_GPUS_ON_NODE"] = str(per_node)
    if cpus:
        seed["SLURM_CPUS_PER_TASK"] = str(cpus)
    # Read as submitted from the script's own folder (cd DIR && sbatch job.sbatch): the job starts there.
    seed["SLURM_SUBMIT_DIR"] = seed["PWD"] = str(path.resolve().parent)
    steps, _history = _steps(path, text, seed, env, args)
    head = workers = None
    driver_env: dict[str, str] = {}
    driver_line = own_cpus = None
    addresses: list[tuple[str, str, str]] = []
    for step in steps:
        fields, prefix, exported, line = _words(step.fields), _prefix_of(step), _env_of(step), step.line
        at = next((i for i in range(len(fields) - 1) if fields[i].endswith("ray") and fields[i + 1] == "start"), None)
        if at is not None:
            opts = fields[at + 2 :]
            step_env = _srun_env(exported, fields, prefix) if fields[0].endswith("srun") else {**exported, **prefix}
            mode, source = _auth(step_env)
            is_head = "--head" in opts
            group = NodeGroup(
                "head" if is_head else "worker",
                1 if is_head else max(nodes - 1, 0),
                _int(_option(opts, "--num-gpus")) or per_node or 0,
                # without --num-cpus, Ray counts the node's CPUs (or a container's cgroup quota): the task's
                # --cpus-per-task binds the processes to cores, it does not set Ray's logical CPUs
                _cpus(_option(opts, "--num-cpus")),
                step_env,
                {},
                mode,
                source,
                f"ray start {'--head' if is_head else '(workers)'} (line {line})",
            )
            joins = _option(opts, "--address")
            if not is_head and _resolved(joins):
                addresses.append(("ray-start", joins, f"line {line}"))
            head, workers = (group, workers) if is_head else (head, workers or group)
        elif "verl.trainer.main_ppo" in fields and "-m" in fields and driver_line is None:
            driver_line = line
            driver_env = _srun_env(exported, fields, prefix) if fields[0].endswith("srun") else {**exported, **prefix}
            own_cpus = next((_cpus(f.partition("=")[2]) for f in fields if f.startswith(NUM_CPUS_OVERRIDES)), None)
            if _resolved(driver_env.get("RAY_ADDRESS")):
                addresses.append(("ray-init", driver_env["RAY_ADDRESS"], f"line {line} RAY_ADDRESS"))
    problems = [
        f'line {text[: m.start()].count(chr(10)) + 1}: {m.group(1)}=("${m.group(2)}") puts every host name into one array '
        f"element (verl issue 548): the head step gets them all and no worker starts; write {m.group(1)}=(${m.group(2)}) "
        f"or use mapfile"
        for m in _ONE_ELEMENT.finditer(text)
    ]
    starts_ray = head is not None or workers is not None
    if not starts_ray and nodes == 1 and driver_line is not None:
        # One node and no `ray start`: verl starts its own Ray on the allocation, as `python -m ...` does locally.
        d_mode, d_source = _auth(driver_env)
        alloc = NodeGroup(
            "head",
            1,
            per_node or 0,
            own_cpus,  # ray_kwargs.ray_init.num_cpus, else Ray counts the node's CPUs (not --cpus-per-task)
            driver_env,
            {},
            d_mode,
            d_source,
            f"verl's own Ray (ray_kwargs.ray_init.num_cpus, driver line {driver_line})"
            if own_cpus
            else f"the allocation (#SBATCH, driver line {driver_line})",
        )
        facts = DeployFacts(
            target=Target.SLURM.value,
            origin="manifest",
            source=str(path),
            groups=(alloc,) if per_node else (),
            driver_env=driver_env,
            driver_auth_mode=d_mode,
            driver_token_source=d_source,
            driver_where="driver step (python -m verl...)",
            joins_cluster=False,
            problems=tuple(problems),
        )
        return _manifest("Slurm batch script", path, text, env, args, facts, Target.SLURM.value, seed=seed)
    groups = tuple(g for g in (head, workers) if g is not None and g.replicas > 0)
    if head is None:
        problems.append("no `ray start --head` step: nothing starts the Ray head")
    d_mode, d_source = _auth(driver_env)
    facts = DeployFacts(
        target=Target.SLURM.value,
        origin="manifest",
        source=str(path),
        groups=groups,
        driver_env=driver_env,
        driver_auth_mode=d_mode,
        driver_token_source=d_source,
        driver_where="driver step (python -m verl...)",
        addresses=tuple(addresses),
        joins_cluster=True,
        problems=tuple(problems),
        inline_secrets=tuple(g.where for g in groups if g.token_source == "written in the script"),
    )
    return _manifest("Slurm batch script", path, text, env, args, facts, Target.SLURM.value, seed=seed)


def _manifest(kind, path: Path, text: str, env, args, facts, target: str, first_note=None, seed=None):
    flat, notes, script, command = _config(path, text, env, args, seed)
    flat["deploy.target"] = target
    if first_note:
        notes.insert(0, first_note)
    found = ManifestInput(kind, flat, notes, script, deploy=facts)
    if command is not None:
        found.unknowns, found.fed = command.unknowns, command.fed
    return found


def read_ray_job_script(path: Path, text: str, env: dict | None = None, args: list | None = None) -> ManifestInput:
    steps, history = _steps(path, text, {}, env, args)
    runtime: Any  # --runtime-env-json's JSON: a dict when the script's is well formed
    address, runtime, driver = None, {}, {}
    for step in steps:
        fields, prefix, exported = _words(step.fields), _prefix_of(step), _env_of(step)
        at = next((i for i in range(len(fields) - 1) if fields[i].endswith("ray") and fields[i + 1] == "job"), None)
        if at is None or at + 2 >= len(fields) or fields[at + 2] != "submit":
            continue
        cut = fields.index("--") if "--" in fields else len(fields)
        opts = fields[at + 3 : cut]
        step_env = {**exported, **prefix}
        address = _option(opts, "--address") or step_env.get("RAY_API_SERVER_ADDRESS") or step_env.get("RAY_ADDRESS")
        raw = _option(opts, "--runtime-env-json")
        var = re.search(r"--runtime-env-json[= ]+\"?\$\{?(\w+)", text)
        if raw and not _resolved(raw) and var:  # set at run time from a literal written earlier: read that one
            raw = next((v for v in reversed(history.get(var.group(1), [])) if v.lstrip().startswith("{")), None)
        try:
            runtime = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            runtime = {}
        driver = {
            str(k): str(v) for k, v in ((runtime.get("env_vars") or {}) if isinstance(runtime, dict) else {}).items()
        }
        mode, source = _auth(step_env, submitter=True)
        break
    else:
        raise UsageError(f"{path}: no `ray job submit` command was found")
    addresses = [("jobs-api", address, "ray job submit --address")] if _resolved(address) else []
    if _resolved(driver.get("RAY_ADDRESS")):
        addresses.append(("ray-init", driver["RAY_ADDRESS"], "runtime_env env_vars RAY_ADDRESS"))
    facts = DeployFacts(
        target=Target.RAY_JOB.value,
        origin="manifest",
        source=str(path),
        driver_env=driver,
        driver_auth_mode=mode,
        driver_token_source=source,
        driver_where="the job (runtime_env)",
        addresses=tuple(addresses),
        joins_cluster=True,
    )
    return _manifest(
        "launch script", path, text, env, args, facts, Target.RAY_JOB.value, "read as a `ray job submit` script"
    )


def read_script_manifest(path: Path, text: str, env: dict | None = None, args: list | None = None) -> ManifestInput:
    if _DIRECTIVE.search(text):
        return read_sbatch(path, text, env, args)
    return read_ray_job_script(path, text, env, args)
