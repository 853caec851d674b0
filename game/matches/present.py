"""What a user sees of a match, as JSON: the summary, the engine's `view_for` their seat, the cards that view
shows, and the story so far. Nothing here reads the state except through `view_for`, and nothing reads the events
except through `events_for`, so hidden hands stay hidden: this module filters no secret itself."""
import logging
import threading
from collections import OrderedDict

from django.urls import reverse
from django.utils.html import escape

from game import catalogue
from game.engine.catalogue import CAVES
from game.engine.decisions import Option
from game.engine.state import GameState
from game.engine.view import events_for, option_json, plain, view_for
from game.language.events import Names, render_event, render_event_html
from game.language.render import render_abilities, render_counter, render_effect
from game.language.vocabulary import SCORE_CATEGORY_NAMES as CATEGORY_NAMES, automa_score_names
from game.models import Match, MatchSeat
from game.tiebreak import names_list, tie_words

from . import access, clock, moderation, orders, proposals, table
from .errors import InvalidInput, MatchClosed
from .services import LOG_FIELDS, invite_token, load_state, seat_of, snapshot_of, state_at

logger = logging.getLogger(__name__)

LOG_LENGTH = 60
AUTOMA_NAME = "The Automa"  # how the board and the story name the solo opponent
CHAT_LENGTH = 100


def _seat(s):
    return {"seat": s.seat, "user": s.name, "username": s.user.username if s.user else None,
            "controller": s.controller, "level": s.level, "out": s.out or None}


def _creator(match):
    # A match read for a decision carries its creator's name, not the creator's row.
    return match.__dict__.get("creator_name") or match.creator.username


def page_key(match, seats=None):
    """What the server draws into the match page itself (the ending, the action buttons, who left, the rematch):
    the page reloads when the key its data carries differs from the one it was drawn with."""
    rematch = getattr(match, "rematch", None) if match.status == Match.Status.FINISHED else None
    seats = ",".join(f"{s.controller}:{s.out or ''}" for s in (match.seats.all() if seats is None else seats))
    return f"{match.status}|{rematch.public_id if rematch else ''}|{'first' if match.version == 0 else ''}|{seats}"


def summary(match, user=None):
    rows = list(match.seats.all())
    seats = [_seat(s) for s in rows]
    your_seat = seat_of(match, user) if user is not None else None
    rematch = getattr(match, "rematch", None) if match.status == Match.Status.FINISHED else None
    return {
        "id": match.public_id, "url": match.get_absolute_url(), "status": match.status,
        "status_text": match.get_status_display(), "players": match.players, "academy": match.academy,
        "updated": match.updated, "version": match.version, "creator": _creator(match),
        "created": match.created.isoformat(), "seats": seats, "your_seat": your_seat,
        "days_per_move": match.days_per_move, "on_timeout": match.on_timeout, "private": match.private,
        "rated": match.rated, "min_rating": match.min_rating, "bot_fill": match.bot_fill,
        "to_move": match.to_move, "deadline": match.deadline.isoformat() if match.deadline else None,
        "ending": match.ending or None, "places": match.places,
        "rematch_of": rematch_of(match), "rematch": rematch.public_id if rematch else None,
        "page_key": page_key(match, rows),
        "clock": clock.summary_json(match, rows),
    }


def rematch_of(match):
    """The public id of the match this one is a rematch of (read with the match where it was: `readable()`)."""
    if match.rematch_of_id is None:
        return None
    if hasattr(match, "rematch_of_public"):
        return match.rematch_of_public
    return match.rematch_of.public_id


def invite_url(match):
    return reverse("match-invite", args=[invite_token(match)])


def chat_json(match, viewer=None):
    """The chat's newest lines as `viewer` is shown them (game/matches/moderation.py: none taken down, none by a
    player they muted)."""
    has_chat = match.__dict__.get("has_chat")  # read with the match (True/False, or 1/0 from SQLite)
    if has_chat is not None and not has_chat:  # no one has written: nothing to read
        return []
    lines = list(moderation.visible_lines(match, viewer).select_related("user").order_by("-created", "-id")
                 [:CHAT_LENGTH])
    return [{"id": m.pk, "user": m.user.username, "text": m.text, "created": m.created.isoformat()}
            for m in reversed(lines)]


