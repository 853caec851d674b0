"""The same seeded games on two checkouts: do they end with the same scores? (issue 9, "Done when")

    python scripts/compare_seeded_games.py OLD_TREE NEW_TREE [--games 25]

Plays, on each checkout's own engine and fixtures, what `manage.py simulate` plays: weighted random games (base and
Dragon Academy, 2 to 4 players, seeds 0 to games-1) to the end. Each game's decision count and every player's score
breakdown are compared; the script prints how many games ended the same and, for the first few that did not, where
they part. A difference is either a bug or an intended change of the rules between the two checkouts: list those.
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

SETUPS = [(players, academy) for players in (2, 3, 4) for academy in (False, True)]


def child(tree, games):
    sys.path.insert(0, tree)
    from game.engine.agents import play_out
    from game.engine.catalogue import load_fixtures
    from game.engine.state import GameState

    cat = load_fixtures(Path(tree) / "fixtures")
    out = {}
    for players, academy in SETUPS:
        for seed in range(games):
            st = GameState.new(cat, players=players, seed=seed, academy=academy)
            decisions = play_out(st, seed=seed, weighted=True)
            out[f"{players}p{'+academy' if academy else ''}:{seed}"] = [decisions, st.result["scores"]]
    print(json.dumps(out))


def play(tree, games):
    done = subprocess.run([sys.executable, __file__, tree, "-", "--child", "--games", str(games)],
                          capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.old, args.games)
    old, new = play(args.old, args.games), play(args.new, args.games)
    differ = [game for game in old if old[game] != new.get(game)]
    print(f"{len(old) - len(differ)} of {len(old)} seeded games ended the same "
          f"({args.games} seeds x {len(SETUPS)} setups: 2-4 players, base and Dragon Academy)")
    for game in differ[:5]:
        (d_old, s_old), (d_new, s_new) = old[game], new[game]
        totals = [s["total"] for s in s_old], [s["total"] for s in s_new]
        print(f"  {game}: {d_old} decisions -> {d_new}; totals {totals[0]} -> {totals[1]}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
