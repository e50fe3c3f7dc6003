"""Tests of evalmetrics.budgets: precision and recall at k, gain and lift, top-k accuracy.

Expected values of the twelve units come from the costs chapter's section on
budgets (scores 0.95 ... 0.10, units 1, 3, 5 and 8 faulty, units 7 and 8 tied
at 0.40) unless a comment says otherwise.
"""

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evalmetrics import budgets
from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.budgets import gain_curve, lift_curve, precision_at_k, recall_at_k, top_k_accuracy
from evalmetrics.worked_example import twelve_units
from helpers import assert_close, score_matrix_case

UNITS = twelve_units()
Y, S = UNITS.y_true, UNITS.y_score


# ---------------------------------------------------------------------------
# precision and recall at k
# ---------------------------------------------------------------------------

def test_precision_and_recall_at_k_of_the_worked_example():
    # Hits among the top k, k = 1..12: the tie at 0.40 (unit 7 working, unit 8 faulty) holds
    # places 7 and 8, so k = 7 takes half of it: 3 + 1/2 expected hits.
    hits = [1, 1, 2, 2, 3, 3, Fraction(7, 2), 4, 4, 4, 4, 4]
    for k, h in enumerate(hits, start=1):
        assert precision_at_k(Y, S, k) == pytest.approx(float(Fraction(h) / k), abs=1e-15)
        assert recall_at_k(Y, S, k) == pytest.approx(float(Fraction(h) / 4), abs=1e-15)


def _mean_over_tie_orders(y, s, k):
    """The oracle: hits among the top k averaged over every order of the tied rows, exactly."""
    order = np.argsort(-s, kind="stable")
    values, labels = s[order], y[order]
    groups = np.split(labels, np.flatnonzero(np.diff(values)) + 1)
    orders = [sorted(set(permutations(g.tolist()))) for g in groups]
    total, count = Fraction(0), 0

    def walk(i, prefix):
        nonlocal total, count
        if i == len(orders):
            total += sum(prefix[:k])
            count += 1
            return
        for arrangement in orders[i]:
            walk(i + 1, prefix + list(arrangement))

    walk(0, [])
    return total / count


@settings(max_examples=80, deadline=None)
@given(labels=st.lists(st.integers(0, 1), min_size=1, max_size=9), levels=st.integers(1, 4),
       seed=st.integers(0, 2**16), data=st.data())
def test_ties_at_the_kth_place_are_the_mean_over_every_order(labels, levels, seed, data):
    y = np.array(labels)
    s = np.random.default_rng(seed).integers(0, levels, len(y)) + 0.0
    k = data.draw(st.integers(1, len(y)))
    hits = _mean_over_tie_orders(y, s, k)
    assert precision_at_k(y, s, k) == pytest.approx(float(hits / k), abs=1e-15)
    if y.sum():
        assert recall_at_k(y, s, k) == pytest.approx(float(hits / int(y.sum())), abs=1e-15)


def test_without_a_tie_at_k_it_is_the_precision_of_the_top_k():
    rng = np.random.default_rng(1)
    y = (rng.random(500) < 0.2).astype(int)
    s = rng.normal(size=500) + y  # continuous: no ties
    for k in (1, 10, 37, 100, 499, 500):
        flagged = s >= np.sort(s)[::-1][k - 1]
        assert precision_at_k(y, s, k) == pytest.approx(skm.precision_score(y, flagged), abs=1e-15)
        assert recall_at_k(y, s, k) == pytest.approx(skm.recall_score(y, flagged), abs=1e-15)


def test_precision_times_k_is_recall_times_positives():
    rng = np.random.default_rng(2)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    for k in range(1, 301, 7):
        assert precision_at_k(y, s, k) * k == pytest.approx(recall_at_k(y, s, k) * y.sum(), rel=1e-14)


def test_string_labels_and_large_integer_scores():
    words = np.where(Y == 1, "faulty", "working")
    assert precision_at_k(words, S, 7, pos_label="faulty") == 0.5
    big = (S * 100).astype(np.int64) + 2**60  # beyond 2**53: kept apart by exact ranks
    assert precision_at_k(Y, big, 7) == 0.5 and recall_at_k(Y, big, 5) == 0.75


def test_no_positives():
    zeros = np.zeros(12, dtype=int)
    assert precision_at_k(zeros, S, 4) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="recall at k"):
        assert np.isnan(recall_at_k(zeros, S, 4))


@pytest.mark.parametrize(("k", "error", "message"), [
    (0, ValueError, "k must be at least 1"), (-3, ValueError, "k must be at least 1"),
    (13, ValueError, "k must be at most the number of rows, 12, got 13"),
    (2.0, TypeError, "k must be an integer"), ("3", TypeError, "k must be an integer"),
    (True, TypeError, "k must be an integer"), (None, TypeError, "k must be an integer"),
])
def test_bad_budgets_are_refused(k, error, message):
    for function in (precision_at_k, recall_at_k):
        with pytest.raises(error, match=f"^{message}"):
            function(Y, S, k)


