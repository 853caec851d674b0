"""Every question the engine asks a player, declared once: its kind, the keys of its data and its English.

The engine asks with a kind and plain JSON data (`state.ask(task, player, kind, options, **data)`); code decides on
the kind, never on words. The prompt a person reads is rendered from kind and data here, only when someone asks for
it (`pending.prompt`), so random play never pays for English. docs/engine.md lists the kinds.
"""
from .render import describe
from .vocabulary import ITEMS


class Question:
    """One kind of question: `keys` maps each data key to what it holds; `english` is a template over the data, or a
    function data -> text when the words depend on the values."""

    __slots__ = ("kind", "keys", "english", "summary", "exchange")

    def __init__(self, kind, keys, english, summary, exchange=None):
        self.kind = kind
        self.keys = dict(keys)
        self.english = english
        self.summary = summary
        # The exchange may be made "at any point in the game" (core rules, Resource Exchange). A question with
        # `exchange` "choice" offers every exchange the player can make beside its own options whenever it has more
        # than one (one answer alone is taken at once, as always: an exchange can wait for the next question); with
        # "always", even beside one answer, where exchanging changes the outcome (the resource limit: what is kept).
        # Taking one asks the same question again with the resources then held (State.apply). The main action lists
        # its exchanges itself.
        assert exchange in (None, "choice", "always"), exchange
        self.exchange = exchange

    def render(self, data):
        if callable(self.english):
            return self.english(data)
        return self.english.format(**data)

    def __repr__(self):
        return f"Question({self.kind!r})"


_PAY = {"any_resource": "a resource", "egg": "an egg (choose where from)", "dragon": "a dragon card",
        "cave": "a cave card", "card": "a card", "tithe": "a tithe (a resource, card or egg)"}


def _pay(data):
    item = data["item"]
    return f"Pay {_PAY.get(item) or '1 ' + ITEMS.get(item, (item, item, item))[1]}"


def _gain_resource(data):
    each = f"{data['left']} of one kind" if data.get("same") and data["left"] > 1 else "1"
    return f"Choose a resource to gain ({each})"


def _choose(data):
    names = "; ".join(f"{i + 1}) {describe(effect)}" for i, effect in enumerate(data["choices"]))
    return f"Choose one: {names}"


CARD = "a card: {\"type\": \"dragon\" or \"cave\", \"index\": catalogue index, \"number\": printed number}"
EFFECT = "an effect tree of the effect language (docs/effects.md)"
SOURCE = "what the ability belongs to, in words: a dragon's name, 'cave card 12', 'the Crimson Cavern path', ..."

