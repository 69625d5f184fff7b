"""What passes between two bot workers, channel by channel (README "Security model"): the residual
bandwidth of the sandbox and, for each channel, what the same attack carries without it.

Two colluding workers (tests/attack_bots/channels/colluder.py) pass random 64-bit nonces, alive together
or one after the other (each has its own tree of links: the same holds in one game or two); a nonce counts
as passed when
at least 60 of its 64 bits arrive (tests/sandbox/test_channels.py). Rates are bits over the wall time of
sending and receiving (worker starts excluded); "bits per game" is what one move of 1 s could carry.

    python benchmarks/bench_channels.py [--trials 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "tournament")]

from test_channels import BITS, FULL, NONE, ask, passed, worker  # noqa: E402


def once(channel: str, plan, together: bool) -> tuple[int, float]:
    """(bits passed, seconds of sending + receiving) for one nonce."""
    import secrets

    bits = [secrets.randbelow(2) for _ in range(BITS)]
    salt = secrets.token_hex(6)
    sender = worker(plan)
    receiver = worker(plan) if together else None
    try:
        t = time.monotonic()
        ask(sender, role="send", channel=channel, bits=bits, salt=salt)
        spent = time.monotonic() - t
        if not together:
            sender.close()
            receiver = worker(plan)
        assert receiver is not None
        t = time.monotonic()
        got = ask(receiver, role="receive", channel=channel, n=BITS, salt=salt)
        spent += time.monotonic() - t
    finally:
        sender.close()
        if receiver is not None:
            receiver.close()
    return passed(bits, got), spent


def contention(plan) -> tuple[int, float]:
    """Two workers of concurrent games (two CPUs) computing at once."""
    import secrets

    bits = [secrets.randbelow(2) for _ in range(BITS)]
    sender, receiver = worker(plan), worker(plan)
    start = time.time() + 0.5
    got: list[str] = []
    try:
        thread = threading.Thread(target=lambda: ask(sender, role="send", channel="contention", bits=bits,
                                                     salt=str(start)))
        thread.start()
        got.append(ask(receiver, role="receive", channel="contention", n=BITS, salt=str(start)))
        thread.join()
    finally:
        sender.close()
        receiver.close()
    agree = sum(str(b) == g for b, g in zip(bits, got[0], strict=True))
    return agree, BITS * 0.02


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    print(FULL.summary(256, caps=True))
    print(f"load average at the start: {os.getloadavg()[0]:.1f}; {args.trials} nonces of {BITS} bits each")
    rows = [(c, t) for c in ("residency", "latency", "lookups") for t in (True, False)]
    for plan_name, plan in (("full sandbox", FULL), ("no sandbox", NONE)):
        for channel, together in rows:
            results = [once(channel, plan, together) for _ in range(args.trials)]
            got = sum(b for b, _ in results)
            seconds = sum(s for _, s in results)
            rate = got / seconds if seconds else 0.0
            print(f"  {plan_name:<12} {channel:<9} {'together' if together else 'one after the other':<19} "
                  f" passed {got:4d} of {BITS * args.trials} bits  {rate:10.0f} bit/s")
        agree = [contention(plan)[0] for _ in range(args.trials)]
        print(f"  {plan_name:<12} contention (two CPUs, at once): bits agreeing {agree} of {BITS} each "
              f"(chance: 32; 20 ms a bit)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
