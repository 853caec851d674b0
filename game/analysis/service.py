"""What the analysis page and API call: build a position, start something for a seat, replay a branch of
decisions, and say at each step what changed, what the engine asks now (each option with its cost and what it
gives), what it refuses (with the rule, linked to /rules/) and which official rulings the position touches.

Nothing is saved: an answer is a pure function of the request, so a branch is a list of decisions and the move
tree lives with the client (the page keeps it, the URL shares it).

Every position comes from the client, so whatever the engine raises while it plays one is a refusal of that position
(a 400 naming `position`, logged as a warning with the position's digest), never a 500 (`refusing_what_breaks`).
"""
import hashlib
import json
import logging
import statistics
from contextlib import contextmanager

from django.db import Error as DatabaseError

from cardsite.errors import SiteError
from game import catalogue
from game.checker import resolve
from game.checker.services import current_cards
from game.engine import bots
from game.engine.decisions import IllegalDecision, MalformedDecision, Option
from game.engine.model import COLUMNS
from game.engine.position import export_position
from game.engine.scoring import CATEGORIES, base_breakdown, guild_marker_vp, objective_vp
from game.engine.view import events_for, view_for
from game.language.events import Names, render_event, render_event_html
from game.language.options import resources_given
from game.language.vocabulary import CAVE_NAMES, CAVES, RESOURCES, SCORE_CATEGORY_NAMES, automa_score_names
from game.matches.present import drawing
from game.rules import rules_anchor, rulings

from . import board
from .checks import broken_rules
from .errors import AnalysisInputError

logger = logging.getLogger(__name__)

BODY_KEYS = {"position", "try", "decisions"}
TRY_KEYS = {"seat", "card", "ability", "at", "end", "guild", "exchange"}
MAX_DECISIONS = 300
MAIN_ACTION = board.MAIN_ACTION
# The rule behind each kind of option (an anchor of /rules/ through `rules_anchor`).
OPTION_RULES = {
    "excavate": "excavate", "entice": "entice", "explore": "explore", "pass": "pass", "exchange": "exchange",
    "discard": "turn", "discard_cards": "turn", "cache": "cache", "tuck": "tuck", "egg_on": "lay_egg",
    "train": "train", "play": "play_dragon", "take": "gain", "marker": "guild", "resource": "resource",
    "resources": "setup", "activate": "activate", "next_ability": "once_per_round", "cover": "cover_dragon",
    "cave_order": "excavate",
}
# Rules topics a position's question touches, for the rulings shown beside it.
QUESTION_TOPICS = {"discard_cards": ("turn",), "discard_resources": ("turn",), "guild_marker": ("guild",),
                   "ability_order": ("once-per-round",), "cave_order": ("excavate",), "exchange_to_pay": ("exchange",),
                   "pay": ("pay-item",), "train": ("train",), "tuck": ("tuck",), "cache": ("cache",)}


def seat_name(seat):
    return f"Player {seat + 1}"


# -- reading the request --------------------------------------------------------------------------------------

def read_body(body):
    if not isinstance(body, dict):
        raise AnalysisInputError("body", "expected a JSON object")
    unknown = sorted(set(body) - BODY_KEYS)
    if unknown:
        raise AnalysisInputError(unknown[0], f"unknown; a request has {', '.join(sorted(BODY_KEYS))}")
    attempt = body.get("try", {})
    if not isinstance(attempt, dict):
        raise AnalysisInputError("try", "expected an object such as {\"seat\": 0}")
    unknown = sorted(set(attempt) - TRY_KEYS)
    if unknown:
        raise AnalysisInputError(f"try.{unknown[0]}", f"unknown; try has {', '.join(sorted(TRY_KEYS))}")
    decisions = body.get("decisions", [])
    if not isinstance(decisions, list):
        raise AnalysisInputError("decisions", "expected a list such as [{\"kind\": \"yes\", \"args\": []}]")
    if len(decisions) > MAX_DECISIONS:
        raise AnalysisInputError("decisions", f"at most {MAX_DECISIONS} decisions")
    return body.get("position"), attempt, decisions


# -- starting something ---------------------------------------------------------------------------------------

