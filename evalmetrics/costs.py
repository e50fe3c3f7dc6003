"""Choosing a threshold from the costs of the two errors.

A false positive costs ``false_positive_cost`` (cFP), a false negative
``false_negative_cost`` (cFN).  Two routes to a threshold:

* from calibrated probabilities, the Bayes threshold ``cFP / (cFP + cFN)``
  (:func:`bayes_threshold`): flag when the expected cost of flagging,
  ``cFP (1 - p)``, is below that of not flagging, ``cFN p``;
* from any scores, the threshold with the smallest total cost
  ``cFP FP(t) + cFN FN(t)`` on validation data (:func:`cost_curve`,
  :func:`best_threshold`).

In ROC space the points of equal expected cost lie on lines of slope
:func:`iso_cost_slope`; with slope 1 the best point maximizes Youden's
index TPR - FPR (:func:`youden_index`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import arrays
from ._kernels.sorting import integer_ranks
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .counts import _flagged_at
from .curves import _after_infinity, _dtype, _threshold_table, _threshold_value

__all__ = [
    "BestThreshold",
    "CostCurve",
    "YoudenIndex",
    "bayes_threshold",
    "best_threshold",
    "cost_at_threshold",
    "cost_curve",
    "iso_cost_slope",
    "youden_index",
]


class CostCurve(NamedTuple):
    """Total cost at +inf and at every distinct score, in decreasing order.

    Attributes
    ----------
    thresholds : ndarray
        ``inf``, then the distinct scores in decreasing order.
    total_cost : ndarray
        ``cFP FP + cFN FN`` at each threshold.
    false_positives, false_negatives : ndarray
        The counts (or weights) at each threshold.
    """

    thresholds: np.ndarray
    total_cost: np.ndarray
    false_positives: np.ndarray
    false_negatives: np.ndarray


class BestThreshold(NamedTuple):
    """The cheapest threshold of a cost curve and its counts.

    Attributes
    ----------
    threshold : float
        Flag the scores at least this value.
    cost : float
        The total cost there.
    false_positives, false_negatives : int or float
        The counts (or weights) there.
    """

    threshold: float
    cost: float
    false_positives: int | float
    false_negatives: int | float


class YoudenIndex(NamedTuple):
    """The threshold that maximizes TPR - FPR, and the rates there.

    Attributes
    ----------
    threshold : float
        Flag the scores at least this value.
    index : float
        Youden's J, TPR - FPR at that threshold.
    true_positive_rate, false_positive_rate : float
        The rates there.
    """

    threshold: float
    index: float
    true_positive_rate: float
    false_positive_rate: float


def _costs(false_positive_cost, false_negative_cost):
    fp_cost = arrays.non_negative(false_positive_cost, "false_positive_cost")
    fn_cost = arrays.non_negative(false_negative_cost, "false_negative_cost")
    if fp_cost == 0 and fn_cost == 0:
        raise ValueError("false_positive_cost and false_negative_cost cannot both be zero")
    return fp_cost, fn_cost


def _cost_rows(is_positive, values, weights, fp_cost, fn_cost, distinct=None, dtype=None):
    """The table's thresholds (own type), and the counts and total costs with +inf first."""
    table = _threshold_table(is_positive, values, weights, distinct, dtype)
    # The infinite threshold flags nothing: every positive is missed.
    false_positives = np.r_[0, table.false_positives]
    false_negatives = np.r_[table.positives, table.false_negatives]
    with np.errstate(over="ignore"):
        total = fp_cost * false_positives + fn_cost * false_negatives
    return table.thresholds, total, false_positives, false_negatives


def _cost_overflow(fp_cost, fn_cost, false_positives, false_negatives):
    """The error for a total cost beyond the largest float (costs near 1e308)."""
    larger = max(fp_cost, fn_cost)
    units = (fp_cost / larger) * false_positives + (fn_cost / larger) * false_negatives
    return ValueError(
        f"false_positive_cost={fp_cost:g} and false_negative_cost={fn_cost:g} give a total cost of "
        f"{units:g} x {larger:g}, beyond the largest float ({np.finfo(float).max:.3g}); give the costs "
        "in a larger unit (only their ratio chooses the threshold)"
    )


def _refuse_overflow(total, fp_cost, fn_cost, false_positives, false_negatives):
    if not np.all(np.isfinite(total)):
        row = int(np.argmax(~np.isfinite(total)))
        raise _cost_overflow(fp_cost, fn_cost, false_positives[row], false_negatives[row])


