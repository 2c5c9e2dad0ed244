"""Where Hydra looks for a launch script's `--config-path`.

verl's entry point is `@hydra.main(config_path="config")` in verl/trainer/main_ppo.py. Hydra reads an absolute
--config-path as a folder; a relative one it reads against the entry point's package (pkg://verl.trainer/<path>
for `python -m verl.trainer.main_ppo`, the file's folder for `python verl/trainer/main_ppo.py`), never against
the folder the script runs in. So `--config-path=config`, as verl's own Megatron examples write it, is verl's own
config folder, whatever folder named config sits beside the script.
"""

from __future__ import annotations

import posixpath

ENTRY_PACKAGE = "verl/trainer"
VERLS_OWN = "verl/trainer/config"


def bare(config_path: str) -> str:
    """The path as bash leaves it, without the quotes a Hydra flag may carry ('config' or "config")."""
    return config_path.strip("'\"")


def is_verls_own(config_path: str) -> bool:
    """Whether a --config-path names verl's own config folder (a relative `config`, `./config`, `config/`)."""
    path = bare(config_path)
    return not posixpath.isabs(path) and posixpath.normpath(posixpath.join(ENTRY_PACKAGE, path)) == VERLS_OWN


def read_in_verl(script) -> bool:
    """Whether Hydra reads the script's config folder inside verl's package: given by --config-path (a --config-dir
    is read against the working directory)."""
    return getattr(script, "config_path_flag", None) != "--config-dir"


def names_verls_own(script) -> bool:
    """Whether the launch script's config folder is verl's own (`--config-path=config`)."""
    path = getattr(script, "config_path", None)
    return path is not None and read_in_verl(script) and is_verls_own(path)
