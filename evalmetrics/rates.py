"""Rates of one decision: accuracy, precision, recall, F-beta, MCC, kappa.

Every function takes either label arrays ``(y_true, y_pred)`` or counts
alone, in the keyword ``counts``: a :class:`~evalmetrics.counts.BinaryCounts`
(its fields may be arrays, as returned by
:func:`~evalmetrics.counts.one_vs_rest`), or, for the metrics that are
defined for K classes (accuracy, balanced accuracy, MCC, kappa), a K x K
confusion matrix with rows actual and columns predicted.  Binary rates also
accept a 2 x 2 matrix ``[[TN, FP], [FN, TP]]``.  Counts never come in the
place of ``y_true``: a 2-D array there is an error, not a matrix, and
``y_true`` without ``y_pred`` is an error that names ``y_pred``.

A rate whose denominator is zero returns the value of ``zero_division``
(0 with an :class:`~evalmetrics.arrays.UndefinedMetricWarning` by default),
as in scikit-learn.  The MCC is defined as 0 when its denominator is zero.

The examples use the twelve units at threshold 0.5: TP = 3, FP = 3,
FN = 1, TN = 5.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Literal, NamedTuple

import numpy as np

from . import arrays
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label, ZeroDivision
from .counts import (
    BinaryCounts,
    _binary_counts_from_masks,
    _matrix_from_codes,
    _small_int_matrix,
    _square_matrix,
)

__all__ = [
    "LikelihoodRatios",
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "f1",
    "f_beta",
    "false_positive_rate",
    "likelihood_ratios",
    "matthews_correlation",
    "negative_predictive_value",
    "precision",
    "precision_at_prevalence",
    "recall",
    "specificity",
]

# ---------------------------------------------------------------------------
# input dispatch: label arrays, BinaryCounts or a confusion matrix
# ---------------------------------------------------------------------------

def _check_counts(counts):
    for field in ("tp", "fp", "fn", "tn"):
        value = np.asarray(getattr(counts, field))
        if value.dtype.kind not in "iuf" or not np.all(np.isfinite(value)):
            raise TypeError(f"BinaryCounts.{field} must contain finite numbers")
        if np.any(value < 0):
            raise ValueError(f"BinaryCounts.{field} must be non-negative")
    return counts


def _label_matrix(y_true, y_pred, *, labels=None, sample_weight=None, ratio=False):
    """Validated ``(labels, K x K matrix)`` of two label arrays (internal).

    Rows whose labels are not in ``labels`` are dropped, as in
    scikit-learn's ``confusion_matrix``.  With ``ratio`` (for a metric that
    is a ratio of the counts) the weights are taken at a safe scale.
    """
    y_true, y_pred = arrays.label_pair(y_true, y_pred)
    weights = arrays.sample_weights(sample_weight, len(y_true))
    if ratio:
        weights = scale_free(weights)
    if labels is None:
        fast = _small_int_matrix(y_true, y_pred, weights)
        if fast is not None:
            return fast
    encoded = arrays.encode_labels(y_true, y_pred, labels=labels)
    if weights is not None and encoded.kept is not None:
        weights = weights[encoded.kept]
    n_classes = len(encoded.labels)
    return encoded.labels, _matrix_from_codes(encoded.true_codes, encoded.pred_codes, n_classes, weights)


def _counts_input(y_true, y_pred, counts, *, binary, pos_label=None, labels=None, sample_weight=None,
                  ratio=False, metric="this metric"):
    """Turn any accepted input into counts, validating it once.

    Label arrays come as ``(y_true, y_pred)``, counts alone as ``counts`` (a
    :class:`BinaryCounts` or a K x K confusion matrix): never one for the
    other, so a 2-D array of labels is never read as a matrix.  Returns a
    :class:`BinaryCounts` when ``binary`` is true or when counts were passed;
    otherwise ``(labels, matrix)`` for label arrays and matrices.
    ``ratio``: the metric is a ratio of the counts, so weighted counts are
    summed at a safe scale (:func:`evalmetrics._kernels.weights.scale_free`),
    which no rescaling of the weights can push out of range.
    """
    if counts is not None:
        return _given_counts(y_true, y_pred, counts, binary=binary, pos_label=pos_label, labels=labels,
                             sample_weight=sample_weight, metric=metric)
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        if isinstance(value, BinaryCounts):
            raise TypeError(f"{name} must hold labels, got a BinaryCounts; pass it as {metric}(counts=...)")
    if y_true is None:
        raise TypeError(f"{metric} needs y_true and y_pred (label arrays), or counts=... "
                        "(a BinaryCounts or a confusion matrix)")
    if y_pred is None:
        raise TypeError(f"y_pred is required with y_true: {metric}(y_true, y_pred); counts alone "
                        "(a BinaryCounts or a confusion matrix) go in the keyword counts=")
    if binary:
        is_positive, is_flagged, weights = arrays.binary_pair(
            y_true, y_pred, pos_label=pos_label, sample_weight=sample_weight
        )
        return _binary_counts_from_masks(is_positive, is_flagged, scale_free(weights) if ratio else weights)
    return _label_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight, ratio=ratio)


def _label_arrays(y_true, y_pred):
    """True when both label arguments are given and neither is a BinaryCounts."""
    return not any(value is None or isinstance(value, BinaryCounts) for value in (y_true, y_pred))


def _given_counts(y_true, y_pred, counts, *, binary, pos_label, labels, sample_weight, metric):
    """Validated ``counts=``: a BinaryCounts, or a K x K matrix (2 x 2 for a binary rate)."""
    given = [name for name, value in (("y_true", y_true), ("y_pred", y_pred)) if value is not None]
    if given:
        raise TypeError(f"pass either label arrays or counts, not both: got counts and {' and '.join(given)}")
    options = [name for name, value in (("pos_label", pos_label), ("sample_weight", sample_weight),
                                        ("labels", labels)) if value is not None]
    if options:
        verb = "applies" if len(options) == 1 else "apply"
        raise TypeError(f"{' and '.join(options)} {verb} to label arrays; counts already include them")
    if isinstance(counts, BinaryCounts):
        return _check_counts(counts)
    if isinstance(counts, (str, bytes)) or np.ndim(counts) != 2:
        raise TypeError(f"counts must be a BinaryCounts or a K x K confusion matrix, got "
                        f"{type(counts).__name__}" + (f" of shape {np.shape(counts)}" if np.ndim(counts) else ""))
    matrix = _square_matrix(counts, "counts (a confusion matrix)")
    if not binary:
        return np.arange(len(matrix)), matrix
    if matrix.shape != (2, 2):
        raise ValueError(
            f"{metric} needs two classes, got a {len(matrix)} x {len(matrix)} matrix as counts; "
            "use counts=one_vs_rest(matrix) or per_class_scores for one class against the rest"
        )
    (tn, fp), (fn, tp) = matrix.tolist()
    return BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)


def _undefined(zero_division, what):
    """The value of an undefined ratio (warns when ``zero_division="warn"``)."""
    return arrays.ratio(0.0, 0.0, zero_division=zero_division, what=what)


# ---------------------------------------------------------------------------
# binary rates
# ---------------------------------------------------------------------------

def _binary_rate(numerator, denominator, what):
    name = what.replace(" ", "_")

    def rate(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
             counts: BinaryCounts | ArrayLike | None = None, pos_label: Label | None = None,
             zero_division: ZeroDivision = "warn", sample_weight: ArrayLike | None = None) -> float | np.ndarray:
        arrays.check_zero_division(zero_division)
        c = _counts_input(y_true, y_pred, counts, binary=True, pos_label=pos_label,
                          sample_weight=sample_weight, ratio=True, metric=name)
        return arrays.ratio(numerator(c), denominator(c), zero_division=zero_division, what=what)

    rate.__name__ = rate.__qualname__ = name
    return rate


_RATE_DOC = """{title}: {formula}.

