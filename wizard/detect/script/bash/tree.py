"""The tree-sitter bash grammar, loaded once on first use (it is not needed to start the CLI)."""

from __future__ import annotations

import re
from functools import lru_cache

# Statement nodes and the punctuation among their children that is not a statement.
SKIP = frozenset({"comment", ";", ";;", "&", "\n", "{", "}", "do", "done", "then", "fi", "esac", "in", "(", ")"})


@lru_cache(maxsize=1)
def _parser():
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


# tree-sitter-bash 0.25.1's scanner reads out of bounds on a `{` followed by a character outside the Basic
# Multilingual Plane (seen from U+70000 up, and once more after those were kept out), and the process dies (a
# segfault in one run of two to six; found by the fuzz tier). The parser gets four ASCII letters in place of
# every four-byte UTF-8 character, so every byte offset of the tree still points into the script, whose own
# bytes the reader's values are cut from (Reader.text_of): an emoji in a value stays the emoji.
_ASTRAL = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")
_STAND_IN = b"____"


def parse(source: bytes):
    """The syntax tree of a bash script (tree-sitter recovers from errors; ERROR nodes mark them)."""
    if source and max(source) >= 0xF0:
        source = _ASTRAL.sub(_STAND_IN, source)
    return _parser().parse(source).root_node


def touching(nodes) -> list[list]:
    """Nodes grouped into the shell words they make: bash splits words at blanks only, so nodes with no byte
    between them are one word. tree-sitter-bash 0.25 splits `$A/$B/c` into `$A/$` and `B/c` (and `X=$A/$B/c` into an
    assignment and a command): the reader reads each group's text as one word, as bash does."""
    groups: list[list] = []
    for node in nodes:
        if groups and groups[-1][-1].end_byte == node.start_byte:
            groups[-1].append(node)
        else:
            groups.append([node])
    return groups


def node_text(node) -> str:
    return node.text.decode("utf-8", "replace")


def line(node) -> int:
    return node.start_point[0] + 1


def end_line(node) -> int:
    return node.end_point[0] + 1


def statements(node) -> list:
    """The statement children of a block (program, { ... }, do ... done, a branch of if or case)."""
    return [c for c in node.children if c.is_named and c.type not in SKIP]


def missing_quotes(root) -> list[tuple[int, str]]:
    """(line, quote) for every quote tree-sitter had to close itself: bash would stop with a syntax error."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.is_missing and node.type in ('"', "'", "`"):
            found.append((_opening_line(node), node.type))
        elif node.type == "ERROR" and node.text[:1] in (b"'", b'"', b"`") and node.child_count <= 1:
            found.append((line(node), node.text[:1].decode()))
            continue
        if node.has_error or node.is_missing:
            stack.extend(node.children)
    return sorted(set(found))


def _opening_line(missing) -> int:
    parent = missing.parent
    return (parent.start_point[0] if parent is not None else missing.start_point[0]) + 1


def errors(root) -> list[int]:
    """Lines where the grammar found no valid bash."""
    lines, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            lines.append(line(node))
            continue
        if node.has_error:
            stack.extend(node.children)
    return sorted(set(lines))
