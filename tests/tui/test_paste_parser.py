"""A bracketed paste reaches the app whole and in order, ESC inside it included (issue 32 item 7).

Textual's own parser turns an ESC inside a paste into keys sent before the paste: `Qwen/ESC[31mabc` arrived as the
keys `^[31mabc` and then the paste `Qwen/`, and the field read `^[31mabcQwen/`. textual_compat.install_paste_intact
takes the text between the paste's markers off the input first. Checked at every split of the input into reads,
since a terminal's read can end anywhere, inside a marker too."""

from __future__ import annotations

from textual import events
from textual._xterm_parser import XTermParser

from wizard.tui import textual_compat

START, END = textual_compat.PASTE_START, textual_compat.PASTE_END


def parsed(*reads: str) -> list[tuple[str, str]]:
    parser = XTermParser()
    out = []
    for data in reads:
        out.extend(parser.feed(data))
    return [("paste", e.text) if isinstance(e, events.Paste) else ("key", e.key) for e in out]


def test_textual_alone_turns_an_esc_inside_a_paste_into_keys_before_the_paste(monkeypatch):
    # the failure this fixes, as Textual 8.2.8 has it: its own parser, without the wrapper
    assert textual_compat.install_paste_intact()
    monkeypatch.setattr(XTermParser, "feed", XTermParser.feed.stock)
    got = parsed(START + "Qwen/\x1b[31mabc" + END)
    assert got[-1] == ("paste", "Qwen/")  # the paste comes last, cut at the ESC
    assert ("key", "m") in got and ("key", "a") in got  # the rest came as keys, before it


def test_a_paste_with_an_esc_arrives_whole_between_the_keys_around_it():
    assert textual_compat.install_paste_intact()
    assert parsed("x" + START + "Qwen/\x1b[31mabc\tq" + END + "y") == [
        ("key", "x"),
        ("paste", "Qwen/\x1b[31mabc\tq"),
        ("key", "y"),
    ]


def test_every_split_into_reads_gives_the_same_events():
    assert textual_compat.install_paste_intact()
    data = "a" + START + "p\x1b[0m\x1bq\x01" + END + "\x1b[A" + START + END + "b"
    whole = parsed(data)
    assert whole == [("key", "a"), ("paste", "p\x1b[0m\x1bq\x01"), ("key", "up"), ("paste", ""), ("key", "b")]
    for first in range(1, len(data)):
        for second in range(first + 1, len(data)):
            assert parsed(data[:first], data[first:second], data[second:]) == whole, (first, second)


def test_a_key_held_before_a_paste_comes_before_it():
    assert textual_compat.install_paste_intact()
    assert parsed("\x1b" + START + "z" + END) == [("key", "escape"), ("paste", "z")]


def test_input_without_a_paste_is_parsed_as_textual_parses_it(monkeypatch):
    assert textual_compat.install_paste_intact()
    data = "ab\x1b[A\x1b[1;5C\x1bx\t\r"
    wrapped = parsed(data)
    monkeypatch.setattr(XTermParser, "feed", XTermParser.feed.stock)
    assert wrapped == parsed(data)
