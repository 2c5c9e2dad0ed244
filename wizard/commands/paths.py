"""The commands' path arguments: an empty path is refused at its flag, and --out never names a system folder.

Every flag or positional that takes a path uses `PathArg` (`action=PathArg, what=...`): `check ''`,
`preflight --config ''` or `topo --from ''` would otherwise read the current folder, be ignored or fall back to
detection. `out_problem` is the check of a folder a command writes the run's files into (`new --out`,
`verl-wizard --out`, the folder of `data convert --out`): `/`, the system's own folders and the home folder
itself are refused, since as root the write would succeed and scatter config.yaml and run.sh among the
system's files.

The refused folders (after following symbolic links):
- `/` itself, and the top-level folders that only hold other people's or the system's folders: /home,
  /Users, /mnt, /media, /opt, /srv, /tmp (their subfolders are fine);
- the system's trees, with everything under them: /bin, /boot, /dev, /etc, /lib and every /lib*, /proc,
  /run, /sbin, /snap, /sys, /usr, /var (but /var/tmp and the temporary folder are fine), and macOS's
  /System, /Library, /private/etc and /private/var;
- the home folder itself (its subfolders are fine).
A folder inside the system's temporary folder (tempfile.gettempdir()) or /var/tmp is fine (unless it is the home folder).
"""

from __future__ import annotations

import argparse
import os
import tempfile

from wizard.i18n.text import Msg, msg

# What a path flag takes, for the fix its empty-path line suggests.
FILE = msg("path.what.file")
FOLDER = msg("path.what.folder")
TOPOLOGY = msg("path.what.topology")  # --topology: a name, a file or detect
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
    "/var",
    "/System",
    "/Library",
    "/private/etc",
    "/private/var",
)
SCRATCH_TREES = ("/var/tmp",)  # under a system tree, and yet where users are meant to write


class PathArg(argparse.Action):
    """Store a path argument (one, or a list with nargs), refusing an empty one with a line naming the flag.

    `what` is what the flag takes (FILE, FOLDER, TOPOLOGY), for the fix the line suggests.
    """

    def __init__(self, *args, what: Msg = FILE, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.what = what

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        for value in values if isinstance(values, list) else [values]:
            if value == "":
                flag = option_string or self.metavar or self.dest
                parser.error(str(msg("path.empty", flag=flag, what=self.what)))
        setattr(namespace, self.dest, values)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def out_problem(out: str | None) -> Msg | None:
    """Why ``out`` cannot be the folder a run's files are written into (see the module's docstring), or None."""
    if not out:
        return None  # the writer refuses an empty --out in its own words
    where = os.path.realpath(os.path.expanduser(out))
    home = os.path.realpath(os.path.expanduser("~"))
    if where == home and home != "/":
        return msg("out.home_folder", out=out)
    scratch = (os.path.realpath(tempfile.gettempdir()), *SCRATCH_TREES)
    if any(_inside(where, folder) and where != folder and folder != "/" for folder in scratch):
        return None
    # The folder as named first (/usr/bin is in /usr), then as linked (/bin may be /usr/bin).
    for folder in (*SYSTEM_TREES, *(os.path.realpath(f) for f in SYSTEM_TREES)):
        if _inside(where, folder):
            return msg("out.system_folder", out=out, folder=folder)
    if where in SHARED_ROOTS:
        return msg("out.system_folder", out=out, folder=where)
    return None
