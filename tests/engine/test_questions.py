"""Typed questions and options as data: every question has a declared kind and data, every option its info."""
import json
import random
import re
from pathlib import Path

import pytest

from game.engine.decisions import IllegalDecision, Option
from game.engine.state import GameState
from game.language.options import render_option
from game.language.questions import QUESTIONS, render_question

from .helpers import choose, dragon, make_catalogue, position, real_catalogue, seat

ENGINE = Path(__file__).resolve().parents[2] / "game" / "engine"
ASK = re.compile(r"""st\.ask\(\s*task,\s*[^,]+,\s*"(\w+)\"""")
SPACE_KEYS = {"cave", "column"}
CARD_KEYS = {"type", "index", "number", "name"}


def test_every_question_the_engine_asks_is_declared_and_every_declared_question_is_asked():
    asked = {kind for path in ENGINE.rglob("*.py") for kind in ASK.findall(path.read_text())}
    assert asked == set(QUESTIONS)


def _check_question(st):
    pending = st.pending
    question = QUESTIONS[pending.kind]
    assert set(pending.data) == set(question.keys), pending.kind
    json.dumps(pending.data)  # plain JSON
    assert pending.prompt == question.render(pending.data)  # words-test: rendered from the data, no fallback
    for option in pending.options:
        info = st.option_info(option)
        assert info["kind"] == option.kind and info["args"] == list(option.args)
        assert info["label"] == st.label(option) == render_option(info)
        assert not info.get("unreadable"), info
        assert all(isinstance(n, int) and n > 0 for n in list(info["cost"].values()) + list(info["gain"].values()))
        if "card" in info:
            assert set(info["card"]) == CARD_KEYS and info["card"]["name"], info
        if "space" in info:
            assert set(info["space"]) == SPACE_KEYS
        if "cave" in info:
            assert info["cave"] in (0, 1, 2)
        json.dumps(info)


@pytest.mark.parametrize("seed,players,academy", [(1, 2, False), (2, 3, True), (3, 4, False), (4, 2, True)])
def test_random_games_ask_declared_questions_with_their_data_and_every_option_reads_as_data(seed, players, academy):
    cat = real_catalogue()
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    rng = random.Random(seed)
    seen = set()
    while st.pending is not None:
        _check_question(st)
        seen.add(st.pending.kind)
        before = json.dumps(st.to_json(), sort_keys=True)
        [st.option_info(o) for o in st.pending.options]
        assert json.dumps(st.to_json(), sort_keys=True) == before  # reading options changes nothing
        acting = [o for o in st.pending.options if o.kind not in ("pass", "exchange", "no", "stop")]
        st.apply(rng.choice(acting or st.pending.options))
    assert {"setup_keep", "setup_resources", "main_action"} <= seen


