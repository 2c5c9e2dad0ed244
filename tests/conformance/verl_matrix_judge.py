"""verl's own verdict on command lines that bash produced, run in a verl venv of the support matrix.

Run as `VERL_PYTHON verl_matrix_judge.py ARGV_JSON`: ARGV_JSON is a list of argument lists, each the arguments a
launch script gave `python3` (e.g. ["-u", "-m", "verl.trainer.main_ppo", "--config-name=x", "a.b=1"]). For each,
Hydra's own command-line parser (the one `@hydra.main` uses) reads the config path, the config name and the
overrides; a relative config path is resolved as Hydra does for `python -m verl.trainer.main_ppo` (against the
folder of main_ppo.py). Then the program `check --verl` sends to verl's interpreter (wizard/detect/env's
verl_verdict_compose.py and verl_verdict_script.py, read from this checkout) composes and checks the config with
this verl. Prints one JSON line per argument list: that program's report.
"""

import json
import os
import sys
from pathlib import Path

ENV_DIR = Path(__file__).resolve().parents[2] / "wizard" / "detect" / "env"
ENTRY = "verl.trainer.main_ppo"


def load_verdict_program():
    """The verdict program's functions, its parts run as one text the way the wizard sends them to verl."""
    parts = [ENV_DIR / "verl_verdict_compose.py", ENV_DIR / "verl_verdict_script.py"]
    text = "\n\n".join(part.read_text(encoding="utf-8") for part in parts if part.exists())
    namespace = {"__name__": "verl_matrix_verdict"}
    exec(compile(text, "verl_verdict_program", "exec"), namespace)
    return namespace


def request_of(argv, trainer_dir):
    """The question main_ppo's Hydra would answer for these python arguments."""
    from hydra._internal.utils import get_args_parser

    rest = argv[argv.index(ENTRY) + 1 :]
    args = get_args_parser().parse_args(rest)
    config_dir = None
    if args.config_path is not None:
        config_dir = os.path.normpath(os.path.join(trainer_dir, args.config_path))
    return {"config_dir": config_dir, "config_name": args.config_name or "ppo_trainer", "overrides": args.overrides}


def main():
    import verl

    trainer_dir = os.path.join(os.path.dirname(os.path.abspath(verl.__file__)), "trainer")
    program = load_verdict_program()
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    # verl and Hydra print progress on stdout: only the reports go to the real one
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for argv in json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")):
        request = request_of(argv, trainer_dir)
        report = program["verdict"](lambda request=request: request)
        report["request"] = request
        out.write(json.dumps(report) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