{question}

Parameters
----------
y_true : array_like of shape (n,)
    True labels.
y_pred : array_like of shape (n,)
    Predicted labels.
counts : BinaryCounts or 2 x 2 matrix, optional
    Counts alone, in place of ``y_true`` and ``y_pred``.
pos_label : label, optional
    The positive class; needed unless the labels are {{0, 1}}, {{-1, 1}}
    or booleans.
zero_division : "warn", 0, 1 or np.nan, default "warn"
    Value when {denominator} is zero; "warn" gives 0 and a warning.
sample_weight : array_like of shape (n,), optional

Returns
-------
float (an array for a BinaryCounts of arrays)

Examples
--------
>>> from evalmetrics.worked_example import twelve_units
>>> units = twelve_units()
>>> flagged = units.y_score >= 0.5
>>> round({name}(units.y_true, flagged), 4)
{value}
>>> counts = BinaryCounts(tp=3, fp=3, fn=1, tn=5)
>>> round({name}(counts=counts), 4)
{value}
"""

precision = _binary_rate(lambda c: c.tp, lambda c: c.flagged, "precision")
recall = _binary_rate(lambda c: c.tp, lambda c: c.positives, "recall")
specificity = _binary_rate(lambda c: c.tn, lambda c: c.negatives, "specificity")
false_positive_rate = _binary_rate(lambda c: c.fp, lambda c: c.negatives, "false positive rate")
negative_predictive_value = _binary_rate(lambda c: c.tn, lambda c: c.unflagged,
                                         "negative predictive value")

for _func, _title, _formula, _question, _denominator, _value in (
    (precision, "Precision (positive predictive value)", "TP / (TP + FP)",
     "The share of flagged examples that are positive; blind to missed positives.",
     "TP + FP (nothing flagged)", "0.5"),
    (recall, "Recall (sensitivity, true positive rate)", "TP / (TP + FN)",
     "The share of positives that are flagged; blind to false alarms.",
     "TP + FN (no positives)", "0.75"),
    (specificity, "Specificity (true negative rate)", "TN / (FP + TN)",
     "The share of negatives left alone; blind to missed positives.",
     "FP + TN (no negatives)", "0.625"),
    (false_positive_rate, "False positive rate (1 - specificity)", "FP / (FP + TN)",
     "The share of negatives flagged; blind to missed positives.",
     "FP + TN (no negatives)", "0.375"),
    (negative_predictive_value, "Negative predictive value", "TN / (FN + TN)",
     "The share of examples left alone that are negative; blind to false alarms.",
     "FN + TN (everything flagged)", "0.8333"),
):
    _func.__doc__ = _RATE_DOC.format(title=_title, formula=_formula, question=_question,
                                     denominator=_denominator, name=_func.__name__, value=_value)
    _func.__module__ = __name__
del _func, _title, _formula, _question, _denominator, _value


def _check_beta(beta):
    return arrays.non_negative(beta, "beta")


def _f_beta_from_counts(c, beta, zero_division):
    # The count form (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP) is scikit-learn's
    # and is defined whenever anything is positive or flagged, even when TP = 0.
    beta2 = beta * beta
    numerator = (1.0 + beta2) * np.asarray(c.tp, dtype=float)
    denominator = beta2 * np.asarray(c.positives, dtype=float) + np.asarray(c.flagged, dtype=float)
    return arrays.ratio(numerator, denominator, zero_division=zero_division, what="F-score")


def f_beta(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *, beta: float,
           counts: BinaryCounts | ArrayLike | None = None, pos_label: Label | None = None,
           zero_division: ZeroDivision = "warn", sample_weight: ArrayLike | None = None) -> float:
    """F-beta score: the weighted harmonic mean of precision and recall.

    ``(1 + beta**2) TP / ((1 + beta**2) TP + beta**2 FN + FP)``: a false
    negative weighs ``beta**2`` times a false positive.  ``beta`` > 1
    favours recall, ``beta`` < 1 precision; ``beta = 0`` is precision.

    Parameters
    ----------
    y_true, y_pred
        As in :func:`precision`.
    beta : float, keyword-only, required
        Relative weight of recall (no default, as in scikit-learn).
    counts : BinaryCounts or 2 x 2 matrix, optional
        Counts alone, in place of ``y_true`` and ``y_pred``.
    pos_label : label, optional
        As in :func:`precision`.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value when there are no positives and nothing is flagged.
    sample_weight : array_like of shape (n,), optional
        As in :func:`precision`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> round(f_beta(units.y_true, units.y_score >= 0.5, beta=2), 4)
    0.6818
    >>> counts = BinaryCounts(tp=3, fp=3, fn=1, tn=5)
    >>> round(f_beta(counts=counts, beta=0.5), 4)
    0.5357
    """
    beta = _check_beta(beta)
    arrays.check_zero_division(zero_division)
    c = _counts_input(y_true, y_pred, counts, binary=True, pos_label=pos_label,
                      sample_weight=sample_weight, ratio=True, metric="f_beta")
    return _f_beta_from_counts(c, beta, zero_division)


def f1(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
       counts: BinaryCounts | ArrayLike | None = None, pos_label: Label | None = None,
       zero_division: ZeroDivision = "warn", sample_weight: ArrayLike | None = None) -> float:
    """F1 score, 2 TP / (2 TP + FP + FN): :func:`f_beta` with ``beta=1``.

    Parameters
    ----------
    y_true, y_pred, counts, pos_label, zero_division, sample_weight
        As in :func:`f_beta`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> f1(units.y_true, units.y_score >= 0.5)
    0.6
    """
    arrays.check_zero_division(zero_division)
    c = _counts_input(y_true, y_pred, counts, binary=True, pos_label=pos_label,
                      sample_weight=sample_weight, ratio=True, metric="f1")
    return _f_beta_from_counts(c, 1.0, zero_division)


# ---------------------------------------------------------------------------
# metrics defined for K classes
# ---------------------------------------------------------------------------

def accuracy(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
             counts: BinaryCounts | ArrayLike | None = None, zero_division: ZeroDivision = "warn",
             sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """Share of correct predictions, (TP + TN) / n or trace(C) / n.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    counts : BinaryCounts or K x K matrix, optional
        Counts alone, in place of ``y_true`` and ``y_pred`` (rows actual).
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value when the total (weight) is zero.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float (an array for a BinaryCounts of arrays)

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> round(accuracy(units.y_true, (units.y_score >= 0.5).astype(int)), 4)
    0.6667
    """
    arrays.check_zero_division(zero_division)
    if counts is None and _label_arrays(y_true, y_pred):
        # Comparing the labels directly is cheaper than building the matrix.
        y_true, y_pred = arrays.label_pair(y_true, y_pred)
        weights = scale_free(arrays.sample_weights(sample_weight, len(y_true)))
        correct = y_true == y_pred
        if weights is None:
            return arrays.ratio(np.count_nonzero(correct), len(correct), zero_division=zero_division,
                                what="accuracy")
        return arrays.ratio(weights[correct].sum(), weights.sum(), zero_division=zero_division,
                            what="accuracy")
    # Counts, or the error that names what is missing or misplaced.
    c = _counts_input(y_true, y_pred, counts, binary=False, sample_weight=sample_weight, metric="accuracy")
    if isinstance(c, BinaryCounts):
        return arrays.ratio(c.tp + c.tn, c.total, zero_division=zero_division, what="accuracy")
    matrix = c[1]
    return arrays.ratio(np.trace(matrix), matrix.sum(), zero_division=zero_division, what="accuracy")


def _as_matrix(c):
    """A scalar BinaryCounts as its 2 x 2 matrix; arrays are kept for vectorised formulas."""
    if isinstance(c, BinaryCounts) and np.ndim(c.tp) == 0:
        return np.array([[c.tn, c.fp], [c.fn, c.tp]])
    return c if isinstance(c, BinaryCounts) else c[1]


def balanced_accuracy(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                      counts: BinaryCounts | ArrayLike | None = None, adjusted: bool = False,
                      zero_division: ZeroDivision = "warn",
                      sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """Mean of the per-class recalls; (recall + specificity) / 2 for two classes.

    Classes absent from ``y_true`` (an empty row of the matrix) are left out,
    as in scikit-learn's ``balanced_accuracy_score``.  ``adjusted=True``
    rescales so that chance level is 0 and perfect prediction 1.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    counts : BinaryCounts or K x K matrix, optional
        Counts alone, in place of ``y_true`` and ``y_pred`` (rows actual).
    adjusted : bool, default False
        Rescale so that chance level is 0.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value when no class has any example.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float (an array for a BinaryCounts of arrays)

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> balanced_accuracy(units.y_true, (units.y_score >= 0.5).astype(int))
    0.6875
    """
    adjusted = arrays.boolean(adjusted, "adjusted")
    arrays.check_zero_division(zero_division)
    c = _as_matrix(_counts_input(y_true, y_pred, counts, binary=False, sample_weight=sample_weight,
                                 ratio=True, metric="balanced_accuracy"))
    if isinstance(c, BinaryCounts):
        rows = np.stack([np.asarray(c.negatives, float), np.asarray(c.positives, float)])
        hits = np.stack([np.asarray(c.tn, float), np.asarray(c.tp, float)])
    else:
        rows, hits = c.sum(axis=1).astype(float), np.diag(c).astype(float)
    supported = rows > 0
    n_classes = supported.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall_sum = np.where(supported, hits / np.where(supported, rows, 1.0), 0.0).sum(axis=0)
    score = arrays.ratio(recall_sum, n_classes, zero_division=zero_division, what="balanced accuracy")
    if adjusted:
        chance = arrays.ratio(1.0, n_classes, zero_division=0)
        score = arrays.ratio(score - chance, 1.0 - chance, zero_division=zero_division,
                             what="adjusted balanced accuracy")
    return score


def matthews_correlation(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                         counts: BinaryCounts | ArrayLike | None = None,
                         sample_weight: ArrayLike | None = None) -> float | np.ndarray:
    """The Matthews correlation coefficient, for two or K classes (Gorodkin).

    Two classes: ``(TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))``.
    K classes, with c correct, n total, row totals t and column totals p:
    ``(c n - t.p) / sqrt((n^2 - p.p)(n^2 - t.t))``.  It is 0 when the
    denominator is zero (for example a constant prediction), as in
    scikit-learn.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    counts : BinaryCounts or K x K matrix, optional
        Counts alone, in place of ``y_true`` and ``y_pred`` (rows actual).
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float (an array for a BinaryCounts of arrays)
        In [-1, 1]; 0 when the denominator is zero.

    Examples
    --------
    >>> counts = BinaryCounts(tp=3, fp=3, fn=1, tn=5)
    >>> round(matthews_correlation(counts=counts), 4)
    0.3536
    """
    c = _as_matrix(_counts_input(y_true, y_pred, counts, binary=False, sample_weight=sample_weight,
                                 ratio=True, metric="matthews_correlation"))
    if isinstance(c, BinaryCounts):
        tp, fp, fn, tn = (np.asarray(v, dtype=float) for v in (c.tp, c.fp, c.fn, c.tn))
        covariance = tp * tn - fp * fn
        variance_product = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    else:
        matrix = c.astype(float)
        rows, cols = matrix.sum(axis=1), matrix.sum(axis=0)
        n = rows.sum()
        covariance = np.trace(matrix) * n - rows @ cols
        variance_product = (n * n - cols @ cols) * (n * n - rows @ rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(variance_product == 0, 0.0, covariance / np.sqrt(variance_product))
    return float(value) if value.ndim == 0 else value


def cohen_kappa(y_true: ArrayLike | None = None, y_pred: ArrayLike | None = None, *,
                counts: BinaryCounts | ArrayLike | None = None, labels: ArrayLike | None = None,
                weights: Literal["linear", "quadratic"] | None = None, zero_division: ZeroDivision = "warn",
                sample_weight: ArrayLike | None = None) -> float:
    """Agreement corrected for chance agreement: Cohen's kappa.

    ``kappa = 1 - sum(w * C) / sum(w * E)`` with ``E`` the counts expected
    from the marginal totals, ``E[j, k] = t_j p_k / n``, and disagreement
    weights ``w``: 1 off the diagonal (unweighted), ``|j - k|`` (linear) or
    ``(j - k)**2`` (quadratic), in the order of the classes.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    counts : BinaryCounts or K x K matrix, optional
        Counts alone, in place of ``y_true`` and ``y_pred`` (rows actual).
    labels : array_like, optional
        Classes and their order (which matters for weighted kappa); rows
        with other labels are ignored.  Only with label arrays.
    weights : None, "linear" or "quadratic"
        Disagreement weights (see above); None counts every disagreement as 1.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value when the chance disagreement is zero (one class only).
        scikit-learn's ``cohen_kappa_score`` returns NaN by default there.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.

    Returns
    -------
    float
        1 for perfect agreement, 0 for agreement at chance level.

    Examples
    --------
    >>> round(cohen_kappa(counts=BinaryCounts(tp=3, fp=3, fn=1, tn=5)), 4)
    0.3333
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f'weights must be None, "linear" or "quadratic", got {weights!r}')
    arrays.check_zero_division(zero_division)
    c = _as_matrix(_counts_input(y_true, y_pred, counts, binary=False, labels=labels,
                                 sample_weight=sample_weight, ratio=True, metric="cohen_kappa"))
    if isinstance(c, BinaryCounts):
        # Two classes: every weighting is the same; 2 (TP TN - FN FP) over the chance term.
        tp, fp, fn, tn = (np.asarray(v, dtype=float) for v in (c.tp, c.fp, c.fn, c.tn))
        numerator = 2.0 * (tp * tn - fn * fp)
        denominator = (tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)
        return arrays.ratio(numerator, denominator, zero_division=zero_division, what="Cohen's kappa")
    matrix = c.astype(float)
    n = matrix.sum()
    if n == 0:
        return _undefined(zero_division, "Cohen's kappa")
    expected = np.outer(matrix.sum(axis=1), matrix.sum(axis=0)) / n
    index = np.arange(len(matrix))
    distance = np.abs(index[:, None] - index[None, :]).astype(float)
    if weights is None:
        weight = (distance > 0).astype(float)
    else:
        weight = distance if weights == "linear" else distance**2
    chance_disagreement = np.sum(weight * expected)
    if chance_disagreement == 0:
        return _undefined(zero_division, "Cohen's kappa")
    return float(1.0 - np.sum(weight * matrix) / chance_disagreement)


