"""The common mistakes of evaluation, each shown by a small computation.

Every function here returns the handful of numbers that make one mistake
visible, as a small frozen result.  The worked examples (twelve units,
graded parts, six households) give exact numbers; the others run a seeded
simulation, so their numbers are fixed for a given ``seed``; their
conclusion (which number is larger) holds for the default seed and, as
the tests check, for most others.

Two helpers compute the *wrong* quantities on purpose, so that they can be
compared with the right ones: :func:`row_by_row_roc` (a ROC curve that
ignores ties) and :func:`trapezoidal_pr_area` (the trapezoid rule in
precision-recall space, ``sklearn.metrics.auc(recall, precision)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import arrays
from .averaging import averaged_scores, f1_of_macro_averages
from .costs import bayes_threshold, best_threshold, cost_at_threshold
from .counts import binary_counts, confusion_matrix
from .cross_validation import k_fold, stratified_k_fold, time_series_split
from .curves import RocCurve, average_precision, precision_recall_curve, roc_auc
from .datasets import binormal_scores, clustered_answers, demand_series
from .intervals import (BootstrapResult, ConfidenceInterval, bootstrap_difference, bootstrap_interval,
                        wilson_interval)
from .models import GaussianNaiveBayes, LogisticRegression
from .rates import accuracy, cohen_kappa, f1, matthews_correlation, precision, recall
from .recalibration import PlattCalibrated, PlattScaling
from .regression import (mape_optimal_constant, mean_absolute_percentage_error, r2_score,
                         root_mean_squared_error)
from .worked_example import graded_parts, six_households, twelve_units

__all__ = [
    "AreaComparison", "CalibrationOnTraining", "CostThresholds", "EmptyFolds", "FoldAverages",
    "FoldRmse", "MapeConstant", "MapeNearZero", "PairedComparison", "PositiveClassView", "PositiveClassViews",
    "RSquaredReadings", "RareClassDrop", "ResamplingUnits", "SilentClassifier", "SmallSample",
    "TieOrders", "TransposedReading", "TwoMacroF1", "UncalibratedThreshold",
    "accuracy_under_imbalance", "auc_from_hard_predictions", "calibration_on_training",
    "fold_averaging", "fold_rmse", "folds_without_positives", "hard_prediction_data", "mape_best_constant",
    "mape_near_zero", "misread_r_squared", "paired_versus_separate", "rare_class_hidden",
    "row_by_row_roc", "swapped_positive_class", "threshold_on_test_set", "tie_orders",
    "too_few_examples", "transposed_matrix", "trapezoid_on_fine_curve",
    "trapezoid_on_hard_predictions", "trapezoidal_pr_area", "two_macro_f1", "uncalibrated_threshold",
    "wrong_resampling_unit",
]

# The screening costs of the chapter "In practice": a missed positive costs 20 false alarms.
_COST_FP, _COST_FN = 1.0, 20.0


def _seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    return int(seed)


# ---------------------------------------------------------------------------
# the two wrong computations
# ---------------------------------------------------------------------------

def row_by_row_roc(y_true, y_score, *, positives_first=False, pos_label=None):
    """The ROC "curve" of a loop that moves one row at a time, ignoring ties.

    Rows are sorted by decreasing score; tied rows are put negatives first
    (the pessimistic order) or, with ``positives_first=True``, positives
    first (the optimistic one).  Each row then moves the point up by 1/P or
    right by 1/N on its own, so tied groups make a staircase whose shape,
    and area, depend on the order.  The correct curve
    (:func:`~evalmetrics.curves.roc_curve`) moves diagonally through each
    tied group, and its area is the mean of the two extreme orders' areas.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    positives_first : bool, default False
    pos_label : label, optional

    Returns
    -------
    RocCurve
        One point per row after (0, 0); ``thresholds`` are the rows' scores.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> curve = row_by_row_roc(u.y_true, u.y_score)
    >>> float(np.trapezoid(curve.true_positive_rate, curve.false_positive_rate))  # 25/32
    0.78125
    """
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    return _row_by_row_roc(is_positive, values, bool(positives_first))


def _row_by_row_roc(is_positive, values, positives_first):
    if not is_positive.any() or is_positive.all():
        raise ValueError("y_true must contain both classes for a ROC curve")
    # lexsort: the last key is the primary one (decreasing score), then the tie order.
    order = np.lexsort((~is_positive if positives_first else is_positive, -values))
    hits = is_positive[order]
    tpr = np.r_[0.0, np.cumsum(hits) / hits.sum()]
    fpr = np.r_[0.0, np.cumsum(~hits) / (~hits).sum()]
    return RocCurve(fpr, tpr, np.r_[np.inf, values[order]])


def trapezoidal_pr_area(y_true, y_score, *, pos_label=None):
    """Trapezoid-rule area under the precision-recall points (a mistake).

    The points are scikit-learn's: one per distinct score, plus its
    starting point at recall 0 and precision 1.  This is what
    ``sklearn.metrics.auc(recall, precision)`` returns.  The straight lines
    between points are not achievable operating points, so this is not
    average precision (:func:`~evalmetrics.curves.average_precision`).

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    pos_label : label, optional

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> round(trapezoidal_pr_area(u.y_true, u.y_score), 4), round(average_precision(u.y_true, u.y_score), 4)
    (0.6583, 0.6917)
    """
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    if not is_positive.any():
        raise ValueError("y_true has no positives; the precision-recall curve is undefined")
    curve = precision_recall_curve(is_positive, values)
    return float(np.trapezoid(np.r_[1.0, curve.precision], np.r_[0.0, curve.recall]))


# ---------------------------------------------------------------------------
# rankings
# ---------------------------------------------------------------------------

class AreaComparison(NamedTuple):
    """A wrong area next to the right one."""

    wrong: float
    right: float


def auc_from_hard_predictions():
    """ROC AUC of the twelve units from their scores and from 0/1 predictions at 0.5.

    Returns
    -------
    AreaComparison
        ``wrong``: the "AUC" of the predictions, which is the balanced
        accuracy 0.6875; ``right``: the AUC of the scores, 0.796875.

    Examples
    --------
    >>> auc_from_hard_predictions()
    AreaComparison(wrong=0.6875, right=0.796875)
    """
    u = twelve_units()
    predictions = (u.y_score >= 0.5).astype(int)
    return AreaComparison(wrong=roc_auc(u.y_true, predictions), right=roc_auc(u.y_true, u.y_score))


def trapezoid_on_fine_curve(*, n_negative=1980, n_positive=20, seed=0):
    """Trapezoid area and AP on a fine curve: binormal scores (positives N(2, 1)).

    Returns
    -------
    AreaComparison
        ``wrong`` the trapezoid area, ``right`` the average precision; the
        trapezoid lands a little low, averaging across the sawtooth.

    Examples
    --------
    >>> areas = trapezoid_on_fine_curve(seed=0)
    >>> areas.wrong < areas.right
    True
    """
    y, s = _binormal(n_negative, n_positive, _seed(seed))
    return AreaComparison(wrong=trapezoidal_pr_area(y, s), right=average_precision(y, s))


def _binormal(n_negative, n_positive, seed, mean=2.0):
    return binormal_scores(n_negative, n_positive, mean=mean, seed=seed)


def hard_prediction_data():
    """A screening rule's 0/1 output on 1,000 cases, 50 of them positive.

    The rule flags 200 cases, 40 of them positive: recall 0.8, precision
    0.2.  Used by :func:`trapezoid_on_hard_predictions`.

    Returns
    -------
    y_true, y_pred : ndarray of int

    Examples
    --------
    >>> y_true, y_pred = hard_prediction_data()
    >>> int(y_pred.sum()), int(y_pred[y_true == 1].sum())
    (200, 40)
    """
    y_true = np.r_[np.ones(50, int), np.zeros(950, int)]
    y_pred = np.r_[np.ones(40, int), np.zeros(10, int), np.ones(160, int), np.zeros(790, int)]
    return y_true, y_pred


def trapezoid_on_hard_predictions():
    """Trapezoid area and AP of hard predictions (:func:`hard_prediction_data`).

    Two points, (0.8, 0.2) and (1, 0.05), and the starting point (0, 1):
    the trapezoids give 0.48 + 0.025 = 101/200, while AP is
    0.8 * 0.2 + 0.2 * 0.05 = 17/100.

    Returns
    -------
    AreaComparison

    Examples
    --------
    >>> areas = trapezoid_on_hard_predictions()
    >>> round(areas.wrong, 4), round(areas.right, 4)
    (0.505, 0.17)
    """
    y, pred = hard_prediction_data()
    return AreaComparison(wrong=trapezoidal_pr_area(y, pred), right=average_precision(y, pred))


class TieOrders(NamedTuple):
    """Areas of the twelve units' ROC curve, row by row in both tie orders and grouped."""

    negative_first: float
    positive_first: float
    grouped: float


