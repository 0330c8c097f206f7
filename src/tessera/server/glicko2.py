"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is (rating, deviation, volatility) on the Glicko scale (new players 1500 / 350 /
0.06). :func:`update` applies one rating period's results to one player; the server rates each
game as its own period for both players, as online play does, so ratings move after every game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's internal scale: mu = (r - 1500) / SCALE
TAU = 0.5  # the system constant: how fast volatility may change (the paper suggests 0.3–1.2)
EPSILON = 0.000001  # convergence tolerance of the volatility iteration
MAX_DEVIATION = 350.0
MIN_DEVIATION = 30.0  # keep ratings responsive however many games a player has played


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True)
class Result:
    """One game against ``opponent``: ``score`` 1 for a win, 0.5 a tie, 0 a loss."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The chance ``player`` beats ``opponent`` by the model (ties count a half)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the Illinois variant of regula falsi on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
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


def update(player: Rating, results: Sequence[Result], tau: float = TAU) -> Rating:
    """``player`` after one rating period with ``results`` (none: the deviation grows)."""
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(MAX_DEVIATION, phi_star * SCALE), sigma)
    v_inv = 0.0
    gain = 0.0
    for r in results:
        mu_j, phi_j = r.opponent.mu, r.opponent.phi
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        gain += g * (r.score - e)
    v = 1.0 / v_inv
    delta = v * gain
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, phi_new * SCALE))
    return Rating(mu_new * SCALE + 1500.0, deviation, sigma_new)


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """Both players after one game between them (``score_a``: 1, 0.5 or 0 for ``a``)."""
    return update(a, [Result(b, score_a)]), update(b, [Result(a, 1.0 - score_a)])
