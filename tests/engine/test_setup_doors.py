"""The engine's doors for tools that set a position up (the analysis board): whose turn it is, ending a turn or a
round, and advancing on the Dragon Guild, each moving the game as the rules would without a tool writing the
engine's stack or question itself."""
import pytest

from game.engine.decisions import MalformedDecision
from game.engine.position import build_position

from .helpers import real_catalogue

CAT = real_catalogue()


def test_put_to_move_asks_even_a_lone_pass():
    st = build_position(CAT, players=[{}, {"coins": 0, "hand": [], "cave_cards": [], "passed": True}], seed=3)
    st.put_to_move(1)
    assert st.pending.player == 1 and st.pending.kind == "main_action"
    assert [o.kind for o in st.legal_options()] == ["pass"]  # play would have taken it unasked
    assert st.current == 1 and not st.players[1].passed
    with pytest.raises(MalformedDecision):
        st.put_to_move(2)


def test_end_turn_now_asks_for_the_hand_limit_then_moves_on():
    hand = [38, 48, 74, 81, 5, 6, 7, 8, 9, 10]
    st = build_position(CAT, players=[{"hand": hand, "cave_cards": []}, {}], seed=3)
    st.end_turn_now(0)
    assert (st.pending.player, st.pending.kind, st.pending.data) == (0, "discard_cards", {"keep": 9, "extra": 1})
    st.apply(st.legal_options()[0])
    assert st.pending.player == 1 and st.at_main_action()
    assert len(st.players[0].hand) == 9


def test_end_round_now_scores_the_round_and_starts_the_next():
    st = build_position(CAT, players=[{}, {}], seed=3)
    st.end_round_now()
    kinds = [e["e"] for e in st.events]
    assert "round_ended" in kinds and "objective" in kinds
    assert st.round == 2 and st.at_main_action()


def test_end_round_now_with_last_ends_the_game():
    st = build_position(CAT, players=[{}, {}], seed=3)
    st.end_round_now(last=True)
    assert st.finished and st.pending is None


def test_advance_guild_moves_the_marker_and_gives_each_space():
    st = build_position(CAT, players=[{}, {}], seed=3)
    before = st.players[0].guild
    st.advance_guild(0, 1)
    while st.pending is not None and not st.at_main_action():
        st.apply(st.legal_options()[0])
    assert st.players[0].guild == before + 1
    assert any(e["e"] == "guild" and e["p"] == 0 for e in st.events)
