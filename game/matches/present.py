"""What a user sees of a match, as JSON: the summary, the engine's `view_for` their seat, the cards that view
shows, and the log. Nothing here reads the state except through `view_for`, so hidden hands stay hidden."""
from game import catalogue
from game.engine.catalogue import CAVES
from game.engine.effects.render import render_abilities, render_counter, render_effect
from game.engine.view import view_for

from .services import load_state, seat_of

LOG_LENGTH = 60


def summary(match, user=None):
    seats = [{"seat": s.seat, "user": s.user.username} for s in match.seats.all()]
    your_seat = seat_of(match, user) if user is not None else None
    return {
        "id": match.pk, "url": match.get_absolute_url(), "status": match.status,
        "status_text": match.get_status_display(), "players": match.players, "academy": match.academy,
        "updated": match.updated, "version": match.version, "creator": match.creator.username,
        "created": match.created.isoformat(), "seats": seats, "your_seat": your_seat,
    }


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
