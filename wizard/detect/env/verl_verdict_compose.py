"""The compose step of `python -m verl.trainer.main_ppo`, shared by the two places that compose with Hydra itself.

It is stdlib + Hydra only and self-contained, because it runs in two interpreters: the wizard's own (`check
--verl-version X` composes verl X's config tree taken from its wheel: wizard.detect.config.verl_tree) and the one
that runs verl (`check --verl PY`: wizard.detect.env.verl_verdict sends this file's text ahead of
verl_verdict_script.py's, since that interpreter has no wizard to import). No `from __future__` here: the text is
the first part of that program.
"""

import os


def quote(exc):
    """`Type: text` of what verl (or Hydra) raised, on one line; Hydra's wrapper gives way to verl's own error."""
    root = exc
    while type(root).__name__ == "InstantiationException" and root.__cause__ is not None:
        root = root.__cause__
    text = " ".join(str(root).split())
    cause = root.__cause__
    # Hydra's "Could not override 'x'" keeps OmegaConf's reason ("Key 'x' is not in struct") in its cause.
    if cause is not None and " ".join(str(cause).split()) not in text:
        text = text + " (" + type(cause).__name__ + ": " + " ".join(str(cause).split()) + ")"
    name = type(root).__name__
    return (name + ": " + text if text else name)[:1200]


def compose_config(config_dir, config_name, overrides):
    """The config `python -m verl.trainer.main_ppo --config-path=DIR --config-name=NAME OVERRIDES...` starts with:
    Hydra's compose API over the folder DIR (absolute); what Hydra or OmegaConf raise reaches the caller."""
    from hydra import compose, initialize_config_dir  # deferred: start-up cost (Hydra only when composing)

    with initialize_config_dir(config_dir=os.path.abspath(config_dir), version_base=None):
        return compose(config_name=config_name, overrides=list(overrides))
