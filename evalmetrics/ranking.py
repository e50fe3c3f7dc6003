"""The AUC as a probability: explicit pairs and rank sums, the teaching versions.

Three routes to one number.  :func:`pairwise_auc` compares every positive
with every negative (P x N comparisons, ties one half): slow, obviously
right, the oracle of the tests.  :func:`rank_auc` is the Mann-Whitney form,
``(R+ - P(P + 1)/2) / (P N)`` with midranks for ties.  And
:func:`evalmetrics.curves.roc_auc` reads the same count off one integer
sort: the engine of ``evalmetrics._kernels.auc``, whose sort keys also
build the unweighted :func:`evalmetrics.curves.threshold_table`.

The exact AUC of normal scores is :func:`evalmetrics.datasets.binormal_auc`.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import arrays
from ._kernels.auc import auc_from_twice_u
from ._kernels.bootstrap_auc import auc_engine
from ._kernels.sorting import integer_ranks
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .arrays import UndefinedMetricWarning

__all__ = [
    "midranks",
    "pairwise_auc",
    "rank_auc",
]


# ---------------------------------------------------------------------------
# ranks and pairs (clean input assumed)
# ---------------------------------------------------------------------------

def _doubled_midranks(values):
    """Twice the midranks (1-based), as exact int64: ``first + last`` of each tie."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    first_of_run = np.r_[True, ordered[1:] != ordered[:-1]]
    run = np.cumsum(first_of_run) - 1
    starts = np.flatnonzero(first_of_run)
    stops = np.r_[starts[1:], len(values)]  # one past the last position of each run
    doubled = np.empty(len(values), dtype=np.int64)
    doubled[order] = (starts + 1 + stops)[run]
    return doubled


def _one_class_nan(what):
    warnings.warn(
        f"only one class is present in y_true; {what} is undefined and set to NaN",
        UndefinedMetricWarning, stacklevel=3,
    )
    return float("nan")


def _rank_auc(is_positive, values):
    positives = int(np.count_nonzero(is_positive))
    negatives = len(values) - positives
    if positives == 0 or negatives == 0:
        return _one_class_nan("the rank AUC")
    doubled_rank_sum = int(_doubled_midranks(values)[is_positive].sum())
    return auc_from_twice_u(doubled_rank_sum - positives * (positives + 1), positives, negatives)


# About 4 million comparisons per block keeps the temporary arrays near 4 MB.
_PAIRS_PER_BLOCK = 1 << 22


def _pairwise_auc(is_positive, values, weights=None):
    positive_scores, negative_scores = values[is_positive], values[~is_positive]
    if len(positive_scores) == 0 or len(negative_scores) == 0:
        return _one_class_nan("the pairwise AUC")
    if weights is None:
        positive_weights = negative_weights = None
    else:
        weights = scale_free(weights)  # the product of the class totals stays in range
        positive_weights, negative_weights = weights[is_positive], weights[~is_positive]
    rows = max(1, _PAIRS_PER_BLOCK // len(negative_scores))
    wins = 0  # twice the wins, so ties (half a win) stay integers when unweighted
    for start in range(0, len(positive_scores), rows):
        block = positive_scores[start:start + rows, None]
        doubled = 2 * (block > negative_scores) + (block == negative_scores)
        if weights is None:
            wins += int(doubled.sum())
        else:
            wins += float(positive_weights[start:start + rows] @ (doubled @ negative_weights))
    if weights is None:
        return auc_from_twice_u(wins, len(positive_scores), len(negative_scores))
    return wins / (2 * positive_weights.sum() * negative_weights.sum())


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def midranks(values: ArrayLike) -> np.ndarray:
    """Rank from 1 (smallest) to n, tied values sharing the mean of their ranks.

    The same as ``scipy.stats.rankdata(values, method="average")``.

    Parameters
    ----------
    values : array_like of shape (n,)
        Finite real numbers.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> scores = twelve_units().y_score
    >>> midranks(scores)[4:10]  # units 7 and 8 share ranks 5 and 6
    array([8. , 7. , 5.5, 5.5, 4. , 3. ])
    """
    values = arrays.scores(integer_ranks(values)[0], "values")
    return _doubled_midranks(values) / 2.0


def rank_auc(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None) -> float:
    """The AUC by the Mann-Whitney rank sum: ``(R+ - P(P + 1)/2) / (P N)``.

    ``R+`` is the sum of the positives' midranks among all n scores.  The
    P(P + 1)/2 removes each positive's comparisons with the positives
    (itself included), which leaves the pairs it wins against negatives,
    ties counted one half.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> rank_auc(units.y_true, units.y_score)  # (35.5 - 10) / 32
    0.796875
    """
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    return _rank_auc(is_positive, values)


def pairwise_auc(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
                 sample_weight: ArrayLike | None = None) -> float:
    """The AUC by explicit pairs: the share of (positive, negative) pairs in order.

    Every positive is compared with every negative; a pair in which the
    positive scores higher counts 1, a tie 1/2.  O(P N) time, so use it to
    check, not to compute; the comparisons run in blocks of about four
    million, so memory stays bounded.  With weights, a pair counts the
    product of its two weights.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores.
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> pairwise_auc(units.y_true, units.y_score)  # 25.5 of 32 pairs
    0.796875
    """
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _pairwise_auc(is_positive, values, weights)


# Both compute the AUC of roc_auc to the bit, so they share its sort-once bootstrap.
rank_auc.bootstrap_engine = auc_engine
pairwise_auc.bootstrap_engine = auc_engine
