"""Take-back requests and abandon offers: a seated player asks, every other person still playing answers
(docs/matches.md, "Take-backs and abandoning").

- A **take-back** undoes the asker's last turn: their decisions back to the start of that turn (a turn is several
  decisions: the exchanges before the main action, the action, what it brings), as long as no other seat has decided
  since. Once all agree, the match is rebuilt from its options, seed and the log without those decisions: the rows
  are deleted, the state is the engine's replay of what is left, and the chain and seal are those of the shorter log
  (so `verify_matches --replay` finds the match whole). The deck is dealt from the same seed, so a card drawn in the
  turn taken back is the same card when drawn again: that is why the others must agree.
- An **abandon** offer ends the match, once all agree, with the ending "abandoned": nobody wins, no rating changes.

Who answers: every other seat played by a person (not out, not handed to a bot). Bots and the Automa never agree, so
in a game against the machine alone nothing can be asked (a take-back there would only be a free undo of a rated
result; resigning leaves such a game). A proposal is open while the match stays at the version it was asked at: any
decision after it (a bot's too) lapses it, as does a refusal or the asker's cancelling. One proposal is open at a
time. Every command runs under the match's lock, as decisions do (services._locked), and an accept at a version the
match has left is refused as stale (409).
"""
from django.db import transaction
from django.utils import timezone

from game.engine.decisions import Option
from game.engine.state import GameState
from game.models import Match, MatchProposal

from . import integrity, services, stops
from .errors import InvalidInput, MatchClosed, NotSeated, StaleMatch
from .locking import retry_later_when_busy
from .signals import match_changed

Kind, Status = MatchProposal.Kind, MatchProposal.Status
WHAT = {Kind.TAKEBACK: "take-back", Kind.ABANDON: "offer to abandon"}


def voters(seats, asker):
    """The seats that must agree with `asker`'s proposal: every other seat played by a person."""
    return [s for s in seats if s.seat != asker and s.user_id is not None and not s.by_machine]


def takeback_point(match, seat):
    """The version `seat`'s last turn began at, if no other seat has decided since (else None): the match goes back
    there. A turn begins at a main-action question, unless the choice before it was the same player's exchange at
    that question (exchanges come before the action, in the same turn)."""
    decisions = list(match.decisions.order_by("number").values_list("number", "seat", "kind", "args"))
    run = len(decisions)
    while run and decisions[run - 1][1] == seat:
        run -= 1
    if run == len(decisions):
        return None
    state = GameState.new(services._cards(match), **match.engine_options())
    state.events = None  # only the questions are wanted, not what the choices told
    main = []
    for number, who, kind, args in decisions:
        main.append(stops._main_question(state))
        state.apply(Option(kind, tuple(args)))
    start = run
    for i in range(run, len(decisions)):
        after_exchange = i > 0 and decisions[i - 1][1] == decisions[i][1] and main[i - 1] \
            and decisions[i - 1][2] == "exchange"
        if main[i] and not after_exchange:
            start = i
    return decisions[start][0] - 1


def _now_open(match):
    """The match's open proposal, lapsing (and saving as lapsed) one the match has moved on from."""
    found = match.proposals.filter(status=Status.OPEN).first()
    if found is not None and (found.version != match.version or match.status != Match.Status.PLAYING):
        _close(found, Status.LAPSED)
        return None
    return found


def _close(proposal, status):
    proposal.status = status
    proposal.closed = timezone.now()
    proposal.save(update_fields=["status", "closed", "answers"])


def _touched(match):
    """The pages' tag moves and they are told (push.py), so the proposal shows without a reload."""
    Match.objects.filter(pk=match.pk).update(changed=timezone.now())
    services._shown_changed(match)


def _seated(match, user):
    seats = list(match.seats.select_related("user"))
    mine = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if mine is None:
        raise NotSeated("you do not have a seat at this match")
    return seats, mine


