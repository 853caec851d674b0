"""What drawing the table and trying a turn cost on the server, without the database: seeded 2-player random games
from the fixtures, and at every decision the time of

- `view_for` (with the objective standings, counted by the engine each time),
- the options' costs, gains and targets (`table.with_extras`, the engine's `option_info` per option),
- one preview step: loading the state from its JSON (as the service does) and applying the choice with the checks
  for anything hidden coming to light.

Usage: .venv/bin/python scripts/bench_table.py [--games 20] [--seed 1]
"""
import argparse
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throwaway key: DEBUG is off, as on a site


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import django
    django.setup()
    from game.engine.catalogue import load_fixtures
    from game.engine.state import GameState
    from game.engine.view import view_for
    from game.matches import table

    cat = load_fixtures(ROOT / "fixtures")
    times = {"view_for": [], "extras": [], "preview step": []}
    rng = random.Random(args.seed)
    steps = 0
    for game in range(args.games):
        state = GameState.new(cat, players=2, seed=args.seed * 1000 + game)
        while state.pending is not None:
            option = rng.choice(state.legal_options())
            t0 = time.perf_counter()
            view = view_for(state, state.pending.player)
            t1 = time.perf_counter()
            table.with_extras(state, view)
            t2 = time.perf_counter()
            trial = GameState.from_json(cat, state.to_json())
            marks = table.hidden_marks(trial)
            trial.apply(option)
            assert table.hidden_marks(trial) is not marks
            t3 = time.perf_counter()
            times["view_for"].append(t1 - t0)
            times["extras"].append(t2 - t1)
            times["preview step"].append(t3 - t2)
            state.apply(option)
            steps += 1
    print(f"{args.games} games, {steps} decisions")
    for name, values in times.items():
        values.sort()
        p50 = statistics.median(values) * 1000
        p99 = values[int(len(values) * 0.99)] * 1000
        print(f"{name:>13}: p50 {p50:.3f} ms, p99 {p99:.3f} ms")


if __name__ == "__main__":
    main()