# ---------------------------------------------------------------------------
# precision at another prevalence
# ---------------------------------------------------------------------------

def precision_at_prevalence(tpr: ArrayLike, fpr: ArrayLike, prevalence: ArrayLike, *,
                            zero_division: ZeroDivision = "warn") -> float | np.ndarray:
    """Precision of a classifier with rates ``tpr``, ``fpr`` at prevalence pi (Bayes' rule).

    ``precision = tpr pi / (tpr pi + fpr (1 - pi))``.  Arguments broadcast.

    Parameters
    ----------
    tpr, fpr : float or array_like in [0, 1]
        True and false positive rates, which do not depend on the prevalence.
    prevalence : float or array_like in [0, 1]
        Share of positives.
    zero_division : "warn", 0, 1 or np.nan, default "warn"
        Value when nothing would be flagged.

    Returns
    -------
    float or ndarray

    Examples
    --------
    Recall 0.75 and false positive rate 0.375 of the twelve units, at their
    own prevalence 1/3 and at 1 %:

    >>> precision_at_prevalence(0.75, 0.375, 1 / 3)
    0.5
    >>> round(precision_at_prevalence(0.75, 0.375, 0.01), 4)
    0.0198
    """
    arrays.check_zero_division(zero_division)
    values = []
    for name, value in (("tpr", tpr), ("fpr", fpr), ("prevalence", prevalence)):
        array = arrays.real_array(value, name)
        if not np.all(np.isfinite(array)) or np.any((array < 0) | (array > 1)):
            raise ValueError(f"{name} must lie in [0, 1]")
        values.append(array)
    tpr, fpr, prevalence = values
    flagged_positive = tpr * prevalence
    return arrays.ratio(flagged_positive, flagged_positive + fpr * (1.0 - prevalence),
                        zero_division=zero_division, what="precision")


