"""The end of a match on its page: the winner and the tiebreak in words, and the final scoring per category."""
import pytest

from game.language.vocabulary import SCORE_CATEGORY_NAMES as CATEGORY_NAMES
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
    page = client.get(f"/matches/{scored.pk}/").content.decode()
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
    assert words["notes"] == ["alice and bob tie on 70 VP; the tie is broken by the most dragons on the mat "
                              "(alice 6, bob 4), so alice places higher."]
    result["dragons"] = [5, 5]
    scored.places = services.final_places(list(scored.seats.all()), result)
    words = present.ending(scored)
    assert scored.places == [1, 1]
    assert words["headline"] == "alice and bob share the win with 70 VP each."
    assert words["notes"] == ["alice and bob tie on 70 VP and on dragons on the mat (5 each), so they share the "
                              "place."]


def test_a_player_offered_the_rematch_on_the_final_page(client, scored, alice):
    client.force_login(alice)
    page = client.get(f"/matches/{scored.pk}/").content.decode()
    assert 'id="rematch-button"' in page
    response = client.post(f"/matches/{scored.pk}/rematch/")
    new = Match.objects.get(rematch_of=scored)
    assert response.status_code == 302 and response["Location"] == f"/matches/{new.pk}/"
    assert f'href="/matches/{new.pk}/"' in client.get(f"/matches/{scored.pk}/").content.decode()


def test_the_lobby_lists_matches_being_played_to_watch(client, catalogue, alice, bob, make_user):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    hidden = services.create_match(alice, players=2, private=True)
    client.force_login(make_user("dave"))
    page = client.get("/matches/").content.decode()
    section = page[page.index('id="ongoing-matches"'):]
    assert f'href="/matches/{match.pk}/"' in section
    assert f'href="/matches/{hidden.pk}/"' not in page
