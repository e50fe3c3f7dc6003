"""How good are predicted probabilities? Brier score, reliability, ECE, CORP.

* :func:`brier_score` -- the mean squared error of the probabilities, a
  proper scoring rule (scikit-learn's ``brier_score_loss``).
* :func:`log_loss` -- the mean negative log probability of the outcomes, the
  other common proper scoring rule (scikit-learn's ``log_loss``).
* :func:`brier_decomposition` -- Murphy's exact split of the Brier score into
  reliability, resolution and uncertainty over the distinct forecast values.
* :func:`binned_brier_decomposition` -- the same split after binning, which
  describes the *binned* forecaster and so is not exact for the original.
* :func:`reliability_curve` and :func:`expected_calibration_error` -- the
  binned reliability diagram (bins as in scikit-learn's ``calibration_curve``)
  and its weighted mean gap.
* :func:`corp_reliability` -- the CORP reliability diagram of Dimitriadis,
  Gneiting and Jordan (2021): isotonic recalibration needs no bins, and gives
  an exact miscalibration / discrimination / uncertainty split.
* :func:`classwise_ece` and :func:`top_label_ece` -- the ECE of probabilities
  of several classes: class by class (each column against "is it this
  class?"), or of the predicted class only (confidence against accuracy).

Recalibration maps (Platt scaling, isotonic regression) live in
:mod:`evalmetrics.recalibration`.

The docstring examples use the twelve units of
:func:`evalmetrics.worked_example.twelve_units` with their scores read as
probabilities.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Literal, NamedTuple

import numpy as np

from . import arrays
from ._kernels.brier import brier
from ._kernels.log_loss import log_loss as _log_loss
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .recalibration import _class_codes, _pav

__all__ = [
    "BinnedBrierDecomposition",
    "BrierDecomposition",
    "CorpReliability",
    "ReliabilityCurve",
    "binned_brier_decomposition",
    "brier_decomposition",
    "brier_score",
    "classwise_ece",
    "corp_reliability",
    "expected_calibration_error",
    "log_loss",
    "reliability_curve",
    "top_label_ece",
]

# scikit-learn (by default since 1.2, always since 1.5) clips every probability
# to [eps, 1 - eps] with eps the float64 machine epsilon: a certain and wrong
# forecast costs -log(eps) = 36.04 instead of an infinite loss.
_LOG_LOSS_EPS = float(np.finfo(np.float64).eps)

_STRATEGIES = ("uniform", "quantile")

#: The number of bins of every binned summary (reliability curve, ECE, binned
#: decomposition, reliability diagrams) unless the caller gives another: one
#: default, so that the curve, its ECE and its diagram describe the same bins.
N_BINS = 10


# ---------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BrierDecomposition:
    """Murphy's decomposition: ``brier_score = reliability - resolution + uncertainty``.

    ``brier_score`` is computed directly from the rows; the identity holds
    to rounding error because the groups are the distinct forecast values.

    Attributes
    ----------
    reliability : float
        Weighted mean of (forecast - observed share)^2; 0 is perfect.
    resolution : float
        Weighted mean of (observed share - base rate)^2; larger is better.
    uncertainty : float
        Base rate * (1 - base rate), the Brier score of the base rate.
    brier_score : float
        The Brier score of the forecasts.
    """

    reliability: float  # weighted mean of (forecast - observed share)^2; 0 is perfect
    resolution: float  # weighted mean of (observed share - base rate)^2; larger is better
    uncertainty: float  # base rate * (1 - base rate), the Brier score of the base rate
    brier_score: float


@dataclass(frozen=True)
class BinnedBrierDecomposition:
    """The decomposition of a *binned* forecaster, next to the original score.

    Binning replaces every forecast by its bin's mean forecast.  The three
    terms are exact for that binned forecaster, whose score is
    ``binned_brier_score``; ``brier_score`` is the original forecaster's.
    Their ``difference`` (original minus binned) equals
    ``within_bin_variance - 2 * within_bin_covariance``, the two extra terms of
    Stephenson, Coelho and Jolliffe (2008).

    Attributes
    ----------
    reliability, resolution, uncertainty : float
        Murphy's three terms for the binned forecaster.
    binned_brier_score : float
        The Brier score of the binned forecaster.
    brier_score : float
        The Brier score of the original forecaster.
    difference : float
        ``brier_score - binned_brier_score``.
    within_bin_variance : float
        The spread of the forecasts inside their bins.
    within_bin_covariance : float
        How forecasts and outcomes co-vary inside the bins.
    """

    reliability: float
    resolution: float
    uncertainty: float
    binned_brier_score: float
    brier_score: float
    difference: float
    within_bin_variance: float  # spread of the forecasts inside their bins
    within_bin_covariance: float  # how forecasts and outcomes co-vary inside bins


class ReliabilityCurve(NamedTuple):
    """Points of a binned reliability diagram, one per non-empty bin.

    The order is (x, y, size): mean forecast, observed share of positives,
    number of rows.  scikit-learn's ``calibration_curve`` returns
    ``(prob_true, prob_pred)``, the first two fields swapped.

    Attributes
    ----------
    mean_predicted : ndarray
        The mean forecast of each bin.
    fraction_positive : ndarray
        The observed share of positives of each bin.
    count : ndarray
        The number of rows of each bin.
    """

    mean_predicted: np.ndarray
    fraction_positive: np.ndarray
    count: np.ndarray


@dataclass(frozen=True)
class CorpReliability:
    """The CORP reliability diagram and its score decomposition.

    ``forecast`` holds the distinct forecast values in increasing order,
    ``calibrated`` the isotonic (PAV) estimate of P(Y = 1 | forecast) at each
    and ``count`` how many rows share it; ``recalibrated`` is the recalibrated
    probability of every row, in the input order.  The Brier score splits
    exactly as ``brier_score = miscalibration - discrimination + uncertainty``.

    Attributes
    ----------
    forecast : ndarray
        The distinct forecast values, increasing.
    calibrated : ndarray
        The isotonic estimate of P(Y = 1 | forecast) at each.
    count : ndarray
        The number of rows with each forecast value.
    recalibrated : ndarray
        The recalibrated probability of every row, in the input order.
    brier_score : float
        The Brier score of the original forecasts.
    miscalibration : float
        BS(original) - BS(recalibrated), at least 0.
    discrimination : float
        BS(base rate) - BS(recalibrated), at least 0.
    uncertainty : float
        BS(base rate).
    """

    forecast: np.ndarray
    calibrated: np.ndarray
    count: np.ndarray
    recalibrated: np.ndarray
    brier_score: float
    miscalibration: float  # BS(original) - BS(recalibrated) >= 0
    discrimination: float  # BS(base rate) - BS(recalibrated) >= 0
    uncertainty: float  # BS(base rate)


# ---------------------------------------------------------------------------
# validation shared by the public functions
# ---------------------------------------------------------------------------

def _check_binning(n_bins, strategy):
    n_bins = arrays.positive_int(n_bins, "n_bins", maximum=arrays.MAX_BINS)
    if strategy not in _STRATEGIES:
        raise ValueError(f'strategy must be "uniform" or "quantile", got {strategy!r}')
    return n_bins


def _check_eps(eps):
    # bool is an int; a clip bound of True would be a silent 1.0.
    if isinstance(eps, bool) or not isinstance(eps, numbers.Real):
        raise TypeError(f"eps must be a real number, got {type(eps).__name__}")
    eps = float(eps)
    # eps = 0.5 would clip every forecast to 0.5; beyond, the interval is empty.
    if not 0.0 <= eps < 0.5:
        raise ValueError(f"eps must be in [0, 0.5), got {eps!r}")
    return eps


class _Forecasts(NamedTuple):
    """Validated input: outcomes ``y`` (float 0/1), probabilities ``p`` and weights ``w``
    at a safe scale, of the rows of positive weight; ``raw`` their weights as given;
    ``kept`` which rows those are (None: all), ``p_all`` the probabilities of all rows."""

    y: np.ndarray
    p: np.ndarray
    w: np.ndarray | None
    raw: np.ndarray | None
    kept: np.ndarray | None
    p_all: np.ndarray


def _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight=None):
    """Validated outcomes, probabilities and weights (see :class:`_Forecasts`).

    Every summary here is a ratio of weighted sums, so the weights are taken
    at a safe scale (``scale_free``: the same numbers for weights at any
    scale), and rows of weight zero are dropped, as scikit-learn drops them
    from its curves: a weight counts rows, and zero rows are none.
    """
    is_positive, prob, weights = arrays.binary_scores(
        y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight,
        score_name="y_prob", probability=True,
    )
    if weights is None:
        return _Forecasts(is_positive.astype(float), prob, None, None, None, prob)
    if not np.any(weights > 0):  # a sum could overflow
        raise ValueError("sample_weight sums to zero")
    kept = None if np.all(weights > 0) else weights > 0
    raw = weights if kept is None else weights[kept]
    y, p = (is_positive, prob) if kept is None else (is_positive[kept], prob[kept])
    return _Forecasts(y.astype(float), p, scale_free(raw), raw, kept, prob)


def _labels_and_probability_matrix(y_true, y_prob, labels):
    """``(codes, matrix)``: each row's column and the (n, K) probabilities, K >= 2."""
    matrix = arrays.real_array(y_prob, "y_prob")
    if matrix.ndim != 2 or matrix.shape[1] < 2:
        raise ValueError(f"y_prob must be a 2-D array with one column per class, got shape {matrix.shape} "
                         "(for one column of positive-class probabilities use expected_calibration_error)")
    if matrix.shape[0] == 0:
        raise ValueError("y_prob is empty")
    bad = int(np.count_nonzero(~np.isfinite(matrix)))
    if bad:
        raise ValueError(f"y_prob contains {bad} NaN or infinite value(s)")
    if matrix.min() < 0.0 or matrix.max() > 1.0:
        raise ValueError(f"y_prob must be probabilities in [0, 1], got values from {matrix.min():g} "
                         f"to {matrix.max():g}")
    y, codes = _class_codes(y_true, labels, matrix.shape[1], name="y_true", score_name="y_prob")
    arrays.same_length(y_true=y, y_prob=matrix)
    return codes, matrix