def ending(match):
    """How a finished match ended, in words and numbers: the ranking, the winner, the tiebreak, and each
    category of the final scoring (when the game was played to its end)."""
    if match.status == Match.Status.FINISHED and match.ending == Match.Ending.ABANDONED:
        return {"headline": "The match was abandoned: every player agreed to stop. Nobody wins, and no rating "
                            "changes.", "winners": [], "ranking": [], "notes": [], "names": [], "rows": [],
                "totals": [], "places": [], "abandoned": True}
    if match.status != Match.Status.FINISHED or not match.places:
        return None
    seats = [{"seat": s.seat, "name": s.name, "out": s.get_out_display() if s.out else ""}
             for s in match.seats.all()]
    result = (match.state or {}).get("result")
    places = list(match.places)
    automa = None
    if result and len(result["scores"]) > len(seats):  # a solo game: the Automa is scored after the player
        automa = len(seats)
        seats.append({"seat": automa, "name": AUTOMA_NAME, "out": "", "automa": True})
        places = result["places"]
    ranking = []
    for s in sorted(seats, key=lambda s: (places[s["seat"]], s["seat"])):
        line = dict(s, place=places[s["seat"]])
        if result:
            line["total"] = result["scores"][s["seat"]]["total"]
            line["dragons"] = n = result["dragons"][s["seat"]]
            # She has no mat: her dragons are the cards she took (and they break no tie).
            line["dragon_words"] = (f"{n} dragon card{'s' if n != 1 else ''} taken" if s.get("automa")
                                    else f"{n} dragon{'s' if n != 1 else ''} on the mat")
        ranking.append(line)
    winners = [line["name"] for line in ranking if line["place"] == 1]
    if match.ending == Match.Ending.LAST_STANDING:
        headline = f"{names_list(winners)} wins: every other player left the match."
    elif len(winners) > 1:
        headline = f"{names_list(winners)} share the win with {ranking[0]['total']} VP each."
    else:
        headline = f"{winners[0]} wins with {ranking[0]['total']} VP."
    notes = []
    if result:  # those who left are placed below, whatever their score: they tie with no one
        notes = tie_words([{"name": line["name"], "total": line["total"], "dragons": line["dragons"],
                            "automa": bool(line.get("automa"))} for line in ranking if not line["out"]])
    for line in ranking:
        if line["out"]:
            notes.append(f"{line['name']} left the match ({line['out'].lower()}) and is placed below everyone "
                         f"who stayed, whatever the score.")
    rows = []
    if result:
        rows = _score_rows(result, seats, automa)
    return {"headline": headline, "winners": winners, "ranking": ranking, "notes": notes,
            "names": [s["name"] for s in seats], "rows": rows,
            "totals": [result["scores"][s["seat"]]["total"] for s in seats] if result else [],
            "places": [places[s["seat"]] for s in seats]}


def _score_rows(result, seats, automa=None):
    """The final scoring table's rows: each category of the players' mats, then (a solo game) each part of the
    Automa's score in her own words. A cell is None where a category is not that line's: she has no mat, and no
    player scores her parts."""
    rows = [{"key": key, "label": label, "automa": False,
             "values": [None if s["seat"] == automa else result["scores"][s["seat"]][key] for s in seats]}
            for key, label in CATEGORY_NAMES.items()]
    if automa is None:
        return rows
    for key, label in automa_score_names((result.get("automa") or {}).get("ravel")).items():
        rows.append({"key": key, "label": f"Automa: {label}", "automa": True,
                     "values": [result["scores"][automa][key] if s["seat"] == automa else None for s in seats]})
    return rows


