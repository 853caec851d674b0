"""The rules reference: sections in our own words, and `rules_anchor` so other pages can link a keyword to its rule."""
from django.urls import reverse

from .sections import SECTIONS, Section, Term

# keyword (an effect word, an ability kind, a card term) -> anchor id on the rules page
KEYWORDS = {
    "setup": "setup",
    "turn": "turn",
    "pass": "turn",
    "exchange": "exchange",
    "excavate": "excavate",
    "entice": "entice",
    "play_dragon": "play-a-dragon",
    "cover_dragon": "entice",
    "explore": "explore",
    "when_played": "when-played",
    "if_activated": "if-activated",
    "once_per_round": "once-per-round",
    "end_game": "end-game",
    "activate": "activate",
    "guild": "guild",
    "tithe": "tithe",
    "hatchling": "hatchlings",
    "on_feed": "hatchlings",
    "on_grow_up": "hatchlings",
    "fledgling": "fledglings",
    "train": "train",
    "training": "train",
    "free_if": "conditional-costs",
    "conditional_cost": "conditional-costs",
    "cache": "cache",
    "tuck": "tuck",
    "egg": "eggs",
    "lay_egg": "lay-egg",
    "pay_egg": "pay-egg",
    "pay": "pay-item",
    "gain": "gain-card",
    "draw": "draw",
    "display": "from-display",
    "reveal": "reveal",
    "round_end": "round-end",
    "objective": "round-end",
    "all_players": "all-players",
    "each_opponent": "all-players",
    "others": "all-players",
    "scoring": "scoring",
    "vp": "scoring",
    "in_this_cave": "in-this-cave",
    "cave": "in-this-cave",
    "row": "in-this-cave",
    "column": "column",
    "adjacent": "adjacent",
    "beside": "beside",
    "other": "itself",
    "mat": "on-your-mat",
    "resource": "resources",
    "any_resource": "resources",
    "here": "here",
    "up_to": "up-to",
    "habitat": "habitat",
    "swap": "habitat",  # the swap family's own word; each member below keeps its rule
    "swap_dragons": "habitat",
    "swap_with_hand": "habitat",
    "swap_cave_card": "excavate",
    "distribute": "cards",
    "score": "scoring",
    "repeat": "up-to",
    "may": "abilities",
    "automa": "solo",
    "solo": "solo",
    "ravel": "ravel-mode",
    "automa_cache": "automa-cache",
}


def anchor_ids():
    """Every anchor the rules page defines: section slugs and term ids."""
    ids = []
    for section in SECTIONS:
        ids.append(section.slug)
        ids.extend(block.id for block in section.blocks if isinstance(block, Term))
    return ids


def rules_anchor(keyword):
    """The URL of the rule behind `keyword` ('cache', 'lay egg', 'in-this-cave'), or None when there is none."""
    if not isinstance(keyword, str):
        return None
    key = keyword.strip().lower().replace("-", "_").replace(" ", "_")
    anchor = KEYWORDS.get(key)
    if anchor is None and key.replace("_", "-") in anchor_ids():
        anchor = key.replace("_", "-")
    if anchor is None and key.endswith("s"):
        anchor = KEYWORDS.get(key[:-1])
    if anchor is None:
        return None
    return f"{reverse('rules')}#{anchor}"


__all__ = ["KEYWORDS", "SECTIONS", "Section", "Term", "anchor_ids", "present_rulings", "rules_anchor"]


CARD_ROUTES = {"dragons": ("dragon-by-number", "Dragon"), "caves": ("cave-by-number", "Cave card"),
               "guilds": ("guild-by-number", "Guild tile"), "objectives": ("objective-by-number", "Objective tile")}


# The cards the analysis board and the checker can set up, by the kind a ruling names them with.
TRIED_KINDS = {"dragons": "dragon", "caves": "cave", "guilds": "guild"}


def present_rulings(rulings):
    """Rulings as the templates show them: the data plus links to the cards (with names), to try each card on the
    analysis board and in the checker, and to the rule topics."""
    from cardsite.catalogue.models import Dragon, GuildTile
    from game.checker.links import card_ref, try_links

    wanted = {n for ruling in rulings for n in ruling.dragons}
    names = {}
    for number, name in Dragon.objects.filter(number__in=wanted).order_by("printing").values_list("number", "name"):
        names.setdefault(("dragons", number), name)
    wanted = {n for ruling in rulings for n in ruling.guilds}
    for number, name in GuildTile.objects.filter(number__in=wanted).order_by("-expansion_id").values_list(
            "number", "name"):
        names[("guilds", number)] = name
    titles = {block.id: block.name for section in SECTIONS for block in section.blocks if isinstance(block, Term)}
    titles.update({section.slug: section.title for section in SECTIONS})
    shown = []
    for ruling in rulings:
        cards = []
        for kind, (route, noun) in CARD_ROUTES.items():
            for number in ruling.cards(kind):
                name = names.get((kind, number)) or f"{noun} {number}"
                tried = TRIED_KINDS.get(kind)
                cards.append({"kind": kind, "number": number, "url": reverse(route, args=[number]), "name": name,
                              "try": try_links(card_ref(tried, number, name=name)) if tried else None})
        shown.append({
            "ruling": ruling, "anchor": f"ruling-{ruling.id}", "cards": cards,
            "topics": [{"anchor": topic, "url": f"{reverse('rules')}#{topic}", "title": titles.get(topic, topic)}
                       for topic in ruling.topics],
        })
    return shown