# ---------------------------------------------------------------------------
# private computations on clean input (y: float 0/1, p: probabilities, w: positive
# weights at a safe scale or None for ones)
# ---------------------------------------------------------------------------

def _three_terms(forecast, observed, mass, base_rate):
    """Reliability, resolution, uncertainty from groups with weights ``mass`` (sum 1)."""
    reliability = float(np.sum(mass * (forecast - observed) ** 2))
    resolution = float(np.sum(mass * (observed - base_rate) ** 2))
    return reliability, resolution, base_rate * (1.0 - base_rate)


def _base_rate(y, w):
    return float(np.mean(y)) if w is None else float(np.sum(w * y) / np.sum(w))


def _group_sums(group, y, w, n_groups=None):
    """Per group: its weight (row count without weights) and its weighted positives."""
    size = np.bincount(group, weights=w, minlength=n_groups or 0)  # int without weights
    positives = np.bincount(group, weights=y if w is None else w * y, minlength=n_groups or 0)
    return size, positives


def _decompose(y, p, w=None):
    values, group = np.unique(p, return_inverse=True)
    size, positives = _group_sums(group, y, w)
    base_rate = _base_rate(y, w)
    terms = _three_terms(values, positives / size, size / size.sum(), base_rate)
    return BrierDecomposition(*terms, brier_score=brier(y, p, w))