def _recorded_events(match, decisions):
    """The events of each decision, by number (0: the setup). Decisions stored before events were kept, and the
    setup, are replayed by the engine from the match's options, seed and log."""
    events = {d.number: d.events for d in decisions}
    first = decisions[0].number if decisions else 1
    if first > 1 and all(e is not None for e in events.values()):
        return events
    missing = [n for n, e in events.items() if e is None]
    if not missing and first <= 1:
        events[0] = _setup_events(match)
        return {n: e or [] for n, e in events.items()}
    engine = snapshot_of(match).engine
    try:
        state = GameState.new(engine, **match.engine_options())  # a solo match's Automa too
        if first <= 1:
            events[0] = state.events
        if missing:
            for d in match.decisions.filter(number__lte=max(missing)).order_by("number"):
                caused = state.apply(Option(d.kind, tuple(d.args)))
                if events.get(d.number, ()) is None:
                    events[d.number] = caused
    except ValueError:  # an old log the engine no longer plays: its decisions are told without events
        logger.exception("match %s: its log does not replay; its story is incomplete", match.pk)
    return {n: e or [] for n, e in events.items()}


KEEP_TOLD = 20000  # decisions told per process (about 1 kB each): every live match's last page for each seat
_told = OrderedDict()  # (what, seat, names) -> the lines of one decision's events, as `_tell` makes them
_told_lock = threading.Lock()


def _remember(key, make):
    """`make()`, kept under `key` in the small per-process store of told events (least recently used goes)."""
    with _told_lock:
        found = _told.get(key)
        if found is not None:
            _told.move_to_end(key)
            return found
    found = make()
    with _told_lock:
        _told[key] = found
        while len(_told) > KEEP_TOLD:
            _told.popitem(last=False)
    return found


def _peek(key):
    with _told_lock:
        return _told.get(key)


def _setup_events(match):
    """The events of dealing the match, which only its catalogue and setup options decide (a page shows them until
    the log is longer than a page): dealt once per process, not on every view."""
    snapshot = snapshot_of(match)
    options = match.engine_options()  # a solo match's Automa too
    key = ("setup", snapshot.digest, repr(sorted(options.items())))

    def deal():
        try:
            return GameState.new(snapshot.engine, **options).events
        except ValueError:  # a setup the engine no longer deals: the story starts without it
            logger.exception("match %s: its setup does not deal again; its story is incomplete", match.pk)
            return []
    return _remember(key, deal)


def _tell(events, seat, names):
    """Each event of one decision as `seat` may see it, told: (kind, seat, round, text, html)."""
    return [(event["e"], event.get("p"), event.get("round"), render_event(event, names),
             render_event_html(event, names)) for event in events_for(events, seat)]


def story_names(match, names, known):
    """How the story names players (seat -> name) and cards (from the match's catalogue). Its `key` says all it
    depends on, so the story may keep what it told with these names."""
    players = [names.get(i, "") for i in range(match.players)]
    if match.players == 1:
        players.append(AUTOMA_NAME)  # her seat in the engine's result, after the player's
    told = Names(players, dragon=lambda i: known["dragons"][i]["name"],
                 cave=lambda i: f"cave card {known['caves'][i]['number']}")
    told.key = (snapshot_of(match).digest, tuple(players))
    return told


def replay_entry(match, decision, seat, names, known):
    """One decision of the replay, told as the story tells it to `seat` (what it caused, secrets kept)."""
    lines = [line["text"] for group in story(match, [decision], seat, story_names(match, names, known))
             for line in group["lines"] if line["decision"] == decision.number]
    if not lines:
        lines = [decision.label if decision.seat == seat else "A choice."]
    return {"number": decision.number, "seat": decision.seat, "player": names.get(decision.seat, ""),
            "label": " ".join(lines)}


STORY_FIELDS = ("match",) + LOG_FIELDS