def tie_orders():
    """The tied units 7 (working) and 8 (faulty): 25/32, 26/32 and grouped 51/64.

    Examples
    --------
    >>> tie_orders()
    TieOrders(negative_first=0.78125, positive_first=0.8125, grouped=0.796875)
    """
    u = twelve_units()
    areas = [float(np.trapezoid(c.true_positive_rate, c.false_positive_rate))
             for c in (row_by_row_roc(u.y_true, u.y_score, positives_first=first) for first in (False, True))]
    return TieOrders(*areas, grouped=roc_auc(u.y_true, u.y_score))


# ---------------------------------------------------------------------------
# decisions at one threshold
# ---------------------------------------------------------------------------

class SilentClassifier(NamedTuple):
    """A model and a classifier that never flags, at 1 % prevalence."""

    prevalence: float
    silent_accuracy: float
    model_accuracy: float
    model_recall: float
    silent_balanced_accuracy: float
    model_balanced_accuracy: float
    silent_mcc: float
    model_mcc: float


def accuracy_under_imbalance(*, seed=0):
    """19,800 negatives and 200 positives; the model flags binormal scores of at least 1.

    Examples
    --------
    >>> r = accuracy_under_imbalance(seed=0)
    >>> r.silent_accuracy, r.model_accuracy < r.silent_accuracy
    (0.99, True)
    """
    from .studies import imbalance_study

    run = imbalance_study(prevalences=(0.01,), n_negative=19_800, seed=_seed(seed)).runs[0]
    return SilentClassifier(run.prevalence, run.silent.accuracy, run.model.accuracy, run.model.recall,
                            run.silent.balanced_accuracy, run.model.balanced_accuracy,
                            run.silent.mcc, run.model.mcc)


