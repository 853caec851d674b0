"""Seeding many finished games for the scale benchmarks (game/matches/seeding.py, `manage.py seed_games`): each
seeded match is whole (it replays through the engine and its chain and seal hold), rated as the site would rate
it, and a second run goes on from what is stored instead of starting again."""
import pytest
from django.core.management import CommandError, call_command

from game.matches import integrity, seeding
from game.models import Match, PlayerRating, RatingChange
from game.ratings.service import rate_finished


def seeded():
    return Match.objects.filter(creator__username=seeding.HOLDER).order_by("seed")


def test_seeded_games_are_whole_matches_that_replay(catalogue):
    call_command("seed_games", games=12, players=8, batch=5)
    matches = list(seeded())
    assert len(matches) == 12
    for match in matches:
        assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.SCORED
        assert integrity.verify(match, replay=True) == []
        assert match.decisions.count() == match.version > 20
        assert len(match.places) == match.players and (match.players == 1 or 1 in match.places)
        seats = list(match.seats.all())
        assert len(seats) == match.players
        assert all(s.user is None or s.user.username.startswith(seeding.PREFIX) for s in seats)
    assert {m.players for m in matches} > {2}  # several player counts, as the plan draws them
    assert rate_finished() == 0  # rated already: the sweep finds nothing to do


def test_the_seeded_ratings_are_those_the_site_would_give(catalogue):
    call_command("seed_games", games=15, players=6, batch=4)
    seeded_ratings = {(r.user_id, r.engine, r.pool): (r.rating, r.rd, r.games) for r in PlayerRating.objects.all()}
    changes = RatingChange.objects.count()
    assert changes > 0 and len(seeded_ratings) > 6
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    seeded().update(rated_at=None)
    assert rate_finished() == 15
    again = {(r.user_id, r.engine, r.pool): (r.rating, r.rd, r.games) for r in PlayerRating.objects.all()}
    assert again.keys() == seeded_ratings.keys()
    for key, (rating, rd, games) in again.items():
        assert seeded_ratings[key] == (pytest.approx(rating), pytest.approx(rd), games)
    assert RatingChange.objects.count() == changes


def test_a_second_run_adds_only_the_games_still_missing(catalogue):
    call_command("seed_games", games=6, players=6)
    first = list(seeded().values_list("pk", "seed", "version"))
    call_command("seed_games", games=9, players=6)
    after = list(seeded().values_list("pk", "seed", "version"))
    assert after[:6] == first
    assert len(after) == 9 and len({seed for _, seed, _ in after}) == 9
    call_command("seed_games", games=9, players=6)
    assert seeded().count() == 9


def test_seeded_names_are_all_different():
    names = [seeding.player_name(i) for i in range(10_000)]
    assert len(set(names)) == len(names)
    assert all(name.startswith(seeding.PREFIX) for name in names)


@pytest.mark.parametrize("arguments, field", [({"players": 4}, "--players"), ({"games": -1}, "--games"),
                                              ({"batch": 0}, "--batch")])
def test_bad_arguments_are_refused_before_anything_is_stored(catalogue, arguments, field):
    with pytest.raises(CommandError, match=field):
        call_command("seed_games", **{"games": 3, "players": 6, **arguments})
    assert not seeded().exists()


def test_seeded_games_are_in_the_history_as_rating_them_would_put_them(catalogue):
    from game.matches import history
    from game.models import FinishedGame, FinishedSeat, GameOpponent
    call_command("seed_games", games=8, players=6)

    def rows():
        return (sorted(FinishedGame.objects.values_list("match_id", "finished", "players", "academy", "private")),
                sorted(FinishedSeat.objects.values_list("game_id", "seat", "user_id", "kind", "score", "place", "won")),
                sorted(GameOpponent.objects.values_list("game_id", "user_id", "kind"), key=str))
    seeded_rows = rows()
    assert len(seeded_rows[0]) == 8 and len(seeded_rows[1]) >= 8 * 2
    for match in seeded():
        history.record(match)  # what the site writes when it rates a match
    assert rows() == seeded_rows


def test_rerating_the_seeded_games_gives_the_ratings_seeding_gave(catalogue):
    call_command("seed_games", games=10, players=6, batch=3)

    def ratings():
        return {(r.user_id, r.engine, r.pool): (pytest.approx(r.rating), pytest.approx(r.rd), r.games)
                for r in PlayerRating.objects.all()}
    seeded_ratings, changes = ratings(), RatingChange.objects.count()
    PlayerRating.objects.update(rating=1000.0, games=99)  # as if rated by another method
    call_command("seed_games", games=10, players=6, rerate=True)
    assert ratings() == seeded_ratings and RatingChange.objects.count() == changes
    assert seeded().count() == 10
