"""Writing artefacts safely: atomically, and never over a different existing file without --force."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from wizard.errors import UsageError


def conflicts(out_dir: Path, files: dict[str, str]) -> list[str]:
    """Names of files that exist in out_dir with other content than we would write."""
    clashing = []
    for name, text in files.items():
        path = out_dir / name
        if path.exists() and (not path.is_file() or path.read_bytes() != text.encode()):
            clashing.append(name)
    return clashing


def is_executable(name: str) -> bool:
    """Whether a written file gets the executable bit (the launch scripts)."""
    return name.endswith(".sh")


def write_atomic(path: Path, text: str, executable: bool = False) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o755 if executable else 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_all(out_dir: Path, files: dict[str, str], force: bool = False) -> list[str]:
    """Write every file or none: refuse (UsageError) when one would replace different content."""
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir}: exists and is not a folder; choose another --out")
    clashing = conflicts(out_dir, files) if out_dir.exists() else []
    if clashing and not force:
        raise UsageError(
            f"--out {out_dir}: {', '.join(clashing)} already exist(s) with other content; use --force to overwrite"
        )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out_dir}: cannot create the folder ({exc.strerror}); choose another --out") from None
    for name, text in files.items():
        try:
            write_atomic(out_dir / name, text, executable=is_executable(name))
        except OSError as exc:
            raise UsageError(f"--out {out_dir}: cannot write {name} ({exc.strerror})") from None
    return list(files)
