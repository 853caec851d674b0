"""The engine's public doors: a seat's main actions, firing one ability, checkpoints for undo within a turn, and
nothing outside game/engine importing a name that starts with an underscore from it."""
import ast
from pathlib import Path

import pytest

from game.engine.decisions import IllegalDecision, MalformedDecision, Option
from game.engine.model import Player, Space
from game.engine.position import build_position, export_position
from game.engine.state import GameState

from .helpers import real_catalogue

CAT = real_catalogue()
ROOT = Path(__file__).resolve().parents[2]


def number(index):
    return CAT.dragons[index].number


# -- main actions -------------------------------------------------------------------------------------------------

def test_main_actions_of_the_seat_to_act_are_its_pending_options():
    rich = {"meat": 3, "gold": 3, "crystal": 3, "milk": 3}
    st = build_position(CAT, players=[{"hand": [38, 48], "coins": 6, "resources": rich, "nest_eggs": 2}, {}], seed=2)
    assert st.main_actions(0) == st.legal_options()
    assert Option("entice", (next(c.index for c in CAT.dragons if c.number == 48), 0)) in st.main_actions(0)


def test_main_actions_of_another_seat_change_nothing():
    st = build_position(CAT, players=[{}, {"hand": [38], "coins": 0}], seed=2)
    before = st.to_json()
    actions = st.main_actions(1)
    assert st.to_json() == before
    assert not any(o.kind == "entice" for o in actions)  # no coin for the entice action
    assert any(o.kind == "pass" for o in actions)
    with pytest.raises(MalformedDecision):
        st.main_actions(2)


# -- fire ---------------------------------------------------------------------------------------------------------

def test_fire_a_dragon_on_a_space_runs_its_ability_then_the_action_is_asked_again():
    st = build_position(CAT, players=[{"mat": {"crimson_cavern": [{"dragon": 38}]}, "coins": 2}, {}], seed=3)
    assert st.fire(0, 0, 0)
    assert st.pending.player == 0 and {o.kind for o in st.legal_options()} == {"yes", "no"}
    st.apply(Option("yes"))
    assert st.players[0].coins == 4  # Swift Lung Dragon: gain 2 coins
    assert st.at_main_action() and st.stack == [{"t": "turn"}]
    assert st.players[0].spaces[0].dragon in st.players[0].fresh  # just played: waits a turn to be activated


def test_fire_a_card_by_number_and_a_guild_row():
    st = build_position(CAT, players=[{"hand": [56], "nest_eggs": 1}, {}], seed=3, guild_tile=1)
    st.fire(1, ("dragon", 56), 0)  # Hoarding Flyer: gain 1 gold, for the other seat, from the hand
    st.apply(Option("yes"))
    assert st.players[1].res[1] == 1
    st.fire(0, ("guild", 2), 0)  # Plains Guild row 3: gain a coin and lay 2 eggs
    assert st.pending is not None


def test_fire_an_untrained_fledglings_if_activated_ability_offers_training():
    fledgling = next(c for c in CAT.dragons if c.size == "fledgling" and "if_activated" in c.kinds)
    cave = fledgling.habitats[0]
    mat = {["crimson_cavern", "golden_grotto", "amethyst_abyss"][cave]: [{"dragon": fledgling.number}]}
    st = build_position(CAT, players=[{"mat": mat, "resources": {"meat": 3, "gold": 3, "crystal": 3, "milk": 3}},
                                      {}], academy=True, seed=3)
    k = next(i for i, a in enumerate(fledgling.abilities) if a["kind"] == "if_activated")
    assert st.fire(0, cave * 4, k)
    assert st.pending.kind == "use_ability" and st.pending.data["effect"]["do"] == "train"
    assert st.pending.data["card"]["number"] == fledgling.number


