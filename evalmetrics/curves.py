"""Every threshold at once: the threshold table, ROC, precision-recall and DET curves.

:func:`threshold_table` is the single primitive.  It sorts the scores once,
lowers the threshold through the distinct scores in decreasing order and
records the true and false positives after each step.  A group of tied
scores enters in one step, because no threshold can separate tied examples.
Every curve and area of this module and of :mod:`evalmetrics.costs` and
:mod:`evalmetrics.budgets` is read off that table, the partial AUC
(``roc_auc(..., max_fpr=)``) and the other definitions of the average
precision (``average_precision(..., method=)``) included.  :func:`roc_auc` without weights skips the table: it reads
the Mann-Whitney count off the same single sort.  The computations on
clean input live in ``evalmetrics._kernels`` (the sort keys and the
table in ``sorting``, the AUC and the average precision in ``auc``); a score
matrix of several classes is averaged over classes or pairs of classes by
:mod:`evalmetrics.ranking`.

The worked example in every docstring is the twelve units of
:func:`evalmetrics.worked_example.twelve_units`: scores 0.95 ... 0.10, units
1, 3, 5 and 8 faulty, units 7 and 8 tied at 0.40.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import arrays
from . import ranking as _ranking
from ._kernels import auc as _auc
from ._kernels.bootstrap_auc import auc_engine
from ._kernels.sorting import _EXACT_INTEGERS, integer_ranks, matrix_ranks, score_table, weighted_score_table
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .arrays import UndefinedMetricWarning
from .counts import BinaryCounts

__all__ = [
    "DetCurve",
    "PrecisionRecallCurve",
    "RocCurve",
    "ThresholdTable",
    "average_precision",
    "det_curve",
    "precision_at_recall",
    "precision_recall_curve",
    "recall_at_false_positive_rate",
    "roc_auc",
    "roc_curve",
    "threshold_table",
]


@dataclass(frozen=True, eq=False)
class ThresholdTable:
    """Counts at every distinct score, in decreasing order of threshold.

    Row ``i`` describes the decision "flag every example whose score is at
    least ``thresholds[i]``".  Counts are int64, or float64 sums of weights
    when sample weights were given.  (Equality is identity: the fields are
    arrays.)

    Attributes
    ----------
    thresholds : ndarray
        The distinct scores, strictly decreasing: float64, or the scores'
        own type where float64 would merge distinct scores (int64 or uint64
        beyond 2**53, Python integers in an object array, ``np.longdouble``),
        so that flagging the scores at least ``thresholds[i]`` gives row
        ``i``'s counts exactly.
    true_positives, false_positives : ndarray
        Cumulative counts, non-decreasing.
    positives, negatives : int or float
        P and N, the totals of the two classes.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> table = threshold_table(units.y_true, units.y_score)
    >>> len(table), table.positives, table.negatives
    (11, 4, 8)
    >>> table.true_positives
    array([1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 4])
    >>> table.false_positives
    array([0, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8])
    """

    thresholds: np.ndarray
    true_positives: np.ndarray
    false_positives: np.ndarray
    positives: int | float
    negatives: int | float

    def __len__(self):
        return len(self.thresholds)

    @property
    def false_negatives(self) -> np.ndarray:
        """FN = P - TP at each threshold."""
        return self.positives - self.true_positives

    @property
    def true_negatives(self) -> np.ndarray:
        """TN = N - FP at each threshold."""
        return self.negatives - self.false_positives

    @property
    def true_positive_rate(self) -> np.ndarray:
        """TP / P; NaN (with a warning) when there are no positives."""
        return _rate(self.true_positives, self.positives, _TPR)

    recall = true_positive_rate

    @property
    def false_positive_rate(self) -> np.ndarray:
        """FP / N; NaN (with a warning) when there are no negatives."""
        return _rate(self.false_positives, self.negatives, _FPR)

    @property
    def precision(self) -> np.ndarray:
        """TP / (TP + FP).  Never 0/0: every row flags at least one example."""
        return self.true_positives / (self.true_positives + self.false_positives)

    @property
    def counts(self) -> BinaryCounts:
        """The four counts as a :class:`~evalmetrics.counts.BinaryCounts` of arrays."""
        return BinaryCounts(
            tp=self.true_positives, fp=self.false_positives,
            fn=self.false_negatives, tn=self.true_negatives,
        )


class RocCurve(NamedTuple):
    """ROC points, starting at (0, 0) for the threshold +inf.

    Attributes
    ----------
    false_positive_rate, true_positive_rate : ndarray
        The points, non-decreasing.
    thresholds : ndarray
        ``inf``, then the distinct scores in decreasing order: float64, or
        the scores' own type as in :class:`ThresholdTable` (Python integers
        in an object array for integers beyond 2**53).
    """

    false_positive_rate: np.ndarray
    true_positive_rate: np.ndarray
    thresholds: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """Precision and recall at each distinct score, in decreasing order of threshold.

    Attributes
    ----------
    precision, recall : ndarray
        One point per distinct score.
    thresholds : ndarray
        The distinct scores in decreasing order.
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


