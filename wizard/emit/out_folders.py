"""Which folders may hold a run's files: never `/`, the system's own folders or the home folder itself.

As root a write there succeeds and scatters config.yaml, run.sh and RUN.md among the system's files, so
every door refuses such a folder: `new --out` and `verl-wizard --out` before anything is read
(wizard.commands), and the writer itself (wizard.emit.writer), which the TUI's Review folder reaches too.

The refused folders (after following symbolic links):
- `/` itself, and the top-level folders that only hold other people's or the system's folders: /home,
  /Users, /mnt, /media, /opt, /srv, /tmp (their subfolders are fine);
- the system's trees, with everything under them: /bin, /boot, /dev, /etc, /lib and every /lib*, /proc,
  /run, /sbin, /snap, /sys, /usr, and macOS's /System, /Library and /private/etc;
- /var (and macOS's /private/var) down to its services' own folders (/var/lib/mysql, /var/log/app), but not
  below: build machines keep workspaces deeper in it (/var/lib/jenkins/workspace/job), and those are fine;
- the home folder itself (its subfolders are fine).
A folder inside the system's temporary folder (tempfile.gettempdir()) or /var/tmp is fine, unless it is the
home folder itself.
"""

from __future__ import annotations

import os
import tempfile

from wizard.i18n.text import Msg, msg

SHARED_ROOTS = ("/", "/home", "/Users", "/mnt", "/media", "/opt", "/srv", "/tmp")
SYSTEM_TREES = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/proc",
    "/run",
    "/sbin",
    "/snap",
    "/sys",
    "/usr",
    "/System",
    "/Library",
    "/private/etc",
)
VAR_TREES = ("/var", "/private/var")
VAR_DEPTH = 2  # /var/lib/mysql is a service's folder (refused); /var/lib/ci/work is a workspace (fine)
SCRATCH_TREES = ("/var/tmp",)  # under a system tree, and yet where users are meant to write


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _system_tree(where: str) -> str | None:
    """The system tree ``where`` is in, as named (/usr/bin is in /usr) or as linked (/bin may be /usr/bin)."""
    top = "/" + where.lstrip("/").split("/", 1)[0]
    if top.startswith("/lib") and top != "/":
        return top  # /lib, /lib32, /lib64, /libx32, ...
    for folder in (*SYSTEM_TREES, *(os.path.realpath(f) for f in SYSTEM_TREES)):
        if _inside(where, folder):
            return folder
    for folder in (*VAR_TREES, *(os.path.realpath(f) for f in VAR_TREES)):
        if _inside(where, folder) and where[len(folder) :].count("/") <= VAR_DEPTH:
            return folder
    return None


def out_problem(out: str | os.PathLike | None) -> Msg | None:
    """Why ``out`` cannot be the folder a run's files are written into (see the module's docstring), or None."""
    if not out:
        return None  # the writer refuses an empty --out in its own words
    shown = os.fspath(out)
    where = os.path.realpath(os.path.expanduser(shown))
    home = os.path.realpath(os.path.expanduser("~"))
    if where == home and home != "/":
        return msg("out.home_folder", out=shown)
    scratch = (os.path.realpath(tempfile.gettempdir()), *SCRATCH_TREES)
    if any(_inside(where, folder) and where != folder and folder != "/" for folder in scratch):
        return None
    tree = _system_tree(where)
    if tree is not None:
        return msg("out.system_folder", out=shown, folder=tree)
    if where in SHARED_ROOTS:
        return msg("out.system_folder", out=shown, folder=where)
    return None
