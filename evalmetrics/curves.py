"""Every threshold at once: the threshold table, ROC and precision-recall curves.

:func:`threshold_table` is the single primitive.  It sorts the scores once,
lowers the threshold through the distinct scores in decreasing order and
records the true and false positives after each step.  A group of tied
scores enters in one step, because no threshold can separate tied examples.
Every curve and area of this module, of :mod:`evalmetrics.ranking` and of
:mod:`evalmetrics.costs` is read off that table (or off the same per-score
class counts, in the unweighted fast path of :func:`roc_auc`).

The worked example in every docstring is the twelve units of
:func:`evalmetrics.worked_example.twelve_units`: scores 0.95 ... 0.10, units
1, 3, 5 and 8 faulty, units 7 and 8 tied at 0.40.
"""

from __future__ import annotations

import numbers
import sys
import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import arrays
from .arrays import UndefinedMetricWarning

__all__ = [
    "PrecisionRecallCurve",
    "RocCurve",
    "ThresholdTable",
    "average_precision",
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
    thresholds : ndarray of float64, strictly decreasing
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
    def false_negatives(self):
        """FN = P - TP at each threshold."""
        return self.positives - self.true_positives

    @property
    def true_negatives(self):
        """TN = N - FP at each threshold."""
        return self.negatives - self.false_positives

    @property
    def true_positive_rate(self):
        """TP / P; NaN (with a warning) when there are no positives."""
        return _rate(self.true_positives, self.positives, "true positive rate (no positives)")

    recall = true_positive_rate

    @property
    def false_positive_rate(self):
        """FP / N; NaN (with a warning) when there are no negatives."""
        return _rate(self.false_positives, self.negatives, "false positive rate (no negatives)")

    @property
    def precision(self):
        """TP / (TP + FP).  Never 0/0: every row flags at least one example."""
        return self.true_positives / (self.true_positives + self.false_positives)

    @property
    def counts(self):
        """The four counts as a :class:`~evalmetrics.counts.BinaryCounts` of arrays."""
        from .counts import BinaryCounts

        return BinaryCounts(
            tp=self.true_positives, fp=self.false_positives,
            fn=self.false_negatives, tn=self.true_negatives,
        )


class RocCurve(NamedTuple):
    """ROC points, starting at (0, 0) for the threshold +inf."""

    false_positive_rate: np.ndarray
    true_positive_rate: np.ndarray
    thresholds: np.ndarray


class PrecisionRecallCurve(NamedTuple):
    """Precision and recall at each distinct score, in decreasing order of threshold."""

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray


# ---------------------------------------------------------------------------
# private computing functions (clean input assumed)
# ---------------------------------------------------------------------------

def _rate(counts, total, what):
    if total == 0:
        warnings.warn(f"{what} is undefined and set to NaN", UndefinedMetricWarning, stacklevel=3)
        return np.full(np.shape(counts), np.nan)
    return counts / total


# The unweighted paths avoid argsort.  Each score becomes an integer key that
# sorts like the score; the label goes into the lowest bit, so one (SIMD)
# integer sort orders the scores and carries the labels along: no argsort,
# no gather.  Inside a tie the negatives (label 0) come first.

_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)
_LARGEST = int(np.iinfo(np.int64).max)


def _bits(value):
    return int(np.float64(value).view(np.int64)) & _LARGEST