class DetCurve(NamedTuple):
    """Detection error tradeoff points: both error rates, thresholds increasing.

    Attributes
    ----------
    false_positive_rate, false_negative_rate : ndarray
        The two error rates of flagging the scores at least each threshold:
        FP / N decreasing, FN / P increasing.
    thresholds : ndarray
        Increasing, from the lowest threshold at which every positive is
        flagged to the highest at which no negative is (``inf`` when even
        the highest score is a negative's).
    """

    false_positive_rate: np.ndarray
    false_negative_rate: np.ndarray
    thresholds: np.ndarray


# ---------------------------------------------------------------------------
# private computing functions (clean input assumed)
# ---------------------------------------------------------------------------

_TPR, _FPR = "true positive rate (no positives)", "false positive rate (no negatives)"


def _rate(counts, total, what, out=None):
    """counts / total, or NaN with a warning when total is 0; into ``out`` if given
    (the curves write their columns straight into the arrays they return)."""
    if total == 0:
        warnings.warn(f"{what} is undefined and set to NaN", UndefinedMetricWarning, stacklevel=3)
        if out is None:
            return np.full(np.shape(counts), np.nan)
        out[...] = np.nan
        return out
    return np.divide(counts, total, out=out)


def _refuse_zero_weights(weights):
    # Rows of weight zero are dropped, as scikit-learn does; none may be left.
    if weights is not None and not np.any(weights):
        raise ValueError("sample_weight is zero for every row")


def _threshold_table(is_positive, values, weights=None, distinct=None, dtype=None):
    """The table; with ``distinct`` the values are ranks of those scores, which the
    thresholds report in their own type.  ``dtype``: the scores' own type, which
    integer scores (exact in float64 below 2**53) get back."""
    _refuse_zero_weights(weights)
    if weights is None:
        thresholds, tp, fp = score_table(values, is_positive)
        positives, negatives = int(tp[-1]), int(fp[-1])
    else:
        thresholds, _, _, tp, fp = weighted_score_table(values, is_positive, weights)
        positives, negatives = float(tp[-1]), float(fp[-1])
    if distinct is not None:
        thresholds = distinct[thresholds.astype(np.intp)]
    elif dtype is not None and dtype.kind in "iu":
        thresholds = thresholds.astype(dtype)
    for column in (thresholds, tp, fp):
        column.flags.writeable = False
    return ThresholdTable(thresholds, tp, fp, positives, negatives)


def _ratio_table(y_true, y_score, pos_label, sample_weight):
    """The validated table of a curve or metric made of ratios of its counts.

    The weights are taken at a safe scale (exact: a power of two), so the
    rates are the same for weights at any scale, where the cumulative sums
    of weights near the float limit would overflow.
    """
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _threshold_table(is_positive, values, scale_free(weights), distinct, _dtype(y_score))