class RareClassDrop(NamedTuple):
    """Three-class run: all classes allowed, and the rare class forbidden."""

    macro_f1: float
    macro_f1_without_rare: float
    weighted_f1: float
    weighted_f1_without_rare: float
    accuracy: float
    accuracy_without_rare: float


def rare_class_hidden(*, seed=0):
    """What never predicting the rare class costs each average (the three-class run).

    Examples
    --------
    >>> r = rare_class_hidden(seed=0)
    >>> r.macro_f1 - r.macro_f1_without_rare > 3 * (r.weighted_f1 - r.weighted_f1_without_rare)
    True
    """
    from .studies import three_class_run

    run = three_class_run(seed=_seed(seed))
    a, b = run.all_classes, run.without_rare
    return RareClassDrop(a.macro_f1, b.macro_f1, a.weighted_f1, b.weighted_f1, a.accuracy, b.accuracy)


class TwoMacroF1(NamedTuple):
    """The mean of per-class F1 scores and the F1 of macro precision and recall."""

    mean_of_f1: float
    f1_of_means: float


def two_macro_f1():
    """Both macro F1 scores of the graded parts: 0.6557 and 0.6574.

    Examples
    --------
    >>> [round(x, 4) for x in two_macro_f1()]
    [0.6557, 0.6574]
    """
    p = graded_parts()
    return TwoMacroF1(averaged_scores(p.y_true, p.y_pred, average="macro").f_score,
                      f1_of_macro_averages(p.y_true, p.y_pred))


class PositiveClassView(NamedTuple):
    """The measures of the twelve units at 0.5 with one class called positive."""

    precision: float
    recall: float
    f1: float
    accuracy: float
    mcc: float
    kappa: float


class PositiveClassViews(NamedTuple):
    """The same decisions seen with "faulty" and with "working" as the positive class."""

    faulty: PositiveClassView
    working: PositiveClassView


