"""Read job.sbatch (Slurm starting Ray) and `ray job submit` scripts into DeployFacts, without running them.

The script is walked the way bash would run it (wizard.detect.shell_words): variables and exports are
followed, `#SBATCH` directives give the allocation, each `srun ... ray start` gives a node group and the
environment it inherits (`--export=NONE` passes none), and the `python -m verl.trainer.main_ppo` command
gives the driver and the Hydra overrides. The config is the config.yaml beside the script when the command
points at a config folder, with the command's overrides on top.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from wizard.core.rules.deploy_facts import TOKEN_SLURM, TOKEN_SUBMITTER, DeployFacts, NodeGroup
from wizard.detect.config_files import read_launch_script, read_text, read_yaml_config
from wizard.detect.manifests import ManifestInput
from wizard.detect.shell_words import Expander, Lexer, assignment_len
from wizard.errors import UsageError

_ONE_ELEMENT = re.compile(r"^\s*(\w+)=\(\s*\"\$\{?(\w+)\}?\"\s*\)", re.M)
_DIRECTIVE = re.compile(r"^#SBATCH\s+(.*)$", re.M)
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "{", "!", "time"})


class _Walk:
    """Bash's view of the script, command by command: variables, exported names, per-command prefixes."""

    def __init__(self, text: str, seed: dict[str, str]):
        self.x = Expander()
        for name, value in seed.items():
            self.x.env[name] = (value, ())
        self.exported = set(seed)
        self.history: dict[str, list[str]] = {}
        self.commands = Lexer(text).run()

    def value(self, name: str) -> str | None:
        if name not in self.x.env:
            return None
        value, missing = self.x.env[name]
        return value if not missing else f"${{{name}}}"  # a $-placeholder: set at run time, not written here

    def env(self, only: set | None = None) -> dict[str, str]:
        names = self.exported if only is None else self.exported & only
        return {n: v for n in sorted(names) if (v := self.value(n)) is not None}

    def _assign(self, word, length: int) -> None:
        self.x.assign(word, length)
        name = word.parts[0][1][:length].rstrip("+=")
        value, missing = self.x.env[name]
        if not missing:
            self.history.setdefault(name, []).append(value)

    def run(self):
        """Yield (fields, prefix env, line) for every command that is not an assignment, export or unset."""
        for command in self.commands:
            words = command.words
            while words and words[0].parts == [("lit", words[0].raw)] and words[0].raw in _KEYWORDS:
                words = words[1:]
            if not words:
                continue
            lengths = [assignment_len(w) for w in words]
            head = words[0].raw
            if all(lengths):
                for word, length in zip(words, lengths, strict=False):
                    self._assign(word, length)
                continue
            if head == "export":
                for word, length in zip(words[1:], lengths[1:], strict=False):
                    if length:
                        self._assign(word, length)
                    self.exported.add(word.parts[0][1][:length].rstrip("+=") if length else word.raw)
                continue
            if head == "unset":
                for word in words[1:]:
                    self.x.env.pop(word.raw, None)
                    self.exported.discard(word.raw)
                continue
            prefix: dict[str, str] = {}
            while words and lengths and lengths[0]:
                saved = dict(self.x.env)
                self.x.assign(words[0], lengths[0])
                name = words[0].parts[0][1][: lengths[0]].rstrip("+=")
                prefix[name] = self.value(name) or ""
                self.x.env = saved
                words, lengths = words[1:], lengths[1:]
            fields = [text for w in words for text, _ in self.x.word(w, [])]
            yield fields, prefix, command.line


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


def _srun_env(walk: _Walk, fields: list[str], prefix: dict[str, str]) -> dict[str, str]:
    spec = _option(fields[: _tool_index(fields)], "--export")
    if spec is None or spec.upper().startswith("ALL"):
        env = walk.env()
    elif spec.upper() == "NONE":
        env = {}
    else:
        env = walk.env({item.split("=")[0] for item in spec.split(",")})
    env.update(prefix)
    if spec and "," in spec:
        env.update(dict(item.split("=", 1) for item in spec.split(",") if "=" in item))
    return env


