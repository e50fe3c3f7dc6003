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
from helpers import assert_close

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

    from evalmetrics.plotting import curves as figures

    table = threshold_table(Y, S)
    for join, slanted in (("steps", False), ("straight", True)):
        fig = figures.plot_precision_recall_curve(Y, S, join=join)
        (sawtooth,) = [line for line in fig.axes[0].get_lines() if line.get_label() == "every threshold"]
        path = sawtooth.get_path().vertices
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
        pr_ax = fig.axes[1]
        legend = pr_ax.get_legend().get_window_extent()
        assert legend.y1 <= pr_ax.xaxis.get_tightbbox().y0
        assert pr_ax.xaxis.get_tightbbox().x0 <= legend.x1 and legend.x0 <= pr_ax.bbox.x1
        assert legend.y0 >= fig.bbox.y0  # constrained layout made room for it
        plt.close(fig)