def _weighted_percentiles(p, w, percentiles):
    """``np.percentile`` (linear) of the rows repeated by their weights.

    A weight counts as that many rows, fractions included: the k-th smallest
    of the repeated rows is the value whose cumulative weight first exceeds
    k, and positions between two rows interpolate linearly, as NumPy does.
    With weights of one this is ``np.percentile``; with integer weights, the
    percentiles of the repeated rows.
    """
    order = np.argsort(p, kind="stable")
    values, cumulative = p[order], np.cumsum(w[order])
    rows = cumulative[-1] - 1.0
    if not np.isfinite(cumulative[-1]):
        # Weights whose sum overflows: at that scale one row less is nothing; the
        # positions scale with the weights, so a power of two changes none of them.
        cumulative = np.cumsum(scale_free(w)[order])
        rows = cumulative[-1]
    position = np.clip(np.asarray(percentiles) / 100.0 * rows, 0.0, None)
    below = np.floor(position)
    last = len(values) - 1
    low = values[np.minimum(np.searchsorted(cumulative, below, side="right"), last)]
    high = values[np.minimum(np.searchsorted(cumulative, below + 1.0, side="right"), last)]
    return low + (high - low) * (position - below)


def _bin_ids(p, n_bins, strategy, raw=None):
    """Bin of each probability, exactly as scikit-learn's ``calibration_curve``.

    Interior edges only, ``searchsorted`` with side="left": a value equal to
    an edge goes to the bin *below* it (bins closed on the right), and 0 and
    1 land in the first and last bins.  Quantile edges with weights (``raw``,
    the caller's: a weight counts rows) are the percentiles of the rows
    repeated by their weights.
    """
    if strategy == "quantile":
        percentiles = np.linspace(0, 1, n_bins + 1) * 100
        edges = np.percentile(p, percentiles) if raw is None else _weighted_percentiles(p, raw, percentiles)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.searchsorted(edges[1:-1], p)