def _order_keys(values):
    """Order-preserving int64 keys in [0, 2**63) and their inverse, or None.

    The IEEE bits of |x| read as an integer sort like |x|; flipping the
    magnitude bits of negative numbers gives a signed key that sorts like x
    (after ``+ 0.0`` has turned -0.0 into +0.0).  Mixed signs can span up to
    2**64 keys, so the empty stretch between the largest score at or below
    zero and the smallest positive score is cut out.  None when even then
    the keys need 64 bits (magnitudes from 1e-300 to 1e300 on both sides).
    Only branch-free SIMD passes: masked ufuncs and np.where are slower here.
    """
    low, high = values.min(), values.max()
    if low >= 0:
        keys = values.view(np.int64) & _MAGNITUDE  # also maps -0.0 to 0
        smallest = _bits(low)
        keys -= smallest
        return keys, lambda k: (k + smallest).view(np.float64)
    if high <= 0:
        largest = _bits(low)
        keys = values.view(np.int64) & _MAGNITUDE
        np.subtract(largest, keys, out=keys)
        return keys, lambda k: 0.0 - (largest - k).view(np.float64)
    keys = (values + 0.0).view(np.int64)
    work = keys >> 63
    work &= _MAGNITUDE
    keys ^= work  # now a signed key: x <= 0 gives keys <= 0
    np.subtract(keys, 1, out=work)  # non-positive keys wrap to huge unsigned values
    smallest_positive = int(work.view(np.uint64).min()) + 1
    np.negative(keys, out=work)  # positive keys wrap instead
    largest_other = -int(work.view(np.uint64).min())
    cut = smallest_positive - largest_other - 1
    lowest = _signed_key(low)
    if _signed_key(high) - cut - lowest >= 2**63:
        return None
    # The cut can exceed 2**63 (scores -5 and 5, say); int64 arithmetic wraps
    # modulo 2**64, and the final keys lie in [0, 2**63), so they come out right.
    work >>= 63  # -1 exactly where the score is positive
    work &= _wrapped(-cut)
    keys += work
    keys -= lowest

    def decode(k):
        signed = k + lowest
        signed += np.where(signed > largest_other, _wrapped(cut), 0)
        return (signed ^ ((signed >> 63) & _MAGNITUDE)).view(np.float64)

    return keys, decode


def _wrapped(value):
    """A Python int as the int64 it equals modulo 2**64."""
    return np.int64((value + 2**63) % 2**64 - 2**63)


def _signed_key(value):
    bits = int(np.float64(value + 0.0).view(np.int64))
    return bits if bits >= 0 else -1 - (bits & _LARGEST)


def _sorted_keys(values, is_positive):
    """Sorted uint64 keys ``2 * key + label`` and the key decoder, or None."""
    ordered = _order_keys(values)
    if ordered is None:
        return None
    keys, decode = ordered
    keys = keys.view(np.uint64)
    keys <<= np.uint64(1)  # exact: every key is below 2**63
    np.bitwise_or(keys, is_positive, out=keys, casting="unsafe")
    keys.sort()
    return keys, decode


def _labels_of(keys):
    """The packed label bits as uint8, read from the low byte of each key."""
    low_byte = 0 if sys.byteorder == "little" else 7
    return keys.view(np.uint8)[low_byte::8] & np.uint8(1)


def _by_sign(values, is_positive, combine, compute):
    """Fallback for extreme ranges: each sign alone always fits in 63 bits."""
    above = values > 0
    return combine(compute(values[above], is_positive[above]),
                   compute(values[~above], is_positive[~above]))


def _score_table(values, is_positive):
    """Distinct scores in decreasing order with cumulative TP and FP (int64)."""
    packed = _sorted_keys(values, is_positive)
    if packed is None:
        return _by_sign(values, is_positive, _stack_tables, _score_table)
    keys, decode = packed
    labels = _labels_of(keys)
    keys >>= np.uint64(1)
    last = np.append(np.flatnonzero(keys[1:] != keys[:-1]), len(keys) - 1)
    positives_below = np.cumsum(labels, dtype=np.int64)[last]
    total_positives = int(positives_below[-1])
    positives_below = np.r_[0, positives_below[:-1]]
    examples_below = np.r_[0, last[:-1] + 1]
    tp = total_positives - positives_below
    fp = (len(keys) - examples_below) - tp
    thresholds = decode(keys[last].view(np.int64))
    return thresholds[::-1], tp[::-1], fp[::-1]


def _stack_tables(higher, lower):
    """One table from the tables of the higher and the lower scores."""
    return (np.concatenate([higher[0], lower[0]]),
            np.concatenate([higher[1], higher[1][-1] + lower[1]]),
            np.concatenate([higher[2], higher[2][-1] + lower[2]]))