def swapped_positive_class():
    """The twelve units at 0.5 with "faulty" and then "working" as the positive class.

    Examples
    --------
    >>> views = swapped_positive_class()
    >>> round(views.faulty.f1, 4), round(views.working.f1, 4), views.faulty.mcc == views.working.mcc
    (0.6, 0.7143, True)
    """
    u = twelve_units()
    y = np.where(u.y_true == 1, "faulty", "working")
    pred = np.where(u.y_score >= 0.5, "faulty", "working")
    views = []
    for positive in ("faulty", "working"):
        c = binary_counts(y, pred, pos_label=positive)
        views.append(PositiveClassView(
            precision(y, pred, pos_label=positive), recall(y, pred, pos_label=positive),
            f1(y, pred, pos_label=positive), accuracy(c), matthews_correlation(c), cohen_kappa(c)))
    return PositiveClassViews(*views)


class TransposedReading(NamedTuple):
    """Precision read off the right matrix and off its transpose."""

    precision: float
    recall: float
    misread_precision: float


def transposed_matrix():
    """Column-wise precision of the twelve units' matrix and of its transpose.

    Examples
    --------
    >>> transposed_matrix()
    TransposedReading(precision=0.5, recall=0.75, misread_precision=0.75)
    """
    u = twelve_units()
    matrix = confusion_matrix(u.y_true, (u.y_score >= 0.5).astype(int))  # rows actual

    def column_precision(m):  # "the diagonal cell over its column total"
        return float(m[1, 1] / m[:, 1].sum())

    return TransposedReading(column_precision(matrix), float(matrix[1, 1] / matrix[1].sum()),
                             column_precision(matrix.T))


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
        float(np.mean((raw - y_test) ** 2)), float(np.mean((calibrated - y_test) ** 2)), platt.slope)


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

    def brier(p):
        return float(np.mean((p - y_fresh) ** 2))

    return CalibrationOnTraining(
        on_training.slope, on_held_out.slope, brier(model.predict_proba(X_fresh)),
        brier(on_training.predict_proba(s_fresh)), brier(on_held_out.predict_proba(s_fresh)),
        brier(inner.predict_proba(X_fresh)))


# ---------------------------------------------------------------------------
# folds
# ---------------------------------------------------------------------------

class FoldAverages(NamedTuple):
    """Fold means and pooled values of the twelve units' stratified folds at 0.5."""

    mean_precision: float
    pooled_precision: float
    mean_f1: float
    pooled_f1: float


def fold_averaging():
    """Four stratified folds of the twelve units: mean F1 13/24 against pooled 3/5.

    Examples
    --------
    >>> [round(x, 4) for x in fold_averaging()]
    [0.4583, 0.5, 0.5417, 0.6]
    """
    u = twelve_units()
    pred = (u.y_score >= 0.5).astype(int)
    folds = stratified_k_fold(u.y_true, n_splits=4)
    # The fold that flags nothing has precision 0/0, counted as 0 (scikit-learn's default).
    mean_p = np.mean([precision(u.y_true[t], pred[t], zero_division=0) for _, t in folds])
    mean_f = np.mean([f1(u.y_true[t], pred[t], zero_division=0) for _, t in folds])
    return FoldAverages(float(mean_p), precision(u.y_true, pred), float(mean_f), f1(u.y_true, pred))


@dataclass(frozen=True)
class FoldRmse:
    """RMSE of a linear trend forecast in five forward-chaining folds."""

    fold_rmse: tuple
    mean_rmse: float
    pooled_rmse: float


def fold_rmse(*, seed=0):
    """Mean of fold RMSEs against the pooled RMSE on :func:`~evalmetrics.datasets.demand_series`.

    Each fold fits a least-squares line in the day number to its training
    days and forecasts its test block; the five test blocks have equal sizes.

    Examples
    --------
    >>> r = fold_rmse(seed=0)
    >>> r.mean_rmse <= r.pooled_rmse
    True
    """
    sales = demand_series(seed=_seed(seed))
    days = np.arange(len(sales), dtype=float)
    rmses, errors = [], []
    for train, test in time_series_split(len(sales), n_splits=5):
        forecast = np.polyval(np.polyfit(days[train], sales[train], 1), days[test])
        rmses.append(root_mean_squared_error(sales[test], forecast))
        errors.append(forecast - sales[test])
    pooled = math.sqrt(np.mean(np.concatenate(errors) ** 2))
    return FoldRmse(tuple(rmses), float(np.mean(rmses)), pooled)


