"""Game records: a finished game as text that people can read and the engine can replay, as a PGN file is for chess.

A record is a header of tags, one per line, then every decision in order, one per line::

    [Format "wyrmdex-record 1"]
    [Players "2"]
    [Academy "no"]
    [Updated "no"]
    [Seed "8812"]
    [Seat1 "alice"]
    [Seat2 "Bot (strong)"]
    [Result "85 72"]
    [Places "1 2"]

    1. s1 discard_cards dragon 13 cave 34 ; Discard Scavenging Cricketcatcher (14) and cave card 35
    2. s1 resources gold gold gold ; Take gold, gold, gold

Tags: `Format` (required, first), the setup (`Players`, `Academy`, `Updated`, `Seed`; `Automa` and `Ravel` in a solo
game), and optional ones the engine does not need (`Site`, `Match`, `Date`, `Cards` — the digest of the catalogue
the game was played with —, `Seat1`..`Seat5`, `Ending`, `Result`, `Places`). A tag's value is a JSON string.

A decision line is its number, the seat that took it (`s1` is the first seat), the option's kind and its arguments
(numbers, and words written bare or as JSON strings), then an optional comment after `;`: the option in plain
words, for people; the engine ignores it. Lines that are empty or start with `#` are skipped.

`read` checks the form and `replay` plays the decisions through the engine; either raises `RecordError` naming the
line or the move and the reason, and a record that replays to another result than its `Result` tag is refused.
"""
import json
import re
from typing import NamedTuple

from .decisions import IllegalDecision, MalformedDecision, Option
from .state import GameState

FORMAT = "wyrmdex-record 1"
SETUP_TAGS = ("Players", "Academy", "Updated", "Seed", "Automa", "Ravel")
OTHER_TAGS = ("Site", "Match", "Date", "Cards", "Ending", "Result", "Places") + tuple(f"Seat{n}" for n in range(1, 6))
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9]*) ("(?:[^"\\]|\\.)*")\]$')
_MOVE = re.compile(r"^(\d+)\.\s+s(\d)\s+([a-z][a-z0-9_]*)((?:\s+[^;\s]+)*)\s*(?:;.*)?$")
_SETUP_FIELDS = {"players": "Players", "seed": "Seed", "automa": "Automa", "automa.level": "Automa",
                 "automa.ravel": "Ravel"}  # the engine's setup fields, as the tags that carry them
_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")


class RecordError(ValueError):
    """A record that cannot be read or replayed: `where` is "line 12" or "move 40", `reason` says why."""

    def __init__(self, where, reason):
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


class Record(NamedTuple):
    tags: dict  # tag name -> text, in the order written
    options: dict  # the engine's setup options (GameState.new's arguments)
    decisions: list  # [{"seat": 0-based seat, "kind": ..., "args": [...]}, ...]


def _yes_no(value):
    return "yes" if value else "no"


def _arg(value):
    if isinstance(value, int):
        return str(value)
    return value if _BARE.match(value) else json.dumps(value)


def write(options, decisions, labels=None, tags=None):
    """The record of a game: its setup options (as `GameState.options`), its decisions (dicts with `seat` (0-based),
    `kind` and `args`), their labels in plain words (optional, written as comments) and further tags."""
    head = {"Format": FORMAT, "Players": str(options["players"]), "Academy": _yes_no(options.get("academy")),
            "Updated": _yes_no(options.get("updated", options.get("academy"))), "Seed": str(options["seed"])}
    automa = options.get("automa")
    if automa is not None:
        head["Automa"] = f"level {automa['level']}"
        head["Ravel"] = _yes_no(automa.get("ravel"))
    for name, value in (tags or {}).items():
        if name not in OTHER_TAGS:
            raise ValueError(f"a record has no tag {name!r}")
        if value not in (None, ""):
            head[name] = str(value)
    lines = [f"[{name} {json.dumps(value, ensure_ascii=False)}]" for name, value in head.items()]
    lines.append("")
    for number, decision in enumerate(decisions, 1):
        line = " ".join([f"{number}.", f"s{decision['seat'] + 1}", decision["kind"],
                         *(_arg(a) for a in decision["args"])])
        label = labels[number - 1] if labels else ""
        if label:
            line += " ; " + " ".join(label.split())
        lines.append(line)
    return "\n".join(lines) + "\n"


def result_tags(result):
    """The `Result` and `Places` tags of a finished game's result: each seat's total VP and place."""
    return {"Result": " ".join(str(s["total"]) for s in result["scores"]),
            "Places": " ".join(str(p) for p in result["places"])}


def _flag(tags, name, default=False):
    value = tags.get(name)
    if value is None:
        return default
    if value not in ("yes", "no"):
        raise RecordError(f"tag {name}", f'expected "yes" or "no", not {value!r}')
    return value == "yes"


