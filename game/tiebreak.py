"""How a tie on VP is told, in one place for the score calculator and the end of a match.

The rule (game.engine.scoring decides it): players level on VP are split by the most dragons on their mats, and
those level on both share the place; against the Automa a tie goes to the player, and her dragons break nothing.
"""


def names_list(names):
    """"Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def tie_words(lines):
    """A sentence for every tie on VP among `lines` (dicts with `name`, `total`, `dragons` on the mat and `automa`,
    true for her line, whom the sentence calls "the Automa"), highest total first."""
    words = []
    by_total = {}
    for line in lines:
        by_total.setdefault(line["total"], []).append(line)
    for total, group in sorted(by_total.items(), reverse=True):
        if len(group) < 2:
            continue
        names = names_list("the Automa" if line["automa"] else line["name"] for line in group)
        if any(line["automa"] for line in group):
            players = [line["name"] for line in group if not line["automa"]]
            words.append(f"{names} tie on {total} VP; against the Automa a tie goes to the player, so "
                         f"{names_list(players)} takes the higher place.")
            continue
        most = max(line["dragons"] for line in group)
        leaders = [line["name"] for line in group if line["dragons"] == most]
        counts = ", ".join(f"{line['name']} {line['dragons']}" for line in group)
        if len(leaders) == len(group):
            words.append(f"{names} tie on {total} VP and on dragons on the mat ({most} each), so they share "
                         f"the place.")
        elif len(leaders) == 1:
            words.append(f"{names} tie on {total} VP; the tiebreak is the most dragons on the mat ({counts}), "
                         f"so {leaders[0]} takes the higher place.")
        else:
            words.append(f"{names} tie on {total} VP; the tiebreak is the most dragons on the mat ({counts}), "
                         f"so {names_list(leaders)} share the higher place.")
    return words
