"""The running test (Sprt.running) against the formula as it was, summing every figure again at each verdict:
the same LLR to the last bit, so the same verdicts, after every figure of any stream."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from rage_referee.matches.sprt import MIN_FIGURES, Sprt, Verdict


def resummed_llr(test: Sprt, figures: Sequence[float]) -> float:
    """Sprt.llr as it was before the running sums: every figure summed again."""
    n = len(figures)
    if n < 2 or test.mu1 == test.mu0:
        return 0.0
    off0 = math.fsum((x - test.mu0) ** 2 for x in figures)
    off1 = math.fsum((x - test.mu1) ** 2 for x in figures)
    if off1 == 0 or off0 == 0:
        return math.copysign(math.inf, off0 - off1)
    return (n - 1) / 2 * math.log(off0 / off1)


def resummed_verdict(test: Sprt, figures: Sequence[float]) -> Verdict:
    if len(figures) < MIN_FIGURES:
        return Verdict.UNDECIDED
    llr = resummed_llr(test, figures)
    return Verdict.H1 if llr >= test.upper else Verdict.H0 if llr <= test.lower else Verdict.UNDECIDED


figure = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_subnormal=False)
lumpy = st.sampled_from([-2.0, -1.5, -0.5, 0.0, 0.5, 1.0, 1.5, 3.25])
"""Set differences take a few values: streams of them meet zero distances and ties at the bounds."""
mean = st.floats(min_value=-100, max_value=100, allow_nan=False, allow_subnormal=False)
rate = st.floats(min_value=0.001, max_value=0.4)


@settings(max_examples=300, deadline=None)
@given(st.lists(figure | lumpy, max_size=60), mean, mean | st.sampled_from([0.0, 0.5, 1.0]), rate, rate)
def test_the_running_test_is_the_resummed_formula_after_every_figure(
    figures: list[float], mu0: float, mu1: float, alpha: float, beta: float
) -> None:
    test = Sprt(mu0, mu1, alpha, beta)
    run = test.running()
    for n, x in enumerate(figures, start=1):
        run.add(x)
        expected = resummed_llr(test, figures[:n])
        assert run.llr() == expected or (math.isnan(expected) and math.isnan(run.llr()))
        assert run.verdict() is resummed_verdict(test, figures[:n])
        assert test.llr(figures[:n]) == run.llr() and test.verdict(figures[:n]) is run.verdict()


@settings(max_examples=200, deadline=None)
@given(st.lists(lumpy, max_size=200), st.sampled_from([0.25, 0.5, 1.0]))
def test_the_first_verdict_is_where_the_resummed_formula_first_decides(figures: list[float], mu1: float) -> None:
    test = Sprt(0.0, mu1)
    first = next(
        ((resummed_verdict(test, figures[:n]), n) for n in range(1, len(figures) + 1)
         if resummed_verdict(test, figures[:n]) is not Verdict.UNDECIDED),
        (Verdict.UNDECIDED, len(figures)),
    )  # fmt: skip
    assert test.first_verdict(figures) == first


def test_rage_bench_sprt_prints_both_tests_and_refuses_a_bad_list() -> None:
    from tests.helpers.cli import rage

    result = rage("bench", "sprt", "--figures", "20,40", "--runs", "2", "--pair-sets", "2", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert [row["figures"] for row in figures["speeds"]] == [20, 40]
    assert len(figures["scenarios"]) == 8 and figures["scenarios"][-1]["scenario"].startswith("real pair")
    assert all(row["anytime"]["runs"] == row["earlier"]["runs"] == 2 for row in figures["scenarios"])
    refused = rage("bench", "sprt", "--figures", "0")
    assert refused.exit_code == 2 and "--figures: expected whole numbers" in refused.output
