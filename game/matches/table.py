"""The table as the board page draws it, and a turn tried out before it is sent.

`board_facts` is what is printed on the game's pieces (mat icons, column egg costs, the guild track, objective VP):
public, from the catalogue, built once per catalogue. `option_extras` tells the page what an option costs, gives and
points at on the table. `preview` applies the choices staged in a turn to a copy of the state that is never saved,
and shows the result only while nothing hidden was revealed and no other player must answer: past that point the
turn must be sent as it is, so it cannot be undone to fish for a better card.
"""
from game import catalogue
from game.engine.catalogue import CAVES, RESOURCES
from game.engine.decisions import IllegalDecision, MalformedDecision, Option
from game.engine.determinize import determinize
from game.engine.model import COLUMNS, NEST
from game.engine.view import view_for
from game.language.render import render_effect
from game.models import Match

from .errors import InvalidInput, MatchClosed, NotSeated, NotYourTurn, StaleMatch
from .services import load_state, seat_of
from .stops import TurnSteps

MAX_STAGED = 60
ICON_OF = {"dragon": "dragon", "cave": "cave", "card": "card", "guild": "guild", "coin": "coin", "egg": "egg",
           "vp": "vp", "any_resource": "any-resource", **{r: r for r in RESOURCES}}


def _icon(effect):
    """The picture that stands for a printed benefit: what it gives, or what it lays or caches."""
    if not effect:
        return None
    do = effect.get("do")
    if do == "lay_egg":
        return "egg"
    if do in ("gain", "cache"):
        return ICON_OF.get(effect.get("item"), "any-resource")
    if do == "tuck":
        return "card"
    return "any-resource"


def _printed(effect):
    return {"text": render_effect(effect) if effect else "", "icon": _icon(effect)}


def board_facts(catalogue_id, snapshot=None):
    """What is printed on the mat, the guild track and the round tracker of this catalogue (pass the match's
    catalogue snapshot when at hand: no query then)."""
    return (snapshot or catalogue.frozen(catalogue_id)).view("table", _board_facts)


def _board_facts(snapshot):
    cat = snapshot.engine
    # The walk's path through a cave: an icon before space 1, the guild before space 2, an icon before space 3,
    # an egg before space 4 and the cave's end benefit after it.
    mat = [{"name": name, "before": [_printed(cat.mat_icons[c][k]) for k in range(4)],
            "end": _printed(cat.mat_icons[c][4])} for c, name in enumerate(CAVES)]
    return {
        "mat": mat,
        "excavate_eggs": list(cat.excavate_eggs), "excavate_coins": cat.excavate_coins,
        "entice_coins": cat.entice_coins,
        "explore_costs": [{"coin": c, "egg": e} for c, e in cat.explore_costs], "mat_nests": cat.mat_nests,
        "column_4": render_effect(cat.column_4_effect) if cat.column_4_effect else "",
        "guild_track": [dict(_printed(effect), brown=effect is None) for effect in cat.guild_spaces],
        "guild_start": cat.guild_start, "guild_end_vp": list(cat.guild_end_vp),
        "objective_vp": [cat.objective_vp.get(r, []) for r in range(1, cat.rounds + 1)],
        "exchange": {"give": cat.exchange_give, "get": cat.exchange_get},
        "income": render_effect(cat.income_effect),
        # Dragon Academy: the income spaces of the round tracker, per round (a round without any has none)
        "academy_income": [[render_effect(effect) for effect in cat.academy_income.get(r, ())]
                           for r in range(1, cat.rounds + 1)],
    }


# -- options: what each costs, gives and points at ----------------------------------------------------------------

def _next_space(pl, cave, want_empty):
    for col in range(COLUMNS):
        i = cave * COLUMNS + col
        space = pl.spaces[i]
        if want_empty and pl.excavated(i) and space.dragon is None:
            return i
        if not want_empty and not pl.excavated(i):
            return i
    return None


def _fallback_info(state, option):
    """Costs and gains of the main actions, from the board facts, until the engine's `option_info` is there."""
    cat = state.cat
    pl = state.players[state.pending.player]
    kind, args = option.kind, option.args
    cost, gain = {}, {}
    try:
        if kind == "entice":
            card = cat.dragons[args[0]]
            cost = {"coin": cat.entice_coins + card.coin_cost}
            cost.update({r: n for r, n in zip(RESOURCES, card.res_cost) if n})
            if card.egg_cost:
                cost["egg"] = card.egg_cost
            gain = {"vp": card.vp}
        elif kind == "excavate":
            index = _next_space(pl, args[1], want_empty=False)
            cost = {"coin": cat.excavate_coins}
            if index is not None and cat.excavate_eggs[index % COLUMNS]:
                cost["egg"] = cat.excavate_eggs[index % COLUMNS]
        elif kind == "explore":
            coins, eggs = cat.explore_costs[pl.explored[args[0]]]
            cost = {"coin": coins, **({"egg": eggs} if eggs else {})}
    except (IndexError, TypeError):
        pass
    return {"cost": cost, "gain": gain}