def start(cards, st, attempt):
    """Set the position going for the seat: its main action (the default), a card's ability, or the end of the turn or round.
    Returns notes saying what was set up."""
    if st.finished:
        raise AnalysisInputError("try", "the game is over: nothing can be tried")
    if not attempt and st.pending is not None and not st.at_main_action():
        return [f"The position is inside an ability: {seat_name(st.pending.player)} answers its question."]
    seat = board.whole(attempt.get("seat", st.current), "try.seat", 0, len(st.players) - 1)
    if attempt.get("end") == "turn":
        # The seat's turn ends as after any action: hand limits, coins over the cap, the display refilled, the next
        # player who has not passed to move (or the round's end when nobody is left).
        st.end_turn_now(seat)
        return [f"{seat_name(seat)}'s turn ends."]
    if attempt.get("end") is not None:
        if attempt["end"] not in ("round", "game"):
            raise AnalysisInputError("try.end", "expected \"turn\", \"round\" or \"game\"")
        ending = st.cat.rounds if attempt["end"] == "game" else st.round
        st.end_round_now(last=attempt["end"] == "game")
        return [f"Everyone has passed: round {ending} ends" + (" and the game with it." if attempt["end"] == "game"
                                                                 else ".")]
    if "exchange" in attempt:
        # At any point in the game, for any seat: the position stays as it is (whoever is asked is asked again)
        given = attempt["exchange"]
        if not isinstance(given, list) or not all(isinstance(item, str) for item in given):
            raise AnalysisInputError("try.exchange", "expected the resources given, then the kind received, such "
                                                     "as [\"meat\", \"meat\", \"gold\"]")
        try:
            st.exchange_resources(seat, given)
        except IllegalDecision as error:
            raise AnalysisInputError("try.exchange", str(error)) from None
        return [f"{seat_name(seat)} exchanges {resources_given(given[:-1])} for {st.cat.exchange_get} {given[-1]}."]
    board.to_move(st, seat)
    if "guild" in attempt:
        steps = board.whole(attempt["guild"], "try.guild", 1, 20)
        st.advance_guild(seat, steps)
        return [f"{seat_name(seat)} advances {steps} time(s) on the Dragon Guild: every space passed gives its "
                f"benefit, a brown space a marker on the guild tile."]
    if "card" not in attempt:
        return [f"{seat_name(seat)} to act: choose a main action (or exchange first)."]
    subject = cards.subject(attempt["card"], "try.card")
    abilities = cards.abilities(subject)
    k = attempt.get("ability", 0)
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(abilities):
        raise AnalysisInputError("try.ability", f"{subject.name} has abilities 0 to {len(abilities) - 1}"
                                 if abilities else f"{subject.name} has no ability")
    ability = abilities[k]
    pl = st.players[seat]
    kind_name = ability["kind_name"].lower()
    if subject.kind == "dragon":
        index = pl.find(subject.index)
        if index is None:
            raise AnalysisInputError("try.card", f"{subject.name} is not on {seat_name(seat)}'s mat: add it first")
        card, note = index, f"{subject.name}'s ability ({kind_name}) fires for {seat_name(seat)}."
        if not st.active(seat, subject.index, index):
            note = (f"{subject.name} is a fledgling not fully trained: its abilities sleep, and walking onto it "
                    "offers a training instead.")
    elif subject.kind == "cave":
        at = attempt.get("at")
        if not isinstance(at, dict):
            raise AnalysisInputError("try.at", "where the cave card is played: {\"cave\": ..., \"column\": 2}")
        cave = board.cave_index(at.get("cave"), "try.at.cave")
        column = board.whole(at.get("column"), "try.at.column", 2, COLUMNS)
        card = cave * COLUMNS + column - 1
        if pl.spaces[card].cave_card is not None:
            raise AnalysisInputError("try.at.column", "that space is already excavated")
        if not board.remove_cave_card(st, subject.index):
            raise AnalysisInputError("try.card", "that cave card is not in this game")
        pl.spaces[card].cave_card = subject.index
        note = f"Cave card {subject.number} is played on the {CAVE_NAMES[cave]} column {column} (its cost is paid)."
    else:
        tile = st.cat.guild_tiles[st.guild_tile] if st.guild_tile >= 0 else None
        if tile is None or tile["number"] != subject.number:
            raise AnalysisInputError("try.card", f"this game's guild tile is {tile['name'] if tile else 'none'}: "
                                                 f"set it with a guild_tile edit first")
        card, k = ("guild", ability["index"]), 0
        note = (f"Row {ability['index'] + 1} of the {tile['name']} fires for {seat_name(seat)}, as if a marker had "
                "just been placed there.")
    try:
        if not st.fire(seat, card, k):
            note += " Nothing happens: the ability cannot act now."
    except (IllegalDecision, MalformedDecision) as error:
        raise AnalysisInputError("try.card", str(error)) from None
    return [note]


