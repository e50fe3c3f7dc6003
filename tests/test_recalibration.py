"""Tests of evalmetrics.recalibration: temperature scaling.

(Platt scaling and isotonic regression are tested with the measures of
calibration in tests/test_calibration.py.)  Expected values come from the
twelve units of the handbook's worked example, from scikit-learn's
``CalibratedClassifierCV(method="temperature")`` or from the definition.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalmetrics import TemperatureScaling, log_loss, roc_auc
from evalmetrics.handbook.comparisons import identity_classifier
from evalmetrics.worked_example import twelve_units


def softmax(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def mean_log_loss(z, codes, temperature, w=None):
    """The loss temperature scaling minimises, written out: -log softmax(z / T)[observed class]."""
    p = softmax(z / temperature)
    return float(np.average(-np.log(p[np.arange(len(codes)), codes]), weights=w))


def sklearn_temperature(scores, y, sample_weight=None):
    """scikit-learn's calibrator of given scores: a frozen identity model, one map on all rows."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.frozen import FrozenEstimator

    model = CalibratedClassifierCV(FrozenEstimator(identity_classifier(scores, y)), method="temperature", cv=2)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Since FrozenEstimator", category=UserWarning)
        return model.fit(scores.reshape(len(scores), -1), y, sample_weight=sample_weight)


def sklearn_inverse_temperature(model):
    return float(model.calibrated_classifiers_[0].calibrators[0].beta_)


@pytest.fixture
def units():
    return twelve_units()


@pytest.fixture
def log_odds(units):
    return np.log(units.y_score / (1 - units.y_score))


