"""Tests of evalmetrics.delong: DeLong's interval for one AUC and test for two."""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import roc_auc_score

from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.curves import roc_auc
from evalmetrics.delong import DelongResult, DelongTest, delong_interval, delong_test
from evalmetrics.intervals import bootstrap_interval
from evalmetrics.worked_example import twelve_units

# ---------------------------------------------------------------------------
# a slow, direct implementation (DeLong, DeLong and Clarke-Pearson 1988)
# ---------------------------------------------------------------------------

def placements(y, score):
    """V10 (one per positive) and V01 (one per negative) from the full P x N kernel."""
    positives, negatives = score[y == 1], score[y == 0]
    kernel = (positives[:, None] > negatives[None, :]) + 0.5 * (positives[:, None] == negatives[None, :])
    return kernel.mean(axis=1), kernel.mean(axis=0), kernel.mean()


def slow_interval(y, score, confidence=0.95):
    v10, v01, auc = placements(y, score)
    se = math.sqrt(np.var(v10, ddof=1) / len(v10) + np.var(v01, ddof=1) / len(v01))
    z = stats.norm.ppf(0.5 + confidence / 2)
    logit = math.log(auc / (1 - auc))
    half = z * se / (auc * (1 - auc))
    return auc, se, (special_expit(logit - half), special_expit(logit + half))


def special_expit(x):
    return 1.0 / (1.0 + math.exp(-x))


def slow_test(y, a, b):
    a10, a01, auc_a = placements(y, a)
    b10, b01, auc_b = placements(y, b)
    s10 = np.cov(np.vstack([a10, b10]))
    s01 = np.cov(np.vstack([a01, b01]))
    contrast = np.array([1.0, -1.0])
    variance = contrast @ s10 @ contrast / len(a10) + contrast @ s01 @ contrast / len(a01)
    se = math.sqrt(variance)
    z = (auc_a - auc_b) / se
    return auc_a - auc_b, se, z, 2 * stats.norm.sf(abs(z))


def tied_data(seed, n=80, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:4] = [0, 1, 0, 1]  # at least two of each class
    a = np.round(rng.normal(size=n) + 1.0 * y, decimals)  # heavy ties
    b = np.round(a + rng.normal(scale=0.8, size=n), decimals)  # a correlated second model
    return y, a, b


# ---------------------------------------------------------------------------
# the twelve units
# ---------------------------------------------------------------------------

def test_estimate_of_the_twelve_units_is_the_auc():
    units = twelve_units()
    result = delong_interval(units.y_true, units.y_score)
    # Handbook: AUC of the twelve units 0.7969 = 51/64 (25.5 of 32 pairs).
    assert Fraction(result.estimate) == Fraction(51, 64)
    assert round(result.estimate, 4) == 0.7969


def test_twelve_units_match_the_slow_implementation():
    units = twelve_units()
    result = delong_interval(units.y_true, units.y_score)
    auc, se, (low, high) = slow_interval(units.y_true, units.y_score)  # expected: the direct formula above
    assert abs(result.standard_error - se) <= 1e-12
    assert abs(result.low - low) <= 1e-12 and abs(result.high - high) <= 1e-12


def test_result_types_and_accessors():
    units = twelve_units()
    result = delong_interval(units.y_true, units.y_score)
    assert isinstance(result, DelongResult)
    assert (result.low, result.high) == tuple(result.interval)
    with pytest.raises(AttributeError):
        result.estimate = 0.5
    test = delong_test(units.y_true, units.y_score, units.y_score[::-1])
    assert isinstance(test, DelongTest)


# ---------------------------------------------------------------------------
# against the slow implementation and scikit-learn
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_interval_matches_slow_implementation(seed, decimals):
    y, a, _ = tied_data(seed, decimals=decimals)
    result = delong_interval(y, a)
    auc, se, (low, high) = slow_interval(y, a)
    assert abs(result.estimate - auc) <= 1e-12
    assert abs(result.estimate - roc_auc_score(y, a)) <= 1e-12
    assert result.estimate == roc_auc(y, a)  # the same exact count, to the bit
    assert abs(result.standard_error - se) <= 1e-12
    assert abs(result.low - low) <= 1e-12 and abs(result.high - high) <= 1e-12


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_paired_test_matches_slow_implementation(seed, decimals):
    y, a, b = tied_data(seed, decimals=decimals)
    result = delong_test(y, a, b)
    difference, se, z, p = slow_test(y, a, b)
    assert abs(result.difference - difference) <= 1e-12
    assert abs(result.difference - (roc_auc_score(y, a) - roc_auc_score(y, b))) <= 1e-12
    assert abs(result.standard_error - se) <= 1e-12
    assert abs(result.z - z) <= 1e-9
    assert abs(result.p_value - p) <= 1e-12
    half = stats.norm.ppf(0.975) * se
    assert abs(result.interval.low - (difference - half)) <= 1e-12
    assert abs(result.interval.high - (difference + half)) <= 1e-12


def test_string_labels_with_pos_label():
    y, a, b = tied_data(3)
    names = np.where(y == 1, "faulty", "working")
    assert delong_interval(names, a, pos_label="faulty") == delong_interval(y, a)
    assert delong_test(names, a, b, pos_label="faulty") == delong_test(y, a, b)


