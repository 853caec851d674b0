"""Benchmark the analysis board's answer (game/analysis/service.py) on one core: how long one request takes.

Each request replays its whole branch (nothing is stored), so the time grows with the branch: this prints the CPU
time per answer for a bare position, the 4th-column question, and branches of 10, 30 and 60 decisions.

Usage: .venv/bin/python scripts/bench_analysis.py [--repeat 20]
"""
import argparse
import os
import platform
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throwaway key: DEBUG is off, as on a site

import django  # noqa: E402

django.setup()

from game.analysis import service  # noqa: E402
from game.checker.cards import Cards  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402

FOURTH = {"setup": {"players": 2, "seed": 1}, "seat": 0, "edits": [
    {"do": "excavate", "seat": 0, "cave": "crimson", "column": 3}, {"do": "nest", "seat": 0, "eggs": 2},
    {"do": "coins", "seat": 0, "coins": 3}, {"do": "cave_cards", "seat": 0, "caves": 2}]}


def branch(position, length):
    """A branch of `length` decisions: each the first option offered that acts (not a pass or an exchange)."""
    decisions = []
    for _ in range(length):
        answer = service.analyse({"position": position, "decisions": decisions})
        if answer["pending"] is None:
            break
        options = answer["pending"]["options"]
        first = next((o for o in options if o["kind"] not in ("pass", "exchange")), options[0])
        decisions.append({"kind": first["kind"], "args": first["args"]})
    return decisions


def timed(body, repeat):
    times = []
    for _ in range(repeat):
        started = time.process_time()
        service.analyse(body)
        times.append((time.process_time() - started) * 1000)
    return min(times), statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    cards = Cards(load_fixtures(ROOT / "fixtures"))
    service.current_cards = lambda: cards  # the fixtures' catalogue, without a database
    print(f"Python {platform.python_version()} on {platform.machine()}, load {os.getloadavg()[0]:.1f}")
    print("| request | decisions | ms per answer (best) | ms per answer (median) |")
    print("| --- | --- | --- | --- |")
    bare = {"setup": {"players": 2, "seed": 1}}
    cases = [("a dealt table", bare, []), ("the 4th column's cost", FOURTH, [])]
    for length in (10, 30, 60):
        cases.append((f"a branch of {length}", bare, branch(bare, length)))
    for name, position, decisions in cases:
        best, median = timed({"position": position, "decisions": decisions}, args.repeat)
        print(f"| {name} | {len(decisions)} | {best:.1f} | {median:.1f} |")


if __name__ == "__main__":
    main()
