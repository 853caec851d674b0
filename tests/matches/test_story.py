"""The match log: each decision's events kept with it, told as a story grouped by turn and round."""
from game import catalogue
from game.engine.decisions import Option
from game.engine.state import GameState
from game.models import Match, MatchDecision

from .conftest import play_randomly


def story_texts(api_as, user, match):
    return [(g["title"], [(line["decision"], line["text"]) for line in g["lines"]])
            for g in api_as(user).get(f"/api/matches/{match.public_id}/").json()["log"]]


def test_each_decision_keeps_the_events_the_engine_gave_it(started):
    match = play_randomly(started.pk, 40, seed=3)
    engine = catalogue.frozen(match.catalogue_id).engine
    state = GameState.new(engine, players=2, seed=match.seed, academy=match.academy, updated=match.updated)
    for row in match.decisions.order_by("number"):
        assert row.events == state.apply(Option(row.kind, tuple(row.args))), row.number


def test_the_log_is_grouped_by_turn_and_round(api_as, started, alice):
    match = play_randomly(started.pk, 60, seed=5)
    groups = api_as(alice).get(f"/api/matches/{match.public_id}/").json()["log"]
    assert groups[0]["title"] == "Setup" and "dealt" in [line["kind"] for line in groups[0]["lines"]]
    turns = [g for g in groups if g["seat"] is not None]
    assert len(turns) >= 5
    names = [s["user"] for s in api_as(alice).get(f"/api/matches/{match.public_id}/").json()["seats"]]
    for group in turns:
        assert group["title"] == f"Round {group['round']}: {names[group['seat']]}'s turn"
        # In a turn only its player acts, but an opponent who takes a share of an ability acts after saying so.
        sharing = set()
        for line in group["lines"]:
            if line["kind"] == "share":
                sharing.add(line["seat"])
            assert line["seat"] in (group["seat"], None) or line["seat"] in sharing or line["kind"] == "objective"
    numbers = [line["decision"] for g in groups for line in g["lines"]]
    assert numbers == sorted(numbers) and numbers[-1] <= match.version
    assert not any(line["text"] in ("alice: Yes", "bob: Yes") for g in groups for line in g["lines"])


def test_decisions_stored_before_events_were_kept_are_told_by_replaying_the_log(api_as, started, alice, bob):
    match = play_randomly(started.pk, 30, seed=8)
    before = {user.username: story_texts(api_as, user, match) for user in (alice, bob)}
    MatchDecision.objects.filter(match=match).update(events=None)
    match = Match.objects.get(pk=match.pk)
    for user in (alice, bob):
        assert story_texts(api_as, user, match) == before[user.username]


def test_a_solo_match_tells_its_setup_and_the_automas_turns(api_as, catalogue, alice, caplog):
    """The setup's events are replayed from the match's engine options, the Automa's included (a solo match set up
    without her used to fail to replay and leave the setup out, logging an error on every poll)."""
    from game.matches import services

    match = services.play_now(alice, opponent="automa", automa_level=1)
    match = play_randomly(match.pk, 30, seed=2)
    with caplog.at_level("ERROR", logger="game.matches.present"):
        groups = api_as(alice).get(f"/api/matches/{match.public_id}/").json()["log"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert groups[0]["title"] == "Setup" and "dealt" in [line["kind"] for line in groups[0]["lines"]]
    assert "automa_turn" in [line["kind"] for g in groups for line in g["lines"]]


def test_a_rounds_end_is_told_as_its_own_group_with_the_objective_standings_and_income(api_as, started, alice):
    from game.matches import services

    match = play_randomly(started.pk, 1, seed=5)
    while services.load_state(match).round == 1:  # play on until round 2 has begun
        match = play_randomly(started.pk, 1, seed=match.version)
    match = play_randomly(started.pk, 2, seed=1)
    scored = next(e for row in match.decisions.order_by("number") for e in row.events
                  if e["e"] == "objective" and e["round"] == 1)
    body = api_as(alice).get(f"/api/matches/{match.public_id}/").json()
    names = [s["user"] for s in body["seats"]]
    [group] = [g for g in body["log"] if g["title"] == "End of round 1"]
    assert group["round"] == 1 and group["seat"] is None
    kinds = [line["kind"] for line in group["lines"]]
    assert kinds[0] == "round_ended" and "objective" in kinds and "round_started" in kinds
    [objective] = [line["text"] for line in group["lines"] if line["kind"] == "objective"]
    ordinal = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    for seat, name in enumerate(names):  # each player's count, place and VP, as the engine scored them
        count, place, vp = scored["counts"][seat], scored["places"][seat], scored["vp"][seat]
        told = f"({ordinal[place]}, {vp} VP)" if place in ordinal and vp else "(no place)"
        assert f"{name} {count} {told}" in objective, (objective, scored)
    # then round 2's income, for every player, before round 2's first turn
    income = [line for line in group["lines"] if line["kind"] == "income"]
    assert sorted(line["seat"] for line in income) == [0, 1]
    assert all(line["text"] == f"{names[line['seat']]} took their income." for line in income)
    assert kinds.index("round_started") < kinds.index("income")
    gained = kinds.index("income") + 1
    assert group["lines"][gained]["kind"] == "gained" and "gained" in group["lines"][gained]["text"]


def test_a_solo_story_names_the_automa_and_speaks_of_one_player(api_as, catalogue, alice):
    from game.matches import services

    match = services.play_now(alice, opponent="automa", automa_level=1)
    lines = [line["text"] for g in api_as(alice).get(f"/api/matches/{match.public_id}/").json()["log"]
             for line in g["lines"]]
    assert "The game began: alice against the Automa." in lines
    match = play_randomly(match.pk, 5000, seed=4)
    assert match.status == Match.Status.FINISHED
    told = " ".join(line["text"] for g in api_as(alice).get(f"/api/matches/{match.public_id}/").json()["log"]
                    for line in g["lines"])
    scores = match.state["result"]["scores"]
    assert f"The Automa {scores[1]['total']} VP" in told and f"alice {scores[0]['total']} VP" in told
    assert "Player 2" not in told and "1 players" not in told