# ---------------------------------------------------------------------------
# likelihood ratios
# ---------------------------------------------------------------------------

class LikelihoodRatios(NamedTuple):
    """The positive and negative likelihood ratios of one decision rule.

    Attributes
    ----------
    positive : float
        LR+ = TPR / FPR: how many times more often a positive is flagged
        than a negative.
    negative : float
        LR- = FNR / TNR = (1 - TPR) / (1 - FPR): how many times more often a
        positive is left alone than a negative.
    """

    positive: float
    negative: float


def _replacements(replace_undefined_by):
    """The values of an undefined LR+ and LR-, checked as scikit-learn 1.9 checks them."""
    if isinstance(replace_undefined_by, dict):
        if set(replace_undefined_by) != {"LR+", "LR-"}:
            raise ValueError('replace_undefined_by must be np.nan, 1.0 or a dict with the keys "LR+" and '
                             f'"LR-", got the keys {sorted(map(str, replace_undefined_by))}')
        values = []
        for key, low, high in (("LR+", 1.0, math.inf), ("LR-", 0.0, 1.0)):
            value = replace_undefined_by[key]
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
                raise TypeError(f'replace_undefined_by["{key}"] must be a real number, '
                                f"got {type(value).__name__}")
            value = float(value)
            if not (math.isnan(value) or low <= value <= high):
                raise ValueError(f'replace_undefined_by["{key}"] must lie in [{low:g}, {high:g}] or be NaN, '
                                 f"got {value!r}")
            values.append(value)
        return tuple(values)
    if (isinstance(replace_undefined_by, (bool, np.bool_)) or not isinstance(replace_undefined_by, numbers.Real)
            or not (math.isnan(replace_undefined_by) or replace_undefined_by == 1.0)):
        raise ValueError('replace_undefined_by must be np.nan, 1.0 or a dict {"LR+": value, "LR-": value}, '
                         f"got {replace_undefined_by!r}")
    value = float(replace_undefined_by)
    return value, value


