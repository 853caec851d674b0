"""The event log: what each decision caused, as plain data, and its words."""
import json

import pytest

from game.engine.agents import RandomAgent
from game.engine.decisions import Option
from game.engine.state import GameState
from game.engine.view import events_for
from game.language.events import EVENTS, Names, render_event, render_event_html

from .helpers import dragon, fire, make_catalogue, new_game, position, real_catalogue, seat

CAT = make_catalogue([dragon(1, name="Wise Anteldragon", cost={"meat": 1, "egg": 1}, habitats=["golden_grotto"])])
NAMES = Names(["Ana", "Bob", "Cy"], dragon=lambda i: CAT.dragons[i].name, cave=lambda i: f"cave card {i}")


def play(cat, seed, players=2, academy=False, on_events=None):
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    if on_events is not None:
        on_events(st, list(st.events))
    agent = RandomAgent(seed)
    while st.pending is not None:
        events = st.apply(agent.choose(st.pending.options))
        if on_events is not None:
            on_events(st, events)
    return st


def test_apply_returns_a_new_list_of_the_events_it_caused():
    st = new_game(CAT)
    first = st.apply(Option("pass"))
    assert first is st.events
    assert first == [{"e": "passed", "p": 0}, {"e": "turn", "p": 1, "round": 1, "n": 2}]  # the next turn begins
    before = list(first)
    second = st.apply(st.legal_options()[0])
    assert second is not first and first == before


def test_setup_events_stay_in_the_state_after_new():
    st = GameState.new(real_catalogue(), players=3, seed=5)
    kinds = [e["e"] for e in st.events]
    # The rulebook's order: the display is filled, then each player is dealt their cards.
    assert kinds[:4] == ["refilled", "dealt", "dealt", "dealt"] and kinds[-1] == "started"
    dealt = st.events[2]
    assert dealt["p"] == 1 and sorted(c for k, c in dealt["cards"] if k == "dragon") == sorted(st.players[1].hand)
    assert st.events[-1]["first"] == st.start


def test_recording_nothing_plays_the_very_same_game():
    cat = real_catalogue()
    recorded = play(cat, seed=11, players=3)
    quiet = GameState.new(cat, players=3, seed=11)
    quiet.events = None
    for decision in recorded.log:
        assert quiet.apply(Option(decision["kind"], tuple(decision["args"]))) is None
    assert quiet.events is None and quiet.to_json() == recorded.to_json()


def test_entice_names_the_dragon_the_space_and_the_whole_cost():
    # Golden Grotto column 1 holds a dragon: the next space is column 2
    st = position(CAT, [seat(CAT, coins=3, res=[1, 0, 0, 0], nest=2, hand=[0], mat={4: 5, 5: {"cave_card": 1}}),
                        seat(CAT)])
    events = st.apply(Option("entice", (0, 1)))
    enticed = next(e for e in events if e["e"] == "enticed")
    assert enticed == {"e": "enticed", "p": 0, "dragon": 0, "space": 5, "cost": {"coin": 1, "meat": 1, "egg": 1}}
    assert render_event(enticed, NAMES) == ("Ana enticed Wise Anteldragon into the Golden Grotto, column 2, paying "
                                            "1 coin, 1 meat and 1 egg.")
    if st.pending is not None and st.pending.player == 0:
        events = st.apply(st.legal_options()[0])  # where the egg comes from, when there is a choice
    paid = [e for e in st.events if e["e"] == "paid"]
    assert paid and paid[-1]["item"] == "egg" and paid[-1]["part"] is True  # one part of the cost named above
    assert render_event(paid[-1], NAMES) == "Ana took 1 egg of that cost from the mat's nests."


def test_an_ability_used_or_declined_says_whose_it_is():
    st = position(CAT, [seat(CAT, mat={0: 0}), seat(CAT)])
    fire(st, {"do": "gain", "item": "gold"}, src=0, ask=True)
    declined = st.apply(Option("no"))
    assert {"e": "ability", "p": 0, "kind": "", "used": False, "dragon": 0} in declined
    fire(st, {"do": "gain", "item": "gold", "count": 2}, src=0, ask=True)
    used = st.apply(Option("yes"))
    assert used[0]["used"] is True and {"e": "gained", "p": 0, "item": "gold", "n": 2} in used
    assert render_event(used[0], NAMES) == "Ana used Wise Anteldragon's ability."
    assert render_event(declined[0], NAMES) == "Ana declined Wise Anteldragon's ability."


def test_a_turn_begins_once_even_after_exchanges():
    st = position(CAT, [seat(CAT, res=[2, 0, 0, 0]), seat(CAT)])
    exchanged = st.apply(Option("exchange", ("meat", "meat", "gold")))
    assert [e["e"] for e in exchanged] == ["exchanged"]


def test_round_end_objective_and_game_end_are_recorded_with_their_numbers():
    cat = real_catalogue()
    seen = []
    st = play(cat, seed=3, players=3, on_events=lambda st, events: seen.extend(events))
    objectives = [e for e in seen if e["e"] == "objective"]
    assert [e["round"] for e in objectives] == list(range(1, cat.rounds + 1))
    for e in objectives:
        assert e["places"] == [pl.objectives[e["round"] - 1] for pl in st.players]
        assert len(e["counts"]) == len(e["vp"]) == 3
    assert [e["round"] for e in seen if e["e"] == "round_ended"] == list(range(1, cat.rounds + 1))
    assert sum(1 for e in seen if e["e"] == "income") == 3 * (cat.rounds - 1)
    end = seen[-1]
    assert end["e"] == "game_ended" and end["places"] == st.result["places"]
    assert [s["total"] for s in end["scores"]] == [s["total"] for s in st.result["scores"]]


