#!/usr/bin/env python3
"""Write the key history of verl's PPO trainer config across its released versions.

    python scripts/key_history.py                       # download what is missing, write the table
    python scripts/key_history.py --cache DIR           # keep the wheels elsewhere
    python scripts/key_history.py --offline             # use only wheels already in the cache

For every release in RELEASES it runs `pip download --no-deps verl==X` into a cache folder outside
the repository (default ~/.cache/verl-wizard/wheels), reads the trainer config tree straight out of
the wheel (no install): the generated flat config (`_generated_ppo_trainer.yaml`, and the Megatron
one) where the release has it, else `ppo_trainer.yaml` / `ppo_megatron_trainer.yaml`, which before
0.5 were complete files. It writes `wizard/core/verl_data/key_history.json`:

    {"versions": ["0.2.0", ...],                      labels, oldest first (".postN" dropped)
     "sources": {"0.2.0": "verl-0.2.0.post2 ...", ...},
     "keys": {"a.b.c": {"in": "0.2.0..0.4.1,0.6.0..0.9.1",   the releases that have it
                        "default": [["0.2.0", 1], ["0.5.0", 2]],  its default where it changes
                        "moved": ["0.7.1", "x.y.c"]}}}        where it went, when inferable

A key moves when it disappears in a release (or becomes one of the null placeholders verl keeps
for a retired section) and a key with the same leaf appears in that same release; among several
the one sharing the longest path suffix wins, and a lone shared leaf counts only when no other new
key of the release has that leaf. Renames with a different leaf are written by hand in
renames.yaml. Keys of both engines are merged; `_target_` entries are left out.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "wizard" / "core" / "verl_data" / "key_history.json"
DEFAULT_CACHE = Path.home() / ".cache" / "verl-wizard" / "wheels"

# Every release from 0.2 to 0.9.1; of a release with post-releases, the last one.
RELEASES = (
    "0.2.0.post2",
    "0.3.0.post1",
    "0.4.0",
    "0.4.1",
    "0.5.0",
    "0.6.0",
    "0.6.1",
    "0.7.0",
    "0.7.1",
    "0.8.0",
    "0.9.0",
    "0.9.1",
)
CONFIG_DIR = "verl/trainer/config/"
ENGINE_FILES = (
    ("_generated_ppo_trainer.yaml", "ppo_trainer.yaml"),
    ("_generated_ppo_megatron_trainer.yaml", "ppo_megatron_trainer.yaml"),
)
# Leaves too common to carry a move on their own (a lone `enable` says nothing about where it went).
GENERIC_LEAVES = frozenset(
    {
        "enable",
        "name",
        "path",
        "type",
        "mode",
        "strategy",
        "all_ranks",
        "ranks",
        "discrete",
        "save_path",
        "tool",
        "tool_config",
        "seed",
        "dtype",
        "options",
        "level",
        "trace",
    }
)


def label(version: str) -> str:
    """0.3.0.post1 -> 0.3.0; 0.2 -> 0.2.0."""
    base = version.split(".post")[0]
    return base if base.count(".") == 2 else base + ".0"


def wheel_for(version: str, cache: Path, offline: bool) -> Path:
    found = sorted(cache.glob(f"verl-{version}-*.whl"))
    if not found and not offline:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "-q",
                "-d",
                str(cache),
                f"verl=={version}",
            ],
            check=True,
        )
        found = sorted(cache.glob(f"verl-{version}-*.whl"))
    if not found:
        raise SystemExit(f"no wheel of verl {version} in {cache} (run without --offline to download it)")
    return found[0]


def flatten(tree: dict, prefix: str, out: dict) -> None:
    """Dotted keys of a nested mapping; lists, scalars and empty mappings are leaves."""
    for key, value in tree.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flatten(value, dotted + ".", out)
        elif key != "_target_":
            out[dotted] = value


def read_release(wheel: Path) -> tuple[dict, list[str]]:
    """The flat keys of both engines' trainer configs in one wheel, and the files read."""
    keys: dict = {}
    used = []
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for candidates in ENGINE_FILES:
            name = next((CONFIG_DIR + c for c in candidates if CONFIG_DIR + c in names), None)
            if name is None:
                continue
            tree = yaml.safe_load(z.read(name))
            if any(d != "_self_" for d in tree.get("defaults", []) or []) and "_generated_" not in name:
                raise SystemExit(f"{wheel.name}: {name} composes other files; teach key_history.py to compose it")
            tree.pop("defaults", None)
            flat: dict = {}
            flatten(tree, "", flat)
            for key, value in flat.items():
                keys.setdefault(key, value)  # the FSDP file first: its default wins
            used.append(name.removeprefix(CONFIG_DIR))
    if not keys:
        raise SystemExit(f"{wheel.name}: no trainer config found")
    return keys, used


