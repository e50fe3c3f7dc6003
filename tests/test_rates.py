"""Tests of evalmetrics.rates: the handbook's numbers, scikit-learn, properties, bad input.

"Handbook" below means the Evaluation Metrics Handbook (this book), section
"Worked example" (twelve units at threshold 0.5; three classes), section
"Imbalance and chance-corrected measures" (Bayes' rule), section "F1 and
F-beta" (the harmonic-mean pull) and "Pitfalls" (the positive-class swap).
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.counts import BinaryCounts, one_vs_rest
from evalmetrics.rates import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    f1,
    f_beta,
    false_positive_rate,
    matthews_correlation,
    negative_predictive_value,
    precision,
    precision_at_prevalence,
    recall,
    specificity,
)
from evalmetrics.worked_example import graded_parts, twelve_units

EXACT = 1e-15


def exactly(fraction):
    return pytest.approx(float(fraction), abs=EXACT)


@pytest.fixture
def at_half():
    units = twelve_units()
    return units.y_true, (units.y_score >= 0.5).astype(int)


# Handbook, "The confusion matrix at threshold 0.5": TP 3, FP 3, FN 1, TN 5.
HALF = BinaryCounts(tp=3, fp=3, fn=1, tn=5)

# (function, keyword arguments, printed value, exact fraction), all from the
# handbook's bullet list for the twelve units at threshold 0.5.
TWELVE_UNITS = [
    (accuracy, {}, 0.6667, Fraction(8, 12)),
    (precision, {}, 0.5, Fraction(3, 6)),
    (recall, {}, 0.75, Fraction(3, 4)),
    (specificity, {}, 0.625, Fraction(5, 8)),
    (false_positive_rate, {}, 0.375, Fraction(3, 8)),
    (negative_predictive_value, {}, 0.8333, Fraction(5, 6)),
    (f1, {}, 0.6, Fraction(6, 10)),
    (f_beta, {"beta": 2}, 0.6818, Fraction(15, 22)),
    (f_beta, {"beta": 0.5}, 0.5357, Fraction(375, 700)),  # 3.75 / 7
    (balanced_accuracy, {}, 0.6875, Fraction(11, 16)),  # (0.75 + 0.625) / 2
    (cohen_kappa, {}, 0.3333, Fraction(1, 3)),  # 0.1667 / 0.5
]


@pytest.mark.parametrize("func, kwargs, printed, fraction", TWELVE_UNITS)
def test_twelve_units_from_labels(at_half, func, kwargs, printed, fraction):
    value = func(*at_half, **kwargs)
    assert round(value, 4) == printed
    assert value == exactly(fraction)


@pytest.mark.parametrize("func, kwargs, printed, fraction", TWELVE_UNITS)
def test_twelve_units_from_counts(func, kwargs, printed, fraction):
    for counts in (HALF, HALF.as_matrix()):
        value = func(counts=counts, **kwargs)
        assert round(value, 4) == printed
        assert value == exactly(fraction)


def test_twelve_units_mcc(at_half):
    # Handbook: MCC = (3*5 - 3*1) / sqrt(6*4*8*6) = 12 / 33.9411 = 0.3536.
    assert round(math.sqrt(6 * 4 * 8 * 6), 4) == 33.9411
    for value in (matthews_correlation(*at_half), matthews_correlation(counts=HALF),
                  matthews_correlation(counts=HALF.as_matrix())):
        assert round(value, 4) == 0.3536
        assert value == pytest.approx(12 / math.sqrt(6 * 4 * 8 * 6), abs=EXACT)


def test_twelve_units_kappa_parts():
    # Handbook: observed agreement 0.6667, chance agreement (4/12)(6/12) + (8/12)(6/12) = 0.5.
    chance = Fraction(4, 12) * Fraction(6, 12) + Fraction(8, 12) * Fraction(6, 12)
    assert chance == Fraction(1, 2)
    assert cohen_kappa(counts=HALF) == exactly((Fraction(8, 12) - chance) / (1 - chance))


def test_f2_and_f_half_bracket_f1(at_half):
    # Handbook: recall (0.75) beats precision (0.5), so F2 > F1 > F0.5.
    assert f_beta(*at_half, beta=2) > f1(*at_half) > f_beta(*at_half, beta=0.5)


def test_three_classes():
    # Handbook, "Three classes": accuracy 57/70, kappa 0.5604, MCC 1160/2065.33 = 0.5617,
    # quadratically weighted kappa 0.6145; macro recall = balanced accuracy 0.6400.
    parts = graded_parts()
    for args, counts in (((parts.y_true, parts.y_pred), {}), ((), {"counts": parts.matrix})):
        assert accuracy(*args, **counts) == exactly(Fraction(57, 70))
        assert round(accuracy(*args, **counts), 4) == 0.8143
        kappa = cohen_kappa(*args, **counts)
        assert round(kappa, 4) == 0.5604
        expected_agreement = Fraction(2830, 4900)  # (2600 + 210 + 20) / 70^2
        assert round(float(expected_agreement), 4) == 0.5776
        assert kappa == exactly((Fraction(57, 70) - expected_agreement) / (1 - expected_agreement))
        mcc = matthews_correlation(*args, **counts)
        assert round(math.sqrt((4900 - 2916) * (4900 - 2750)), 2) == 2065.33
        assert round(mcc, 4) == 0.5617
        assert mcc == pytest.approx(1160 / math.sqrt((4900 - 2916) * (4900 - 2750)), abs=EXACT)
        assert round(cohen_kappa(*args, **counts, weights="quadratic"), 4) == 0.6145
        assert balanced_accuracy(*args, **counts) == exactly(Fraction(16, 25))  # (0.92 + 0.6 + 0.4) / 3


def test_grader_that_calls_every_part_good():
    # Handbook: accuracy 50/70 = 0.7143, MCC and kappa exactly 0.
    parts = graded_parts()
    everything_good = np.full(70, "good")
    assert accuracy(parts.y_true, everything_good) == exactly(Fraction(50, 70))
    assert round(accuracy(parts.y_true, everything_good), 4) == 0.7143
    assert matthews_correlation(parts.y_true, everything_good) == 0.0
    assert cohen_kappa(parts.y_true, everything_good) == 0.0


def test_positive_class_swap(at_half):
    # Handbook, "Pitfalls": calling the working units positive turns precision, recall
    # and F1 into 0.8333, 0.625 and 0.7143, while accuracy, MCC and kappa do not move.
    y_true, y_pred = at_half
    assert round(precision(y_true, y_pred, pos_label=0), 4) == 0.8333
    assert recall(y_true, y_pred, pos_label=0) == exactly(Fraction(5, 8))
    assert f1(y_true, y_pred, pos_label=0) == exactly(Fraction(10, 14))
    assert round(f1(y_true, y_pred, pos_label=0), 4) == 0.7143
    swapped_true, swapped_pred = 1 - y_true, 1 - y_pred
    assert accuracy(swapped_true, swapped_pred) == accuracy(y_true, y_pred)
    assert matthews_correlation(swapped_true, swapped_pred) == pytest.approx(12 / math.sqrt(6 * 4 * 8 * 6), abs=EXACT)
    assert cohen_kappa(swapped_true, swapped_pred) == pytest.approx(cohen_kappa(y_true, y_pred), abs=EXACT)


def test_precision_by_bayes_rule():
    # Handbook: TPR 0.8413 and FPR 0.1587 (the binormal model flagging scores of at
    # least 1: Phi(1) and 1 - Phi(1)) give precision 0.8413, 0.3708, 0.0508 at
    # prevalence 0.5, 0.1, 0.01.  The exact Phi(1) is needed for the fourth decimal.
    phi_1 = 0.5 * (1.0 + math.erf(1.0 / math.sqrt(2.0)))
    assert round(phi_1, 4) == 0.8413 and round(1 - phi_1, 4) == 0.1587
    values = precision_at_prevalence(phi_1, 1.0 - phi_1, np.array([0.5, 0.1, 0.01]))
    assert [round(v, 4) for v in values] == [0.8413, 0.3708, 0.0508]
    # The same from expected counts with the precision function itself.
    pi, n = 0.01, 1.0
    counts = BinaryCounts(tp=phi_1 * pi * n, fp=(1 - phi_1) * (1 - pi) * n,
                          fn=(1 - phi_1) * pi * n, tn=phi_1 * (1 - pi) * n)
    assert precision(counts=counts) == pytest.approx(values[2], abs=1e-15)


def test_harmonic_mean_pull():
    # Handbook, "F1 and F-beta": precision 1 and recall 0.01 give an arithmetic mean
    # of 0.505 but an F1 of 0.0198 (= 2 / 101).
    counts = BinaryCounts(tp=1, fp=0, fn=99, tn=900)
    assert precision(counts=counts) == 1.0 and recall(counts=counts) == 0.01
    assert (precision(counts=counts) + recall(counts=counts)) / 2 == pytest.approx(0.505, abs=EXACT)
    assert round(f1(counts=counts), 4) == 0.0198
    assert f1(counts=counts) == exactly(Fraction(2, 101))


def test_counts_of_arrays_give_arrays():
    # one_vs_rest of the graded parts: precisions 46/52, 9/14, 2/4 (handbook, three classes).
    per_class = precision(counts=one_vs_rest(graded_parts().matrix))
    np.testing.assert_allclose(per_class, [46 / 52, 9 / 14, 2 / 4], rtol=0, atol=EXACT)


def test_zero_division_rules():
    nothing_flagged = BinaryCounts(tp=0, fp=0, fn=2, tn=3)
    with pytest.warns(UndefinedMetricWarning, match="precision"):
        assert precision(counts=nothing_flagged) == 0.0
    assert precision(counts=nothing_flagged, zero_division=1) == 1.0
    assert np.isnan(precision(counts=nothing_flagged, zero_division=np.nan))
    # F is defined (0) whenever something is positive or flagged, as in scikit-learn.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f1(counts=nothing_flagged, zero_division=1) == 0.0
    # A constant prediction: the MCC is defined as 0, without a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert matthews_correlation(np.array([0, 1, 1]), np.array([1, 1, 1])) == 0.0
    # Kappa with one class only: zero_division (scikit-learn returns NaN here).
    assert np.isnan(cohen_kappa(np.ones(4, int), np.ones(4, int), zero_division=np.nan))


# ---------------------------------------------------------------------------
# against scikit-learn
# ---------------------------------------------------------------------------

def random_labels(rng, n_classes, n=300, agreement=0.6):
    """True labels and predictions that agree on about ``agreement`` of the rows."""
    y_true = rng.integers(0, n_classes, n)
    noise = rng.integers(0, n_classes, n)
    y_pred = np.where(rng.random(n) < agreement, y_true, noise)
    return y_true, y_pred


def max_difference(a, b):
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_classes", [2, 3, 5, 10])
@pytest.mark.parametrize("weighted", [False, True])
def test_multiclass_metrics_match_sklearn(seed, n_classes, weighted):
    rng = np.random.default_rng(1000 * seed + n_classes)
    y_true, y_pred = random_labels(rng, n_classes)
    weights = rng.random(len(y_true)) * 3 if weighted else None
    pairs = [
        (accuracy(y_true, y_pred, sample_weight=weights),
         skm.accuracy_score(y_true, y_pred, sample_weight=weights)),
        (balanced_accuracy(y_true, y_pred, sample_weight=weights),
         skm.balanced_accuracy_score(y_true, y_pred, sample_weight=weights)),
        (balanced_accuracy(y_true, y_pred, adjusted=True, sample_weight=weights),
         skm.balanced_accuracy_score(y_true, y_pred, adjusted=True, sample_weight=weights)),
        (matthews_correlation(y_true, y_pred, sample_weight=weights),
         skm.matthews_corrcoef(y_true, y_pred, sample_weight=weights)),
    ]
    for scheme in (None, "linear", "quadratic"):
        pairs.append((cohen_kappa(y_true, y_pred, weights=scheme, sample_weight=weights),
                      skm.cohen_kappa_score(y_true, y_pred, weights=scheme, sample_weight=weights)))
    for ours, theirs in pairs:
        assert max_difference(ours, theirs) <= 1e-12


@pytest.mark.parametrize("seed", range(5))
def test_string_labels_and_label_order_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    names = np.array(["low", "mid", "high", "top"])
    y_true, y_pred = (names[v] for v in random_labels(rng, 4))
    order = ["top", "low", "mid"]  # a subset, in a non-sorted order
    for scheme in (None, "linear", "quadratic"):
        ours = cohen_kappa(y_true, y_pred, labels=order, weights=scheme)
        theirs = skm.cohen_kappa_score(y_true, y_pred, labels=order, weights=scheme)
        assert max_difference(ours, theirs) <= 1e-12
    assert max_difference(matthews_correlation(y_true, y_pred), skm.matthews_corrcoef(y_true, y_pred)) <= 1e-12
    assert max_difference(accuracy(y_true, y_pred), skm.accuracy_score(y_true, y_pred)) <= 1e-12


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_rates_match_sklearn(seed, weighted):
    rng = np.random.default_rng(seed)
    # String labels with a chosen positive class; heavy imbalance in some seeds.
    agreement = 0.3 + 0.1 * seed
    codes_true, codes_pred = random_labels(rng, 2, n=200, agreement=agreement)
    names = np.array(["ok", "faulty"])
    y_true, y_pred = names[codes_true], names[codes_pred]
    w = rng.random(len(y_true)) if weighted else None
    kw = dict(sample_weight=w, zero_division=0)
    for pos, neg in (("faulty", "ok"), ("ok", "faulty")):
        pairs = [
            (precision(y_true, y_pred, pos_label=pos, **kw),
             skm.precision_score(y_true, y_pred, pos_label=pos, **kw)),
            (recall(y_true, y_pred, pos_label=pos, **kw),
             skm.recall_score(y_true, y_pred, pos_label=pos, **kw)),
            (specificity(y_true, y_pred, pos_label=pos, **kw),
             skm.recall_score(y_true, y_pred, pos_label=neg, **kw)),
            (false_positive_rate(y_true, y_pred, pos_label=pos, **kw),
             1.0 - skm.recall_score(y_true, y_pred, pos_label=neg, **kw)),
            (negative_predictive_value(y_true, y_pred, pos_label=pos, **kw),
             skm.precision_score(y_true, y_pred, pos_label=neg, **kw)),
            (f1(y_true, y_pred, pos_label=pos, **kw),
             skm.f1_score(y_true, y_pred, pos_label=pos, **kw)),
        ]
        for beta in (0.5, 2.0, 3.0):
            pairs.append((f_beta(y_true, y_pred, beta=beta, pos_label=pos, **kw),
                          skm.fbeta_score(y_true, y_pred, beta=beta, pos_label=pos, **kw)))
        for ours, theirs in pairs:
            assert max_difference(ours, theirs) <= 1e-12


@pytest.mark.parametrize("zero_division", [0, 1, np.nan])
def test_binary_zero_division_matches_sklearn(zero_division):
    y_true = np.array([1, 1, 0, 0])
    y_pred = np.zeros(4, dtype=int)  # nothing flagged: precision undefined
    for ours, theirs in (
        (precision(y_true, y_pred, zero_division=zero_division),
         skm.precision_score(y_true, y_pred, zero_division=zero_division)),
        (f1(y_true, y_pred, zero_division=zero_division),
         skm.f1_score(y_true, y_pred, zero_division=zero_division)),
        (f1(np.zeros(4, int), y_pred, zero_division=zero_division),
         skm.f1_score(np.zeros(4, int), y_pred, zero_division=zero_division)),
    ):
        np.testing.assert_equal(ours, theirs)


def test_kappa_undefined_matches_sklearn_nan():
    y = np.array(["a", "a", "a"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = skm.cohen_kappa_score(y, y)
    assert np.isnan(theirs) and np.isnan(cohen_kappa(y, y, zero_division=np.nan))


def test_balanced_accuracy_ignores_classes_absent_from_truth():
    # scikit-learn drops the recall of a class that only occurs in y_pred.
    y_true, y_pred = np.array([0, 0, 1, 1]), np.array([0, 2, 1, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = skm.balanced_accuracy_score(y_true, y_pred)
    assert balanced_accuracy(y_true, y_pred) == pytest.approx(theirs, abs=1e-15)


def test_fast_and_general_paths_agree():
    # Small non-negative integers take a bincount shortcut; shifted labels do not.
    rng = np.random.default_rng(7)
    y_true, y_pred = random_labels(rng, 6, n=500)
    w = rng.random(500)
    w[y_true == 3] = 0.0  # a class whose rows all weigh 0 still counts as a class
    for scheme in (None, "quadratic"):
        a = cohen_kappa(y_true, y_pred, weights=scheme, sample_weight=w)
        b = cohen_kappa(y_true - 3, y_pred - 3, weights=scheme, sample_weight=w)
        c = cohen_kappa(y_true.astype(str), y_pred.astype(str), weights=scheme, sample_weight=w)
        assert a == pytest.approx(b, abs=1e-15) and a == pytest.approx(c, abs=1e-15)
    assert matthews_correlation(y_true.astype(bool), y_pred.astype(bool)) == pytest.approx(
        skm.matthews_corrcoef(y_true.astype(bool), y_pred.astype(bool)), abs=1e-15)


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

label_pairs = st.integers(2, 60).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                        st.lists(st.integers(0, 1), min_size=n, max_size=n)))


@settings(max_examples=100, deadline=None)
@given(label_pairs)
def test_mcc_unchanged_by_swapping_classes(pair):
    y_true, y_pred = (np.array(v) for v in pair)
    assert matthews_correlation(1 - y_true, 1 - y_pred) == pytest.approx(
        matthews_correlation(y_true, y_pred), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(label_pairs)
def test_accuracy_is_prevalence_weighted_rates(pair):
    # accuracy = pi * TPR + (1 - pi) * TNR whenever both classes occur.
    y_true, y_pred = (np.array(v) for v in pair)
    if 0 < y_true.sum() < len(y_true):
        pi = y_true.mean()
        expected = pi * recall(y_true, y_pred) + (1 - pi) * specificity(y_true, y_pred)
        assert accuracy(y_true, y_pred) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.01, 1), st.floats(0.01, 1), st.floats(0.001, 0.999))
def test_precision_at_prevalence_matches_expected_counts(tpr, fpr, prevalence):
    counts = BinaryCounts(tp=tpr * prevalence, fp=fpr * (1 - prevalence),
                          fn=(1 - tpr) * prevalence, tn=(1 - fpr) * (1 - prevalence))
    assert precision_at_prevalence(tpr, fpr, prevalence) == pytest.approx(precision(counts=counts), abs=1e-12)


# ---------------------------------------------------------------------------
# bad input: one test per case
# ---------------------------------------------------------------------------

def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        precision([0, 1, 1], [0, 1])


def test_empty_input():
    with pytest.raises(ValueError, match="y_true is empty"):
        matthews_correlation([], [])


def test_two_dimensional_labels():
    with pytest.raises(ValueError, match="y_true must be a 1-D array"):
        accuracy(np.zeros((3, 2)), np.zeros(3))


def test_non_binary_without_pos_label():
    with pytest.raises(ValueError, match="not binary.*pos_label"):
        recall([0, 1, 2], [0, 1, 1])


def test_other_binary_labels_without_pos_label():
    with pytest.raises(ValueError, match="pass pos_label"):
        precision(["a", "b"], ["a", "a"])


def test_pos_label_absent():
    with pytest.raises(ValueError, match="pos_label='z' does not occur"):
        f1(["a", "b"], ["a", "b"], pos_label="z")


def test_bad_zero_division():
    with pytest.raises(ValueError, match="zero_division"):
        precision(counts=HALF, zero_division=0.5)


def test_bad_kappa_weights():
    with pytest.raises(ValueError, match="weights must be"):
        cohen_kappa(counts=HALF, weights="cubic")


def test_negative_sample_weight():
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        matthews_correlation([0, 1], [0, 1], sample_weight=[1.0, -1.0])


def test_non_square_matrix():
    with pytest.raises(ValueError, match="square K x K"):
        cohen_kappa(counts=np.ones((2, 3)))


def test_multiclass_matrix_for_binary_rate():
    with pytest.raises(ValueError, match="needs two classes"):
        precision(counts=graded_parts().matrix)


def test_missing_y_pred():
    with pytest.raises(TypeError, match="y_pred is required"):
        accuracy([0, 1, 1])


def test_options_with_counts():
    with pytest.raises(TypeError, match="pos_label applies to label arrays"):
        precision(counts=HALF, pos_label=1)


def test_counts_next_to_labels():
    with pytest.raises(TypeError, match="either label arrays or counts"):
        recall([0, 1], [0, 1], counts=HALF)


def test_counts_in_place_of_labels():
    with pytest.raises(TypeError, match="y_true must hold labels, got a BinaryCounts"):
        recall(HALF, [0, 1])


def test_negative_counts():
    with pytest.raises(ValueError, match="non-negative"):
        recall(counts=BinaryCounts(tp=-1, fp=0, fn=1, tn=1))


def test_missing_beta():
    with pytest.raises(TypeError, match="beta"):
        f_beta(counts=HALF)  # keyword-only and required, as in scikit-learn


def test_negative_beta():
    with pytest.raises(ValueError, match="beta must be"):
        f_beta(counts=HALF, beta=-1)


def test_prevalence_out_of_range():
    with pytest.raises(ValueError, match="prevalence must lie in"):
        precision_at_prevalence(0.8, 0.1, 1.5)
