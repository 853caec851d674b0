"""Ratings from finished matches (game/ratings/service.py): each match is rated once, when it ends, in the pool of
every game and in its player count's; the winner's rating rises; solo games rate the player against the Automa's
level; an aborted match is not rated."""
import pytest
from django.contrib.auth import get_user_model

from game.matches import services
from game.models import Match, MatchSeat, PlayerRating, RatingChange
from game.ratings import glicko2
from game.ratings.service import rate_finished

from .conftest import play_randomly


def finish(alice, bob, seed):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    match = play_randomly(match.pk, 5000, seed=seed)
    assert match.status == Match.Status.FINISHED
    rate_finished()  # what the queue does once the last move is committed (a test's transaction never commits)
    return match


def rating(user, pool="all"):
    return PlayerRating.objects.get(user=user, pool=pool)


def test_a_finished_match_is_rated_once_in_two_pools(catalogue, alice, bob):
    match = finish(alice, bob, 11)
    assert rate_finished() == 0  # rated already; asking again changes nothing
    winner, loser = (alice, bob) if match.places == [1, 2] else (bob, alice)
    assert match.places in ([1, 2], [2, 1])
    for pool in ("all", "2"):
        assert rating(winner, pool).rating > glicko2.BASE > rating(loser, pool).rating
        assert rating(winner, pool).games == 1 and rating(winner, pool).rd < glicko2.START_RD
    expected = glicko2.rate_game([glicko2.Rating(), glicko2.Rating()], match.places)
    assert rating(alice).rating == pytest.approx(expected[0].rating)
    assert RatingChange.objects.filter(match=match).count() == 4
    assert Match.objects.get(pk=match.pk).rated_at is not None


def test_the_second_game_starts_from_the_first_games_ratings(catalogue, alice, bob):
    first = finish(alice, bob, 11)
    after_first = rating(alice).rating
    second = finish(alice, bob, 12)
    change = RatingChange.objects.get(match=second, rating__user=alice, rating__pool="all")
    assert change.before == pytest.approx(after_first, abs=1e-6)
    assert rating(alice).games == 2
    assert first.pk != second.pk


def test_the_sweep_rates_a_match_the_queue_missed(catalogue, alice, bob):
    match = finish(alice, bob, 11)
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    Match.objects.filter(pk=match.pk).update(rated_at=None)
    assert rate_finished() == 1
    assert rating(alice).games == 1 and rate_finished() == 0


def test_a_solo_game_rates_the_player_against_the_automas_level(catalogue, alice):
    match = services.play_now(alice, opponent="automa", automa_level=2)
    match = play_randomly(match.pk, 5000, seed=4)
    rate_finished()
    automa = PlayerRating.objects.get(engine="automa:2", pool="1")
    mine = rating(alice, "1")
    won = match.state["result"]["places"][0] == 1
    assert (mine.rating > automa.rating) == won
    assert PlayerRating.objects.filter(engine="automa:2", pool="all").exists()


