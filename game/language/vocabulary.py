"""The game's nouns, each named once with the words and icon a player sees.

Everything else (the schema, the renderer, the engine, the search, the score pad) reads these tuples and tables.
"""

# Resources, in the order a mat and a cost list them (the engine's resource arrays use this order).
RESOURCES = ("meat", "gold", "crystal", "milk")
RES_INDEX = {name: i for i, name in enumerate(RESOURCES)}
# What a dragon's printed cost holds (the catalogue's cost columns), and what a hatchling feeds on.
PRINTED_COST_ITEMS = RESOURCES + ("coin", "egg")
FEEDS_ON = ("milk", "meat", "card")

# Caves, top to bottom on the mat (a space index is cave * 4 + column).
CAVES = ("crimson_cavern", "golden_grotto", "amethyst_abyss")
CAVE_INDEX = {name: i for i, name in enumerate(CAVES)}
CAVE_DISPLAY = {"crimson_cavern": "Crimson Cavern", "golden_grotto": "Golden Grotto",
                "amethyst_abyss": "Amethyst Abyss"}
CAVE_NAMES = tuple(CAVE_DISPLAY[cave] for cave in CAVES)  # by cave index
CAVE_SHORT = {"crimson_cavern": "crimson", "golden_grotto": "golden", "amethyst_abyss": "amethyst"}

# Where a word takes cards or resources from (its `from`), each with the words a player reads; {your} follows who acts.
SOURCES = {"hand": "{your} hand", "display": "the display", "deck": "the deck", "supply": "{your} supply",
           "general": "the general supply"}

SIZES = ("hatchling", "small", "medium", "large", "fledgling")
SIZE_SET = ("hatchling", "small", "medium", "large")  # a full set of sizes, for `size_sets`
TRAITS = ("shy", "aggressive", "playful", "helpful")

# Ability kinds: the four printed on cards, then the two a hatchling's feeding fires.
ABILITY_KINDS = ("when_played", "if_activated", "once_per_round", "end_game", "on_feed", "on_grow_up")
PRINTED_KINDS = ("when_played", "if_activated", "once_per_round", "end_game")
KIND_LABELS = {"when_played": "When played", "if_activated": "If activated", "once_per_round": "Once per round",
               "end_game": "At game end"}
KIND_ADJECTIVES = {"when_played": "when-played", "if_activated": "if-activated", "once_per_round": "once-per-round",
                   "end_game": "end-game"}

# item -> (icon, singular, plural): every item an effect gains, pays or caches.
ITEMS = {
    "meat": ("meat", "meat", "meat"),
    "gold": ("gold", "gold", "gold"),
    "crystal": ("crystal", "crystal", "crystal"),
    "milk": ("milk", "milk", "milk"),
    "any_resource": ("any-resource", "resource", "resources"),
    "coin": ("coin", "coin", "coins"),
    "egg": ("egg", "egg", "eggs"),
    "dragon": ("dragon", "dragon card", "dragon cards"),
    "cave": ("cave", "cave card", "cave cards"),
    "card": ("card", "card", "cards"),
    "guild": ("guild", "Dragon Guild advancement", "Dragon Guild advancements"),
    "tithe": ("tithe", "tithe (a resource, a card or an egg)", "tithes (each a resource, a card or an egg)"),
}
GAIN_ITEMS = RESOURCES + ("any_resource", "coin", "egg", "dragon", "cave", "guild")
COST_ITEMS = RESOURCES + ("any_resource", "coin", "egg", "dragon", "cave", "card", "tithe")

# Score categories of a finished mat, in the order a score pad lists them, with what each holds.
SCORE_CATEGORIES = ("guild", "dragons", "abilities", "eggs", "cached", "tucked", "objectives", "coins", "items")
# The score pad (calculator) shows fledglings' n x n VP on a line of their own; the engine counts them in "dragons".
SCORE_PAD_CATEGORIES = SCORE_CATEGORIES + ("fledglings",)
SCORE_CATEGORY_NAMES = {
    "guild": "Dragon Guild END GAME markers", "dragons": "printed VP of dragons on the mat",
    "abilities": "end-game abilities", "eggs": "eggs", "cached": "cached resources", "tucked": "tucked cards",
    "objectives": "round objectives", "coins": "leftover coins (1 each)",
    "items": "leftover resources and cards (1 per 4)",
}
# The Automa has no mat: automa.score puts each part of her score in one of the players' categories (cave cards in
# "items", her track and Ravel END GAME squares in "guild"); these are those parts in her own words, in pad order.
AUTOMA_SCORE_NAMES = {
    "dragons": "dragon cards taken", "items": "cave cards taken", "guild": "guild track",
    "objectives": "round objectives", "cached": "cache tokens",
}
AUTOMA_RAVEL_GUILD_NAME = "guild track and END GAME squares"


def automa_score_names(ravel=False):
    """Her parts' names in a game in or out of Ravel Mode (there her END GAME squares score in her guild part)."""
    return dict(AUTOMA_SCORE_NAMES, guild=AUTOMA_RAVEL_GUILD_NAME) if ravel else dict(AUTOMA_SCORE_NAMES)
