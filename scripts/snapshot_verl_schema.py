#!/usr/bin/env python3
"""Write the verl key/default snapshot that wizard.core.verl_schema reads, from an installed verl.

    python scripts/snapshot_verl_schema.py                      # the verl importable here
    python scripts/snapshot_verl_schema.py --python /path/venv/bin/python
    python scripts/snapshot_verl_schema.py --config-dir DIR --version 0.9.1

It reads verl's flattened reference configs (`_generated_ppo_trainer.yaml` for the FSDP engine,
`_generated_ppo_megatron_trainer.yaml` for Megatron, and the torchtitan and veomni ones) and writes
`wizard/core/verl_data/verl-<version>.json`: every dotted key with its default per engine, plus the mappings
that are open (an empty dict by default, so any sub-key is accepted), plus the extras the wheel declares
(`pip install "verl[vllm,fsdp]"`), read from the installed distribution's METADATA (with --config-dir: from
--metadata FILE, else none). With an environment that has verl (`--python`), it also runs
scripts/verl_introspect.py there: the Hydra config groups a command line can choose and what each option does
to the key tree, the mappings verl's config dataclasses type as dict, and the keys only a config class has.
Adding a verl version is one run of this script.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import yaml

ENGINE_FILES = {
    "dp": "_generated_ppo_trainer.yaml",
    "megatron": "_generated_ppo_megatron_trainer.yaml",
    "torchtitan": "_generated_ppo_torchtitan_trainer.yaml",
    "veomni": "_generated_ppo_veomni_trainer.yaml",
}
INTROSPECT = Path(__file__).with_name("verl_introspect.py")
OUT_DIR = Path(__file__).resolve().parents[1] / "wizard" / "core" / "verl_data"

LOCATE = (
    "import importlib.metadata as m, importlib.util as u, pathlib, json;"
    "s=u.find_spec('verl');"
    "print(json.dumps([str(pathlib.Path(s.origin).parent / 'trainer' / 'config'), m.version('verl'),"
    " m.distribution('verl').read_text('METADATA')]))"
)
# `Requires-Dist: vllm==0.24.0; extra == "vllm"` (the marker may hold more than the extra: keep it whole).
_EXTRA_MARKER = re.compile(r"""^(?P<req>[^;]+);(?P<marker>.*\bextra\s*==\s*['"](?P<extra>[^'"]+)['"].*)$""")


def locate(python: str) -> tuple[Path, str, str]:
    """verl's config folder, version and METADATA text in the environment of `python`, without importing verl."""
    out = subprocess.run([python, "-c", LOCATE], check=True, capture_output=True, text=True).stdout
    folder, version, metadata = json.loads(out)
    return Path(folder), version, metadata


def extras(metadata: str) -> dict[str, list[str]]:
    """Each extra the wheel provides -> its requirements, in the METADATA's order (other markers kept)."""
    out: dict[str, list[str]] = {}
    for line in metadata.splitlines():
        if line.startswith("Provides-Extra:"):
            out.setdefault(line.split(":", 1)[1].strip(), [])
        elif line.startswith("Requires-Dist:"):
            m = _EXTRA_MARKER.match(line.split(":", 1)[1].strip())
            if m:
                other = re.sub(r"""(\band\s+)?\bextra\s*==\s*['"][^'"]+['"](\s+and\b)?""", "", m["marker"]).strip()
                req = m["req"].strip() + (f"; {other}" if other else "")
                out.setdefault(m["extra"], []).append(req)
        elif not line.strip():
            break  # the headers end at the first blank line; the long description follows
    return out


def flatten(tree, prefix: str, keys: dict, open_maps: list) -> None:
    """Dotted keys of a nested mapping; lists and scalars are leaves, empty mappings are open."""
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flatten(value, dotted + ".", keys, open_maps)
        else:
            if isinstance(value, dict):
                open_maps.append(dotted)
            keys[dotted] = value


def introspect(python: str) -> dict:
    """What verl's own code says (config groups, dict-typed fields, class-only keys), run in its environment."""
    out = subprocess.run([python, str(INTROSPECT)], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def snapshot(config_dir: Path, version: str, facts: dict | None = None, metadata: str = "") -> dict:
    engines = {}
    open_maps: set[str] = set((facts or {}).get("open", ()))
    for engine, name in ENGINE_FILES.items():
        if not (config_dir / name).is_file():
            continue
        tree = yaml.safe_load((config_dir / name).read_text())
        keys: dict = {}
        maps: list = []
        flatten(tree, "", keys, maps)
        engines[engine] = keys
        open_maps.update(maps)
    data = {"version": version, "engines": engines, "open": sorted(open_maps), "extras": extras(metadata)}
    if facts:
        data["groups"] = facts["groups"]
        data["class_keys"] = facts["class_keys"]
    return data


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="python of the environment that has verl")
    parser.add_argument("--config-dir", type=Path, help="read this folder instead of an installed verl")
    parser.add_argument("--version", help="version label (required with --config-dir)")
    parser.add_argument("--no-introspect", action="store_true", help="only the YAML files (no groups, no classes)")
    parser.add_argument("--metadata", type=Path, help="with --config-dir: the wheel's METADATA file (its extras)")
    args = parser.parse_args(argv)
    if args.config_dir:
        if not args.version:
            parser.error("--version is required with --config-dir")
        config_dir, version = args.config_dir, args.version
        metadata = args.metadata.read_text() if args.metadata else ""
    else:
        config_dir, version, metadata = locate(args.python)
    facts = None if args.config_dir or args.no_introspect else introspect(args.python)
    data = snapshot(config_dir, version, facts, metadata)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / f"verl-{version}.json"
    out.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    counts = ", ".join(f"{e}: {len(k)} keys" for e, k in data["engines"].items())
    print(
        f"wrote {out} ({counts}, {len(data['open'])} open mappings, {len(data.get('groups', {}))} config groups, "
        f"{len(data['extras'])} extras)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