class EmptyFolds(NamedTuple):
    """Test folds without a positive, 10 positives among 200 rows, ten folds."""

    n_folds: int
    probability: float
    expected: float
    shuffled: int
    stratified: int


def folds_without_positives(*, n_shuffles=200):
    """Count folds without a positive over ``n_shuffles`` shuffled ten-fold splits.

    Shuffle ``s`` uses ``seed=s`` for ``s = 0, ..., n_shuffles - 1``.  A fold
    of 20 rows misses all 10 positives with probability C(190, 20) / C(200, 20).

    Examples
    --------
    >>> r = folds_without_positives(n_shuffles=20)
    >>> r.n_folds, round(r.probability, 4), r.stratified
    (200, 0.3398, 0)
    """
    n_shuffles = arrays.positive_int(n_shuffles, "n_shuffles")
    y = np.r_[np.ones(10, int), np.zeros(190, int)]
    probability = math.comb(190, 20) / math.comb(200, 20)
    shuffled = sum(int(y[f.test].sum() == 0)
                   for s in range(n_shuffles) for f in k_fold(200, n_splits=10, shuffle=True, seed=s))
    stratified = sum(int(y[f.test].sum() == 0)
                     for s in range(n_shuffles)
                     for f in stratified_k_fold(y, n_splits=10, shuffle=True, seed=s))
    n_folds = 10 * n_shuffles
    return EmptyFolds(n_folds, probability, n_folds * probability, shuffled, stratified)


# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------

class MapeNearZero(NamedTuple):
    """MAPE of a linear trend forecast of the last 182 days of the demand series."""

    zero_days: int
    zero_days_tested: int
    mape: float
    mape_sale_days: float


def _trend_forecast(seed, horizon=182):
    sales = demand_series(seed=_seed(seed))
    days = np.arange(len(sales), dtype=float)
    train, test = slice(0, len(sales) - horizon), slice(len(sales) - horizon, None)
    line = np.polyfit(days[train], sales[train], 1)
    return sales, days, train, test, line


def mape_near_zero(*, seed=0):
    """MAPE over every test day and over the days with a sale.

    Examples
    --------
    >>> r = mape_near_zero(seed=0)
    >>> r.mape > 1e10, r.mape_sale_days < 5
    (True, True)
    """
    sales, days, train, test, line = _trend_forecast(seed)
    actual, forecast = sales[test], np.polyval(line, days[test])
    sold = actual > 0
    return MapeNearZero(int(np.sum(sales == 0)), int(np.sum(~sold)),
                        mean_absolute_percentage_error(actual, forecast),
                        mean_absolute_percentage_error(actual[sold], forecast[sold]))


class MapeConstant(NamedTuple):
    """Best constant under MAPE for the six households, against the median."""

    mape_constant: float
    median: float
    mape_at_constant: float
    mape_at_median: float


def mape_best_constant():
    """12 kWh (MAPE 0.37) against the median 17.5 kWh (MAPE 0.4424).

    Examples
    --------
    >>> [round(x, 4) for x in mape_best_constant()]
    [12.0, 17.5, 0.37, 0.4424]
    """
    y = six_households().y_true
    best, median = mape_optimal_constant(y), float(np.median(y))
    return MapeConstant(best, median, mean_absolute_percentage_error(y, np.full(len(y), best)),
                        mean_absolute_percentage_error(y, np.full(len(y), median)))


class RSquaredReadings(NamedTuple):
    """R-squared against squared correlation, and the training mean as a forecast."""

    training_mean_r2: float
    fit_r2: float
    fit_correlation_squared: float
    test_r2: float
    test_correlation_squared: float


def misread_r_squared(*, seed=0):
    """R-squared of the demand series' trend line on its training days and on the last 182.

    Examples
    --------
    >>> r = misread_r_squared(seed=0)
    >>> r.training_mean_r2 < 0, abs(r.fit_r2 - r.fit_correlation_squared) < 1e-12
    (True, True)
    """
    sales, days, train, test, line = _trend_forecast(seed)
    fitted, forecast = np.polyval(line, days[train]), np.polyval(line, days[test])
    mean_forecast = np.full(len(sales[test]), sales[train].mean())
    return RSquaredReadings(
        r2_score(sales[test], mean_forecast),
        r2_score(sales[train], fitted), float(np.corrcoef(sales[train], fitted)[0, 1] ** 2),
        r2_score(sales[test], forecast), float(np.corrcoef(sales[test], forecast)[0, 1] ** 2))


