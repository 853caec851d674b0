"""Rules of the game a position on the board breaks. The board lets a position break them, for what-if questions,
but says so: each break is named with the place it concerns and the rule behind it (the score pad refuses the same
mats: game/calculator/sheet.py)."""
from game.engine.model import COLUMNS
from game.language.vocabulary import CAVE_NAMES, CAVES
from game.rules import rules_anchor


def _seat_name(seat):
    return f"Player {seat + 1}"


def broken_rules(st):
    """[{rule, seat, cave, column, text, rules}] for each dragon on a mat where the rules could not have put it: in a
    cave it does not live in, after an empty space of its cave, or from Dragon Academy in a game without it."""
    out = []
    academy = bool(st.options.get("academy"))
    for pl in st.players:
        for i, space in enumerate(pl.spaces):
            if space.dragon is None:
                continue
            card = st.cat.dragons[space.dragon]
            cave, column = divmod(i, COLUMNS)
            where = {"seat": pl.seat, "cave": CAVES[cave], "column": column + 1}
            here = f"{_seat_name(pl.seat)}'s {CAVE_NAMES[cave]} column {column + 1}"
            if cave not in card.habitats:
                lives = " or ".join(CAVE_NAMES[h] for h in card.habitats)
                out.append(dict(where, rule="habitat", rules=rules_anchor("entice"),
                                text=f"{card.name} ({card.number}) on {here} lives in the {lives}, not the "
                                     f"{CAVE_NAMES[cave]}: the rules never put it there"))
            if column and pl.spaces[i - 1].dragon is None:
                out.append(dict(where, rule="from_left", rules=rules_anchor("entice"),
                                text=f"{card.name} ({card.number}) on {here} has an empty space on its left: dragons "
                                     f"fill a cave from the left"))
            if card.expansion != "base" and not academy:
                out.append(dict(where, rule="expansion", rules=None,
                                text=f"{card.name} ({card.number}) on {here} comes with Dragon Academy, and this "
                                     f"game is played without it"))
    return out