def _whole(tags, name, low=None, high=None):
    value = tags.get(name)
    if value is None:
        raise RecordError(f"tag {name}", "missing: the engine needs it to set the game up")
    if not re.fullmatch(r"-?\d{1,19}", value):
        raise RecordError(f"tag {name}", f"expected a whole number, not {value!r}")
    number = int(value)
    if low is not None and not low <= number <= high:
        raise RecordError(f"tag {name}", f"expected {low} to {high}, not {number}")
    return number


def _args(text, number):
    args = []
    for token in text.split():
        if re.fullmatch(r"-?\d+", token):
            args.append(int(token))
        elif _BARE.match(token):
            args.append(token)
        elif token.startswith('"'):
            try:
                value = json.loads(token)
            except ValueError:
                value = None
            if not isinstance(value, str):
                raise RecordError(f"move {number}", f"cannot read the argument {token}")
            args.append(value)
        else:
            raise RecordError(f"move {number}", f"cannot read the argument {token}")
    return args


def read(text):
    """Parse a record (checking its form, not yet its legality): a `Record`, or `RecordError` naming the line."""
    if not isinstance(text, str):
        raise RecordError("record", "expected text")
    tags, decisions, in_moves = {}, [], False
    for at, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if in_moves:
                raise RecordError(f"line {at}", "a tag after the first decision: tags come first")
            match = _TAG.match(line)
            if match is None:
                raise RecordError(f"line {at}", 'a tag is written [Name "value"]')
            name, value = match.group(1), json.loads(match.group(2))
            if name != "Format" and name not in SETUP_TAGS and name not in OTHER_TAGS:
                raise RecordError(f"line {at}", f"unknown tag {name}")
            if name in tags:
                raise RecordError(f"line {at}", f"the tag {name} is given twice")
            if not tags and name != "Format":
                raise RecordError(f"line {at}", "the first tag must be Format")
            tags[name] = value
            continue
        in_moves = True
        match = _MOVE.match(line)
        if match is None:
            raise RecordError(f"line {at}", "a decision is written: number, seat, kind, arguments "
                                            "(for example: 12. s2 entice 40 1)")
        number = int(match.group(1))
        if number != len(decisions) + 1:
            raise RecordError(f"line {at}", f"decision {number} where decision {len(decisions) + 1} was expected")
        decisions.append({"seat": int(match.group(2)) - 1, "kind": match.group(3),
                          "args": _args(match.group(4), number)})
    if tags.get("Format") != FORMAT:
        raise RecordError("tag Format", f'expected "{FORMAT}"' + (f", not {tags['Format']!r}" if tags else ""))
    players = _whole(tags, "Players", 1, 5)
    options = {"players": players, "seed": _whole(tags, "Seed"), "academy": _flag(tags, "Academy")}
    options["updated"] = _flag(tags, "Updated", options["academy"])
    automa = tags.get("Automa")
    if players == 1:
        level = re.fullmatch(r"level (\d)", automa or "")
        if level is None:
            raise RecordError("tag Automa", 'a solo game names the Automa\'s level: "level 1" to "level 3"')
        options["automa"] = {"level": int(level.group(1)), "ravel": _flag(tags, "Ravel")}
    elif automa is not None or "Ravel" in tags:
        raise RecordError("tag Automa", "only a solo game has the Automa")
    return Record(tags, options, decisions)


def replay(record, catalogue):
    """Play a record's decisions through the engine: the final state, or `RecordError` naming the first move the
    rules refuse (or the setup tag the engine refuses, or a result that differs from the record's)."""
    if isinstance(record, str):
        record = read(record)
    options = record.options
    try:
        st = GameState.new(catalogue, players=options["players"], seed=options["seed"],
                           academy=options["academy"], updated=options["updated"], automa=options.get("automa"))
    except MalformedDecision as error:
        field, _, why = str(error).partition(": ")
        tag = _SETUP_FIELDS.get(field)
        raise RecordError(f"tag {tag}" if tag else "setup", why if tag else str(error)) from None
    for number, decision in enumerate(record.decisions, 1):
        pending = st.pending
        if pending is None:
            raise RecordError(f"move {number}", "the game was already over")
        if decision["seat"] != pending.player:
            raise RecordError(f"move {number}", f"seat {decision['seat'] + 1} cannot decide now: the game asks "
                                                f"seat {pending.player + 1}")
        try:
            st.apply(Option(decision["kind"], tuple(decision["args"])))
        except (IllegalDecision, MalformedDecision) as error:
            raise RecordError(f"move {number}", str(error)) from None
    claimed = record.tags.get("Result")
    if claimed is not None:
        if st.result is None:
            raise RecordError("tag Result", f"the record claims a result but the game is not over after "
                                            f"{len(record.decisions)} decisions")
        replayed = result_tags(st.result)["Result"]
        if replayed != " ".join(claimed.split()):
            raise RecordError("tag Result", f"the decisions give {replayed}, not {claimed}")
    return st