def _twice_u(values, is_positive):
    """2 U, P and N, exact integers, U = #(pos > neg) + #(pos == neg) / 2.

    With the negatives first inside every tie, the sorted position of a
    positive is its rank among the positives plus the negatives at or below
    it.  The positions therefore count the pairs with ties counted whole;
    each tied group with a positives and b negatives then gives back a b / 2.
    Such a group shows in the sorted keys as ``2v`` directly followed by
    ``2v + 1``.
    """
    if len(values) == 0:
        return 0, 0, 0
    packed = _sorted_keys(values, is_positive)
    if packed is None:
        return _by_sign(values, is_positive, _add_u, _twice_u)
    keys, _ = packed
    positions = np.flatnonzero(_labels_of(keys))
    positives = len(positions)
    twice_u = 2 * int(positions.sum()) - positives * (positives - 1)
    boundary = np.flatnonzero((keys[1:] ^ keys[:-1]) == 1)
    if len(boundary):
        negative_key = keys[boundary]
        start = np.searchsorted(keys, negative_key, side="left")
        stop = np.searchsorted(keys, negative_key + np.uint64(1), side="right")
        twice_u -= int(np.dot(boundary + 1 - start, stop - boundary - 1))
    return twice_u, positives, len(keys) - positives


def _add_u(higher, lower):
    # Every positive of the higher scores outranks every negative of the lower.
    return higher[0] + lower[0] + 2 * higher[1] * lower[2], higher[1] + lower[1], higher[2] + lower[2]


def _weighted_groups(values, is_positive, weights):
    """As :func:`_score_groups` with sample weights (float64 sums).

    Rows of weight zero are dropped first, as scikit-learn does, so they
    create no threshold.  A stable sort on the negated scores reproduces
    scikit-learn's summation order, so the float sums agree bit for bit.
    """
    keep = weights != 0
    if not np.all(keep):
        values, is_positive, weights = values[keep], is_positive[keep], weights[keep]
    if len(values) == 0:
        raise ValueError("sample_weight is zero for every row")
    order = np.argsort(-values, kind="stable")
    values, is_positive, weights = values[order], is_positive[order], weights[order]
    last = np.append(np.flatnonzero(values[1:] != values[:-1]), len(values) - 1)
    # Cumulative sums in float64, then differences, keep the group totals
    # consistent with the cumulative counts the table reports.
    tp = np.cumsum(np.where(is_positive, weights, 0.0))[last]
    fp = np.cumsum(np.where(is_positive, 0.0, weights))[last]
    return values[last] + 0.0, np.diff(tp, prepend=0.0), np.diff(fp, prepend=0.0), tp, fp


def _threshold_table(is_positive, values, weights=None):
    if weights is None:
        thresholds, tp, fp = _score_table(values, is_positive)
        positives, negatives = int(tp[-1]), int(fp[-1])
    else:
        thresholds, _, _, tp, fp = _weighted_groups(values, is_positive, weights)
        positives, negatives = float(tp[-1]), float(fp[-1])
    for column in (thresholds, tp, fp):
        column.flags.writeable = False
    return ThresholdTable(thresholds, tp, fp, positives, negatives)


def _one_class_warning(what):
    warnings.warn(
        f"only one class is present in y_true; {what} is undefined and set to NaN",
        UndefinedMetricWarning, stacklevel=3,
    )


def _roc_auc(is_positive, values, weights=None):
    """Area under the staircase: every negative earns the positives above it, ties half."""
    if weights is None:
        twice_u, positives, negatives = _twice_u(values, is_positive)
        if positives == 0 or negatives == 0:
            _one_class_warning("the ROC AUC")
            return float("nan")
        return twice_u / (2 * positives * negatives)
    _, pos, neg, tp, fp = _weighted_groups(values, is_positive, weights)
    if tp[-1] == 0 or fp[-1] == 0:
        _one_class_warning("the ROC AUC")
        return float("nan")
    above = tp - pos
    return float(np.dot(neg, above + 0.5 * pos) / (tp[-1] * fp[-1]))


def _average_precision(table):
    if table.positives == 0:
        _one_class_warning("average precision (no positives)")
        return float("nan")
    recall_gain = np.diff(table.true_positives, prepend=0) / table.positives
    return float(np.sum(recall_gain * table.precision))


