"""`Player.survey()`, the one pass the main actions read, agrees with the questions it answers one by one."""
from game.engine.agents import RandomAgent
from game.engine.model import COLUMNS
from game.engine.state import GameState

from .helpers import dragon, make_catalogue, position, real_catalogue, seat


def test_survey_agrees_with_eggs_dragons_and_the_next_spaces_through_random_games():
    checked = 0
    for seed in range(12):
        st = GameState.new(real_catalogue(), players=2, seed=seed, academy=seed % 2 == 1)
        agent = RandomAgent(seed)
        while st.pending is not None:
            for who, pl in enumerate(st.players):
                eggs, dragons, dig, empty = pl.survey()
                assert eggs == pl.eggs()
                assert dragons == pl.dragon_count()
                assert dig == [st.next_unexcavated(who, cave) for cave in range(3)]
                assert empty == [st.next_empty(who, cave) for cave in range(3)]
                checked += 1
            st.apply(agent.choose(st.pending.options))
    assert checked > 1000


def test_survey_of_a_full_mat_finds_no_space():
    cat = make_catalogue([dragon(i + 1) for i in range(12)])
    full = {index: {"dragon": index, "eggs": 1} for index in range(12)}  # a dragon on a space excavates up to it
    st = position(cat, [seat(cat, mat=full, nest=2), seat(cat)])
    pl = st.players[0]
    assert all(space.cave_card is not None for index, space in enumerate(pl.spaces) if index % COLUMNS)
    assert pl.survey() == (2 + 12, 12, [None, None, None], [None, None, None])
