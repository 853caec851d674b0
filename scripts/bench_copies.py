"""Benchmark the copies search makes: `clone()`, `determinize()` and the JSON round trip, side by side in one run.

Usage: .venv/bin/python scripts/bench_copies.py [--states 10] [--number 2000] [--repeat 5]

The states are taken half-way through seeded random games (weighted random players, base game and Dragon Academy,
2 and 4 players). For each state, each operation is run `--number` times in a row, `--repeat` times; the best of
the repeats is its time (the least disturbed by other programs on a shared machine), and the table shows the
median over the states of that best, and the worst state's best. One core; the thread's CPU time (thread_time).
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine.agents import RandomAgent  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.determinize import determinize  # noqa: E402
from game.engine.state import GameState  # noqa: E402


def midgame(cat, seed, players, academy):
    """The state half-way (by decisions) through a seeded random game."""
    whole = GameState.new(cat, players=players, seed=seed, academy=academy)
    agent = RandomAgent(seed)
    while whole.pending is not None:
        whole.apply(agent.choose(whole.pending.options))
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    agent = RandomAgent(seed)
    for _ in range(whole.decided // 2):
        st.apply(agent.choose(st.pending.options))
    return st


def best_us(fn, number, repeat):
    """Best of `repeat` runs of the CPU time of this thread per call: time spent waiting for a core on a shared
    machine does not count (wall clock would be several times worse under load, and no truer)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.thread_time()
        for _ in range(number):
            fn()
        best = min(best, (time.thread_time() - started) / number)
    return best * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=10)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cat = load_fixtures(ROOT / "fixtures")
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.states} mid-game states per row, "
          f"best of {args.repeat} x {args.number}")
    print("| players | expansion | clone µs (median) | clone µs (worst) | determinize µs (median) | "
          "determinize µs (worst) | to_json + from_json µs (median) | + json text µs (median) | JSON bytes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for players in (2, 4):
        for academy in (False, True):
            clone, det, rt, text, size = [], [], [], [], []
            for k in range(args.states):
                st = midgame(cat, 100 + k, players, academy)
                seat = (st.pending.player + 1) % players  # the harder case: another player is being asked
                clone.append(best_us(st.clone, args.number, args.repeat))
                det.append(best_us(lambda: determinize(st, seat, 7), args.number // 4, args.repeat))
                rt.append(best_us(lambda: GameState.from_json(cat, st.to_json()), args.number // 4, args.repeat))
                text.append(best_us(lambda: GameState.from_json(cat, json.loads(json.dumps(st.to_json()))),
                                    args.number // 4, args.repeat))
                size.append(len(json.dumps(st.to_json())))
            print(f"| {players} | {'Dragon Academy' if academy else 'base'} | {statistics.median(clone):.1f} | "
                  f"{max(clone):.1f} | {statistics.median(det):.1f} | {max(det):.1f} | {statistics.median(rt):.1f} | "
                  f"{statistics.median(text):.1f} | {statistics.median(size):,.0f} |")
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
