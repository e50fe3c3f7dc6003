"""Tests of the exact and adjusted intervals of evalmetrics.intervals, and of their exact coverage.

Clopper-Pearson against SciPy's ``binomtest(k, n).proportion_ci(method="exact")``
and against the two binomial tails it inverts; Agresti-Coull against its
formula (Agresti and Coull 1998) and Wilson; ``coverage_probability``
against a slow sum of ``math.comb`` terms.  "Handbook" is the chapter
"Confidence intervals and the bootstrap" (8 of 12 correct).
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from evalmetrics.intervals import (
    ConfidenceInterval,
    agresti_coull_interval,
    clopper_pearson_interval,
    coverage_probability,
    normal_quantile,
    wald_interval,
    wilson_interval,
)
from helpers import TOL


def test_eight_of_twelve():
    # Handbook: Clopper-Pearson 0.3489 to 0.9008, Agresti-Coull 0.3880 to 0.8645 (Wilson's
    # centre 0.6263 with n~ = 12 + 1.96^2 = 15.8415).
    exact = clopper_pearson_interval(8, 12)
    adjusted = agresti_coull_interval(8, 12)
    assert isinstance(exact, ConfidenceInterval) and isinstance(adjusted, ConfidenceInterval)
    assert (round(exact.low, 4), round(exact.high, 4)) == (0.3489, 0.9008)
    assert (round(adjusted.low, 4), round(adjusted.high, 4)) == (0.388, 0.8645)
    z = normal_quantile(0.975)
    assert (adjusted.low + adjusted.high) / 2 == pytest.approx((8 + z * z / 2) / (12 + z * z), abs=1e-15)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_clopper_pearson_equals_scipy_binomtest(confidence):
    worst = 0.0
    for n in list(range(1, 16)) + [40, 97, 500, 4321]:
        for k in sorted({*range(0, n + 1, max(1, n // 12)), n - 1, n}):
            if k < 0:
                continue
            ours = clopper_pearson_interval(k, n, confidence=confidence)
            theirs = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
            worst = max(worst, abs(ours.low - theirs.low), abs(ours.high - theirs.high))
    assert worst <= TOL


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 2000), share=st.floats(0, 1), confidence=st.floats(0.5, 0.999))
def test_clopper_pearson_inverts_the_two_binomial_tails(n, share, confidence):
    # The low end leaves alpha/2 above k, the high end alpha/2 below it.
    k = round(share * n)
    low, high = clopper_pearson_interval(k, n, confidence=confidence)
    alpha = 1 - confidence
    if k > 0:
        assert stats.binom.sf(k - 1, n, low) == pytest.approx(alpha / 2, rel=1e-9)
    else:
        assert low == 0.0
    if k < n:
        assert stats.binom.cdf(k, n, high) == pytest.approx(alpha / 2, rel=1e-9)
    else:
        assert high == 1.0
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_clopper_pearson_never_covers_less_than_it_claims():
    # The exact interval's guarantee, on a fine grid of true proportions.
    p = np.linspace(0.0005, 0.9995, 2000)
    for n in (1, 5, 12, 30):
        assert np.min(coverage_probability(clopper_pearson_interval, n, p)) >= 0.95 - 1e-12


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_agresti_coull_is_wald_around_the_adjusted_proportion(confidence):
    z = stats.norm.ppf(0.5 + confidence / 2)
    for n in range(1, 60):
        for k in range(n + 1):
            n_tilde = n + z**2
            p_tilde = (k + z**2 / 2) / n_tilde
            half = z * math.sqrt(p_tilde * (1 - p_tilde) / n_tilde)
            ours = agresti_coull_interval(k, n, confidence=confidence)
            assert abs(ours.low - (p_tilde - half)) <= TOL and abs(ours.high - (p_tilde + half)) <= TOL


def test_agresti_coull_contains_wilson_and_shares_its_centre():
    for confidence in (0.8, 0.95, 0.99):
        for n in range(1, 80):
            for k in range(n + 1):
                adjusted = agresti_coull_interval(k, n, confidence=confidence)
                wilson = wilson_interval(k, n, confidence=confidence)
                assert adjusted.low <= wilson.low + 1e-15 and wilson.high <= adjusted.high + 1e-15
                if 0 < k < n:  # (at 0 and n Wilson's end is set to exactly 0 or 1)
                    assert adjusted.low + adjusted.high == pytest.approx(wilson.low + wilson.high, abs=1e-12)


def test_agresti_coull_is_not_clipped():
    # Like Wald's: 0 of 12 gives a negative low end (statsmodels would clip it to 0).
    assert agresti_coull_interval(0, 12).low < 0 < agresti_coull_interval(0, 12).high
    assert agresti_coull_interval(12, 12).high > 1


def slow_coverage(interval, n, p):
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)
               if interval(k, n).low <= p <= interval(k, n).high)


@pytest.mark.parametrize("interval", [wald_interval, wilson_interval, agresti_coull_interval,
                                      clopper_pearson_interval])
def test_coverage_probability_is_the_binomial_sum(interval):
    p = np.r_[0.0, np.linspace(0.01, 0.99, 49), 1.0]
    for n in (1, 2, 12, 40):
        ours = coverage_probability(interval, n, p)
        assert ours.shape == p.shape
        assert np.max(np.abs(ours - [slow_coverage(interval, n, x) for x in p])) <= TOL
    assert coverage_probability(interval, 12, 0.3) == pytest.approx(slow_coverage(interval, 12, 0.3),
                                                                    abs=TOL)
    assert isinstance(coverage_probability(interval, 12, 0.3), float)


def test_coverage_of_the_handbook():
    # Handbook: Wald falls well short of 95 % at p = 0.9 on twelve units, Wilson does not.
    assert coverage_probability(wald_interval, 12, 0.9) < 0.75 < 0.95 < coverage_probability(wilson_interval, 12, 0.9)


def test_coverage_of_many_trials_stays_finite():
    # 5,000 trials: the binomial terms are formed in logs, no overflow of C(n, k).
    value = coverage_probability(wilson_interval, 5000, np.array([0.001, 0.5]))
    assert np.all((value > 0.9) & (value <= 1.0))


@pytest.mark.parametrize("call, error, match", [
    (lambda: clopper_pearson_interval(13, 12), ValueError, "successes=13 is greater than trials=12"),
    (lambda: clopper_pearson_interval(0, 0), ValueError, "trials"),
    (lambda: clopper_pearson_interval(2.5, 10), TypeError, "successes"),
    (lambda: agresti_coull_interval(-1, 10), ValueError, "successes"),
    (lambda: agresti_coull_interval(5, 10, confidence=1.0), ValueError, "confidence"),
    (lambda: coverage_probability("wilson", 12, 0.5), TypeError, "interval must be callable"),
    (lambda: coverage_probability(wilson_interval, 12, 1.5), ValueError, r"p must contain proportions in \[0, 1\]"),
    (lambda: coverage_probability(wilson_interval, 12, [0.5, np.nan]), ValueError, "p must contain proportions"),
    (lambda: coverage_probability(wilson_interval, 12, True), TypeError, "p must contain real numbers"),
    (lambda: coverage_probability(wilson_interval, 12, "0.5"), TypeError, "p must be a number"),
    (lambda: coverage_probability(wilson_interval, 0, 0.5), ValueError, "trials"),
    (lambda: coverage_probability(wilson_interval, 10**6, 0.5), ValueError, "trials must be at most"),
])
def test_bad_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