def test_fire_refuses_bad_input_and_changes_nothing():
    st = build_position(CAT, players=[{"mat": {"crimson_cavern": [{"dragon": 38}]}}, {}], seed=3)
    before = st.to_json()
    for args, error in [((0, 5, 0), IllegalDecision), ((0, 0, 3), IllegalDecision), ((0, 12, 0), MalformedDecision),
                        ((0, ("dragon", 9999), 0), IllegalDecision), ((7, 0, 0), MalformedDecision),
                        ((0, "crimson", 0), MalformedDecision), ((0, ("guild", 9), 0), IllegalDecision)]:
        with pytest.raises(error):
            st.fire(*args)
        assert st.to_json() == before
    st.fire(0, 0, 0)  # now a yes/no question is open: no other ability can fire inside it
    with pytest.raises(IllegalDecision):
        st.fire(0, 0, 0)


# -- checkpoints --------------------------------------------------------------------------------------------------

def test_undo_within_a_turn_until_something_hidden_is_revealed():
    st = build_position(CAT, players=[{"resources": {"meat": 4}, "coins": 5}, {}], seed=4)
    cp = st.checkpoint()
    exchange = next(o for o in st.legal_options() if o.kind == "exchange")
    st.apply(exchange)
    assert st.undo_blocked(cp) is None
    st.restore(cp)
    assert st.to_json() == GameState.from_json(CAT, cp.state).to_json() and st.log == []
    # exploring the golden grotto path draws cards or asks the other player; once a deck shrank, undo is over
    st.apply(exchange)
    cp2 = st.checkpoint()
    while st.pending is not None and st.undo_blocked(cp2) is None:
        st.apply(st.legal_options()[-1])
    assert st.undo_blocked(cp2) is not None
    with pytest.raises(IllegalDecision):
        st.restore(cp2)
    st.restore(cp2, force=True)
    assert export_position(st) == export_position(GameState.from_json(CAT, cp2.state))


def test_undo_is_blocked_by_a_draw():
    st = build_position(CAT, players=[{"coins": 5}, {}], seed=4)
    cp = st.checkpoint()
    deck = len(st.dragon_deck)
    st.draw_dragon()
    assert len(st.dragon_deck) == deck - 1
    assert "drawn" in st.undo_blocked(cp)


def test_undo_is_blocked_once_another_player_must_answer():
    st = GameState.new(CAT, players=2, seed=1)
    cp = st.checkpoint()
    st.apply(st.legal_options()[0])  # seat 0 keeps cards; the next setup question may be seat 0's or seat 1's
    while st.pending.player == cp.player:
        st.apply(st.legal_options()[0])
    assert "another player" in st.undo_blocked(cp)


# -- public doors only --------------------------------------------------------------------------------------------

def _private_engine_imports(path, root=ROOT):
    tree = ast.parse(path.read_text())
    rel = path.relative_to(root).with_suffix("").parts
    package = rel[:-1]
    out = []
    engine_modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package[:len(package) - node.level + 1])
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module == "game.engine" or module.startswith("game.engine."):
                for alias in node.names:
                    if alias.name.startswith("_") or any(part.startswith("_") and part != "__init__"
                                                         for part in module.split(".")):
                        out.append(f"{path.relative_to(root)}:{node.lineno} from {module} import {alias.name}")
                    engine_modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("game.engine"):
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        out.append(f"{path.relative_to(root)}:{node.lineno} import {alias.name}")
                    engine_modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):  # fx._private: an attribute starting with "_" of a name imported from the engine
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") and \
                isinstance(node.value, ast.Name) and node.value.id in engine_modules:
            out.append(f"{path.relative_to(root)}:{node.lineno} {node.value.id}.{node.attr}")
    return out


def test_nothing_outside_the_engine_imports_its_private_names():
    offenders = []
    for folder in ("game", "cardsite", "tests", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if (ROOT / "game" / "engine") in path.parents or "migrations" in path.parts:
                continue
            offenders += _private_engine_imports(path)
    assert offenders == []


def test_the_private_import_scan_finds_an_offender(tmp_path):
    # The probe lies in a temporary copy of the layout, never in the tree a parallel run is collecting.
    fake = tmp_path / "tests" / "engine" / "_scan_probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from game.engine.state import _copy\nfrom game.engine import interpreter as fx\nfx._TEXT\n")
    assert len(_private_engine_imports(fake, root=tmp_path)) == 2