def ranges(present: list[bool], versions: list[str]) -> str:
    """[T, T, F, T] -> "v0..v1,v3"."""
    out, start = [], None
    for i, here in enumerate(present + [False]):
        if here and start is None:
            start = i
        elif not here and start is not None:
            out.append(versions[start] if start == i - 1 else f"{versions[start]}..{versions[i - 1]}")
            start = None
    return ",".join(out)


def _retired(key: str, tree: dict) -> bool:
    """True when the key is one of the null placeholders of a retired top-level section."""
    section = key.split(".")[0] + "."
    return tree.get(key, 0) is None and all(v is None for k, v in tree.items() if k.startswith(section))


def _retired_since(key: str, trees: list[dict]) -> int | None:
    """The release from which the key is a placeholder up to the newest one, if it was live before."""
    index = len(trees)
    while index > 0 and key in trees[index - 1] and _retired(key, trees[index - 1]):
        index -= 1
    if index == len(trees) or index == 0 or key not in trees[index - 1]:
        return None
    return index


def _suffix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a.split(".")), reversed(b.split(".")), strict=False):
        if x != y:
            break
        n += 1
    return n


def infer_moves(trees: list[dict], versions: list[str]) -> dict[str, tuple[str, str]]:
    moves: dict[str, tuple[str, str]] = {}
    for i in range(1, len(trees)):
        before, now = trees[i - 1], trees[i]
        gone = [k for k in before if (k not in now or (_retired(k, now) and not _retired(k, before)))]
        new = [k for k in now if k not in before]
        by_leaf: dict[str, list[str]] = {}
        for k in new:
            by_leaf.setdefault(k.rpartition(".")[2], []).append(k)
        for key in gone:
            leaf = key.rpartition(".")[2]
            # a tie goes to the key of a live section over a placeholder of a retired one
            scored = sorted(((_suffix(key, c), not _retired(c, now), c) for c in by_leaf.get(leaf, [])), reverse=True)
            if not scored:
                continue
            best, live, target = scored[0]
            tie = len(scored) > 1 and scored[1][:2] == (best, live)
            if tie or (best < 2 and (leaf in GENERIC_LEAVES or len(scored) > 1)):
                continue
            moves[key] = (versions[i], target)
    return moves


def build(trees: list[dict], versions: list[str], sources: dict[str, str]) -> dict:
    all_keys = sorted({k for t in trees for k in t})
    moves = infer_moves(trees, versions)
    table: dict[str, dict] = {}
    for key in all_keys:
        entry: dict = {"in": ranges([key in t for t in trees], versions)}
        defaults, last = [], object()
        for version, tree in zip(versions, trees, strict=False):
            if key in tree and tree[key] != last:
                defaults.append([version, tree[key]])
                last = tree[key]
        entry["default"] = defaults
        if key in moves:
            entry["moved"] = list(moves[key])
        since = _retired_since(key, trees)
        if since is not None:
            # a placeholder from then on: Hydra still accepts it, verl reads it no more
            entry["retired"] = versions[since]
        table[key] = entry
    return {"versions": versions, "sources": sources, "keys": table}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"wheel cache (default {DEFAULT_CACHE})")
    parser.add_argument("--offline", action="store_true", help="do not download; use the cached wheels only")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.cache.resolve().is_relative_to(ROOT):
        parser.error("--cache must be outside the repository")
    start = time.perf_counter()
    args.cache.mkdir(parents=True, exist_ok=True)
    trees, versions, sources = [], [], {}
    for version in RELEASES:
        wheel = wheel_for(version, args.cache, args.offline)
        keys, used = read_release(wheel)
        trees.append(keys)
        versions.append(label(version))
        sources[label(version)] = f"{wheel.name}: {', '.join(used)}"
    data = build(trees, versions, sources)
    args.out.write_text(json.dumps(data, sort_keys=True, separators=(",", ":"), indent=0) + "\n")
    moved = sum(1 for e in data["keys"].values() if "moved" in e)
    print(
        f"wrote {args.out}: {len(data['keys'])} keys over {len(versions)} releases "
        f"({versions[0]} .. {versions[-1]}), {moved} inferred moves, in {time.perf_counter() - start:.1f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
