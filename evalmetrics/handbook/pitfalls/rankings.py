"""Rankings: areas under the ROC and precision-recall curves computed the wrong way.

Demonstrates the section "Rankings" of the chapter Pitfalls
(``book/pitfalls.md``): "ROC AUC from hard predictions" (:func:`auc_from_hard_predictions`),
"The trapezoid rule in precision-recall space" (:func:`trapezoidal_pr_area`,
:func:`trapezoid_on_fine_curve`, :func:`hard_prediction_data`,
:func:`trapezoid_on_hard_predictions`) and "Ignoring ties" (:func:`row_by_row_roc`,
:func:`tie_orders`).  The two wrong computations, :func:`row_by_row_roc` and
:func:`trapezoidal_pr_area`, are also drawn by :mod:`evalmetrics.handbook.plotting.pitfalls`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import arrays
from ...curves import RocCurve, average_precision, precision_recall_curve, roc_auc
from ...worked_example import twelve_units
from ._common import _binormal, _seed

__all__ = [
    "AreaComparison", "TieOrders", "auc_from_hard_predictions", "hard_prediction_data",
    "row_by_row_roc", "tie_orders", "trapezoid_on_fine_curve", "trapezoid_on_hard_predictions",
    "trapezoidal_pr_area",
]


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
