"""Every word of the effect language, declared once (docs/effects.md is checked against these declarations).

A declaration says which keys a word takes and what each holds (a type the schema knows, or for `from` the places
it takes), which keys it needs (a word binds a name for later steps only under `as`), whether an end-game ability
using it asks its owner first, how the search and the rules reference call it. The schema, the walker, the search's
`does:` words and the labels are derived from here; the renderer (`render.py`) and the engine
(`game/engine/words/`) register against these names, and a test fails when either misses a declared word or knows
an undeclared one.
"""
from .vocabulary import SOURCES


class Member:
    """One kind of a family word (the value of its `what`): its own search word, search label and rules keyword."""

    __slots__ = ("search", "label", "rule")

    def __init__(self, search, label, rule):
        self.search = search
        self.label = label
        self.rule = rule


class From:
    """The type of a word's `from`: where what it takes comes from, each place named once in `vocabulary.SOURCES`.

    The value is one of `sources`; where `pick` is set, also a list of them, the player picking from their union
    (`["hand", "display"]`); where `var` is set, also a bound card (`{"var": "it"}`). `default` is where the word
    takes from when `from` is left out.
    """

    __slots__ = ("sources", "default", "pick", "var")

    def __init__(self, *sources, default, pick=False, var=False):
        unknown = (set(sources) | set(default)) - set(SOURCES)
        if unknown or not set(default) <= set(sources):
            raise ValueError(f"`from` names sources it does not take or the vocabulary lacks: {sorted(unknown)}")
        self.sources = sources
        self.default = tuple(default)
        self.pick = pick
        self.var = var

    def __repr__(self):
        return f"From{self.sources!r}"


class Word:
    """One word: `keys` maps each key to its type (see `schema.TYPES`); `if_done` and `as` are listed where taken."""

    __slots__ = ("name", "keys", "required", "asks_first", "label", "rule", "summary", "english", "family")

    def __init__(self, name, keys, required=(), asks_first=False, label=None, rule=None, summary="",
                 english=None, family=None):
        unknown = set(required) - set(keys)
        if unknown:
            raise ValueError(f"word {name!r} requires undeclared keys {sorted(unknown)}")
        self.name = name
        self.keys = dict(keys)
        self.required = frozenset(required)
        self.asks_first = asks_first       # an end-game ability using this word asks its owner before it runs
        self.label = label                 # the search's words for it; None: it only shapes an ability
        self.rule = rule                   # the rules reference's keyword, when there is one
        self.summary = summary
        # Plain English for a word whose text never changes with its keys: "polish one of {your} dragons" ({you} and
        # {your} follow who acts). Words whose text depends on their keys register a builder in render.py instead.
        self.english = english
        # A family word names its kind under `what`: {value: Member}. The search and the rules reference know each kind
        # by its own word (the card search's `does:cover_dragon`), so they read `search_name(node)`, not `do`.
        self.family = dict(family or {})

    @property
    def acts(self):
        """Whether the word does something a player would search for (as opposed to shaping an ability)."""
        return self.label is not None

    def __repr__(self):
        return f"Word({self.name!r})"


# `then` has one meaning: the branch of a condition (`if`, `reveal`), with `else` the other branch. What a `pay` buys is
# its `buys` (it runs only if paid); what an acting word does next "if you do" (it acted at least once) is `if_done`.
BRANCHES = ("then", "else")
BUYS = "buys"
IF_DONE = "if_done"
THEN = {IF_DONE: "effect"}

DECLARATIONS = (
    Word("seq", {"steps": "effects"}, required={"steps"}, summary="run the steps in order"),
    Word("choose", {"options": "effects", "pick": "posint", "distinct": "bool"}, required={"options"},
         asks_first=True, summary="the player picks `pick` of the options"),
    Word("may", {"effect": "effect"}, required={"effect"}, asks_first=True, rule="may", summary="an optional effect"),
    Word("repeat", {"times": "amount", "up_to": "bool", "effect": "effect"}, required={"times", "effect"},
         rule="repeat", summary="run the effect a number of times"),
    Word("if", {"cond": "cond", "then": "effect", "else": "effect"}, required={"cond", "then"},
         summary="run one branch by a condition"),
    Word("pay", {"cost": "costs", BUYS: "effect", "as": "var"}, required={"cost", BUYS}, asks_first=True,
         label="pay", rule="pay", summary="pay a cost to run what it buys"),
    Word("gain", {"item": "gain_item", "count": "amount",
                  "from": From("display", "deck", default=("display", "deck"), pick=True),
                  "same": "bool", "as": "var", **THEN},
         required={"item"}, asks_first=True, label="gain", rule="gain", summary="gain items"),
    Word("lay_egg", {"count": "amount", "on": "target", "up_to": "bool", **THEN}, label="lay eggs", rule="lay_egg",
         summary="lay eggs on dragons or the mat's nests"),
    Word("cache", {"item": "resource_item", "count": "amount", "up_to": "bool",
                   "from": From("supply", "general", default=("supply",)), "on": "target", **THEN},
         required={"item"}, label="cache", rule="cache", summary="cache resources on dragons"),
    Word("tuck", {"count": "amount", "up_to": "bool", "from": From("hand", "deck", default=("hand",), var=True),
                  "on": "target", "as": "var", **THEN},
         label="tuck", rule="tuck", summary="tuck dragon cards under dragons"),
    Word("excavate", {"from": From("hand", "display", "deck", default=("hand",), var=True), "free": "bool", **THEN},
         label="excavate", rule="excavate", summary="excavate a space"),
    Word("play_dragon", {"from": From("hand", "display", default=("hand",), pick=True, var=True),
                         "cost": "play_cost", **THEN},
         label="play a dragon", rule="play_dragon", summary="play a dragon onto the mat"),
    Word("swap", {"what": "swap_what", **THEN}, required={"what"}, label="swap", summary=(
        "swap on the mat: cover a dragon with one from hand, swap two dragons, a dragon with one from hand, or a cave "
        "card with one from hand"), family={
        "cover": Member("cover_dragon", "cover a dragon", "cover_dragon"),
        "dragons": Member("swap_dragons", "swap dragons", "swap_dragons"),
        "with_hand": Member("swap_with_hand", "swap with hand", "swap_with_hand"),
        "cave_card": Member("swap_cave_card", "swap a cave card", "swap_cave_card"),
    }),
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
# What the card search and the rules reference call each word: a family word by each of its kinds.
SEARCH_TERMS = {}
for _word in DECLARATIONS:
    for _name, _label, _rule in ([(m.search, m.label, m.rule) for m in _word.family.values()] if _word.family
                                 else [(_word.name, _word.label, _word.rule)]):
        SEARCH_TERMS[_name] = Member(_name, _label, _rule)
del _word, _name, _label, _rule
SEARCH_WORDS = tuple(SEARCH_TERMS)                            # the search's `does:` words


def search_name(node):
    """The search word of an effect node: its `do`, or for a family word the word of its kind."""
    word = WORDS.get(node.get("do"))
    if word is not None and word.family and node.get("what") in word.family:
        return word.family[node["what"]].search
    return node.get("do")


def sources(node):
    """Where a word takes from: a tuple of places (its `from`, or the declared default), or a var reference."""
    value = node.get("from")
    if value is None:
        return WORDS[node["do"]].keys["from"].default
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(value)
    return value


def declared(name):
    """The declaration of a word; KeyError naming the word when the language has no such word."""
    try:
        return WORDS[name]
    except KeyError:
        raise KeyError(f"the effect language has no word {name!r}") from None