def _dtype(y_score):
    """The dtype of the scores as ``integer_ranks`` left them (None for what validation refuses)."""
    return y_score.dtype if isinstance(y_score, np.ndarray) else None


def _after_infinity(thresholds):
    """``inf`` followed by the thresholds: in their type if it holds infinity (floats), in
    float64 for integers it holds exactly, else as Python numbers in an object array
    (integers beyond 2**53 stay exact)."""
    dtype = thresholds.dtype
    if dtype.kind in "iu":
        exact = not len(thresholds) or (-_EXACT_INTEGERS <= int(thresholds.min())
                                        and int(thresholds.max()) <= _EXACT_INTEGERS)
        dtype = np.dtype(np.float64) if exact else np.dtype(object)
    elif dtype.kind != "f":
        dtype = np.dtype(object)
    extended = np.empty(len(thresholds) + 1, dtype=dtype)
    extended[0] = np.inf
    extended[1:] = thresholds
    return extended


def _threshold_value(threshold):
    """One threshold as a result field: a Python float for float64 (and +inf),
    else the score in its own type (np.longdouble, np.int64, a Python int)."""
    if isinstance(threshold, float | np.float64) or (isinstance(threshold, np.floating)
                                                     and math.isinf(threshold)):
        return float(threshold)
    return threshold


def _one_class_warning(what):
    warnings.warn(
        f"only one class is present in y_true; {what} is undefined and set to NaN",
        UndefinedMetricWarning, stacklevel=3,
    )


def _roc_auc(is_positive, values, weights=None):
    """Area under the staircase: every negative earns the positives above it, ties half."""
    _refuse_zero_weights(weights)
    value = _auc.roc_auc(is_positive, values, weights)
    if value != value:  # NaN: a class is empty
        _one_class_warning("the ROC AUC")
    return value


def _average_precision(table):
    if table.positives == 0:
        _one_class_warning("average precision (no positives)")
        return float("nan")
    recall_gain = np.diff(table.true_positives, prepend=0) / table.positives
    return float(np.sum(recall_gain * table.precision))


def _check_rate(value, name):
    return arrays.probability(value, name, open_interval=False)


_MULTI_CLASS = ("ovr", "ovo")
_AP_METHODS = ("step", "interpolated", "11-point", "101-point")
# The recall levels of the methods that average the interpolated precision.
_AP_LEVELS = {"11-point": 10, "101-point": 100}


def _check_choice(value, name, choices):
    if not any(value is choice or (isinstance(value, str) and value == choice) for choice in choices):
        shown = ", ".join(repr(choice) for choice in choices)
        raise ValueError(f"{name} must be one of {shown}, got {value!r}")
    return value


def _is_matrix(y_score):
    """True for a score matrix of two or more columns (a column vector is one score per row)."""
    shape = getattr(y_score, "shape", None)
    if shape is None and isinstance(y_score, (list, tuple)) and len(y_score) \
            and isinstance(y_score[0], (list, tuple, np.ndarray)):
        try:
            shape = np.shape(y_score)
        except ValueError:  # ragged: validation names the problem
            return False
    # More than two dimensions goes this way too, to be refused as not a matrix.
    return shape is not None and len(shape) >= 2 and not (len(shape) == 2 and shape[1] == 1)


def _partial_roc_auc(table, max_fpr):
    """McClish's standardised area under the ROC points up to ``max_fpr`` (in (0, 1))."""
    if table.positives == 0 or table.negatives == 0:
        _one_class_warning("the partial ROC AUC")
        return float("nan")
    fpr = np.r_[0.0, table.false_positives / table.negatives]
    tpr = np.r_[0.0, table.true_positives / table.positives]
    # The last point with FPR <= max_fpr and the next one (FPR ends at 1 > max_fpr); the curve is
    # cut between them by linear interpolation, as scikit-learn does.
    stop = int(np.searchsorted(fpr, max_fpr, side="right"))
    height = np.interp(max_fpr, fpr[stop - 1:stop + 1], tpr[stop - 1:stop + 1])
    x, y = np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], height]
    area = float(np.sum(np.diff(x) * (y[1:] + y[:-1])) / 2)
    chance, perfect = max_fpr * max_fpr / 2, max_fpr
    return 0.5 * (1 + (area - chance) / (perfect - chance))


