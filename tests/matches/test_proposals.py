"""Take-back requests and abandon offers (game/matches/proposals.py): asked by a seated player, answered by every
other person still playing, lapsed by any decision after them; a take-back rebuilds the match from its options, seed
and the shorter log, with its chain and seal, and an abandoned match ends with no winner and no rating change."""
import pytest

from cardsite.api_errors import StaleVersion
from game.matches import integrity, present, proposals, services
from game.matches.errors import InvalidInput, MatchClosed, NotSeated
from game.models import Match, MatchProposal, PlayerRating
from game.ratings.service import rate_finished

from .conftest import pending, snapshot, user_at


def through_setup(match):
    """Every seat's setup choices (first options): the match waits for the start player's first main action."""
    while pending(match)[1] != "main_action":
        m = Match.objects.get(pk=match.pk)
        services.submit_decision(m.pk, user_at(m, pending(m)[0]), m.version, pending(m)[2][0])
    return Match.objects.get(pk=match.pk)


def one_turn(match):
    """The player to move takes a whole turn (a main action other than passing, then the first option of each
    question it brings) until another seat is to choose. Returns (the seat that played, decisions taken)."""
    seat = pending(match)[0]
    taken = 0
    while True:
        m = Match.objects.get(pk=match.pk)
        who, kind, options = pending(m)
        if who != seat or (taken and kind == "main_action"):
            return seat, taken
        if kind == "main_action":
            options = [o for o in options if o["kind"] in ("explore", "entice", "excavate")] or options
        services.submit_decision(m.pk, user_at(m, seat), m.version, options[0])
        taken += 1


@pytest.fixture
def turn_played(started):
    """The start player has played their first turn; the other player has not moved since. Returns (match, the
    seat that played, the version before the turn, the state then)."""
    match = through_setup(started)
    before = (match.version, match.state)
    seat, _ = one_turn(match)
    return Match.objects.get(pk=match.pk), seat, before


def test_a_take_back_accepted_rebuilds_the_match_as_before_the_turn(turn_played):
    match, seat, (version, state) = turn_played
    asker, other = user_at(match, seat), user_at(match, 1 - seat)
    proposal = proposals.propose(match.pk, asker, "takeback")
    assert (proposal.status, proposal.back_to, proposal.version) == ("open", version, match.version)
    shown, _, key = proposals.shown(Match.objects.get(pk=match.pk), other)
    assert shown["you_answer"] and not shown["yours"] and key
    proposals.answer(match.pk, other, proposal.pk, True, match.version)
    match = Match.objects.get(pk=match.pk)
    assert match.version == version and match.state == state
    assert match.decisions.count() == version
    assert pending(match)[0] == seat and match.to_move == seat
    assert integrity.verify(match, replay=True) == []
    assert MatchProposal.objects.get(pk=proposal.pk).status == "accepted"
    # The log says so, and the player moves again from there.
    data = present.match_json(services.read_match(match.pk, log_length=present.LOG_LENGTH), other)
    lines = [line["text"] for group in data["log"] for line in group["lines"]]
    assert any("took back their last move" in line for line in lines)
    assert data["proposal"] is None
    services.submit_decision(match.pk, asker, version, pending(match)[2][0])
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []


def test_a_declined_take_back_changes_nothing(turn_played):
    match, seat, _ = turn_played
    proposal = proposals.propose(match.pk, user_at(match, seat), "takeback")
    before = snapshot(match.pk)
    proposals.answer(match.pk, user_at(match, 1 - seat), proposal.pk, False)
    assert snapshot(match.pk) == before
    assert MatchProposal.objects.get(pk=proposal.pk).status == "declined"
    with pytest.raises(MatchClosed):  # answered: no longer open
        proposals.answer(match.pk, user_at(match, 1 - seat), proposal.pk, True)


def test_a_move_after_the_request_lapses_it(turn_played):
    match, seat, _ = turn_played
    other = user_at(match, 1 - seat)
    proposal = proposals.propose(match.pk, user_at(match, seat), "takeback")
    services.submit_decision(match.pk, other, match.version, pending(match)[2][0])
    assert proposals.shown(Match.objects.get(pk=match.pk), other)[0] is None
    before = snapshot(match.pk)
    with pytest.raises(StaleVersion):
        proposals.answer(match.pk, other, proposal.pk, True)
    assert snapshot(match.pk) == before
    assert MatchProposal.objects.get(pk=proposal.pk).status == "lapsed"


