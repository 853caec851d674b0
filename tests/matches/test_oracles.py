"""No request is an oracle for what a player may not see. Every path that applies several choices or tries them
(a confirmed turn, the turn's try-out, a standing order's answer, "Analyse from here") is asked with the true hidden
card and with wrong guesses, or with the other player's private settings one way and another: the answers must not
differ (status, body, field), and nothing may be stored."""
import json
import random

from game.engine.decisions import Option
from game.engine.determinize import determinize
from game.matches import orders, services
from game.models import Match

from .conftest import snapshot, user_at

INVALID = {"kind": "entice", "args": [9999, 0]}  # refused whatever came to light before it
TWINS = 6  # worlds the player cannot tell from the real one, dealt by the engine's own door


def _after(state, first):
    trial = state.clone()
    trial.events = None
    trial.apply(first)
    return trial


def _guesses(state, seat, first):
    """(true answers, wrong answers) to the question `seat` is asked after `first`, when `first` draws or reveals
    something and the question's options depend on what came to light; None otherwise."""
    trial = state.clone()
    marks = trial.hidden_mark()
    trial.apply(first)
    if trial.pending is None or trial.pending.player != seat or trial.hidden_mark() == marks:
        return None
    true = trial.legal_options()
    right, wrong = set(), []
    for k in range(TWINS):
        twin = determinize(state, seat, k)
        twin.apply(first)
        if twin.pending is None or twin.pending.player != seat:
            continue
        theirs = twin.legal_options()
        right.update(o for o in true if o not in theirs)
        wrong += [o for o in theirs if o not in true and o not in wrong]
    if not right or not wrong:
        return None
    return sorted(right, key=repr)[:2], wrong[:3]


def _playing(match_id):
    """The match and its state; once the game is over, its rematch (a new deal, the same players)."""
    match = Match.objects.get(pk=match_id)
    state = services.load_state(match)
    if state.pending is None:
        match = services.rematch(match.pk, user_at(match, 0))
        state = services.load_state(match)
    return match, state


def play_until_a_telling_reveal(match_id, seed):
    """Play on at random until the player to move has a choice that draws or reveals a card and is then asked a
    question whose options tell which card it was (the next question names the card drawn: discard it, excavate
    it, entice it); a finished game is followed by its rematch. Answers the match, the user, the version, that choice, true answers and wrong guesses."""
    rng = random.Random(seed)
    while True:
        match, state = _playing(match_id)
        seat = state.pending.player
        for first in state.legal_options():
            found = _guesses(state, seat, first)
            if found:
                return match, user_at(match, seat), match.version, first, *found
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user_at(match, seat), match.version, option.to_dict())
        match_id = match.pk


def play_until_an_offer(match_id, seed):
    """Play on at random until the player to move has a choice that makes the other player an offer (question
    kind `opponent_offer`); a finished game is followed by its rematch. Answers the match, the mover, the other player, the version and that choice."""
    rng = random.Random(seed)
    while True:
        match, state = _playing(match_id)
        seat = state.pending.player
        for first in state.legal_options():
            trial = _after(state, first)
            if trial.pending is not None and trial.pending.player != seat and orders.is_offer(trial):
                return match, user_at(match, seat), user_at(match, trial.pending.player), match.version, first
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user_at(match, seat), match.version, option.to_dict())
        match_id = match.pk


def turn(client, match, body):
    answer = client.post(f"/api/matches/{match.public_id}/turns/", data=json.dumps(body), content_type="application/json")
    return answer.status_code, answer.json()


def preview(client, match, body):
    answer = client.post(f"/api/matches/{match.public_id}/preview/", data=json.dumps(body),
                         content_type="application/json")
    return answer.status_code, answer.json()


def test_a_turn_after_a_draw_answers_the_same_to_the_true_card_and_to_wrong_guesses(api_as, started):
    started, user, version, first, right, wrong = play_until_a_telling_reveal(started.pk, seed=3)
    client = api_as(user)
    before = snapshot(started.pk)
    answers = set()
    # The guess followed by a choice refused anyway: were the guess tried, a right one would be passed and the
    # refusal would name the choice after it, a wrong one would be refused itself.
    for tail in ([{"version": version + 2, "option": INVALID}], []):
        for guess in right + wrong:
            body = {"decisions": [{"version": version, "option": first.to_dict()},
                                  {"version": version + 1, "option": guess.to_dict()}] + tail}
            status, answer = turn(client, started, body)
            answers.add((status, json.dumps(answer, sort_keys=True)))
            assert snapshot(started.pk) == before
        assert len(answers) == 1, answers  # the same refusal, whatever the guess and whatever follows it
    status, answer = answers.pop()
    assert status == 400 and json.loads(answer)["field"] == "decisions[1]", answer
    # Sent up to the draw, the turn is taken, and the draw is kept.
    status, answer = turn(client, started, {"decisions": [{"version": version, "option": first.to_dict()}]})
    assert status == 201, answer
    assert Match.objects.get(pk=started.pk).version == version + 1