# ---------------------------------------------------------------------------
# intervals
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ResamplingUnits:
    """Accuracy of clustered answers: bootstrap over answers, over people, and fresh groups."""

    accuracy: float
    answers: BootstrapResult
    people: BootstrapResult
    fresh_sd: float
    fresh: np.ndarray = field(repr=False, compare=False)


def wrong_resampling_unit(*, n_resamples=2000, n_fresh=2000, seed=0):
    """30 people answering 20 questions (:func:`~evalmetrics.datasets.clustered_answers`).

    The group is drawn with ``seed``; the fresh groups with seeds
    ``seed + 1, ..., seed + n_fresh``.

    Examples
    --------
    >>> r = wrong_resampling_unit(n_resamples=500, n_fresh=200, seed=0)
    >>> r.answers.standard_error < r.people.standard_error
    True
    """
    seed = _seed(seed)
    person, correct = clustered_answers(30, 20, seed=seed)
    answers = bootstrap_interval(np.mean, correct, n_resamples=n_resamples, seed=seed)
    people = bootstrap_interval(np.mean, correct, groups=person, n_resamples=n_resamples, seed=seed)
    fresh = np.array([clustered_answers(30, 20, seed=seed + k)[1].mean() for k in range(1, n_fresh + 1)])
    return ResamplingUnits(float(correct.mean()), answers, people, float(fresh.std(ddof=1)), fresh)


def _brier(y, p):
    return float(np.mean((p - y) ** 2))


@dataclass(frozen=True)
class PairedComparison:
    """Brier scores of two models on the same rows: separate intervals and the paired difference."""

    a: BootstrapResult
    b: BootstrapResult
    difference: BootstrapResult


def paired_versus_separate(*, n_resamples=2000, seed=0):
    """Calibrated probabilities (A) against the same with doubled log-odds (B).

    Binormal scores, 600 negatives and 300 positives (positives N(1.5, 1)).
    A gives the exact posterior probability, B the overconfident one.  The
    difference is B minus A (positive: A is better).

    Examples
    --------
    >>> r = paired_versus_separate(n_resamples=500, seed=0)
    >>> r.a.interval.high > r.b.interval.low, r.difference.interval.low > 0
    (True, True)
    """
    seed = _seed(seed)
    y, s = _binormal(600, 300, seed, mean=1.5)
    log_odds = 1.5 * s - 1.5 ** 2 / 2 + math.log(300 / 600)  # exact for this binormal model
    p_a, p_b = 1 / (1 + np.exp(-log_odds)), 1 / (1 + np.exp(-2 * log_odds))
    return PairedComparison(
        bootstrap_interval(_brier, y, p_a, n_resamples=n_resamples, seed=seed + 1),
        bootstrap_interval(_brier, y, p_b, n_resamples=n_resamples, seed=seed + 2),
        bootstrap_difference(_brier, y, p_b, p_a, n_resamples=n_resamples, seed=seed + 3))


@dataclass(frozen=True)
class SmallSample:
    """Intervals of the twelve units: accuracy (Wilson) and AUC (bootstrap)."""

    accuracy_interval: ConfidenceInterval
    auc: BootstrapResult


def too_few_examples(*, n_resamples=2000, seed=0):
    """Wilson interval of 8 correct out of 12 and a percentile bootstrap of the AUC.

    Examples
    --------
    >>> r = too_few_examples(seed=0)
    >>> [round(x, 4) for x in r.accuracy_interval], r.auc.interval.low < 0.5
    ([0.3906, 0.8619], True)
    """
    u = twelve_units()
    correct = int(np.sum((u.y_score >= 0.5) == (u.y_true == 1)))
    return SmallSample(wilson_interval(correct, len(u.y_true)),
                       bootstrap_interval(roc_auc, u.y_true, u.y_score, n_resamples=n_resamples,
                                          seed=_seed(seed)))
