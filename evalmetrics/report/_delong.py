"""DeLong's variance of the AUC, by Sun and Xu's fast algorithm.

DeLong, DeLong and Clarke-Pearson (1988) write the AUC of ``m`` positives
and ``n`` negatives as the mean of the *placement values*: for positive
``i``, ``V10_i`` is the share of negatives it outranks (ties count one
half); for negative ``j``, ``V01_j`` is the share of positives that outrank
it.  Both have mean AUC, and the variance of the AUC is estimated as

``var = S10 / m + S01 / n``

with ``S10`` and ``S01`` the sample variances (ddof 1) of the two sets of
placement values; for several models scored on the same rows, the same
formula with covariance matrices gives the covariance of their AUCs.

Sun and Xu (2014) get every placement value from three midrankings
(positives alone, negatives alone, all rows) instead of the ``m n`` pairs:
the rank of positive ``i`` among all rows minus its rank among the
positives counts the negatives below it (ties one half).  Sorting makes the
whole computation O(n log n).

The interval of one AUC is computed on the logit scale and transformed
back, so it always lies inside [0, 1]; the interval of a paired difference
is the plain normal one.

NOTE for the maintainers: this module lives here only because
``evalmetrics.intervals`` had no DeLong interval when the report was
written; it belongs next to :func:`evalmetrics.bootstrap_interval`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import arrays
from ..intervals import ConfidenceInterval, normal_quantile

__all__ = ["DelongDifference", "DelongResult", "delong_difference", "delong_interval"]


@dataclass(frozen=True)
class DelongResult:
    """An AUC with DeLong's standard error and a logit-scale interval."""

    estimate: float
    standard_error: float
    interval: ConfidenceInterval


@dataclass(frozen=True)
class DelongDifference:
    """The difference of two AUCs on the same rows (a minus b), DeLong's paired test.

    ``z`` is the difference over its standard error and ``p_value`` the
    two-sided normal p-value of "equal AUCs" (NaN when the standard error is 0).
    """

    estimate: float
    standard_error: float
    interval: ConfidenceInterval
    z: float
    p_value: float


