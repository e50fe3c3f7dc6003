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
from typing import NamedTuple

import numpy as np

from . import arrays
from ._kernels.brier import brier
from ._kernels.log_loss import log_loss as _log_loss
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


def _labels_and_probabilities(y_true, y_prob, pos_label, sample_weight=None):
    is_positive, prob, weights = arrays.binary_scores(
        y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight,
        score_name="y_prob", probability=True,
    )
    if weights is not None and not np.any(weights > 0):  # a sum could overflow
        raise ValueError("sample_weight sums to zero")
    return is_positive.astype(float), prob, weights


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
# private computations on clean input (y: float 0/1, p: probabilities)
# ---------------------------------------------------------------------------

def _three_terms(forecast, observed, mass, base_rate):
    """Reliability, resolution, uncertainty from groups with weights ``mass`` (sum 1)."""
    reliability = float(np.sum(mass * (forecast - observed) ** 2))
    resolution = float(np.sum(mass * (observed - base_rate) ** 2))
    return reliability, resolution, base_rate * (1.0 - base_rate)


def _decompose(y, p):
    values, group = np.unique(p, return_inverse=True)
    size = np.bincount(group).astype(float)
    observed = np.bincount(group, weights=y) / size
    base_rate = float(np.mean(y))
    terms = _three_terms(values, observed, size / len(y), base_rate)
    return BrierDecomposition(*terms, brier_score=brier(y, p))


def _bin_ids(p, n_bins, strategy):
    """Bin of each probability, exactly as scikit-learn's ``calibration_curve``.

    Interior edges only, ``searchsorted`` with side="left": a value equal to
    an edge goes to the bin *below* it (bins closed on the right), and 0 and
    1 land in the first and last bins.
    """
    if strategy == "quantile":
        edges = np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.searchsorted(edges[1:-1], p)


def _binned(y, p, n_bins, strategy):
    ids = _bin_ids(p, n_bins, strategy)
    size = np.bincount(ids, minlength=n_bins)
    sum_prob = np.bincount(ids, weights=p, minlength=n_bins)
    sum_true = np.bincount(ids, weights=y, minlength=n_bins)
    kept = size != 0
    return ids, size[kept], sum_prob[kept] / size[kept], sum_true[kept] / size[kept]


def _reliability_curve(y, p, n_bins, strategy):
    _, size, mean_prob, share = _binned(y, p, n_bins, strategy)
    return ReliabilityCurve(mean_prob, share, size)


def _ece(y, p, n_bins, strategy):
    _, size, mean_prob, share = _binned(y, p, n_bins, strategy)
    return float(np.sum(size * np.abs(mean_prob - share)) / len(y))


def _binned_decompose(y, p, n_bins, strategy):
    ids, size, mean_prob, share = _binned(y, p, n_bins, strategy)
    # Re-index the non-empty bins 0..K-1 so that per-row lookups line up.
    row_bin = np.unique(ids, return_inverse=True)[1]
    base_rate = float(np.mean(y))
    terms = _three_terms(mean_prob, share, size / len(y), base_rate)
    binned_forecast = mean_prob[row_bin]
    binned_score = brier(y, binned_forecast)
    original = brier(y, p)
    spread = p - binned_forecast
    variance = float(np.mean(spread**2))
    covariance = float(np.mean(spread * (y - share[row_bin])))
    return BinnedBrierDecomposition(
        *terms, binned_brier_score=binned_score, brier_score=original,
        difference=original - binned_score, within_bin_variance=variance,
        within_bin_covariance=covariance,
    )