def _check_rate(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    if not 0.0 <= value <= 1.0:  # also refuses NaN
        raise ValueError(f"{name} must be between 0 and 1, got {value}")
    return value


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

# The parameters every public function shares, spliced into the docstrings
# below (where they say {shared}) so the seven descriptions cannot drift apart.
_SHARED = """Parameters
    ----------
    y_true : array_like of shape (n,)
        True binary labels.  {0, 1}, {-1, 1} and booleans need no
        ``pos_label``; other labels do.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive.
    pos_label : label, optional
        The positive class.
    sample_weight : array_like of shape (n,), optional
        Non-negative weights; rows of weight zero are ignored."""


def threshold_table(y_true, y_score, *, pos_label=None, sample_weight=None):
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
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _threshold_table(is_positive, values, weights)


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None):
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
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return RocCurve(
        np.r_[0.0, table.false_positive_rate],
        np.r_[0.0, table.true_positive_rate],
        np.r_[np.inf, table.thresholds],
    )


def roc_auc(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Area under the ROC curve, ties counted one half.

    Equals the probability that a random positive scores above a random
    negative (ties one half), ``sklearn.metrics.roc_auc_score``.  Without
    weights it is an exact integer count divided by P N.

    {shared}

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> roc_auc(units.y_true, units.y_score)  # 25.5 / 32
    0.796875
    """
    is_positive, values, weights = arrays.binary_scores(
        y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
    )
    return _roc_auc(is_positive, values, weights)


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None):
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
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return PrecisionRecallCurve(table.precision, table.recall, table.thresholds.copy())


def average_precision(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Average precision: the sum over thresholds of recall gain times precision.

    A step sum, not the trapezoidal area; equals
    ``sklearn.metrics.average_precision_score``.

    {shared}

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> round(average_precision(units.y_true, units.y_score), 4)  # 83 / 120
    0.6917
    """
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    return _average_precision(table)


def precision_at_recall(y_true, y_score, recall, *, pos_label=None, sample_weight=None):
    """Precision at the highest threshold whose recall reaches ``recall``.

    Lower the threshold through the distinct scores until the recall first
    is at least the target; return the precision there.  This is the
    operating point a screening rule "catch a share ``recall`` of the
    positives" would use.  It is not the interpolated precision (the best
    precision at any recall at least the target), which can be larger on
    the sawtooth.

    {shared}
    recall : float in [0, 1]
        Target recall.  0 gives the precision at the highest score.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if there are no positives.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> precision_at_recall(units.y_true, units.y_score, 0.75)  # threshold 0.65: 3 / 5
    0.6
    """
    target = _check_rate(recall, "recall")
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if table.positives == 0:
        _one_class_warning("precision at a recall (no positives)")
        return float("nan")
    # Recall is non-decreasing down the table and reaches 1 in the last row.
    row = int(np.searchsorted(table.recall, target, side="left"))
    return float(table.precision[min(row, len(table) - 1)])


def recall_at_false_positive_rate(y_true, y_score, false_positive_rate, *, pos_label=None,
                                  sample_weight=None):
    """The largest recall among thresholds whose false positive rate is at most the target.

    The infinite threshold (recall 0, false positive rate 0) always
    qualifies.  A tied group that would carry the false positive rate past
    the target is excluded whole: no threshold can take half of it.

    {shared}
    false_positive_rate : float in [0, 1]
        The largest acceptable false positive rate.

    Returns
    -------
    float
        NaN, with an :class:`UndefinedMetricWarning`, if only one class is present.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> recall_at_false_positive_rate(units.y_true, units.y_score, 0.25)  # threshold 0.65
    0.75
    >>> recall_at_false_positive_rate(units.y_true, units.y_score, 0.45)  # 0.40 needs 0.5
    0.75
    """
    target = _check_rate(false_positive_rate, "false_positive_rate")
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if table.positives == 0 or table.negatives == 0:
        _one_class_warning("recall at a false positive rate")
        return float("nan")
    rows = int(np.searchsorted(table.false_positive_rate, target, side="right"))
    return float(table.recall[rows - 1]) if rows else 0.0


for _function in (threshold_table, roc_curve, roc_auc, precision_recall_curve,
                  average_precision, precision_at_recall, recall_at_false_positive_rate):
    _function.__doc__ = _function.__doc__.replace("{shared}", _SHARED)
del _function
