"""Copies for search: `clone()` without JSON, and `determinize()` that deals again what a seat cannot see."""
import json
import random
from collections import Counter

import pytest

from game.engine.agents import RandomAgent, play_out
from game.engine.determinize import determinize
from game.engine.model import Player, Space
from game.engine.state import GameState
from game.engine.view import view_for

from . import invariants
from .helpers import choose, fire, make_catalogue, position, real_catalogue


def _positions(seed, players, academy, every=7):
    """Every `every`-th state of a seeded random game (each one yielded before the game moves on)."""
    st = GameState.new(real_catalogue(), players=players, seed=seed, academy=academy)
    agent = RandomAgent(seed, weighted=seed % 3 != 0)
    n = 0
    while st.pending is not None:
        if n % every == 0:
            yield st
        st.apply(agent.choose(st.pending.options))
        n += 1
    yield st


def _cards(st):
    """Every dragon and cave card of the game and how often it is anywhere (each exactly once in a whole game)."""
    dragons = Counter(st.dragon_deck + st.dragon_discard + st.revealed + [d for d in st.display_dragons if d is not None])
    caves = Counter(st.cave_deck + st.cave_discard + [c for c in st.display_caves if c is not None])
    for pl in st.players:
        dragons.update(pl.hand)
        caves.update(pl.caves)
        for space in pl.spaces:
            dragons.update(space.tucked)
            dragons.update([space.dragon] if space.dragon is not None else [])
            caves.update([space.cave_card] if space.cave_card is not None else [])
    return dragons, caves


# -- clone ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_a_clone_saves_as_the_original_and_the_two_play_on_apart(seed):
    players, academy = 2 + seed % 4, seed % 2 == 1
    rng = random.Random(seed)
    for st in _positions(seed, players, academy):
        before = st.to_json()
        copy = st.clone()
        assert copy.to_json() == before and copy.log == st.log and copy.decided == st.decided
        if st.finished:
            continue
        # play the copy a few random decisions on: the original does not move
        agent = RandomAgent(rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 12)):
            if copy.pending is None:
                break
            copy.apply(agent.choose(copy.pending.options))
        assert st.to_json() == before
        # and the other way round: a fresh copy is untouched by the original playing on
        other = st.clone()
        kept = other.to_json()
        probe = st.clone()
        probe_agent = RandomAgent(seed)
        for _ in range(5):
            if probe.pending is None:
                break
            probe.apply(probe_agent.choose(probe.pending.options))
        assert other.to_json() == kept


def test_a_clone_plays_on_exactly_as_the_original():
    for st in _positions(3, 3, True, every=11):
        if st.finished:
            continue
        a, b = st.clone(), GameState.from_json(real_catalogue(), json.loads(json.dumps(st.to_json())), log=st.log)
        play_out(a, seed=99)
        play_out(b, seed=99)
        assert a.to_json() == b.to_json() and a.log == b.log


def test_a_clone_in_the_middle_of_an_ability_resumes_apart():
    cat = make_catalogue()
    st = position(cat)
    fire(st, {"do": "choose", "pick": 2, "options": [{"do": "gain", "item": "meat"}, {"do": "gain", "item": "gold"},
                                                     {"do": "gain", "item": "milk"}]})
    choose(st, "choose", 1)
    copy = st.clone()
    choose(copy, "choose", 2)
    assert copy.players[0].res == [0, 1, 0, 1]
    assert st.players[0].res == [0, 1, 0, 0] and len(st.legal_options()) == 2
    choose(st, "choose", 0)
    assert st.players[0].res == [1, 1, 0, 0] and copy.players[0].res == [0, 1, 0, 1]


def test_every_slot_of_a_player_and_a_space_is_copied():
    # A slot added later but forgotten in copy() would be missing on the copy (an AttributeError in play).
    pl = Player(0)
    copy = pl.copy()
    for name in Player.__slots__:
        if name != "spaces":
            assert getattr(copy, name) == getattr(pl, name)
    for name in Space.__slots__:
        assert getattr(pl.spaces[0].copy(), name) == getattr(pl.spaces[0], name)
    assert copy.spaces[0] is not pl.spaces[0] and copy.spaces[0].cached is not pl.spaces[0].cached


def test_an_attribute_the_clone_does_not_know_is_copied_deeply():
    st = GameState.new(real_catalogue(), players=2, seed=5)
    st.extra = {"marks": [1, 2]}
    copy = st.clone()
    copy.extra["marks"].append(3)
    assert st.extra == {"marks": [1, 2]}


# -- determinize ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_determinized_state_looks_the_same_to_the_seat_and_holds_the_same_cards(seed):
    players, academy = 2 + seed % 4, seed % 2 == 0
    for st in _positions(seed, players, academy, every=9):
        before = st.to_json()
        cards = _cards(st)
        for seat in range(players):
            sample = determinize(st, seat, seed * 100 + seat)
            assert view_for(sample, seat) == view_for(st, seat)
            assert _cards(sample) == cards
            if not st.finished:
                assert sample.pending.player == st.pending.player
        assert st.to_json() == before  # the original is never touched