def test_a_turn_tried_out_past_a_draw_answers_the_same_to_the_true_card_and_to_wrong_guesses(api_as, started):
    started, user, version, first, right, wrong = play_until_a_telling_reveal(started.pk, seed=4)
    client = api_as(user)
    before = snapshot(started.pk)
    answers = set()
    for guess in right + wrong:
        for tail in ([], [INVALID]):
            status, answer = preview(client, started, {"version": version,
                                                       "options": [first.to_dict(), guess.to_dict()] + tail})
            assert status == 400, answer
            answers.add(json.dumps(answer, sort_keys=True))
    assert len(answers) == 1, answers
    assert snapshot(started.pk) == before


def test_a_turn_past_an_offer_does_not_tell_the_other_players_standing_orders(api_as, started):
    started, mover, other, version, first = play_until_an_offer(started.pk, seed=2)
    client = api_as(mover)
    before = snapshot(started.pk)
    answers = set()
    for order in (None, "yes", "no"):
        if order is not None:
            orders.set_orders(started.pk, other, {"free_offer": order, "paid_offer": order})
        for second in ({"kind": "pass", "args": []}, INVALID, Option("yes").to_dict()):
            body = {"decisions": [{"version": version, "option": first.to_dict()},
                                  {"version": version + 1, "option": second}]}
            status, answer = turn(client, started, body)
            assert status == 400, (order, second, answer)
            answers.add(json.dumps(answer, sort_keys=True))
            assert snapshot(started.pk) == before
    assert len(answers) == 1, answers


def _hidden_twin(match, viewer, rng):
    """The match's stored state with what `viewer` cannot see dealt differently: the other hands' cards swapped
    with deck cards, the decks shuffled, another state of the generator (stored and sealed as a whole match)."""
    data = json.loads(json.dumps(match.state))
    for seat, pl in enumerate(data["players"]):
        if seat == viewer:
            continue
        for hand, deck in (("hand", "dragon_deck"), ("caves", "cave_deck")):
            if pl[hand] and data[deck]:
                pl[hand][0], data[deck][-1] = data[deck][-1], pl[hand][0]
    rng.shuffle(data["dragon_deck"])
    rng.shuffle(data["cave_deck"])
    data["rng"] = rng.getrandbits(64)
    return data


def test_analyse_from_here_answers_the_same_whatever_is_hidden(client, started):
    from game.matches import integrity

    from .conftest import play_randomly

    match = play_randomly(started.pk, 30, seed=6)
    seat = 0
    alice = user_at(match, seat)
    client.force_login(alice)
    first = client.get(f"/matches/{match.public_id}/analyse/")
    assert first.status_code == 302
    rng = random.Random(1)
    for _ in range(3):
        match = Match.objects.get(pk=match.pk)
        twin = _hidden_twin(match, seat, rng)
        assert twin != match.state
        match.state = twin
        integrity.reseal(match)
        match.save(update_fields=["state", "seal"])
        again = client.get(f"/matches/{match.public_id}/analyse/")
        assert (again.status_code, again["Location"]) == (first.status_code, first["Location"])


# Seeded random games (players, seed) in which accepting an ability ("yes") gives what a hidden card decides: a
# card drawn, or an item per card revealed from the deck.
TELLING_YES = [(2, 18), (3, 28), (2, 30)]


def test_what_accepting_an_ability_costs_and_gives_is_the_same_whatever_is_hidden():
    """The cost and gain the board shows beside "yes" (tried on a copy) are judged from what the player sees: the
    same in every world the player cannot tell from the real one."""
    from game.engine.state import GameState
    from game.matches.table import option_extras
    from tests.engine.helpers import real_catalogue

    cat = real_catalogue()
    asked = 0
    for players, seed in TELLING_YES:
        st = GameState.new(cat, players=players, seed=seed)
        rng = random.Random(seed)
        while st.pending is not None:
            yes = Option("yes")
            if yes in st.pending.options:
                seat = st.pending.player
                shown = option_extras(st, yes)
                for k in range(TWINS):
                    twin = determinize(st, seat, k)
                    if twin.pending.kind == st.pending.kind and yes in twin.pending.options:
                        assert option_extras(twin, yes) == shown, (players, seed, len(st.log))
                        asked += 1
            st.apply(rng.choice(st.legal_options()))
    assert asked > 100
