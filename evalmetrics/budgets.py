"""Budgets: a fixed number of cases to look at, a fixed number of guesses.

When an investigator can examine only ``k`` cases, the question is not a
threshold but a count: how many of the ``k`` highest scores are positive,
and what share of all positives they hold.

* :func:`precision_at_k`, :func:`recall_at_k` -- the top ``k`` rows of the
  ranking.  A tied group that straddles the ``k``-th place is shared in
  proportion: the result is the expected value when the tie is broken at
  random, so it does not depend on the order of the rows.
* :func:`gain_curve`, :func:`lift_curve` -- every budget at once: the share
  of the positives found (the gain) and that share divided by the share of
  rows examined (the lift), one point per distinct score.
* :func:`top_k_accuracy` -- several classes, ``k`` guesses per case: the
  share of cases whose class is among the ``k`` highest of its row of scores,
  as scikit-learn computes it, ties included.

The examples use the twelve units of
:func:`evalmetrics.worked_example.twelve_units`, except that of
:func:`top_k_accuracy` (several classes).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from . import arrays
from ._kernels.sorting import integer_ranks, matrix_ranks, score_table
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .arrays import UndefinedMetricWarning
from .curves import _one_class_warning, _ratio_table

__all__ = [
    "GainCurve",
    "LiftCurve",
    "gain_curve",
    "lift_curve",
    "precision_at_k",
    "recall_at_k",
    "top_k_accuracy",
]


class GainCurve(NamedTuple):
    """The cumulative gain: the share of positives among the top rows, for every budget.

    Attributes
    ----------
    share_flagged : ndarray
        The share of rows (or of their weight) scoring at least each
        threshold, from 0 at ``inf`` to 1.
    gain : ndarray
        The share of the positives among them, the recall, from 0 to 1.
    thresholds : ndarray
        ``inf``, then the distinct scores in decreasing order.
    """

    share_flagged: np.ndarray
    gain: np.ndarray
    thresholds: np.ndarray


class LiftCurve(NamedTuple):
    """The lift: how many times the prevalence the top rows hold, for every budget.

    Attributes
    ----------
    share_flagged : ndarray
        The share of rows (or of their weight) scoring at least each threshold.
    lift : ndarray
        Gain divided by share flagged, which is the precision divided by
        the prevalence; 1 for a random ranking, and 1 when everything is
        flagged.
    thresholds : ndarray
        The distinct scores in decreasing order.
    """

    share_flagged: np.ndarray
    lift: np.ndarray
    thresholds: np.ndarray


# ---------------------------------------------------------------------------
# private computing functions (clean input assumed)
# ---------------------------------------------------------------------------

def _hits_at_k(is_positive, values, k):
    """``(numerator, denominator)``: the expected positives among the top ``k``, exactly.

    Rows above the tied group holding the ``k``-th place count whole; the
    group's positives count in proportion to the places left for it.
    """
    _, tp, fp = score_table(values, is_positive)
    flagged = tp + fp
    row = int(np.searchsorted(flagged, k, side="left"))  # the group holding place k
    above_tp = int(tp[row - 1]) if row else 0
    above = int(flagged[row - 1]) if row else 0
    group = int(flagged[row]) - above
    group_positives = int(tp[row]) - above_tp
    # Python integers: exact whatever the counts.
    return above_tp * group + (k - above) * group_positives, group


def _budget_input(y_true, y_score, k, pos_label):
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    k = arrays.positive_int(k, "k", maximum=None)
    if k > len(values):
        raise ValueError(f"k must be at most the number of rows, {len(values)}, got {k}")
    return is_positive, values, k


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

# The parameters the binary functions share, spliced into their docstrings (where
# they say {budget} or {curve}) so the descriptions cannot drift apart.
_DATA = """Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive."""
_BUDGET = _DATA + """
    k : int
        The budget: rows examined, from 1 to n.
    pos_label : label, optional
        The positive class."""
_CURVE = _DATA + """
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights; the shares are shares of weight."""

def precision_at_k(y_true: ArrayLike, y_score: ArrayLike, k: int, *, pos_label: Label | None = None) -> float:
    """The share of positives among the ``k`` highest scores.

    A tied group that holds the ``k``-th place is shared in proportion: if
    ``m`` of its ``g`` rows fit in the budget and ``a`` of them are
    positive, it adds ``m a / g`` expected hits.  This is the mean over
    every order of the tied rows, the value a random tie-break gives on
    average, so the result is the same for every order of the rows.

    {budget}

    Returns
    -------
    float
        Expected hits divided by ``k``; 0 when there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> precision_at_k(y, s, 5)  # units 1, 3 and 5 of the top five
    0.6
    >>> precision_at_k(y, s, 7)  # 3 + half of the tie at 0.40
    0.5
    """
    is_positive, values, k = _budget_input(y_true, y_score, k, pos_label)
    hits, per = _hits_at_k(is_positive, values, k)
    return hits / (per * k)


def recall_at_k(y_true: ArrayLike, y_score: ArrayLike, k: int, *, pos_label: Label | None = None) -> float:
    """The share of all positives found among the ``k`` highest scores.

    Ties at the ``k``-th place are shared in proportion, as in
    :func:`precision_at_k`; ``recall_at_k * P == precision_at_k * k``.

    {budget}

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> recall_at_k(y, s, 7)  # 3.5 of the 4 faulty units
    0.875
    """
    is_positive, values, k = _budget_input(y_true, y_score, k, pos_label)
    positives = int(np.count_nonzero(is_positive))
    if positives == 0:
        _one_class_warning("recall at k (no positives)")
        return float("nan")
    hits, per = _hits_at_k(is_positive, values, k)
    return hits / (per * positives)


def gain_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
               sample_weight: ArrayLike | None = None) -> GainCurve:
    """The cumulative gain curve: share of positives found against share of rows examined.

    One point per distinct score, after (0, 0) at the threshold ``inf``;
    tied rows enter together, as in :func:`evalmetrics.curves.roc_curve`.
    A random ranking follows the diagonal, a perfect one climbs to 1 at the
    share flagged equal to the prevalence.

    {curve}

    Returns
    -------
    GainCurve
        ``(share_flagged, gain, thresholds)``.  The gain is NaN (with a
        warning) if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = gain_curve(units.y_true, units.y_score)
    >>> curve.share_flagged[:4].round(4)
    array([0.    , 0.0833, 0.1667, 0.25  ])
    >>> curve.gain[:4]
    array([0.  , 0.25, 0.25, 0.5 ])
    """
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    flagged = table.true_positives + table.false_positives
    share = np.r_[0.0, flagged / flagged[-1]]
    gain = np.r_[0.0, table.recall]
    if table.positives == 0:
        gain[0] = np.nan
    return GainCurve(share, gain, np.r_[np.inf, table.thresholds])


def lift_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
               sample_weight: ArrayLike | None = None) -> LiftCurve:
    """The lift curve: precision over prevalence against share of rows examined.

    The lift at a budget is the gain divided by the share flagged: how many
    times more positives the top rows hold than a random selection of the
    same size.  It ends at 1, where everything is flagged, and cannot
    exceed 1 / prevalence.

    {curve}

    Returns
    -------
    LiftCurve
        ``(share_flagged, lift, thresholds)``, one point per distinct score.
        The lift is NaN (with a warning) if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = lift_curve(units.y_true, units.y_score)
    >>> curve.lift[:3]  # the top unit is faulty: 3 x the prevalence
    array([3. , 1.5, 2. ])
    """
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    flagged = table.true_positives + table.false_positives
    share = flagged / flagged[-1]
    if table.positives == 0:
        _one_class_warning("the lift (no positives)")
        lift = np.full(len(share), np.nan)
    else:
        lift = (table.true_positives / table.positives) / share
    return LiftCurve(share, lift, table.thresholds.copy())


def top_k_accuracy(y_true: ArrayLike, y_score: ArrayLike, *, k: int = 2, normalize: bool = True,
                   sample_weight: ArrayLike | None = None, labels: ArrayLike | None = None) -> float:
    """The share of cases whose true class is among the ``k`` highest scores of its row.

    Equal to ``sklearn.metrics.top_k_accuracy_score`` for a score matrix,
    ties included: a class tied with the true class ranks above it when it
    comes later in the order of the columns, so the true class is among the
    top ``k`` when fewer than ``k`` classes score higher or tie with it from
    a later column.  (scikit-learn sorts each row with a stable sort and
    reverses it.)  With ``k = 1`` it is the accuracy of the most probable
    class, ties going to the later column.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        The true classes.
    y_score : array_like of shape (n, n_classes)
        One column per class, larger meaning more likely.
    k : int, default 2
        Guesses per case.  ``k >= n_classes`` is always right and warns.
    normalize : bool, default True
        The share of cases (True) or their number, or total weight (False).
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.
    labels : array_like, optional
        The class of each column, in the order of the columns (default: the
        sorted labels of ``y_true``, one per column); every label of
        ``y_true`` must be among them.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> y_true = np.array(["good", "good", "rework", "scrap"])
    >>> y_score = np.array([[0.7, 0.2, 0.1], [0.45, 0.45, 0.1],
    ...                     [0.5, 0.4, 0.1], [0.3, 0.3, 0.4]])
    >>> top_k_accuracy(y_true, y_score, k=1)  # row 2: tie to "rework"
    0.5
    >>> top_k_accuracy(y_true, y_score, k=2)
    1.0
    """
    scores = arrays.score_matrix(matrix_ranks(y_score), "y_score")
    columns = arrays.class_columns(y_true, scores.shape[1], labels=labels)
    arrays.same_length(y_true=columns.codes, y_score=scores)
    k = arrays.positive_int(k, "k", maximum=None)
    normalize = arrays.boolean(normalize, "normalize")
    weights = arrays.sample_weights(sample_weight, len(scores))
    if k >= scores.shape[1]:
        warnings.warn(f"k ({k}) is at least the number of classes ({scores.shape[1]}): every case is a hit, "
                      "and the score says nothing", UndefinedMetricWarning, stacklevel=2)
    rows = np.arange(len(scores))
    own = scores[rows, columns.codes][:, None]
    later = np.arange(scores.shape[1]) > columns.codes[:, None]
    ahead = np.count_nonzero((scores > own) | ((scores == own) & later), axis=1)
    hits = ahead < k
    if weights is None:
        return float(np.mean(hits)) if normalize else float(np.count_nonzero(hits))
    if normalize:
        weights = scale_free(weights)
        if not np.any(weights):
            raise ValueError("sample_weight is zero for every row")
        return float(np.dot(hits, weights) / weights.sum())
    return float(np.dot(hits, weights))


for _function in (precision_at_k, recall_at_k, gain_curve, lift_curve):
    # python -OO strips docstrings: then there is nothing to splice.
    if _function.__doc__ is not None:
        _function.__doc__ = _function.__doc__.replace("{budget}", _BUDGET).replace("{curve}", _CURVE)
del _function
