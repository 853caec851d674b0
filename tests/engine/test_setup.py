"""Setup by the rulebook: tiles, decks, display, each player's starting pieces and choices, start player."""
from collections import Counter

import pytest

from game.engine.decisions import MalformedDecision, Option
from game.engine.state import GameState

from .helpers import real_catalogue

CAT = real_catalogue()


def test_each_player_starts_with_6_coins_1_egg_and_3_plus_3_cards_to_choose_from():
    st = GameState.new(CAT, players=4, seed=3)
    for pl in st.players:
        assert pl.coins == 6 and pl.nest == 1 and len(pl.hand) == 3 and len(pl.caves) == 3
    assert st.pending.player == 0 and len(st.legal_options()) == 15  # 2 of 6 cards to discard
    assert all(card is not None for card in st.display_dragons + st.display_caves)


def test_kept_cards_stay_and_the_others_are_discarded_face_up():
    st = GameState.new(CAT, players=2, seed=3)
    pl = st.players[0]
    option = Option("discard_cards", ("dragon", pl.hand[0], "cave", pl.caves[1]))
    dropped = (pl.hand[0], pl.caves[1])
    st.apply(option)
    assert len(pl.hand) + len(pl.caves) == 4
    assert st.dragon_discard == [dropped[0]] and st.cave_discard == [dropped[1]]
    assert len(st.legal_options()) == 20  # 3 resources of choice: 20 combinations
    st.apply(Option("resources", ("gold", "gold", "milk")))
    assert pl.res == [0, 2, 0, 1]


def test_four_objective_tiles_with_random_sides_and_a_random_guild_tile():
    tiles, sides, guilds, starts = Counter(), Counter(), Counter(), Counter()
    for seed in range(40):
        st = GameState.new(CAT, players=3, seed=seed)
        assert len(st.objectives) == 4 and len({t for t, _ in st.objectives}) == 4
        tiles.update(t for t, _ in st.objectives)
        sides.update(side for _, side in st.objectives)
        guilds[st.guild_tile] += 1
        starts[st.start] += 1
        assert CAT.guild_tiles[st.guild_tile]["expansion"] == "base"
    assert set(sides) == {"a", "b"} and len(tiles) == 10 and len(guilds) == 4 and len(starts) == 3


def test_academy_games_may_draw_academy_tiles():
    guilds = {GameState.new(CAT, players=2, seed=seed, academy=True).guild_tile for seed in range(60)}
    assert any(CAT.guild_tiles[g]["expansion"] == "academy" for g in guilds)


def test_the_start_player_takes_the_first_turn():
    st = GameState.new(CAT, players=3, seed=8)
    while st.pending.kind != "main_action":
        st.apply(st.legal_options()[0])
    assert st.pending.player == st.start == st.current


def test_a_one_player_game_without_the_automa_is_refused_naming_the_field():
    with pytest.raises(MalformedDecision, match="^automa: a 1-player game is played against the Automa") as err:
        GameState.new(CAT, players=1, seed=1)
    assert err.value.field == "automa"


def test_a_guild_tile_with_no_known_rows_is_never_dealt():
    kings = next(i for i, t in enumerate(CAT.guild_tiles) if t["name"] == "King's Guild")
    assert not CAT.guild_tiles[kings]["rows"]
    dealt = {GameState.new(CAT, players=2, seed=seed, academy=True).guild_tile for seed in range(80)}
    assert kings not in dealt and len(dealt) == len(CAT.guild_tiles) - 1


@pytest.mark.parametrize("seed", [0, 11, 523])
def test_the_display_is_filled_before_the_players_are_dealt_their_cards(seed):
    # The rulebook sets up the centre of the table (guild tile, display, objectives) and then deals each player.
    from game.engine.rng import Rng
    cat = real_catalogue()
    st = GameState.new(cat, players=3, seed=seed)
    rng = Rng(seed)
    dragons, caves = cat.dragon_deck(False, False), cat.cave_deck(False, False)
    rng.shuffle(dragons)
    rng.shuffle(caves)
    top_dragons, top_caves = dragons[::-1], caves[::-1]  # the deck is drawn from its end
    assert st.display_dragons == top_dragons[:3] and st.display_caves == top_caves[:3]
    for seat, pl in enumerate(st.players):
        assert pl.hand == top_dragons[3 + 3 * seat:6 + 3 * seat]
        assert pl.caves == top_caves[3 + 3 * seat:6 + 3 * seat]
