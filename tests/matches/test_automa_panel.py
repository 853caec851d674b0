"""A solo match's page data carries the Automa's open side of the table for its panel (static/match.js
renderAutoma): her level and mode, the cards she took with their names, her token and markers, her objective
count and placings, her cache and her score as it stands; never her deck's order or the card set aside. The page
links to the solo help, which says which of her rules are not official."""
import pytest

from game.engine import automa
from game.language.vocabulary import automa_score_names
from game.matches import seeds, services
from game.models import Match

from .conftest import play_randomly


def solo_until(match, seed, ready, limit=400):
    """Random moves for the player until `ready(state)` holds while the game is still on; returns the state then."""
    for _ in range(limit // 10):
        state = services.load_state(Match.objects.get(pk=match.pk))
        if state.pending is not None and ready(state):
            return state
        play_randomly(match.pk, 10, seed)
        seed += 1
    raise AssertionError("the solo game never got there")


@pytest.fixture
def fixed_seed(monkeypatch):
    """Play now deals from a random seed; these tests deal a known game, so a random path cannot end it early."""
    monkeypatch.setattr(seeds, "new_seed", lambda: 20261202)


@pytest.mark.parametrize("level, ravel", [(2, True), (3, False)])
def test_the_match_api_shows_the_automa_as_she_lies_on_the_table(api_as, catalogue, alice, level, ravel, fixed_seed):
    match = services.play_now(alice, opponent="automa", automa_level=level, ravel=ravel)
    state = solo_until(match, 5, lambda st: st.automa["dragons"] and st.automa["markers"] and st.round >= 2)
    body = api_as(alice).get(f"/api/matches/{match.public_id}/").json()
    her = body["view"]["automa"]

    assert (her["seat"], her["level"], her["ravel"]) == (1, level, ravel)
    assert her["dragon_cards"] == state.automa["dragons"] and her["cave_cards"] == state.automa["caves"]
    for d in her["dragon_cards"]:  # named, so the panel can list them
        assert body["cards"]["dragons"][str(d)]["name"]
    for c in her["cave_cards"]:
        assert body["cards"]["caves"][str(c)]["number"]
    assert her["guild_space"] == automa.guild_space(state.cat, state.automa["guild"])
    assert her["guild_markers"] == state.automa["markers"]
    on_tile = sum(square.count(1) for row in body["view"]["guild"]["squares"] for square in row)
    assert on_tile == len(her["guild_markers"])
    assert her["objective_places"] == state.automa["objectives"] and len(her["objective_places"]) == state.round - 1
    assert her["score"] == automa.current_score(state)
    assert her["score"]["total"] == sum(her["score"][c] for c in body["view"]["score_categories"])
    # Her parts are named once (the vocabulary), for the panel and the end table alike; every VP she has is in one.
    assert her["score_names"] == automa_score_names(ravel)
    assert her["score"]["total"] == sum(her["score"][c] for c in her["score_names"])
    # Her deck's order and the card set aside are hidden: only how many.
    assert "deck" not in her and "aside" not in her
    assert her["deck_count"] + her["set_aside_count"] + len(her["played"]) == len(her["cards"]) == 8


def test_an_academy_solo_match_shows_her_cache(api_as, catalogue, alice, fixed_seed):
    match = services.play_now(alice, opponent="automa", automa_level=1, academy=True)
    state = solo_until(match, 11, lambda st: st.round >= 2)
    her = api_as(alice).get(f"/api/matches/{match.public_id}/").json()["view"]["automa"]
    assert her["cache_tokens"] == state.automa["cache"]
    assert her["score"]["cached"] == state.automa["cache"] // 2


def test_a_match_of_players_has_no_automa(api_as, started, alice):
    body = api_as(alice).get(f"/api/matches/{started.public_id}/").json()
    assert body["view"]["automa"] is None


def test_the_solo_page_has_the_automa_panel_and_links_to_the_solo_help(client, catalogue, alice):
    match = services.play_now(alice, opponent="automa", automa_level=2, ravel=True)
    client.force_login(alice)
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="automa"' in page
    help_note = page.split('id="solo-help"')[1].split("</p>")[0]
    assert "level 2 in Ravel Mode" in help_note and 'href="/rules/#solo"' in help_note
    assert 'id="solo"' in client.get("/rules/").content.decode()  # the link lands on the solo section


def test_a_match_of_players_has_no_automa_panel_or_solo_help(client, started, alice):
    client.force_login(alice)
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    assert 'id="automa"' not in page and 'id="solo-help"' not in page
