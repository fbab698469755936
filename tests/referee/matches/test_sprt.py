"""The sequential test: its LLR and bounds known by hand, its error rates checked on synthetic streams."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from rage_referee.matches.sprt import (
    MIN_FIGURES,
    Sprt,
    Verdict,
    elo_of_points,
    elo_of_score,
    points_for_elo,
    score_of_elo,
)

Draw = Callable[[random.Random, float], float]


def normal(rng: random.Random, mean: float) -> float:
    return rng.gauss(mean, 1.0)


def laplace(rng: random.Random, mean: float) -> float:
    """Heavier tails than the normal model, variance 1."""
    return mean + (rng.expovariate(1) - rng.expovariate(1)) / math.sqrt(2)


def lumpy(rng: random.Random, mean: float) -> float:
    """A few discrete values, as set differences of short games are: -2..2 spread, variance 1."""
    return mean + rng.choice((-1.5, -0.5, -0.5, 0.0, 0.0, 0.5, 0.5, 1.5)) * math.sqrt(1 / 0.6875)


def acceptance(test: Sprt, draw: Draw, mean: float, runs: int, seed: int, cap: int = 5000) -> tuple[float, float]:
    """The share of runs that accept H1, and the mean figures a run took."""
    rng = random.Random(seed)
    accepted = taken = 0
    for _ in range(runs):
        run = test.running()
        verdict = Verdict.UNDECIDED
        while verdict is Verdict.UNDECIDED and run.n < cap:
            run.add(draw(rng, mean))
            verdict = run.verdict()
        accepted += verdict is Verdict.H1
        taken += run.n
    return accepted / runs, taken / runs


def test_bounds_are_walds() -> None:
    test = Sprt(0.0, 1.0, alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))


def test_llr_of_known_figures() -> None:
    test = Sprt(0.0, 1.0)
    figures = [1.0, 2.0, 0.0]  # off H0: 1 + 4 + 0 = 5; off H1: 0 + 1 + 1 = 2
    assert test.llr(figures) == pytest.approx((3 - 1) / 2 * math.log(5 / 2))
    assert Sprt(1.0, 0.0).llr(figures) == pytest.approx(-test.llr(figures))
    assert test.llr([1.0]) == 0.0 and test.llr([1.0, 1.0]) == math.inf and test.llr([0.0, 0.0]) == -math.inf


def test_no_verdict_before_the_minimum_and_a_clear_one_after() -> None:
    test = Sprt(0.0, 1.0)
    assert test.verdict([1.0] * (MIN_FIGURES - 1)) is Verdict.UNDECIDED
    assert test.verdict([1.0, 1.1, 0.9, 1.0, 1.05, 0.95][:MIN_FIGURES]) is Verdict.H1
    assert test.verdict([0.0, 0.1, -0.1, 0.05, -0.05, 0.0][:MIN_FIGURES]) is Verdict.H0
    verdict, taken = test.first_verdict([1.0, 1.1, 0.9, 1.0, 1.05, 0.95, 1.0, 1.0, 1.0, 1.0])
    assert verdict is Verdict.H1 and taken == MIN_FIGURES


def test_error_rates_outside_their_range_are_refused() -> None:
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0.0, 1.0, alpha=0.0)
    with pytest.raises(ValueError, match="beta"):
        Sprt(0.0, 1.0, beta=0.7)


def test_elo_conversions() -> None:
    assert score_of_elo(0) == 0.5 and score_of_elo(400 * math.log10(3)) == pytest.approx(0.75)
    assert elo_of_score(score_of_elo(37.5)) == pytest.approx(37.5)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf
    assert points_for_elo(0.0, 20.0) == 0.0
    for elo in (-50.0, 5.0, 33.0):
        assert elo_of_points(points_for_elo(elo, 20.0), 20.0) == pytest.approx(elo)
    # outscoring with probability Phi(1) = 0.8413 is 400 log10(0.8413 / 0.1587) = 289.8 Elo
    assert elo_of_points(20.0, 20.0) == pytest.approx(289.8, abs=0.1)


# --------------------------------------------------------------------------- error rates by simulation


def test_error_rates_on_a_short_simulation() -> None:
    test = Sprt(0.0, 0.5)
    false_h1, _ = acceptance(test, normal, 0.0, runs=400, seed=1)
    power, _ = acceptance(test, normal, 0.5, runs=400, seed=2)
    # 400 runs: 3 standard errors of the estimate (0.011) allowed around the design
    assert false_h1 <= 0.05 + 0.033
    assert power >= 0.95 - 0.033


@pytest.mark.slow
@pytest.mark.parametrize("draw", [normal, laplace, lumpy], ids=["normal", "laplace", "lumpy"])
@pytest.mark.parametrize("effect", [0.5, 0.25])
def test_error_rates_by_simulation(draw: Draw, effect: float) -> None:
    test = Sprt(0.0, effect)
    runs = 3000 if effect == 0.5 else 1500
    margin = 2 * math.sqrt(0.05 * 0.95 / runs)
    false_h1, _ = acceptance(test, draw, 0.0, runs, seed=11)
    power, taken = acceptance(test, draw, effect, runs, seed=12)
    assert false_h1 <= 0.05 + margin, false_h1
    assert power >= 0.95 - margin, power
    # a difference twice the margin is found sooner than one at the margin
    _, quicker = acceptance(test, draw, 2 * effect, runs // 3, seed=13)
    assert quicker < taken
