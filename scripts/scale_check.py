"""Scale check: many seeded random games, 2-5 players, base and Dragon Academy, invariants after every step.

Usage: .venv/bin/python scripts/scale_check.py [--games 10000] [--workers 2] [--seed 0] [--out scale.json]

Game g plays seed + g with 2 + g % 4 players, the expansion on every other block of four games, and random players
that choose weighted towards acting in two games of three (uniformly in the third). After every decision the
invariants of tests/engine/invariants.py hold (no negative counts, eggs within nests, at most 12 dragons, caps at
the end of a turn, every card in exactly one place); every 50 decisions and at the end the state survives a JSON
round trip; every 100th game is replayed from its log and must reproduce the same final state. A failing game is
recorded with its seed and the error, and the run goes on. Prints a progress bar on stderr and the figures at the end.
"""
import argparse
import json
import multiprocessing
import statistics
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine.agents import RandomAgent  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.state import GameState  # noqa: E402
from tests.engine import invariants  # noqa: E402

_CAT = None


def catalogue():
    global _CAT
    if _CAT is None:
        _CAT = load_fixtures(ROOT / "fixtures")
    return _CAT


def setup_for(g, seed0):
    return {"seed": seed0 + g, "players": 2 + g % 4, "academy": (g // 4) % 2 == 1, "weighted": g % 3 != 2}


def play_one(args):
    g, seed0 = args
    cat = catalogue()
    opts = setup_for(g, seed0)
    started = time.perf_counter()
    decisions = 0
    try:
        st = GameState.new(cat, players=opts["players"], seed=opts["seed"], academy=opts["academy"])
        memo = {"roundtrip": False}
        invariants.check(st, memo)
        agent = RandomAgent(opts["seed"], opts["weighted"])
        while st.pending is not None:
            st.apply(agent.choose(st.pending.options))
            decisions += 1
            memo["roundtrip"] = decisions % 50 == 0
            invariants.check(st, memo)
            if decisions > 100000:
                raise RuntimeError("the game did not end within 100000 decisions")
        memo["roundtrip"] = True
        invariants.check(st, memo)
        if not st.result or not st.result["winners"]:
            raise AssertionError("the game ended without a result")
        if g % 100 == 0:
            again = GameState.replay(cat, st.options, st.log)
            if again.to_json() != st.to_json():
                raise AssertionError("replaying the log did not reproduce the game")
    except Exception as exc:  # recorded with its seed so it can be replayed, and the run goes on
        return {"g": g, **opts, "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=6),
                "decisions": decisions}
    seconds = time.perf_counter() - started
    played = sorted({s.dragon for pl in st.players for s in pl.spaces if s.dragon is not None})
    caves = sorted({s.cave_card for pl in st.players for s in pl.spaces if s.cave_card is not None})
    return {"g": g, **opts, "decisions": decisions, "seconds": seconds, "totals": [s["total"] for s in
            st.result["scores"]], "dragons": [cat.dragons[d].number for d in played],
            "caves": [cat.caves[c].number for c in caves]}


def bar(done, total, failed, started):
    width = 30
    filled = int(width * done / total)
    rate = done / max(time.perf_counter() - started, 1e-9)
    left = (total - done) / rate if rate else 0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games  {failed} failed  "
                     f"{rate:.1f} games/s  ~{left / 60:.0f} min left ")
    sys.stderr.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="", help="write every game's figures and failures to this JSON file")
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    started = time.perf_counter()
    results = []
    failed = 0
    with multiprocessing.Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_one, [(g, args.seed) for g in range(args.games)], chunksize=4):
            results.append(result)
            failed += "error" in result
            if len(results) % 10 == 0 or len(results) == args.games:
                bar(len(results), args.games, failed, started)
    sys.stderr.write("\n")
    wall = time.perf_counter() - started
    ok = [r for r in results if "error" not in r]
    failures = sorted((r for r in results if "error" in r), key=lambda r: r["g"])
    cat = catalogue()
    summary = {
        "games": args.games, "workers": args.workers, "seed": args.seed, "wall_seconds": round(wall, 1),
        "failed": len(failures), "decisions": sum(r["decisions"] for r in ok),
        "per_players": {}, "dragons_seen": len({n for r in ok for n in r["dragons"]}),
        "dragon_numbers": len({c.number for c in cat.dragons}),
        "caves_seen": len({n for r in ok for n in r["caves"]}), "cave_numbers": len({c.number for c in cat.caves}),
    }
    for players in range(2, 6):
        for academy in (False, True):
            group = [r for r in ok if r["players"] == players and r["academy"] == academy]
            if not group:
                continue
            totals = [t for r in group for t in r["totals"]]
            summary["per_players"][f"{players}p{' academy' if academy else ''}"] = {
                "games": len(group),
                "ms_per_game": round(1000 * statistics.mean(r["seconds"] for r in group), 1),
                "decisions_per_game": round(statistics.mean(r["decisions"] for r in group), 1),
                "mean_score": round(statistics.mean(totals), 1), "max_score": max(totals),
            }
    print(json.dumps(summary, indent=1))
    for r in failures[:20]:
        print(f"FAILED game {r['g']} (seed {r['seed']}, {r['players']} players, academy {r['academy']}, "
              f"weighted {r['weighted']}): {r['error']}\n{r['trace']}")
    if args.out:
        Path(args.out).write_text(json.dumps({"summary": summary, "failures": failures}, indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
