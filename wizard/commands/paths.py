"""The commands' path arguments: an empty path is refused at its flag.

Every flag or positional that takes a path uses `PathArg` (`action=PathArg, what=...`): `check ''`,
`preflight --config ''` or `topo --from ''` would otherwise read the current folder, be ignored or fall back to
detection. Which folders --out may name is wizard.emit.out_folders.
"""

from __future__ import annotations

import argparse

from wizard.i18n.text import Msg, msg

# What a path flag takes, for the fix its empty-path line suggests.
FILE = msg("path.what.file")
FOLDER = msg("path.what.folder")
TOPOLOGY = msg("path.what.topology")  # --topology: a name, a file or detect


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
