"""verl 0.9.1's own verdict on the overrides of verl's example scripts (run by scripts/verl_examples_agreement.py).

Runs under the python of the conformance environment (verl installed), never the project's own::

    python verl_examples_oracle.py REQUESTS_JSON MODELS_DIR

REQUESTS_JSON is a list of {"name", "config_dir" (absolute, or null: verl's own verl/trainer/config), "config_name",
"overrides", "cwd"}. Each is judged by the conformance harness (tests/conformance/verl_validate.py: compose, then
main_ppo's validate_config, then the TaskRunner's resolve and the workers' dataclass conversions), with its compose
taking the script's --config-path/--config-name as `python -m verl.trainer.main_ppo` does, in the folder the script
runs in (a primary config's `file://` search paths are relative to it). One JSON line per request on stdout.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "conformance"))
import verl_validate  # the harness, from the tests folder


def main() -> int:
    requests = json.loads(Path(sys.argv[1]).read_text())
    models_dir = Path(sys.argv[2])
    models_dir.mkdir(parents=True, exist_ok=True)
    json_out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    models = verl_validate.build_models(models_dir)
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    trainer_dir = Path(verl.__file__).resolve().parent / "trainer"
    with tempfile.TemporaryDirectory() as stand_in:
        # check_dir wants a config.yaml in the folder it is given; the compose below reads the script's own.
        Path(stand_in, "config.yaml").write_text("{}\n")
        for request in requests:
            config_dir = request["config_dir"] or "config"
            if not os.path.isabs(config_dir):
                # Hydra: a relative --config-path is relative to the module that declares @hydra.main.
                config_dir = str(trainer_dir / config_dir)

            def compose(_dir, overrides, config_dir=config_dir, name=request["config_name"]):
                with initialize_config_dir(config_dir=config_dir, version_base=None):
                    return hydra_compose(config_name=name, overrides=list(overrides))

            verl_validate.compose = compose
            os.chdir(request["cwd"])
            verdict = verl_validate.check_dir(Path(stand_in), request["overrides"], models)
            verdict["config"] = request["name"]
            json_out.write(json.dumps(verdict) + "\n")
    json_out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
