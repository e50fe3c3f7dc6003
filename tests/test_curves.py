"""Tests of evalmetrics.curves: the threshold table, ROC and precision-recall curves.

Expected values come from the handbook's worked example ("Every threshold at
once", "The area under the ROC curve, three ways", "Precision-recall and
average precision", Pitfalls) unless a comment says otherwise.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evalmetrics import curves, ranking
from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.curves import (
    average_precision,
    precision_at_recall,
    precision_recall_curve,
    recall_at_false_positive_rate,
    roc_auc,
    roc_curve,
    threshold_table,
)
from evalmetrics.worked_example import twelve_units
from helpers import assert_close, assert_readable, score_matrix_case

UNITS = twelve_units()
Y, S = UNITS.y_true, UNITS.y_score

# Handbook, "Every threshold at once": (threshold, TP, FP, TPR, FPR, precision).
WORKED_ROWS = [
    (np.inf, 0, 0, 0.0, 0.0, None),
    (0.95, 1, 0, 0.25, 0.0, 1.0),
    (0.85, 1, 1, 0.25, 0.125, 0.5000),
    (0.80, 2, 1, 0.5, 0.125, 0.6667),
    (0.70, 2, 2, 0.5, 0.25, 0.5000),
    (0.65, 3, 2, 0.75, 0.25, 0.6000),
    (0.55, 3, 3, 0.75, 0.375, 0.5000),
    (0.40, 4, 4, 1.0, 0.5, 0.5000),
    (0.30, 4, 5, 1.0, 0.625, 0.4444),
    (0.20, 4, 6, 1.0, 0.75, 0.4000),
    (0.15, 4, 7, 1.0, 0.875, 0.3636),
    (0.10, 4, 8, 1.0, 1.0, 0.3333),
]


# ---------------------------------------------------------------------------
# the worked example
# ---------------------------------------------------------------------------

def test_worked_example_table_has_one_row_per_distinct_score():
    table = threshold_table(Y, S)
    finite = WORKED_ROWS[1:]
    assert len(table) == 11  # twelve units, the tied pair at 0.40 is one row
    assert table.thresholds.tolist() == [row[0] for row in finite]
    assert table.true_positives.tolist() == [row[1] for row in finite]
    assert table.false_positives.tolist() == [row[2] for row in finite]
    assert table.true_positive_rate.tolist() == [row[3] for row in finite]
    assert table.recall.tolist() == [row[3] for row in finite]
    assert table.false_positive_rate.tolist() == [row[4] for row in finite]
    assert [round(p, 4) for p in table.precision.tolist()] == [row[5] for row in finite]
    # Handbook: "the false negatives are 4 - TP and the true negatives 8 - FP".
    assert table.false_negatives.tolist() == [4 - row[1] for row in finite]
    assert table.true_negatives.tolist() == [8 - row[2] for row in finite]
    assert (table.positives, table.negatives) == (4, 8)
    assert table.true_positives.dtype == np.int64


def test_worked_example_precisions_as_fractions():
    table = threshold_table(Y, S)
    exact = [Fraction(int(tp), int(tp + fp)) for tp, fp in zip(table.true_positives, table.false_positives)]
    # Handbook: precisions 1, 1/2, 2/3, 1/2, 3/5, 1/2, 4/8, 4/9, 4/10, 4/11, 4/12.
    assert exact == [Fraction(1), Fraction(1, 2), Fraction(2, 3), Fraction(1, 2), Fraction(3, 5),
                     Fraction(1, 2), Fraction(1, 2), Fraction(4, 9), Fraction(2, 5), Fraction(4, 11),
                     Fraction(1, 3)]
    assert table.precision.tolist() == [float(f) for f in exact]


def test_worked_example_counts_property_and_threshold_half():
    counts = threshold_table(Y, S).counts
    # Handbook: threshold 0.5 sits on the row of 0.55, TP 3, FP 3, FN 1, TN 5.
    assert (counts.tp[5], counts.fp[5], counts.fn[5], counts.tn[5]) == (3, 3, 1, 5)


def test_worked_example_roc_curve_starts_at_infinity():
    curve = roc_curve(Y, S)
    assert curve.thresholds[0] == np.inf
    assert curve.thresholds[1:].tolist() == [row[0] for row in WORKED_ROWS[1:]]
    assert curve.false_positive_rate.tolist() == [row[4] for row in WORKED_ROWS]
    assert curve.true_positive_rate.tolist() == [row[3] for row in WORKED_ROWS]
    # Handbook: the tied pair moves the point diagonally from (0.375, 0.75) to (0.5, 1).
    assert (curve.false_positive_rate[6], curve.true_positive_rate[6]) == (0.375, 0.75)
    assert (curve.false_positive_rate[7], curve.true_positive_rate[7]) == (0.5, 1.0)


def test_worked_example_auc_by_trapezoids():
    curve = roc_curve(Y, S)
    fpr = [Fraction(x).limit_denominator(8) for x in curve.false_positive_rate]
    tpr = [Fraction(x).limit_denominator(4) for x in curve.true_positive_rate]
    area = sum((fpr[i + 1] - fpr[i]) * (tpr[i + 1] + tpr[i]) / 2 for i in range(len(fpr) - 1))
    # Handbook: 0.03125 + 0.0625 + 0.09375 + 0.109375 + 0.5 = 0.796875 = 25.5/32.
    assert area == Fraction(51, 64)
    assert roc_auc(Y, S) == 0.796875
    assert round(roc_auc(Y, S), 4) == 0.7969


def test_worked_example_auc_three_ways_agree():
    # Handbook: trapezoids, pairs and ranks all give 25.5/32.
    assert roc_auc(Y, S) == ranking.pairwise_auc(Y, S) == ranking.rank_auc(Y, S) == 25.5 / 32


def test_worked_example_average_precision():
    ap = average_precision(Y, S)
    # Handbook: AP = 0.25 (1 + 2/3 + 3/5 + 1/2) = 83/120 = 0.6917.
    exact = Fraction(1, 4) * (1 + Fraction(2, 3) + Fraction(3, 5) + Fraction(1, 2))
    assert exact == Fraction(83, 120)
    assert ap == pytest.approx(83 / 120, abs=1e-15)
    assert round(ap, 4) == 0.6917


def test_prevalence_baseline_is_one_third():
    table = threshold_table(Y, S)
    prevalence = table.positives / (table.positives + table.negatives)
    # Handbook: the baseline for a random ranking is the prevalence, 4/12 = 0.3333.
    assert prevalence == pytest.approx(1 / 3, abs=1e-15)
    assert round(prevalence, 4) == 0.3333
    # A constant score is one tied group: AP is exactly the prevalence.
    assert average_precision(Y, np.full(12, 0.5)) == pytest.approx(1 / 3, abs=1e-15)


def test_roc_auc_of_hard_predictions_is_balanced_accuracy():
    hard = (S >= 0.5).astype(int)
    # Handbook, Pitfalls: the predictions at 0.5 give 0.6875 = (0.75 + 0.625) / 2.
    assert roc_auc(Y, hard) == 0.6875
    assert roc_auc(Y, hard) == (3 / 4 + 5 / 8) / 2


def _row_by_row_auc(y_true, y_score, order):
    """The tie-ignoring variant: one ROC step per row, in the given order."""
    y = np.asarray(y_true)[order].astype(bool)
    tpr = np.r_[0.0, np.cumsum(y) / y.sum()]
    fpr = np.r_[0.0, np.cumsum(~y) / (~y).sum()]
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def test_ignoring_ties_makes_the_area_depend_on_row_order():
    working_first = np.arange(12)  # unit 7 (working) before unit 8 (faulty)
    faulty_first = np.r_[np.arange(6), 7, 6, np.arange(8, 12)]
    # Handbook, Pitfalls: 25/32 = 0.78125 in one order, 26/32 = 0.8125 in the other.
    assert _row_by_row_auc(Y, S, working_first) == 25 / 32
    assert _row_by_row_auc(Y, S, faulty_first) == 26 / 32
    # Grouping the tie gives the midpoint, the pairwise probability 0.796875.
    assert roc_auc(Y, S) == (25 / 32 + 26 / 32) / 2 == 0.796875


def test_trapezoid_area_under_pr_points_is_not_average_precision():
    precision, recall, _ = skm.precision_recall_curve(Y, S)
    trapezoid = -np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2)
    # Hand-computed from the worked example's points with scikit-learn's start
    # (recall 0, precision 1): 0.25 + 7/48 + 0.1375 + 0.125 = 79/120.
    assert trapezoid == pytest.approx(79 / 120, abs=1e-15)
    assert trapezoid == pytest.approx(skm.auc(recall, precision), abs=1e-15)
    assert abs(trapezoid - average_precision(Y, S)) == pytest.approx(4 / 120, abs=1e-15)


def test_worked_example_precision_recall_curve():
    curve = precision_recall_curve(Y, S)
    assert curve.thresholds.tolist() == [row[0] for row in WORKED_ROWS[1:]]
    assert curve.recall.tolist() == [row[3] for row in WORKED_ROWS[1:]]
    assert [round(p, 4) for p in curve.precision.tolist()] == [row[5] for row in WORKED_ROWS[1:]]


def test_worked_example_operating_points():
    # From the table above: recall first reaches 0.5 at 0.80 (precision 2/3),
    # 0.75 at 0.65 (3/5), 1 at 0.40 (1/2); recall 0 uses the top row (0.95).
    assert precision_at_recall(Y, S, 0.5) == 2 / 3
    assert precision_at_recall(Y, S, 0.6) == 3 / 5
    assert precision_at_recall(Y, S, 1.0) == 0.5
    assert precision_at_recall(Y, S, 0.0) == 1.0
    # FPR <= 0.125 allows 0.80 (recall 0.5); <= 0.45 stops before the tied
    # group at 0.40 (FPR 0.5), so recall 0.75; FPR 0 allows only 0.95.
    assert recall_at_false_positive_rate(Y, S, 0.125) == 0.5
    assert recall_at_false_positive_rate(Y, S, 0.45) == 0.75
    assert recall_at_false_positive_rate(Y, S, 0.0) == 0.25
    assert recall_at_false_positive_rate(Y, S, 1.0) == 1.0


def test_recall_at_false_positive_rate_can_be_zero():
    # The highest score is a negative: no threshold below +inf keeps FPR at 0.
    assert recall_at_false_positive_rate([0, 1, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.0) == 0.0


# ---------------------------------------------------------------------------
# against scikit-learn on random data with heavy ties
# ---------------------------------------------------------------------------

def _random_case(seed, n=300, decimals=1, weighted=False, strings=False, shift=0.0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    scores = np.round(rng.normal(size=n) + y + shift, decimals)
    weights = None
    if weighted:
        weights = rng.uniform(0, 3, size=n)
        weights[rng.random(n) < 0.1] = 0.0  # zero weights must not create thresholds
    if strings:
        labels = np.where(y, "faulty", "working")
        return labels, scores, weights, {"pos_label": "faulty"}
    return y.astype(int), scores, weights, {}


CASES = [
    dict(seed=0), dict(seed=1, decimals=2), dict(seed=2, shift=3.0), dict(seed=3, shift=-3.0),
    dict(seed=4, strings=True), dict(seed=5, weighted=True), dict(seed=6, weighted=True, strings=True),
    dict(seed=7, n=2000, decimals=2), dict(seed=8, decimals=0),
]


@pytest.mark.parametrize("case", CASES)
def test_roc_curve_matches_sklearn(case):
    y, s, w, kw = _random_case(**case)
    ours = roc_curve(y, s, sample_weight=w, **kw)
    fpr, tpr, thresholds = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False, **kw)
    assert np.array_equal(ours.thresholds, thresholds)
    assert_close(ours.false_positive_rate, fpr)
    assert_close(ours.true_positive_rate, tpr)


@pytest.mark.parametrize("case", CASES)
def test_roc_auc_matches_sklearn(case):
    y, s, w, kw = _random_case(**case)
    if kw:
        expected = skm.roc_auc_score(y == kw["pos_label"], s, sample_weight=w)
    else:
        expected = skm.roc_auc_score(y, s, sample_weight=w)
    assert abs(roc_auc(y, s, sample_weight=w, **kw) - expected) <= 1e-12


@pytest.mark.parametrize("case", CASES)
def test_precision_recall_curve_is_sklearns_reversed_without_its_last_point(case):
    y, s, w, kw = _random_case(**case)
    ours = precision_recall_curve(y, s, sample_weight=w, **kw)
    precision, recall, thresholds = skm.precision_recall_curve(y, s, sample_weight=w, **kw)
    # scikit-learn appends (recall 0, precision 1) with no threshold.
    assert (precision[-1], recall[-1]) == (1.0, 0.0)
    assert np.array_equal(ours.thresholds, thresholds[::-1])
    assert_close(ours.precision, precision[:-1][::-1])
    assert_close(ours.recall, recall[:-1][::-1])


@pytest.mark.parametrize("case", CASES)
def test_average_precision_matches_sklearn(case):
    y, s, w, kw = _random_case(**case)
    expected = skm.average_precision_score(y, s, sample_weight=w, **kw)
    assert abs(average_precision(y, s, sample_weight=w, **kw) - expected) <= 1e-12


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # sklearn, at 1.7e308
@pytest.mark.parametrize("scores", [
    [-1e300, -1e-300, -0.0, 0.0, 1e-300, 1e300, 5.0, -5.0, -1.7e308, 1.7e308, 5e-324],
    [-3.0, -0.0, 0.0, 2.0, 1e-10, -1e-10],
    [0.0, -0.0, 0.0, 1.0, 2.0],
    [-2.0, -0.0, -1.0, -2.0],
    [3.0, 1.0, 2.0, 3.0],
])
def test_fast_paths_match_the_argsort_path_on_awkward_scores(scores):
    # Extreme ranges force the by-sign fallback; signed zeros must tie.
    rng = np.random.default_rng(len(scores))
    s = rng.choice(np.asarray(scores), size=80)
    y = np.r_[0, 1, rng.integers(0, 2, size=78)]
    fast = threshold_table(y, s)
    slow = threshold_table(y, s, sample_weight=np.ones(80))  # the argsort path
    assert np.array_equal(fast.thresholds, slow.thresholds)
    assert fast.true_positives.tolist() == slow.true_positives.tolist()
    assert fast.false_positives.tolist() == slow.false_positives.tolist()
    assert roc_auc(y, s) == ranking.pairwise_auc(y, s) == ranking.rank_auc(y, s)
    _, _, sk_thresholds = skm.roc_curve(y, s, drop_intermediate=False)
    assert np.array_equal(fast.thresholds, sk_thresholds[1:])


def test_weighted_table_has_float_counts():
    table = threshold_table(Y, S, sample_weight=np.full(12, 0.5))
    assert table.true_positives.dtype == np.float64
    assert table.positives == 2.0 and table.negatives == 4.0
    # Uniform weights change no rate: the AUC stays 25.5/32.
    assert roc_auc(Y, S, sample_weight=np.full(12, 0.5)) == 0.796875


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

labelled_scores = st.integers(min_value=2, max_value=40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)),
        st.lists(st.integers(-6, 6), min_size=n, max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_roc_is_unchanged_by_a_strictly_increasing_transform(case):
    y, s = np.array(case[0]), np.array(case[1], dtype=float)
    before, after = roc_curve(y, s), roc_curve(y, np.exp(s / 3) - 7.5)
    assert np.array_equal(before.false_positive_rate, after.false_positive_rate)
    assert np.array_equal(before.true_positive_rate, after.true_positive_rate)
    assert roc_auc(y, s) == roc_auc(y, np.exp(s / 3) - 7.5)


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_roc_is_unchanged_by_duplicating_every_negative(case):
    y, s = np.array(case[0]), np.array(case[1], dtype=float)
    negatives = y == 0
    y2, s2 = np.r_[y, y[negatives]], np.r_[s, s[negatives]]
    before, after = roc_curve(y, s), roc_curve(y2, s2)
    assert np.array_equal(before.false_positive_rate, after.false_positive_rate)
    assert np.array_equal(before.true_positive_rate, after.true_positive_rate)
    assert roc_auc(y, s) == roc_auc(y2, s2)


@settings(max_examples=150, deadline=None)
@given(labelled_scores)
def test_table_rows_are_consistent(case):
    y, s = np.array(case[0]), np.array(case[1], dtype=float)
    table = threshold_table(y, s)
    assert np.all(np.diff(table.thresholds) < 0)
    assert len(table) == len(np.unique(s))
    assert table.true_positives[-1] == y.sum() and table.false_positives[-1] == (y == 0).sum()
    flagged = [(s >= t) for t in table.thresholds]
    assert table.true_positives.tolist() == [int((f & (y == 1)).sum()) for f in flagged]


@settings(max_examples=100, deadline=None)
@given(labelled_scores, st.floats(0, 1))
def test_operating_points_match_their_definitions(case, target):
    y, s = np.array(case[0]), np.array(case[1], dtype=float)
    table = threshold_table(y, s)
    recall, fpr, precision = table.recall, table.false_positive_rate, table.precision
    reached = np.flatnonzero(recall >= target)
    assert precision_at_recall(y, s, target) == precision[reached[0]]
    allowed = recall[fpr <= target]
    assert recall_at_false_positive_rate(y, s, target) == (allowed.max() if len(allowed) else 0.0)


# ---------------------------------------------------------------------------
# undefined cases and bad input
# ---------------------------------------------------------------------------

def test_one_class_gives_nan_and_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="ROC AUC"):
        assert np.isnan(roc_auc([1, 1, 1], [0.1, 0.2, 0.3]))
    with pytest.warns(UndefinedMetricWarning, match="average precision"):
        assert np.isnan(average_precision([0, 0, 0], [0.1, 0.2, 0.3]))
    with pytest.warns(UndefinedMetricWarning, match="false positive rate"):
        curve = roc_curve([1, 1], [0.1, 0.2])
    assert np.all(np.isnan(curve.false_positive_rate))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(precision_at_recall([0, 0], [0.1, 0.2], 0.5))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(recall_at_false_positive_rate([1, 1], [0.1, 0.2], 0.5))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(roc_auc([1, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1, 2, 3]))


def test_average_precision_without_negatives_is_one():
    # As in scikit-learn: every precision is 1.
    assert average_precision([1, 1, 1], [0.1, 0.2, 0.3]) == 1.0


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        roc_auc(Y, S[:11])


def test_empty_input():
    with pytest.raises(ValueError, match="y_true is empty"):
        roc_curve([], [])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_scores(bad):
    s = S.copy()
    s[3] = bad
    with pytest.raises(ValueError, match="y_score contains 1 NaN or infinite"):
        threshold_table(Y, s)


def test_two_dimensional_scores():
    # Two classes take the positive class's scores; a matrix needs three classes (AP) or
    # multi_class (the AUC), as in scikit-learn, which refuses both.
    with pytest.raises(ValueError, match=r"y_score has shape \(12, 2\): for two classes pass a 1-D array"):
        average_precision(Y, np.c_[1 - S, S])
    with pytest.raises(ValueError, match=r"y_score has shape \(12, 2\): pass a 1-D array .* multi_class="):
        roc_auc(Y, np.c_[1 - S, S])
    with pytest.raises(ValueError, match="y_score must be a 1-D array"):
        roc_curve(Y, np.c_[1 - S, S])


def test_non_binary_labels_without_pos_label():
    with pytest.raises(ValueError, match="pass pos_label"):
        roc_auc(np.where(Y == 1, "faulty", "working"), S)
    with pytest.raises(ValueError, match="not binary"):
        roc_auc(np.arange(12) % 3, S)


def test_absent_pos_label():
    with pytest.raises(ValueError, match="pos_label='broken' does not occur"):
        precision_recall_curve(np.where(Y == 1, "faulty", "working"), S, pos_label="broken")


def test_negative_sample_weight():
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        roc_auc(Y, S, sample_weight=-np.ones(12))


def test_all_weights_zero():
    with pytest.raises(ValueError, match="sample_weight is zero for every row"):
        threshold_table(Y, S, sample_weight=np.zeros(12))


@pytest.mark.parametrize("target", [-0.1, 1.5, float("nan")])
def test_target_rate_outside_unit_interval(target):
    with pytest.raises(ValueError, match="recall must be between 0 and 1"):
        precision_at_recall(Y, S, target)
    with pytest.raises(ValueError, match="false_positive_rate must be between 0 and 1"):
        recall_at_false_positive_rate(Y, S, target)


def test_target_rate_of_wrong_type():
    with pytest.raises(TypeError, match="recall must be a real number"):
        precision_at_recall(Y, S, "0.5")


def test_table_is_read_only():
    table = threshold_table(Y, S)
    with pytest.raises(ValueError):
        table.true_positives[0] = 7
    with pytest.raises(AttributeError):
        table.positives = 5


def test_public_names():
    assert set(curves.__all__) == {
        "DetCurve", "PrecisionRecallCurve", "RocCurve", "ThresholdTable", "average_precision",
        "det_curve", "precision_at_recall", "precision_recall_curve", "recall_at_false_positive_rate",
        "roc_auc", "roc_curve", "threshold_table",
    }


def test_figures_of_the_worked_example():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting import curves as figures

    fig = figures.plot_roc_curve(Y, S, shade=True, binormal=(2.0, 1.0))
    ax = fig.axes[0]
    assert ax.get_xlabel() == "False positive rate" and ax.get_ylabel() == "True positive rate"
    # The tied pair's diagonal step, from (0.375, 0.75) to (0.5, 1), is drawn on its own.
    assert any(np.array_equal(line.get_xdata(), [0.375, 0.5]) for line in ax.get_lines())
    figures.plot_roc_curve(Y, 1 - S, ax)  # a second curve takes the next colour
    curves_drawn = [line for line in ax.get_lines() if line.get_gid() == "evalmetrics-roc-curve"]
    assert len(curves_drawn) == 2 and curves_drawn[0].get_color() != curves_drawn[1].get_color()
    plt.close(fig)
    for fig in (figures.plot_precision_recall_curve(Y, S),
                figures.plot_cost_curve(Y, S, false_positive_cost=1, false_negative_cost=10,
                                        mark_thresholds=[0.5]),
                figures.plot_iso_cost_lines(Y, S, false_positive_cost=1, false_negative_cost=10),
                figures.plot_roc_and_precision_recall({"a": (Y, S), "b": (Y, S[::-1])})):
        assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)
        plt.close(fig)


def test_precision_recall_sawtooth_as_steps():
    # join="steps" draws the operating points as the average precision reads them:
    # only vertical and horizontal moves, through every point, never a slanted
    # chord (the interpolation the precision-recall chapter calls wrong).
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.cbook import STEP_LOOKUP_MAP

    from evalmetrics.plotting import curves as figures

    table = threshold_table(Y, S)
    for join, slanted in (("steps", False), ("straight", True)):
        fig = figures.plot_precision_recall_curve(Y, S, join=join)
        (sawtooth,) = [line for line in fig.axes[0].get_lines() if line.get_label() == "every threshold"]
        # The path as drawn: matplotlib applies the line's drawstyle to its data when it
        # draws (get_path() keeps the data points where the line also has markers).
        path = np.column_stack(STEP_LOOKUP_MAP[sawtooth.get_drawstyle()](*sawtooth.get_data()))
        moves = np.diff(path, axis=0)
        assert np.any((moves[:, 0] != 0) & (moves[:, 1] != 0)) == slanted
        assert {(x, y) for x, y in zip(table.recall, table.precision)} <= {tuple(v) for v in path}
        plt.close(fig)


def test_precision_recall_join_refuses_other_values():
    from evalmetrics.plotting import curves as figures

    with pytest.raises(ValueError, match="join"):
        figures.plot_precision_recall_curve(Y, S, join="linear")


def test_precision_recall_legend_hides_no_curve():
    # Three prevalences leave no free corner in precision-recall space: the
    # legend goes under the recall axis, clear of its label.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.datasets import binormal_scores
    from evalmetrics.plotting import curves as figures

    cases = {f"{n}": binormal_scores(2000, n, mean=2.0, seed=3) for n in (2000, 222, 20)}
    for fig in (figures.plot_roc_and_precision_recall(cases),
                figures.plot_roc_and_precision_recall({"a": (Y, S)}, figsize=(6.0, 4.0))):
        # Constrained layout settles on the second draw (savefig's tight box
        # draws twice too).
        fig.canvas.draw()
        fig.canvas.draw()
        assert_readable(fig)
        pr_ax = fig.axes[1]
        legend = pr_ax.get_legend().get_window_extent()
        assert legend.y1 <= pr_ax.xaxis.get_tightbbox().y0
        assert pr_ax.xaxis.get_tightbbox().x0 <= legend.x1 and legend.x0 <= pr_ax.bbox.x1
        assert legend.y0 >= fig.bbox.y0  # constrained layout made room for it
        plt.close(fig)


# ---------------------------------------------------------------------------
# several classes: a score matrix, one against the rest, one against one
# ---------------------------------------------------------------------------

_matrix_case = score_matrix_case


MATRIX_CASES = [dict(seed=0), dict(seed=1, k=4, strings=True), dict(seed=2, k=5, weighted=True),
                dict(seed=3, weighted=True, strings=True), dict(seed=4, tenths=False, k=6),
                dict(seed=5, n=40, k=3)]


@pytest.mark.parametrize("case", MATRIX_CASES)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_one_vs_rest_auc_matches_sklearn(case, average):
    y, scores, w = _matrix_case(**case)
    ours = roc_auc(y, scores, multi_class="ovr", average=average, sample_weight=w)
    assert_close(ours, skm.roc_auc_score(y, scores, multi_class="ovr", average=average, sample_weight=w))


@pytest.mark.parametrize("case", MATRIX_CASES)
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_one_vs_one_auc_matches_sklearn(case, average):
    y, scores, _ = _matrix_case(**case)
    ours = roc_auc(y, scores, multi_class="ovo", average=average)
    assert abs(ours - skm.roc_auc_score(y, scores, multi_class="ovo", average=average)) <= 1e-12


@pytest.mark.parametrize("case", MATRIX_CASES[:4])
def test_hand_and_till_m_is_the_mean_over_pairs_of_pairwise_aucs(case):
    # Hand and Till (2001): A(i|j) is the probability that a row of class i scores higher in
    # column i than a row of class j (ties one half); M averages (A(i|j) + A(j|i)) / 2 over pairs.
    y, scores, _ = _matrix_case(**case)
    classes = np.unique(y)
    pairs = []
    for i in range(len(classes)):
        for j in range(i + 1, len(classes)):
            rows = np.isin(y, classes[[i, j]])
            a_ij = ranking.pairwise_auc(y[rows] == classes[i], scores[rows, i])
            a_ji = ranking.pairwise_auc(y[rows] == classes[j], scores[rows, j])
            pairs.append((a_ij + a_ji) / 2)
    assert abs(roc_auc(y, scores, multi_class="ovo") - np.mean(pairs)) <= 1e-12


def test_one_vs_rest_per_class_aucs_are_binary_aucs_of_the_columns():
    y, scores, w = _matrix_case(seed=7, k=4, weighted=True)
    per_class = roc_auc(y, scores, multi_class="ovr", average=None, sample_weight=w)
    for k, label in enumerate(np.unique(y)):
        assert per_class[k] == roc_auc(y == label, scores[:, k], sample_weight=w)
    support = np.array([w[y == label].sum() for label in np.unique(y)])
    weighted = roc_auc(y, scores, multi_class="ovr", average="weighted", sample_weight=w)
    assert weighted == pytest.approx(np.dot(per_class, support) / support.sum(), abs=1e-15)


def test_multiclass_auc_of_small_exact_example():
    # Three rows per class; each column ranks its own class as written (exact fractions by hand).
    y = np.array([0, 0, 1, 1, 2, 2])
    scores = np.array([[0.6, 0.3, 0.1], [0.4, 0.4, 0.2], [0.3, 0.5, 0.2],
                       [0.5, 0.2, 0.3], [0.2, 0.3, 0.5], [0.1, 0.6, 0.3]])
    # Column 0, class 0 against the rest: 0.6 beats 4, 0.4 beats 3 of 4 -> 7/8.
    # Column 1: 0.5 and 0.2 against 0.3, 0.4, 0.3, 0.6: 3 + 0 of 8 -> 3/8.
    # Column 2: 0.5, 0.3 against 0.1, 0.2, 0.2, 0.3: 4 + 3.5 -> 7.5/8.
    per_class = roc_auc(y, scores, multi_class="ovr", average=None)
    assert [Fraction(v).limit_denominator(64) for v in per_class] == [Fraction(7, 8), Fraction(3, 8),
                                                                       Fraction(15, 16)]
    assert roc_auc(y, scores, multi_class="ovr") == pytest.approx(float(Fraction(35, 48)), abs=1e-15)
    assert roc_auc(y, scores, multi_class="ovr") == pytest.approx(
        skm.roc_auc_score(y, scores, multi_class="ovr"), abs=1e-15)
    assert roc_auc(y, scores, multi_class="ovo") == pytest.approx(
        skm.roc_auc_score(y, scores, multi_class="ovo"), abs=1e-15)


def test_labels_name_the_columns_in_any_order():
    y, scores, w = _matrix_case(seed=8, k=4, strings=True, tenths=False)
    classes = np.unique(y)
    order = np.array([2, 0, 3, 1])
    for multi_class in ("ovr", "ovo"):
        weights = w if multi_class == "ovr" else None
        expected = roc_auc(y, scores, multi_class=multi_class, sample_weight=weights)
        permuted = roc_auc(y, scores[:, order], multi_class=multi_class, labels=classes[order],
                           sample_weight=weights)
        assert permuted == pytest.approx(expected, abs=1e-15)
    # scikit-learn takes sorted labels only, and agrees on them.
    assert roc_auc(y, scores, multi_class="ovr", labels=classes) == pytest.approx(
        skm.roc_auc_score(y, scores, multi_class="ovr", labels=classes), abs=1e-15)


def test_a_listed_class_absent_from_y_true():
    y, scores, _ = _matrix_case(seed=9, k=3)
    y = np.where(y == 20, 10, y)  # class 20 disappears; its column stays
    labels = np.array([0, 10, 20])
    with pytest.warns(UndefinedMetricWarning, match="class 20 has no rows in y_true"):
        per_class = roc_auc(y, scores, multi_class="ovr", average=None, labels=labels)
    assert np.isnan(per_class[2]) and np.all(np.isfinite(per_class[:2]))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(roc_auc(y, scores, multi_class="ovr", labels=labels))
    # One against one leaves the absent class out, as scikit-learn does.
    assert roc_auc(y, scores, multi_class="ovo", labels=labels) == pytest.approx(
        skm.roc_auc_score(y, scores, multi_class="ovo", labels=labels), abs=1e-12)


def test_scores_need_not_sum_to_one():
    # scikit-learn refuses rows that do not sum to 1; only each column's order counts here.
    y, scores, _ = _matrix_case(seed=10, k=3, tenths=False)
    stretched = np.exp(3 * scores) * np.array([1.0, 7.0, 0.2])  # increasing in every column
    with pytest.raises(ValueError, match="sum up to 1"):
        skm.roc_auc_score(y, stretched, multi_class="ovr")
    for multi_class in ("ovr", "ovo"):
        assert roc_auc(y, stretched, multi_class=multi_class) == pytest.approx(
            roc_auc(y, scores, multi_class=multi_class), abs=1e-15)


def test_integer_score_matrices_beyond_2_to_53_keep_their_order():
    y = np.array([0, 0, 1, 1, 2, 2])
    base = 2**60
    scores = np.array([[base + 5, base, base], [base + 1, base + 2, base], [base, base + 3, base],
                       [base + 2, base + 1, base + 4], [base, base + 1, base + 6], [base + 3, base, base + 5]],
                      dtype=np.int64)
    as_ranks = scores - base  # the same order in small integers
    for multi_class in ("ovr", "ovo"):
        assert roc_auc(y, scores, multi_class=multi_class) == roc_auc(y, as_ranks, multi_class=multi_class)
    assert average_precision(y, scores) == average_precision(y, as_ranks)


@pytest.mark.parametrize(("options", "error", "message"), [
    (dict(), ValueError, r"y_score has shape \(300, 3\): pass a 1-D array .* multi_class="),
    (dict(multi_class="raise"), ValueError, "multi_class must be one of 'ovr', 'ovo'"),
    (dict(multi_class="ovr", average="samples"), ValueError, "average must be one of"),
    (dict(multi_class="ovo", average="micro"), ValueError, "average must be one of 'macro', 'weighted'"),
    (dict(multi_class="ovo", average=None), ValueError, "average must be one of 'macro', 'weighted'"),
    (dict(multi_class="ovo", sample_weight=np.ones(300)), ValueError, "sample_weight is not supported"),
    (dict(multi_class="ovr", max_fpr=0.1), ValueError, "max_fpr .* two classes only"),
    (dict(multi_class="ovr", pos_label=1), ValueError, "pos_label applies to two classes"),
    (dict(multi_class="ovr", labels=[0, 1]), ValueError, "labels has 2 entries but y_score has 3 columns"),
    (dict(multi_class="ovr", labels=[0, 1, 1]), ValueError, "labels contains duplicates"),
    (dict(multi_class="ovr", labels=[0, 1, 3]), ValueError, "y_true holds labels that are not in labels"),
    (dict(multi_class="ovr", labels=["a", "b", "c"]), TypeError, "y_true holds numbers and labels holds strings"),
])
def test_bad_multiclass_options_are_refused(options, error, message):
    rng = np.random.default_rng(0)
    y = np.arange(300) % 3
    with pytest.raises(error, match=message):
        roc_auc(y, rng.dirichlet(np.ones(3), 300), **options)


@pytest.mark.parametrize(("y", "scores", "error", "message"), [
    (np.arange(9) % 3, np.full((9, 3), np.nan), ValueError, "y_score contains 27 NaN or infinite"),
    (np.arange(9) % 3, np.ones((8, 3)), ValueError, "inconsistent lengths: y_true has 9, y_score has 8"),
    (np.arange(9) % 3, np.ones((9, 4)), ValueError, "y_true has 3 classes .* but y_score has 4 columns"),
    (np.arange(9) % 3, np.ones((9, 3, 1)), ValueError, "y_score must be a 2-D array"),
    (np.arange(9) % 3, np.full((9, 3), "0.5"), TypeError, "y_score must contain numbers"),
    (np.arange(9) % 3 + 0.5, np.ones((9, 3)), ValueError, "y_true must hold class labels"),
])
def test_bad_score_matrices_are_refused(y, scores, error, message):
    for call in (lambda: roc_auc(y, scores, multi_class="ovr"), lambda: roc_auc(y, scores, multi_class="ovo"),
                 lambda: average_precision(y, scores)):
        with pytest.raises(error, match=message):
            call()


@pytest.mark.parametrize("case", MATRIX_CASES)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_average_precision_of_a_matrix_matches_sklearn(case, average):
    y, scores, w = _matrix_case(**case)
    assert_close(average_precision(y, scores, average=average, sample_weight=w),
                 skm.average_precision_score(y, scores, average=average, sample_weight=w))


def test_average_precision_of_a_matrix_is_the_binarised_one():
    from sklearn.preprocessing import label_binarize

    y, scores, w = _matrix_case(seed=11, k=4, weighted=True)
    per_class = average_precision(y, scores, average=None, sample_weight=w)
    binarised = label_binarize(y, classes=np.unique(y))
    for k in range(4):
        assert per_class[k] == average_precision(binarised[:, k], scores[:, k], sample_weight=w)
    micro = average_precision(binarised.ravel(), scores.ravel(), sample_weight=np.repeat(w, 4))
    assert average_precision(y, scores, average="micro", sample_weight=w) == pytest.approx(micro, abs=1e-15)


# ---------------------------------------------------------------------------
# part of the ROC curve: the standardised partial AUC
# ---------------------------------------------------------------------------

def test_partial_auc_of_the_worked_example():
    # Up to FPR 1/4 the staircase encloses 1/8 x 1/4 + 1/8 x 1/2 = 3/32; chance 1/32, at most 1/4:
    # (1 + (3/32 - 1/32) / (8/32 - 1/32)) / 2 = 9/14.
    assert roc_auc(Y, S, max_fpr=0.25) == pytest.approx(9 / 14, abs=1e-15)
    assert roc_auc(Y, S, max_fpr=0.25) == pytest.approx(skm.roc_auc_score(Y, S, max_fpr=0.25), abs=1e-15)
    # Between the points of 0.125 and 0.25 (height 0.5): the cut at 0.2 is linear.
    area = 0.125 * 0.25 + 0.075 * 0.5
    assert roc_auc(Y, S, max_fpr=0.2) == pytest.approx(0.5 * (1 + (area - 0.02) / (0.2 - 0.02)), abs=1e-15)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("max_fpr", [0.001, 0.05, 0.125, 0.3, 0.99, 1.0])
def test_partial_auc_matches_sklearn(case, max_fpr):
    y, s, w, kw = _random_case(**case)
    positive = y == kw["pos_label"] if kw else y
    expected = skm.roc_auc_score(positive, s, sample_weight=w, max_fpr=max_fpr)
    assert abs(roc_auc(y, s, sample_weight=w, max_fpr=max_fpr, **kw) - expected) <= 1e-12


@settings(max_examples=60, deadline=None)
@given(labels=st.lists(st.integers(0, 1), min_size=4, max_size=40), levels=st.integers(1, 8),
       max_fpr=st.floats(0.01, 1.0), seed=st.integers(0, 2**16))
def test_mcclish_maps_chance_to_one_half_and_perfection_to_one(labels, levels, max_fpr, seed):
    y = np.array(labels)
    y[:2] = 1, 0
    rng = np.random.default_rng(seed)
    # A constant score is the chance diagonal: exactly one half.
    assert roc_auc(y, np.zeros(len(y)), max_fpr=max_fpr) == pytest.approx(0.5, abs=1e-12)
    # Perfect separation: every positive above every negative.
    assert roc_auc(y, y + 0.0, max_fpr=max_fpr) == pytest.approx(1.0, abs=1e-12)
    # Any ranking: between the reversed one and 1, and the whole AUC at max_fpr = 1.
    s = np.round(rng.integers(0, levels, len(y)) + 0.0, 1)
    low = 0.5 * (1 - (max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2)) if max_fpr < 1 else 0.0
    assert low - 1e-12 <= roc_auc(y, s, max_fpr=max_fpr) <= 1 + 1e-12
    assert roc_auc(y, s, max_fpr=1.0) == roc_auc(y, s)


@pytest.mark.parametrize(("max_fpr", "error"), [(0.0, ValueError), (-0.1, ValueError), (1.5, ValueError),
                                                 (np.nan, ValueError), ("0.1", TypeError), (True, TypeError)])
def test_bad_max_fpr_is_refused(max_fpr, error):
    with pytest.raises(error, match="^max_fpr "):
        roc_auc(Y, S, max_fpr=max_fpr)


def test_partial_auc_of_one_class_is_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="partial ROC AUC"):
        assert np.isnan(roc_auc(np.zeros(12, dtype=int), S, max_fpr=0.3))


# ---------------------------------------------------------------------------
# the DET curve
# ---------------------------------------------------------------------------

def test_det_curve_of_the_worked_example():
    curve = curves.det_curve(Y, S)
    # From 0.40 (every faulty unit flagged) up to 0.95 (no working unit flagged).
    assert curve.thresholds.tolist() == [0.40, 0.55, 0.65, 0.70, 0.80, 0.85, 0.95]
    assert curve.false_positive_rate.tolist() == [0.5, 0.375, 0.25, 0.25, 0.125, 0.125, 0.0]
    assert curve.false_negative_rate.tolist() == [0.0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75]
    # Its points are the ROC curve's, with FNR = 1 - TPR, read the other way.
    roc = roc_curve(Y, S)
    inside = np.isin(roc.thresholds, curve.thresholds)
    assert_close(curve.false_negative_rate[::-1], 1 - roc.true_positive_rate[inside])


@pytest.mark.parametrize("case", CASES)
def test_det_curve_matches_sklearn(case):
    y, s, w, kw = _random_case(**case)
    ours = curves.det_curve(y, s, sample_weight=w, **kw)
    fpr, fnr, thresholds = skm.det_curve(y, s, sample_weight=w, **kw)
    assert np.array_equal(ours.thresholds, thresholds)
    assert_close(ours.false_positive_rate, fpr)
    assert_close(ours.false_negative_rate, fnr)


def test_det_curve_starts_at_infinity_when_the_top_score_is_a_negative():
    curve = curves.det_curve([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2])
    fpr, fnr, thresholds = skm.det_curve([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2])
    assert curve.thresholds[-1] == np.inf and np.array_equal(curve.thresholds, thresholds)
    assert_close(curve.false_positive_rate, fpr)
    assert_close(curve.false_negative_rate, fnr)


def test_det_curve_of_one_class_has_nan_rates_and_warns():
    with pytest.warns(UndefinedMetricWarning, match="false negative rate"):
        curve = curves.det_curve(np.zeros(12, dtype=int), S)
    assert np.all(np.isnan(curve.false_negative_rate))


# ---------------------------------------------------------------------------
# other definitions of average precision
# ---------------------------------------------------------------------------

def test_average_precision_methods_on_the_worked_example():
    # Precisions where recall rises: 1, 2/3, 3/5, 1/2, already non-increasing, so the
    # interpolation changes nothing. 11 levels: 0, .1, .2 -> 1; .3, .4, .5 -> 2/3; .6, .7 -> 3/5;
    # .8, .9, 1 -> 1/2, a sum of 7.7. 101 levels: 26 x 1 + 25 x (2/3 + 3/5 + 1/2) = 421/6.
    assert average_precision(Y, S, method="step") == pytest.approx(83 / 120, abs=1e-15)
    assert average_precision(Y, S, method="interpolated") == pytest.approx(83 / 120, abs=1e-15)
    assert average_precision(Y, S, method="11-point") == pytest.approx(7 / 10, abs=1e-15)
    assert average_precision(Y, S, method="101-point") == pytest.approx(421 / 606, abs=1e-15)


def test_interpolation_raises_a_precision_that_a_later_rise_beats():
    # Hits at ranks 1, 4 and 5: precisions 1, 1/2, 3/5; interpolated 1, 3/5, 3/5.
    y, s = np.array([1, 0, 0, 1, 1]), np.array([5.0, 4, 3, 2, 1])
    assert average_precision(y, s) == pytest.approx(float((1 + Fraction(1, 2) + Fraction(3, 5)) / 3), abs=1e-15)
    assert average_precision(y, s, method="interpolated") == pytest.approx(
        float((1 + Fraction(3, 5) + Fraction(3, 5)) / 3), abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(labels=st.lists(st.integers(0, 1), min_size=2, max_size=40), levels=st.integers(1, 10),
       seed=st.integers(0, 2**16))
def test_interpolated_ap_is_never_below_the_step_sum(labels, levels, seed):
    y = np.array(labels)
    y[0] = 1
    s = np.random.default_rng(seed).integers(0, levels, len(y)) + 0.0
    step = average_precision(y, s)
    interpolated = average_precision(y, s, method="interpolated")
    assert step <= interpolated + 1e-12
    for method in ("11-point", "101-point"):
        assert 0 <= average_precision(y, s, method=method) <= 1


def _voc_ap(recall, precision, use_07_metric):
    """The PASCAL VOC evaluation code's voc_ap, transcribed (rows one at a time, no tie groups)."""
    if use_07_metric:
        ap = 0.0
        for t in np.arange(0.0, 1.1, 0.1):
            p = 0 if np.sum(recall >= t) == 0 else np.max(precision[recall >= t])
            ap = ap + p / 11.0
        return ap
    mrec = np.concatenate(([0.0], recall, [1.0]))
    mpre = np.concatenate(([0.0], precision, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


def _coco_ap(recall, precision):
    """COCO's accumulate() for one category, transcribed: 101 recall thresholds."""
    rec_thrs = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
    pr = precision.tolist()
    q = np.zeros(len(rec_thrs)).tolist()
    for i in range(len(pr) - 1, 0, -1):
        if pr[i] > pr[i - 1]:
            pr[i - 1] = pr[i]
    inds = np.searchsorted(recall, rec_thrs, side="left")
    try:
        for ri, pi in enumerate(inds):
            q[ri] = pr[pi]
    except IndexError:
        pass
    return float(np.mean(q))


def _ranked(seed, n_positive, n=200):
    """Continuous scores (no ties) with a prime number of positives: no recall is a tenth
    or a hundredth other than 0 and 1, so the reference codes' float levels do not matter."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=int)
    y[rng.choice(n, n_positive, replace=False)] = 1
    s = rng.normal(size=n) + 1.2 * y
    order = np.argsort(-s)
    hits = np.cumsum(y[order])
    return y, s, hits / n_positive, hits / np.arange(1, n + 1)


@pytest.mark.parametrize("seed", range(5))
def test_ap_methods_match_the_voc_and_coco_code(seed):
    y, s, recall, precision = _ranked(seed, n_positive=37)
    assert average_precision(y, s, method="interpolated") == pytest.approx(
        _voc_ap(recall, precision, use_07_metric=False), abs=1e-12)
    assert average_precision(y, s, method="11-point") == pytest.approx(
        _voc_ap(recall, precision, use_07_metric=True), abs=1e-12)
    assert average_precision(y, s, method="101-point") == pytest.approx(_coco_ap(recall, precision), abs=1e-12)


def test_the_voc_transcription_misses_a_recall_of_exactly_three_tenths():
    # np.arange(0, 1.1, 0.1)[3] is 0.30000000000000004, above a recall of exactly 3/10.
    assert np.arange(0.0, 1.1, 0.1)[3] > 0.3
    y = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])  # ten positives
    s = -np.arange(len(y), dtype=float)
    order = np.argsort(-s)
    hits = np.cumsum(y[order])
    recall, precision = hits / 10, hits / np.arange(1, len(y) + 1)
    ours = average_precision(y, s, method="11-point")
    voc = _voc_ap(recall, precision, use_07_metric=True)
    # At the level 3/10 the three top hits give precision 1; the transcription reads the
    # best precision at recall 4/10 or beyond, 10/18 once everything is flagged.
    assert ours - voc == pytest.approx(float((1 - Fraction(10, 18)) / 11), abs=1e-12)


def test_bad_method_is_refused():
    with pytest.raises(ValueError, match="method must be one of 'step', 'interpolated', '11-point', '101-point'"):
        average_precision(Y, S, method="voc")
    with pytest.raises(ValueError, match="method"):
        average_precision(Y, S, method=None)