# -- what the engine asks, and what it refuses ----------------------------------------------------------------

BOARD = resolve.Voice(seat_name, lambda seat: f"{seat_name(seat)}'s", lambda seat: False)


def outcome(st, option, before):
    """What taking `option` changes until the next question, in words (tried on a copy; `st` is not changed)."""
    twin = st.clone()
    twin.events = None
    twin.apply(option)
    return [change["text"] for change in resolve.diff(twin, before, resolve.snapshot(twin, BOARD), BOARD)]


def option_json(st, option, seat, before=None):
    """An option as the board shows it: the engine's own data (`state.option_info`: cost, gain, the card and the
    space, with caves by name and columns counted from 1), the rule behind it and, for an offered option, what
    taking it changes."""
    info = st.option_info(option)
    data = dict(option.to_dict(), label=info["label"], cost=info["cost"], gain=info["gain"],
                detail=resolve.dragon_on(st, option, seat),
                rules=rules_anchor(OPTION_RULES.get(option.kind, option.kind)))
    if "card" in info:
        data["card"] = info["card"]
    if isinstance(info.get("space"), dict):
        data["space"] = {"cave": CAVES[info["space"]["cave"]], "column": info["space"]["column"] + 1}
    if isinstance(info.get("cave"), int):
        data["cave"] = CAVES[info["cave"]]
    if before is not None:
        data["result"] = outcome(st, option, before)
    return data


def _main_candidates(st, seat):
    pl = st.players[seat]
    legal = set(st.pending.options)
    out = []
    for card in sorted(set(pl.caves)) or [-1]:
        out += [Option("excavate", (card, cave)) for cave in range(3)]
    for dragon in sorted(set(pl.hand)):
        out += [Option("entice", (dragon, cave)) for cave in range(3)]
    out += [Option("explore", (cave,)) for cave in range(3)]
    return [o for o in out if o not in legal]


def refused(st):
    """Options near the question that the engine refuses, each with its reason and the rule behind it."""
    pending = st.pending
    if pending.kind == MAIN_ACTION:
        out = []
        for option in _main_candidates(st, pending.player):
            out.append(dict(option_json(st, option, pending.player), reason=st.explain_illegal(option)))
        return out
    out = []
    for item in resolve.not_allowed(st):
        item["rules"] = rules_anchor(OPTION_RULES.get(item["kind"], item["kind"]))
        out.append(item)
    return out


def pending_json(st):
    pending = st.pending
    before = resolve.snapshot(st, BOARD)
    return {"player": pending.player, "who": seat_name(pending.player), "prompt": pending.prompt,
            "kind": pending.kind, "data": pending.data,
            "options": [option_json(st, o, pending.player, before) for o in pending.options],
            "not_allowed": refused(st)}


# -- events and rulings ---------------------------------------------------------------------------------------

def narrate(st, events, seat):
    """Each event in plain words and with icons (game/language/events.py), as `seat` (the player the step is
    tried for) sees it: through the engine's one gate for events, so another player's hidden draws stay hidden."""
    events = events_for(events, seat)
    names = Names(players=[seat_name(pl.seat) for pl in st.players], dragon=lambda i: st.cat.dragons[i].name,
                  cave=lambda i: st.cat.caves[i].label())
    return [{"event": event, "text": render_event(event, names), "html": render_event_html(event, names)}
            for event in events or ()]


