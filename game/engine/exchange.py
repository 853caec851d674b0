"""The exchange: resources given (any mix) for resources of another kind, at the board's rate (`exchange` in
fixtures/board.json, read into `Catalogue.exchange_give` / `exchange_get`). The rules allow it at any point in the
game: offered with every main action, whenever a payment is short of a resource, and beside every question of a kind
declared with `exchange` (game/language/questions.py: paying, the resource limit, an opponent's offer)."""
from itertools import combinations_with_replacement

from .catalogue import RES_INDEX, RESOURCES
from .decisions import Option

_OPTIONS = {}  # (rate, resources held, each counted up to the rate) -> the exchanges
_HELD = {}  # (rate, resources held) -> the same lists: this runs for every main action and every short payment


def exchange_options(cat, pl):
    """Every exchange the player can make: `give` resources named one by one, then the kind received. Cached by the
    rate and by which kinds the player has 0, 1, ... up to `give` of."""
    give = cat.exchange_give
    held = (give, *pl.res)
    options = _HELD.get(held)
    if options is None:
        options = _HELD[held] = _exchanges(give, tuple(min(n, give) for n in pl.res))
    return options


def _exchanges(give, have):
    key = (give, *have)
    options = _OPTIONS.get(key)
    if options is None:
        options = []
        for given in combinations_with_replacement(range(len(RESOURCES)), give):
            if any(given.count(k) > have[k] for k in set(given)):
                continue
            names = tuple(RESOURCES[k] for k in given)
            options += [Option("exchange", names + (RESOURCES[c],)) for c in range(len(RESOURCES)) if c not in given]
        _OPTIONS[key] = options
    return options


def resources_cover(cat, have, need):
    """The player holds `need`, or can make what is missing by exchanging resources not needed."""
    short = sum(max(0, n - h) for h, n in zip(have, need))
    spare = sum(max(0, h - n) for h, n in zip(have, need))
    return spare >= cat.exchange_give * -(-short // cat.exchange_get)


def do_exchange(cat, pl, args):
    for given in args[:-1]:
        pl.res[RES_INDEX[given]] -= 1
    pl.res[RES_INDEX[args[-1]]] += cat.exchange_get


def exchange_now(st, p, args):
    """Player `p` makes the exchange `args` (resources given, then the kind received) and the log says so."""
    do_exchange(st.cat, st.players[p], args)
    st.emit("exchanged", p=p, gave=list(args[:-1]), got=args[-1], n=st.cat.exchange_get)