def _interpolated_ap(table, method):
    """AP read off the interpolated precision: the best precision at the recall or beyond."""
    recall, precision = table.recall, table.precision
    # Interpolated precision, non-increasing in recall: a running maximum from the far end.
    best = np.maximum.accumulate(precision[::-1])[::-1]
    if method == "interpolated":
        gain = np.diff(table.true_positives, prepend=0) / table.positives
        return float(np.sum(gain * best))
    n = _AP_LEVELS[method]
    # Exact tenths (hundredths): k / n is correctly rounded, like TP / P, so a recall equal to a
    # level compares equal.
    levels = np.arange(n + 1) / n
    first = np.searchsorted(recall, levels, side="left")  # first row whose recall reaches the level
    reached = first < len(recall)
    return float(np.sum(best[first[reached]]) / (n + 1))


def _binary_average_precision(is_positive, values, weights, method="step"):
    if method == "step":
        value = _auc.average_precision(values, is_positive) if weights is None else None
        if value is None or value != value:
            # The sign split, weights, or no positives (the table path warns).
            value = _average_precision(_threshold_table(is_positive, values, scale_free(weights)))
        return value
    table = _threshold_table(is_positive, values, scale_free(weights))
    if table.positives == 0:
        _one_class_warning("average precision (no positives)")
        return float("nan")
    return _interpolated_ap(table, method)


def _quiet_binary(function):
    """A binary metric of clean columns that returns NaN without a warning (the caller warns)."""
    def binary(is_positive, values, weights):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return function(is_positive, values, weights)
    return binary


def _matrix_input(y_true, y_score, pos_label, sample_weight, labels=None):
    if pos_label is not None:
        raise ValueError("pos_label applies to two classes and a 1-D y_score; a score matrix has one column "
                         "per class, named by labels")
    scores = arrays.score_matrix(matrix_ranks(y_score), "y_score")
    columns = arrays.class_columns(y_true, scores.shape[1], labels=labels)
    arrays.same_length(y_true=columns.codes, y_score=scores)
    weights = scale_free(arrays.sample_weights(sample_weight, len(scores)))
    _refuse_zero_weights(weights)
    return columns, scores, weights


def _multiclass_roc_auc(y_true, y_score, pos_label, sample_weight, max_fpr, multi_class, average, labels):
    if multi_class is None:
        raise ValueError(f"y_score has shape {np.shape(y_score)}: pass a 1-D array of scores for two classes, "
                         "or multi_class='ovr' or 'ovo' for a score matrix (one column per class)")
    multi_class = _check_choice(multi_class, "multi_class", _MULTI_CLASS)
    if max_fpr is not None:
        raise ValueError("max_fpr (the partial AUC) is defined for two classes only, not for a score matrix")
    if multi_class == "ovo":
        _check_choice(average, "average", _ranking.ONE_VS_ONE_AVERAGES)
        if sample_weight is not None:
            raise ValueError("sample_weight is not supported with multi_class='ovo' (nor by scikit-learn)")
    else:
        _check_choice(average, "average", _ranking.ONE_VS_REST_AVERAGES)
    columns, scores, weights = _matrix_input(y_true, y_score, pos_label, sample_weight, labels)
    binary = _quiet_binary(_roc_auc)
    if multi_class == "ovo":
        return _ranking._one_vs_one(binary, columns, scores, average, "ROC AUC")
    return _ranking._one_vs_rest(binary, columns, scores, weights, average, "ROC AUC")