def test_fire_ability_runs_any_effect_between_actions_only():
    st = build_position(CAT, players=[{"coins": 1}, {}], seed=3)
    st.fire_ability(0, {"effect": {"do": "gain", "item": "coin", "count": 3}, "kind": "when_played"}, source="test")
    st.apply(Option("yes"))
    assert st.players[0].coins == 4 and st.at_main_action()
    st.fire_ability(0, {"effect": {"do": "gain", "item": "coin"}})
    before = st.to_json()
    with pytest.raises(IllegalDecision):  # a yes/no is open
        st.fire_ability(0, {"effect": {"do": "gain", "item": "coin"}})
    with pytest.raises(MalformedDecision):
        st.fire_ability(5, {"effect": {"do": "gain", "item": "coin"}})
    assert st.to_json() == before


def test_fire_ability_without_asking_runs_the_effect_at_once():
    st = build_position(CAT, players=[{"coins": 1}, {}], seed=3)
    st.fire_ability(0, {"effect": {"do": "gain", "item": "coin", "count": 3}}, ask=False, source="test")
    assert st.players[0].coins == 4 and st.at_main_action() and st.idle()


def test_can_act_says_whether_an_effect_could_do_anything_and_leaves_no_trace():
    st = build_position(CAT, players=[{"resources": {}, "coins": 0}, {}], seed=3)
    before = st.to_json()
    assert st.can_act(0, {"do": "gain", "item": "coin"})
    assert not st.can_act(0, {"do": "pay", "cost": [{"item": "meat"}], "buys": {"do": "gain", "item": "coin"}})
    assert st.to_json() == before


def test_a_checkpoint_is_plain_data_and_works_for_a_state_saved_without_its_log():
    import json

    from game.engine.state import Checkpoint
    st = build_position(CAT, players=[{"resources": {"meat": 4}}, {}], seed=4)
    saved = GameState.from_json(CAT, json.loads(json.dumps(st.to_json())))  # as a match loads it: no log
    cp = Checkpoint.from_dict(json.loads(json.dumps(saved.checkpoint().to_dict())))
    exchange = next(o for o in saved.legal_options() if o.kind == "exchange")
    saved.apply(exchange)
    assert "not known" in saved.undo_blocked(cp)  # who answered since is not in a state saved without its log
    since = [{"p": 0, "kind": exchange.kind, "args": list(exchange.args)}]
    assert saved.undo_blocked(cp, since) is None
    saved.restore(cp, since=since)
    assert saved.to_json() == st.to_json()
    with pytest.raises(MalformedDecision):
        Checkpoint.from_dict({"state": {}})


# -- small doors for the checker, calculator and matches -----------------------------------------------------------

def test_idle_only_at_the_main_action_with_nothing_running_below_it():
    st = build_position(CAT, players=[{"mat": {"crimson_cavern": [{"dragon": 38}]}, "coins": 2}, {}], seed=3)
    assert st.idle()
    st.fire(0, 0, 0)  # its yes/no question is open: the ability runs
    assert not st.idle()
    st.apply(Option("yes"))
    assert st.idle() and st.at_main_action()


def test_count_counts_for_a_seat_and_leaves_no_trace():
    st = build_position(CAT, players=[{"mat": {"crimson_cavern": [{"dragon": 38}]}}, {}], seed=3)
    before = st.to_json()
    assert st.count({"what": "dragons"}, 0) == 1
    assert st.count({"what": "dragons"}, 1) == 0
    assert st.to_json() == before


def test_hidden_mark_changes_only_when_something_hidden_comes_to_light():
    st = build_position(CAT, players=[{"coins": 5}, {}], seed=4)
    mark = st.hidden_mark()
    st.main_actions(0)
    st.to_json()
    assert st.hidden_mark() == mark
    st.draw_dragon()
    assert st.hidden_mark() != mark