# ---------------------------------------------------------------------------
# gain and lift
# ---------------------------------------------------------------------------

def test_gain_and_lift_of_the_worked_example():
    gain = gain_curve(Y, S)
    flagged = np.array([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12])  # the tie enters two units at once
    assert_close(gain.share_flagged, flagged / 12)
    assert gain.gain.tolist() == [0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1, 1, 1, 1, 1]
    assert gain.thresholds[0] == np.inf and gain.thresholds[1:].tolist() == sorted(set(S), reverse=True)
    lift = lift_curve(Y, S)
    # Precision over the prevalence 1/3: 1, 1/2, 2/3, 1/2, 3/5, 1/2, 1/2, 4/9, 2/5, 4/11, 1/3, times 3.
    expected = [3, Fraction(3, 2), 2, Fraction(3, 2), Fraction(9, 5), Fraction(3, 2), Fraction(3, 2),
                Fraction(4, 3), Fraction(6, 5), Fraction(12, 11), 1]
    assert_close(lift.lift, [float(v) for v in expected])
    assert_close(lift.share_flagged, flagged[1:] / 12)


def _random(seed, n=400, weighted=False, strings=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    s = np.round(rng.normal(size=n) + y, 1)
    w = None
    if weighted:
        w = np.round(rng.uniform(0, 3, n), 1)
        w[rng.random(n) < 0.1] = 0.0
    if strings:
        return np.where(y, "hit", "miss"), s, w, {"pos_label": "hit"}
    return y.astype(int), s, w, {}


GAIN_CASES = [dict(seed=0), dict(seed=1, weighted=True), dict(seed=2, strings=True),
              dict(seed=3, weighted=True, strings=True)]


@pytest.mark.parametrize("case", GAIN_CASES)
def test_gain_and_lift_read_off_sklearn_counts(case):
    y, s, w, kw = _random(**case)
    label = kw.get("pos_label", 1)
    _, fps, _, tps, thresholds = skm.confusion_matrix_at_thresholds(y, s, pos_label=label, sample_weight=w)
    share = (tps + fps) / (tps[-1] + fps[-1])
    gain = gain_curve(y, s, sample_weight=w, **kw)
    assert np.array_equal(gain.thresholds[1:], thresholds)
    assert_close(gain.share_flagged, np.r_[0.0, share])
    assert_close(gain.gain, np.r_[0.0, tps / tps[-1]])
    lift = lift_curve(y, s, sample_weight=w, **kw)
    assert_close(lift.lift, (tps / tps[-1]) / share)
    assert lift.lift[-1] == pytest.approx(1.0, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(labels=st.lists(st.integers(0, 1), min_size=2, max_size=40), levels=st.integers(1, 8),
       seed=st.integers(0, 2**16))
def test_lift_lies_below_one_over_the_prevalence(labels, levels, seed):
    y = np.array(labels)
    y[0] = 1
    s = np.random.default_rng(seed).integers(0, levels, len(y)) + 0.0
    lift = lift_curve(y, s).lift
    assert np.all(lift <= len(y) / y.sum() + 1e-12) and np.all(lift >= 0)
    # The gain is the lift times the share flagged, and never decreases.
    gain = gain_curve(y, s)
    assert_close(gain.gain[1:], lift * gain.share_flagged[1:])
    assert np.all(np.diff(gain.gain) >= 0)


def test_gain_and_lift_without_positives():
    zeros = np.zeros(12, dtype=int)
    with pytest.warns(UndefinedMetricWarning):
        assert np.all(np.isnan(gain_curve(zeros, S).gain))
    with pytest.warns(UndefinedMetricWarning, match="lift"):
        assert np.all(np.isnan(lift_curve(zeros, S).lift))


# ---------------------------------------------------------------------------
# top-k accuracy
# ---------------------------------------------------------------------------

def _matrix(seed, n=300, k=4, strings=False, weighted=False, tenths=True):
    names = np.array(list("abcdefg"[:k])) if strings else np.arange(k) + 3
    return score_matrix_case(seed, n=n, k=k, weighted=weighted, tenths=tenths, names=names)


@pytest.mark.parametrize("case", [dict(seed=0), dict(seed=1, k=3, strings=True), dict(seed=2, weighted=True),
                                  dict(seed=3, k=6, tenths=False), dict(seed=4, k=5, strings=True, weighted=True)])
def test_top_k_accuracy_matches_sklearn(case):
    y, scores, w = _matrix(**case)
    for k in range(1, scores.shape[1]):
        for normalize in (True, False):
            options = dict(k=k, normalize=normalize, sample_weight=w)
            assert top_k_accuracy(y, scores, **options) == pytest.approx(
                skm.top_k_accuracy_score(y, scores, **options), rel=1e-15, abs=1e-15)
    labels = np.unique(y)
    assert top_k_accuracy(y, scores, labels=labels) == skm.top_k_accuracy_score(y, scores, labels=labels)


def test_ties_go_to_the_later_column():
    # Row 2: "good" ties with "rework" at 0.45; scikit-learn's reversed stable sort puts the
    # later column first, so k = 1 misses it, and k = 2 finds it.
    y = np.array(["good", "good", "rework", "scrap"])
    scores = np.array([[0.7, 0.2, 0.1], [0.45, 0.45, 0.1], [0.5, 0.4, 0.1], [0.3, 0.3, 0.4]])
    assert top_k_accuracy(y, scores, k=1) == 0.5 == skm.top_k_accuracy_score(y, scores, k=1)
    assert top_k_accuracy(y, scores, k=2) == 1.0 == skm.top_k_accuracy_score(y, scores, k=2)
    # The same tie with the columns in the other order goes the other way.
    flipped = scores[:, ::-1]
    assert top_k_accuracy(y, flipped, k=1, labels=["scrap", "rework", "good"]) == 0.75


def test_a_label_absent_from_y_true():
    y, scores, _ = _matrix(seed=5, k=4)
    present = y != 6
    labels = np.unique(y)
    assert top_k_accuracy(y[present], scores[present], k=2, labels=labels) == skm.top_k_accuracy_score(
        y[present], scores[present], k=2, labels=labels)


def test_top_k_with_k_at_least_the_classes_warns_and_is_one():
    y, scores, _ = _matrix(seed=6, k=3)
    with pytest.warns(UndefinedMetricWarning, match="at least the number of classes"):
        assert top_k_accuracy(y, scores, k=3) == 1.0


def test_top_1_is_the_accuracy_of_the_most_probable_class_without_ties():
    y, scores, w = _matrix(seed=7, k=5, tenths=False, weighted=True)
    predicted = np.unique(y)[np.argmax(scores, axis=1)]
    assert top_k_accuracy(y, scores, k=1, sample_weight=w) == pytest.approx(
        skm.accuracy_score(y, predicted, sample_weight=w), abs=1e-15)


@pytest.mark.parametrize(("options", "error", "message"), [
    (dict(k=0), ValueError, "^k must be at least 1"), (dict(k=1.0), TypeError, "^k must be an integer"),
    (dict(normalize="yes"), TypeError, "^normalize must be True or False"),
    (dict(labels=[3, 4, 5]), ValueError, "^labels has 3 entries but y_score has 4 columns"),
    (dict(labels=[3, 4, 5, 7]), ValueError, "^y_true holds labels that are not in labels"),
    (dict(sample_weight=np.zeros(300)), ValueError, "^sample_weight is zero for every row"),
    (dict(sample_weight=-np.ones(300)), ValueError, "^sample_weight must be non-negative"),
])
def test_bad_top_k_options_are_refused(options, error, message):
    y, scores, _ = _matrix(seed=8)
    with pytest.raises(error, match=message):
        top_k_accuracy(y, scores, **options)


def test_top_k_needs_a_score_matrix():
    with pytest.raises(ValueError, match=r"^y_score must be a 2-D array of shape \(n, n_classes\)"):
        top_k_accuracy(Y, S)


def test_public_names():
    assert set(budgets.__all__) == {"GainCurve", "LiftCurve", "gain_curve", "lift_curve", "precision_at_k",
                                    "recall_at_k", "top_k_accuracy"}


def test_figures_of_budgets():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting import plot_det_curve, plot_gain_and_lift, plot_gain_curve

    fig = plot_gain_and_lift({"a": (Y, S), "b": (Y, S[::-1])}, budget=0.25, max_share=0.5)
    gain_ax, lift_ax = fig.axes
    assert gain_ax.get_xlim() == (0.0, 0.5) and lift_ax.get_ylabel() == "Lift (precision / prevalence)"
    drawn = [line for line in gain_ax.get_lines() if line.get_gid() == "evalmetrics-gain-curve"]
    assert len(drawn) == 2 and drawn[0].get_color() != drawn[1].get_color()
    assert_close(drawn[0].get_ydata(), gain_curve(Y, S).gain)
    # Every curve inside its axes: the lift of the top unit, 3, is not cut off.
    for ax in (gain_ax, lift_ax):
        low, high = ax.get_ylim()
        for line in ax.get_lines():
            values = np.asarray(line.get_ydata(), dtype=float)
            assert low <= values.min() and values.max() <= high, (ax.get_ylabel(), values.max(), high)
    plt.close(fig)
    fig = plot_gain_curve(Y, S)
    plt.close(fig)
    # The DET plot: normal deviates, the points with a rate of 0 left out.
    fig = plot_det_curve(Y, S, binormal=(1.0, 1.0))
    (line,) = [line for line in fig.axes[0].get_lines() if line.get_gid() == "evalmetrics-det-curve"]
    from evalmetrics import det_curve, normal_quantile

    curve = det_curve(Y, S)
    inside = (curve.false_positive_rate > 0) & (curve.false_negative_rate > 0)
    assert_close(line.get_xdata(), [normal_quantile(p) for p in curve.false_positive_rate[inside]])
    plt.close(fig)