def _multiclass_average_precision(y_true, y_score, pos_label, sample_weight, average, method):
    _check_choice(average, "average", _ranking.ONE_VS_REST_AVERAGES)
    if np.shape(y_score)[1] == 2:
        raise ValueError(f"y_score has shape {np.shape(y_score)}: for two classes pass a 1-D array, the scores "
                         "of the positive class; a score matrix is for three classes or more")
    columns, scores, weights = _matrix_input(y_true, y_score, pos_label, sample_weight)

    def binary(is_positive, values, weights):
        return _binary_average_precision(is_positive, values, weights, method)

    return _ranking._one_vs_rest(_quiet_binary(binary), columns, scores, weights, average,
                                 "average precision")


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

# The parameters every public function shares, spliced into the docstrings
# below (where they say {shared}, or {data} and {options} around a function's
# own argument, in the order of the signature) so the seven descriptions
# cannot drift apart.
_DATA = """Parameters
    ----------
    y_true : array_like of shape (n,)
        True binary labels.  {0, 1}, {-1, 1} and booleans need no
        ``pos_label``; other labels do.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive."""
_OPTIONS = """pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights; rows of weight zero are ignored."""
_SHARED = _DATA + "\n    " + _OPTIONS


def threshold_table(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
                    sample_weight: ArrayLike | None = None) -> ThresholdTable:
    """True and false positives at every distinct score (decreasing).

    {shared}

    Returns
    -------
    ThresholdTable

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> table = threshold_table(units.y_true, units.y_score)
    >>> table.thresholds[:4]
    array([0.95, 0.85, 0.8 , 0.7 ])
    >>> table.precision.round(4)[:4]
    array([1.    , 0.5   , 0.6667, 0.5   ])
    """
    y_score, distinct = integer_ranks(y_score)
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _threshold_table(is_positive, values, weights, distinct, _dtype(y_score))


def roc_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
              sample_weight: ArrayLike | None = None) -> RocCurve:
    """The ROC curve: one point per distinct score, after (0, 0) at +inf.

    Equal to ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``,
    whose first threshold is also ``inf``.

    {shared}

    Returns
    -------
    RocCurve
        ``(false_positive_rate, true_positive_rate, thresholds)``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = roc_curve(units.y_true, units.y_score)
    >>> curve.false_positive_rate[5:8], curve.true_positive_rate[5:8]
    (array([0.25 , 0.375, 0.5  ]), array([0.75, 0.75, 1.  ]))
    >>> curve.thresholds[:2]
    array([ inf, 0.95])
    """
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    # Each column is written once into its final array, behind the point at +inf.
    # An undefined rate (one class) is NaN at +inf too, as in scikit-learn.
    fpr, tpr = (np.empty(len(table) + 1) for _ in range(2))
    _rate(table.false_positives, table.negatives, _FPR, out=fpr[1:])
    _rate(table.true_positives, table.positives, _TPR, out=tpr[1:])
    fpr[0], tpr[0] = fpr[1] * 0.0, tpr[1] * 0.0
    return RocCurve(fpr, tpr, _after_infinity(table.thresholds))