def test_kind_and_data_survive_saving_and_loading():
    cat = real_catalogue()
    st = GameState.new(cat, players=2, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        st.apply(rng.choice(st.pending.options))
    loaded = GameState.from_json(cat, json.loads(json.dumps(st.to_json())))
    assert (loaded.pending.kind, loaded.pending.data, loaded.pending.prompt) == \
        (st.pending.kind, st.pending.data, st.pending.prompt)


def test_a_save_from_before_typed_questions_loads_with_its_kind_and_words():
    cat = real_catalogue()
    st = GameState.new(cat, players=2, seed=6)
    old = st.to_json()
    old["pending"] = {"player": old["pending"]["player"], "prompt": "Choose the cards you do not keep (old words)",
                      "options": old["pending"]["options"]}
    loaded = GameState.from_json(cat, old)
    assert loaded.pending.kind == "setup_keep"
    assert loaded.pending.prompt == "Choose the cards you do not keep (old words)"  # words-test: kept as saved
    assert loaded.legal_options() == st.legal_options()


def test_each_question_renders_its_english_from_its_data():
    assert render_question("setup_resources", {"count": 3}) == "Choose your 3 starting resources"
    assert render_question("pay", {"item": "egg", "left": 2}) == "Pay an egg (choose where from)"
    assert render_question("gain_resource", {"left": 2, "same": True}) == "Choose a resource to gain (2 of one kind)"
    assert render_question("train", {"left": 1, "full": True, "free": True}) == "Fully train a fledgling: choose which"
    assert render_question("use_ability", {"card": None, "source": "the Crimson Cavern path", "ability": "",
                                           "effect": {"do": "gain", "item": "coin"}}) == \
        "Use the Crimson Cavern path: Gain 1 coin?"
    assert render_question("main_action", {}) == "Choose your action"


GIVER = dragon(1, "Milk Giver", abilities=[{"kind": "if_activated", "effect": {"do": "gain", "item": "milk"}}])
COSTLY = dragon(2, "Costly Drake", cost={"meat": 1, "egg": 1}, habitats=["crimson_cavern"])


CAT = make_catalogue(dragons=[GIVER, COSTLY])


def table(**more):
    """Seat 0 to move with 5 coins, an egg, 2 meat, the Costly Drake and cave card 0; `more` adds to seat 0."""
    return position(CAT, [seat(CAT, coins=5, nest=1, res=[2, 0, 0, 0], hand=[1], caves=[0], **more), seat(CAT)])


@pytest.fixture
def st():
    return table()


def test_main_action_options_show_what_they_cost_and_where_they_go(st):
    assert st.pending.kind == "main_action" and st.pending.data == {}
    entice = st.option_info(Option("entice", (1, 0)))
    assert entice["card"] == {"type": "dragon", "index": 1, "number": 2, "name": "Costly Drake"}
    assert (entice["cave"], entice["space"]) == (0, {"cave": 0, "column": 0})
    assert entice["cost"] == {"coin": 1, "meat": 1, "egg": 1}  # the action's coin and the printed cost
    assert st.option_info(Option("excavate", (0, 1)))["cost"] == {"coin": 1}  # column 2 takes no egg here
    st = table(mat={5: {"cave_card": 3}})
    excavate = st.option_info(Option("excavate", (0, 1)))
    assert excavate["card"]["type"] == "cave" and excavate["space"] == {"cave": 1, "column": 2}
    assert excavate["cost"] == {"coin": 1, "egg": 1}  # the test board: column 3 takes an egg
    st = table(mat={5: {"cave_card": 3}}, explored={"amethyst_abyss": 1})
    explore = st.option_info(Option("explore", (2,)))
    assert explore["cave"] == 2 and explore["cost"] == {"coin": 1, "egg": 1}  # the second visit
    exchange = st.option_info(Option("exchange", ("meat", "meat", "gold")))
    assert (exchange["cost"], exchange["gain"]) == ({"meat": 2}, {"gold": 1})
    assert exchange["label"] == "Exchange 2 meat for 1 gold"


def test_a_yes_or_no_on_an_ability_names_the_card_and_the_ability():
    st = table(mat={0: 0})
    choose(st, "explore", 0)
    while st.pending.kind != "use_ability":
        st.apply(st.legal_options()[0])
    assert st.pending.data["card"]["name"] == "Milk Giver" and st.pending.data["ability"] == "if_activated"
    yes = st.option_info(Option("yes"))
    assert yes["card"]["name"] == "Milk Giver" and yes["effect"] == {"do": "gain", "item": "milk"}
    assert yes["label"] == "Yes"


def test_a_refusal_quotes_a_question_with_its_own_mark_not_a_question_mark_and_a_stop():
    st = table(mat={0: 0})
    choose(st, "explore", 0)
    while st.pending.kind != "use_ability":
        st.apply(st.legal_options()[0])
    assert st.pending.kind == "use_ability"  # a question whose English ends in a question mark
    with pytest.raises(IllegalDecision) as refused:
        st.apply(Option("pass"))
    assert "?." not in str(refused.value) and f"{st.pending.prompt} That is not" in str(refused.value)


def test_an_option_naming_nothing_reads_raw_and_changes_nothing(st):
    before = json.dumps(st.to_json(), sort_keys=True)
    info = st.option_info(Option("entice", (999, 0)))
    assert info["label"] == "Entice dragon #999 into the Crimson Cavern" and info["cost"] == {}
    assert st.option_info(Option("egg_on", ()))["label"] == "egg_on"
    assert st.option_info({"kind": "polish", "args": [3]})["label"] == "polish 3"
    assert json.dumps(st.to_json(), sort_keys=True) == before
