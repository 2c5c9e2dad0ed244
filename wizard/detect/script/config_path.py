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