def test_hidden_parts_vary_with_the_seed_and_the_seen_parts_do_not():
    st = next(s for i, s in enumerate(_positions(4, 3, False)) if i == 6)
    samples = [determinize(st, 0, k) for k in range(6)]
    assert len({tuple(s.dragon_deck) for s in samples}) == 6
    assert len({tuple(s.cave_deck) for s in samples}) == 6
    assert len({tuple(s.players[1].hand + s.players[2].hand) for s in samples}) > 1
    assert len({s.rng.state for s in samples}) == 6 and all(s.rng.state != st.rng.state for s in samples)
    assert all(s.options["seed"] != st.options["seed"] for s in samples)
    for s in samples:
        assert s.players[0].hand == st.players[0].hand and s.players[0].caves == st.players[0].caves
        assert s.display_dragons == st.display_dragons and s.dragon_discard == st.dragon_discard
        assert [len(p.hand) for p in s.players] == [len(p.hand) for p in st.players]
        assert [len(p.caves) for p in s.players] == [len(p.caves) for p in st.players]
    # the same seed gives the same sample
    assert determinize(st, 0, 3).to_json() == samples[3].to_json()


def test_face_down_tucked_cards_are_dealt_again():
    for seed in range(40):
        final = list(_positions(seed, 2, False, every=1000))[-1]
        tucked = [c for p in final.players for s in p.spaces for c in s.tucked]
        if len(tucked) >= 2:
            break
    else:
        pytest.skip("no game among the first 40 seeds tucked two cards")
    seen = {tuple(c for p in determinize(final, 0, k).players for s in p.spaces for c in s.tucked) for k in range(8)}
    assert len(seen) > 1


@pytest.mark.parametrize("seed", range(8))
def test_a_game_plays_on_from_a_determinized_state_to_the_end(seed):
    players, academy = 2 + seed % 3, seed % 2 == 1
    rng = random.Random(seed)
    for st in _positions(seed, players, academy, every=13):
        if st.finished:
            continue
        seat = rng.randrange(players)
        sample = determinize(st, seat, rng.randrange(1 << 40))
        memo = {"roundtrip": False}
        invariants.check(sample, memo)
        play_out(sample, seed=seed, on_step=lambda s: invariants.check(s, memo))
        assert sample.finished and sample.result["winners"]


def test_a_determinized_state_keeps_no_log_and_its_decision_count():
    st = next(s for i, s in enumerate(_positions(2, 2, False)) if i == 4)
    sample = determinize(st, 1, 7)
    assert sample.log is None and sample.decided == st.decided == len(st.log)
    before = sample.decided
    sample.apply(sample.legal_options()[0])
    assert sample.decided == before + 1 and sample.log is None


@pytest.mark.parametrize("seed", [21, 29])
def test_another_players_question_is_still_asked_in_every_sample(seed):
    # Seeds where an opponent is asked whether to play a dragon from their hand: a hand dealt at random may hold no
    # dragon they could play, and a sample in which the question would not be asked is not one seat could be in.
    players = 2 + seed % 4
    asked = 0
    for st in _positions(seed, players, seed % 2 == 0, every=1):
        if st.finished or {o.kind for o in st.legal_options()} != {"yes", "no"}:
            continue
        for seat in range(players):
            if seat != st.pending.player:
                asked += 1
                for k in range(3):
                    sample = determinize(st, seat, k)
                    assert view_for(sample, seat) == view_for(st, seat)
                    sample.apply(sample.legal_options()[0])
    assert asked


def _solo_positions(seed, academy):
    st = GameState.new(real_catalogue(), players=1, seed=seed, academy=academy, automa={"level": 1, "ravel": False})
    agent = RandomAgent(seed)
    n = 0
    while st.pending is not None:
        if n % 5 == 0:
            yield st
        st.apply(agent.choose(st.pending.options))
        n += 1
    yield st


@pytest.mark.parametrize("seed", range(3))
def test_solo_games_clone_and_determinize_with_the_automa(seed):
    varied = False
    for st in _solo_positions(seed, academy=seed == 1):
        before = st.to_json()
        copy = st.clone()
        assert copy.to_json() == before and copy.automa is not st.automa
        sample = determinize(st, 0, seed)
        assert view_for(sample, 0) == view_for(st, 0) and _cards(sample) == _cards(st)
        assert sorted(sample.automa["deck"] + sample.automa["aside"]) == sorted(st.automa["deck"] + st.automa["aside"])
        varied |= any(determinize(st, 0, k).automa["deck"] != st.automa["deck"] for k in range(4))
        if not st.finished:
            play_out(copy, seed=seed)
            play_out(sample, seed=seed)
            assert sample.finished
        assert st.to_json() == before
    assert varied
