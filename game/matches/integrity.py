"""Is a stored match still the match that was played? A hash chain over its decisions, and a seal over its row.

Each decision row stores its `link`: the hash of the previous link and the decision (number, seat, kind, args).
The chain begins at the setup (catalogue, players, options, seed), so decision 1's link already depends on the seed.
The match row stores the last link (`chain`) and a `seal`: the hash of the setup, the chain, the version, the
snapshot of the state and the match's record (`record`: every other field that decides who may act and what is
shown: status, ending, places, whose move, the creator, privacy, the clock's rules, and each seat's account,
controller, bot level and whether it left). Checks run at three depths:

- every load of the state and every change of a match (`check_seal`): the seal still matches the row and its seats;
  one hash, no query of its own when the seats were read with the match. Finds a changed seed, version or option,
  an edited snapshot (a hand, a deck, a score), a status or places set by hand, a seat handed to another account.
- before every write (`check_log_tail`): the newest decision rows end exactly at the version and carry the chain;
  one small query. Finds a missing (truncated) or extra decision row and an edited newest decision.
- on demand (`verify`, `manage.py verify_matches [--replay]`): the whole chain from the setup, and optionally a
  replay of the log that must be legal at every step, reproduce the snapshot and agree with the status, whose move
  and the places.

A match that fails a check is refused with `MatchDamaged` and left as it is for staff to look at. Every service that
changes `version`, `state`, the log or a field of the record must store the new `chain` and `seal` (`next_link`,
`seal_start`, `reseal`). The deadline and the reminder flag are not sealed: they say when, not who, and the sweep
moves them on its own;
these are plain SHA-256 digests for finding accidents and hand edits, not signatures against someone who can write
the database.
"""
import hashlib
import json
import logging

from django.db.models import CharField, IntegerField, JSONField, OuterRef, Subquery

from game import catalogue
from game.engine.state import FORMAT_VERSION, GameState
from game.models import Match, MatchDecision

from .errors import MatchDamaged

log = logging.getLogger(__name__)

FORMAT = "wyrmdex-match/1"