@retry_later_when_busy
def propose(match_id, user, kind):
    """`user` asks the others to take back their last turn (`kind` "takeback") or to abandon the match
    ("abandon"). Refused: a kind that is neither (400), not seated (403), a match not in play, a seat that left or
    a bot plays, nobody else to agree, a proposal already open, nothing to take back (409)."""
    kind = services._choice("kind", kind, tuple(Kind.values))
    with transaction.atomic():
        match = services._locked(match_id)
        seats, mine = _seated(match, user)
        services._refuse_unless_playing(match)
        if mine.by_machine:
            raise MatchClosed("you have left this match" if mine.out
                              else "a bot plays your seat since your time ran out")
        if not voters(seats, mine.seat):
            raise MatchClosed("nobody else at this match can agree: bots and the Automa never agree to a take-back or "
                              "to abandoning (resign to leave a game against them)")
        found = _now_open(match)
        if found is not None:
            raise MatchClosed(f"{seats[found.seat].name}'s {WHAT[found.kind]} waits for answers; answer or cancel "
                              f"it first")
        back_to = None
        if kind == Kind.TAKEBACK:
            back_to = takeback_point(match, mine.seat)
            if back_to is None:
                raise MatchClosed("you have no move to take back: another player has decided since your last move"
                                  if match.version else "you have no move to take back yet")
        proposal = MatchProposal.objects.create(match=match, kind=kind, seat=mine.seat, version=match.version,
                                                back_to=back_to)
        _touched(match)
    return proposal


def _proposal(match, proposal_id):
    proposal_id = services._whole_number("proposal", proposal_id, 1)
    found = match.proposals.filter(pk=proposal_id).first()
    if found is None:
        raise InvalidInput("proposal", "this match has no such proposal")
    return found


@retry_later_when_busy
def answer(match_id, user, proposal_id, agree, version=None):
    """`user` agrees to (`agree`) or declines an open proposal; when the last one agrees it is carried out.
    `version`, when given, is the match version the player saw it at. Refused: a proposal gone or not open (409),
    one the match moved on from (409 stale_version: it lapses), the asker answering (409), not seated or not
    answering for a seat still played by a person (403)."""
    agree = services._flag("agree", agree)
    if version is not None:
        version = services._whole_number("version", version, 0)
    stale = None
    with transaction.atomic():
        match = services._locked(match_id)
        seats, mine = _seated(match, user)
        proposal = _proposal(match, proposal_id)
        if proposal.status != Status.OPEN:
            raise MatchClosed(f"this {WHAT[proposal.kind]} is no longer open ({proposal.get_status_display()})")
        if proposal.version != match.version or match.status != Match.Status.PLAYING:
            _close(proposal, Status.LAPSED)
            _touched(match)
            stale = StaleMatch(f"the match moved on since this {WHAT[proposal.kind]} was made (it was at version "
                               f"{proposal.version}, it is at {match.version}): it has lapsed")
        elif version is not None and version != match.version:
            raise StaleMatch(f"the match is at version {match.version}, not {version}: look again and answer anew")
        else:
            if mine.seat == proposal.seat:
                raise MatchClosed(f"this is your own {WHAT[proposal.kind]}: cancel it instead")
            asked = voters(seats, proposal.seat)
            if mine not in asked:
                raise NotSeated("only the players still playing their seats answer")
            proposal.answers = {**proposal.answers, str(mine.seat): agree}
            if not agree:
                _close(proposal, Status.DECLINED)
                _touched(match)
            elif all(proposal.answers.get(str(s.seat)) is True for s in asked):
                _close(proposal, Status.ACCEPTED)
                (_take_back if proposal.kind == Kind.TAKEBACK else _abandon)(match, seats, proposal)
            else:
                proposal.save(update_fields=["answers"])
                _touched(match)
    if stale is not None:  # raised after the commit: the lapse is stored
        raise stale
    return match, proposal


@retry_later_when_busy
def cancel(match_id, user, proposal_id):
    """The asker withdraws their open proposal."""
    with transaction.atomic():
        match = services._locked(match_id)
        seats, mine = _seated(match, user)
        proposal = _proposal(match, proposal_id)
        if proposal.seat != mine.seat:
            raise NotSeated("only the player who asked may cancel it; answer it instead")
        if proposal.status != Status.OPEN:
            raise MatchClosed(f"this {WHAT[proposal.kind]} is no longer open ({proposal.get_status_display()})")
        _close(proposal, Status.CANCELLED)
        _touched(match)
    return match, proposal