def _resolved(value: str | None) -> bool:
    """A value written in the script (not one that only exists when it runs)."""
    return bool(value) and "$" not in value and "`" not in value


def _tool_index(fields: list[str]) -> int:
    """Where the command that srun runs begins (after srun's own options)."""
    for i, f in enumerate(fields):
        if f.endswith("ray") or f.startswith("python") or f in ("hostname", "apptainer", "singularity"):
            return i
    return len(fields)


def _auth(env: dict[str, str], submitter: bool = False) -> tuple[str | None, str | None]:
    mode = env.get("RAY_AUTH_MODE")
    if submitter and mode == "token":
        source = TOKEN_SUBMITTER  # the ray CLI's own lookup in the shell that runs the script
    elif "RAY_AUTH_TOKEN" in env:
        source = TOKEN_SLURM if env["RAY_AUTH_TOKEN"].startswith("$") else "written in the script"
    elif "RAY_AUTH_TOKEN_PATH" in env:
        source = f"file:{env['RAY_AUTH_TOKEN_PATH']}"
    else:
        source = "~/.ray/auth_token of each node" if mode == "token" else None
    return mode, source


def _config(path: Path, text: str) -> tuple[dict, list[str], object]:
    """The verl overrides of the script, on top of the config.yaml beside it when the command reads a config folder."""
    try:
        command = read_launch_script(path, text)
    except UsageError:
        return {}, [f"{path} has no python -m verl.trainer.main_ppo command; compared with verl's defaults"], None
    flat, notes, script = {}, list(command.notes), command.script
    beside = path.parent / "config.yaml"
    if re.search(r"--config-(path|dir)", text) and beside.is_file():
        found = read_yaml_config(beside, read_text(beside))
        flat.update(found.flat)
        # The config folder is the one beside the script: its config.yaml was read, so it is not a foreign config.
        notes = [f"config from {beside}"] + [n for n in notes if "its own primary config" not in n]
        if script is not None:
            script = replace(script, config_name=None, config_path=str(beside.parent))
    flat.update(command.flat)
    return flat, notes, script