def test_an_answer_at_a_version_the_match_left_is_refused_as_stale(turn_played):
    match, seat, _ = turn_played
    proposal = proposals.propose(match.pk, user_at(match, seat), "takeback")
    before = snapshot(match.pk)
    with pytest.raises(StaleVersion):
        proposals.answer(match.pk, user_at(match, 1 - seat), proposal.pk, True, version=match.version - 1)
    assert snapshot(match.pk) == before
    assert MatchProposal.objects.get(pk=proposal.pk).status == "open"


def test_nothing_to_take_back_once_the_other_player_has_moved(turn_played):
    match, seat, _ = turn_played
    with pytest.raises(MatchClosed, match="no move to take back"):
        proposals.propose(match.pk, user_at(match, 1 - seat), "takeback")


def test_only_one_proposal_is_open_and_the_asker_cancels_not_answers(turn_played):
    match, seat, _ = turn_played
    asker, other = user_at(match, seat), user_at(match, 1 - seat)
    proposal = proposals.propose(match.pk, asker, "takeback")
    with pytest.raises(MatchClosed):
        proposals.propose(match.pk, other, "abandon")
    with pytest.raises(MatchClosed, match="cancel it instead"):
        proposals.answer(match.pk, asker, proposal.pk, True)
    with pytest.raises(NotSeated):
        proposals.cancel(match.pk, other, proposal.pk)
    proposals.cancel(match.pk, asker, proposal.pk)
    assert MatchProposal.objects.get(pk=proposal.pk).status == "cancelled"
    proposals.propose(match.pk, other, "abandon")  # the way is free again


def test_someone_without_a_seat_can_neither_ask_nor_answer(turn_played, carol):
    match, seat, _ = turn_played
    with pytest.raises(NotSeated):
        proposals.propose(match.pk, carol, "abandon")
    proposal = proposals.propose(match.pk, user_at(match, seat), "abandon")
    with pytest.raises(NotSeated):
        proposals.answer(match.pk, carol, proposal.pk, True)


def test_a_match_not_in_play_takes_no_proposal(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    with pytest.raises(MatchClosed):
        proposals.propose(match.pk, alice, "abandon")


@pytest.mark.parametrize("kind", ["undo", "", None, 1, ["takeback"]])
def test_a_kind_that_is_not_takeback_or_abandon_is_refused_by_name(started, alice, kind):
    with pytest.raises(InvalidInput) as err:
        proposals.propose(started.pk, alice, kind)
    assert err.value.field == "kind"
    assert not MatchProposal.objects.exists()


def test_bad_answers_name_their_field(turn_played):
    match, seat, _ = turn_played
    other = user_at(match, 1 - seat)
    proposal = proposals.propose(match.pk, user_at(match, seat), "abandon")
    for args, field in (((proposal.pk, "yes"), "agree"), (("x", True), "proposal"),
                        ((proposal.pk + 99, True), "proposal"), ((proposal.pk, True, "3"), "version")):
        with pytest.raises(InvalidInput) as err:
            proposals.answer(match.pk, other, *args)
        assert err.value.field == field


def test_an_abandoned_match_ends_with_no_winner_and_no_rating_change(turn_played):
    match, seat, _ = turn_played
    proposal = proposals.propose(match.pk, user_at(match, seat), "abandon")
    proposals.answer(match.pk, user_at(match, 1 - seat), proposal.pk, True)
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.ending, match.places, match.to_move) == ("finished", "abandoned", None, None)
    assert integrity.verify(match, replay=True) == []
    rate_finished()
    assert not PlayerRating.objects.exists()
    assert present.ending(match)["headline"].startswith("The match was abandoned")
    with pytest.raises(MatchClosed):
        proposals.propose(match.pk, user_at(match, seat), "abandon")


def test_bots_never_agree(catalogue, alice):
    match = services.play_now(alice, opponent="bots", bot_levels=["random"])
    for kind in ("takeback", "abandon"):
        with pytest.raises(MatchClosed, match="bots"):
            proposals.propose(match.pk, alice, kind)


def test_three_players_all_must_agree(catalogue, alice, bob, carol):
    match = services.create_match(alice, players=3)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    match = Match.objects.get(pk=match.pk)
    asker = user_at(match, 0)
    proposal = proposals.propose(match.pk, asker, "abandon")
    proposals.answer(match.pk, user_at(match, 1), proposal.pk, True)
    assert Match.objects.get(pk=match.pk).status == "playing"
    shown = proposals.shown(Match.objects.get(pk=match.pk), asker)[0]
    assert shown["waiting_for"] == [user_at(match, 2).username]
    proposals.answer(match.pk, user_at(match, 2), proposal.pk, True)
    assert Match.objects.get(pk=match.pk).ending == "abandoned"


# -- the API ---------------------------------------------------------------------------------------------------------