def _corp(y, p):
    order = np.argsort(p, kind="stable")
    values, first, size = np.unique(p[order], return_index=True, return_counts=True)
    # Tied forecasts must get one recalibrated value: pool them before PAV,
    # with their group size as weight.
    positives = np.add.reduceat(y[order], first)
    calibrated = _pav(positives / size, size.astype(float))
    recalibrated = calibrated[np.searchsorted(values, p)]
    original = brier(y, p)
    after = brier(y, recalibrated)
    base_rate = float(np.mean(y))
    uncertainty = brier(y, np.full_like(y, base_rate))
    return CorpReliability(
        forecast=values, calibrated=calibrated, count=size, recalibrated=recalibrated,
        brier_score=original, miscalibration=original - after,
        discrimination=uncertainty - after, uncertainty=uncertainty,
    )


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def brier_score(y_true, y_prob, *, pos_label=None, sample_weight=None):
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


def log_loss(y_true, y_prob, *, pos_label=None, sample_weight=None, eps=_LOG_LOSS_EPS):
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


def brier_decomposition(y_true, y_prob, *, pos_label=None):
    """The reliability-resolution decomposition of Murphy over distinct forecasts.

    Rows sharing a forecast value form a group with observed share of
    positives ``o_k``; with ``pi`` the overall share,
    ``REL = sum n_k/n (f_k - o_k)^2``, ``RES = sum n_k/n (o_k - pi)^2`` and
    ``UNC = pi (1 - pi)``, and ``BS = REL - RES + UNC`` holds exactly.

    Parameters
    ----------
    y_true, y_prob, pos_label
        As in :func:`brier_score`.

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
    y, p, _ = _labels_and_probabilities(y_true, y_prob, pos_label)
    return _decompose(y, p)


def binned_brier_decomposition(y_true, y_prob, *, n_bins=10, strategy="uniform", pos_label=None):
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
        Number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or edges at quantiles of ``y_prob``.
    pos_label : label, optional
        As in :func:`brier_score`.

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
    y, p, _ = _labels_and_probabilities(y_true, y_prob, pos_label)
    return _binned_decompose(y, p, n_bins, strategy)


def reliability_curve(y_true, y_prob, *, n_bins=5, strategy="uniform", pos_label=None):
    """Mean forecast and observed share of positives in each non-empty bin.

    Bins are closed on the right, as in scikit-learn's ``calibration_curve``:
    with two uniform bins, 0.5 belongs to the lower one.  Empty bins are
    dropped, so fewer than ``n_bins`` points may come back.

    Parameters
    ----------
    y_true, y_prob
        As in :func:`brier_score`.
    n_bins : int, default 5
        Number of bins (scikit-learn's default).
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or edges at the ``np.percentile`` of
        ``y_prob`` (equal counts up to ties).
    pos_label : label, optional
        As in :func:`brier_score`.

    Returns
    -------
    ReliabilityCurve
        ``(mean_predicted, fraction_positive, count)``.

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
    y, p, _ = _labels_and_probabilities(y_true, y_prob, pos_label)
    return _reliability_curve(y, p, n_bins, strategy)


def expected_calibration_error(y_true, y_prob, *, n_bins=10, strategy="uniform", pos_label=None):
    """Expected calibration error: the size-weighted mean gap of the reliability curve.

    ``ECE = sum_k (n_k / n) |mean forecast_k - observed share_k|`` over the
    non-empty bins of :func:`reliability_curve`.  Its value moves with
    ``n_bins`` and ``strategy``; report them with it.

    Parameters
    ----------
    y_true, y_prob
        As in :func:`brier_score`.
    n_bins : int, default 10
        Number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
        As in :func:`reliability_curve`.
    pos_label : label, optional
        As in :func:`brier_score`.

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
    y, p, _ = _labels_and_probabilities(y_true, y_prob, pos_label)
    return _ece(y, p, n_bins, strategy)


def corp_reliability(y_true, y_prob, *, pos_label=None):
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
    y, p, _ = _labels_and_probabilities(y_true, y_prob, pos_label)
    return _corp(y, p)


def classwise_ece(y_true, y_prob, *, n_bins=10, strategy="uniform", labels=None, average="macro"):
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


def top_label_ece(y_true, y_prob, *, n_bins=10, strategy="uniform", labels=None):
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
