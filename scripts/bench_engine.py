"""Benchmark the rules engine on one core: decisions per second and time per complete game.

Times are CPU time of this process (time.process_time), so other programs on a busy machine do not count against
the engine; the wall-clock rate is printed too.

Usage: .venv/bin/python scripts/bench_engine.py [--games 100] [--repeat 5] [--events-only]
Random players choose uniformly (as the yardstick engine's random playouts do) or weighted towards acting.
The random choice is included in the timing; setup (dealing, starting choices) is part of each game.
Events are recorded (as matches do) unless a row says they are off (`state.events = None`, as playouts may);
`--events-only` prints only the 2-player comparison of the two.
"""
import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine.agents import RandomAgent  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.state import GameState  # noqa: E402


def run(cat, games, players, weighted, academy, seed0, events=True):
    decisions = 0
    started = time.process_time()
    wall = time.perf_counter()
    for seed in range(seed0, seed0 + games):
        st = GameState.new(cat, players=players, seed=seed, academy=academy)
        if not events:
            st.events = None
        if weighted:
            agent = RandomAgent(seed)
            pick = agent.choose
        else:
            rng = random.Random(seed)
            pick = lambda options: options[rng.randrange(len(options))]  # noqa: E731
        while st.pending is not None:
            st.apply(pick(st.pending.options))
            decisions += 1
    elapsed = time.process_time() - started
    wall = time.perf_counter() - wall
    return decisions / elapsed, elapsed / games * 1000, decisions / games, decisions / wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--events-only", action="store_true", help="only the 2-player rows, events on and off")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cat = load_fixtures(ROOT / "fixtures")
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.games} games x {args.repeat} runs")
    events_table(cat, args)
    if args.events_only:
        return
    print("| players | expansion | random players | decisions/s (best) | decisions/s (median) | ms per game (best) "
          "| decisions per game | wall-clock decisions/s (median) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for players in (2, 4):
        for academy in (False, True):
            for weighted in (False, True):
                runs = [run(cat, args.games, players, weighted, academy, 1000 * r) for r in range(args.repeat)]
                rates = [r[0] for r in runs]
                print(f"| {players} | {'Dragon Academy' if academy else 'base'} | "
                      f"{'weighted' if weighted else 'uniform'} | {max(rates):,.0f} | {statistics.median(rates):,.0f} "
                      f"| {min(r[1] for r in runs):.1f} | {statistics.mean(r[2] for r in runs):.0f} "
                      f"| {statistics.median(r[3] for r in runs):,.0f} |")


def events_table(cat, args):
    """2 players, events recorded and not, in alternating runs so both see the same machine load; the best run of
    each is the steadiest figure on a busy machine."""
    print("| players | expansion | random players | events on: decisions/s (best / median) | events off: "
          "decisions/s (best / median) | cost of events (best) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for academy in (False, True):
        for weighted in (False, True):
            on, off = [], []
            for r in range(args.repeat):
                off.append(run(cat, args.games, 2, weighted, academy, 1000 * r, events=False)[0])
                on.append(run(cat, args.games, 2, weighted, academy, 1000 * r, events=True)[0])
            print(f"| 2 | {'Dragon Academy' if academy else 'base'} | {'weighted' if weighted else 'uniform'} "
                  f"| {max(on):,.0f} / {statistics.median(on):,.0f} | {max(off):,.0f} / {statistics.median(off):,.0f} "
                  f"| {(max(off) - max(on)) / max(off):+.1%} |")
    print()


if __name__ == "__main__":
    main()
