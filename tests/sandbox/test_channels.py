"""No channel between two workers (issue 51): two colluding workers try every channel of what the host
shares, alive together and one after the other, and what passes is measured. With the full sandbox no bit
passes; without it each channel carries the nonce (the attacks are real).

The colluder (tests/attack_bots/channels/colluder.py) is driven directly through BotProcess, so the test
chooses what each worker is asked and when it runs; each worker is stopped between its requests, as in a
game.
"""

import secrets
import time

import pytest
from tournament_support import HERE

from alhambra_ai.sandbox import process
from alhambra_ai.sandbox.launch import Isolation
from alhambra_ai.sandbox.process import BotProcess, BotSource, live_count

COLLUDER = BotSource("colluder", (HERE / "attack_bots" / "channels" / "colluder.py").read_bytes())
FULL = process.isolation()
NONE = Isolation(False, 0, False)
needs_full_sandbox = pytest.mark.skipif(bool(FULL.missing()), reason=f"this machine's {FULL.summary()}")
BITS = 64


def worker(plan: Isolation) -> BotProcess:
    proc = BotProcess(COLLUDER, 256, plan=plan)
    proc.begin(30)
    proc.setup({}, 10)
    return proc


def ask(proc: BotProcess, **obs) -> str:
    reply, _ = proc.request({"cmd": "act", "obs": obs}, 20)
    return str(reply["action"])


def passed(sent: list[int], received: str) -> int:
    """Bits of ``sent`` that came through: all of them when at least 60 of 64 agree (a guess agrees
    with 64 random bits in 32 on average; 60 or more by chance has odds below 1e-13), else none."""
    if received.startswith("unavailable") or len(received) != len(sent):
        return 0
    agree = sum(str(b) == r for b, r in zip(sent, received, strict=True))
    return len(sent) if agree >= len(sent) - 4 else 0


def transmit(channel: str, plan: Isolation, together: bool) -> tuple[int, float, str]:
    """Send BITS random bits through ``channel`` from one worker to another, alive at the same time (two
    seats of one game, or two concurrent games) or started once the sender is gone (a later seat, game or
    seat rotation); (bits passed, seconds it took, what came back)."""
    bits = [secrets.randbelow(2) for _ in range(BITS)]
    salt = secrets.token_hex(6)
    started = time.monotonic()
    sender = worker(plan)
    receiver = worker(plan) if together else None
    try:
        ask(sender, role="send", channel=channel, bits=bits, salt=salt)
        if not together:
            sender.close()
            receiver = worker(plan)
        assert receiver is not None
        got = ask(receiver, role="receive", channel=channel, n=BITS, salt=salt)
    finally:
        sender.close()
        if receiver is not None:
            receiver.close()
    return passed(bits, got), time.monotonic() - started, got


def transmit_rounds(channel: str, plan: Isolation, together: bool, n: int = 8) -> tuple[int, float, str]:
    """The one-bit-per-round channels (loadavg, pipes): each bit as a pair of rounds (the bit, then its
    opposite) and read as which round was higher, so that the host's own drift cancels."""
    bits = [secrets.randbelow(2) for _ in range(n)]
    started = time.monotonic()
    got = ""
    for bit in bits:
        readings = []
        for level in (bit, 1 - bit):
            sender = worker(plan)
            receiver = None
            try:
                ask(sender, role="send", channel=channel, bits=[level])
                if not together:  # the sender's state must outlive it: here it cannot (it dies)
                    sender.close()
                receiver = worker(plan)
                readings.append(ask(receiver, role="receive", channel=channel, n=1))
            finally:
                sender.close()
                if receiver is not None:
                    receiver.close()
        if any(r.startswith("unavailable") for r in readings):
            return 0, time.monotonic() - started, readings[0]
        first, second = (float(r) for r in readings)
        got += "1" if first > second else "0" if first < second else "?"
    agree = sum(str(b) == g for b, g in zip(bits, got, strict=True))
    return (n if agree == n else 0), time.monotonic() - started, got


@needs_full_sandbox
@pytest.mark.parametrize("together", [True, False], ids=["together", "one after the other"])
@pytest.mark.parametrize("channel", ["residency", "latency", "lookups"])
def test_no_bit_passes_through_the_page_or_lookup_cache(channel, together):
    """Page-cache residency, read latency and remembered lookups: nothing passes from one worker to
    another, alive at once or one after the other (the next seat, game or seat rotation)."""
    bits, _, got = transmit(channel, FULL, together)
    assert bits == 0, f"{channel}: {got}"
    assert live_count() == 0


@needs_full_sandbox
@pytest.mark.parametrize("channel", ["loadavg", "pipes"])
def test_no_bit_passes_through_host_wide_counts(channel):
    bits, _, got = transmit_rounds(channel, FULL, together=True, n=2)
    assert bits == 0 and got.startswith("unavailable"), f"{channel}: {got}"


@needs_full_sandbox
def test_no_host_wide_counter_is_readable():
    proc = worker(FULL)
    try:
        got = ask(proc, role="receive", channel="counters", n=1)
    finally:
        proc.close()
    assert got.startswith("unavailable"), got


@pytest.mark.parametrize("together", [True, False], ids=["together", "one after the other"])
@pytest.mark.parametrize("channel", ["residency", "latency", "lookups"])
def test_the_cache_channels_pass_without_the_sandbox(channel, together):
    bits, seconds, got = transmit(channel, NONE, together)
    assert bits == BITS, f"{channel}: {got}"


def test_the_counter_channels_pass_without_the_sandbox():
    proc = worker(NONE)
    try:
        assert ask(proc, role="receive", channel="counters", n=1) == "1"
    finally:
        proc.close()
    bits, _, got = transmit_rounds("pipes", NONE, together=True, n=4)
    assert bits == 4, got