def story(match, decisions, seat, names):
    """The log for `seat` (None: a spectator), grouped by turn and round: each group has a title and the sentences
    of what happened, in plain text and HTML, each with the decision that caused it (0: the setup).

    A decision's events never change once stored, so their sentences are told once per process and seat: the key
    is the decision's link in the match's hash chain (which names the setup and every decision up to it) with the
    names the story uses."""
    by_order = {d.number for d in decisions if d.by_order}
    links = {d.number: d.link for d in decisions} if getattr(names, "key", None) else {}
    setup = ("setup", match.pk, match.seed) if links else None
    numbers = ([0] if links and decisions[0].number <= 1 else []) + sorted(links)
    def where(number):  # the key of a decision's told lines (None: not kept)
        return setup if number == 0 else links.get(number) or None

    fresh = match.__dict__.get("_events_in_hand", {})  # stored by this request, or read with the log page
    kept = {n: _peek((where(n), seat, names.key)) if where(n) else None for n in numbers}  # told before
    untold = [n for n in numbers if kept[n] is None]
    recorded = None
    if links:
        # Only the events of decisions not told before are needed: those this request stored are in hand, the
        # setup is dealt once per process, the rest are read (usually the newest one or two, not the page).
        need = [n for n in untold if n and n not in fresh]
        read = dict(match.decisions.filter(number__in=need).order_by().values_list("number", "events")) if need else {}
        if all(read.get(n) is not None for n in need):  # else a decision stored before events were: replay below
            recorded = dict.fromkeys(numbers)
            recorded.update((n, fresh[n]) for n in untold if n in fresh)
            recorded.update(read)
            if 0 in untold:
                recorded[0] = _setup_events(match)
    if recorded is None:
        for d in decisions:
            if d.number in fresh and "events" in d.get_deferred_fields():
                d.events = fresh[d.number]
        if any("events" in d.get_deferred_fields() for d in decisions):  # read without them, in the hope above
            decisions = list(match.decisions.filter(number__in=[d.number for d in decisions]).order_by("number"))
        recorded = _recorded_events(match, decisions)
    groups = []
    group = None
    rnd = 1
    for number in sorted(recorded):
        events = recorded[number]
        told = kept.get(number)
        if told is None:
            told = _remember((where(number), seat, names.key), lambda: _tell(events, seat, names)) \
                if where(number) else _tell(events, seat, names)
        for kind, player, event_round, text, html in told:
            rnd = event_round if event_round is not None else rnd
            if kind in ("turn", "round_ended") or group is None:
                if kind == "turn":
                    title = f"Round {rnd}: {names.player(player)}'s turn"
                elif kind == "round_ended":
                    title = f"End of round {rnd}"
                else:
                    title = "Setup" if number == 0 else "Earlier"
                group = {"title": title, "round": rnd, "seat": player if kind == "turn" else None, "lines": []}
                groups.append(group)
                if kind == "turn":
                    continue
            line = {"decision": number, "kind": kind, "seat": player, "text": text, "html": html}
            if number in by_order and kind == "share":  # the answer an order gave, said as such
                line["order"] = True
                line["text"] = f"{line['text'][:-1]} ({orders.NOTE})."
                line["html"] = f"{line['html'][:-1]} ({orders.NOTE})."
            group["lines"].append(line)
    return [g for g in groups if g["lines"] or g["seat"] is not None]


LEFT_WORDS = {  # how the story tells a seat's leaving
    MatchSeat.Out.RESIGNED: "{name} resigned.",
    MatchSeat.Out.TIMEOUT: "{name} ran out of time and forfeited.",
}
ENDING_WORDS = {  # why the match ended
    Match.Ending.SCORED: "The match ended: the game was played to its end and scored.",
    Match.Ending.LAST_STANDING: "The match ended: every other player left.",
    Match.Ending.ABORTED: "The match was aborted before the first move.",
    Match.Ending.ABANDONED: "The match was abandoned: every player agreed to stop. Nobody wins; no rating changes.",
}


def leaving_story(match, seats):
    """What the engine's log cannot tell, since it is no decision: who left the match and how, who handed their seat
    to a bot by running out of time, and why the match ended. One group after the story, or none."""
    def line(seat, text):
        return {"decision": match.version, "kind": "left", "seat": seat, "text": text, "html": escape(text)}
    lines = []
    left = sorted((s for s in seats if s.out), key=lambda s: (s.out_at is None, s.out_at or match.created, s.seat))
    for s in left + [s for s in seats if not s.out]:
        if s.out:
            lines.append(line(s.seat, LEFT_WORDS[s.out].format(name=s.name)))
        elif s.user is not None and s.controller == s.Controller.BOT:
            lines.append(line(s.seat, f"{s.user.username} ran out of time; a bot plays on for them."))
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED) and match.ending in ENDING_WORDS:
        lines.append(line(None, ENDING_WORDS[match.ending]))
    if not lines:
        return []
    ended = match.status in (Match.Status.FINISHED, Match.Status.ABORTED)
    return [{"title": "The end of the match" if ended else "Left the match", "round": None, "seat": None,
             "lines": lines}]


