"""Precision, recall and F scores of K classes, and their averages.

Each class k is scored against the rest (one-versus-rest counts of the
confusion matrix: TP the diagonal, TP + FP the column total, TP + FN the
row total, the *support*).  The per-class scores are then averaged:

* **macro**: every class counts equally;
* **weighted**: every class by its support;
* **micro**: every example equally, by pooling the counts first.

The results match scikit-learn's ``precision_recall_fscore_support`` with
``average=None``, ``"macro"``, ``"weighted"`` and ``"micro"``, including its
``zero_division`` rules: precision is undefined for a class never predicted,
recall for a class absent from ``y_true``, and the F score only when both
are empty (otherwise it is ``(1 + beta**2) TP / (beta**2 (TP + FN) + TP + FP)``,
which is 0 when TP = 0).  With ``zero_division=np.nan`` the undefined
classes are left out of the averages.

Examples use the three-grade parts of :func:`~evalmetrics.worked_example.graded_parts`
and the twelve units.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np

from . import arrays
from ._typing import ArrayLike, ZeroDivision
from .counts import BinaryCounts
from .rates import _check_beta, _counts_input

__all__ = ["AveragedScores", "ClassScores", "averaged_scores", "f1_of_macro_averages", "per_class_scores"]

_AVERAGES = ("macro", "micro", "weighted")


@dataclass(frozen=True)
class ClassScores:
    """Per-class precision, recall, F score and support (arrays of length K).

    Attributes
    ----------
    labels : ndarray
        The classes, in the order of the other arrays.
    precision, recall, f_score : ndarray of float
        The scores of each class against the rest.
    support : ndarray
        The number (or weight) of examples of each class in ``y_true``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> per_class_scores(units.y_true, y_pred).support
    array([8, 4])
    """

    labels: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    f_score: np.ndarray
    support: np.ndarray


class AveragedScores(NamedTuple):
    """Averaged precision, recall and F score.

    Attributes
    ----------
    precision, recall, f_score : float
        The averages (the F score's definition is that of the function that
        returned the result).

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> micro = averaged_scores(units.y_true, y_pred, average="micro")
    >>> round(micro.recall, 4)
    0.6667
    """

    precision: float
    recall: float
    f_score: float


def _class_counts(y_true, y_pred, counts, labels, sample_weight, ratio=False, metric="per_class_scores"):
    """Validated ``(labels, tp, predicted, support)`` per class (internal).

    With ``ratio`` (the caller returns ratios of the counts only) weighted
    counts are summed at a safe scale, the same for weights at any scale.

    With explicit ``labels`` the counts of the listed classes are taken from
    the matrix of *all* rows, as scikit-learn does: a prediction of a listed
    class still counts as flagged when its true class is not listed.
    """
    if counts is not None:
        given = _counts_input(y_true, y_pred, counts, binary=False, sample_weight=sample_weight, metric=metric)
        if isinstance(given, BinaryCounts):
            if np.ndim(given.tp) != 0:
                raise ValueError("pass a BinaryCounts of single numbers, or the K x K matrix")
            given = (np.array([0, 1]), np.array([[given.tn, given.fp], [given.fn, given.tp]]))
        classes, matrix = given
        if labels is not None:
            # With a matrix, labels only names its rows.
            classes = arrays.column(labels, "labels")
            if len(classes) != len(matrix):
                raise ValueError(
                    f"labels has {len(classes)} names for a {len(matrix)} x {len(matrix)} matrix"
                )
        return classes, np.diag(matrix), matrix.sum(axis=0), matrix.sum(axis=1)
    classes, matrix = _counts_input(y_true, y_pred, None, binary=False, sample_weight=sample_weight,
                                    ratio=ratio, metric=metric)
    tp, predicted, support = np.diag(matrix), matrix.sum(axis=0), matrix.sum(axis=1)
    if labels is None:
        return classes, tp, predicted, support
    wanted = arrays.class_labels(labels, "labels")
    classes, wanted = arrays.same_label_kind(y_true=classes, labels=wanted)
    if len(np.unique(wanted)) != len(wanted):
        raise ValueError("labels contains duplicates")
    try:
        position = np.clip(np.searchsorted(classes, wanted), 0, len(classes) - 1)
        found = classes[position] == wanted
    except (TypeError, np.exceptions.DTypePromotionError):
        raise TypeError("labels must have the same type as y_true and y_pred") from None
    zero = np.zeros(1, dtype=matrix.dtype)
    pick = lambda values: np.where(found, values[position], zero)  # noqa: E731
    return wanted, pick(tp), pick(predicted), pick(support)


def _scores(tp, predicted, support, beta, zero_division):
    tp, predicted, support = (np.asarray(v, dtype=float) for v in (tp, predicted, support))
    beta2 = beta * beta
    precision = arrays.ratio(tp, predicted, zero_division=zero_division, what="precision")
    recall = arrays.ratio(tp, support, zero_division=zero_division, what="recall")
    f_score = arrays.ratio((1.0 + beta2) * tp, beta2 * support + predicted,
                           zero_division=zero_division, what="F-score")
    return precision, recall, f_score


def _nan_average(values, weights=None):
    """Average ignoring NaN (classes set undefined by zero_division=np.nan)."""
    values = np.atleast_1d(values)
    keep = ~np.isnan(values)
    if weights is None and keep.all():
        # The usual macro case: np.mean's own sum, without its per-call overhead.
        return float(np.add.reduce(values) / len(values))
    if not np.any(keep):
        return float("nan")
    if weights is None or np.sum(weights[keep]) == 0:
        return float(np.mean(values[keep]))
    return float(np.average(values[keep], weights=weights[keep]))


def per_class_scores(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                     counts: BinaryCounts | ArrayLike | None = None, labels: ArrayLike | None = None, beta: float = 1.0,
                     zero_division: ZeroDivision = "warn", sample_weight: ArrayLike | None = None) -> ClassScores:
    """Precision, recall, F-beta and support of every class against the rest.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    counts : K x K matrix or BinaryCounts, optional
        A confusion matrix alone (rows actual), in place of ``y_true`` and
        ``y_pred``.
    labels : array_like, optional
        With label arrays: the classes to score, in this order (default: the
        sorted union of both arrays).  With a matrix: names of its K rows.
    beta : float, default 1.0
        Weight of recall in the F score.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
    sample_weight : array_like of shape (n,), optional

    Returns
    -------
    ClassScores

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> s = per_class_scores(units.y_true, y_pred)
    >>> s.precision.round(4), s.recall.round(4), s.support
    (array([0.8333, 0.5   ]), array([0.625, 0.75 ]), array([8, 4]))
    """
    beta = _check_beta(beta)
    arrays.check_zero_division(zero_division)
    classes, tp, predicted, support = _class_counts(y_true, y_pred, counts, labels, sample_weight)
    precision, recall, f_score = _scores(tp, predicted, support, beta, zero_division)
    return ClassScores(labels=np.asarray(classes), precision=np.atleast_1d(precision),
                       recall=np.atleast_1d(recall), f_score=np.atleast_1d(f_score), support=support)


def averaged_scores(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                    counts: BinaryCounts | ArrayLike | None = None,
                    average: Literal["macro", "micro", "weighted"] = "macro", labels: ArrayLike | None = None,
                    beta: float = 1.0, zero_division: ZeroDivision = "warn",
                    sample_weight: ArrayLike | None = None) -> AveragedScores:
    """Macro, micro or weighted average of the per-class precision, recall and F.

    Parameters
    ----------
    y_true, y_pred, counts
        As in :func:`per_class_scores`.
    average : {"macro", "micro", "weighted"}, default "macro"
        Every class equally, every example equally (pooled counts), or every
        class by its support.  The macro F score is the mean of the
        per-class F scores, as in scikit-learn; see
        :func:`f1_of_macro_averages` for the other definition.
    labels, beta, zero_division, sample_weight
        As in :func:`per_class_scores`.

    Returns
    -------
    AveragedScores

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> macro = averaged_scores(units.y_true, y_pred, average="macro")
    >>> [round(x, 4) for x in macro]
    [0.6667, 0.6875, 0.6571]
    >>> micro = averaged_scores(units.y_true, y_pred, average="micro")
    >>> [round(x, 4) for x in micro]
    [0.6667, 0.6667, 0.6667]
    """
    if average not in _AVERAGES:
        raise ValueError(
            f'average must be "macro", "micro" or "weighted", got {average!r} '
            "(per_class_scores gives the scores of every class)"
        )
    beta = _check_beta(beta)
    arrays.check_zero_division(zero_division)
    classes, tp, predicted, support = _class_counts(y_true, y_pred, counts, labels, sample_weight, ratio=True,
                                                    metric="averaged_scores")
    if average == "micro":
        # Pooling first: every example counts once, whatever its class.
        p, r, f = _scores(tp.sum(), predicted.sum(), support.sum(), beta, zero_division)
        return AveragedScores(float(p), float(r), float(f))
    precision, recall, f_score = _scores(tp, predicted, support, beta, zero_division)
    weights = np.asarray(support, dtype=float) if average == "weighted" else None
    return AveragedScores(*(_nan_average(v, weights) for v in (precision, recall, f_score)))


def f1_of_macro_averages(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                         counts: BinaryCounts | ArrayLike | None = None, labels: ArrayLike | None = None,
                         zero_division: ZeroDivision = "warn", sample_weight: ArrayLike | None = None) -> float:
    """The other macro F1: the harmonic mean of macro precision and macro recall.

    It is never smaller than the mean of the per-class F1 scores (the
    ``f_score`` of ``averaged_scores(..., average="macro")``, scikit-learn's
    macro F1), and can be much larger.

    Parameters
    ----------
    y_true, y_pred, counts, labels, zero_division, sample_weight
        As in :func:`per_class_scores`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> round(f1_of_macro_averages(units.y_true, y_pred), 4)
    0.6769
    """
    arrays.check_zero_division(zero_division)
    classes, tp, predicted, support = _class_counts(y_true, y_pred, counts, labels, sample_weight, ratio=True,
                                                    metric="f1_of_macro_averages")
    precision, recall, _ = _scores(tp, predicted, support, 1.0, zero_division)
    macro_precision, macro_recall = _nan_average(precision), _nan_average(recall)
    return arrays.ratio(2.0 * macro_precision * macro_recall, macro_precision + macro_recall,
                        zero_division=zero_division, what="F1 of the macro averages")