def _binned(y, p, n_bins, strategy, w=None, raw=None):
    """Bin of each row and, per non-empty bin: weight, mean forecast, share of positives."""
    ids = _bin_ids(p, n_bins, strategy, raw)
    size, sum_true = _group_sums(ids, y, w, n_bins)
    sum_prob = np.bincount(ids, weights=p if w is None else w * p, minlength=n_bins)
    kept = size != 0
    return ids, size[kept], sum_prob[kept] / size[kept], sum_true[kept] / size[kept]


def _bin_counts(ids, n_bins, raw):
    """The caller's weights, in their own scale, summed in each non-empty bin."""
    return np.bincount(ids, weights=raw, minlength=n_bins)[np.bincount(ids, minlength=n_bins) != 0]


def _reliability_curve(y, p, n_bins, strategy, w=None, raw=None):
    ids, size, mean_prob, share = _binned(y, p, n_bins, strategy, w, raw)
    return ReliabilityCurve(mean_prob, share, size if w is None else _bin_counts(ids, n_bins, raw))


def _ece(y, p, n_bins, strategy, w=None, raw=None):
    _, size, mean_prob, share = _binned(y, p, n_bins, strategy, w, raw)
    total = len(y) if w is None else size.sum()
    return float(np.sum(size * np.abs(mean_prob - share)) / total)


def _binned_decompose(y, p, n_bins, strategy, w=None, raw=None):
    ids, size, mean_prob, share = _binned(y, p, n_bins, strategy, w, raw)
    # Re-index the non-empty bins 0..K-1 so that per-row lookups line up.
    row_bin = np.unique(ids, return_inverse=True)[1]
    base_rate = _base_rate(y, w)
    terms = _three_terms(mean_prob, share, size / size.sum(), base_rate)
    binned_forecast = mean_prob[row_bin]
    binned_score = brier(y, binned_forecast, w)
    original = brier(y, p, w)
    spread = p - binned_forecast
    variance = float(np.average(spread**2, weights=w))
    covariance = float(np.average(spread * (y - share[row_bin]), weights=w))
    return BinnedBrierDecomposition(
        *terms, binned_brier_score=binned_score, brier_score=original,
        difference=original - binned_score, within_bin_variance=variance,
        within_bin_covariance=covariance,
    )