def roc_auc(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
            sample_weight: ArrayLike | None = None, max_fpr: float | None = None,
            multi_class: str | None = None, average: str | None = "macro",
            labels: ArrayLike | None = None) -> float | np.ndarray:
    """Area under the ROC curve, ties counted one half; of part of it; of several classes.

    Equals the probability that a random positive scores above a random
    negative (ties one half), ``sklearn.metrics.roc_auc_score``.  Without
    weights it is an exact integer count divided by P N.

    With ``max_fpr`` it is the standardised partial area over false
    positive rates up to ``max_fpr`` (McClish's correction, as in
    scikit-learn): the raw area ``A`` under the curve from 0 to ``max_fpr``
    (the curve cut by linear interpolation at ``max_fpr``) is mapped to
    ``(1 + (A - m) / (M - m)) / 2``, where ``m = max_fpr**2 / 2`` is the area
    under the chance diagonal and ``M = max_fpr`` the largest possible, so
    that a random ranking scores 0.5 and a perfect one 1.

    With a score matrix (one column per class) and ``multi_class``, it is
    an average of binary AUCs.  ``"ovr"``: each class against the rest,
    scored by its column, averaged over the classes (``average="macro"``),
    by their sizes (``"weighted"``), pooled over every (row, class) cell
    (``"micro"``), or not at all (None, one AUC per class).  ``"ovo"``: each
    pair of classes a, b present in ``y_true``, ``(A(a|b) + A(b|a)) / 2``
    where ``A(a|b)`` is the AUC of column a between the rows of a and b,
    averaged over the pairs (``"macro"``: Hand and Till's M) or by their
    share of the rows (``"weighted"``).  scikit-learn also requires the rows
    of the matrix to sum to 1; only each column's order matters here.

    {data}
        For several classes: an array of shape (n, n_classes).
    {options}
        Not with ``multi_class="ovo"`` (as in scikit-learn).
    max_fpr : float in (0, 1], optional
        Two classes only: the standardised partial AUC up to this false
        positive rate.  1 gives the whole AUC.
    multi_class : {"ovr", "ovo"}, optional
        Required when ``y_score`` is a score matrix; ignored otherwise.
    average : {"macro", "weighted", "micro", None}, default "macro"
        For a score matrix: how the binary AUCs are combined (``"micro"``
        and None with ``"ovr"`` only).
    labels : array_like, optional
        For a score matrix: the class of each column, in the order of the
        columns (default: the sorted labels of ``y_true``, one per column).
        A listed class absent from ``y_true`` gets NaN with ``"ovr"``.

    Returns
    -------
    float or ndarray
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is
        present; an array of per-class AUCs for ``average=None``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> roc_auc(units.y_true, units.y_score)  # 25.5 / 32
    0.796875
    >>> y, s = units.y_true, units.y_score
    >>> round(roc_auc(y, s, max_fpr=0.25), 4)  # 9 / 14
    0.6429
    """
    # multi_class asks for a matrix: what has no shape at all is refused as one.
    if _is_matrix(y_score) or (multi_class is not None and not hasattr(y_score, "__len__")) \
            or (multi_class is not None and isinstance(y_score, (str, bytes, set, frozenset, dict))):
        return _multiclass_roc_auc(y_true, y_score, pos_label, sample_weight, max_fpr, multi_class, average,
                                   labels)
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    if multi_class is not None:
        _check_choice(multi_class, "multi_class", _MULTI_CLASS)
    if max_fpr is None:
        return _roc_auc(is_positive, values, weights)
    max_fpr = arrays.real(max_fpr, "max_fpr", low=0.0, high=1.0, low_open=True)
    if max_fpr == 1.0:
        return _roc_auc(is_positive, values, weights)
    return _partial_roc_auc(_threshold_table(is_positive, values, scale_free(weights)), max_fpr)


def precision_recall_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
                           sample_weight: ArrayLike | None = None) -> PrecisionRecallCurve:
    """Precision and recall at every distinct score, in decreasing order.

    ``sklearn.metrics.precision_recall_curve`` returns the same rows in
    increasing order of threshold and appends one extra point, recall 0
    and precision 1, with no threshold.  So ``precision[::-1]`` equals its
    ``precision[:-1]``, likewise for recall, and ``thresholds[::-1]`` its
    ``thresholds``.  At +inf precision is 0/0, so this curve has no point
    there.

    {shared}

    Returns
    -------
    PrecisionRecallCurve
        ``(precision, recall, thresholds)``.  Recall is NaN (with a
        warning) if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = precision_recall_curve(units.y_true, units.y_score)
    >>> curve.precision[:7].round(4)
    array([1.    , 0.5   , 0.6667, 0.5   , 0.6   , 0.5   , 0.5   ])
    >>> curve.recall[:7]
    array([0.25, 0.25, 0.5 , 0.5 , 0.75, 0.75, 1.  ])
    """
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    tp = table.true_positives
    # Written straight into the outputs: the flagged count, then precision over it.
    precision = np.add(tp, table.false_positives, out=np.empty(len(table)), casting="unsafe")
    np.divide(tp, precision, out=precision)
    recall = _rate(tp, table.positives, _TPR, out=np.empty(len(table)))
    return PrecisionRecallCurve(precision, recall, table.thresholds.copy())


