"""What a user sees of a match, as JSON: the summary, the engine's `view_for` their seat, the cards that view
shows, and the log. Nothing here reads the state except through `view_for`, so hidden hands stay hidden."""
from django.urls import reverse

from game import catalogue
from game.engine.catalogue import CAVES
from game.engine.effects.render import render_abilities, render_counter, render_effect
from game.language.vocabulary import SCORE_CATEGORY_NAMES as CATEGORY_NAMES
from game.engine.view import view_for
from game.models import Match

from .services import invite_token, load_state, seat_of

LOG_LENGTH = 60
CHAT_LENGTH = 100


def _seat(s):
    return {"seat": s.seat, "user": s.name, "username": s.user.username if s.user else None,
            "controller": s.controller, "level": s.level, "out": s.out or None}


def summary(match, user=None):
    seats = [_seat(s) for s in match.seats.all()]
    your_seat = seat_of(match, user) if user is not None else None
    rematch = getattr(match, "rematch", None) if match.status == Match.Status.FINISHED else None
    return {
        "id": match.pk, "url": match.get_absolute_url(), "status": match.status,
        "status_text": match.get_status_display(), "players": match.players, "academy": match.academy,
        "updated": match.updated, "version": match.version, "creator": match.creator.username,
        "created": match.created.isoformat(), "seats": seats, "your_seat": your_seat,
        "days_per_move": match.days_per_move, "on_timeout": match.on_timeout, "private": match.private,
        "to_move": match.to_move, "deadline": match.deadline.isoformat() if match.deadline else None,
        "ending": match.ending or None, "places": match.places,
        "rematch_of": match.rematch_of_id, "rematch": rematch.pk if rematch else None,
    }


def invite_url(match):
    return reverse("match-invite", args=[invite_token(match)])


def chat_json(match):
    lines = list(match.chat.select_related("user").order_by("-created", "-id")[:CHAT_LENGTH])
    return [{"id": m.pk, "user": m.user.username, "text": m.text, "created": m.created.isoformat()}
            for m in reversed(lines)]


def _names(names):
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ending(match):
    """How a finished match ended, in words and numbers: the ranking, the winner, the tiebreak, and each
    category of the final scoring (when the game was played to its end)."""
    if match.status != Match.Status.FINISHED or not match.places:
        return None
    seats = list(match.seats.all())
    result = (match.state or {}).get("result")
    places = match.places
    ranking = []
    for s in sorted(seats, key=lambda s: (places[s.seat], s.seat)):
        line = {"seat": s.seat, "name": s.name, "place": places[s.seat], "out": s.get_out_display() if s.out else ""}
        if result:
            line["total"] = result["scores"][s.seat]["total"]
            line["dragons"] = result["dragons"][s.seat]
        ranking.append(line)
    winners = [line["name"] for line in ranking if line["place"] == 1]
    if match.ending == Match.Ending.LAST_STANDING:
        headline = f"{_names(winners)} wins: every other player left the match."
    elif len(winners) > 1:
        headline = f"{_names(winners)} share the win with {ranking[0]['total']} VP each."
    else:
        headline = f"{winners[0]} wins with {ranking[0]['total']} VP."
    notes = []
    if result:
        notes = _tiebreak_words([line for line in ranking if not line["out"]])
    for line in ranking:
        if line["out"]:
            notes.append(f"{line['name']} left the match ({line['out'].lower()}) and is placed below everyone "
                         f"who stayed, whatever the score.")
    rows = []
    if result:
        rows = [{"key": key, "label": label, "values": [result["scores"][s.seat][key] for s in seats]}
                for key, label in CATEGORY_NAMES.items()]
    return {"headline": headline, "winners": winners, "ranking": ranking, "notes": notes,
            "names": [s.name for s in seats], "rows": rows,
            "totals": [result["scores"][s.seat]["total"] for s in seats] if result else [],
            "places": [places[s.seat] for s in seats]}


def _tiebreak_words(lines):
    """A sentence for every tie on VP: who won it on dragons on the mat, or who shares the place."""
    words = []
    by_total = {}
    for line in lines:
        by_total.setdefault(line["total"], []).append(line)
    for total, group in sorted(by_total.items(), reverse=True):
        if len(group) < 2:
            continue
        names = _names([line["name"] for line in group])
        most = max(line["dragons"] for line in group)
        leaders = [line["name"] for line in group if line["dragons"] == most]
        counts = ", ".join(f"{line['name']} {line['dragons']}" for line in group)
        if len(leaders) == len(group):
            words.append(f"{names} tie on {total} VP and on dragons on the mat ({most} each), so they share "
                         f"the place.")
        else:
            words.append(f"{names} tie on {total} VP; the tie is broken by the most dragons on the mat "
                         f"({counts}), so {_names(leaders)} place{'s' if len(leaders) == 1 else ''} higher.")
    return words


def _hidden_to_others(decision):
    """Cards tucked from a hand go face down: others learn that a card was tucked, not which."""
    if decision.kind == "tuck" and decision.args and decision.args[0] != -1:
        return True
    return decision.kind == "pick" and "tuck" in decision.prompt.lower()


def log_entry(decision, seat, names):
    label = decision.label
    if decision.seat != seat and _hidden_to_others(decision):
        label = "Tuck a card from their hand (face down)"
    return {"number": decision.number, "seat": decision.seat, "player": names.get(decision.seat, ""),
            "label": label}


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
    dragons.discard(None)
    caves.discard(None)
    return dragons, caves


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
        # The seed with the public log would let anyone replay every shuffle and read every hand and the decks.
        view["options"].pop("seed", None)
        data["view"] = view
        data["your_turn"] = view["pending"] is not None and view["pending"]["player"] == seat
        known = board_cards(match.catalogue_id)
        dragons, caves = _shown_cards(view)
        data["cards"] = {"dragons": {i: known["dragons"][i] for i in sorted(dragons)},
                         "caves": {i: known["caves"][i] for i in sorted(caves)}}
        data["guild_rows"] = known["guild_rows"].get(view["guild"]["tile_number"], [])
        data["guild_complete"] = known["guild_complete"].get(view["guild"]["tile_number"], True)
        data["objective_texts"] = [known["objectives"].get(o["tile"], {}).get(o["side"], "")
                                   for o in view["objectives"]]
    decisions = list(match.decisions.order_by("-number")[:LOG_LENGTH])
    data["log"] = [log_entry(d, seat, names) for d in reversed(decisions)]
    data["chat"] = chat_json(match)
    data["ending_words"] = ending(match)
    if seat is not None and match.status == Match.Status.OPEN:
        data["invite_url"] = invite_url(match)
    return data


def options_json(match, user):
    """The requesting player's legal options, when the game waits for them; an empty list otherwise."""
    seat = seat_of(match, user)
    state = load_state(match)
    pending = state.pending if state is not None else None
    mine = pending is not None and seat is not None and pending.player == seat
    return {"version": match.version, "your_turn": mine, "prompt": pending.prompt if mine else None,
            "options": [dict(o.to_dict(), label=state.label(o)) for o in pending.options] if mine else []}


def board_cards(catalogue_id):
    """Per card index of a match's catalogue: what the board shows (names, costs, ability text in our words), and
    the tiles; built once per catalogue."""
    return catalogue.frozen(catalogue_id).view("board", _board_cards)


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
