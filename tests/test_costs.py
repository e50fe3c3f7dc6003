"""Tests of evalmetrics.costs: cost curves, the cheapest threshold, Bayes threshold.

Expected values come from the handbook's worked example ("A threshold chosen
by cost", costs 1 for a false alarm and 10 for a miss) unless a comment says
otherwise.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

from evalmetrics import costs
from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.costs import (
    bayes_threshold,
    best_threshold,
    cost_at_threshold,
    cost_curve,
    iso_cost_slope,
    youden_index,
)
from evalmetrics.worked_example import twelve_units

UNITS = twelve_units()
Y, S = UNITS.y_true, UNITS.y_score
COSTS = dict(false_positive_cost=1, false_negative_cost=10)


def test_worked_example_cost_curve():
    curve = cost_curve(Y, S, **COSTS)
    # Handbook: FP + 10 FN from the infinite threshold down to 0.10.
    assert curve.total_cost.tolist() == [40, 30, 31, 21, 22, 12, 13, 4, 5, 6, 7, 8]
    assert curve.thresholds[0] == np.inf
    assert curve.thresholds[1:].tolist() == [0.95, 0.85, 0.80, 0.70, 0.65, 0.55, 0.40, 0.30, 0.20,
                                             0.15, 0.10]
    assert curve.false_positives.tolist() == [0, 0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8]
    assert curve.false_negatives.tolist() == [4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0, 0]


def test_worked_example_cheapest_threshold():
    best = best_threshold(Y, S, **COSTS)
    # Handbook: the cheapest threshold is 0.40, cost 4 (four false alarms, no misses).
    assert best.threshold == 0.40
    assert best.cost == 4
    assert (best.false_positives, best.false_negatives) == (4, 0)


def test_worked_example_default_threshold_costs_13():
    # Handbook: the default 0.5 costs 13, more than three times as much (it misses unit 8).
    cost = cost_at_threshold(Y, S, 0.5, **COSTS)
    assert cost == 13
    assert cost / 4 > 3


def test_worked_example_bayes_threshold_flags_all_twelve():
    threshold = bayes_threshold(**COSTS)
    # Handbook: 1 / (1 + 10) = 0.0909, which flags all twelve units for a cost of 8.
    assert threshold == pytest.approx(float(Fraction(1, 11)), abs=1e-15)
    assert round(threshold, 4) == 0.0909
    assert np.all(S >= threshold)
    assert cost_at_threshold(Y, S, threshold, **COSTS) == 8


def test_worked_example_iso_cost_slope():
    # Handbook: 1 * (8/12) / (10 * 4/12) = 0.2.
    slope = iso_cost_slope(4 / 12, **COSTS)
    assert slope == pytest.approx(0.2, abs=1e-15)
    assert round(slope, 4) == 0.2


def test_iso_cost_line_touches_the_roc_curve_at_the_cheapest_corner():
    # Handbook: the slope-0.2 line touches the curve at its corner (0.5, 1),
    # which is the threshold 0.40.  The intercept TPR - m FPR is largest there.
    from evalmetrics.curves import roc_curve

    curve = roc_curve(Y, S)
    intercept = curve.true_positive_rate - 0.2 * curve.false_positive_rate
    corner = int(np.argmax(intercept))
    assert (curve.false_positive_rate[corner], curve.true_positive_rate[corner]) == (0.5, 1.0)
    assert curve.thresholds[corner] == best_threshold(Y, S, **COSTS).threshold


def test_worked_example_youden_index():
    # From the handbook's table: TPR - FPR is 0.5 at 0.65 (0.75 - 0.25) and at
    # 0.40 (1 - 0.5); ties go to the higher threshold.
    result = youden_index(Y, S)
    assert result.index == 0.5
    assert result.threshold == 0.65
    assert (result.true_positive_rate, result.false_positive_rate) == (0.75, 0.25)


def test_equal_costs_give_threshold_one_half():
    # Handbook: the default 0.5 is the special case of equal costs.
    assert bayes_threshold(false_positive_cost=3, false_negative_cost=3) == 0.5


def test_tie_rule_prefers_the_highest_threshold():
    # Equal costs 2 and 2 on the handbook's table: 2 (FP + FN) is 6 at 0.95
    # (0 + 3), 0.80 (1 + 2) and 0.65 (2 + 1); the highest of them wins.
    curve = cost_curve(Y, S, false_positive_cost=2, false_negative_cost=2)
    cheapest = curve.thresholds[curve.total_cost == curve.total_cost.min()]
    assert cheapest.tolist() == [0.95, 0.80, 0.65]
    best = best_threshold(Y, S, false_positive_cost=2, false_negative_cost=2)
    assert (best.threshold, best.cost) == (0.95, 6.0)


def test_flagging_nothing_can_be_cheapest():
    best = best_threshold(Y, S, false_positive_cost=1, false_negative_cost=0)
    assert best.threshold == np.inf and best.cost == 0


# ---------------------------------------------------------------------------
# against scikit-learn's confusion matrix, with ties, strings and weights
# ---------------------------------------------------------------------------

def _case(seed, n=250):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, np.round(rng.normal(size=n) + y, 1), rng.uniform(0, 2, size=n)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_cost_curve_matches_sklearn_confusion_matrices(seed, weighted):
    y, s, w = _case(seed)
    w = w if weighted else None
    labels = np.where(y, "faulty", "working")
    curve = cost_curve(labels, s, false_positive_cost=2.5, false_negative_cost=7.0,
                       pos_label="faulty", sample_weight=w)
    for threshold, total in zip(curve.thresholds, curve.total_cost):
        predicted = np.where(s >= threshold, "faulty", "working")
        tn, fp, fn, tp = confusion_matrix(labels, predicted, labels=["working", "faulty"],
                                          sample_weight=w).ravel()
        assert abs(total - (2.5 * fp + 7.0 * fn)) <= 1e-12


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 30).flatmap(lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(0, 8), min_size=n, max_size=n),
    )),
    st.floats(0, 10), st.floats(0.01, 10),
)
def test_best_threshold_is_the_brute_force_minimum(case, fp_cost, fn_cost):
    y, s = np.array(case[0]), np.array(case[1], dtype=float)
    candidates = np.r_[np.inf, np.unique(s)[::-1]]
    brute = [fp_cost * np.sum((s >= t) & (y == 0)) + fn_cost * np.sum((s < t) & (y == 1))
             for t in candidates]
    best = best_threshold(y, s, false_positive_cost=fp_cost, false_negative_cost=fn_cost)
    assert best.cost == pytest.approx(min(brute), abs=1e-9)
    assert best.threshold == candidates[int(np.argmin(brute))]


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_negative_false_positive_cost():
    with pytest.raises(ValueError, match="false_positive_cost must be a finite non-negative"):
        cost_curve(Y, S, false_positive_cost=-1, false_negative_cost=10)


def test_negative_false_negative_cost():
    with pytest.raises(ValueError, match="false_negative_cost must be a finite non-negative"):
        bayes_threshold(false_positive_cost=1, false_negative_cost=-10)


def test_both_costs_zero():
    with pytest.raises(ValueError, match="cannot both be zero"):
        best_threshold(Y, S, false_positive_cost=0, false_negative_cost=0)


def test_cost_of_wrong_type():
    with pytest.raises(TypeError, match="false_positive_cost must be a real number"):
        iso_cost_slope(0.3, false_positive_cost="1", false_negative_cost=10)


@pytest.mark.parametrize("prevalence", [0.0, 1.0, -0.2, float("nan")])
def test_prevalence_outside_the_open_interval(prevalence):
    with pytest.raises(ValueError, match="prevalence must be strictly between 0 and 1"):
        iso_cost_slope(prevalence, **COSTS)


def test_zero_false_negative_cost_gives_an_infinite_slope():
    assert iso_cost_slope(0.3, false_positive_cost=1, false_negative_cost=0) == np.inf


def test_nan_threshold():
    with pytest.raises(ValueError, match="threshold must be a number"):
        cost_at_threshold(Y, S, float("nan"), **COSTS)


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        cost_curve(Y[:5], S, **COSTS)


def test_youden_index_with_one_class():
    with pytest.warns(UndefinedMetricWarning):
        result = youden_index([1, 1, 1], [0.2, 0.4, 0.6])
    assert np.isnan(result.index)


def test_public_names():
    assert set(costs.__all__) == {
        "BestThreshold", "CostCurve", "YoudenIndex", "bayes_threshold", "best_threshold",
        "cost_at_threshold", "cost_curve", "iso_cost_slope", "youden_index",
    }
