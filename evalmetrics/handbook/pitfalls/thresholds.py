"""Thresholds and probabilities: where a threshold is chosen, and on which probabilities.

Demonstrates the section "Thresholds and probabilities" of the chapter Pitfalls
(``book/pitfalls.md``) on a screening-like simulation: "Threshold 0.5 by default,
or a threshold tuned on the test set" (:func:`threshold_on_test_set`), "A threshold
computed from uncalibrated probabilities" (:func:`uncalibrated_threshold`) and
"Calibrating on the training data" (:func:`calibration_on_training`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...calibration import brier_score
from ...costs import bayes_threshold, best_threshold, cost_at_threshold
from ...curves import roc_auc
from ...models import GaussianNaiveBayes, LogisticRegression
from ...recalibration import PlattCalibrated, PlattScaling
from ._common import _seed

__all__ = [
    "CalibrationOnTraining", "CostThresholds", "UncalibratedThreshold", "calibration_on_training",
    "threshold_on_test_set", "uncalibrated_threshold",
]

# The screening costs of the chapter "In practice": a missed positive costs 20 false alarms.
_COST_FP, _COST_FN = 1.0, 20.0


# ---------------------------------------------------------------------------
# thresholds and probabilities (a screening-like simulation)
# ---------------------------------------------------------------------------

def _screening_rows(rng, n, *, copies=6, noise=0.3, mean=1.5, prevalence=0.3):
    """Rows of a latent binormal signal seen through ``copies`` noisy, redundant features."""
    n_positive = round(n * prevalence)
    y = np.r_[np.zeros(n - n_positive, int), np.ones(n_positive, int)]
    latent = np.r_[rng.normal(0.0, 1.0, n - n_positive), rng.normal(mean, 1.0, n_positive)]
    return latent[:, None] + noise * rng.normal(size=(n, copies)), y


def _cost(y, p, threshold):
    return cost_at_threshold(y, p, threshold, false_positive_cost=_COST_FP, false_negative_cost=_COST_FN)


def _bayes():
    return bayes_threshold(false_positive_cost=_COST_FP, false_negative_cost=_COST_FN)


def _cheapest_threshold(y, p):
    """Threshold of least total cost on (y, p); the highest one among equal costs."""
    return best_threshold(y, p, false_positive_cost=_COST_FP, false_negative_cost=_COST_FN).threshold


class CostThresholds(NamedTuple):
    """Test costs (cFP = 1, cFN = 20, 400 test rows) of four thresholds."""

    default_cost: float
    bayes_cost: float
    validation_threshold: float
    validation_cost: float
    test_threshold: float
    test_cost: float
    test_threshold_fresh_cost: float
    validation_threshold_fresh_cost: float


def threshold_on_test_set(*, n=400, n_fresh=40_000, seed=0):
    """Logistic regression on a screening-like simulation: which threshold, chosen where.

    Validation, test and fresh sets come from the same population.  The
    fresh costs are per ``n`` rows (total cost times ``n / n_fresh``): the
    expected cost of a threshold on a new test set.

    Examples
    --------
    >>> r = threshold_on_test_set(seed=0)
    >>> r.test_cost < r.test_threshold_fresh_cost, r.bayes_cost < r.default_cost
    (True, True)
    """
    rng = np.random.default_rng(_seed(seed))
    X_train, y_train = _screening_rows(rng, n)
    (X_val, y_val), (X_test, y_test), (X_fresh, y_fresh) = (_screening_rows(rng, m) for m in (n, n, n_fresh))
    model = LogisticRegression().fit(X_train, y_train)
    p_val, p_test, p_fresh = (model.predict_proba(X) for X in (X_val, X_test, X_fresh))
    t_val, t_test = _cheapest_threshold(y_val, p_val), _cheapest_threshold(y_test, p_test)
    scale = n / n_fresh
    return CostThresholds(
        _cost(y_test, p_test, 0.5), _cost(y_test, p_test, _bayes()),
        t_val, _cost(y_test, p_test, t_val), t_test, _cost(y_test, p_test, t_test),
        scale * _cost(y_fresh, p_fresh, t_test), scale * _cost(y_fresh, p_fresh, t_val))


class UncalibratedThreshold(NamedTuple):
    """Naive Bayes on redundant features, before and after Platt scaling."""

    bayes_threshold: float
    raw_cost: float
    platt_cost: float
    raw_auc: float
    platt_auc: float
    raw_brier: float
    platt_brier: float
    platt_slope: float


def uncalibrated_threshold(*, n=400, seed=0):
    """The Bayes threshold 1/21 applied to naive Bayes and to its Platt-scaled copy.

    Naive Bayes multiplies six likelihoods of the same signal as if they
    were independent evidence, so its log-odds are about six times too
    large.  Platt scaling is fitted on a separate validation set; the
    costs, AUCs and Brier scores are on the test set.

    Examples
    --------
    >>> r = uncalibrated_threshold(seed=0)
    >>> r.platt_cost < r.raw_cost, r.platt_auc == r.raw_auc, r.platt_brier < r.raw_brier
    (True, True, True)
    """
    rng = np.random.default_rng(_seed(seed))
    (X_train, y_train), (X_val, y_val), (X_test, y_test) = (_screening_rows(rng, n) for _ in range(3))
    model = GaussianNaiveBayes().fit(X_train, y_train)
    platt = PlattScaling().fit(model.decision_function(X_val), y_val)
    log_odds = model.decision_function(X_test)
    raw, calibrated = model.predict_proba(X_test), platt.predict_proba(log_odds)
    threshold = _bayes()
    # The ranking is read off the log-odds: naive Bayes' probabilities round to 0 or 1 in
    # the tails and would add ties that the model does not have.
    return UncalibratedThreshold(
        threshold, _cost(y_test, raw, threshold), _cost(y_test, calibrated, threshold),
        roc_auc(y_test, log_odds), roc_auc(y_test, calibrated),
        brier_score(y_test, raw), brier_score(y_test, calibrated), platt.slope)


class CalibrationOnTraining(NamedTuple):
    """Brier scores on fresh data of one model, calibrated three ways."""

    training_slope: float
    held_out_slope: float
    raw_brier: float
    training_brier: float
    held_out_brier: float
    cross_validated_brier: float


def calibration_on_training(*, n=100, n_features=30, n_fresh=10_000, seed=0):
    """Platt scaling fitted on training scores, on held-out scores, and on inner folds.

    A logistic regression (penalty 1) on ``n`` rows with one informative
    feature and ``n_features - 1`` noise features separates its training
    rows far better than new ones.

    Examples
    --------
    >>> r = calibration_on_training(seed=0)
    >>> r.held_out_brier < r.raw_brier < r.training_brier
    True
    """
    rng = np.random.default_rng(_seed(seed))

    def rows(m):
        X, y = _screening_rows(rng, m, copies=1, noise=0.0)
        return np.column_stack([X, rng.normal(size=(m, n_features - 1))]), y

    (X_train, y_train), (X_val, y_val), (X_fresh, y_fresh) = rows(n), rows(n), rows(n_fresh)
    model = LogisticRegression().fit(X_train, y_train)
    on_training = PlattScaling().fit(model.decision_function(X_train), y_train)
    on_held_out = PlattScaling().fit(model.decision_function(X_val), y_val)
    inner = PlattCalibrated(LogisticRegression(), n_folds=5, seed=0).fit(X_train, y_train)
    s_fresh = model.decision_function(X_fresh)

    def fresh_brier(p):
        return brier_score(y_fresh, p)

    return CalibrationOnTraining(
        on_training.slope, on_held_out.slope, fresh_brier(model.predict_proba(X_fresh)),
        fresh_brier(on_training.predict_proba(s_fresh)), fresh_brier(on_held_out.predict_proba(s_fresh)),
        fresh_brier(inner.predict_proba(X_fresh)))