DECLARATIONS = (
    Question("main_action", {}, "Choose your action",
             "a turn: pass, excavate, entice, explore, or exchange resources first"),
    Question("setup_keep", {"drop": "how many of the dealt cards go"},
             "Choose the cards you do not keep (they are discarded face up)", "setup: the dealt cards not kept"),
    Question("setup_resources", {"count": "how many resources to choose"}, "Choose your {count} starting resources",
             "setup: the starting resources"),
    Question("pay", {"item": "the item of the cost being paid (egg, any_resource, dragon, cave, card, tithe)",
                     "left": "how many of it are still to pay"}, _pay,
             "pay one item of a cost: which one, or from where", exchange="choice"),
    Question("exchange_to_pay", {"item": "the resource the payment lacks", "left": "how many of it are still to pay",
                                 "give": "resources given per exchange", "get": "resources received per exchange"},
             "Exchange {give} resources for {get} {item} to pay for it", "a payment short of a resource"),
    Question("gain_resource", {"left": "how many are still to gain", "same": "whether all are of one kind"},
             _gain_resource, "gain a resource of the player's choice"),
    Question("take_card", {"item": "dragon or cave", "left": "how many cards are still to take"},
             "Take a {item} card from the display or the top of the deck", "take a card: a display slot or the deck"),
    Question("lay_egg", {"left": "how many eggs are still to lay"}, "Lay an egg ({left} to lay): choose where",
             "lay an egg: on which dragon or nest"),
    Question("cache", {"left": "how many are still to cache",
                       "supply": "whether cached resources come from the supply"},
             "Cache a resource ({left} left): choose which and on which dragon",
             "cache a resource: which, on which dragon"),
    Question("tuck", {"left": "how many cards are still to tuck"},
             "Tuck a card ({left} left): choose the card and the dragon", "tuck a card: which, under which dragon"),
    Question("choose", {"choices": "the effects offered, in the order of the options"}, _choose,
             "the `choose` word: one of several effects"),
    Question("may", {"effect": EFFECT}, lambda d: f"You may {describe(d['effect'])}. Do it?",
             "the `may` word: yes or no"),
    Question("repeat", {"left": "how many more times at most", "effect": EFFECT},
             lambda d: f"Up to {d['left']} more times: {describe(d['effect'])}. Do it?",
             "an `up to` repeat: once more, or stop"),
    Question("use_ability", {"card": CARD + ", or null for a benefit of the board or a guild row", "source": SOURCE,
                             "ability": "the ability kind (when_played, if_activated, ...), or empty",
                             "effect": EFFECT},
             lambda d: f"Use {d['source']}: {describe(d['effect'])}?", "use an ability: yes or no"),
    Question("opponent_offer", {"card": CARD + ", or null", "source": SOURCE, "owner": "the seat whose ability it is",
                                "effect": EFFECT},
             lambda d: f"An opponent's {d['source']} offers you: {describe(d['effect'])}. Take it?",
             "on another player's turn, an opponent's ability offers a share: yes or no", exchange="choice"),
    Question("discard_cards", {"keep": "the hand limit", "extra": "how many cards above it"},
             "Discard a card: you may keep {keep} ({extra} too many)", "end of turn: above the hand limit of cards"),
    Question("discard_resources", {"keep": "the limit", "extra": "how many resources above it"},
             "Discard a resource: you may keep {keep} ({extra} too many)", "end of turn: above the resource limit",
             exchange="always"),
    Question("guild_marker", {}, "Place a marker on the Dragon Guild tile", "a brown guild space: which square"),
    Question("ability_order", {}, "Choose which once-per-round ability to resolve next",
             "round end: the order of one's own once-per-round abilities"),
    Question("cave_order", {"card": CARD}, "Excavating the 4th column: which benefit comes first?",
             "excavating the 4th column with a cave card that has a benefit: which first"),
    Question("excavate", {"free": "whether the column's eggs are waived"},
             "Excavate: choose the cave card and the cave", "the `excavate` word"),
    Question("play_dragon", {"mode": "how the dragon is paid for (printed, free, no_resources, discount_one)"},
             "Play a dragon: choose the dragon and the cave", "the `play_dragon` word"),
    Question("cover", {}, "Play a dragon from your hand on top of one of your dragons", "the `cover_dragon` word"),
    Question("swap_dragons", {}, "Swap two dragons on your mat", "the `swap_dragons` word"),
    Question("swap_with_hand", {}, "Swap a dragon on your mat with one from your hand", "the `swap_with_hand` word"),
    Question("swap_cave_card", {}, "Swap an uncovered cave card on your mat with one from your hand",
             "the `swap_cave_card` word"),
    Question("train", {"left": "how many trainings are still to do", "full": "whether it trains fully",
                       "free": "whether the training costs nothing"},
             lambda d: f"{'Fully train' if d['full'] else 'Train'} a fledgling: choose which", "the `train` word"),
    Question("activate", {"left": "how many abilities are still to use"}, "Choose the ability to use again",
             "the `activate` word"),
    Question("distribute", {"place": "what happens to the card (tuck, play, excavate, discard, keep)",
                            "left": "how many cards are still to place there", "free": "whether playing it is free"},
             "Choose a card to {place} ({left} left)", "the `distribute` word: pick a card for a place"),
)
QUESTIONS = {question.kind: question for question in DECLARATIONS}
QUESTION_KINDS = tuple(QUESTIONS)
EXCHANGE_ANYWHERE = frozenset(question.kind for question in DECLARATIONS if question.exchange)
EXCHANGE_EVEN_FORCED = frozenset(question.kind for question in DECLARATIONS if question.exchange == "always")


def render_question(kind, data):
    """The prompt a person reads for a question (plain English); never fails: an unknown kind reads raw."""
    if "prompt" in data:  # a question saved before questions had kinds keeps the words it was saved with
        return data["prompt"]
    question = QUESTIONS.get(kind)
    if question is None:
        return kind.replace("_", " ")
    try:
        return question.render(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return question.summary
