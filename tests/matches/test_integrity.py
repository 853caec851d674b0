"""A stored match that was changed outside the game is found on load, refused with its reason and left as it is;
`manage.py verify_matches` finds it too, and the migration sealed the matches that existed before the check."""
import importlib
import io

import pytest
from django.apps import apps as django_apps
from django.core.management import CommandError, call_command
from django.db.models import F

from game.matches import integrity, services
from game.matches.errors import MatchDamaged
from game.models import Match, MatchDecision

from .conftest import snapshot, user_at
from .test_replay import play_randomly

_sealing = importlib.import_module("game.migrations.0003_match_integrity").seal_existing
_record_sealing = importlib.import_module("game.migrations.0008_seal_covers_record").seal_the_record


def seal_existing(apps, schema_editor):
    """What the migrations do to the matches they find: chain and seal them (0003), then seal their record (0008)."""
    _sealing(apps, schema_editor)
    _record_sealing(apps, schema_editor)


@pytest.fixture
def played(started):
    """A two-player match twelve decisions in."""
    match = play_randomly(started.pk, 12, seed=5)
    assert match.version == 12
    return match


def lower_version(match):
    Match.objects.filter(pk=match.pk).update(version=F("version") - 1)


def add_decision_row(match):
    MatchDecision.objects.create(match=match, number=match.version + 1, seat=0, kind="pass", args=[])


def truncate_log(match):
    match.decisions.filter(number__gt=match.version - 2).delete()


def change_seed(match):
    Match.objects.filter(pk=match.pk).update(seed=F("seed") + 1)


def edit_hand(match):
    """Swap a card into a hand. Matches get random seeds, so after twelve random moves a given hand may be empty:
    the card goes into the first hand that holds one, or is added to an empty one."""
    state = match.state
    hands = [player["hand"] for player in state["players"]]
    hand = next((h for h in hands if h), hands[1])
    new_card = next(i for i in range(400) if all(i not in h for h in hands))
    if hand:
        hand[0] = new_card
    else:
        hand.append(new_card)
    Match.objects.filter(pk=match.pk).update(state=state)


def store_illegal_option(match):
    match.decisions.filter(number=match.version).update(kind="excavate", args=[99, 99])


CORRUPTIONS = [lower_version, add_decision_row, truncate_log, change_seed, edit_hand, store_illegal_option]


def verify_command(*args):
    out = io.StringIO()
    try:
        call_command("verify_matches", *args, stdout=out)
    except CommandError as exc:
        return 1, out.getvalue() + str(exc)
    return 0, out.getvalue()


def next_move(match):
    """(user, version, option) of the match's pending decision, read without the integrity check."""
    match = Match.objects.get(pk=match.pk)
    pending = match.state["pending"]
    return user_at(match, pending["player"]), match.version, pending["options"][0]


def test_a_whole_match_passes_every_check_and_plays_on(played):
    assert integrity.verify(Match.objects.get(pk=played.pk), replay=True) == []
    assert verify_command("--replay") == (0, "1 match checked (chain, seal and replay), 0 damaged\n")
    user, version, option = next_move(played)
    assert services.submit_decision(played.pk, user, version, option).version == 13


def test_every_move_extends_the_chain_from_the_setup(played):
    match = Match.objects.get(pk=played.pk)
    chain = integrity.genesis(match)
    for decision in match.decisions.order_by("number"):
        chain = integrity.link(chain, decision.number, decision.seat, decision.kind, decision.args)
        assert decision.link == chain
    assert match.chain == chain
    assert match.seal == integrity.seal(match, chain, match.version, match.state,
                                        integrity.record(match, match.seats.all()))


@pytest.mark.parametrize("corrupt", CORRUPTIONS)
def test_a_corrupted_match_is_refused_on_the_next_move_and_left_unchanged(played, corrupt):
    corrupt(played)
    before = snapshot(played.pk)
    user, version, option = next_move(played)
    with pytest.raises(MatchDamaged) as refused:
        services.submit_decision(played.pk, user, version, option)
    assert "damaged" in str(refused.value) and refused.value.reason in str(refused.value)
    assert snapshot(played.pk) == before


@pytest.mark.parametrize("corrupt", CORRUPTIONS)
def test_the_api_answers_a_corrupted_match_with_409_and_its_reason(played, corrupt, api_as):
    corrupt(played)
    before = snapshot(played.pk)
    user, version, option = next_move(played)
    response = api_as(user).post(f"/api/matches/{played.public_id}/decisions/", {"version": version, "option": option},
                                 format="json")
    assert response.status_code == 409
    assert "stored record is damaged" in response.json()["detail"]
    assert snapshot(played.pk) == before


