"""The words a player reads for an option, rendered from its structured data (`state.option_info(option)`).

The engine describes an option as data: its kind and args, the card, space or cave it concerns, what it costs and
what it gives. This module turns that data into one short English label; it knows no rules and no catalogue.
"""
from .render import describe
from .vocabulary import CAVE_NAMES, ITEMS


def cave_name(index):
    return CAVE_NAMES[index] if isinstance(index, int) and 0 <= index < len(CAVE_NAMES) else f"cave #{index}"


def card_name(card):
    """'Wise Anteldragon (50)', 'cave card 12', or 'dragon #999' for a card that does not exist."""
    if card is None:
        return "a card"
    if card.get("name") is None:
        return f"{'dragon' if card['type'] == 'dragon' else 'cave card'} #{card['index']}"
    return f"{card['name']} ({card['number']})" if card["type"] == "dragon" else card["name"]


def space_name(info, index):
    """A mat space in words, from the option's `space` (or its nest), else the raw index."""
    if info.get("nest"):
        return "a nest on your mat"
    if isinstance(index, int) and 0 <= index < 12:
        cave, column = divmod(index, 4)
        return f"{CAVE_NAMES[cave]} space {column + 1}"
    return f"space #{index}"


def _activate_icon(info, args):
    """'Use the Crimson Cavern path icon 1 (before space 1): gain 1 resource of any kind': where the icon is printed
    along the cave's path (one before each of the 4 spaces, one at the end) and what it does."""
    slot = args[1]
    where = f"before space {slot + 1}" if slot < 4 else "at the end of the cave"
    text = f"Use the {cave_name(args[0])} path icon {slot + 1} ({where})"
    if info.get("effect") is None:
        return text
    does = describe(info["effect"])
    return f"{text}: {does[:1].lower()}{does[1:]}"


def _pass(info, args):
    return "Pass" + (f" (take income space {args[0] + 1})" if args else "")


def _excavate(info, args):
    card = "the top cave card of the deck" if args[0] == -1 else card_name(info["card"])
    return f"Excavate the {cave_name(args[1])} with {card}"


def resources_given(names):
    """Resources named one by one, each kind once with its count in the order named: "2 meat", not "1 meat and 1
    meat"."""
    counts = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return " and ".join(f"{n} {name}" for name, n in counts.items())


def _exchange(info, args):
    return f"Exchange {resources_given(args[:-1])} for {info['gain'][args[-1]]} {args[-1]}"


def _discard_cards(info, args):
    return "Discard " + " and ".join(card_name(card) for card in info["cards"])


def _discard(info, args):
    return "Discard " + (card_name(info["card"]) if len(args) == 2 else f"1 {args[0]}")


def _take(info, args):
    if args[0] == "deck":
        return "Draw from the deck"
    # The display lies face up, so its card is named; an empty slot (a refused option's words) only by place.
    if info.get("card") is not None:
        return f"Take {card_name(info['card'])} from the display"
    return f"Take display card {args[1] + 1}"


def _pay(info, args):
    if args[0] == "egg":
        return f"Pay an egg from {space_name(info, args[1])}"
    if len(args) == 2:
        return f"Pay {card_name(info['card'])}"
    return f"Pay 1 {args[0]}"


def _tuck(info, args):
    card = "the top card of the deck" if args[0] == -1 else card_name(info["card"])
    return f"Tuck {card} under {space_name(info, args[1])}"


def _marker(info, args):
    row = "the END GAME row" if args[0] == -1 else f"row {args[0] + 1}"
    return f"Place your marker on {row}, square {args[1] + 1}"


def _play(info, args):
    extra = f" (without 1 {args[2]})" if len(args) > 2 else ""
    return f"Play {card_name(info['card'])} into the {cave_name(args[1])}{extra}"


def _pick(info, args):
    place, card = args[0], card_name(info["card"])
    if place == "tuck":
        return f"Tuck {card} under {space_name(info, args[3])}"
    if place == "play":
        return f"Play {card} into the {cave_name(args[3])}"
    if place == "excavate":
        return f"Excavate the {cave_name(args[3])} with {card}"
    return f"{place.capitalize()} {card}"


def _choose(info, args):
    """The effect itself, not its number: the prompt numbers only the choices still possible."""
    return describe(info["effect"])


LABELS = {
    "pass": _pass,
    "excavate": _excavate,
    "entice": lambda info, args: f"Entice {card_name(info['card'])} into the {cave_name(args[1])}",
    "explore": lambda info, args: f"Explore the {cave_name(args[0])}",
    "exchange": _exchange,
    "yes": lambda info, args: "Yes",
    "no": lambda info, args: "No",
    "stop": lambda info, args: "Stop here",
    "discard_cards": _discard_cards,
    "resources": lambda info, args: "Take " + ", ".join(args),
    "discard": _discard,
    "resource": lambda info, args: f"Gain {args[0]}",
    "take": _take,
    "egg_on": lambda info, args: f"Lay on {space_name(info, args[0])}",
    "pay": _pay,
    "cache": lambda info, args: f"Cache 1 {args[0]} on {space_name(info, args[1])}",
    "tuck": _tuck,
    "marker": _marker,
    "first": lambda info, args: ("The cave card's benefit first" if args[0] == "cave_card"
                                 else "The 4th column's benefit first"),
    "choose": _choose,
    "next_ability": lambda info, args: f"Resolve {card_name(info['card'])} next",
    "play": _play,
    "cover": lambda info, args: f"Play {card_name(info['card'])} on top of the dragon on {space_name(info, args[1])}",
    "swap": lambda info, args: f"Swap the dragons on {space_name(info, args[0])} and {space_name(info, args[1])}",
    "swap_hand": lambda info, args: f"Swap the dragon on {space_name(info, args[0])} for {card_name(info['card'])}",
    "swap_cave": lambda info, args: (f"Swap the cave card on {space_name(info, args[0])} for "
                                     f"{card_name(info['card'])}"),
    "train": lambda info, args: f"Train the fledgling on {space_name(info, args[0])}",
    "activate": lambda info, args: f"Use {card_name(info['card'])}'s ability",
    "activate_icon": _activate_icon,
    "activate_card": lambda info, args: f"Use {card_name(info['card'])}'s ability",
    "pick": _pick,
}


def amounts(counts):
    """'1 coin, 2 meat and 1 egg' from {item: count}, in the order given."""
    words = []
    for item, n in counts.items():
        one, many = ITEMS[item][1:] if item in ITEMS else (item, item)
        words.append(f"{n} {one if n == 1 else many}")
    return " and ".join(words) if len(words) < 3 else ", ".join(words[:-1]) + " and " + words[-1]


def price(info):
    """What an option costs and gives, in words ('costs 1 coin and 1 egg; gives 1 meat'), or '' for neither."""
    parts = []
    if info.get("cost"):
        parts.append("costs " + amounts(info["cost"]))
    if info.get("gain"):
        parts.append("gives " + amounts(info["gain"]))
    return "; ".join(parts)


def raw_label(kind, args):
    return f"{kind} {' '.join(str(a) for a in args)}".strip()


def render_option(info):
    """The label of an option from its data; never fails (an option it cannot read is shown raw)."""
    kind, args = info["kind"], info["args"]
    build = LABELS.get(kind)
    if build is not None and not info.get("unreadable"):
        try:
            return build(info, args)
        except (IndexError, TypeError, ValueError, AttributeError, KeyError):
            pass
    return raw_label(kind, args)
