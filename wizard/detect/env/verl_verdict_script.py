"""verl's own verdict on a config, asked in the interpreter that runs verl (started by wizard.detect.env.verl_verdict).

Run as `PYTHON -c TEXT [REQUEST_JSON]` (without it, the request is the first line of standard input, read once verl
is imported: the wizard starts this before it knows the question); it imports only the standard library, verl and
the Hydra/OmegaConf verl uses. It composes the config (verl_verdict_compose.py's step, sent ahead of this text) with
Hydra's compose API as `python -m verl.trainer.main_ppo --config-path=DIR --config-name=NAME OVERRIDES...` does
(DIR: verl's own verl/trainer/config when the run names none), runs what main_ppo.main runs before Ray starts
(auto_set_device, then validate_config with need_reference_policy and need_critic), then resolves the interpolations
as its TaskRunner does before it builds the workers. A check this verl does not have is listed as missing, not
failed. Nothing of the run starts: no Ray, no worker, no download.

The report is the last stdout line that starts with MARK (verl's own prints go to stderr):
{"schema": 1, "verl": {"version", "location"} | null, "stage": null | "no_verl" | "import" | "compose" | a check,
 "error": "Type: text" | null, "checks": [the checks that passed], "missing": [...], "skipped": [[check, error]]}
"""

import importlib
import json
import os
import sys
import traceback

try:  # sent by the wizard, the shared compose step comes ahead of this text (verl_verdict.source)
    compose_config, quote  # noqa: B018
except NameError:  # read as a module of the wizard's tree
    from wizard.detect.env.verl_verdict_compose import compose_config, quote

MARK = "VERL_WIZARD_VERL "
# A check that fails only because one of these is not installed here is skipped, not a refusal of the config:
# verl imports the engine in that check (validate_config's vLLM LoRA rank), and the run's machine may have it.
ENGINE_MODULES = ("vllm", "sglang", "megatron", "mbridge", "transformer_engine", "apex", "flash_attn")


def missing_engine(exc):
    """The engine module whose absence made `exc`, or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        names = []
        if isinstance(exc, ImportError):
            names.append((getattr(exc, "name", None) or "").split(".")[0])
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename.replace(os.sep, "/").endswith("verl/third_party/vllm/__init__.py"):
                names.append("vllm")
        for name in names:
            if name in ENGINE_MODULES:
                return name
        exc = exc.__cause__ or exc.__context__
    return None


def find(module, name):
    """`module.name` when this verl has it; None when the module or the name is not in this release."""
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            return None
        raise
    return getattr(found, name, None)


def compose(request, location):
    config_dir = request.get("config_dir") or os.path.join(location, "trainer", "config")
    return compose_config(config_dir, request["config_name"], request["overrides"])


def checks():
    """(name, function of the config or None when this verl lacks it), in main_ppo's order."""
    auto_set_device = find("verl.utils.device", "auto_set_device")
    validate_config = find("verl.utils.config", "validate_config")
    need_reference_policy = find("verl.trainer.ppo.utils", "need_reference_policy")
    need_critic = find("verl.trainer.ppo.utils", "need_critic")

    def validate(config):
        validate_config(
            config=config, use_reference_policy=need_reference_policy(config), use_critic=need_critic(config)
        )

    def resolve(config):
        from omegaconf import OmegaConf

        OmegaConf.to_container(config, resolve=True)

    return [
        ("auto_set_device", auto_set_device),
        ("validate_config", validate if validate_config and need_reference_policy and need_critic else None),
        ("resolve", resolve),
    ]


def verdict(read_request):
    report: dict = {"schema": 1, "verl": None, "stage": None, "error": None, "checks": [], "missing": [], "skipped": []}
    try:
        import verl
    except ModuleNotFoundError as exc:
        report.update(stage="no_verl" if exc.name == "verl" else "import", error=quote(exc))
        return report
    except Exception as exc:  # noqa: BLE001 - a broken verl: its own import fails before any config is read
        report.update(stage="import", error=quote(exc))
        return report
    location = os.path.dirname(os.path.abspath(verl.__file__ or ""))
    report["verl"] = {"version": str(getattr(verl, "__version__", "") or ""), "location": location}
    request = read_request()  # after verl's import: the wizard works out its question meanwhile
    try:
        config = compose(request, location)
    except Exception as exc:  # noqa: BLE001 - whatever Hydra raises is verl's verdict, quoted
        report.update(stage="compose", error=quote(exc))
        return report
    report["checks"].append("compose")
    try:
        steps = checks()
    except Exception as exc:  # noqa: BLE001 - a module of verl's checks fails to import
        report.update(stage="import", error=quote(exc))
        return report
    for name, check in steps:
        if check is None:
            report["missing"].append(name)
            continue
        try:
            check(config)
        except Exception as exc:  # noqa: BLE001 - whatever the check raises is verl's verdict, quoted
            if missing_engine(exc):
                report["skipped"].append([name, quote(exc)])
                continue
            report.update(stage=name, error=quote(exc))
            return report
        report["checks"].append(name)
    return report


def main():
    # verl prints progress on stdout: the report keeps the real stdout, everything else goes to stderr.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    report = verdict(lambda: json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.readline()))
    out.write(MARK + json.dumps(report) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