def test_a_tie_is_told_with_its_tiebreak():
    event = {"e": "game_ended", "scores": [{"total": 30}, {"total": 30}], "places": [1, 2], "winners": [0],
             "dragons": [7, 5], "ties": [{"seats": [0, 1], "vp": 30, "broken": True}]}
    text = render_event(event, NAMES)
    assert text.startswith("The game ended: Ana 30 VP (1st) and Bob 30 VP (2nd).")
    assert "the most dragons on the mat broke the tie (Ana 7, Bob 5)" in text


def test_every_event_of_many_games_is_declared_json_and_reads_as_a_sentence():
    cat = real_catalogue()
    names = Names(["Ana", "Bob", "Cy", "Di"], dragon=lambda i: cat.dragons[i].name,
                  cave=lambda i: f"cave card {cat.caves[i].number}")
    kinds = set()

    def check(st, events):
        json.dumps(events)
        for event in events:
            kinds.add(event["e"])
            for viewer in (None, 0, 1):
                for shown in events_for([event], viewer):
                    text = render_event(shown, names)
                    assert text[0].isupper() and text.endswith(".") and "\x01" not in text and "{" not in text
                    assert render_event_html(shown, names)

    for seed in range(8):
        play(cat, seed=seed, players=2 + seed % 3, academy=seed % 2 == 1, on_events=check)
    assert kinds <= set(EVENTS)
    assert {"dealt", "kept", "turn", "enticed", "excavated", "explored", "paid", "gained", "laid", "drew",
            "refilled", "guild", "ability", "round_ended", "objective", "income", "game_ended"} <= kinds


def test_names_are_escaped_in_html_and_items_carry_their_icon():
    names = Names(["<b>Ana</b>"])
    html = render_event_html({"e": "gained", "p": 0, "item": "meat", "n": 2}, names)
    assert "&lt;b&gt;Ana&lt;/b&gt;" in html and "<b>" not in html and 'class="icon icon-meat"' in html
    assert render_event({"e": "gained", "p": 0, "item": "meat", "n": 2}, names) == "<b>Ana</b> gained 2 meat."


def test_an_undeclared_event_kind_is_refused():
    with pytest.raises(KeyError, match="polish"):
        render_event({"e": "polish", "p": 0})
    with pytest.raises(KeyError):
        events_for([{"e": "polish", "p": 0}], 0)


def test_a_card_drawn_or_tucked_is_named_only_to_its_player():
    st = position(CAT, [seat(CAT, mat={0: 0}, hand=[3]), seat(CAT)])
    fire(st, {"do": "seq", "steps": [{"do": "gain", "item": "dragon", "from": "deck"},
                                     {"do": "tuck", "on": {"scope": "here"}, "from": "hand"}]}, src=0)
    events = list(st.events)
    if st.pending is not None:
        events += st.apply(Option("tuck", (3, 0)))
    drew = next(e for e in events if e["e"] == "drew")
    tucked = next(e for e in events if e["e"] == "tucked")
    assert events_for([drew], 0) == [drew] and "cards" in drew
    assert events_for([drew, tucked], 1) == [{k: v for k, v in drew.items() if k != "cards"},
                                            {k: v for k, v in tucked.items() if k != "card"}]
    assert events_for([drew, tucked], None) == events_for([drew, tucked], 1)
    assert render_event(events_for([tucked], 1)[0], NAMES) == \
        "Ana tucked a card under Wise Anteldragon (the Crimson Cavern, column 1)."


def test_the_docs_table_lists_every_declared_event_kind_and_its_secret():
    import re
    from pathlib import Path

    text = Path(__file__).resolve().parents[2].joinpath("docs", "engine.md").read_text()
    section = text[text.index("## Events: what happened"):text.index("## How it is organised")]
    documented, secrets = set(), {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            kinds = re.findall(r"`(\w+)`", cells[0])
            documented.update(kinds)
            for kind in kinds:
                secrets[kind] = tuple(re.findall(r"`(\w+)`", cells[2]))
    assert documented == set(EVENTS)
    assert {k: v for k, v in secrets.items() if v} == {k: e.secret for k, e in EVENTS.items() if e.secret}


@pytest.mark.parametrize("academy", [False, True])
def test_solo_games_tell_what_the_automa_did_in_declared_events(academy):
    cat = real_catalogue()
    names = Names(["Ana", "Automa"], dragon=lambda i: cat.dragons[i].name, cave=lambda i: f"cave card {i}")
    seen = set()
    for seed, (level, ravel) in enumerate([(1, False), (2, False), (3, False), (1, True), (2, True), (3, True)]):
        st = GameState.new(cat, players=1, seed=seed, academy=academy, automa={"level": level, "ravel": ravel})
        agent = RandomAgent(seed)
        events = list(st.events)
        while not st.finished:
            events += st.apply(agent.choose(st.legal_options()))
        for viewer in (0, 1, None):
            for event in events_for(events, viewer):
                assert event["e"] in EVENTS
                assert render_event(event, names)
        seen |= {e["e"] for e in events}
        turns = [e for e in events if e["e"] == "automa_turn"]
        assert turns and all(e["p"] == 1 for e in turns)
        assert render_event(turns[0], names).startswith(f"Automa turns decision card {turns[0]['card']}")
    assert {"automa_turn", "automa_pass", "automa_objective"} <= seen
