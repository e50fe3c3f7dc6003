"""Tests of evalmetrics.rates.likelihood_ratios: the handbook's numbers, scikit-learn, Bayes' rule.

scikit-learn's ``class_likelihood_ratios`` is the reference, its undefined
cases included (no false positive, no true negative, no positive, no
negative), on tied random data with weights and string labels.  "Handbook"
is the chapter "Imbalance and chance-corrected measures".
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import class_likelihood_ratios

from evalmetrics import LikelihoodRatios, binary_counts, likelihood_ratios, precision, recall, specificity
from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.worked_example import twelve_units
from helpers import assert_close


def theirs(y_true, y_pred, *, negative=0, positive=1, **options):
    """scikit-learn's ratios; its own 0/0 RuntimeWarning (no positives) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return class_likelihood_ratios(y_true, y_pred, labels=[negative, positive], **options)


def quietly(*args, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return likelihood_ratios(*args, **options)


def test_twelve_units_at_one_half():
    # Handbook: TPR 3/4, FPR 3/8, so LR+ = 2 and LR- = (1/4) / (5/8) = 2/5.
    units = twelve_units()
    result = likelihood_ratios(units.y_true, units.y_score >= 0.5)
    assert isinstance(result, LikelihoodRatios)
    assert result == (2.0, 0.4)
    assert result.positive == pytest.approx(float(Fraction(3, 4) / Fraction(3, 8)), abs=1e-15)
    assert result.negative == pytest.approx(float(Fraction(1, 4) / Fraction(5, 8)), abs=1e-15)
    assert result == tuple(theirs(units.y_true, units.y_score >= 0.5))


@pytest.mark.parametrize("threshold", [0.80, 0.65, 0.5, 0.40, 0.25])
def test_twelve_units_at_every_threshold_are_the_rates_ratios(threshold):
    units = twelve_units()
    flagged = units.y_score >= threshold
    counts = binary_counts(units.y_true, flagged)
    tpr = Fraction(int(counts.tp), int(counts.positives))
    fpr = Fraction(int(counts.fp), int(counts.negatives))
    result = likelihood_ratios(units.y_true, flagged)
    assert result.positive == pytest.approx(float(tpr / fpr), abs=1e-15)
    assert result.negative == pytest.approx(float((1 - tpr) / (1 - fpr)), abs=1e-15)


def tied_data(rng, n, labels=(0, 1)):
    positive = rng.random(n) < rng.uniform(0.1, 0.6)
    score = np.round(rng.normal(size=n) + positive, 1)  # heavy ties: about 40 distinct scores
    flagged = score >= rng.choice(score)
    negative_label, positive_label = labels
    return np.where(positive, positive_label, negative_label), np.where(flagged, positive_label, negative_label)


@pytest.mark.parametrize("labels, pos_label", [((0, 1), None), ((-1, 1), None), (("ok", "faulty"), "faulty")])
@pytest.mark.parametrize("weighted", [False, True])
def test_agrees_with_scikit_learn_on_tied_random_data(labels, pos_label, weighted):
    rng = np.random.default_rng([7, len(str(labels)), weighted])
    for n in (5, 17, 60, 400):
        for _ in range(8):
            y_true, y_pred = tied_data(rng, n, labels)
            weights = np.round(rng.uniform(0, 3, n), 1) if weighted else None
            for replace in (np.nan, 1.0, {"LR+": np.inf, "LR-": 0.0}):
                ours = quietly(y_true, y_pred, pos_label=pos_label, sample_weight=weights,
                               replace_undefined_by=replace)
                expected = theirs(y_true, y_pred, negative=labels[0], positive=labels[1], sample_weight=weights,
                                  replace_undefined_by=replace)
                assert_close(ours, expected, relative=True)


# Every undefined case: (y_true, y_pred) and which ratios are undefined.
UNDEFINED = {
    "no false positive": ([1, 1, 0, 0], [1, 0, 0, 0], (True, False)),
    "no false positive nor true positive": ([1, 1, 0, 0], [0, 0, 0, 0], (True, False)),
    "no true negative": ([1, 1, 0, 0], [1, 0, 1, 1], (False, True)),
    "no true negative nor false negative": ([1, 1, 0, 0], [1, 1, 1, 1], (False, True)),
    "no negative": ([1, 1, 1, 1], [1, 0, 1, 0], (True, True)),
    "no positive, something flagged": ([0, 0, 0, 0], [1, 0, 0, 0], (True, True)),
    "no positive, nothing flagged": ([0, 0, 0, 0], [0, 0, 0, 0], (True, True)),
    "no positive, everything flagged": ([0, 0, 0, 0], [1, 1, 1, 1], (True, True)),
}


@pytest.mark.parametrize("replace", [np.nan, 1.0, {"LR+": np.inf, "LR-": 0.0}, {"LR+": 7.5, "LR-": np.nan}],
                         ids=["nan", "one", "best", "mixed"])
@pytest.mark.parametrize("case", UNDEFINED, ids=str)
def test_undefined_cases_warn_and_equal_scikit_learn(case, replace):
    y_true, y_pred, undefined = UNDEFINED[case]
    with pytest.warns(UndefinedMetricWarning, match="likelihood ratio is undefined"):
        ours = likelihood_ratios(y_true, y_pred, replace_undefined_by=replace)
    assert_close(ours, theirs(y_true, y_pred, replace_undefined_by=replace))
    for value, is_undefined in zip(ours, undefined):
        if not is_undefined:
            assert math.isfinite(value)


def test_without_positives_the_ratios_are_nan_unless_their_own_denominator_is_zero():
    # No positive: TPR is undefined, so both are; scikit-learn 1.9 still gives the replacement
    # to a ratio whose denominator rate is zero as well (here LR+, no false positive).
    best = {"LR+": np.inf, "LR-": 0.0}
    ours = quietly([0, 0, 0, 0], [0, 0, 0, 1], replace_undefined_by=best)
    assert math.isnan(ours.positive) and math.isnan(ours.negative)
    ours = quietly([0, 0, 0, 0], [0, 0, 0, 0], replace_undefined_by=best)
    assert ours.positive == math.inf and math.isnan(ours.negative)


def test_defined_ratios_are_quiet():
    units = twelve_units()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        likelihood_ratios(units.y_true, units.y_score >= 0.5)


label_pairs = st.integers(2, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n), st.lists(st.integers(0, 1), min_size=n, max_size=n),
    st.lists(st.integers(1, 4), min_size=n, max_size=n)))


