"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), as plain functions of plain numbers.

A rating is (r, RD, σ): the rating, its deviation (how unsure it is) and its volatility (how erratic the player is).
`update` takes one rating period's games of one player at once: each opponent's rating and deviation as they were
at the start of the period, and the score against them (1 a win, 0.5 a tie, 0 a loss). A period with no game only
widens the deviation. Everything is computed on Glicko-2's own scale (μ, φ) and converted back.
"""
import math
from typing import NamedTuple

SCALE = 173.7178  # Glicko-2's scale factor: 400 / ln(10)
BASE = 1500.0  # the rating of a newcomer, and the centre of the scale
START_RD = 350.0  # a newcomer's deviation, the widest there is
START_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how fast volatility may change (Glickman suggests 0.3 to 1.2)
EPSILON = 1e-6  # convergence of the volatility's iteration
# The most a volatility may grow to, as lichess caps it. Glicko-2 estimates it from each rating period's games; with
# one game a period, a player whose places scatter widely (a random bot over thousands of games) sees its volatility
# creep upward, which widens its deviation and so lets the next surprise raise it further: seeding 38,000 games it
# reached 0.87 and the ratings overflowed. At 0.1 a deviation still widens by 17 points a period at most.
MAX_VOLATILITY = 0.1


class Rating(NamedTuple):
    rating: float = BASE
    rd: float = START_RD
    volatility: float = START_VOLATILITY


def _g(phi):
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu, mu_j, phi_j):
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player, opponent):
    """The chance that `player` beats `opponent` (a tie counting half), as Glicko-2 predicts it."""
    return _expected((player.rating - BASE) / SCALE, (opponent.rating - BASE) / SCALE, opponent.rd / SCALE)


def _volatility(sigma, phi, v, delta, tau):
    """Step 5 of the method: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x):
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player, periods=1.0):
    """The rating after `periods` rating periods without a game: only its deviation widens (up to a newcomer's)."""
    phi = player.rd / SCALE
    phi = math.sqrt(phi * phi + periods * player.volatility ** 2)
    return Rating(player.rating, min(phi * SCALE, START_RD), player.volatility)


def update(player, games, tau=TAU):
    """The player's rating after one rating period: `games` is [(opponent Rating, score), ...]."""
    if not games:
        return idle(player)
    mu, phi = (player.rating - BASE) / SCALE, player.rd / SCALE
    inverse_v, total = 0.0, 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1 (or between), not {score}")
        mu_j, phi_j = (opponent.rating - BASE) / SCALE, opponent.rd / SCALE
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        inverse_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inverse_v
    sigma = min(_volatility(player.volatility, phi, v, v * total, tau), MAX_VOLATILITY)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + BASE, min(SCALE * phi_new, START_RD), sigma)


def pairwise(places, holders=None):
    """A game of several players as Glicko-2 games between each pair: for each seat, [(other seat, score), ...],
    where the better place scores 1, the same place 0.5 and the worse 0 (places: 1 is first). With `holders` (who
    holds each seat), two seats of one holder are no pair: a player's result against itself says nothing of its
    strength, and counted, it only feeds its volatility."""
    holders = holders or list(range(len(places)))
    return [[(j, 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
             for j, theirs in enumerate(places) if holders[j] != holders[i]] for i, mine in enumerate(places)]


def rate_game(ratings, places, tau=TAU, holders=None):
    """Every seat's new rating after one game (one rating period for each of them), from the ratings all had
    before it: each seat is scored against every other by place, except another seat of its own holder (see
    `pairwise`). A seat left with no opponent is only idle for the period."""
    if len(ratings) != len(places) or len(ratings) < 2:
        raise ValueError("a rated game has two or more seats, each with a rating and a place")
    return [update(ratings[i], [(ratings[j], score) for j, score in pairs], tau)
            for i, pairs in enumerate(pairwise(places, holders))]