def test_an_aborted_match_is_not_rated(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    services.abort_match(match.pk, alice)
    rate_finished()
    assert not PlayerRating.objects.exists()
    assert Match.objects.get(pk=match.pk).rated_at is not None  # looked at once, never again


def test_a_resignation_rates_the_one_who_stayed_higher(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    play_randomly(match.pk, 10, seed=3)
    services.resign(match.pk, bob)
    rate_finished()
    assert rating(alice).rating > rating(bob).rating


def test_the_moves_commit_sends_the_rating_to_the_queue(catalogue, alice, bob, django_capture_on_commit_callbacks):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):  # what each move's commit runs, run at the end here
        match = play_randomly(match.pk, 5000, seed=11)
    assert match.status == Match.Status.FINISHED
    assert rating(alice).games == 1 and rating(bob).games == 1


def test_a_guests_game_is_rated_only_once_it_is_an_accounts(catalogue, alice):
    from game.matches import guests
    from game.models import Guest

    visitor = get_user_model().objects.create_user("guest-1")
    Guest.objects.create(user=visitor)
    match = services.play_now(visitor, opponent="automa", automa_level=1)
    play_randomly(match.pk, 5000, seed=4)
    rate_finished()
    assert not PlayerRating.objects.exists()  # casual while a guest played it
    guests.claim(visitor, alice)
    assert rate_finished() == 1
    assert rating(alice, "1").games == 1


def test_two_bots_of_one_level_in_a_game_move_its_rating_once(catalogue, alice, bob, carol):
    """Two random bots at one table are one engine player: each of its seats is scored against alice only, never
    against the other (its own), and its rating takes one step (the mean of its seats'), with one line of history,
    instead of failing on the second."""
    match = services.create_match(alice, players=3)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    match = play_randomly(match.pk, 5000, seed=3)
    assert match.status == Match.Status.FINISHED
    # bob's and carol's seats become the bot's, as if it had played them from the start
    MatchSeat.objects.filter(match=match, seat__gt=0).update(user=None, controller=MatchSeat.Controller.BOT,
                                                             level="random")
    assert rate_finished() == 1
    bot = PlayerRating.objects.get(engine="bot:random", pool="3")
    assert bot.games == 1
    assert RatingChange.objects.filter(match=match, rating=bot).count() == 1
    new = glicko2.Rating()

    def score(mine, theirs):
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    first, second, third = match.places
    # each bot seat met alice alone; alice met both bot seats
    expected = (glicko2.update(new, [(new, score(second, first))]).rating
                + glicko2.update(new, [(new, score(third, first))]).rating) / 2
    assert bot.rating == pytest.approx(expected)
    alice_after = glicko2.update(new, [(new, score(first, second)), (new, score(first, third))]).rating
    assert PlayerRating.objects.get(user=alice, pool="3").rating == pytest.approx(alice_after)


def test_a_holders_seats_are_never_scored_against_each_other():
    assert glicko2.pairwise([1, 2, 3], holders=["a", "bot", "bot"]) == [[(1, 1.0), (2, 1.0)], [(0, 0.0)], [(0, 0.0)]]
    alone = glicko2.rate_game([glicko2.Rating(1600, 80, 0.06)] * 2, [1, 2], holders=["bot", "bot"])
    assert [r.rating for r in alone] == [1600, 1600]  # no one else at the table: only idle for the period


def test_an_engine_at_many_seats_keeps_a_sane_volatility_over_thousands_of_games():
    """What seeding 36,000 games found: with its seats scored against each other, the random bot's volatility
    climbed to 0.87 and its rating ran past what exp() can hold. Scored only against others, it stays near the
    start over 3,000 random 5-player games of one person and four seats of the bot."""
    import random
    from datetime import datetime, timedelta, timezone

    from game.ratings.service import step

    rng = random.Random(4)
    bot = PlayerRating(engine="bot:random", pool="5", rating=1500, rd=350, volatility=0.06)
    people = [PlayerRating(user_id=n, pool="5", rating=1500, rd=350, volatility=0.06) for n in range(40)]
    when = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for game in range(3000):
        rows = [rng.choice(people)] + [bot] * 4
        places = rng.sample(range(1, 6), 5)
        step(rows, places, when + timedelta(hours=game), game)
    assert bot.games == 3000
    assert bot.volatility < 0.1 and abs(bot.rating - 1500) < 300
    assert all(p.volatility < 0.1 for p in people)


def test_the_volatility_of_a_player_whose_places_scatter_stays_capped():
    """One game a rating period and places at random, for 12,000 games: Glicko-2's estimate of the volatility creeps
    up without bound that way (0.5 after 38,000 seeded games, then an overflow); capped at 0.1, as lichess caps it,
    the rating stays on the scale."""
    import random

    rng = random.Random(9)
    bot = glicko2.Rating(1500, 60, 0.06)
    people = [glicko2.Rating(rng.uniform(900, 2100), 80, 0.06) for _ in range(50)]
    highest = 0.0
    for _ in range(12000):
        table = [bot] + rng.sample(people, rng.randint(1, 4))
        places = rng.sample(range(1, len(table) + 1), len(table))
        bot = glicko2.rate_game(table, places)[0]
        highest = max(highest, bot.volatility)
    assert highest <= glicko2.MAX_VOLATILITY
    assert 1000 < bot.rating < 2000 and bot.rd < 200