def _target(state, option, info):
    """Where on the table an option is pointed at: a hand card, a mat space, a cave row, a display card, a guild
    square. None when it is only a button."""
    pl = state.players[state.pending.player]
    kind, args = option.kind, option.args
    try:
        if kind == "entice":
            return {"hand": ["dragon", args[0]], "space": _next_space(pl, args[1], want_empty=True)}
        if kind == "excavate" and args[0] != -1:
            return {"hand": ["cave", args[0]], "space": _next_space(pl, args[1], want_empty=False)}
        if kind == "explore":
            return {"cave": args[0]}
        if kind == "egg_on":
            return {"space": args[0]} if args[0] != NEST else {"nest": True}
        if kind in ("cache", "tuck") or (kind == "pay" and args and args[0] == "egg"):
            return {"space": args[-1]} if args[-1] != NEST else {"nest": True}
        if kind == "take" and args[0] == "display":
            # Which row of the display (dragons or caves) the option does not say; the engine's option_info does.
            card = info.get("card") or {}
            return {"display": [card["type"], args[1]]} if card.get("type") in ("dragon", "cave") else None
        if kind == "marker":
            return {"guild": [args[0], args[1]]}
    except (IndexError, TypeError):
        return None
    return None


ANSWERS = frozenset({"yes"})  # answers whose price is the effect they accept, which the option itself does not name


def _holdings(pl):
    return {"coin": pl.coins, **{r: pl.res[i] for i, r in enumerate(RESOURCES)}, "egg": pl.eggs(),
            "dragon": len(pl.hand), "cave": len(pl.caves)}


TRY_WORLDS = (1, 2, 3)  # seeds of the worlds an answer is tried in: fixed, so a page shows the same every time


def _tried(state, option):
    """What answering `option` takes from and gives to its player at once, as far as that player can know: tried
    in a few worlds dealt from what the player sees (`determinize`: other hands, deck order, tucked cards dealt
    again), never in the real one, and only the counts every world agrees on. Tried on the real state, an ability
    whose yield a hidden card decides ("gain 1 meat per meat on the top card of the deck") would show that card's
    worth before the player chose."""
    seat = state.pending.player
    agreed = None
    for seed in TRY_WORLDS:
        trial = determinize(state, seat, seed)
        trial.events = None
        before = _holdings(trial.players[seat])
        trial.apply(option)
        after = _holdings(trial.players[seat])
        change = {item: after[item] - n for item, n in before.items() if after[item] != n}
        agreed = change if agreed is None else {item: n for item, n in agreed.items() if change.get(item) == n}
    return ({item: -n for item, n in agreed.items() if n < 0}, {item: n for item, n in agreed.items() if n > 0})


def option_extras(state, option):
    """What the page needs beside the option's kind and label: cost, gain and where it points on the table."""
    info_of = getattr(state, "option_info", None)
    info = info_of(option) if info_of is not None else _fallback_info(state, option)
    cost, gain = dict(info.get("cost") or {}), dict(info.get("gain") or {})
    if option.kind in ANSWERS and not cost and not gain:
        cost, gain = _tried(state, option)
    return {"cost": cost, "gain": gain, "target": _target(state, option, info)}


def with_extras(state, view):
    """Add costs, gains and targets to the pending options a `view_for` already lists (it lists them only to their
    player, so this adds nothing another player could not see)."""
    pending = view.get("pending")
    if pending and pending.get("options") is not None:
        for shown, option in zip(pending["options"], state.pending.options):
            shown.update(option_extras(state, option))
    return view


# -- a turn tried out before it is sent ---------------------------------------------------------------------------

def _parse(options):
    if not isinstance(options, list) or not options:
        raise InvalidInput("options", "expected a list of one or more options such as "
                                      '[{"kind": "pass", "args": []}]')
    if len(options) > MAX_STAGED:
        raise InvalidInput("options", f"at most {MAX_STAGED} choices in one turn")
    parsed = []
    for i, data in enumerate(options):
        try:
            parsed.append(Option.from_dict(data))
        except MalformedDecision as exc:
            raise InvalidInput("options", f"choice {i + 1}: {exc}") from None
    return parsed


def preview(match, user, version, options):
    """Try the staged choices of a turn on a copy of the state. Answers `open` (the turn goes on: here is the table
    as it would be, and the next question) or closed with the reason (`reveal`, `turn_over`, `other_player`,
    `game_over`): then the choices must be sent as they are, and nothing past them is shown."""
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidInput("version", "expected a whole number: the match version you chose at")
    staged = _parse(options)
    seat = seat_of(match, user)
    if seat is None:
        raise NotSeated("you do not have a seat at this match")
    if match.status != Match.Status.PLAYING:
        raise MatchClosed("this match is not being played")
    if version != match.version:
        raise StaleMatch(f"the match has moved on to version {match.version} (you chose at version {version}); "
                         f"look again and choose anew")
    state = load_state(match)
    if state.pending is None or state.pending.player != seat:
        raise NotYourTurn("it is not your turn to choose")
    steps = TurnSteps(state, seat)
    for i, option in enumerate(staged):
        if state.pending is None or state.pending.player != seat:
            raise InvalidInput("options", f"choice {i + 1}: the turn was already over before it")
        try:
            _, reason = steps.apply(option)
        except (IllegalDecision, MalformedDecision) as exc:
            raise InvalidInput("options", f"choice {i + 1}: {exc}") from None
        if reason is not None:
            if i != len(staged) - 1:
                raise InvalidInput("options", f"choice {i + 1} ends what can be tried out ({reason}); send the "
                                              f"turn up to it first")
            return {"version": match.version, "open": False, "reason": reason, "staged": len(staged)}
    view = view_for(state, seat)
    view["options"].pop("seed", None)
    return {"version": match.version, "open": True, "reason": None, "staged": len(staged),
            "view": with_extras(state, view)}