@settings(max_examples=100, deadline=None)
@given(label_pairs)
def test_posterior_odds_are_the_likelihood_ratio_times_the_prior_odds(pair):
    # Bayes' rule in odds form, on the data's own prevalence: the odds that a flagged
    # example is positive (precision / (1 - precision)) are LR+ times P / N; for an
    # example left alone, FN / TN is LR- times P / N.
    y_true, y_pred, weights = (np.array(v) for v in pair)
    counts = binary_counts(y_true, y_pred, sample_weight=weights)
    if min(counts.tp, counts.fp, counts.fn, counts.tn) == 0:
        return
    ratios = likelihood_ratios(y_true, y_pred, sample_weight=weights)
    prior_odds = counts.positives / counts.negatives
    flagged_precision = precision(y_true, y_pred, sample_weight=weights)
    assert ratios.positive * prior_odds == pytest.approx(flagged_precision / (1 - flagged_precision), rel=1e-12)
    assert ratios.negative * prior_odds == pytest.approx(counts.fn / counts.tn, rel=1e-12)
    sensitivity = recall(y_true, y_pred, sample_weight=weights)
    specific = specificity(y_true, y_pred, sample_weight=weights)
    assert ratios == pytest.approx((sensitivity / (1 - specific), (1 - sensitivity) / specific), rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(label_pairs, st.floats(0.001, 1000.0), st.floats(0.001, 1000.0))
def test_reweighting_the_classes_leaves_the_ratios_unchanged(pair, positive_weight, negative_weight):
    # Another prevalence with the same rates: weighting every positive by a and every
    # negative by b changes precision, not the likelihood ratios.
    y_true, y_pred, _ = (np.array(v) for v in pair)
    weights = np.where(y_true == 1, positive_weight, negative_weight)
    assert_close(quietly(y_true, y_pred, sample_weight=weights), quietly(y_true, y_pred), relative=True)


@pytest.mark.parametrize("bad, error, match", [
    (0.0, ValueError, "replace_undefined_by must be np.nan, 1.0 or a dict"),
    ("nan", ValueError, "replace_undefined_by must be np.nan, 1.0 or a dict"),
    (True, ValueError, "replace_undefined_by must be np.nan, 1.0 or a dict"),
    ({"LR+": 1.0}, ValueError, r'keys "LR\+" and "LR-"'),
    ({"LR+": 1.0, "LR-": 0.5, "other": 2}, ValueError, r'keys "LR\+" and "LR-"'),
    ({"LR+": 0.5, "LR-": 0.5}, ValueError, r'replace_undefined_by\["LR\+"\] must lie in \[1, inf\]'),
    ({"LR+": 1.0, "LR-": 1.5}, ValueError, r'replace_undefined_by\["LR-"\] must lie in \[0, 1\]'),
    ({"LR+": "inf", "LR-": 0.0}, TypeError, r'replace_undefined_by\["LR\+"\] must be a real number'),
    ({"LR+": 1.0, "LR-": False}, TypeError, r'replace_undefined_by\["LR-"\] must be a real number'),
])
def test_bad_replacements_are_refused(bad, error, match):
    units = twelve_units()
    with pytest.raises(error, match=match):
        likelihood_ratios(units.y_true, units.y_score >= 0.5, replace_undefined_by=bad)


def test_three_classes_are_refused_naming_the_labels():
    with pytest.raises(ValueError, match="y_true"):
        likelihood_ratios([0, 1, 2, 1], [0, 1, 1, 1])


def test_missing_pos_label_is_refused():
    with pytest.raises(ValueError, match="pos_label"):
        likelihood_ratios(["a", "b", "a"], ["a", "a", "b"])