def _shown_cards(view):
    dragons, caves = set(), set()
    for pl in view["players"]:
        dragons.update(pl["hand"] or ())
        caves.update(pl["cave_cards"] or ())
        for space in pl["mat"]:
            if space["dragon"] is not None:
                dragons.add(space["dragon"])
            if space["cave_card"] is not None:
                caves.add(space["cave_card"])
    dragons.update(view["display"]["dragons"])
    caves.update(view["display"]["caves"])
    dragons.update(view["discards"]["dragons"])
    caves.update(view["discards"]["caves"])
    dragons.update(view["revealed"])
    if view.get("automa"):  # a solo game: the cards the Automa took lie face up by her
        dragons.update(view["automa"]["dragon_cards"])
        caves.update(view["automa"]["cave_cards"])
    dragons.discard(None)
    caves.discard(None)
    return dragons, caves


def drawing(view, snapshot):
    """What the drawn table needs beside a `view_for`: the printed board facts, the cards the view shows, the guild
    tile's rows and the objective tiles' words (static/table.js draws them; the match page and the analysis board
    both). Only cards the view names are described, so nothing hidden is told."""
    known = board_cards(None, snapshot)
    dragons, caves = _shown_cards(view)
    return {
        "board": table.board_facts(None, snapshot),
        "cards": {"dragons": {i: known["dragons"][i] for i in sorted(dragons)},
                  "caves": {i: known["caves"][i] for i in sorted(caves)}},
        "guild_rows": known["guild_rows"].get(view["guild"]["tile_number"], []),
        "guild_complete": known["guild_complete"].get(view["guild"]["tile_number"], True),
        "objective_texts": [known["objectives"].get(o["tile"], {}).get(o["side"], "") for o in view["objectives"]],
    }


def match_json(match, user):
    """The whole page's data for `user` (a spectator when not seated)."""
    data = summary(match, user)
    seat = data["your_seat"]
    names = {s["seat"]: s["user"] for s in data["seats"]}
    state = load_state(match)
    data["view"] = None
    data["cards"] = {"dragons": {}, "caves": {}}
    data["your_turn"] = False
    if state is not None:
        view = view_for(state, seat)
        if match.status != Match.Status.PLAYING and view["pending"] is not None:
            # A match that ended (resigned, timed out, aborted) may stop at a question: nobody answers it now.
            view["pending"].pop("options", None)
        data["view"] = table.with_extras(state, view)
        data["your_turn"] = match.status == Match.Status.PLAYING and view["pending"] is not None \
            and view["pending"]["player"] == seat
        data.update(drawing(view, snapshot_of(match)))
    data["log"] = []
    data["your_last_decision"] = None
    if state is not None:
        known = board_cards(match.catalogue_id, snapshot_of(match))
        who = story_names(match, names, known)
        # Only what the story reads of each, without events: it has told most before and reads events if it must.
        decisions = match.__dict__.get("log_page")  # read with the match (services.read_match)
        if decisions is None:
            decisions = list(match.decisions.only(*STORY_FIELDS).order_by("-number")[:LOG_LENGTH])[::-1]
        data["log"] = story(match, decisions, seat, who)
        if seat is not None:
            # What is new to a player since they last played, on any device: the board marks the log after the
            # later of this and what the browser showed last. 0: they have not chosen on this page of the log. An
            # answer a standing order gave for them is not theirs: they have not seen it.
            data["your_last_decision"] = max((d.number for d in decisions if d.seat == seat
                                              and not d.by_order), default=0)
    data["proposal"], taken_back, data["proposal_key"] = proposals.shown(match, user)
    if taken_back:  # no decision of the log says so: told after the story, as a leaving is
        data["log"].append({"title": "Moves taken back", "round": None, "seat": None, "lines": taken_back})
    data["log"] += leaving_story(match, match.seats.all())
    data["chat"] = chat_json(match, user)
    data["ending_words"] = ending(match)
    if seat is not None and match.status == Match.Status.OPEN:
        data["invite_url"] = invite_url(match)
    if seat is not None and match.private:
        data["watch_url"] = access.watch_url(match)  # a private match is watched only by its link
    return data