def _midranks(values):
    """Ranks 1..n along each row of a 2-D array, tied values sharing the mean of their ranks."""
    ranks = np.empty(values.shape, dtype=float)
    for row, x in enumerate(values):
        order = np.argsort(x, kind="mergesort")
        ordered = x[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        counts = np.diff(np.r_[starts, len(ordered)])
        # A run of ties at 0-based positions s..s+c-1 has mean 1-based rank s + (c + 1) / 2.
        ranks[row, order] = np.repeat(starts + (counts + 1) / 2.0, counts)
    return ranks


def _placements(is_positive, scores):
    """AUCs and placement values of k score rows: (auc (k,), v10 (k, m), v01 (k, n))."""
    positive, negative = scores[:, is_positive], scores[:, ~is_positive]
    m, n = positive.shape[1], negative.shape[1]
    combined = _midranks(np.concatenate([positive, negative], axis=1))
    within_positive = _midranks(positive)
    within_negative = _midranks(negative)
    # Rank among all rows minus rank among its own class = rows of the other class below it.
    v10 = (combined[:, :m] - within_positive) / n
    v01 = 1.0 - (combined[:, m:] - within_negative) / m
    auc = v10.mean(axis=1)
    return auc, v10, v01


def _covariance(is_positive, scores):
    """AUCs of the k rows of ``scores`` and DeLong's k x k covariance matrix."""
    auc, v10, v01 = _placements(is_positive, scores)
    m, n = v10.shape[1], v01.shape[1]
    s10 = np.atleast_2d(np.cov(v10, ddof=1)) if m > 1 else np.zeros((len(auc), len(auc)))
    s01 = np.atleast_2d(np.cov(v01, ddof=1)) if n > 1 else np.zeros((len(auc), len(auc)))
    return auc, s10 / m + s01 / n


def _z(confidence):
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise TypeError(f"confidence must be a number between 0 and 1, got {type(confidence).__name__}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return normal_quantile(0.5 + 0.5 * float(confidence))


def _logit_interval(auc, standard_error, z):
    if standard_error == 0.0 or auc in (0.0, 1.0):
        # The logit is infinite at 0 and 1, and the placements are then all equal
        # anyway (zero variance): the interval collapses to the estimate.
        return ConfidenceInterval(auc, auc)
    logit = math.log(auc / (1.0 - auc))
    # Delta method: d logit / d auc = 1 / (auc (1 - auc)).
    half_width = z * standard_error / (auc * (1.0 - auc))
    return ConfidenceInterval(1.0 / (1.0 + math.exp(-(logit - half_width))),
                              1.0 / (1.0 + math.exp(-(logit + half_width))))


def _both_classes(is_positive):
    if is_positive.all() or not is_positive.any():
        raise ValueError("y_true must contain both classes: DeLong's variance needs positives and negatives")


def delong_interval(y_true, y_score, *, confidence=0.95, pos_label=None):
    """The AUC with DeLong's standard error and a logit-scale confidence interval.

    ``logit(AUC) +/- z SE / (AUC (1 - AUC))``, transformed back: unlike the
    plain ``AUC +/- z SE`` it never leaves [0, 1] and is asymmetric near 1,
    where the AUC's sampling distribution is skewed.  The variance assumes
    independent rows; for clustered rows use
    ``bootstrap_interval(..., groups=...)``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels with both classes present.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive.
    confidence : float, default 0.95
    pos_label : label, optional
        The positive class; needed unless the labels are {0, 1}, {-1, 1} or
        booleans.

    Returns
    -------
    DelongResult
        ``estimate`` (the AUC, ties counted one half), ``standard_error``
        and ``interval``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> result = delong_interval(units.y_true, units.y_score)
    >>> round(result.estimate, 6), round(result.standard_error, 4)
    (0.796875, 0.1368)
    >>> [round(bound, 4) for bound in result.interval]
    [0.4281, 0.9536]
    """
    z = _z(confidence)
    is_positive, values, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    _both_classes(is_positive)
    auc, covariance = _covariance(is_positive, values[np.newaxis, :])
    estimate, standard_error = float(auc[0]), math.sqrt(max(float(covariance[0, 0]), 0.0))
    return DelongResult(estimate, standard_error, _logit_interval(estimate, standard_error, z))


def delong_difference(y_true, y_score_a, y_score_b, *, confidence=0.95, pos_label=None):
    """DeLong's paired comparison of two AUCs on the same rows, a minus b.

    The variance of the difference is ``var_a + var_b - 2 cov_ab``, all from
    the placement values; the covariance term is what makes the paired test
    sharper than two separate intervals.  The interval is
    ``difference +/- z SE``, clipped to [-1, 1].

    Parameters
    ----------
    y_true : array_like of shape (n,)
    y_score_a, y_score_b : array_like of shape (n,)
        Scores of the two models for the same rows.
    confidence : float, default 0.95
    pos_label : label, optional

    Returns
    -------
    DelongDifference

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> result = delong_difference(units.y_true, units.y_score, units.y_score ** 2)
    >>> result.estimate, result.standard_error  # a monotone transform: the same ranking
    (0.0, 0.0)
    """
    z = _z(confidence)
    is_positive, a, _ = arrays.binary_scores(y_true, y_score_a, pos_label=pos_label, score_name="y_score_a")
    b = arrays.scores(y_score_b, "y_score_b")
    arrays.same_length(y_true=is_positive, y_score_b=b)
    _both_classes(is_positive)
    auc, covariance = _covariance(is_positive, np.stack([a, b]))
    estimate = float(auc[0] - auc[1])
    variance = float(covariance[0, 0] + covariance[1, 1] - 2.0 * covariance[0, 1])
    # Rounding can leave a tiny negative variance when the two rankings coincide.
    standard_error = math.sqrt(variance) if variance > 1e-300 else 0.0
    if standard_error == 0.0:
        interval = ConfidenceInterval(estimate, estimate)
        statistic, p_value = float("nan"), float("nan")
    else:
        interval = ConfidenceInterval(max(-1.0, estimate - z * standard_error),
                                      min(1.0, estimate + z * standard_error))
        statistic = estimate / standard_error
        p_value = math.erfc(abs(statistic) / math.sqrt(2.0))
    return DelongDifference(estimate, standard_error, interval, statistic, p_value)
