"""The rules engine of two checkouts, timed side by side in alternating runs (docs/benchmarks.md, "Rules engine").

    python scripts/bench_engine_compare.py OLD_TREE NEW_TREE [--games 40] [--repeat 3] [--rounds 4]
                                           [--events] [--players 2]

Two processes, one per checkout (its own engine and fixtures first on the path), take turns row by row and seed
block by seed block, which of the two goes first alternating, so both see the same load of the machine. The loop is
this script's own, the same for both: random players (uniform, or weighted towards acting), events off where the
engine records them (older engines did not; `--events` records them in both, as matches do), CPU time of the
process, pinned to one core. Prints, per row, the best and the median decisions per CPU-second of each, and new as a
share of old. `--players 2` keeps only the 2-player rows (issue 10's floor is about those).
Run it under `flock /work/bench.lock` on a shared machine.
"""
import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROWS = [(players, academy, weighted) for players in (2, 4) for academy in (False, True) for weighted in (False, True)]


def child(tree, events=False):
    """Serve timings of the engine of `tree`: read a row as JSON from stdin, play it, answer [rate, decisions/game]."""
    sys.path.insert(0, tree)
    from game.engine.agents import RandomAgent
    from game.engine.catalogue import load_fixtures
    from game.engine.state import GameState

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    cat = load_fixtures(Path(tree) / "fixtures")
    print("ready", flush=True)
    for line in sys.stdin:
        players, academy, weighted, seed0, games = json.loads(line)
        decisions = 0
        started = time.process_time()
        for seed in range(seed0, seed0 + games):
            st = GameState.new(cat, players=players, seed=seed, academy=academy)
            if hasattr(st, "events") and not events:
                st.events = None
            if weighted:
                pick = RandomAgent(seed).choose
            else:
                rng = random.Random(seed)
                pick = lambda options, rng=rng: options[rng.randrange(len(options))]  # noqa: E731
            while st.pending is not None:
                st.apply(pick(st.pending.options))
                decisions += 1
        print(json.dumps([decisions / (time.process_time() - started), decisions / games]), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--events", action="store_true", help="record events in both engines (needs events in both)")
    parser.add_argument("--players", type=int, choices=(2, 4), help="only the rows of this many players")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.old, args.events)
    rows = [row for row in ROWS if args.players in (None, row[0])]
    engines = {}
    for name in ("old", "new"):
        tree = getattr(args, name)
        engines[name] = subprocess.Popen([sys.executable, __file__, tree, "-", "--child"] + ["--events"] * args.events,
                                         cwd=tree, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert engines[name].stdout.readline().strip() == "ready"

    def timed(name, row, seed0):
        engines[name].stdin.write(json.dumps([*row, seed0, args.games]) + "\n")
        engines[name].stdin.flush()
        return json.loads(engines[name].stdout.readline())

    results = {"old": {}, "new": {}}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for row in rows:
            for r in range(args.repeat):
                # Which goes first alternates: the second of a pair ran measurably slower in an A/A run (the same
                # checkout on both sides), so a fixed order would be counted against one side.
                for name in ("old", "new") if (round_ + r) % 2 == 0 else ("new", "old"):
                    results[name].setdefault(row, []).append(timed(name, row, 1000 * r))
        loads.append(os.getloadavg()[0])
    for engine in engines.values():
        engine.stdin.close()
        engine.wait()
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; {args.games} games x "
          f"{args.repeat} seed blocks x {args.rounds} rounds per row and engine, old and new alternating row by row, "
          f"events {'on' if args.events else 'off'}; "
          f"load average (1 min) {min(loads):.1f}-{max(loads):.1f}")
    print("| players | expansion | random players | old: decisions/s (best) | new: decisions/s (best) | new / old "
          "| new / old (medians) | decisions per game (old / new) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    totals = [0, 0, 0, 0]
    for row in rows:
        players, academy, weighted = row
        best = [max(r[0] for r in results[name][row]) for name in ("old", "new")]
        median = [statistics.median(r[0] for r in results[name][row]) for name in ("old", "new")]
        per_game = [statistics.mean(r[1] for r in results[name][row]) for name in ("old", "new")]
        totals = [t + x for t, x in zip(totals, best + median)]
        print(f"| {players} | {'Dragon Academy' if academy else 'base'} | {'weighted' if weighted else 'uniform'} "
              f"| {best[0]:,.0f} | {best[1]:,.0f} | {best[1] / best[0]:.0%} | {median[1] / median[0]:.0%} "
              f"| {per_game[0]:.0f} / {per_game[1]:.0f} |")
    print(f"| all | | | {totals[0]:,.0f} | {totals[1]:,.0f} | {totals[1] / totals[0]:.0%} | "
          f"{totals[3] / totals[2]:.0%} | |")


if __name__ == "__main__":
    main()
