"""Solo games against the Automa on one core: games per second, and her scores at each level against random play.

Times are CPU time of this process (time.process_time). The player is the weighted random agent of
game/engine/agents.py, so the player's scores here are a floor, not a target; the Automa's scores show how her
levels differ. 95 % confidence intervals are mean +- 1.96 standard errors.

Usage: .venv/bin/python scripts/bench_automa.py [--games 200] [--academy]
"""
import argparse
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine.agents import play_out  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.state import GameState  # noqa: E402


def interval(values):
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, half


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--academy", action="store_true")
    args = parser.parse_args()
    cat = load_fixtures(ROOT / "fixtures")
    print("| level | games | Automa VP (95 % CI) | player VP | Automa wins | games/s (CPU) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for ravel in (False, True):
        for level in (1, 2, 3):
            hers, mine, wins = [], [], 0
            started = time.process_time()
            for seed in range(args.games):
                st = GameState.new(cat, players=1, seed=seed, academy=args.academy,
                                   automa={"level": level, "ravel": ravel})
                st.events = None
                play_out(st, seed=seed)
                hers.append(st.result["scores"][1]["total"])
                mine.append(st.result["scores"][0]["total"])
                wins += st.result["winners"] == [1]
            spent = time.process_time() - started
            her_mean, her_half = interval(hers)
            name = f"{'Ravel ' if ravel else ''}{level}"
            print(f"| {name} | {args.games} | {her_mean:.1f} ± {her_half:.1f} | {statistics.fmean(mine):.1f} | "
                  f"{100 * wins / args.games:.0f} % | {args.games / spent:.0f} |")


if __name__ == "__main__":
    main()
