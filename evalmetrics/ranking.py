"""The AUC as a probability: explicit pairs and rank sums, the teaching versions.

Three routes to one number.  :func:`pairwise_auc` compares every positive
with every negative (P x N comparisons, ties one half): slow, obviously
right, the oracle of the tests.  :func:`rank_auc` is the Mann-Whitney form,
``(R+ - P(P + 1)/2) / (P N)`` with midranks for ties.  And
:func:`evalmetrics.curves.roc_auc` reads the same count off one integer
sort: the engine of ``evalmetrics._kernels.auc``, whose sort keys also
build the unweighted :func:`evalmetrics.curves.threshold_table`.

The exact AUC of normal scores is :func:`evalmetrics.datasets.binormal_auc`.

For several classes the same probability is read class against class.
:func:`evalmetrics.curves.roc_auc` with a score matrix (one column per
class) averages either one binary AUC per class, the class against the rest
(``multi_class="ovr"``), or one per pair of classes, ``(A(a|b) + A(b|a)) / 2``
with ``A(a|b)`` the AUC of column ``a`` between the rows of ``a`` and ``b``
(``multi_class="ovo"``: Hand and Till's M when the pairs count equally).  The
averaging over classes and pairs lives here, below the public functions;
:func:`evalmetrics.curves.average_precision` uses the one-versus-rest one too.
"""

from __future__ import annotations

import warnings
from itertools import combinations

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


# ---------------------------------------------------------------------------
# several classes: one against the rest, one against one (clean input assumed)
# ---------------------------------------------------------------------------

#: The averages of a score metric over classes, and over pairs of classes.
ONE_VS_REST_AVERAGES = ("macro", "weighted", "micro", None)
ONE_VS_ONE_AVERAGES = ("macro", "weighted")


def _undefined_classes(values, classes, what):
    missing = [repr(classes[k].item() if hasattr(classes[k], "item") else classes[k])
               for k in np.flatnonzero(np.isnan(values))]
    if missing:
        warnings.warn(f"class {', '.join(missing)} has no rows in y_true (or only rows of weight zero); "
                      f"its {what} is undefined and set to NaN", UndefinedMetricWarning, stacklevel=4)


def _one_vs_rest(binary, columns, scores, weights, average, what):
    """``binary(is_positive, values, weights)`` of each column against the rest, averaged.

    ``macro``: every class counts once; ``weighted``: each class by its
    support (rows, or their weights); ``micro``: one binary metric of every
    (row, class) cell, the cells of a row's own class positive; None: the
    per-class values.  ``binary`` returns NaN without a warning for an empty
    class; the warning names the class here.
    """
    n_classes = scores.shape[1]
    own = columns.codes[:, None] == np.arange(n_classes)
    if average == "micro":
        cell_weights = None if weights is None else np.repeat(weights, n_classes)
        value = binary(own.ravel(), scores.ravel(), cell_weights)
        if value != value:
            warnings.warn(f"no cell of y_score belongs to a class; the micro-averaged {what} is undefined and "
                          "set to NaN", UndefinedMetricWarning, stacklevel=3)
        return value
    values = np.array([binary(own[:, k], scores[:, k], weights) for k in range(n_classes)])
    _undefined_classes(values, columns.classes, what)
    if average is None:
        return values
    if average == "macro":
        return float(np.mean(values))
    support = np.bincount(columns.codes, weights=weights, minlength=n_classes)
    return float(np.dot(values, support) / support.sum())


def _one_vs_one(binary, columns, scores, average, what):
    """The mean over pairs of present classes of ``(A(a|b) + A(b|a)) / 2``.

    ``A(a|b)`` is ``binary`` of column ``a`` on the rows of classes ``a`` and
    ``b``, the rows of ``a`` positive.  ``macro``: every pair counts once
    (Hand and Till's M); ``weighted``: each pair by its share of the rows.
    Classes absent from ``y_true`` take no part.
    """
    present = np.unique(columns.codes)
    if len(present) < 2:
        warnings.warn(f"only one class is present in y_true; the one-vs-one {what} is undefined and set to NaN",
                      UndefinedMetricWarning, stacklevel=3)
        return float("nan")
    pair_values, pair_shares = [], []
    for a, b in combinations(present.tolist(), 2):
        rows = (columns.codes == a) | (columns.codes == b)
        of_a = columns.codes[rows] == a
        pair_values.append((binary(of_a, scores[rows, a], None) + binary(~of_a, scores[rows, b], None)) / 2)
        pair_shares.append(np.count_nonzero(rows) / len(rows))
    pair_values = np.array(pair_values)
    if average == "macro":
        return float(np.mean(pair_values))
    pair_shares = np.array(pair_shares)
    return float(np.dot(pair_values, pair_shares) / pair_shares.sum())