def _likelihood_ratio(numerator, rate_denominator, positives, negatives, replacement, what, why):
    """``(numerator / P) / (rate_denominator / N)``, or ``replacement`` / NaN with a warning."""
    if rate_denominator == 0 or positives == 0:
        reason = why if rate_denominator == 0 else "y_true has no positives"
        warnings.warn(f"the {what} likelihood ratio is undefined ({reason}); it is set to "
                      f"{replacement if rate_denominator == 0 else math.nan}",
                      arrays.UndefinedMetricWarning, stacklevel=3)
        return replacement if rate_denominator == 0 else math.nan
    return float(numerator * negatives / (rate_denominator * positives))


def likelihood_ratios(y_true: ArrayLike, y_pred: ArrayLike, *, pos_label: Label | None = None,
                      sample_weight: ArrayLike | None = None,
                      replace_undefined_by: float | dict[str, float] = np.nan) -> LikelihoodRatios:
    """The positive and negative likelihood ratios, LR+ = TPR / FPR and LR- = FNR / TNR.

    A likelihood ratio turns the odds of being positive before the decision
    into the odds after it (Bayes' rule in odds form): posterior odds = LR+
    x prior odds for a flagged example, LR- x prior odds for one left
    alone.  Both are functions of the true and false positive rates only,
    so, unlike precision, they do not move with the prevalence.

    The result equals scikit-learn's ``class_likelihood_ratios`` (with
    ``labels=[negative, pos_label]``), its undefined cases included.  A ratio
    whose denominator rate is zero (no false positive for LR+, no true
    negative for LR-) is undefined: it gets ``replace_undefined_by`` and an
    :class:`~evalmetrics.arrays.UndefinedMetricWarning`.  Without any
    positive both rates are undefined; the ratio is then NaN with the
    warning, unless its own denominator is zero too, when scikit-learn 1.9
    and this function give the replacement.  Unlike the rates of this module
    the default is NaN, not ``zero_division``'s 0: an LR- of 0 would mean a
    perfect negative result, and 0 is no possible LR+ of an undefined rate.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_pred : array_like of shape (n,)
        Predicted labels.
    pos_label : label, optional
        The positive class; needed unless the labels are {0, 1}, {-1, 1}
        or booleans.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights.
    replace_undefined_by : np.nan, 1.0 or dict, default np.nan
        Value of an undefined ratio, as in scikit-learn: NaN; 1.0 for both
        (a useless test); or ``{"LR+": a, "LR-": b}`` with ``a`` in
        [1, inf] or NaN and ``b`` in [0, 1] or NaN.  The warning is given
        whatever the value, as scikit-learn gives it.

    Returns
    -------
    LikelihoodRatios
        ``(positive, negative)``; unpacks like scikit-learn's tuple.

    Examples
    --------
    The twelve units at threshold 0.5 (TPR 3/4, FPR 3/8):

    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> likelihood_ratios(units.y_true, units.y_score >= 0.5)
    LikelihoodRatios(positive=2.0, negative=0.4)
    """
    lr_plus_if_undefined, lr_minus_if_undefined = _replacements(replace_undefined_by)
    is_positive, is_flagged, weights = arrays.binary_pair(y_true, y_pred, pos_label=pos_label,
                                                          sample_weight=sample_weight)
    c = _binary_counts_from_masks(is_positive, is_flagged, scale_free(weights))
    positives, negatives = c.tp + c.fn, c.fp + c.tn
    return LikelihoodRatios(
        _likelihood_ratio(c.tp, c.fp, positives, negatives, lr_plus_if_undefined, "positive",
                          "no false positives: FPR = 0"),
        _likelihood_ratio(c.fn, c.tn, positives, negatives, lr_minus_if_undefined, "negative",
                          "no true negatives: TNR = 0"),
    )