def _take_back(match, seats, proposal):
    """The match rebuilt from its options, seed and the log up to `proposal.back_to`: later decisions are
    deleted, the state is the replay of the rest, and the chain and seal are the shorter log's."""
    back_to = proposal.back_to
    state = services.state_at(match, back_to)
    match.decisions.filter(number__gt=back_to).delete()
    last = match.decisions.filter(number=back_to).values_list("link", flat=True).first()
    match.chain = last if back_to else integrity.genesis(match)
    match.version = back_to
    match.state = state.to_json()
    for name, value in services._progress(match, state, seats, None).items():
        setattr(match, name, value)
    match.seal = integrity.seal(match, match.chain, match.version, match.state, integrity.record(match, seats))
    match.save()
    match.__dict__.pop("_engine_state", None)
    integrity.forget_log_tail(match)
    services._announce(match, state, seats, None)


def _abandon(match, seats, proposal):
    match.status = Match.Status.FINISHED
    match.ending = Match.Ending.ABANDONED
    match.places = None
    match.to_move = None
    match.deadline = None
    integrity.reseal(match, seats)
    match.save()
    transaction.on_commit(lambda: match_changed.send(sender=Match, match_id=match.pk, version=match.version,
                                                     notices=[], machine_to_move=False, ended=True))


# -- what the pages show -------------------------------------------------------------------------------------------

def _rows(match):
    """The open and accepted-take-back proposals, as dicts: read with the match's page (services.read_match) or
    queried."""
    rows = match.__dict__.get("proposal_rows")
    if rows is not None or "proposal_rows" in match.__dict__:
        rows = services._json(rows) or []
    else:
        rows = list(match.proposals.filter(status__in=(Status.OPEN, Status.ACCEPTED))
                    .values(*services.PROPOSAL_FIELDS))
    return sorted(rows, key=lambda r: r["id"])


def shown(match, user):
    """(open proposal as the page shows it or None, taken-back lines for the log, key of what the page draws)."""
    seats = list(match.seats.all())
    names = {s.seat: s.name for s in seats}
    me = services.seat_of(match, user) if user is not None else None
    rows = _rows(match)
    lines = []
    for row in rows:
        if row["kind"] == Kind.TAKEBACK and row["status"] == Status.ACCEPTED:
            count = row["version"] - row["back_to"]
            text = (f"{names.get(row['seat'], 'A player')} took back their last move ({count} decision"
                    f"{'s' if count != 1 else ''}) with the others' agreement.")
            lines.append({"decision": row["back_to"], "kind": "takeback", "seat": row["seat"], "text": text,
                          "html": text})
    current = next((r for r in rows if r["status"] == Status.OPEN and r["version"] == match.version
                    and match.status == Match.Status.PLAYING), None)
    if current is None:
        return None, lines, ""
    answers = services._json(current["answers"]) or {}
    asked = voters(seats, current["seat"])
    waiting = [s.name for s in asked if answers.get(str(s.seat)) is not True]
    by = names.get(current["seat"], "A player")
    if current["kind"] == Kind.TAKEBACK:
        count = current["version"] - current["back_to"]
        what = f"asks to take back their last move ({count} decision{'s' if count != 1 else ''})"
    else:
        what = "offers to abandon the match: it ends with no winner and no rating change"
    text = f"{by} {what}. Waiting for {', '.join(waiting)}." if waiting else f"{by} {what}."
    data = {"id": current["id"], "kind": current["kind"], "seat": current["seat"], "by": by,
            "version": current["version"], "back_to": current["back_to"], "answers": answers,
            "waiting_for": waiting, "text": text, "yours": me == current["seat"],
            "you_answer": me is not None and me != current["seat"] and any(s.seat == me for s in asked)
            and answers.get(str(me)) is not True}
    key = f"{current['id']}:{','.join(sorted(k for k, v in answers.items() if v))}"
    return data, lines, key
