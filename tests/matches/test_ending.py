"""The end of a match on its page: the winner and the tiebreak in words, and the final scoring per category."""
import pytest
from django.utils.html import escape

from game.language.vocabulary import AUTOMA_SCORE_NAMES, SCORE_CATEGORIES, SCORE_CATEGORY_NAMES as CATEGORY_NAMES
from game.matches import present, services
from game.models import Match

from .conftest import play_randomly


@pytest.fixture
def scored(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    match = play_randomly(match.pk, 5000, seed=11)
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.SCORED
    return match


def test_the_board_of_a_scored_match_shows_the_winner_and_every_category(client, scored):
    result = scored.state["result"]
    page = client.get(f"/matches/{scored.public_id}/").content.decode()
    winner = scored.seats.get(seat=result["winners"][0]).user.username
    total = result["scores"][result["winners"][0]]["total"]
    if len(result["winners"]) == 1:
        assert f"{winner} wins with {total} VP." in page
    for label in CATEGORY_NAMES.values():
        assert label in page
    for seat, score in enumerate(result["scores"]):
        assert f'data-category="eggs">{score["eggs"]}<' in page
    assert scored.places == result["places"]
    assert 'id="rematch-button"' not in page  # a spectator is not offered a rematch


def test_a_tie_is_explained_with_the_dragons_on_the_mat(scored):
    state = dict(scored.state)
    result = dict(state["result"])
    result["scores"] = [dict(s, total=70) for s in result["scores"]]
    result["dragons"] = [6, 4]
    state["result"] = result
    scored.state = state
    scored.places = services.final_places(list(scored.seats.all()), result)
    words = present.ending(scored)
    assert scored.places == [1, 2]
    assert words["headline"] == "alice wins with 70 VP."
    assert words["notes"] == ["alice and bob tie on 70 VP; the tiebreak is the most dragons on the mat "
                              "(alice 6, bob 4), so alice takes the higher place."]
    result["dragons"] = [5, 5]
    scored.places = services.final_places(list(scored.seats.all()), result)
    words = present.ending(scored)
    assert scored.places == [1, 1]
    assert words["headline"] == "alice and bob share the win with 70 VP each."
    assert words["notes"] == ["alice and bob tie on 70 VP and on dragons on the mat (5 each), so they share the "
                              "place."]


@pytest.fixture
def solo(catalogue, alice):
    match = services.play_now(alice, opponent="automa", automa_level=1)
    match = play_randomly(match.pk, 5000, seed=4)
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.SCORED
    return match


def test_the_automas_line_of_a_solo_ending_is_her_own_parts_as_the_engine_scored_them(client, solo):
    result = solo.state["result"]
    hers = result["scores"][1]
    words = present.ending(solo)
    assert words["names"] == ["alice", "The Automa"]
    mat_rows = [row for row in words["rows"] if not row["automa"]]
    her_rows = [row for row in words["rows"] if row["automa"]]
    # Her column is empty on every mat category; her parts are the engine's breakdown, in her own words.
    assert [row["values"][1] for row in mat_rows] == [None] * len(CATEGORY_NAMES)
    assert [row["values"][0] for row in mat_rows] == [result["scores"][0][key] for key in CATEGORY_NAMES]
    assert {row["key"]: row["values"][1] for row in her_rows} == {key: hers[key] for key in AUTOMA_SCORE_NAMES}
    assert all(row["values"][0] is None for row in her_rows)
    assert all(hers[key] == 0 for key in SCORE_CATEGORIES if key not in AUTOMA_SCORE_NAMES)
    assert sum(row["values"][1] for row in her_rows) == hers["total"] == words["totals"][1]
    line = next(line for line in words["ranking"] if line["name"] == "The Automa")
    assert line["dragon_words"].endswith("taken") and "mat" not in line["dragon_words"]
    assert not any("mat" in row["label"] for row in her_rows)

    client.force_login(solo.creator)  # a game against the Automa is private: her player sees it
    page = client.get(f"/matches/{solo.public_id}/").content.decode()
    ranking = page[page.index('id="ranking"'):page.index("</ol>", page.index('id="ranking"'))]
    her_item = next(item for item in ranking.split("<li") if "The Automa" in item)
    assert f"{hers['total']} VP" in her_item and "on the mat" not in her_item
    for key, label in AUTOMA_SCORE_NAMES.items():
        assert escape(f"Automa: {label}") in page
        assert f'data-category="automa.{key}">{hers[key]}<' in page


def test_a_solo_tie_goes_to_the_player_and_says_so_without_the_mat(solo):
    state = dict(solo.state)
    result = dict(state["result"])
    result["scores"] = [dict(s, total=70) for s in result["scores"]]
    result["places"] = [1, 2]
    result["dragons"] = [2, 9]  # her cards taken break no tie
    state["result"] = result
    solo.state = state
    words = present.ending(solo)
    assert words["headline"] == "alice wins with 70 VP."
    assert words["notes"] == ["alice and the Automa tie on 70 VP; against the Automa a tie goes to the player, "
                              "so alice takes the higher place."]
    assert not any("mat" in note for note in words["notes"])


def test_a_player_offered_the_rematch_on_the_final_page(client, scored, alice):
    client.force_login(alice)
    page = client.get(f"/matches/{scored.public_id}/").content.decode()
    assert 'id="rematch-button"' in page
    response = client.post(f"/matches/{scored.public_id}/rematch/")
    new = Match.objects.get(rematch_of=scored)
    assert response.status_code == 302 and response["Location"] == f"/matches/{new.public_id}/"
    assert f'href="/matches/{new.public_id}/"' in client.get(f"/matches/{scored.public_id}/").content.decode()


def test_the_lobby_lists_matches_being_played_to_watch(client, catalogue, alice, bob, make_user):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    hidden = services.create_match(alice, players=2, private=True)
    client.force_login(make_user("dave"))
    page = client.get("/matches/").content.decode()
    section = page[page.index('id="ongoing-matches"'):]
    assert f'href="/matches/{match.public_id}/"' in section
    assert f'href="/matches/{hidden.public_id}/"' not in page
