"""1,000 random malformed websocket messages (seeded) against a served wizard with --max-sessions 2: afterwards the
tabs that sent them still have their wizards, and once they close two new tabs both get one; the log has no
traceback. Every message is malformed by construction (not JSON, a wrong shape, a wrong type, an unknown type),
never a keystroke or a size, so the wizards' own work stays small.
"""

from __future__ import annotations

import asyncio
import json
import random
import string

import pytest

from tests.serve.terminal import NEXT_STEP, ON_MODELS, a_wizard

pytest.importorskip("textual_serve")
pytest.importorskip("pyte")
pytestmark = pytest.mark.terminal  # a served wizard's screen, read by a terminal emulator (pyte)

SEED = 28
KINDS = ("stdin", "resize", "ping", "focus", "blur")
VALID = ['["stdin","a"]', '["resize",{"width":80,"height":24}]', '["ping","1733360000000"]', '["focus"]']


def random_json(rng: random.Random, depth: int = 0):
    """Any JSON value (a list or an object only near the top)."""
    choice = rng.randrange(9 if depth < 3 else 6)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.choice([0, -1, 1, 2**31, -(2**63), 10**30, rng.randint(-1000, 1000)])
    if choice == 3:
        return rng.choice([0.5, -3.25, 1e308, 80.0])
    if choice in (4, 5):
        return random_text(rng, rng.randrange(20))
    if choice in (6, 7):
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {random_text(rng, 5): random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def random_text(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(string.printable + '{}[]",:\\é中\x00\x1b') for _ in range(length))


def not_a_size(rng: random.Random):
    return rng.choice(["80", 80.5, -1, 0, -(10**9), None, True, [80], {"v": 80}, "", float("nan")])


def not_text(rng: random.Random):
    return rng.choice([5, -1, None, True, 3.5, ["a"], {"a": "b"}])


def malformed(rng: random.Random) -> str | bytes:
    """One message a tab could send that is not textual-serve's protocol (bytes: a binary websocket message)."""
    case = rng.randrange(12)
    if case == 0:
        return random_text(rng, rng.randrange(1, 300))
    if case == 1:  # a valid message cut short
        message = rng.choice(VALID)
        return message[: rng.randrange(1, len(message))]
    if case == 2:  # any JSON that is not an array with a type first
        return json.dumps(rng.choice([random_json(rng), {"type": "stdin"}, [random_json(rng, 3)], []]))
    if case == 3:
        return json.dumps(["stdin", not_text(rng)] if rng.random() < 0.7 else ["stdin"] + ["a"] * rng.choice([0, 2]))
    if case == 4:
        size = {"width": not_a_size(rng), "height": not_a_size(rng)}
        if rng.random() < 0.3:
            size["width" if rng.random() < 0.5 else "height"] = 80
        if rng.random() < 0.2:
            del size[rng.choice(["width", "height"])]
        return json.dumps(["resize", size], allow_nan=True)
    if case == 5:
        return json.dumps(["resize", rng.choice([None, 80, "80x24", [80, 24], random_json(rng, 3)])])
    if case == 6:
        return json.dumps(["ping", rng.choice([5, None, {"t": 1}, "9" * rng.randrange(65, 2000)])])
    if case == 7:
        return json.dumps([rng.choice(["focus", "blur"]), random_json(rng)])
    if case == 8:  # an unknown type, or a known one spelt otherwise
        kind = rng.choice(["quit", "exit", "open_url", "STDIN", "Resize", " ping", "stdin\x00", random_text(rng, 8)])
        return json.dumps([kind, random_json(rng)])
    if case == 9:
        return json.dumps([random_json(rng), *(random_json(rng) for _ in range(rng.randrange(3)))])
    if case == 10:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    return rng.choice(["[" * rng.randrange(1000, 100_000), "{" * 5000, '"' + "a" * 100_000, "1" * 5000, ""])


def messages(count: int, seed: int = SEED) -> list[str | bytes]:
    rng = random.Random(seed)
    return [malformed(rng) for _ in range(count)]


def test_every_generated_message_is_malformed():
    # The generator itself: nothing it makes is one of the five messages textual.js sends.
    for message in messages(1000):
        if isinstance(message, bytes):
            continue
        try:
            envelope = json.loads(message)
        except (ValueError, RecursionError):
            continue
        well_formed = (
            isinstance(envelope, list)
            and envelope[:1] in (["stdin"], ["ping"])
            and len(envelope) == 2
            and isinstance(envelope[1], str)
            and (envelope[0] == "stdin" or len(envelope[1]) <= 64)
        ) or envelope in (["focus"], ["blur"])
        a_size = (
            isinstance(envelope, list)
            and envelope[:1] == ["resize"]
            and len(envelope) == 2
            and isinstance(envelope[1], dict)
            and all(type(envelope[1].get(k)) is int and envelope[1][k] > 0 for k in ("width", "height"))
        )
        assert not (well_formed or a_size), message


async def fuzz(serve, count: int) -> None:
    """`count` messages spread over two tabs; then both still answer ctrl+n, and two new tabs get wizards."""
    served = serve("--max-sessions", "2")
    tabs = [await a_wizard(served), await a_wizard(served)]
    for n, message in enumerate(messages(count)):
        websocket = tabs[n % 2].websocket
        await (websocket.send_bytes(message) if isinstance(message, bytes) else websocket.send_str(message))
    for tab in tabs:  # both wizards still take keys
        await tab.send("stdin", NEXT_STEP)
        await tab.until(ON_MODELS, what="the Models step after the fuzz and ctrl+n")
        await tab.close()
    for n in (1, 2):
        served.wait_for_line(f"wizard {n} ended")
    new = await asyncio.gather(a_wizard(served), a_wizard(served))
    for tab in new:
        await tab.close()
    assert sum("not textual-serve's protocol" in line for line in served.lines) == 2  # one line per tab


async def test_1000_malformed_messages_leave_both_places_free(serve):
    await fuzz(serve, 1000)