def _cost_curve(is_positive, values, weights, fp_cost, fn_cost, distinct=None, dtype=None):
    thresholds, total, false_positives, false_negatives = _cost_rows(
        is_positive, values, weights, fp_cost, fn_cost, distinct, dtype)
    _refuse_overflow(total, fp_cost, fn_cost, false_positives, false_negatives)
    return CostCurve(_after_infinity(thresholds), total, false_positives, false_negatives)


def cost_curve(y_true: ArrayLike, y_score: ArrayLike, *, false_positive_cost: float, false_negative_cost: float,
               pos_label: Label | None = None, sample_weight: ArrayLike | None = None) -> CostCurve:
    """Total cost ``cFP FP(t) + cFN FN(t)`` at every threshold.

    The first row is the threshold +inf (nothing flagged, FN = P); then one
    row per distinct score in decreasing order, tied scores entering
    together, as in :func:`evalmetrics.curves.roc_curve`.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive.
    false_positive_cost, false_negative_cost : float
        Non-negative costs of one false positive and one false negative.
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights; the counts become sums of weights.

    Returns
    -------
    CostCurve
        ``(thresholds, total_cost, false_positives, false_negatives)``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = cost_curve(units.y_true, units.y_score,
    ...                    false_positive_cost=1, false_negative_cost=10)
    >>> curve.total_cost.astype(int).tolist()
    [40, 30, 31, 21, 22, 12, 13, 4, 5, 6, 7, 8]
    """
    fp_cost, fn_cost = _costs(false_positive_cost, false_negative_cost)
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _cost_curve(is_positive, values, weights, fp_cost, fn_cost, distinct, _dtype(y_score))


def best_threshold(y_true: ArrayLike, y_score: ArrayLike, *, false_positive_cost: float, false_negative_cost: float,
                   pos_label: Label | None = None, sample_weight: ArrayLike | None = None) -> BestThreshold:
    """The threshold with the smallest total cost.

    Ties go to the highest threshold, the one that flags the fewest
    examples; it may be +inf (flag nothing) when missing every positive is
    cheapest.  Choose it on validation data, never on the test set.

    Parameters
    ----------
    y_true, y_score, false_positive_cost, false_negative_cost, pos_label, sample_weight
        As in :func:`cost_curve`.

    Returns
    -------
    BestThreshold
        ``(threshold, cost, false_positives, false_negatives)``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> best = best_threshold(units.y_true, units.y_score,
    ...                       false_positive_cost=1, false_negative_cost=10)
    >>> float(best.threshold), float(best.cost)
    (0.4, 4.0)
    """
    fp_cost, fn_cost = _costs(false_positive_cost, false_negative_cost)
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    thresholds, total, false_positives, false_negatives = _cost_rows(
        is_positive, values, weights, fp_cost, fn_cost, distinct, _dtype(y_score))
    # argmin returns the first: the highest threshold.  A total that overflowed is beyond the
    # largest float, so above any finite one; when even the smallest did, nothing can be reported.
    row = int(np.argmin(total))
    _refuse_overflow(total[row:row + 1], fp_cost, fn_cost, false_positives[row:row + 1],
                     false_negatives[row:row + 1])
    return BestThreshold(
        math.inf if row == 0 else _threshold_value(thresholds[row - 1]), float(total[row]),
        false_positives[row].item(), false_negatives[row].item(),
    )


def cost_at_threshold(y_true: ArrayLike, y_score: ArrayLike, threshold: float, *, false_positive_cost: float,
                      false_negative_cost: float, pos_label: Label | None = None,
                      sample_weight: ArrayLike | None = None) -> float:
    """Total cost ``cFP FP + cFN FN`` of flagging every score at least ``threshold``.

    Parameters
    ----------
    y_true, y_score
        As in :func:`cost_curve`.
    threshold : float
        Flag the examples whose score is at least this value (+inf flags
        none); compared exactly, as in :func:`~evalmetrics.counts_at_threshold`.
    false_positive_cost, false_negative_cost, pos_label, sample_weight
        As in :func:`cost_curve`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> cost_at_threshold(units.y_true, units.y_score, 0.5,  # 3 FP, 1 FN
    ...                   false_positive_cost=1, false_negative_cost=10)
    13.0
    """
    fp_cost, fn_cost = _costs(false_positive_cost, false_negative_cost)
    is_positive, flagged, weights = _flagged_at(y_true, y_score, threshold, pos_label, sample_weight)
    ones = np.ones(len(flagged)) if weights is None else weights
    false_positives = float(ones[flagged & ~is_positive].sum())
    false_negatives = float(ones[~flagged & is_positive].sum())
    total = fp_cost * false_positives + fn_cost * false_negatives
    if not math.isfinite(total):
        raise _cost_overflow(fp_cost, fn_cost, false_positives, false_negatives)
    return total