def touched_rulings(st, attempt_subject=None):
    """The official rulings about the cards on the table and the question being asked."""
    dragons, caves, topics = set(), set(), set()
    for pl in st.players:
        for space in pl.spaces:
            if space.dragon is not None:
                dragons.add(st.cat.dragons[space.dragon].number)
            if space.cave_card is not None:
                caves.add(st.cat.caves[space.cave_card].number)
    if st.pending is not None:
        pl = st.players[st.pending.player]
        dragons |= {st.cat.dragons[d].number for d in pl.hand}
        caves |= {st.cat.caves[c].number for c in pl.caves}
        for kind in {o.kind for o in st.pending.options}:  # the rules behind what is asked now
            url = rules_anchor(OPTION_RULES.get(kind, kind))
            if url is not None:
                topics.add(url.split("#", 1)[1])
        topics.update(QUESTION_TOPICS.get(st.pending.kind, ()))
    if attempt_subject is not None:
        {"dragon": dragons, "cave": caves}.get(attempt_subject.kind, set()).add(attempt_subject.number)
    guilds = {st.cat.guild_tiles[st.guild_tile]["number"]} if st.guild_tile >= 0 else set()
    objectives = {st.cat.objective_tiles[tile]["number"] for tile, _ in st.objectives}
    found = rulings.touching(dragons=dragons, caves=caves, guilds=guilds, objectives=objectives, topics=topics)
    return [ruling.to_dict() for ruling in found]


# -- the table, for drawing -----------------------------------------------------------------------------------

def vp(st, pl):
    """VP on the table now, as the final count would give them (without end-game abilities)."""
    breakdown = base_breakdown(st.cat, pl, objective_vp(st.cat, pl.objectives), guild_marker_vp(st.cat, pl.markers))
    return sum(breakdown[c] for c in CATEGORIES)


