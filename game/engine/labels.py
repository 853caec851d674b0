"""Plain words for options (derived from their data, see options.py), and the reason a tried option is not allowed
(for IllegalDecision messages)."""
from ..language.options import cave_name
from .model import COLUMNS
from .options import option_info


def _cave(index):
    return cave_name(index)


def label(st, option):
    """The words a player reads for an option, rendered from its data (`option_info`)."""
    return option_info(st, option)["label"]


def explain_illegal(st, option):
    """Say what was tried and which rule forbids it."""
    tried = label(st, option)
    pending = st.pending
    who = f"player {pending.player + 1}"
    kinds = {o.kind for o in pending.options}
    main = pending.kind == "main_action" and option.kind in ("excavate", "entice", "explore", "exchange",
                                                                       "pass")
    if option.kind not in kinds and not main:
        prompt = pending.prompt
        stop = "" if prompt.endswith(("?", ".", "!")) else "."  # a question keeps its own mark: never "?."
        return (f"You tried '{tried}', but now the game asks {who}: {prompt}{stop} "
                f"That is not one of the choices here.")
    p = pending.player
    pl = st.players[p]
    reason = "it is not one of the legal choices right now"
    args = option.args
    try:
        if option.kind == "excavate" and pending.kind == "main_action":
            card, cave = args
            if pl.coins < st.cat.excavate_coins:
                reason = f"excavating costs {st.cat.excavate_coins} coin and you have {pl.coins}"
            elif card not in pl.caves:
                reason = "that cave card is not in your hand"
            elif st.next_unexcavated(p, cave) is None:
                reason = f"every space of your {_cave(cave)} is already excavated"
            else:
                need = st.cat.excavate_eggs[st.next_unexcavated(p, cave) % COLUMNS]
                reason = f"that column costs {need} egg(s) and you have {pl.eggs()}"
        elif option.kind == "entice" and pending.kind == "main_action":
            dragon, cave = args
            card = st.cat.dragons[dragon]
            index = st.next_empty(p, cave)
            if dragon not in pl.hand:
                reason = "that dragon is not in your hand"
            elif cave not in card.habitats:
                lives = " or ".join(_cave(c) for c in card.habitats)
                reason = f"it does not live in the {_cave(cave)} (it lives in the {lives})"
            elif index is None or not pl.excavated(index):
                reason = f"your {_cave(cave)} has no excavated empty space for it"
            else:
                reason = "you cannot pay its cost (1 coin for enticing plus its printed cost)"
        elif option.kind == "explore":
            cave = args[0]
            if pl.explored[cave] >= len(st.cat.explore_costs):
                reason = f"you have explored the {_cave(cave)} the most times allowed this round"
            else:
                coins, eggs = st.cat.explore_costs[pl.explored[cave]]
                reason = f"this visit costs {coins} coin(s) and {eggs} egg(s)"
        elif option.kind == "exchange":
            reason = (f"an exchange gives {st.cat.exchange_give} resources you have for {st.cat.exchange_get} of "
                      "another kind")
        elif option.kind == "pass" and args:
            taken = st.income_taken.get(str(args[0]))
            reason = (f"player {taken + 1} already took that income space this round" if taken is not None
                      else "that income space is not on the round tracker for this round")
        elif option.kind == "pass":
            reason = "in rounds 1 to 3 of Dragon Academy, passing puts your adventurer on a free income space"
        elif option.kind == "egg_on":
            reason = "an egg can only be laid in an empty nest the ability allows (on a dragon or the mat)"
        elif option.kind == "cache":
            reason = "that resource cannot be cached there (you may lack it, or the ability names other dragons)"
        elif option.kind == "tuck":
            reason = "that card cannot be tucked there (it is not yours to tuck, or the ability names other dragons)"
        elif option.kind == "pay":
            reason = "you do not have that to pay, or this payment asks for something else"
        elif option.kind == "take":
            reason = "that display slot is empty, or this ability takes cards from elsewhere"
        elif option.kind == "marker":
            reason = "that square is taken (each holds one marker, except the last END GAME square)"
        elif option.kind == "discard" and pending.kind in ("discard_cards", "discard_resources"):
            reason = "you do not hold that to discard"
    except (IndexError, TypeError, ValueError, AttributeError, KeyError):
        reason = "it does not name things that exist in this game"
    return f"You tried '{tried}', but {reason}."
