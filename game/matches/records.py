"""Game records of matches (the format: game/engine/record.py): a finished match exports to one, and any record is
imported by replaying it through the engine on the catalogue it names.

A record holds the seed, so it tells every card that was hidden: only a match that is over has one.
"""
from cardsite.errors import InvalidField, SiteError
from game import catalogue
from game.engine import record
from game.engine.decisions import Option
from game.engine.record import RecordError
from game.engine.state import GameState
from game.models import Match, MatchCatalogue

from . import services

MAX_LENGTH = 400_000  # characters: a 5-player game of the longest kind is about 40,000


class NoRecordYet(SiteError):
    status = 409
    code = "no_record_yet"


def export(match):
    """The record of a match that is over (finished by its score, or by every other player leaving)."""
    if match.status != Match.Status.FINISHED:
        raise NoRecordYet("a match has a record once it is over: the record holds the seed, which tells every "
                          "hidden card", "match")
    snapshot = services.snapshot_of(match)
    options = match.engine_options()
    st = GameState.new(snapshot.engine, players=options["players"], seed=options["seed"],
                       academy=options["academy"], updated=options["updated"], automa=options.get("automa"))
    decisions, labels = [], []
    for row in match.decisions.order_by("number").only("seat", "kind", "args"):
        option = Option(row.kind, tuple(row.args))
        labels.append(st.label(option))
        decisions.append({"seat": row.seat, "kind": row.kind, "args": list(row.args)})
        st.apply(option)
    seats = {seat.seat: seat.name for seat in match.seats.all()}
    tags = {"Site": "Wyrmdex", "Match": match.get_absolute_url(), "Date": match.created.date().isoformat(),
            "Cards": snapshot.digest, "Ending": match.ending}
    tags.update({f"Seat{n + 1}": seats[n] for n in sorted(seats) if n < 5})
    if st.result is not None:
        tags.update(record.result_tags(st.result))
    return record.write(options, decisions, labels, tags)


def catalogue_for(parsed):
    """The catalogue a record was played on: the one its `Cards` tag names when this site has it, else today's
    catalogue when the tag is absent or names it."""
    digest = parsed.tags.get("Cards")
    current = catalogue.current()
    if digest is None or digest == current.digest:
        return current
    stored = MatchCatalogue.objects.filter(digest=digest).values_list("pk", flat=True).first()
    if stored is None:
        raise RecordError("tag Cards", "the game was played with card data this site does not have (the tag names "
                                       "its digest); remove the tag to replay it on today's cards")
    return catalogue.frozen(stored, digest)


def replay(text):
    """A record read and replayed: (the record, its final state, the catalogue snapshot). Refused with
    `InvalidField("record", ...)` naming the line or move and the reason."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidField("record", "paste a game record: tags such as [Players \"2\"], then its decisions")
    if len(text) > MAX_LENGTH:
        raise InvalidField("record", f"a record is at most {MAX_LENGTH:,} characters")
    try:
        parsed = record.read(text)
        snapshot = catalogue_for(parsed)
        return parsed, record.replay(parsed, snapshot.engine), snapshot
    except RecordError as error:
        raise InvalidField("record", str(error)) from None


def moves(parsed, snapshot):
    """Each decision of a record with its seat and the option in plain words, as the engine labels it."""
    options = parsed.options
    st = GameState.new(snapshot.engine, players=options["players"], seed=options["seed"],
                       academy=options["academy"], updated=options["updated"], automa=options.get("automa"))
    out, seats = [], names(parsed)
    for number, decision in enumerate(parsed.decisions, 1):
        option = Option(decision["kind"], tuple(decision["args"]))
        out.append({"number": number, "seat": decision["seat"] + 1, "name": seats[decision["seat"]],
                    "label": st.label(option)})
        st.apply(option)
    return out


def state_after(parsed, snapshot, number):
    """The game after its first `number` decisions (0: as it was dealt)."""
    if not 0 <= number <= len(parsed.decisions):
        raise InvalidField("move", f"choose a move from 0 to {len(parsed.decisions)}")
    return record.replay(record.Record({}, parsed.options, parsed.decisions[:number]), snapshot.engine)


def names(parsed):
    """Seat names from the record's tags, in seat order (Player n where a tag is missing)."""
    return [parsed.tags.get(f"Seat{n}", f"Player {n}") for n in range(1, parsed.options["players"] + 1)]
