"""POSIX extended regular expressions, as `[[ text =~ ERE ]]` hands them to glibc's regcomp, as nfa trees.

Read: literals, `.`, bracket expressions with ranges and `[:class:]`, `^`, `$`, `*`, `+`, `?`,
`{m}`, `{m,}`, `{,n}`, `{m,n}`, `|`, groups, and glibc's `\\w \\W \\s \\S`. A back-reference or a word
boundary raises nfa.Unsupported (the outcome stays unknown); what regcomp refuses (`*a`, `a{2,1}`, an
unclosed group or bracket) raises BadRegex, and bash's `=~` then returns 2, which the reader takes as
false. Checked against bash itself in tests/detect/test_bash_matching.py.
"""

from __future__ import annotations

from wizard.detect.script.bash.nfa import ANY, CLASSES, CharSet, Unsupported, literal

MAX_REPEAT = 255  # RE_DUP_MAX: regcomp refuses a larger count


class BadRegex(Exception):
    """regcomp would refuse the expression (bash: `=~` returns 2)."""


_ESCAPES = {
    "w": CharSet(classes=("word",)),
    "W": CharSet(classes=("word",), negate=True),
    "s": CharSet(classes=("space",)),
    "S": CharSet(classes=("space",), negate=True),
}


def parse(pattern: str) -> tuple:
    parser = _Parser(pattern)
    tree = parser.alternation()
    if parser.i < len(pattern):
        raise BadRegex(pattern)  # an unbalanced ')'
    return tree


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.p, self.i = pattern, 0

    def peek(self) -> str:
        return self.p[self.i] if self.i < len(self.p) else ""

    def alternation(self) -> tuple:
        branches = [self.branch()]
        while self.peek() == "|":
            self.i += 1
            branches.append(self.branch())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def branch(self) -> tuple:
        items: list = []
        while self.i < len(self.p) and self.peek() not in "|)":
            c = self.peek()
            if c in "*+?" or (c == "{" and self._interval_ahead()):
                if not items or items[-1][0] in ("bol",):
                    raise BadRegex(self.p)
                items[-1] = self.repeat(items[-1])
                continue
            items.append(self.atom())
        return ("cat", items)

    def _interval_ahead(self) -> bool:
        j = self.i + 1
        while j < len(self.p) and (self.p[j].isdigit() or self.p[j] == ","):
            j += 1
        return j < len(self.p) and self.p[j] == "}"

    def repeat(self, item: tuple) -> tuple:
        c = self.peek()
        self.i += 1
        if c == "*":
            return ("rep", item, 0, None)
        if c == "+":
            return ("rep", item, 1, None)
        if c == "?":
            return ("rep", item, 0, 1)
        end = self.p.index("}", self.i)
        body, self.i = self.p[self.i : end], end + 1
        low_text, comma, high_text = body.partition(",")
        if not body or body.count(",") > 1:
            raise BadRegex(self.p)
        low = int(low_text) if low_text else 0
        high = (int(high_text) if high_text else None) if comma else low
        if low > MAX_REPEAT or (high is not None and (high < low or high > MAX_REPEAT)):
            raise BadRegex(self.p)
        return ("rep", item, low, high)

    def atom(self) -> tuple:
        c = self.peek()
        self.i += 1
        if c == "(":
            inner = self.alternation()
            if self.peek() != ")":
                raise BadRegex(self.p)
            self.i += 1
            return inner
        if c == ".":
            return ("set", ANY)
        if c == "^":
            return ("bol",)
        if c == "$":
            return ("eol",)
        if c == "[":
            return ("set", self.bracket())
        if c == "{":
            raise BadRegex(self.p)  # `{` that starts no interval
        if c == "\\":
            if self.i >= len(self.p):
                raise BadRegex(self.p)
            e = self.p[self.i]
            self.i += 1
            if e in _ESCAPES:
                return ("set", _ESCAPES[e])
            if e.isdigit() or e in "bB<>`'":
                raise Unsupported("\\" + e)
            return literal(e)
        return literal(c)

    def bracket(self) -> CharSet:
        p, j = self.p, self.i
        negate = p[j : j + 1] == "^"
        j += negate
        chars, ranges, classes, first = set(), [], [], True
        while True:
            if j >= len(p):
                raise BadRegex(p)
            c = p[j]
            if c == "]" and not first:
                break
            first = False
            if c == "[" and p[j + 1 : j + 2] in (":", "=", "."):
                kind = p[j + 1]
                end = p.find(kind + "]", j + 2)
                if end < 0:
                    raise BadRegex(p)
                name = p[j + 2 : end]
                if kind != ":":
                    raise Unsupported("[" + kind)  # collating elements and equivalence classes
                if name not in CLASSES:
                    raise BadRegex(p)
                classes.append(name)
                j = end + 2
                continue
            if p[j + 1 : j + 2] == "-" and p[j + 2 : j + 3] not in ("]", ""):
                hi = p[j + 2]
                if hi < c:
                    raise BadRegex(p)
                ranges.append((c, hi))
                j += 3
                continue
            chars.add(c)  # a backslash is literal inside brackets
            j += 1
        self.i = j + 1
        return CharSet(frozenset(chars), tuple(ranges), tuple(classes), negate)