def three_classes(seed, n=300, decimals=1, scale=1.0):
    """Logits of three classes with ties (rounded), the observed class favoured; labels 0, 1, 2."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, n)
    logits = np.round(scale * (rng.normal(size=(n, 3)) + 1.3 * np.eye(3)[codes]), decimals)
    return logits, codes


# ---------------------------------------------------------------------------
# the twelve units
# ---------------------------------------------------------------------------

def test_temperature_of_the_twelve_units(units, log_odds):
    scaling = TemperatureScaling().fit(log_odds, units.y_true)
    # The units' scores are overconfident (their log loss 0.5733 falls to 0.5681): T > 1.
    assert round(scaling.temperature, 4) == 1.2461
    calibrated = scaling.predict_proba(log_odds)
    assert round(log_loss(units.y_true, units.y_score), 4) == 0.5733
    assert round(log_loss(units.y_true, calibrated), 4) == 0.5681
    # The minimum: the log loss rises on both sides of T.
    for factor in (0.999, 1.001):
        other = TemperatureScaling(temperature=scaling.temperature * factor).predict_proba(log_odds)
        assert log_loss(units.y_true, other) > log_loss(units.y_true, calibrated)


def test_the_fit_is_a_root_of_the_derivative(units, log_odds):
    # d/d(1/T) of the mean log loss of sigmoid(s / T) is mean((p - y) s): zero at the fit, to rounding.
    scaling = TemperatureScaling().fit(log_odds, units.y_true)
    p = scaling.predict_proba(log_odds)
    assert abs(np.mean((p - units.y_true) * log_odds)) < 1e-15


def test_one_column_is_the_two_column_softmax(units, log_odds):
    one = TemperatureScaling().fit(log_odds, units.y_true)
    two = TemperatureScaling().fit(np.column_stack([np.zeros(12), log_odds]), units.y_true)
    centred = TemperatureScaling().fit(np.column_stack([-log_odds / 2, log_odds / 2]), units.y_true)
    assert abs(one.temperature - two.temperature) < 1e-12 and abs(one.temperature - centred.temperature) < 1e-12
    two_columns = two.predict_proba(np.column_stack([np.zeros(12), log_odds]))[:, 1]
    assert np.max(np.abs(one.predict_proba(log_odds) - two_columns)) < 1e-15


def test_recalibration_keeps_the_predicted_class_and_the_binary_ranking(units, log_odds):
    logits, codes = three_classes(0)
    scaling = TemperatureScaling().fit(logits, codes)
    p, q = softmax(logits), scaling.predict_proba(logits)
    assert np.array_equal(np.argmax(p, axis=1), np.argmax(q, axis=1))
    # With three classes a column's order of the rows is not kept: a class's probability depends on
    # the gaps to both other logits, which the temperature reweights.
    assert any(roc_auc(codes == k, q[:, k]) != roc_auc(codes == k, p[:, k]) for k in range(3))
    # With two classes the map is increasing: the ranking, hence the AUC, is kept.
    binary = TemperatureScaling().fit(log_odds, units.y_true)
    assert roc_auc(units.y_true, binary.predict_proba(log_odds)) == roc_auc(units.y_true, units.y_score)


# ---------------------------------------------------------------------------
# scikit-learn
# ---------------------------------------------------------------------------

# scikit-learn fits log(1 / T) by Brent's method, which stops when it is known to about
# 1.5e-8 of itself; evalmetrics iterates Newton's method to the last bits.
TEMPERATURE_TOL = 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_binary_matches_sklearn_with_twice_the_temperature(seed):
    rng = np.random.default_rng(seed)
    positive = rng.random(300) < 0.35
    scores = np.round(rng.normal(size=300) + 1.4 * positive - 0.5, 1)  # ties
    labels = np.where(positive, "faulty", "ok")
    weights = np.round(rng.uniform(0, 3, 300), 1)  # zeros included
    for w in (None, weights):
        ours = TemperatureScaling().fit(scores, labels, pos_label="faulty", sample_weight=w)
        theirs = sklearn_temperature(scores, positive.astype(int), w)
        grid = np.linspace(-5, 5, 101)
        assert np.max(np.abs(ours.predict_proba(grid) - theirs.predict_proba(grid[:, None])[:, 1])) < TEMPERATURE_TOL
        # scikit-learn turns a decision value d into the logits (-d, d): its T is twice ours.
        assert abs(ours.temperature * 2 * sklearn_inverse_temperature(theirs) - 1) < TEMPERATURE_TOL


@pytest.mark.parametrize("n_classes", [3, 5])
@pytest.mark.parametrize("seed", range(3))
def test_several_classes_match_sklearn(n_classes, seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_classes, 400)
    names = np.array(["ant", "bee", "cat", "dog", "eel"])[:n_classes]
    logits = np.round(rng.normal(size=(400, n_classes)) + 1.1 * np.eye(n_classes)[codes], 1)
    weights = rng.integers(0, 4, 400).astype(float)
    for y in (codes, names[codes]):
        for w in (None, weights):
            ours = TemperatureScaling().fit(logits, y, sample_weight=w)
            theirs = sklearn_temperature(logits, y, w)
            assert np.max(np.abs(ours.predict_proba(logits) - theirs.predict_proba(logits))) < TEMPERATURE_TOL
            assert abs(ours.temperature * sklearn_inverse_temperature(theirs) - 1) < TEMPERATURE_TOL


@pytest.mark.parametrize("seed", range(3))
def test_ours_is_at_least_as_close_to_the_minimum_as_sklearn(seed):
    logits, codes = three_classes(seed, scale=3.0)
    ours = TemperatureScaling().fit(logits, codes)
    theirs_t = 1 / sklearn_inverse_temperature(sklearn_temperature(logits, codes))
    assert mean_log_loss(logits, codes, ours.temperature) <= mean_log_loss(logits, codes, theirs_t)
    # Our derivative in 1/T, E_p[z] - z_observed averaged, is zero to rounding.
    p = ours.predict_proba(logits)
    slope = np.mean(np.sum(p * logits, axis=1) - logits[np.arange(len(codes)), codes])
    assert abs(slope) < 1e-13


def test_log_probabilities_of_sklearn_predict_proba_are_its_logits():
    # A model with only predict_proba: scikit-learn calibrates log(p + 1e-12); so does the map on those logs.
    logits, codes = three_classes(4)
    probabilities = softmax(logits)
    ours = TemperatureScaling().fit(np.log(probabilities + 1e-12), codes)
    theirs = sklearn_temperature(probabilities, codes)  # rows in [0, 1] summing to 1: read as probabilities
    assert np.max(np.abs(ours.predict_proba(np.log(probabilities + 1e-12)) - theirs.predict_proba(probabilities))) \
        < TEMPERATURE_TOL


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

def test_a_known_temperature_is_recovered():
    # True probabilities softmax(z); the model reports softmax(2.5 z), overconfident by T = 2.5.
    rng = np.random.default_rng(7)
    z = rng.normal(size=(40000, 3)) * 1.5
    codes = np.array([rng.choice(3, p=row) for row in softmax(z)])
    scaling = TemperatureScaling().fit(2.5 * z, codes)
    assert abs(scaling.temperature - 2.5) < 0.05


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), shift=st.integers(-20, 20), factor=st.sampled_from([0.01, 0.5, 3.0, 1e4]))
def test_invariances(seed, shift, factor):
    logits, codes = three_classes(seed, n=60)
    base = TemperatureScaling().fit(logits, codes).temperature
    rng = np.random.default_rng(seed)
    # A constant added to a row changes no softmax: log-probabilities are logits.
    shifted = logits + rng.integers(-3, 4, (60, 1)) * shift
    assert TemperatureScaling().fit(shifted, codes).temperature == pytest.approx(base, rel=1e-10)
    # Scaling the logits scales the temperature.
    assert TemperatureScaling().fit(factor * logits, codes).temperature == pytest.approx(factor * base, rel=1e-10)
    # The order of the rows does not matter.
    order = rng.permutation(60)
    assert TemperatureScaling().fit(logits[order], codes[order]).temperature == pytest.approx(base, rel=1e-12)
    # Columns permuted, with labels saying so, give the same fit.
    permutation = np.array([2, 0, 1])
    permuted = TemperatureScaling().fit(logits[:, permutation], codes, labels=permutation)
    assert permuted.temperature == pytest.approx(base, rel=1e-12)


def test_weights_are_repeated_rows_and_have_no_scale():
    logits, codes = three_classes(11, n=80)
    weights = np.random.default_rng(11).integers(0, 4, 80)
    weighted = TemperatureScaling().fit(logits, codes, sample_weight=weights).temperature
    repeated = TemperatureScaling().fit(np.repeat(logits, weights, axis=0), np.repeat(codes, weights)).temperature
    assert weighted == pytest.approx(repeated, rel=1e-12)
    for factor in (1e-300, 2.0**-600, 1e250):
        assert TemperatureScaling().fit(logits, codes, sample_weight=weights * factor).temperature == pytest.approx(
            weighted, rel=1e-12)


def test_labels_give_the_column_order():
    logits, codes = three_classes(12)
    names = np.array(["low", "mid", "high"])
    sorted_fit = TemperatureScaling().fit(logits[:, [2, 0, 1]], names[codes])  # sorted: high, low, mid
    given_fit = TemperatureScaling().fit(logits, names[codes], labels=names)
    assert sorted_fit.temperature == pytest.approx(given_fit.temperature, rel=1e-12)
    # A class listed in labels but absent from y is allowed (its column is never observed).
    rare = TemperatureScaling().fit(logits[codes != 2], codes[codes != 2], labels=[0, 1, 2])
    assert rare.temperature > 0


# ---------------------------------------------------------------------------
# bad input and degenerate fits
# ---------------------------------------------------------------------------

def test_not_fitted():
    with pytest.raises(ValueError, match="TemperatureScaling is not fitted"):
        TemperatureScaling().predict_proba([0.5])


def test_separated_scores_have_no_finite_temperature():
    with pytest.raises(ValueError, match="separate the classes perfectly"):
        TemperatureScaling().fit([-2.0, -1.0, 1.0, 3.0], [0, 0, 1, 1])
    # A tie at the top with the observed class is still separation (the loss only falls).
    with pytest.raises(ValueError, match="separate the classes perfectly"):
        TemperatureScaling().fit([[1.0, 1.0, 0.0], [0.0, 2.0, 1.0]], [0, 1], labels=[0, 1, 2])


def test_scores_that_favour_nothing_have_no_finite_temperature():
    # The observed class scores below the row's mean: uniform probabilities do best.
    with pytest.raises(ValueError, match="do not favour the observed classes"):
        TemperatureScaling().fit([2.0, 1.0, -1.0, 0.5], [0, 0, 1, 1])
    with pytest.raises(ValueError, match="do not favour the observed classes"):
        TemperatureScaling().fit(np.zeros((4, 3)), [0, 1, 2, 0])


@pytest.mark.parametrize(("scores", "y", "options", "error", "message"), [
    ([0.5, np.nan], [0, 1], {}, ValueError, "scores contains 1 NaN"),
    ([[0.1, -np.inf], [0.2, 0.3]], [0, 1], {}, ValueError, "log-probabilities of 0"),
    (np.zeros((2, 2, 2)), [0, 1], {}, ValueError, "scores must be 1-D log-odds or a 2-D array"),
    ([[1.0, 0.0], [0.0, 1.0]], [0, 1, 1], {}, ValueError, "inconsistent lengths"),
    ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [0, 1], {}, ValueError, "scores has 3 columns but y has 2 classes"),
    ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [0, 1], {"labels": [0, 1]}, ValueError, "labels names 2 classes"),
    ([[1.0, 0.0], [0.0, 1.0]], [0, 1], {"labels": [0, 0]}, ValueError, "labels contains duplicates"),
    ([[1.0, 0.0], [0.0, 1.0]], [0, 2], {"labels": [0, 1]}, ValueError, "y contains 1 row"),
    ([[1.0, 0.0], [0.0, 1.0]], ["a", "b"], {"labels": [0, 1]}, TypeError, "y holds strings and labels holds numbers"),
    ([[1.0, 0.0], [0.0, 1.0]], [0, 1], {"pos_label": 1}, ValueError, "pos_label applies to 1-D log-odds"),
    ([0.5, -0.5], [1, 0], {"labels": [0, 1]}, ValueError, "labels applies to a score matrix"),
    ([0.5, -0.5], ["yes", "no"], {}, ValueError, "pos_label"),
    ([0.5, -0.5], [1, 0], {"sample_weight": [0.0, 0.0]}, ValueError, "sample_weight sums to zero"),
    ([0.5, -0.5], [1, 0], {"sample_weight": [1.0, -1.0]}, ValueError, "sample_weight must be non-negative"),
    (["0.5", "0.1"], [1, 0], {}, TypeError, "scores must contain numbers"),
])
def test_bad_input_is_refused_naming_the_argument(scores, y, options, error, message):
    with pytest.raises(error, match=message):
        TemperatureScaling().fit(scores, y, **options)


def test_predict_refuses_bad_scores():
    scaling = TemperatureScaling().fit([1.0, -1.0, 0.5, -0.2], [1, 0, 0, 1])
    with pytest.raises(ValueError, match="scores contains 1 NaN"):
        scaling.predict_proba([np.nan, 1.0])