def _corp(y, p, w=None, kept=None, p_all=None, raw=None):
    """CORP on the kept rows; ``p_all`` (all rows, zero weights too) gets ``recalibrated``."""
    order = np.argsort(p, kind="stable")
    values, first, rows = np.unique(p[order], return_index=True, return_counts=True)
    # Tied forecasts must get one recalibrated value: pool them before PAV,
    # with their group weight (their row count without weights).
    if w is None:
        size, positives = rows.astype(float), np.add.reduceat(y[order], first)
    else:
        size, positives = np.add.reduceat(w[order], first), np.add.reduceat((w * y)[order], first)
    calibrated = _pav(positives / size, size)
    if kept is None:
        recalibrated = calibrated[np.searchsorted(values, p)]
    else:
        # Rows of weight zero take the step at or below their forecast (the lowest above it
        # when none is below): they change no score, but every row gets a probability.
        step = np.clip(np.searchsorted(values, p_all, side="right") - 1, 0, len(values) - 1)
        recalibrated = calibrated[step]
        recalibrated[kept] = calibrated[np.searchsorted(values, p)]
    after = brier(y, calibrated[np.searchsorted(values, p)], w)
    original_score = brier(y, p, w)
    base_rate = _base_rate(y, w)
    uncertainty = brier(y, np.full_like(y, base_rate), w)
    count = rows if w is None else _group_totals(values, p, raw)
    return CorpReliability(
        forecast=values, calibrated=calibrated, count=count, recalibrated=recalibrated,
        brier_score=original_score, miscalibration=original_score - after,
        discrimination=uncertainty - after, uncertainty=uncertainty,
    )


def _group_totals(values, p, raw):
    """The caller's weights summed per distinct forecast (``p`` the kept rows' forecasts)."""
    return np.bincount(np.searchsorted(values, p), weights=raw, minlength=len(values))


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def brier_score(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: Label | None = None,
                sample_weight: ArrayLike | None = None) -> float:
    """Brier score: the mean squared difference between probability and outcome.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels.
    y_prob : array_like of shape (n,)
        Predicted probabilities of the positive class, in [0, 1].
    pos_label : label, optional
        The positive class; needed unless the labels are {0, 1}, {-1, 1} or
        booleans.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights.

    Returns
    -------
    float
        Between 0 (perfect) and 1.  This is the one-column normalisation of
        scikit-learn's ``brier_score_loss``; summing over both classes'
        probability vectors gives twice this value.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> round(brier_score(u.y_true, u.y_score), 6)
    0.196875
    """
    is_positive, p, w = arrays.binary_scores(
        y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight,
        score_name="y_prob", probability=True,
    )
    if w is None:
        return brier(is_positive, p)
    if not np.any(w > 0):  # a sum could overflow
        raise ValueError("sample_weight sums to zero")
    return brier(is_positive, p, w)


