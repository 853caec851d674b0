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
    "swap_dragons": "habitat",
    "swap_with_hand": "habitat",
    "swap_cave_card": "excavate",
    "distribute": "cards",
    "score": "scoring",
    "repeat": "up-to",
    "may": "abilities",
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


__all__ = ["KEYWORDS", "SECTIONS", "Section", "Term", "anchor_ids", "rules_anchor"]