def bayes_threshold(*, false_positive_cost: float, false_negative_cost: float) -> float:
    """The cost-optimal threshold for calibrated probabilities: ``cFP / (cFP + cFN)``.

    Flagging an example of probability p costs ``cFP (1 - p)`` in
    expectation and not flagging it ``cFN p``; flagging is cheaper exactly
    when p exceeds this threshold.  It assumes calibrated probabilities at
    the prevalence they were calibrated for.

    Parameters
    ----------
    false_positive_cost, false_negative_cost : float
        Non-negative costs, not both zero.

    Returns
    -------
    float

    Examples
    --------
    >>> t = bayes_threshold(false_positive_cost=1, false_negative_cost=10)
    >>> round(t, 4)  # 1 / 11
    0.0909
    """
    fp_cost, fn_cost = _costs(false_positive_cost, false_negative_cost)
    # Both costs divided by the larger first: the sum cannot overflow (1e308 + 1e308
    # is inf, which gave 0), and a tiny cost against a big one still underflows
    # to the right limit.  Costs are not both zero (_costs refuses that).
    larger = max(fp_cost, fn_cost)
    return (fp_cost / larger) / (fp_cost / larger + fn_cost / larger)


def iso_cost_slope(prevalence: float, *, false_positive_cost: float, false_negative_cost: float) -> float:
    """Slope of the lines of equal expected cost in ROC space.

    The expected cost per example is ``cFP (1 - pi) FPR + cFN pi (1 - TPR)``,
    constant along lines ``TPR = m FPR + c`` with
    ``m = cFP (1 - pi) / (cFN pi)``.  The best operating point is where the
    highest such line touches the ROC curve.  With ``cFN = 0`` the slope is
    infinite (never flag).

    Parameters
    ----------
    prevalence : float in (0, 1)
        The share of positives, pi in the formula.
    false_positive_cost, false_negative_cost : float
        Non-negative costs, not both zero.

    Returns
    -------
    float

    Examples
    --------
    >>> costs = dict(false_positive_cost=1, false_negative_cost=10)
    >>> round(iso_cost_slope(4 / 12, **costs), 4)
    0.2
    """
    fp_cost, fn_cost = _costs(false_positive_cost, false_negative_cost)
    prevalence = arrays.probability(prevalence, "prevalence")
    if fn_cost == 0:
        return math.inf
    # The ratio of the costs first: their product with the prevalence odds could
    # overflow for costs near the largest float even when the slope is moderate.
    return (fp_cost / fn_cost) * ((1.0 - prevalence) / prevalence)


def youden_index(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
                 sample_weight: ArrayLike | None = None) -> YoudenIndex:
    """The largest TPR - FPR over all thresholds, and where it is reached.

    Youden's J is the height of the ROC curve above the chance diagonal;
    its maximum is the cost-optimal point when the iso-cost slope is 1
    (``cFP (1 - pi) = cFN pi``).  Ties go to the highest threshold.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`cost_curve`.

    Returns
    -------
    YoudenIndex
        ``(threshold, index, true_positive_rate, false_positive_rate)``;
        NaN fields, with an :class:`UndefinedMetricWarning`, if only one
        class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> best = youden_index(units.y_true, units.y_score)
    >>> best.threshold, best.index  # 0.75 - 0.25, first reached at 0.65
    (0.65, 0.5)
    >>> best.true_positive_rate, best.false_positive_rate
    (0.75, 0.25)
    """
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    # Rates only: the weights at a safe scale give them for weights at any scale.
    table = _threshold_table(is_positive, values, scale_free(weights), distinct, _dtype(y_score))
    tpr = np.r_[0.0, table.true_positive_rate]
    fpr = np.r_[0.0, table.false_positive_rate]
    if np.isnan(tpr[-1]) or np.isnan(fpr[-1]):
        return YoudenIndex(math.nan, math.nan, math.nan, math.nan)
    row = int(np.argmax(tpr - fpr))
    threshold = math.inf if row == 0 else _threshold_value(table.thresholds[row - 1])
    return YoudenIndex(threshold, float(tpr[row] - fpr[row]), float(tpr[row]), float(fpr[row]))
