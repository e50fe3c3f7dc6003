"""The confusion matrix and the four counts of a binary decision.

Layout follows scikit-learn: rows are the actual classes, columns the
predicted ones, classes in sorted order, so for labels {0, 1} the negative
class comes first and ``confusion_matrix(y, y_hat).ravel()`` is
``TN, FP, FN, TP``.

The worked example used in every docstring is the twelve inspection units:
scores 0.95, 0.85, 0.80, 0.70, 0.65, 0.55, 0.40, 0.40, 0.30, 0.20, 0.15,
0.10, with units 1, 3, 5 and 8 faulty (the positive class).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from . import arrays
from ._kernels.sorting import at_least, integer_ranks
from ._typing import ArrayLike, Label

__all__ = [
    "BinaryCounts",
    "binary_counts",
    "confusion_matrix",
    "counts_at_threshold",
    "counts_from_matrix",
    "one_vs_rest",
]


@dataclass(frozen=True)
class BinaryCounts:
    """True positives, false positives, false negatives and true negatives.

    The fields are numbers, or equal-length arrays when the counts describe
    several classes at once (see :func:`one_vs_rest`) or several thresholds.
    With sample weights they are weighted counts (floats).

    Attributes
    ----------
    tp, fp, fn, tn : int, float or ndarray
        True positives, false positives, false negatives, true negatives.

    Examples
    --------
    >>> c = BinaryCounts(tp=3, fp=3, fn=1, tn=5)
    >>> c.positives, c.negatives, c.total
    (4, 8, 12)
    """

    tp: int | float | np.ndarray
    fp: int | float | np.ndarray
    fn: int | float | np.ndarray
    tn: int | float | np.ndarray

    @property
    def positives(self) -> int | float | np.ndarray:
        """P = TP + FN, the examples that truly are positive."""
        return self.tp + self.fn

    @property
    def negatives(self) -> int | float | np.ndarray:
        """N = FP + TN, the examples that truly are negative."""
        return self.fp + self.tn

    @property
    def flagged(self) -> int | float | np.ndarray:
        """TP + FP, the examples predicted positive."""
        return self.tp + self.fp

    @property
    def unflagged(self) -> int | float | np.ndarray:
        """FN + TN, the examples predicted negative."""
        return self.fn + self.tn

    @property
    def total(self) -> int | float | np.ndarray:
        """n, the number of examples."""
        return self.tp + self.fp + self.fn + self.tn

    def as_matrix(self) -> np.ndarray:
        """The 2 x 2 confusion matrix ``[[TN, FP], [FN, TP]]`` (rows actual).

        Returns
        -------
        ndarray of shape (2, 2)
            Rows are the actual class, columns the predicted one, negatives first.
        """
        return np.array([[self.tn, self.fp], [self.fn, self.tp]])

    def ravel(self) -> tuple:
        """The four counts in the order of scikit-learn's ``confusion_matrix(...).ravel()``.

        Returns
        -------
        tuple
            ``(TN, FP, FN, TP)``.
        """
        return self.tn, self.fp, self.fn, self.tp


def _count(mask, weights):
    if weights is None:
        return int(np.count_nonzero(mask))
    return float(np.sum(weights[mask]))


def _binary_counts_from_masks(is_positive, is_flagged, weights=None):
    """Counts from validated boolean masks (internal, no checks)."""
    tp = _count(is_positive & is_flagged, weights)
    fp = _count(~is_positive & is_flagged, weights)
    fn = _count(is_positive & ~is_flagged, weights)
    tn = _count(~is_positive & ~is_flagged, weights)
    return BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)


def binary_counts(y_true: ArrayLike, y_pred: ArrayLike, *, pos_label: Label | None = None,
                  sample_weight: ArrayLike | None = None) -> BinaryCounts:
    """Count TP, FP, FN and TN of binary predictions.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        True and predicted labels.  Labels {0, 1}, {-1, 1} or booleans need
        no ``pos_label``; any other pair of labels does.
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Weights; the counts are then sums of weights.

    Returns
    -------
    BinaryCounts

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> binary_counts(units.y_true, units.y_score >= 0.5)
    BinaryCounts(tp=3, fp=3, fn=1, tn=5)
    """
    is_positive, is_flagged, weights = arrays.binary_pair(
        y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
    )
    return _binary_counts_from_masks(is_positive, is_flagged, weights)


def counts_at_threshold(y_true: ArrayLike, y_score: ArrayLike, threshold: float, *, pos_label: Label | None = None,
                        sample_weight: ArrayLike | None = None) -> BinaryCounts:
    """Count TP, FP, FN and TN of flagging every score at least ``threshold``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.  Labels {0, 1}, {-1, 1} or booleans need no
        ``pos_label``; any other pair of labels does.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive.
    threshold : float
        An example is flagged when its score is at least this value (any
        real number, +-inf included; compared exactly, also with integer
        scores beyond 2**53 and extended precision).
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights; the counts become sums of weights.

    Returns
    -------
    BinaryCounts
        Integers, or floats with sample weights.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> counts_at_threshold(units.y_true, units.y_score, 0.4)
    BinaryCounts(tp=4, fp=4, fn=0, tn=4)
    """
    is_positive, flagged, weights = _flagged_at(y_true, y_score, threshold, pos_label, sample_weight)
    return _binary_counts_from_masks(is_positive, flagged, weights)


def _flagged_at(y_true, y_score, threshold, pos_label, sample_weight):
    """Validated positives, flagged rows (score at least ``threshold``, compared exactly:
    integers beyond 2**53 and extended precision keep their order) and weights."""
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    threshold = arrays.threshold(threshold)
    if distinct is None:
        return is_positive, at_least(values, threshold), weights
    return is_positive, at_least(distinct, threshold)[values.astype(np.intp)], weights


# Integer labels in [0, _FAST_MAX_LABEL) skip the sort of np.unique: one
# bincount over true * m + pred gives the whole matrix.  The bound keeps the
# m x m scratch matrix small next to the data.
_FAST_MAX_LABEL = 1024


def _unsigned(values):
    return values.view(f"u{values.dtype.itemsize}")


def _index_dtype(values):
    """Labels known to be small and non-negative, in a dtype that adds to intp safely."""
    if values.dtype.kind == "b":
        return values.view(np.uint8)
    if values.dtype.kind == "u" and values.dtype.itemsize == 8:
        return values.astype(np.intp)
    return values


def _small_int_matrix(y_true, y_pred, weights):
    """(labels, matrix) by one bincount for small non-negative integers, else None."""
    if y_true.dtype.kind not in "iub" or y_pred.dtype.kind not in "iub":
        return None
    # Viewed as unsigned, a negative label becomes huge, so one max per array
    # checks both bounds (no separate min pass).
    m = int(max(_unsigned(y_true).max(), _unsigned(y_pred).max())) + 1
    if m > _FAST_MAX_LABEL or m * m > max(4 * len(y_true), 1 << 16):
        return None
    true, pred = _index_dtype(y_true), _index_dtype(y_pred)
    flat = np.multiply(true, m, dtype=np.intp)
    flat += pred
    full = np.bincount(flat, weights=weights, minlength=m * m).reshape(m, m)
    if weights is None:
        full = full.astype(np.int64, copy=False)
        seen = full.sum(axis=0) + full.sum(axis=1) > 0
    elif np.all(weights > 0):
        seen = full.sum(axis=0) + full.sum(axis=1) > 0
    else:
        # A label whose rows all have weight 0 still counts as a class, as in np.unique.
        seen = (np.bincount(true, minlength=m) + np.bincount(pred, minlength=m)) > 0
    present = np.flatnonzero(seen)
    labels = present.astype(np.result_type(y_true.dtype, y_pred.dtype))
    if len(present) == m:
        return labels, full
    return labels, full[np.ix_(present, present)]


def _matrix_from_codes(true_codes, pred_codes, n_classes, weights=None):
    """K x K matrix from integer codes with one bincount pass (internal)."""
    flat = true_codes.astype(np.intp, copy=False) * n_classes + pred_codes
    counts = np.bincount(flat, weights=weights, minlength=n_classes * n_classes)
    if weights is None:
        counts = counts.astype(np.int64, copy=False)
    return counts.reshape(n_classes, n_classes)


def confusion_matrix(y_true: ArrayLike, y_pred: ArrayLike, *, labels: ArrayLike | None = None,
                     sample_weight: ArrayLike | None = None,
                     normalize: Literal["true", "pred", "all"] | None = None) -> np.ndarray:
    """The K x K confusion matrix, rows actual and columns predicted.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        True and predicted labels of any sortable type.
    labels : array_like, optional
        The classes and their order.  By default the sorted union of both
        arrays.  Rows whose labels are not listed are ignored.
    sample_weight : array_like of shape (n,), optional
    normalize : {"true", "pred", "all"}, optional
        Divide by the row sums, the column sums or the total.  A row or
        column with no examples gives zeros, as in scikit-learn.

    Returns
    -------
    ndarray of shape (K, K)
        Integer counts, or floats when weighted or normalized.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> confusion_matrix(units.y_true, (units.y_score >= 0.5).astype(int))
    array([[5, 3],
           [1, 3]])
    """
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(f'normalize must be None, "true", "pred" or "all", got {normalize!r}')
    y_true, y_pred = arrays.label_pair(y_true, y_pred)
    fast = None
    if labels is None and y_true.dtype.kind in "iub" and y_pred.dtype.kind in "iub":
        # Small integer labels: one bincount, no sort.
        weights = arrays.sample_weights(sample_weight, len(y_true))
        fast = _small_int_matrix(y_true, y_pred, weights)
    if fast is not None:
        matrix = fast[1]
    else:
        encoded = arrays.encode_labels(y_true, y_pred, labels=labels)
        weights = arrays.sample_weights(sample_weight, len(y_true))
        if weights is not None and encoded.kept is not None:
            weights = weights[encoded.kept]
        matrix = _matrix_from_codes(encoded.true_codes, encoded.pred_codes, len(encoded.labels), weights)
    if normalize is None:
        return matrix
    matrix = matrix.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        if normalize == "true":
            matrix = matrix / matrix.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            matrix = matrix / matrix.sum(axis=0, keepdims=True)
        else:
            matrix = matrix / matrix.sum()
    return np.nan_to_num(matrix)


def _square_matrix(matrix, name="matrix"):
    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        raise ValueError(f"{name} must be a square K x K array with K >= 2, got shape {matrix.shape}")
    if matrix.dtype.kind not in "iuf" or not np.all(np.isfinite(matrix)):
        raise TypeError(f"{name} must contain finite numbers")
    if np.any(matrix < 0):
        raise ValueError(f"{name} must contain non-negative counts")
    return matrix


def one_vs_rest(matrix: ArrayLike) -> BinaryCounts:
    """One-versus-rest counts of every class of a K x K confusion matrix.

    Class k is positive and all others negative: a false positive for k is
    an error in column k, a false negative an error in row k.

    Parameters
    ----------
    matrix : array_like of shape (K, K)
        A confusion matrix, rows actual, columns predicted.

    Returns
    -------
    BinaryCounts
        Fields are arrays of length K.

    Examples
    --------
    >>> grades = np.array([[46, 3, 1], [5, 9, 1], [1, 2, 2]])
    >>> c = one_vs_rest(grades)
    >>> c.tp, c.fp, c.fn
    (array([46,  9,  2]), array([6, 5, 2]), array([4, 6, 3]))
    """
    matrix = _square_matrix(matrix)
    tp = np.diag(matrix).copy()
    fp = matrix.sum(axis=0) - tp
    fn = matrix.sum(axis=1) - tp
    tn = matrix.sum() - tp - fp - fn
    return BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)


def counts_from_matrix(matrix: ArrayLike) -> BinaryCounts:
    """Binary counts from a 2 x 2 matrix ``[[TN, FP], [FN, TP]]``.

    Parameters
    ----------
    matrix : array_like of shape (2, 2)
        A binary confusion matrix, rows actual, negatives first (scikit-learn's
        layout with labels sorted).

    Returns
    -------
    BinaryCounts

    Examples
    --------
    >>> counts_from_matrix([[5, 3], [1, 3]])
    BinaryCounts(tp=3, fp=3, fn=1, tn=5)
    """
    matrix = _square_matrix(matrix)
    if matrix.shape != (2, 2):
        raise ValueError(f"matrix must be 2 x 2 for binary counts, got shape {matrix.shape}")
    (tn, fp), (fn, tp) = matrix.tolist()
    return BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)
