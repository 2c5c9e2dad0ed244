"""The files of a write packed as one zip, for a wizard served to a browser (`verl-wizard serve`).

The zip holds exactly the files a write to disk produces, under one folder, with the same modes
(`run.sh` executable), so that `unzip verl-run.zip && cd verl-run && ./run.sh` works as after `new`.
"""

from __future__ import annotations

import io
import re
import time
import zipfile

from wizard.emit.writer import is_executable

DEFAULT_FOLDER = "verl-run"


def folder_name(out_dir: str) -> str:
    """The zip's folder (and file) name for an output folder: its last part, in characters safe in any file name.

    A student types the output folder in their browser; only its name is kept, never a path.
    """
    last = re.split(r"[/\\]", out_dir.strip().rstrip("/\\"))[-1]
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", last).strip(".-")
    return safe or DEFAULT_FOLDER


def zip_files(folder: str, files: dict[str, str], when: time.struct_time | None = None) -> bytes:
    """A zip of `files` (name -> text) under `folder`/, run scripts executable."""
    t = when or time.localtime()
    stamp = (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            entry = zipfile.ZipInfo(f"{folder}/{name}", date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = (0o100755 if is_executable(name) else 0o100644) << 16
            archive.writestr(entry, text.encode("utf-8"))
    return buffer.getvalue()