def average_precision(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
                      sample_weight: ArrayLike | None = None, average: str | None = "macro",
                      method: str = "step") -> float | np.ndarray:
    """Average precision: the sum over thresholds of recall gain times precision.

    A step sum, not the trapezoidal area; equals
    ``sklearn.metrics.average_precision_score``.  Tied scores enter as one
    threshold.  ``method`` chooses among the other definitions met in
    practice, each read off the same precision-recall points:

    * ``"step"``: ``sum_k (R_k - R_(k-1)) P_k`` over the rows where recall
      rises, with the precision ``P_k`` reached there (scikit-learn).
    * ``"interpolated"``: the same sum with the *interpolated* precision,
      the highest precision at recall ``R_k`` or beyond; the all-point
      interpolation of PASCAL VOC from 2010 on.  Never below ``"step"``.
    * ``"11-point"``: the mean of the interpolated precision at the recalls
      0, 0.1, ..., 1 (0 where no threshold reaches the recall); PASCAL VOC
      2007.  The levels are the exact tenths: the widely copied Python
      transcription steps through ``np.arange(0, 1.1, 0.1)``, whose fourth
      level is 0.30000000000000004, and so misses a recall of exactly 0.3.
    * ``"101-point"``: the same at the recalls 0, 0.01, ..., 1; COCO.

    With a score matrix of three classes or more (one column per class,
    the sorted labels of ``y_true``), the classes are scored one against the rest and averaged
    as ``average`` says: ``"macro"`` (every class once), ``"weighted"`` (by
    the classes' sizes), ``"micro"`` (one AP over every (row, class) cell)
    or None (one AP per class), as ``average_precision_score`` does with
    ``y_true`` binarised.

    {data}
        For several classes: an array of shape (n, n_classes).
    {options}
    average : {"macro", "weighted", "micro", None}, default "macro"
        For a score matrix only.
    method : {"step", "interpolated", "11-point", "101-point"}, default "step"

    Returns
    -------
    float or ndarray
        NaN, with an :class:`UndefinedMetricWarning`, if there are no positives;
        an array of per-class values for ``average=None``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> round(average_precision(y, s), 4)  # 83 / 120
    0.6917
    >>> average_precision(y, s, method="11-point")  # 7.7 / 11
    0.7
    """
    method = _check_choice(method, "method", _AP_METHODS)
    if _is_matrix(y_score):
        return _multiclass_average_precision(y_true, y_score, pos_label, sample_weight, average, method)
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _binary_average_precision(is_positive, values, weights, method)


def precision_at_recall(y_true: ArrayLike, y_score: ArrayLike, recall: float, *, pos_label: Label | None = None,
                        sample_weight: ArrayLike | None = None) -> float:
    """Precision at the highest threshold whose recall reaches ``recall``.

    Lower the threshold through the distinct scores until the recall first
    is at least the target; return the precision there.  This is the
    operating point a screening rule "catch a share ``recall`` of the
    positives" would use.  It is not the interpolated precision (the best
    precision at any recall at least the target), which can be larger on
    the sawtooth.

    {data}
    recall : float in [0, 1]
        Target recall.  0 gives the precision at the highest score.
    {options}

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> precision_at_recall(y, s, 0.75)  # threshold 0.65: 3 / 5
    0.6
    """
    target = _check_rate(recall, "recall")
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    if table.positives == 0:
        _one_class_warning("precision at a recall (no positives)")
        return float("nan")
    # Recall is non-decreasing down the table and reaches 1 in the last row.
    row = int(np.searchsorted(table.recall, target, side="left"))
    return float(table.precision[min(row, len(table) - 1)])


