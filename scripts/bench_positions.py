"""Benchmark positions: export, load (with all its checks), the compact text, and a checkpoint and restore, over
every decision of random 2-player games.

Times are CPU time of this process (time.process_time). Usage: .venv/bin/python scripts/bench_positions.py [--games 10]
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine.agents import RandomAgent  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.position import export_position, load_position, position_from_text, position_to_text  # noqa: E402
from game.engine.state import GameState  # noqa: E402


def states(cat, games, players):
    for seed in range(games):
        st = GameState.new(cat, players=players, seed=seed, academy=seed % 2 == 1)
        agent = RandomAgent(seed)
        while st.pending is not None:
            yield st
            st.apply(agent.choose(st.pending.options))


def timed(fn, arg):
    started = time.process_time()
    out = fn(arg)
    return out, time.process_time() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    cat = load_fixtures(ROOT / "fixtures")
    export, load, text, checkpoint, restore, json_size, text_size = [], [], [], [], [], [], []
    for st in states(cat, args.games, args.players):
        position, t = timed(export_position, st)
        export.append(t)
        _, t = timed(lambda p: load_position(cat, p), position)
        load.append(t)
        started = time.process_time()
        line = position_to_text(position)
        position_from_text(line)
        text.append(time.process_time() - started)
        cp, t = timed(lambda s: s.checkpoint(), st)
        checkpoint.append(t)
        _, t = timed(lambda c: st.restore(c), cp)
        restore.append(t)
        json_size.append(len(json.dumps(position, separators=(",", ":"))))
        text_size.append(len(line))
    us = 1e6
    print(f"{len(export)} states of {args.games} {args.players}-player games (every decision)")
    for name, values in (("export_position", export), ("load_position", load), ("text there and back", text),
                         ("checkpoint", checkpoint), ("restore", restore)):
        print(f"  {name:<20} median {statistics.median(values) * us:7.0f} µs   p95 "
              f"{sorted(values)[int(len(values) * 0.95)] * us:7.0f} µs")
    print(f"  position JSON        median {statistics.median(json_size):7.0f} bytes; compact text median "
          f"{statistics.median(text_size):.0f} characters (max {max(text_size)})")


if __name__ == "__main__":
    main()