def test_swapping_the_models_negates_the_difference():
    y, a, b = tied_data(5)
    forward, backward = delong_test(y, a, b), delong_test(y, b, a)
    assert forward.difference == -backward.difference
    assert forward.standard_error == pytest.approx(backward.standard_error, abs=1e-15)
    assert forward.p_value == pytest.approx(backward.p_value, abs=1e-15)


def test_identical_models_differ_by_nothing():
    y, a, _ = tied_data(6)
    result = delong_test(y, a, a.copy())
    assert (result.difference, result.standard_error, result.z, result.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_a_perfect_ranking_gives_a_point_interval():
    y = np.array([0, 0, 0, 1, 1, 1])
    result = delong_interval(y, np.arange(6.0))
    assert (result.estimate, result.standard_error) == (1.0, 0.0)
    assert tuple(result.interval) == (1.0, 1.0)


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

def test_higher_confidence_gives_a_wider_interval():
    y, a, _ = tied_data(7, n=200)
    narrow, wide = delong_interval(y, a, confidence=0.8), delong_interval(y, a, confidence=0.99)
    assert wide.low < narrow.low < narrow.estimate < narrow.high < wide.high


def test_logit_interval_is_asymmetric_near_one():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1], 100)
    score = rng.normal(size=200) + 3.0 * y  # AUC near 0.98
    result = delong_interval(y, score)
    assert result.high < 1.0
    assert result.high - result.estimate < result.estimate - result.low


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(-3, 3)), min_size=4, max_size=40))
def test_interval_stays_in_the_unit_interval_and_contains_the_estimate(rows):
    y = np.array([r[0] for r in rows])
    score = np.array([r[1] for r in rows], dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = delong_interval(y, score)
    if min(np.sum(y == 1), np.sum(y == 0)) < 2:
        assert math.isnan(result.standard_error)
        return
    assert 0.0 <= result.low <= result.estimate <= result.high <= 1.0


@pytest.mark.parametrize("seed", [0, 1])
def test_standard_error_agrees_with_the_bootstrap_in_large_samples(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(3000) < 0.3).astype(int)
    score = np.round(rng.normal(size=3000) + 1.2 * y, 2)
    delong = delong_interval(y, score)
    boot = bootstrap_interval(roc_auc, y, score, n_resamples=2000, seed=seed)
    # Both estimate the same sampling spread; 2000 resamples pin the bootstrap
    # SE down to about 1.6 % (sd of a sample sd ~ 1 / sqrt(2 B)), so 8 % is generous.
    assert abs(delong.standard_error / boot.standard_error - 1) < 0.08


def test_p_values_are_uniform_under_the_null():
    # Two models with the same distribution of scores: p-values spread over (0, 1).
    rng = np.random.default_rng(11)
    p_values = []
    for _ in range(300):
        y = (rng.random(120) < 0.4).astype(int)
        shared = rng.normal(size=120) + y
        a = shared + rng.normal(size=120)
        b = shared + rng.normal(size=120)
        p_values.append(delong_test(y, a, b).p_value)
    assert 0.02 <= np.mean(np.array(p_values) < 0.05) <= 0.09
    assert stats.kstest(p_values, "uniform").pvalue > 0.01


# ---------------------------------------------------------------------------
# undefined cases and bad input
# ---------------------------------------------------------------------------

def test_one_positive_gives_nan_standard_error_with_a_warning():
    y = np.array([0, 0, 0, 1])
    with pytest.warns(UndefinedMetricWarning, match="fewer than two members"):
        result = delong_interval(y, np.array([0.1, 0.2, 0.3, 0.4]))
    assert result.estimate == 1.0
    assert math.isnan(result.standard_error) and math.isnan(result.low) and math.isnan(result.high)


def test_no_positive_gives_nan_everywhere_with_a_warning():
    with pytest.warns(UndefinedMetricWarning):
        result = delong_interval(np.zeros(5, dtype=int), np.arange(5.0))
    assert math.isnan(result.estimate) and math.isnan(result.standard_error)


def test_test_with_one_negative_is_nan_with_a_warning():
    y = np.array([0, 1, 1, 1])
    with pytest.warns(UndefinedMetricWarning, match="DeLong's test"):
        result = delong_test(y, np.arange(4.0), np.arange(4.0)[::-1])
    assert all(math.isnan(v) for v in (result.difference, result.standard_error, result.z, result.p_value))


def test_rejects_nan_scores():
    with pytest.raises(ValueError, match="y_score"):
        delong_interval([0, 1, 0, 1], [0.1, np.nan, 0.3, 0.4])


def test_rejects_non_binary_labels_without_pos_label():
    with pytest.raises(ValueError, match="pos_label"):
        delong_interval([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4])


def test_rejects_confidence_of_one():
    with pytest.raises(ValueError, match="confidence"):
        delong_interval([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], confidence=1.0)


def test_rejects_second_scores_of_wrong_length():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        delong_test([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3])


def test_rejects_nan_in_the_second_scores():
    with pytest.raises(ValueError, match="y_score_b"):
        delong_test([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.1, 0.2, np.inf, 0.4])
