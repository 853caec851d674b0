"""Is a stored match still the match that was played? A hash chain over its decisions, and a seal over its row.

Each decision row stores its `link`: the hash of the previous link and the decision (number, seat, kind, args).
The chain begins at the setup (catalogue, players, options, seed), so decision 1's link already depends on the seed.
The match row stores the last link (`chain`) and a `seal`: the hash of the setup, the chain, the version and the
snapshot of the state. Checks run at three depths:

- every load of the state (`check_seal`): the seal still matches the row; one hash, no query. Finds a changed seed,
  version or option, and an edited snapshot (a hand, a deck, a score).
- before every write (`check_log_tail`): the newest decision rows end exactly at the version and carry the chain;
  one small query. Finds a missing (truncated) or extra decision row and an edited newest decision.
- on demand (`verify`, `manage.py verify_matches [--replay]`): the whole chain from the setup, and optionally a
  replay of the log that must be legal at every step and reproduce the snapshot.

A match that fails a check is refused with `MatchDamaged` and left as it is for staff to look at. Every service that
changes `version`, `state` or the log must store the new `chain` and `seal` (`next_link`, `seal_start`, `reseal`);
these are plain SHA-256 digests for finding accidents and hand edits, not signatures against someone who can write
the database.
"""
import hashlib
import json
import logging

from django.db.models import CharField, IntegerField, JSONField, OuterRef, Subquery

from game import catalogue
from game.engine.state import FORMAT_VERSION, GameState
from game.models import MatchDecision

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


def seal(match, chain, version, state):
    return _digest("seal", genesis(match), chain, version, state)


def seal_start(match):
    """Chain and seal of a match that has just been dealt (version 0, `state` set); saved by the caller."""
    match.chain = genesis(match)
    match.seal = seal(match, match.chain, match.version, match.state)


def next_link(match, number, seat, option, state):
    """The `chain` and `seal` the match row takes with decision `number` (also the decision's `link`)."""
    chain = link(match.chain, number, seat, option.kind, option.args)
    return {"chain": chain, "seal": seal(match, chain, number, state)}


def reseal(match):
    """The seal after a change of the state that is not a decision of the log (saved by the caller). Use sparingly:
    such a state no longer follows from the log, so `verify_matches --replay` will report it."""
    match.seal = seal(match, match.chain, match.version, match.state)


def _damaged(match, reason):
    log.warning("match %s failed its integrity check: %s", match.pk, reason)
    return MatchDamaged(match.pk, reason)


def check_seal(match):
    """Refuse a started match whose setup, version or snapshot no longer match its seal."""
    if match.state is None:
        return
    if not match.seal:
        raise _damaged(match, "it has no seal (its log did not match its version when seals were introduced)")
    if seal(match, match.chain, match.version, match.state) != match.seal:
        raise _damaged(match, "its seed, options, version or saved state were changed outside the game")


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
    if not match.seal:
        problems.append("it has no seal (its log did not match its version when seals were introduced)")
    elif seal(match, match.chain, match.version, match.state) != match.seal:
        problems.append("its seed, options, version or saved state were changed outside the game")
    if replay:
        problems.extend(_replay_problems(match, decisions))
    return problems


def _replay_problems(match, decisions):
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
    return []


def _ranges(numbers):
    if not numbers:
        return "none"
    runs, start = [], numbers[0]
    for before, after in zip(numbers, numbers[1:] + [None]):
        if after != before + 1:
            runs.append(f"{start}" if start == before else f"{start}-{before}")
            start = after
    return ", ".join(runs)
