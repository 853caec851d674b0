"""Quick mode: category totals typed in, the rules of the sum applied, the ranking and its tiebreak explained."""
import pytest

pytestmark = pytest.mark.django_db


def line(name, **values):
    base = {"name": name, "guild_markers": [], "dragon_vp": 0, "end_game_vp": 0, "eggs": 0, "cached": 0, "tucked": 0,
            "objective_vp": 0, "coins": 0, "items": 0, "fledglings": 0, "visible_dragons": 0}
    base.update(values)
    return base


def test_worked_two_player_game_matches_the_hand_count(scored):
    result = scored({"mode": "quick", "academy": True, "players": [
        line("Ann", guild_markers=[6], dragon_vp=31, end_game_vp=9, eggs=8, cached=5, tucked=3, objective_vp=12,
             coins=2, items=7, visible_dragons=10),
        line("Ben", guild_markers=[3, 1], dragon_vp=28, end_game_vp=4, eggs=11, cached=2, tucked=6, objective_vp=9,
             coins=1, items=4, fledglings=2, visible_dragons=11),
    ]})
    ann, ben = result["by_name"]["Ann"], result["by_name"]["Ben"]
    # Ann: 6 + 31 + 9 + 8 + 5 + 3 + 12 + 2 coins + 7 items // 4 = 1
    assert ann["breakdown"] == {"guild": 6, "dragons": 31, "abilities": 9, "eggs": 8, "cached": 5, "tucked": 3,
                                "objectives": 12, "coins": 2, "items": 1, "fledglings": 0}
    assert ann["total"] == 77
    # Ben: guild 3 + 1, two fledglings score 2 each = 4, 4 items = 1 VP
    assert ben["breakdown"]["guild"] == 4
    assert ben["breakdown"]["fledglings"] == 4
    assert ben["breakdown"]["items"] == 1
    assert ben["total"] == 4 + 28 + 4 + 11 + 2 + 6 + 9 + 1 + 1 + 4 == 70
    assert result["winners"] == ["Ann"]
    assert [result["lines"][i]["name"] for i in result["ranking"]] == ["Ann", "Ben"]
    assert result["tiebreak"] == []


@pytest.mark.parametrize("n, vp", [(0, 0), (1, 1), (2, 4), (3, 9), (5, 25)])
def test_each_of_n_fledglings_scores_n(scored, n, vp):
    result = scored({"mode": "quick", "academy": True, "players": [line("Solo", fledglings=n, visible_dragons=n)]})
    assert result["by_name"]["Solo"]["breakdown"]["fledglings"] == vp


@pytest.mark.parametrize("items, vp", [(0, 0), (3, 0), (4, 1), (7, 1), (8, 2), (11, 2), (13, 3)])
def test_other_leftovers_score_one_per_four_rounded_down(scored, items, vp):
    result = scored({"mode": "quick", "players": [line("Solo", items=items, coins=5)]})
    breakdown = result["by_name"]["Solo"]["breakdown"]
    assert breakdown["items"] == vp
    assert breakdown["coins"] == 5


def test_equal_totals_are_broken_by_visible_dragons(scored):
    result = scored({"mode": "quick", "players": [
        line("Ann", dragon_vp=40, visible_dragons=9),
        line("Ben", dragon_vp=40, visible_dragons=11),
        line("Cy", dragon_vp=30, visible_dragons=12),
    ]})
    assert result["winners"] == ["Ben"]
    places = {line["name"]: line["place"] for line in result["lines"]}
    assert places == {"Ben": 1, "Ann": 2, "Cy": 3}
    assert len(result["tiebreak"]) == 1
    sentence = result["tiebreak"][0]
    assert "Ann and Ben tie on 40 VP" in sentence and "Ben takes the higher place" in sentence


def test_equal_totals_and_dragons_share_the_win(scored):
    result = scored({"mode": "quick", "players": [
        line("Ann", dragon_vp=40, visible_dragons=10),
        line("Ben", eggs=40, visible_dragons=10),
        line("Cy", dragon_vp=12, visible_dragons=3),
    ]})
    assert sorted(result["winners"]) == ["Ann", "Ben"]
    assert [line["place"] for line in result["lines"]] == [1, 1, 3]
    assert "share the place" in result["tiebreak"][0]


def test_negative_end_game_total_counts_against_the_player(scored):
    result = scored({"mode": "quick", "players": [line("Ann", dragon_vp=20, end_game_vp=-4)]})
    assert result["by_name"]["Ann"]["total"] == 16


def test_solo_game_ranks_the_player_against_the_automa_entry(scored):
    result = scored({"mode": "quick", "players": [line("Me", dragon_vp=50, visible_dragons=9)],
                     "automa": {"dragon_vp": 38, "guild_markers": [6], "cache_tokens": 7, "objective_vp": 10,
                                "visible_dragons": 10, "ravel": True}})
    automa = result["by_name"]["Automa"]
    assert automa["automa"] is True
    # Automa: 38 printed + 6 guild (Ravel Mode) + 7 cache tokens // 2 = 3 + 10 objectives
    assert automa["breakdown"]["cached"] == 3
    assert automa["total"] == 38 + 6 + 3 + 10 == 57
    assert result["winners"] == ["Automa"]


def test_the_automa_scores_her_end_game_squares_only_in_ravel_mode(scored):
    sheet = {"mode": "quick", "players": [line("Me", dragon_vp=5)], "automa": {"guild_markers": [6, 3]}}
    assert scored(sheet)["by_name"]["Automa"]["breakdown"]["guild"] == 0
    sheet["automa"]["ravel"] = True
    assert scored(sheet)["by_name"]["Automa"]["breakdown"]["guild"] == 9


def test_the_automa_entry_counts_cards_and_guild_steps_by_her_level(scored):
    result = scored({"mode": "quick", "players": [line("Me", dragon_vp=5)],
                     "automa": {"level": 3, "dragon_cards": 9, "cave_cards": 4, "guild_steps": 2}})
    breakdown = result["by_name"]["Automa"]["breakdown"]
    assert (breakdown["dragons"], breakdown["items"], breakdown["guild"]) == (9 * 8, 4 * 2, 2)
    level1 = scored({"mode": "quick", "players": [line("Me", dragon_vp=5)],
                     "automa": {"level": 1, "dragon_cards": 9}})
    assert level1["by_name"]["Automa"]["breakdown"]["dragons"] == 9 * 7


def test_a_tie_with_the_automa_goes_to_the_player(scored):
    result = scored({"mode": "quick", "players": [line("Me", dragon_vp=14, visible_dragons=2)],
                     "automa": {"dragon_cards": 2, "visible_dragons": 12}})
    assert result["by_name"]["Automa"]["total"] == result["by_name"]["Me"]["total"] == 14
    assert result["winners"] == ["Me"]


def test_objective_placements_take_the_round_vp_from_the_catalogue(scored):
    # Round VP on the tracker: 1st/2nd/3rd = 4/1/0, 5/2/1, 6/3/2, 7/4/3.
    result = scored({"mode": "quick", "players": [
        line("Ann", objective_places=[1, 2, 0, 1]),
        line("Ben", objective_places=["2nd", "1st", "all others", "2nd"]),
        line("Cy", objective_places=[3, 1, 0, "3rd"]),
    ]})
    assert result["by_name"]["Ann"]["breakdown"]["objectives"] == 4 + 2 + 0 + 7
    assert result["by_name"]["Ben"]["breakdown"]["objectives"] == 1 + 5 + 0 + 4
    assert result["by_name"]["Cy"]["breakdown"]["objectives"] == 0 + 5 + 0 + 3
