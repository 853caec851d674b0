"""Standing orders: a seat's answers, given in advance, to the offers other players' abilities make it on their
turns ("always take a free item", "never pay to join"). An order answers an offer the moment it is made, so the
match does not wait days for a "yes"; the log says that an order answered. Without an order that applies, the match
waits for the player as for any decision.

An offer is the question of kind `opponent_offer`: yes or no, put to a seat on another player's turn. It is free when taking it costs that seat
nothing: tried on a copy of the state, "yes" takes away none of its coins, resources, cards or eggs and asks it to
pay or discard nothing next.
"""
from django.db import transaction

from game.engine.decisions import Option
from game.models import Match, StandingOrder

from . import integrity
from .access import no_such_match
from .errors import InvalidInput, NotSeated
from .ids import lookup
from .locking import retry_later_when_busy

ANSWERS = tuple(StandingOrder.Answer.values)
FIELDS = ("free_offer", "paid_offer")
PAYING_KINDS = frozenset({"pay", "discard"})
YES, NO = Option("yes"), Option("no")


OFFER = "opponent_offer"
NOTE = "answered by a standing order"  # said after a decision an order made, in its label and in the story


def is_offer(state):
    """The pending question is another player's ability offering this seat something."""
    pending = state.pending
    return pending is not None and pending.kind == OFFER and set(pending.answers) == {YES, NO}


def _holdings(pl):
    return (pl.coins, sum(pl.res), len(pl.hand) + len(pl.caves), pl.eggs())


def offer_is_free(state):
    seat = state.pending.player
    trial = state.clone()
    trial.events = None
    before = _holdings(trial.players[seat])
    trial.apply(YES)
    after = _holdings(trial.players[seat])
    if any(a < b for a, b in zip(after, before)):
        return False
    pending = trial.pending
    return not (pending is not None and pending.player == seat
                and any(o.kind in PAYING_KINDS for o in pending.answers))


def standing_answer(match, state):
    """The option the seat's standing order takes for the pending offer, or None (no offer, or no order)."""
    if not is_offer(state):
        return None
    seat = state.pending.player
    order = StandingOrder.objects.filter(match=match, seat=seat).first()
    if order is None:
        return None
    answer = order.free_offer if offer_is_free(state) else order.paid_offer
    return {"yes": YES, "no": NO}.get(answer)


def _seat(match, user):
    if user.is_authenticated:
        for s in match.seats.all():
            if s.user_id == user.pk:
                return s.seat
    raise NotSeated("you do not have a seat at this match")


def orders_json(match, user):
    seat = _seat(match, user)
    order = StandingOrder.objects.filter(match=match, seat=seat).first()
    return {"seat": seat, **{f: getattr(order, f) if order else StandingOrder.Answer.ASK for f in FIELDS},
            "choices": dict(StandingOrder.Answer.choices)}


@retry_later_when_busy
def set_orders(match_id, user, body):
    """Set one or both answers of the user's seat; refuses unknown fields and values before writing anything."""
    if not isinstance(body, dict):
        raise InvalidInput("body", "expected a JSON object")
    unknown = set(body) - set(FIELDS)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], f"is not a standing order ({', '.join(FIELDS)})")
    for field, value in body.items():
        if value not in ANSWERS:
            raise InvalidInput(field, f"expected one of {', '.join(ANSWERS)}")
    with transaction.atomic():
        match = Match.objects.prefetch_related("seats").filter(**lookup(match_id)).first()
        if match is None:
            raise no_such_match(match_id)
        integrity.check_seal(match)  # a damaged match is refused, its orders too
        seat = _seat(match, user)
        order, _ = StandingOrder.objects.get_or_create(match=match, seat=seat)
        for field, value in body.items():
            setattr(order, field, value)
        order.save()
    return orders_json(match, user)