@pytest.mark.parametrize("corrupt", [lower_version, change_seed, edit_hand])
def test_reading_a_match_with_a_broken_seal_is_refused_not_shown(played, corrupt, api_as, client, alice):
    corrupt(played)
    assert api_as(alice).get(f"/api/matches/{played.public_id}/").status_code == 409
    assert api_as(alice).get(f"/api/matches/{played.public_id}/options/").status_code == 409
    client.force_login(alice)
    page = client.get(f"/matches/{played.public_id}/")
    assert page.status_code == 409 and "stored record is damaged" in page.content.decode()


@pytest.mark.parametrize("corrupt, reason", [
    (lower_version, "holds decisions 1-12 but the match is at version 11"),
    (add_decision_row, "holds decisions 1-13 but the match is at version 12"),
    (truncate_log, "holds decisions 1-10 but the match is at version 12"),
    (change_seed, "the chain breaks at the setup (seed, players or options) or decision 1"),
    (edit_hand, "saved state, status, places or seats were changed outside the game"),
    (store_illegal_option, "the chain breaks at decision 12"),
])
def test_the_command_names_each_damaged_match_and_why(played, corrupt, reason, catalogue, alice, bob):
    whole = services.create_match(alice, players=2)
    services.join_match(whole.pk, bob)
    corrupt(played)
    before = snapshot(played.pk)
    code, out = verify_command()
    assert code == 1
    assert f"match {played.pk} (In play, version" in out and reason in out
    assert f"match {whole.pk} " not in out
    assert "2 matches checked (chain and seal), 1 damaged" in out
    assert snapshot(played.pk) == before


def test_an_edited_decision_early_in_the_log_is_found_by_the_command(played):
    played.decisions.filter(number=3).update(args=[0])
    code, out = verify_command(str(played.pk))
    assert code == 1 and "the chain breaks at decision 3" in out


def test_replay_finds_an_illegal_option_even_when_its_hashes_were_recomputed(played):
    """A decision the rules never allowed, stored with a valid chain (say by an old bug): only replay sees it."""
    played.decisions.filter(number=12).update(kind="excavate", args=[99, 99])
    match = Match.objects.get(pk=played.pk)
    seal_existing(django_apps, None)
    assert integrity.verify(Match.objects.get(pk=match.pk)) == []
    code, out = verify_command("--replay")
    assert code == 1 and "decision 12 is not legal on replay" in out


def test_replay_finds_a_snapshot_that_does_not_follow_from_the_log(played):
    edit_hand(played)
    seal_existing(django_apps, None)
    code, out = verify_command("--replay", str(played.pk))
    assert code == 1 and "replaying its log does not give its saved state" in out


def test_the_migration_seals_matches_that_existed_before_the_check(played, catalogue, alice, bob):
    broken = services.create_match(alice, players=2)
    services.join_match(broken.pk, bob)
    broken = play_randomly(broken.pk, 4, seed=1)
    broken.decisions.filter(number=2).delete()
    Match.objects.update(chain="", seal="")
    MatchDecision.objects.update(link="")
    seal_existing(django_apps, None)
    assert integrity.verify(Match.objects.get(pk=played.pk), replay=True) == []
    user, version, option = next_move(played)
    assert services.submit_decision(played.pk, user, version, option).version == 13
    # A log that does not run 1..version is left unsealed: refused, and named by the command.
    assert Match.objects.get(pk=broken.pk).seal == ""
    with pytest.raises(MatchDamaged, match="no seal"):
        services.load_state(Match.objects.get(pk=broken.pk))
    code, out = verify_command()
    assert code == 1 and f"match {broken.pk} " in out and f"match {played.pk} " not in out


def test_an_open_match_is_whole_and_the_command_refuses_unknown_ids(catalogue, alice):
    match = services.create_match(alice, players=3)
    assert verify_command(str(match.pk)) == (0, "1 match checked (chain and seal), 0 damaged\n")
    code, out = verify_command("999999")
    assert code == 1 and "no match with id 999999" in out


def test_reseal_accepts_a_deliberate_state_change_that_replay_still_reports(played):
    edit_hand(played)
    match = Match.objects.get(pk=played.pk)
    integrity.reseal(match)
    match.save(update_fields=["seal"])
    assert services.load_state(Match.objects.get(pk=played.pk)) is not None
    assert integrity.verify(Match.objects.get(pk=played.pk), replay=True) == [
        "replaying its log does not give its saved state"]
