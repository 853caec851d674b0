"""Every word of the effect language, declared once (docs/effects.md is checked against these declarations).

A declaration says which keys a word takes and what each holds (a type the schema knows), which keys it needs,
which names it binds for later steps, whether an end-game ability using it asks its owner first, how the search
and the rules reference call it. The schema, the walker, the search's `does:` words and the labels are derived
from here; the renderer (`render.py`) and the engine (`game/engine/words/`) register against these names, and a
test fails when either misses a declared word or knows an undeclared one.
"""


class Word:
    """One word: `keys` maps each key to its type (see `schema.TYPES`); `then` and `as` are listed where taken."""

    __slots__ = ("name", "keys", "required", "binds", "asks_first", "label", "rule", "summary", "english")

    def __init__(self, name, keys, required=(), binds=(), asks_first=False, label=None, rule=None, summary="",
                 english=None):
        unknown = set(required) - set(keys)
        if unknown:
            raise ValueError(f"word {name!r} requires undeclared keys {sorted(unknown)}")
        self.name = name
        self.keys = dict(keys)
        self.required = frozenset(required)
        self.binds = tuple(binds)          # names bound without `as`, e.g. `reveal` binds "it"
        self.asks_first = asks_first       # an end-game ability using this word asks its owner before it runs
        self.label = label                 # the search's words for it; None: it only shapes an ability
        self.rule = rule                   # the rules reference's keyword, when there is one
        self.summary = summary
        # Plain English for a word whose text never changes with its keys: "polish one of {your} dragons" ({you} and
        # {your} follow who acts). Words whose text depends on their keys register a builder in render.py instead.
        self.english = english

    @property
    def acts(self):
        """Whether the word does something a player would search for (as opposed to shaping an ability)."""
        return self.label is not None

    def __repr__(self):
        return f"Word({self.name!r})"


THEN = {"then": "effect"}

DECLARATIONS = (
    Word("seq", {"steps": "effects"}, required={"steps"}, summary="run the steps in order"),
    Word("choose", {"options": "effects", "pick": "posint", "distinct": "bool"}, required={"options"},
         asks_first=True, summary="the player picks `pick` of the options"),
    Word("may", {"effect": "effect"}, required={"effect"}, asks_first=True, summary="an optional effect"),
    Word("repeat", {"times": "amount", "up_to": "bool", "effect": "effect"}, required={"times", "effect"},
         summary="run the effect a number of times"),
    Word("if", {"cond": "cond", "then": "effect", "else": "effect"}, required={"cond", "then"},
         summary="run one branch by a condition"),
    Word("pay", {"cost": "costs", "then": "effect", "as": "var"}, required={"cost", "then"}, asks_first=True,
         label="pay", rule="pay", summary="pay a cost to run `then`"),
    Word("gain", {"item": "gain_item", "count": "amount", "from": "card_source", "same": "bool", "as": "var", **THEN},
         required={"item"}, asks_first=True, label="gain", rule="gain", summary="gain items"),
    Word("lay_egg", {"count": "amount", "on": "target", "up_to": "bool", **THEN}, label="lay eggs", rule="lay_egg",
         summary="lay eggs on dragons or the mat's nests"),
    Word("cache", {"item": "resource_item", "count": "amount", "up_to": "bool", "from": "cache_source",
                   "on": "target", **THEN}, required={"item"}, label="cache", rule="cache",
         summary="cache resources on dragons"),
    Word("tuck", {"count": "amount", "up_to": "bool", "from": "tuck_source", "on": "target", **THEN},
         binds=("tucked", "tucked_cost"), label="tuck", rule="tuck", summary="tuck dragon cards under dragons"),
    Word("excavate", {"from": "card_pile", "free": "bool", **THEN}, label="excavate", rule="excavate",
         summary="excavate a space"),
    Word("play_dragon", {"from": "dragon_pile", "cost": "play_cost", **THEN}, label="play a dragon",
         rule="play_dragon", summary="play a dragon onto the mat"),
    Word("cover_dragon", dict(THEN), label="cover a dragon", rule="cover_dragon",
         summary="play a dragon from hand on top of one on the mat"),
    Word("swap_dragons", dict(THEN), label="swap dragons", rule="swap_dragons", summary="swap two dragons on the mat"),
    Word("swap_with_hand", dict(THEN), label="swap with hand", rule="swap_with_hand",
         summary="swap a dragon on the mat with one from hand"),
    Word("swap_cave_card", dict(THEN), label="swap a cave card", rule="swap_cave_card",
         summary="swap an uncovered cave card with one from hand"),
    Word("train", {"count": "amount", "up_to": "bool", "free": "bool", "full": "bool", "on": "target", "as": "var",
                   **THEN}, label="train", rule="train", summary="train fledglings"),
    Word("activate", {"kinds": "activate_kinds", "on": "activate_target", "count": "posint", "distinct": "bool",
                      "up_to": "bool", **THEN}, label="activate", rule="activate",
         summary="use other abilities again"),
    Word("reveal", {"as": "var", "cond": "cond", "then": "effect", "else": "effect"}, required={"as", "cond"},
         label="reveal", rule="reveal", summary="reveal the top dragon card and test it"),
    Word("distribute", {"cards": "var_ref", "to": "places", "rest": "rest"}, required={"cards", "to"},
         label="share out cards", rule="distribute", summary="share bound cards out among places"),
    Word("score", {"vp": "int", "per": "counter", "max": "posint", "cond": "cond"}, required={"vp"}, label="score",
         rule="score", summary="score VP at game end"),
)
WORDS = {word.name: word for word in DECLARATIONS}
EFFECT_WORDS = tuple(WORDS)                                   # every word, in declaration order
SHAPING_WORDS = tuple(w.name for w in DECLARATIONS if not w.acts)


def declared(name):
    """The declaration of a word; KeyError naming the word when the language has no such word."""
    try:
        return WORDS[name]
    except KeyError:
        raise KeyError(f"the effect language has no word {name!r}") from None
