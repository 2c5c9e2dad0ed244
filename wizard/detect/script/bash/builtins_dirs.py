"""The builtins of a launch script that move its working directory, as bash runs them over the reader's
state: cd, pwd, pushd and popd.
"""

from __future__ import annotations

import posixpath

from wizard.detect.script.bash.state import SCALAR
from wizard.detect.script.bash.values import (
    Origin,
    Spread,
    Unknown,
    is_known,
    known,
    origins_of,
    text,
    unknown,
)


def _cd(reader, st, fields, node, redirects):
    args = [f for f in fields[1:] if isinstance(f, Spread) or known(f) not in ("-P", "-L", "--")]
    if not args:
        var = st.get("HOME")
        target = var.value if var is not None and var.kind == SCALAR else unknown({Origin("env", "HOME")}, "$HOME")
    elif isinstance(args[0], Spread):
        target = (Unknown(args[0].origins, args[0].shown),)
    else:
        target = args[0]
    if not is_known(target):
        st.cwd = unknown(origins_of(target), "$PWD")
        return None
    path = known(target)
    if path == "-":
        st.cwd = unknown({Origin("env", "OLDPWD")}, "$OLDPWD")
        return 0
    if path.startswith("/"):
        st.cwd = (posixpath.normpath(path),)
    elif is_known(st.cwd):
        st.cwd = (posixpath.normpath(posixpath.join(known(st.cwd), path)),)
    else:
        st.cwd = unknown(origins_of(st.cwd), "$PWD")
    return 0


def _pwd(reader, st, fields, node, redirects):
    reader.write(text(st.cwd, "\n"))
    return 0


def _pushd(reader, st, fields, node, redirects):
    st.dir_stack = [*st.dir_stack, st.cwd]
    return _cd(reader, st, fields, node, redirects)


def _popd(reader, st, fields, node, redirects):
    if st.dir_stack:
        st.cwd, st.dir_stack = st.dir_stack[-1], st.dir_stack[:-1]
    return 0


DIRECTORY_BUILTINS = {"cd": _cd, "pwd": _pwd, "pushd": _pushd, "popd": _popd}