def moved_json(match, user):
    """The short answer to a move asked for with `Prefer: return=minimal`: the match's summary and whether it is
    your turn, read from what the service left (nothing is queried, nothing of the state is shown). The board asks for
    the whole view next, with the poll it makes anyway, so a move's view is built once, not twice."""
    data = summary(match, user)
    data["your_turn"] = match.status == Match.Status.PLAYING and data["your_seat"] is not None and \
        match.to_move == data["your_seat"]
    return data


def options_json(match, user):
    """The requesting player's legal options, when the game waits for them; an empty list otherwise."""
    seat = seat_of(match, user)
    state = load_state(match)
    pending = state.pending if state is not None and match.status == Match.Status.PLAYING else None
    mine = pending is not None and seat is not None and pending.player == seat
    return {"version": match.version, "your_turn": mine, "prompt": pending.prompt if mine else None,
            "kind": pending.kind if mine else None, "data": plain(pending.data) if mine else None,
            "options": [option_json(state, o) for o in pending.options] if mine else []}


def board_cards(catalogue_id, snapshot=None):
    """Per card index of a match's catalogue: what the board shows (names, costs, ability text in our words), and
    the tiles; built once per catalogue. (Pass the match's `snapshot_of` when at hand: no query then.)"""
    return (snapshot or catalogue.frozen(catalogue_id)).view("board", _board_cards)


def _board_cards(snapshot):
    data = snapshot.data
    return {
        "dragons": [_dragon_card(r) for r in data["dragons"]],
        "caves": [_cave_card(r) for r in data["caves"]],
        "guild_rows": {t["number"]: [{"squares": row["squares"], "end_game": row["end_game"],
                                      "text": render_effect(row["effect"])} for row in t["rows"]]
                       for t in data["guild_tiles"]},
        "guild_complete": {t["number"]: t.get("complete", True) for t in data["guild_tiles"]},
        "objectives": {t["number"]: {side: render_counter(s["counts"]) for side, s in t["sides"].items()}
                       for t in data["objective_tiles"]},
    }


def _dragon_card(record):
    cost = {k: v for k, v in (record.get("cost") or {}).items() if v}
    return {"number": record["number"], "name": record.get("name", ""), "printing": record.get("printing", "original"),
            "vp": record.get("vp", 0), "size": record.get("size", ""), "trait": record.get("trait", ""),
            "capacity": record.get("capacity", 0), "cost": cost,
            "habitats": [CAVES.index(h) for h in record.get("habitats", ())],
            "text": render_abilities(record.get("abilities") or [], card=record),
            "url": f"/cards/dragons/{record['number']}/"}


def _cave_card(record):
    return {"number": record["number"], "printing": record.get("printing", "original"),
            "text": render_abilities(record.get("abilities") or [], card=record),
            "url": f"/cards/caves/{record['number']}/"}


def replay_json(match, user, number):
    """The table after the first `number` decisions, as `user` may see it (their own hand then, never another's),
    with the decision that led there: one step of the replay viewer."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= match.version:
        raise InvalidInput("number", f"expected a step from 0 to {match.version}")
    if match.state is None:
        raise MatchClosed("this match has not started yet")
    load_state(match)  # a damaged match is refused, its replay too
    seat = seat_of(match, user)
    view = view_for(state_at(match, number), seat)
    view["options"].pop("seed", None)
    if view["pending"] is not None:
        view["pending"].pop("options", None)  # a replay shows what was, not what may be chosen
    known = board_cards(match.catalogue_id, snapshot_of(match))
    dragons, caves = _shown_cards(view)
    names = {s.seat: s.name for s in match.seats.all()}
    decision = match.decisions.filter(number=number).first() if number else None
    return {"number": number, "last": match.version, "view": view,
            "cards": {"dragons": {i: known["dragons"][i] for i in sorted(dragons)},
                      "caves": {i: known["caves"][i] for i in sorted(caves)}},
            "entry": replay_entry(match, decision, seat, names, known) if decision else None}