def read_sbatch(path: Path, text: str) -> ManifestInput:
    directives = _directives(text)
    nodes = _int(directives.get("nodes")) or 1
    per_node = _int(directives.get("gpus-per-node")) or _int(directives.get("gres"))
    cpus = _int(directives.get("cpus-per-task"))
    seed = {"SLURM_JOB_NUM_NODES": str(nodes), "SLURM_NNODES": str(nodes)}
    if "gpus-per-node" in directives and per_node:
        seed["SLURM_GPUS_PER_NODE"] = str(per_node)
    if cpus:
        seed["SLURM_CPUS_PER_TASK"] = str(cpus)
    walk = _Walk(text, seed)
    head = workers = None
    driver_env: dict[str, str] = {}
    addresses: list[tuple[str, str, str]] = []
    for fields, prefix, line in walk.run():
        at = next((i for i in range(len(fields) - 1) if fields[i].endswith("ray") and fields[i + 1] == "start"), None)
        if at is not None:
            opts = fields[at + 2 :]
            env = _srun_env(walk, fields, prefix) if fields[0].endswith("srun") else {**walk.env(), **prefix}
            mode, source = _auth(env)
            is_head = "--head" in opts
            group = NodeGroup(
                "head" if is_head else "worker",
                1 if is_head else max(nodes - 1, 0),
                _int(_option(opts, "--num-gpus")) or per_node or 0,
                float(_int(_option(opts, "--num-cpus")) or cpus) if (_option(opts, "--num-cpus") or cpus) else None,
                env,
                {},
                mode,
                source,
                f"ray start {'--head' if is_head else '(workers)'} (line {line})",
            )
            if not is_head and _resolved(_option(opts, "--address")):
                addresses.append(("ray-start", _option(opts, "--address"), f"line {line}"))
            head, workers = (group, workers) if is_head else (head, workers or group)
        elif "verl.trainer.main_ppo" in fields and "-m" in fields:
            driver_env = _srun_env(walk, fields, prefix) if fields[0].endswith("srun") else {**walk.env(), **prefix}
            if _resolved(driver_env.get("RAY_ADDRESS")):
                addresses.append(("ray-init", driver_env["RAY_ADDRESS"], f"line {line} RAY_ADDRESS"))
    problems = [
        f'line {text[: m.start()].count(chr(10)) + 1}: {m.group(1)}=("${m.group(2)}") puts every host name into one array '
        f"element (verl issue 548): the head step gets them all and no worker starts; write {m.group(1)}=(${m.group(2)}) "
        f"or use mapfile"
        for m in _ONE_ELEMENT.finditer(text)
    ]
    groups = tuple(g for g in (head, workers) if g is not None and g.replicas > 0)
    if head is None:
        problems.append("no `ray start --head` step: nothing starts the Ray head")
    d_mode, d_source = _auth(driver_env)
    facts = DeployFacts(
        target="slurm",
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
    flat, notes, script = _config(path, text)
    flat["deploy.target"] = "slurm"
    return ManifestInput("Slurm batch script", flat, notes, script, deploy=facts)


def read_ray_job_script(path: Path, text: str) -> ManifestInput:
    walk = _Walk(text, {})
    address, runtime, driver = None, {}, {}
    for fields, prefix, _line in walk.run():
        at = next((i for i in range(len(fields) - 1) if fields[i].endswith("ray") and fields[i + 1] == "job"), None)
        if at is None or at + 2 >= len(fields) or fields[at + 2] != "submit":
            continue
        cut = fields.index("--") if "--" in fields else len(fields)
        opts = fields[at + 3 : cut]
        env = {**walk.env(), **prefix}
        address = _option(opts, "--address") or env.get("RAY_API_SERVER_ADDRESS") or env.get("RAY_ADDRESS")
        raw = _option(opts, "--runtime-env-json")
        var = re.search(r"--runtime-env-json[= ]+\"?\$\{?(\w+)", text)
        if raw and not _resolved(raw) and var:  # set at run time from a literal written earlier: read that one
            raw = next((v for v in reversed(walk.history.get(var.group(1), [])) if v.lstrip().startswith("{")), None)
        try:
            runtime = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            runtime = {}
        driver = {
            str(k): str(v) for k, v in ((runtime.get("env_vars") or {}) if isinstance(runtime, dict) else {}).items()
        }
        mode, source = _auth(env, submitter=True)
        break
    else:
        raise UsageError(f"{path}: no `ray job submit` command was found")
    addresses = [("jobs-api", address, "ray job submit --address")] if _resolved(address) else []
    if _resolved(driver.get("RAY_ADDRESS")):
        addresses.append(("ray-init", driver["RAY_ADDRESS"], "runtime_env env_vars RAY_ADDRESS"))
    facts = DeployFacts(
        target="ray-job",
        origin="manifest",
        source=str(path),
        driver_env=driver,
        driver_auth_mode=mode,
        driver_token_source=source,
        driver_where="the job (runtime_env)",
        addresses=tuple(addresses),
        joins_cluster=True,
    )
    flat, notes, script = _config(path, text)
    flat["deploy.target"] = "ray-job"
    notes.insert(0, "read as a `ray job submit` script")
    return ManifestInput("launch script", flat, notes, script, deploy=facts)


def read_script_manifest(path: Path, text: str) -> ManifestInput:
    if _DIRECTIVE.search(text):
        return read_sbatch(path, text)
    return read_ray_job_script(path, text)
