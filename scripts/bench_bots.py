"""Benchmark the bots' strength: seeded games between levels, win rates and mean scores with 95 % confidence
intervals, and CPU time per decision.

Each game is one JSON line appended to a results file (default /tmp/bench_bots/<pairing>.jsonl), so a long run can
be stopped and resumed (`--games` counts the games wanted in the file) and several runs can share the cores.
`--report` reads every results file and prints the Markdown table for docs/benchmarks.md.

Pairings (A against B): at 2 players one seat each, seats alternating; at 4 players one seat of A against three of
B, A's seat rotating (a coin flip's share would be 25 %). `strong:N` is the strong bot with N playouts per decision
(`strong:N:T`: and its own next T main actions in a playout played greedily, 8 by default). The budget is counted
in playouts, not seconds, so a result does not depend on the machine's load; the time per decision is measured
alongside. `automa:L` is a solo game of A against the Automa at level L, `automa:L:ravel` the same in Ravel
Mode.

Usage:
  nice -n 19 .venv/bin/python scripts/bench_bots.py greedy random --players 2 --games 200
  nice -n 19 .venv/bin/python scripts/bench_bots.py strong:32 greedy --players 2 --games 200
  nice -n 19 .venv/bin/python scripts/bench_bots.py strong:32 automa:1 --games 200
  nice -n 19 .venv/bin/python scripts/bench_bots.py strong:32 automa:2:ravel --games 200
  .venv/bin/python scripts/bench_bots.py --report
  BENCH_BOTS_DIR=/tmp/after .venv/bin/python scripts/bench_bots.py --compare /tmp/before
"""
import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.engine import bots  # noqa: E402
from game.engine.catalogue import load_fixtures  # noqa: E402
from game.engine.state import GameState  # noqa: E402

RESULTS = Path(os.environ.get("BENCH_BOTS_DIR", "/tmp/bench_bots"))


def make(spec, seed):
    """`strong:N` has N playouts per decision; `strong:N:T` also takes its own next T main actions greedily in a
    playout (the default otherwise)."""
    level, *numbers = spec.split(":")
    if level == "strong" and numbers:
        settings = {"iterations": int(numbers[0])}
        if len(numbers) > 1:
            settings["own_turns"] = int(numbers[1])
        return bots.StrongBot(seed, **settings)
    return bots.make_bot(level, seed)


def automa_setting(spec):
    """The engine's `automa` option from an opponent spec: `automa` or `automa:L` (level L, 1 by default), and
    `automa:L:ravel` for Ravel Mode."""
    _, *parts = spec.split(":")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] != "ravel"):
        raise ValueError(f"{spec}: expected automa, automa:L or automa:L:ravel")
    try:
        level = int(parts[0]) if parts and parts[0] else 1
    except ValueError:
        raise ValueError(f"{spec}: the level L of automa:L is a number") from None
    return {"level": level, "ravel": len(parts) == 2}


def automa_score(result):
    """The Automa's total in a finished solo game (the engine lists her after the player)."""
    return result["scores"][-1]["total"]


def play_game(cat, a, b, players, index, academy):
    """One seeded game; returns its JSON line."""
    seed = 10_000 + index
    if b.startswith("automa"):
        st = GameState.new(cat, players=1, seed=seed, academy=academy, automa=automa_setting(b))
        specs, a_seat = [a], 0
    else:
        a_seat = index % players
        specs = [a if seat == a_seat else b for seat in range(players)]
        st = GameState.new(cat, players=players, seed=seed, academy=academy)
    st.events = None
    seats = [make(spec, seed * 10 + seat) for seat, spec in enumerate(specs)]
    cpu = [0.0] * len(seats)
    count = [0] * len(seats)
    while st.pending is not None:
        seat = st.pending.player
        started = time.process_time()
        option = seats[seat].choose(st, seat)
        cpu[seat] += time.process_time() - started
        count[seat] += 1
        st.apply(option)
    scores = [s["total"] for s in st.result["scores"]][:len(specs)]
    line = {"a": a, "b": b, "players": players, "academy": academy, "game": index, "a_seat": a_seat,
            "scores": scores, "winners": st.result["winners"],
            "a_cpu": cpu[a_seat], "a_decisions": count[a_seat],
            "b_cpu": sum(c for s, c in enumerate(cpu) if s != a_seat),
            "b_decisions": sum(c for s, c in enumerate(count) if s != a_seat),
            "load": os.getloadavg()[0]}
    if b.startswith("automa"):
        line["automa"] = automa_score(st.result)
        line["ravel"] = st.result["automa"]["ravel"]
        line["a_won"] = st.result["winners"] == [0]  # a tie goes to the player
    else:
        line["a_won"] = a_seat in st.result["winners"] and len(st.result["winners"]) == 1
    return line


def results_file(a, b, players, academy):
    name = f"{a}_vs_{b}_{players}p{'_academy' if academy else ''}".replace(":", "-")
    return RESULTS / f"{name}.jsonl"


def run(args):
    cat = load_fixtures(ROOT / "fixtures")
    path = results_file(args.a, args.b, args.players, args.academy)
    path.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(line)["game"] for line in path.read_text().splitlines()} if path.exists() else set()
    print(f"{path}: {len(done)} games already; playing up to {args.games}", file=sys.stderr)
    for index in range(args.first, args.first + args.games):
        if index in done:
            continue
        line = play_game(cat, args.a, args.b, args.players, index, args.academy)
        with path.open("a") as out:
            out.write(json.dumps(line) + "\n")
        print(f"game {index}: {line['scores']} A at seat {line['a_seat']} {'won' if line['a_won'] else 'lost'}; "
              f"A {1000 * line['a_cpu'] / max(1, line['a_decisions']):.0f} ms/decision", file=sys.stderr)