def log_loss(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: Label | None = None,
             sample_weight: ArrayLike | None = None, eps: float = _LOG_LOSS_EPS) -> float:
    """Log loss: the mean negative log probability given to what happened.

    ``-(1/n) sum [y log p + (1 - y) log(1 - p)]`` in natural logarithms,
    the negative mean log-likelihood of the outcomes under the forecasts.
    Like the Brier score it is a proper scoring rule, but it punishes a
    confident miss without bound: a probability ``q`` given to the outcome
    that happened costs ``-log q``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels.
    y_prob : array_like of shape (n,)
        Predicted probabilities of the positive class, in [0, 1].
    pos_label : label, optional
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights.
    eps : float, default ``numpy.finfo(float).eps``
        The probability given to the outcome is clipped to
        ``[eps, 1 - eps]`` before its logarithm, so a forecast of exactly 0
        or 1 that turns out wrong costs ``-log(eps)`` (36.04 by default)
        rather than infinity.  The default is scikit-learn's: its
        ``log_loss`` has clipped at the epsilon of float64 input by default
        since version 1.2 (at 1e-15 before), and only so since 1.5 removed
        its ``eps`` argument.  ``eps=0`` clips nothing and returns ``inf``
        for such a row.  Must be in [0, 0.5).

    Returns
    -------
    float
        At least ``-log(1 - eps)`` (0 without clipping); the base-rate
        forecast ``pi`` scores the entropy ``-pi log pi - (1 - pi) log(1 - pi)``.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> round(log_loss(u.y_true, u.y_score), 4)
    0.5733
    """
    eps = _check_eps(eps)
    is_positive, p, w = arrays.binary_scores(
        y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight,
        score_name="y_prob", probability=True,
    )
    if w is not None and not np.any(w > 0):  # a sum could overflow
        raise ValueError("sample_weight sums to zero")
    return _log_loss(is_positive, p, eps, w)


def brier_decomposition(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: Label | None = None,
                        sample_weight: ArrayLike | None = None) -> BrierDecomposition:
    """The reliability-resolution decomposition of Murphy over distinct forecasts.

    Rows sharing a forecast value form a group with observed share of
    positives ``o_k``; with ``pi`` the overall share,
    ``REL = sum n_k/n (f_k - o_k)^2``, ``RES = sum n_k/n (o_k - pi)^2`` and
    ``UNC = pi (1 - pi)``, and ``BS = REL - RES + UNC`` holds exactly.  With
    weights, ``n_k`` and ``n`` are sums of weights and the shares weighted.

    Parameters
    ----------
    y_true, y_prob, pos_label
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights, each counting as that many rows: the
        result equals that of the rows repeated by integer weights (rows of
        weight zero are left out), and is the same for weights at any scale.

    Returns
    -------
    BrierDecomposition

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> d = brier_decomposition(u.y_true, u.y_score)
    >>> total = d.reliability - d.resolution + d.uncertainty
    >>> round(d.uncertainty, 4), round(total, 6)
    (0.2222, 0.196875)
    """
    data = _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight)
    return _decompose(data.y, data.p, data.w)


def binned_brier_decomposition(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = N_BINS,
                               strategy: Literal["uniform", "quantile"] = "uniform", pos_label: Label | None = None,
                               sample_weight: ArrayLike | None = None) -> BinnedBrierDecomposition:
    """The decomposition after binning the forecasts, and what binning changed.

    Every forecast is replaced by the mean forecast of its bin (bins as in
    :func:`reliability_curve`).  Reliability, resolution and uncertainty are
    exact for that binned forecaster, not for the original one: the two
    scores differ by ``difference``.

    Parameters
    ----------
    y_true, y_prob
        As in :func:`brier_score`.
    n_bins : int, default 10
        Number of bins, the default of every binned summary here.
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or edges at quantiles of ``y_prob``.
    pos_label : label, optional
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights, each counting as that many rows: the
        result equals that of the rows repeated by integer weights (rows of
        weight zero are left out), and is the same for weights at any scale.

    Returns
    -------
    BinnedBrierDecomposition

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> b = binned_brier_decomposition(u.y_true, u.y_score, n_bins=2)
    >>> round(b.brier_score, 4), round(b.binned_brier_score, 4)
    (0.1969, 0.2299)
    """
    n_bins = _check_binning(n_bins, strategy)
    data = _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight)
    return _binned_decompose(data.y, data.p, n_bins, strategy, data.w, data.raw)


