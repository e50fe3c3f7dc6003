"""DeLong's variance of the AUC: an interval for one AUC, a test for two.

The AUC is the mean of the positives' *placements* (the share of negatives
each positive outranks, ties one half) and equally the mean of the
negatives' placements (the share of positives above each negative).
DeLong, DeLong and Clarke-Pearson (1988) estimate its variance from the
spread of these placements:

``Var(AUC) = S10 / P + S01 / N``,

with ``S10`` the sample variance (ddof 1) of the positives' placements and
``S01`` that of the negatives'.  For two models scored on the same rows the
placements pair up by row, and their covariances give the variance of the
difference of the two AUCs.

Sun and Xu (2014) showed that the placements are differences of midranks
(rank in the pooled sample minus rank inside the own class), so the whole
computation costs a sort instead of P x N comparisons.  Here each class is
sorted once and the placements are counted with two ``searchsorted`` passes
in exact integers (twice the count, so ties stay integers); they become
float64 only for the variance.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from . import arrays
from ._kernels import normal
from ._kernels.auc import auc_from_twice_u
from ._kernels.sorting import integer_ranks
from ._typing import ArrayLike, Label
from .arrays import UndefinedMetricWarning
from .intervals import ConfidenceInterval, _check_confidence, normal_quantile

__all__ = [
    "DelongResult",
    "DelongTest",
    "delong_interval",
    "delong_test",
]


@dataclass(frozen=True)
class DelongResult:
    """An AUC with DeLong's standard error and a logit-scale interval.

    Attributes
    ----------
    estimate : float
        The AUC (ties one half), equal to :func:`evalmetrics.roc_auc`.
    standard_error : float
        ``sqrt(S10 / P + S01 / N)``; NaN when a class has fewer than two members.
    interval : ConfidenceInterval
        ``expit(logit(AUC) -/+ z SE / (AUC (1 - AUC)))``, always inside [0, 1].
    """

    estimate: float
    standard_error: float
    interval: ConfidenceInterval

    @property
    def low(self) -> float:
        """Lower end of the interval."""
        return self.interval.low

    @property
    def high(self) -> float:
        """Upper end of the interval."""
        return self.interval.high


@dataclass(frozen=True)
class DelongTest:
    """DeLong's test of two correlated AUCs (model a minus model b).

    Attributes
    ----------
    difference : float
        ``AUC_a - AUC_b``.
    standard_error : float
        Standard error of the difference, from the paired placements.
    z : float
        ``difference / standard_error``.
    p_value : float
        Two-sided, from the standard normal distribution.
    interval : ConfidenceInterval
        ``difference -/+ z_(1 - alpha/2) standard_error``.
    """

    difference: float
    standard_error: float
    z: float
    p_value: float
    interval: ConfidenceInterval


# ---------------------------------------------------------------------------
# private computing functions (clean input assumed)
# ---------------------------------------------------------------------------

def _sorted_twice_placements(positive_sorted, negative_sorted):
    """Twice the placement counts of sorted positives and sorted negatives (int64).

    For a positive: 2 x (negatives below it) + (negatives tied with it), the
    ``left + right`` insertion points among the negatives.  For a negative:
    2 x (positives above) + (positives tied) = 2 P - #(positives below it)
    - #(positives at or below it).  Those two counts are step functions of
    the negative's rank: a positive with right insertion point ``r`` lies
    below every negative from rank ``r`` on (with ``left``, at or below), so
    a bincount of the insertion points and a cumulative sum give them for all
    negatives at once -- no binary search per negative.
    """
    n_negatives = len(negative_sorted)
    left = np.searchsorted(negative_sorted, positive_sorted, side="left")
    right = np.searchsorted(negative_sorted, positive_sorted, side="right")
    steps = np.bincount(left, minlength=n_negatives + 1)
    steps += np.bincount(right, minlength=n_negatives + 1)
    negative_counts = np.cumsum(steps[:n_negatives])
    np.subtract(2 * len(positive_sorted), negative_counts, out=negative_counts)
    left += right
    return left, negative_counts


def _twice_placements(positive_scores, negative_scores, *, keep_order=False):
    """Twice the placement counts of the positives and of the negatives.

    Without ``keep_order`` in sorted order of the scores (enough for one
    AUC); with it, in the order of the input rows (needed to pair two models
    row by row), at the price of an argsort per class.
    """
    if not keep_order:
        return _sorted_twice_placements(np.sort(positive_scores), np.sort(negative_scores))
    positive_order = np.argsort(positive_scores)
    negative_order = np.argsort(negative_scores)
    sorted_counts = _sorted_twice_placements(positive_scores[positive_order], negative_scores[negative_order])
    counts = []
    for order, in_sorted_order in zip((positive_order, negative_order), sorted_counts):
        in_row_order = np.empty_like(in_sorted_order)
        in_row_order[order] = in_sorted_order
        counts.append(in_row_order)
    return counts[0], counts[1]


def _undefined_warning(what):
    warnings.warn(f"{what} is undefined when a class has fewer than two members; it is set to NaN",
                  UndefinedMetricWarning, stacklevel=3)


def _class_sizes(is_positive):
    positives = int(np.count_nonzero(is_positive))
    return positives, len(is_positive) - positives


def _logit_interval(auc, standard_error, z):
    if not 0.0 < auc < 1.0:
        # A perfect (or perfectly wrong) ranking has zero spread: the interval is the point.
        return ConfidenceInterval(auc, auc)
    centre = math.log(auc / (1.0 - auc))
    half_width = z * standard_error / (auc * (1.0 - auc))  # delta method on the logit scale
    return ConfidenceInterval(1.0 / (1.0 + math.exp(-(centre - half_width))),
                              1.0 / (1.0 + math.exp(-(centre + half_width))))


def _delong_interval(is_positive, values, confidence):
    positives, negatives = _class_sizes(is_positive)
    nan_interval = ConfidenceInterval(math.nan, math.nan)
    if positives < 2 or negatives < 2:
        _undefined_warning("DeLong's standard error")
        if positives == 0 or negatives == 0:
            return DelongResult(math.nan, math.nan, nan_interval)
    positive_counts, negative_counts = _twice_placements(values[is_positive], values[~is_positive])
    # The same exact integer as evalmetrics.roc_auc divides: the estimates agree to the bit.
    auc = auc_from_twice_u(int(positive_counts.sum()), positives, negatives)
    if positives < 2 or negatives < 2:
        return DelongResult(auc, math.nan, nan_interval)
    s10 = np.var(positive_counts, ddof=1) / (4.0 * negatives * negatives)
    s01 = np.var(negative_counts, ddof=1) / (4.0 * positives * positives)
    standard_error = math.sqrt(s10 / positives + s01 / negatives)
    z = normal_quantile(0.5 + 0.5 * confidence)
    return DelongResult(auc, standard_error, _logit_interval(auc, standard_error, z))


def _paired_covariance(counts_a, counts_b):
    """2 x 2 covariance (ddof 1) of two paired count vectors."""
    centred_a = counts_a - counts_a.mean()
    centred_b = counts_b - counts_b.mean()
    scale = 1.0 / (len(counts_a) - 1)
    # einsum, not np.dot: a multithreaded BLAS call costs more than it saves on a busy machine.
    return (np.einsum("i,i->", centred_a, centred_a) * scale, np.einsum("i,i->", centred_b, centred_b) * scale,
            np.einsum("i,i->", centred_a, centred_b) * scale)


def _delong_test(is_positive, values_a, values_b, confidence):
    positives, negatives = _class_sizes(is_positive)
    if positives < 2 or negatives < 2:
        _undefined_warning("DeLong's test")
        nan = math.nan
        return DelongTest(nan, nan, nan, nan, ConfidenceInterval(nan, nan))
    pos_a, neg_a = _twice_placements(values_a[is_positive], values_a[~is_positive], keep_order=True)
    pos_b, neg_b = _twice_placements(values_b[is_positive], values_b[~is_positive], keep_order=True)
    difference = (auc_from_twice_u(int(pos_a.sum()), positives, negatives)
                  - auc_from_twice_u(int(pos_b.sum()), positives, negatives))
    var_a, var_b, cov = _paired_covariance(pos_a.astype(np.float64), pos_b.astype(np.float64))
    s10 = (var_a + var_b - 2.0 * cov) / (4.0 * negatives * negatives)
    var_a, var_b, cov = _paired_covariance(neg_a.astype(np.float64), neg_b.astype(np.float64))
    s01 = (var_a + var_b - 2.0 * cov) / (4.0 * positives * positives)
    # Rounding can leave a tiny negative variance when the two models rank alike.
    standard_error = math.sqrt(max(s10 / positives + s01 / negatives, 0.0))
    if standard_error > 0:
        z = difference / standard_error
    else:
        z = 0.0 if difference == 0 else math.copysign(math.inf, difference)
    p_value = 2.0 * normal.cdf(-abs(z))  # two-sided
    half_width = normal_quantile(0.5 + 0.5 * confidence) * standard_error
    return DelongTest(difference, standard_error, z, p_value,
                      ConfidenceInterval(difference - half_width, difference + half_width))


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def delong_interval(y_true: ArrayLike, y_score: ArrayLike, *, confidence: float = 0.95,
                    pos_label: Label | None = None) -> DelongResult:
    """Confidence interval of the AUC from DeLong's variance.

    The standard error is ``sqrt(S10 / P + S01 / N)``, the sample variances
    of the positives' and the negatives' placements (Sun and Xu's fast
    algorithm: one sort per class).  The interval is built on the logit
    scale, ``logit(AUC) -/+ z SE / (AUC (1 - AUC))`` (the delta method), and
    mapped back, so it never leaves [0, 1] and is asymmetric near 1, where
    the AUC's sampling distribution is skewed.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores.
    confidence : float, default 0.95
    pos_label : label, optional
        The positive class.

    Returns
    -------
    DelongResult
        ``estimate``, ``standard_error`` and ``interval`` (also as ``low``,
        ``high``).  The standard error and interval are NaN, with an
        :class:`UndefinedMetricWarning`, when a class has fewer than two
        members (the estimate too when a class is absent).

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> r = delong_interval(units.y_true, units.y_score)
    >>> r.estimate  # 25.5 / 32
    0.796875
    >>> round(r.standard_error, 4), round(r.low, 4), round(r.high, 4)
    (0.1368, 0.4281, 0.9536)
    """
    confidence = _check_confidence(confidence)
    y_score, _ = integer_ranks(y_score)  # only the order counts
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    return _delong_interval(is_positive, values, confidence)


def delong_test(y_true: ArrayLike, y_score_a: ArrayLike, y_score_b: ArrayLike, *, confidence: float = 0.95,
                pos_label: Label | None = None) -> DelongTest:
    """Test the difference of two AUCs measured on the same rows (DeLong).

    Both models score the same examples, so their AUCs are correlated; the
    covariance of their paired placements enters the variance of the
    difference:

    ``Var(A - B) = (S10_aa + S10_bb - 2 S10_ab) / P + (S01_aa + S01_bb - 2 S01_ab) / N``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score_a, y_score_b : array_like of shape (n,)
        Finite scores of the two models.
    confidence : float, default 0.95
        Of the interval of the difference.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    DelongTest
        ``difference`` (a minus b), ``standard_error``, ``z``, two-sided
        ``p_value`` and ``interval``; all NaN, with an
        :class:`UndefinedMetricWarning`, when a class has fewer than two members.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> coarse = (units.y_score >= 0.5).astype(float)  # cut at 0.5
    >>> t = delong_test(units.y_true, units.y_score, coarse)
    >>> round(t.difference, 4), round(t.standard_error, 4)
    (0.1094, 0.0853)
    >>> round(t.p_value, 4)
    0.1998
    """
    confidence = _check_confidence(confidence)
    is_positive, values_a, _ = arrays.binary_scores(y_true, integer_ranks(y_score_a)[0], pos_label=pos_label,
                                                    score_name="y_score_a")
    values_b = arrays.scores(integer_ranks(y_score_b)[0], "y_score_b")
    arrays.same_length(y_true=is_positive, y_score_b=values_b)
    return _delong_test(is_positive, values_a, values_b, confidence)