def test_the_api_asks_and_accepts_a_take_back(turn_played, api_as):
    match, seat, (version, _) = turn_played
    url = f"/api/matches/{match.public_id}/proposals/"
    answer = api_as(user_at(match, seat)).post(url, {"kind": "takeback"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["proposal"]["kind"] == "takeback" and body["proposal"]["yours"]
    other = api_as(user_at(match, 1 - seat))
    seen = other.get(f"/api/matches/{match.public_id}/").json()
    assert seen["proposal"]["you_answer"] and seen["proposal_key"]
    answer = other.post(f"{url}{body['proposal']['id']}/accept/", {"version": match.version}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["match"]["version"] == version and answer.json()["proposal"] is None
    assert answer.json()["acted_on"]["status"] == "accepted"


def test_the_api_names_the_field_of_a_bad_request(turn_played, api_as):
    match, seat, _ = turn_played
    url = f"/api/matches/{match.public_id}/proposals/"
    client = api_as(user_at(match, seat))
    for body, field in (({}, "kind"), ({"kind": "undo"}, "kind"), ({"kind": "abandon", "why": 1}, "why")):
        answer = client.post(url, body, format="json")
        assert answer.status_code == 400 and answer.json()["field"] == field, answer.content
    proposal = client.post(url, {"kind": "abandon"}, format="json").json()["proposal"]
    other = api_as(user_at(match, 1 - seat))
    answer = other.post(f"{url}{proposal['id']}/shrug/", {}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "action"
    answer = other.post(f"{url}{proposal['id']}/accept/", {"version": "now"}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "version"
    answer = other.post(f"{url}{proposal['id']}/accept/", {"version": match.version + 1}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "stale_version"
    answer = other.post(f"{url}{proposal['id']}/decline/", {}, format="json")
    assert answer.status_code == 200 and answer.json()["acted_on"]["status"] == "declined"


def test_the_api_refuses_strangers_and_matches_not_in_play(turn_played, api_as, carol):
    match, seat, _ = turn_played
    answer = api_as(carol).post(f"/api/matches/{match.public_id}/proposals/", {"kind": "abandon"}, format="json")
    assert answer.status_code == 403
    answer = api_as(None).post(f"/api/matches/{match.public_id}/proposals/", {"kind": "abandon"}, format="json")
    assert answer.status_code in (400, 401, 403)


def test_the_board_page_shows_the_request_with_its_buttons(turn_played, client):
    match, seat, _ = turn_played
    proposals.propose(match.pk, user_at(match, seat), "takeback")
    client.force_login(user_at(match, 1 - seat))
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="proposal-accept"' in page and 'id="proposal-decline"' in page and "take back" in page
    client.force_login(user_at(match, seat))
    page = client.get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="proposal-cancel"' in page and 'id="proposal-accept"' not in page


def test_the_board_forms_ask_and_answer_without_the_script(turn_played, client):
    match, seat, (version, _) = turn_played
    client.force_login(user_at(match, seat))
    answer = client.post(f"/matches/{match.public_id}/proposals/", {"kind": "nonsense"})
    assert answer.status_code == 400 and "expected one of" in answer.content.decode()
    answer = client.post(f"/matches/{match.public_id}/proposals/", {"kind": "takeback"})
    assert answer.status_code == 302 and answer["Location"].endswith("#proposals")
    proposal = MatchProposal.objects.get()
    client.force_login(user_at(match, 1 - seat))
    answer = client.post(f"/matches/{match.public_id}/proposals/{proposal.pk}/accept/", {"version": str(match.version)})
    assert answer.status_code == 302
    assert Match.objects.get(pk=match.pk).version == version
    answer = client.post(f"/matches/{match.public_id}/proposals/{proposal.pk}/accept/", {})
    assert answer.status_code == 409 and "no longer open" in answer.content.decode()


def test_a_take_back_undoes_only_the_last_of_several_turns_in_a_row(started):
    match = through_setup(started)
    first = pending(match)[0]
    services.submit_decision(match.pk, user_at(match, first), match.version, {"kind": "pass", "args": []})
    match = Match.objects.get(pk=match.pk)
    other = pending(match)[0]
    assert other != first
    one_turn(match)  # the first player has passed: the other plays turn after turn
    match = Match.objects.get(pk=match.pk)
    assert pending(match)[0] == other and pending(match)[1] == "main_action"
    second_turn_at = match.version
    one_turn(match)
    match = Match.objects.get(pk=match.pk)
    assert pending(match)[0] == other, "still the same player's turns"
    proposal = proposals.propose(match.pk, user_at(match, other), "takeback")
    assert proposal.back_to == second_turn_at