def recall_at_false_positive_rate(y_true: ArrayLike, y_score: ArrayLike, false_positive_rate: float, *,
                                  pos_label: Label | None = None, sample_weight: ArrayLike | None = None) -> float:
    """The largest recall among thresholds whose false positive rate is at most the target.

    The infinite threshold (recall 0, false positive rate 0) always
    qualifies.  A tied group that would carry the false positive rate past
    the target is excluded whole: no threshold can take half of it.

    {data}
    false_positive_rate : float in [0, 1]
        The largest acceptable false positive rate.
    {options}

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> recall_at_false_positive_rate(y, s, 0.25)  # threshold 0.65
    0.75
    >>> recall_at_false_positive_rate(y, s, 0.45)  # 0.40 needs 0.5
    0.75
    """
    target = _check_rate(false_positive_rate, "false_positive_rate")
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    if table.positives == 0 or table.negatives == 0:
        _one_class_warning("recall at a false positive rate")
        return float("nan")
    rows = int(np.searchsorted(table.false_positive_rate, target, side="right"))
    return float(table.recall[rows - 1]) if rows else 0.0


def det_curve(y_true: ArrayLike, y_score: ArrayLike, *, pos_label: Label | None = None,
              sample_weight: ArrayLike | None = None) -> DetCurve:
    """The detection error tradeoff (DET) curve: false negative against false positive rate.

    The same arrays as ``sklearn.metrics.det_curve``, in its order
    (increasing thresholds): the points from the last threshold that flags
    no negative to the first that flags every positive, the stretches
    where one error rate is already 0 left out.  Plotted on normal-deviate
    axes (:func:`evalmetrics.plotting.plot_det_curve`), the curves of
    normally distributed scores are straight lines, and the region of small
    error rates, where systems are compared, is spread out.

    {shared}

    Returns
    -------
    DetCurve
        ``(false_positive_rate, false_negative_rate, thresholds)``.  A rate
        is NaN (with a warning) if its class is absent.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curve = det_curve(units.y_true, units.y_score)
    >>> curve.thresholds
    array([0.4 , 0.55, 0.65, 0.7 , 0.8 , 0.85, 0.95])
    >>> curve.false_negative_rate
    array([0.  , 0.25, 0.25, 0.5 , 0.5 , 0.75, 0.75])
    """
    table = _ratio_table(y_true, y_score, pos_label, sample_weight)
    false_positives = np.r_[0, table.false_positives]
    true_positives = np.r_[0, table.true_positives]
    thresholds = np.r_[np.inf, table.thresholds]
    # From the last row without a false positive to the first with every positive flagged.
    first = int(np.searchsorted(false_positives, 0, side="right")) - 1
    last = int(np.searchsorted(true_positives, true_positives[-1], side="left")) + 1
    rows = slice(last - 1, first - 1 if first > 0 else None, -1)
    false_negatives = true_positives[-1] - true_positives[rows]
    return DetCurve(_rate(false_positives[rows], table.negatives, _FPR),
                    _rate(false_negatives, table.positives, "false negative rate (no positives)"),
                    thresholds[rows])


# The sort-once bootstrap of the AUC, as a property of the metric: evalmetrics.bootstrap_interval
# uses it (engine="auto") once it has matched the metric on the data and on two resamples, so a
# functools.wraps wrapper, which copies it, keeps it only if it computes the same number.
roc_auc.bootstrap_engine = auc_engine

for _function in (threshold_table, roc_curve, roc_auc, precision_recall_curve,
                  average_precision, precision_at_recall, recall_at_false_positive_rate, det_curve):
    # python -OO strips docstrings: then there is nothing to splice.
    if _function.__doc__ is not None:
        _function.__doc__ = (_function.__doc__.replace("{shared}", _SHARED)
                             .replace("{data}", _DATA).replace("{options}", _OPTIONS))
del _function