# -- tests set up situations through positions and doors ----------------------------------------------------------

ENGINE_WORKING_DATA = ("pending", "stack", "frames")
# What a game is made of: a state's fields (but `events`, a public switch: None records nothing), a player's and a
# mat space's. Tests set them up through positions (game/engine/position.py) and the engine's doors, not by hand.
SET_UP_ONLY_BY_POSITIONS = tuple(sorted(
    (set(GameState(real_catalogue()).__dict__) | set(Player.__slots__) | set(Space.__slots__)) - {"events"}))
MUTATORS = ("append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "sort",
            "reverse")
OWN_OBJECTS = ("Player", "Space")  # built by the test itself (a mat to score, say): not a game's state


def _written(node, fields):
    """The attribute (`x.pending`, `x.coins`, ...) a target or a call writes into when it is one of `fields`, and the
    name the chain starts from; else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and node.attr in fields:
        root = node.value
        while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
            root = root.func if isinstance(root, ast.Call) else root.value
        return node.attr, root.id if isinstance(root, ast.Name) else None
    return None


def _own_objects(tree):
    """Per function: the names bound to a Player or Space the test builds itself (directly, or by a function of the
    module that returns one)."""
    def built(value, makers):
        return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in makers

    def bound(function, makers):
        names = set()
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    pairs = zip(target.elts, node.value.elts) if isinstance(target, ast.Tuple) and \
                        isinstance(node.value, ast.Tuple) else [(target, node.value)]
                    names |= {t.id for t, v in pairs if isinstance(t, ast.Name) and built(v, makers)}
        return names

    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    makers = set(OWN_OBJECTS)
    for function in functions:
        own = bound(function, OWN_OBJECTS)
        if any(isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and n.value.id in own
               for n in ast.walk(function)):
            makers.add(function.name)
    return {function: bound(function, makers) for function in functions}


def _set_up_by_hand(path, fields=ENGINE_WORKING_DATA + SET_UP_ONLY_BY_POSITIONS, root=ROOT):
    tree = ast.parse(path.read_text())
    own = _own_objects(tree)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}

    def owner(node):
        while node in parents and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node = parents[node]
        return own.get(node, set())

    out = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            targets = [node.func.value]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "reask":
            out.append(f"{path.relative_to(root)}:{node.lineno} re-asks after an edit by hand")
        for target in targets:
            for part in ast.walk(target) if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                written = _written(part, fields)
                if written and written[1] not in owner(node):
                    out.append(f"{path.relative_to(root)}:{node.lineno} writes .{written[0]}")
    return out


def test_no_test_sets_a_game_up_by_writing_the_engines_state():
    offenders = []
    for folder in ("tests/engine", "tests/cards", "tests/effects"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            offenders += _set_up_by_hand(path)
    assert offenders == []


def test_the_set_up_scan_finds_an_offender(tmp_path):
    fake = tmp_path / "_write_probe.py"
    fake.write_text("st.pending = None\nst.stack.pop()\nst.frames[fid] = {}\na, st.stack = 1, []\n"
                    "st.frames.pop(fid)\nst.players[0].coins += 1\npl.spaces[4].dragon = 3\nst.round = 2\n"
                    "st.automa['guild'] = 5\npl.hand.append(7)\ndel st.dragon_deck[-1]\n"
                    "st.events = []\nx = st.pending\ntable['players'][0]['coins'] = 3\nhand = pl.hand + [1]\n"
                    "def mine():\n    pl = Player(0)\n    pl.coins = 3\n    pl.spaces[0].dragon = 1\n    return pl\n"
                    "def theirs():\n    pl = mine()\n    pl.hand = [1]\n    other = st.players[1]\n"
                    "    other.hand = [2]\nst.reask()\n")
    found = _set_up_by_hand(fake, root=tmp_path)
    assert sorted(int(line.split(":")[1].split()[0]) for line in found) == list(range(1, 12)) + [25, 26]