def reliability_curve(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = N_BINS,
                      strategy: Literal["uniform", "quantile"] = "uniform", pos_label: Label | None = None,
                      sample_weight: ArrayLike | None = None) -> ReliabilityCurve:
    """Mean forecast and observed share of positives in each non-empty bin.

    Bins are closed on the right, as in scikit-learn's ``calibration_curve``:
    with two uniform bins, 0.5 belongs to the lower one.  Empty bins are
    dropped, so fewer than ``n_bins`` points may come back.

    Parameters
    ----------
    y_true, y_prob
        As in :func:`brier_score`.
    n_bins : int, default 10
        Number of bins: the default of :func:`expected_calibration_error`,
        which summarizes this curve, and of the reliability diagrams
        (scikit-learn's ``calibration_curve`` has 5).
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or edges at the ``np.percentile`` of
        ``y_prob`` (equal counts up to ties; with weights, the percentiles
        of the rows repeated by their weights).
    pos_label : label, optional
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights, each counting as that many rows: the
        result equals that of the rows repeated by integer weights (rows of
        weight zero are left out), and is the same for weights at any scale.

    Returns
    -------
    ReliabilityCurve
        ``(mean_predicted, fraction_positive, count)``; with weights the
        means and shares are weighted and ``count`` is each bin's sum of
        weights.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> curve = reliability_curve(u.y_true, u.y_score, n_bins=2)
    >>> curve.mean_predicted.round(4), curve.fraction_positive.round(4)
    (array([0.2583, 0.75  ]), array([0.1667, 0.5   ]))
    >>> curve.count
    array([6, 6])
    """
    n_bins = _check_binning(n_bins, strategy)
    data = _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight)
    return _reliability_curve(data.y, data.p, n_bins, strategy, data.w, data.raw)


def expected_calibration_error(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = N_BINS,
                               strategy: Literal["uniform", "quantile"] = "uniform", pos_label: Label | None = None,
                               sample_weight: ArrayLike | None = None) -> float:
    """Expected calibration error: the size-weighted mean gap of the reliability curve.

    ``ECE = sum_k (n_k / n) |mean forecast_k - observed share_k|`` over the
    non-empty bins of :func:`reliability_curve`.  Its value moves with
    ``n_bins`` and ``strategy``; report them with it.

    Parameters
    ----------
    y_true, y_prob
        As in :func:`brier_score`.
    n_bins : int, default 10
        Number of bins, as in :func:`reliability_curve`.
    strategy : {"uniform", "quantile"}, default "uniform"
        As in :func:`reliability_curve`.
    pos_label : label, optional
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights, each counting as that many rows: the
        result equals that of the rows repeated by integer weights (rows of
        weight zero are left out), and is the same for weights at any scale.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> round(expected_calibration_error(u.y_true, u.y_score, n_bins=2), 4)
    0.1708
    """
    n_bins = _check_binning(n_bins, strategy)
    data = _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight)
    return _ece(data.y, data.p, n_bins, strategy, data.w, data.raw)


def corp_reliability(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: Label | None = None,
                     sample_weight: ArrayLike | None = None) -> CorpReliability:
    """CORP reliability diagram: isotonic recalibration, no bins.

    The recalibrated probabilities are the pool-adjacent-violators fit of
    the outcomes on the forecasts (ties in the forecasts pooled first), the
    best non-decreasing recalibration in Brier score.  Comparing three Brier
    scores -- original, recalibrated, base rate -- gives
    ``BS = MCB - DSC + UNC`` exactly (Dimitriadis, Gneiting & Jordan, 2021).

    Parameters
    ----------
    y_true, y_prob, pos_label
        As in :func:`brier_score`.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights, each counting as that many rows: the
        result equals that of the rows repeated by integer weights (rows of
        weight zero are left out), and is the same for weights at any scale.
        ``count`` is then each forecast's sum of weights, and a row of
        weight zero is recalibrated by the step at or below its forecast.

    Returns
    -------
    CorpReliability

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> corp = corp_reliability(u.y_true, u.y_score)
    >>> corp.calibrated.round(4)
    array([0.    , 0.    , 0.    , 0.    , 0.3333, 0.3333, 0.5   , 0.5   ,
           0.5   , 0.5   , 1.    ])
    >>> c = corp
    >>> round(c.miscalibration - c.discrimination + c.uncertainty, 6)
    0.196875
    """
    data = _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight)
    return _corp(data.y, data.p, data.w, data.kept, data.p_all, data.raw)