def table(st):
    cat = st.cat
    seats = []
    for pl in st.players:
        mat = []
        for i, space in enumerate(pl.spaces):
            mat.append({
                "cave": CAVES[i // COLUMNS], "column": i % COLUMNS + 1, "excavated": pl.excavated(i),
                "cave_card": cat.caves[space.cave_card].number if space.cave_card is not None else None,
                "dragon": ({"number": cat.dragons[space.dragon].number, "name": cat.dragons[space.dragon].name,
                            "capacity": cat.dragons[space.dragon].capacity,
                            "training": len(cat.dragons[space.dragon].training)}
                           if space.dragon is not None else None),
                "eggs": space.eggs, "cached": {r: n for r, n in zip(RESOURCES, space.cached) if n},
                "tucked": len(space.tucked), "tokens": space.tokens, "fed": space.fed,
            })
        seats.append({
            "seat": pl.seat, "name": seat_name(pl.seat), "coins": pl.coins,
            "resources": dict(zip(RESOURCES, pl.res)), "nest": pl.nest,
            "hand": [{"number": cat.dragons[d].number, "name": cat.dragons[d].name} for d in pl.hand],
            "cave_cards": [cat.caves[c].number for c in pl.caves], "guild": pl.guild,
            "markers": [list(m) for m in pl.markers], "objectives": list(pl.objectives),
            "explored": dict(zip(CAVES, pl.explored)), "passed": pl.passed, "income_space": pl.income_space,
            "vp": vp(st, pl), "mat": mat,
        })
    tile = cat.guild_tiles[st.guild_tile] if st.guild_tile >= 0 else None
    return {
        "round": st.round, "current": st.current, "start": st.start, "academy": st.options.get("academy", False),
        "display": {"dragons": [{"number": cat.dragons[d].number, "name": cat.dragons[d].name} if d is not None
                                else None for d in st.display_dragons],
                    "caves": [cat.caves[c].number if c is not None else None for c in st.display_caves]},
        "guild_tile": {"number": tile["number"], "name": tile["name"],
                       "rows": [len(row) for row in st.guild_board]} if tile else None,
        "objectives": [{"number": cat.objective_tiles[t]["number"], "side": side} for t, side in st.objectives],
        "seats": seats,
        "result": st.result,
    }


def final_score(st):
    """The final count by category, one column per player (and the Automa's parts in her own words, solo), with the
    totals and places: what a score pad shows at the end. None while the game goes on."""
    result = st.result
    if result is None:
        return None
    names = [seat_name(pl.seat) for pl in st.players]
    automa = len(names) if len(result["scores"]) > len(names) else None
    if automa is not None:
        names.append("The Automa")
    scores = result["scores"]
    rows = [{"key": key, "label": label, "automa": False,
             "values": [None if i == automa else scores[i][key] for i in range(len(names))]}
            for key, label in SCORE_CATEGORY_NAMES.items()]
    if automa is not None:
        rows += [{"key": key, "label": f"Automa: {label}", "automa": True,
                  "values": [scores[automa][key] if i == automa else None for i in range(len(names))]}
                 for key, label in automa_score_names((result.get("automa") or {}).get("ravel")).items()]
    return {"names": names, "rows": rows, "totals": [score["total"] for score in scores],
            "places": list(result["places"])}


def drawn(st, snapshot):
    """The shared table (guild, round tracker, display, decks, supplies) as the match page draws it: a spectator's
    view_for and what static/table.js needs beside it. Hands and the mat come from `table`, as the board edits them."""
    view = view_for(st, None)
    return dict(drawing(view, snapshot), view=view)


# -- the whole run --------------------------------------------------------------------------------------------

def position_digest(position):
    """A short name for a client's position in the logs: the same position, the same digest."""
    text = json.dumps(position, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


@contextmanager
def refusing_what_breaks(position):
    """Run the engine on the client's position. A refusal we wrote (the site's errors, the engine's two typed ones)
    passes as it is, and so does a database's failure (not the position's doing); anything else the engine raises
    means the position is one it cannot play (a table no game reaches, a stack the seal let through), so it is
    refused naming `position` and logged as a warning, with its traceback, under the position's digest."""
    try:
        yield
    except (SiteError, MalformedDecision, IllegalDecision, DatabaseError):
        raise
    except Exception as error:
        digest = position_digest(position)
        logger.warning("analysis: the engine failed on position %s (%s: %s)", digest, type(error).__name__, error,
                       exc_info=True)
        raise AnalysisInputError("position", f"the engine cannot play this position (reference {digest}); start "
                                             f"from a position this board gave, or edit its table") from None


def attempt_seat(st, attempt):
    seat = attempt.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else st.current


def _turn_start(st):
    return st.pending is not None and st.pending.kind == MAIN_ACTION


def replay(st, decisions, on_step=None):
    """Apply the branch's decisions in order; `on_step(i, seat, prompt, label, option, before, events)` hears each.
    A decision that is malformed, late or refused is an AnalysisInputError naming it."""
    for i, raw in enumerate(decisions):
        try:
            option = Option.from_dict(raw)
        except MalformedDecision as error:
            raise AnalysisInputError(f"decisions[{i}]", str(error)) from None
        if st.pending is None:
            raise AnalysisInputError(f"decisions[{i}]", "the game is over: no decision is expected")
        before = resolve.snapshot(st, BOARD) if on_step is not None else None
        seat, prompt, label = st.pending.player, st.pending.prompt, st.label(option)
        try:
            events = st.apply(option)
        except IllegalDecision as error:
            raise AnalysisInputError(f"decisions[{i}]", str(error)) from None
        if on_step is not None:
            on_step(i, seat, prompt, label, option, before, events)


def analyse(body):
    """Answer a request {position, try, decisions}: see the module docstring. Raises AnalysisInputError."""
    position, attempt, decisions = read_body(body)
    snapshot = catalogue.current()
    cards = current_cards(snapshot)
    with refusing_what_breaks(position):
        return _analyse(snapshot, cards, position, attempt, decisions)


def _analyse(snapshot, cards, position, attempt, decisions):
    st = board.read(cards, position)
    st.events = []
    notes = start(cards, st, attempt)
    subject = cards.subject(attempt["card"], "try.card") if "card" in attempt else None
    steps = [{"number": 0, "label": notes[0], "events": narrate(st, st.events, attempt_seat(st, attempt))}]

    def record(i, seat, prompt, label, option, before, events):
        steps.append({"number": i + 1, "seat": seat, "who": seat_name(seat), "prompt": prompt,
                      "decision": option.to_dict(), "label": label, "events": narrate(st, events, seat),
                      "changes": resolve.diff(st, before, resolve.snapshot(st, BOARD), BOARD)})

    replay(st, decisions, record)
    return {
        "notes": notes,
        "steps": steps,
        "decisions": [Option.from_dict(d).to_dict() for d in decisions],
        "turn_start": _turn_start(st) and bool(decisions),
        "finished": st.finished,
        "final": final_score(st),
        "broken_rules": broken_rules(st),
        "pending": pending_json(st) if st.pending is not None else None,
        "rulings": touched_rulings(st, subject),
        "table": table(st),
        "drawing": drawn(st, snapshot),
        "position": export_position(st, seal_key=board.seal_key()),
    }


# -- the engine's opinion ---------------------------------------------------------------------------------------

# Seconds of search a request may ask for: "think longer" doubles the budget up to this, so no request ties up a
# worker for more than a few seconds (the bot's own safety stop is at twice the budget and a second more).
MAX_BUDGET = 4.0
DEFAULT_BUDGET = 0.5
# Student's t for a two-sided 95 % interval, by degrees of freedom (playouts - 1); between two rows the smaller
# row's (larger) value is used, so an interval is never narrower than it should be.
T95 = ((1, 12.71), (2, 4.30), (3, 3.18), (4, 2.78), (5, 2.57), (6, 2.45), (7, 2.36), (8, 2.31), (9, 2.26),
       (10, 2.23), (12, 2.18), (15, 2.13), (20, 2.09), (30, 2.04), (60, 2.00), (120, 1.98))


def interval(values):
    """The 95 % interval of the mean of `values` (playout margins), [low, high], or None below 2 values (one playout
    says nothing of how much the next would differ)."""
    if len(values) < 2:
        return None
    n, mean = len(values), statistics.fmean(values)
    t = next((value for df, value in reversed(T95) if df <= n - 1), T95[0][1])
    half = t * statistics.stdev(values) / n ** 0.5
    return [round(mean - half, 1), round(mean + half, 1)]


def read_budget(body):
    """The request without its `budget`, and the budget in seconds (DEFAULT_BUDGET when absent)."""
    if not isinstance(body, dict) or "budget" not in body:
        return body, DEFAULT_BUDGET
    budget = body["budget"]
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0.05 <= budget <= MAX_BUDGET:
        raise AnalysisInputError("budget", f"expected seconds of search from 0.05 to {MAX_BUDGET:g}")
    return {k: v for k, v in body.items() if k != "budget"}, float(budget)


def engine(body):
    """The strong bot's preferred option at the branch's pending decision, and its estimate for each option it
    considered, as lichess shows an engine's evaluation. The request is `analyse`'s ({position, try, decisions})
    plus an optional `budget` in seconds (at most MAX_BUDGET). The bot decides from the deciding seat's view only
    (`bots.suggest` samples everything that seat cannot see), with a fixed seed: the same request, the same answer.
    """
    body, budget = read_budget(body)
    position, attempt, decisions = read_body(body)
    cards = current_cards()
    with refusing_what_breaks(position):
        return _engine(cards, position, attempt, decisions, budget)


def _engine(cards, position, attempt, decisions, budget):
    st = board.read(cards, position)
    st.events = None
    start(cards, st, attempt)
    replay(st, decisions)
    if st.pending is None:
        raise AnalysisInputError("decisions" if decisions else "try", "the game is over: there is nothing to decide")
    seat = st.pending.player
    found = bots.suggest(st, seat, budget=budget, seed=0)
    solo = len(st.players) == 1

    best = next(e for e in found["options"] if e["option"] == found["option"])

    def estimate(entry):
        option = entry["option"]
        return dict(option.to_dict(), label=st.label(option), playouts=entry["playouts"],
                    win=None if solo else round(entry["win"], 3), margin=round(entry["margin"], 1),
                    interval=interval(entry["margins"]), greedy=round(entry["greedy"], 1),
                    lead=None if entry is best else interval([a - b for a, b in zip(best["margins"],
                                                                                      entry["margins"])]))

    considered = sorted((estimate(e) for e in found["options"]), key=lambda e: -e["margin"])
    preferred = found["option"].to_dict()
    top = next(c for c in considered if (c["kind"], c["args"]) == (preferred["kind"], preferred["args"]))
    others = [c for c in considered if c is not top]
    # Every option met the same samples and dice in its k-th playout, so the preferred option's lead over another is
    # judged pairwise (`lead`); settled when every lead's interval lies above 0: more thinking would hardly change it.
    settled = all(c["lead"] is not None and c["lead"][0] > 0 for c in others)
    closest = min(others, key=lambda c: c["lead"][0] if c["lead"] else float("-inf"), default=None)
    return {
        "seat": seat, "who": seat_name(seat), "kind": st.pending.kind, "prompt": st.pending.prompt, "budget": budget,
        "max_budget": MAX_BUDGET, "measure": "score" if solo else "margin",
        "preferred": dict(preferred, label=st.label(found["option"])),
        "win": None if solo else round(found["win"], 3), "margin": round(found["margin"], 1),
        "interval": top["interval"], "settled": settled,
        "closest": None if closest is None else {"label": closest["label"], "lead": closest["lead"]},
        "playouts": sum(e["playouts"] for e in found["options"]),
        "considered": considered,
        "offered": len(st.pending.options),
    }