def wilson(k, n, z=1.96):
    """The 95 % Wilson interval of a proportion, in per cent."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (100 * (centre - half), 100 * (centre + half))


def mean_ci(values):
    if not values:
        return "-"
    m = statistics.fmean(values)
    if len(values) < 2:
        return f"{m:.1f}"
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{m:.1f} ± {half:.1f}"


def report():
    print(f"Python {platform.python_version()} on {platform.machine()}; results in {RESULTS}")
    print()
    print("| A | B | players | games | A wins % (95 % CI) | A mean VP | B mean VP | A ms/decision | "
          "B ms/decision | load (1 min) |")
    print("| --- | --- | --- | ---: | --- | --- | --- | ---: | ---: | ---: |")
    for path in sorted(RESULTS.glob("*.jsonl")):
        lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        if not lines:
            continue
        first = lines[0]
        n = len(lines)
        wins = sum(1 for x in lines if x["a_won"])
        low, high = wilson(wins, n)
        a_scores = [x["scores"][x["a_seat"]] for x in lines]
        if first["b"].startswith("automa"):
            b_scores = [x["automa"] for x in lines]
        else:
            b_scores = [s for x in lines for seat, s in enumerate(x["scores"]) if seat != x["a_seat"]]
        a_ms = 1000 * sum(x["a_cpu"] for x in lines) / max(1, sum(x["a_decisions"] for x in lines))
        b_ms = 1000 * sum(x["b_cpu"] for x in lines) / max(1, sum(x["b_decisions"] for x in lines))
        load = statistics.fmean(x["load"] for x in lines)
        players = "solo" if first["b"].startswith("automa") else first["players"]
        print(f"| {first['a']} | {first['b']} | {players}{' (DA)' if first.get('academy') else ''} | {n} | "
              f"{100 * wins / n:.0f} ({low:.0f}-{high:.0f}) | {mean_ci(a_scores)} | {mean_ci(b_scores)} | "
              f"{a_ms:.1f} | {b_ms:.1f} | {load:.1f} |")


def read_results(path):
    """The games of one results file, by game index."""
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {x["game"]: x for x in lines}


def paired(before, after):
    """Two runs of the same pairing compared on the games (seeds) both played: A's mean VP difference (after minus
    before) with 1.96 standard errors, A's mean VP and wins in each, and A's CPU time per decision in each. The same
    seed deals the same cards, so the difference of each pair is free of the deal's luck."""
    games = sorted(set(before) & set(after))
    if not games:
        return None

    def score(game):
        return game["scores"][game["a_seat"]]

    def ms(run):
        return 1000 * sum(run[g]["a_cpu"] for g in games) / max(1, sum(run[g]["a_decisions"] for g in games))

    diffs = [score(after[g]) - score(before[g]) for g in games]
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return {"games": len(games), "difference": statistics.fmean(diffs), "half": half,
            "before": statistics.fmean(score(before[g]) for g in games),
            "after": statistics.fmean(score(after[g]) for g in games),
            "wins_before": sum(1 for g in games if before[g]["a_won"]),
            "wins_after": sum(1 for g in games if after[g]["a_won"]),
            "ms_before": ms(before), "ms_after": ms(after)}


def compare(before_dir):
    """Print the paired comparison of every results file here with the file of the same name in `before_dir`."""
    print(f"before: {before_dir}; after: {RESULTS}")
    print()
    print("| A | B | players | games | A's mean VP difference (± 1.96 SE) | A's mean VP before → after | "
          "A wins before → after | A ms/decision before → after |")
    print("| --- | --- | --- | ---: | --- | --- | --- | --- |")
    for path in sorted(RESULTS.glob("*.jsonl")):
        other = Path(before_dir) / path.name
        if not other.exists():
            continue
        after = read_results(path)
        found = paired(read_results(other), after)
        if found is None:
            continue
        first = next(iter(after.values()))
        players = "solo" if first["b"].startswith("automa") else first["players"]
        print(f"| {first['a']} | {first['b']} | {players}{' (DA)' if first.get('academy') else ''} | "
              f"{found['games']} | {found['difference']:+.1f} ± {found['half']:.1f} | "
              f"{found['before']:.1f} → {found['after']:.1f} | {found['wins_before']} → {found['wins_after']} | "
              f"{found['ms_before']:.0f} → {found['ms_after']:.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", help="the level under test: random, greedy, strong or strong:N")
    parser.add_argument("b", nargs="?", help="its opponent: a level, automa:L or automa:L:ravel")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (its seed is 10000 + index)")
    parser.add_argument("--academy", action="store_true")
    parser.add_argument("--report", action="store_true", help="print the table of every results file")
    parser.add_argument("--compare", metavar="BEFORE_DIR",
                        help="pair every results file with the one of the same name in BEFORE_DIR, game by game "
                             "(run the code before and after a change with two BENCH_BOTS_DIRs on the same seeds)")
    args = parser.parse_args()
    if args.report:
        report()
        return
    if args.compare:
        compare(args.compare)
        return
    if not (args.a and args.b):
        parser.error("name two levels, or --report")
    if args.b.startswith("automa"):
        try:
            automa_setting(args.b)
        except ValueError as exc:
            parser.error(str(exc))
    run(args)  # one process, one thread: one core at a time (start two with --first to use two cores)


if __name__ == "__main__":
    main()
