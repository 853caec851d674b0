"""A digest of what the effect data means, to compare before and after a grammar migration (docs/effects.md).

    python scripts/effects_digest.py OUT.json [fixtures/]
    python scripts/effects_digest.py --compare BEFORE.json AFTER.json

It writes the rendered English of every ability in the catalogue (dragons, cave cards, guild rows, board facts) and
the final scores of a fixed set of seeded random games (2 to 4 players, base and Dragon Academy, and solo).
--compare counts the rendered texts that changed (printing a few) and says whether every game ended the same.
"""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEEDS = range(12)


def texts(folder):
    from game.language.render import render_abilities, render_effect
    out = {}
    for path in sorted(Path(folder).glob("*.json")):
        data = json.loads(path.read_text())
        records = next(iter(data.values())) if isinstance(data, dict) else data
        for i, record in enumerate(records):
            name = f"{path.name}:{record.get('number', record.get('key', i))}:{record.get('printing', '')}"
            if isinstance(record.get("abilities"), list):
                out[name] = render_abilities(record["abilities"])
            for r, row in enumerate(record.get("rows") or ()):
                if isinstance(row, dict) and isinstance(row.get("effect"), dict):
                    out[f"{name}:row{r}"] = render_effect(row["effect"])
            _effects_in(record.get("value"), f"{name}:value", out, render_effect)
    return out


def _effects_in(value, where, out, render):
    if isinstance(value, dict):
        if "do" in value:
            out[where] = render(value)
            return
        for k, v in value.items():
            _effects_in(v, f"{where}.{k}", out, render)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _effects_in(v, f"{where}[{i}]", out, render)


def games(folder):
    from game.engine.agents import play_out
    from game.engine.catalogue import load_fixtures
    from game.engine.state import GameState
    cat = load_fixtures(Path(folder))
    out = {}
    for players, academy, automa in ((2, False, None), (3, True, None), (4, False, None), (1, True, {"level": 2})):
        for seed in SEEDS:
            st = GameState.new(cat, players=players, seed=seed, academy=academy, automa=automa)
            decisions = play_out(st, seed=seed)
            out[f"{players}p{'+academy' if academy else ''}:{seed}"] = [decisions, st.result["scores"]]
    return out


def compare(before, after):
    a, b = json.loads(Path(before).read_text()), json.loads(Path(after).read_text())
    changed = [k for k in a["texts"] if a["texts"][k] != b["texts"].get(k)]
    print(f"{len(changed)} of {len(a['texts'])} rendered texts changed")
    for k in changed[:8]:
        print(f"  {k}\n    before: {a['texts'][k]}\n    after:  {b['texts'].get(k)}")
    differ = [k for k in a["games"] if a["games"][k] != b["games"].get(k)]
    print(f"{len(a['games']) - len(differ)} of {len(a['games'])} seeded games ended the same" +
          (f"; differ: {', '.join(differ)}" if differ else ""))


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        folder = sys.argv[2] if len(sys.argv) > 2 else ROOT / "fixtures"
        Path(sys.argv[1]).write_text(json.dumps({"texts": texts(folder), "games": games(folder)}, indent=0))