def _digest(*parts):
    text = json.dumps([FORMAT, *parts], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def genesis(match):
    """Where the chain begins: everything that, with the log, decides the game."""
    setup = ["setup", match.catalogue_id, match.players, match.academy, match.updated, match.seed]
    if match.automa_level is not None:  # only solo games name the Automa, so older chains stay as they were
        setup.append({"automa": match.automa_level, "ravel": match.ravel})
    return _digest(*setup)


def link(previous, number, seat, kind, args):
    return _digest("decision", previous, number, seat, kind, list(args))


# The match's fields and each seat's that decide who may act and what is shown, sealed with the state.
RECORD_FIELDS = ("status", "ending", "places", "to_move", "creator_id", "private", "days_per_move", "on_timeout",
                 "timeout_level")
SEAT_FIELDS = ("seat", "user_id", "controller", "level", "out")


def _plain(value):
    return str(value) if isinstance(value, str) else value  # a choice of the model (a str subclass) as its text


def record(match, seats, **changes):
    """The match's record as the seal covers it: its RECORD_FIELDS (`changes` overriding what the row holds now) and
    its seats' SEAT_FIELDS, in seat order."""
    fields = {name: _plain(changes[name] if name in changes else getattr(match, name)) for name in RECORD_FIELDS}
    fields["seats"] = [[_plain(getattr(s, name)) for name in SEAT_FIELDS] for s in sorted(seats, key=lambda s: s.seat)]
    return fields


def seal(match, chain, version, state, record):
    return _digest("seal", genesis(match), chain, version, state, record)


def seal_start(match, seats):
    """Chain and seal of a match that has just been dealt (version 0, `state` and its record set); saved by the
    caller."""
    match.chain = genesis(match)
    match.seal = seal(match, match.chain, match.version, match.state, record(match, seats))


def next_link(match, number, seat, option, state, sealed_record):
    """The `chain` and `seal` the match row takes with decision `number` (also the decision's `link`), its record
    then being `sealed_record`."""
    chain = link(match.chain, number, seat, option.kind, option.args)
    return {"chain": chain, "seal": seal(match, chain, number, state, sealed_record)}


def reseal(match, seats=None):
    """The seal after a change that is not a decision of the log: a seat that left or went to a bot, an ending
    (saved by the caller; `seats` as they are now, else read). A change of the state this way no longer follows from
    the log, so `verify_matches --replay` will report it: use it for the record, not the state."""
    seats = list(match.seats.all()) if seats is None else seats
    match.seal = seal(match, match.chain, match.version, match.state, record(match, seats))


def _damaged(match, reason):
    log.warning("match %s failed its integrity check: %s", match.pk, reason)
    return MatchDamaged(match.public_id, reason)


SEAL_BROKEN = "its seed, options, version, saved state, status, places or seats were changed outside the game"


def check_seal(match, seats=None):
    """Refuse a started match whose setup, version, snapshot or record (with `seats`, read with the match; else they
    are read now) no longer match its seal."""
    if match.state is None:
        return
    if not match.seal:
        raise _damaged(match, "it has no seal (its log did not match its version when seals were introduced)")
    seats = list(match.seats.all()) if seats is None else seats
    if seal(match, match.chain, match.version, match.state, record(match, seats)) != match.seal:
        raise _damaged(match, SEAL_BROKEN)


TAIL_FIELDS = ("tail_number", "tail_seat", "tail_kind", "tail_args", "tail_link", "tail_before_number",
               "tail_before_link")


def log_tail():
    """Annotations that read the newest two decision rows in the same query as the match row, so the check before
    a write costs no query of its own: `Match.objects.annotate(**log_tail())`."""
    newest = MatchDecision.objects.filter(match=OuterRef("pk")).order_by("-number")

    def field(name, output, row=0):
        return Subquery(newest.values(name)[row:row + 1], output_field=output)

    return dict(zip(TAIL_FIELDS, (field("number", IntegerField()), field("seat", IntegerField()),
                                  field("kind", CharField()), field("args", JSONField()), field("link", CharField()),
                                  field("number", IntegerField(), 1), field("link", CharField(), 1))))


def forget_log_tail(match):
    """After a decision was stored, the annotations read with the row are out of date: the next check queries."""
    for name in TAIL_FIELDS:
        match.__dict__.pop(name, None)


def check_log_tail(match):
    """Refuse a match whose newest decision rows do not end at its version with its chain (one query, or none when
    the match was read with `log_tail()`)."""
    if hasattr(match, "tail_number") and (match.tail_number or 0) == match.version:
        rows = [(match.tail_before_number, None, None, None, match.tail_before_link),
                (match.tail_number, match.tail_seat, match.tail_kind, match.tail_args, match.tail_link)]
        rows = [row for row in rows if row[0] is not None and row[0] >= match.version - 1]
    else:  # not read with the row, or read before a decision another request stored while this one waited: ask
        rows = list(match.decisions.filter(number__gte=match.version - 1).order_by("number")
                    .values_list("number", "seat", "kind", "args", "link"))
    numbers = [row[0] for row in rows]
    wanted = list(range(max(match.version - 1, 1), match.version + 1))
    if numbers != wanted:
        raise _damaged(match, _numbering(numbers, match.version))
    if match.version == 0:
        return
    previous = rows[-2][4] if len(rows) == 2 else genesis(match)
    number, seat, kind, args, stored = rows[-1]
    if stored != match.chain or link(previous, number, seat, kind, args) != stored:
        raise _damaged(match, f"decision {number} was changed after it was taken")


def _numbering(numbers, version):
    beyond = [n for n in numbers if n > version]
    if beyond:
        return f"its log has decision {beyond[0]} but the match is only at version {version}"
    return f"its log is missing decisions up to version {version}"


def verify(match, replay=False):
    """Every problem of one stored match, as sentences (empty when it is whole). Reads the whole log."""
    if match.state is None:
        return [] if match.version == 0 and not match.decisions.exists() else ["it has a log but was never dealt"]
    problems = []
    decisions = list(match.decisions.order_by("number"))
    numbers = [d.number for d in decisions]
    if numbers != list(range(1, match.version + 1)):
        problems.append(f"its log holds decisions {_ranges(numbers)} but the match is at version {match.version}")
    chain = genesis(match)
    for decision in decisions:
        chain = link(chain, decision.number, decision.seat, decision.kind, decision.args)
        if chain != decision.link:
            where = "the setup (seed, players or options) or decision 1" if decision.number == 1 else \
                f"decision {decision.number}"
            problems.append(f"the chain breaks at {where}: changed after it was stored")
            break
    else:
        if chain != match.chain:
            problems.append("the chain stored on the match is not the end of its log")
    seats = list(match.seats.all())
    if not match.seal:
        problems.append("it has no seal (its log did not match its version when seals were introduced)")
    elif seal(match, match.chain, match.version, match.state, record(match, seats)) != match.seal:
        problems.append(SEAL_BROKEN)
    if replay:
        problems.extend(_replay_problems(match, decisions, seats))
    return problems


def _replay_problems(match, decisions, seats):
    cards = catalogue.frozen(match.catalogue_id).engine
    try:
        state = GameState.new(cards, **match.engine_options())
    except ValueError as exc:
        return [f"its setup cannot be dealt again: {exc}"]
    for decision in decisions:
        if state.pending is None:
            return [f"its log goes on after the game ended (decision {decision.number})"]
        if state.pending.player != decision.seat:
            return [f"decision {decision.number} was taken by seat {decision.seat + 1}, but seat "
                    f"{state.pending.player + 1} was to choose"]
        try:
            state.apply(decision.to_option())
        except ValueError as exc:
            return [f"decision {decision.number} is not legal on replay: {exc}"]
    saved = match.state
    if saved.get("version") != FORMAT_VERSION:  # an older save (the log inside): compare what it holds
        try:
            saved = GameState.from_json(cards, saved).to_json()
        except ValueError as exc:
            return [f"its saved state does not load: {exc}"]
    if state.to_json() != saved:
        return ["replaying its log does not give its saved state"]
    return _record_problems(match, state, seats)


def _record_problems(match, state, seats):
    """What the match's record says that its replayed game does not: an ending, whose move, the places."""
    Status, Ending = Match.Status, Match.Ending
    left = sum(1 for s in seats if s.out)
    if state.finished:
        if match.status != Status.FINISHED or match.ending != Ending.SCORED:
            return [f"its game is over, but the match says {match.status} ({match.ending or 'no ending'})"]
        return []
    if match.status == Status.FINISHED and match.ending == Ending.LAST_STANDING:
        if len(seats) - left >= 2:
            return ["it says every other player left, but two or more seats are still in"]
        return []
    if match.status == Status.ABORTED and match.ending == Ending.ABORTED and match.version == 0:
        return []
    if match.status == Status.FINISHED and match.ending == Ending.ABANDONED:  # every player agreed to stop
        return ["it says the match was abandoned, but it has final places"] if match.places else []
    if match.status != Status.PLAYING:
        return [f"its game is not over, but the match says {match.status} ({match.ending or 'no ending'})"]
    if match.to_move != state.pending.player:
        return [f"it says seat {_seat_words(match.to_move)} is to move, but the game waits for seat "
                f"{state.pending.player + 1}"]
    if match.places:
        return ["it has final places, but its game is not over"]
    return []


def _seat_words(seat):
    return "none" if seat is None else seat + 1


def _ranges(numbers):
    if not numbers:
        return "none"
    runs, start = [], numbers[0]
    for before, after in zip(numbers, numbers[1:] + [None]):
        if after != before + 1:
            runs.append(f"{start}" if start == before else f"{start}-{before}")
            start = after
    return ", ".join(runs)