def classwise_ece(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = 10, strategy: str = "uniform",
                  labels: ArrayLike | None = None, average: str | None = "macro") -> float | np.ndarray:
    """Classwise expected calibration error: the ECE of each class's column, averaged.

    For every class ``k``, column ``k`` of ``y_prob`` is a forecast of the
    event "the row is of class k"; its ECE (:func:`expected_calibration_error`,
    with the same bins) measures how far the rows given ``p`` for class ``k``
    are from a share ``p`` of that class.  The classwise ECE is the mean over
    the classes (Kull et al., 2019).  It sees a class that is predicted too
    often or too rarely at any level of confidence, which :func:`top_label_ece`,
    looking only at the predicted class, can miss.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Class labels.
    y_prob : array_like of shape (n, K)
        Probabilities, one column per class, ``K >= 2``.
    n_bins : int, default 10
        Number of bins of each column.
    strategy : {"uniform", "quantile"}, default "uniform"
        As in :func:`reliability_curve`, per column.
    labels : array_like of shape (K,), optional
        The class of each column, in column order; default the sorted
        distinct values of ``y_true`` (scikit-learn's ``classes_``).
    average : {"macro", None}, default "macro"
        ``"macro"``: the mean over the classes; None: one ECE per class.

    Returns
    -------
    float or ndarray of shape (K,)

    Examples
    --------
    The twelve units' scores as the second column of two: the two classes'
    ECEs are equal here, and so is their mean, the ECE of the scores.

    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> both = np.column_stack([1 - u.y_score, u.y_score])
    >>> classwise_ece(u.y_true, both, n_bins=4, average=None).round(4)
    array([0.1708, 0.1708])
    """
    n_bins = _check_binning(n_bins, strategy)
    if average not in ("macro", None):
        raise ValueError(f'average must be "macro" or None, got {average!r}')
    codes, matrix = _labels_and_probability_matrix(y_true, y_prob, labels)
    per_class = np.array([_ece((codes == k).astype(float), matrix[:, k], n_bins, strategy)
                          for k in range(matrix.shape[1])])
    return per_class if average is None else float(per_class.mean())


def top_label_ece(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = 10, strategy: str = "uniform",
                  labels: ArrayLike | None = None) -> float:
    """Top-label (confidence) ECE: the predicted class's probability against accuracy.

    Each row's confidence is its largest probability and the predicted class
    the first column holding it; the ECE (:func:`expected_calibration_error`)
    of "the prediction was right" against the confidence says whether, among
    the rows predicted with confidence ``c``, a share ``c`` is right (Guo et
    al., 2017).  It says nothing about the classes a row was not predicted
    to be: see :func:`classwise_ece`.

    Parameters
    ----------
    y_true, y_prob, n_bins, strategy, labels
        As in :func:`classwise_ece`.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> both = np.column_stack([1 - u.y_score, u.y_score])
    >>> round(top_label_ece(u.y_true, both, n_bins=4), 4)
    0.0792
    """
    n_bins = _check_binning(n_bins, strategy)
    codes, matrix = _labels_and_probability_matrix(y_true, y_prob, labels)
    predicted = np.argmax(matrix, axis=1)
    confidence = matrix[np.arange(len(codes)), predicted]
    return _ece((predicted == codes).astype(float), confidence, n_bins, strategy)
