"""Regression metrics and the constant forecast each one prefers.

* :func:`mean_squared_error`, :func:`root_mean_squared_error`,
  :func:`mean_absolute_error`, :func:`mean_absolute_percentage_error` and
  :func:`r2_score` -- scikit-learn's functions of the same names, for one
  target column, with ``sample_weight``.
* :func:`best_constant` -- the constant forecast that minimises MSE (the
  mean), MAE (any median) or MAPE (a 1/y-weighted median), and
  :func:`mape_optimal_constant`, the last of these.

Two conventions differ from a textbook formula, both as in scikit-learn:
MAPE divides by ``max(|y|, eps)`` with ``eps`` the machine epsilon, so a zero
target gives a huge number instead of an error; and it is a fraction, not a
percentage (0.15 means 15 %).  One convention differs from scikit-learn:
:func:`r2_score` of a constant target is NaN with a warning, where
scikit-learn returns 1 (perfect predictions) or 0.

The docstring examples use the six households of
:func:`evalmetrics.worked_example.six_households`.
"""

from __future__ import annotations

import warnings
from typing import Literal, NamedTuple

import numpy as np

from . import arrays
from ._kernels.weights import scale_free
from ._typing import ArrayLike

__all__ = [
    "BestConstant",
    "best_constant",
    "mape_optimal_constant",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "r2_score",
    "root_mean_squared_error",
]

_EPS = np.finfo(np.float64).eps


class BestConstant(NamedTuple):
    """The minimising constant forecast(s) of a metric.

    Every constant in ``[low, high]`` attains the minimum ``loss``; ``value``
    is one representative: the mean (MSE), the midpoint of the median
    interval (MAE, the usual median) or ``low`` (MAPE, the 1/y-weighted median
    where the cumulative weight first reaches half).

    Attributes
    ----------
    value : float
        A minimising constant.
    low, high : float
        The ends of the interval of minimising constants (equal when unique).
    loss : float
        The metric's value at any of them.
    """

    value: float
    low: float
    high: float
    loss: float


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

def _pair(y_true, y_pred, sample_weight):
    y = arrays.real_column(y_true, "y_true")
    y_hat = arrays.real_column(y_pred, "y_pred")
    arrays.same_length(y_true=y, y_pred=y_hat)
    weights = _weights(sample_weight, len(y))
    return y, y_hat, weights


def _weights(sample_weight, n):
    # Every metric here is a ratio of weighted sums: at a safe scale, any scale gives it.
    weights = scale_free(arrays.sample_weights(sample_weight, n))
    if weights is not None and not weights.sum() > 0:
        raise ValueError("sample_weight sums to zero")
    return weights


# ---------------------------------------------------------------------------
# computations on clean input
# ---------------------------------------------------------------------------

def _mse(y, y_hat, w):
    return float(np.average((y_hat - y) ** 2, weights=w))


def _mae(y, y_hat, w):
    return float(np.average(np.abs(y_hat - y), weights=w))


def _mape(y, y_hat, w):
    return float(np.average(np.abs(y_hat - y) / np.maximum(np.abs(y), _EPS), weights=w))


def _r2(y, y_hat, w):
    centre = np.average(y, weights=w)
    residual = np.average((y - y_hat) ** 2, weights=w)
    total = np.average((y - centre) ** 2, weights=w)
    if total == 0:
        warnings.warn(
            "r2_score is undefined for a constant y_true (zero total sum of squares); returning nan",
            arrays.UndefinedMetricWarning,
            stacklevel=3,
        )
        return float("nan")
    return float(1.0 - residual / total)


def _weighted_median_interval(y, w):
    """All minimisers of ``sum w_i |c - y_i|``: an interval ``[low, high]``.

    The derivative is (weight below c) - (weight above c); it vanishes on
    a whole gap between two data values when the cumulative weight hits
    exactly half the total there, otherwise only at one data value.
    """
    order = np.argsort(y, kind="stable")
    y, w = y[order], w[order]
    keep = w > 0
    y, w = y[keep], w[keep]
    cumulative = np.cumsum(w)
    half = cumulative[-1] / 2.0
    # A relative tolerance, so that weights like 1/y that sum to half up to
    # rounding still count as an exact tie.
    tolerance = 1e-12 * cumulative[-1]
    k = int(np.searchsorted(cumulative, half - tolerance))
    if abs(cumulative[k] - half) <= tolerance and k + 1 < len(y):
        return float(y[k]), float(y[k + 1])
    return float(y[k]), float(y[k])


def _best_constant(y, w, metric):
    weights = np.ones(len(y)) if w is None else w
    if metric == "mse":
        value = float(np.average(y, weights=weights))
        low = high = value
    elif metric == "mae":
        low, high = _weighted_median_interval(y, weights)
        value = (low + high) / 2.0
    else:
        low, high = _weighted_median_interval(y, weights / y)
        value = low
    loss = {"mse": _mse, "mae": _mae, "mape": _mape}[metric](y, np.full(len(y), value), w)
    return BestConstant(value, low, high, loss)


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------

def mean_squared_error(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Mean squared error, ``mean((y_pred - y_true)^2)``.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Targets and predictions (finite real numbers).
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights (a weighted mean).

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> mean_squared_error(h.y_true, h.y_pred)
    9.5
    """
    return _mse(*_pair(y_true, y_pred, sample_weight))


def root_mean_squared_error(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Square root of :func:`mean_squared_error`, in the units of the target.

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`mean_squared_error`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> round(root_mean_squared_error(h.y_true, h.y_pred), 4)
    3.0822
    """
    return float(np.sqrt(_mse(*_pair(y_true, y_pred, sample_weight))))


def mean_absolute_error(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Mean absolute error, ``mean(|y_pred - y_true|)``.

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`mean_squared_error`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> mean_absolute_error(h.y_true, h.y_pred)
    2.5
    """
    return _mae(*_pair(y_true, y_pred, sample_weight))


def mean_absolute_percentage_error(y_true: ArrayLike, y_pred: ArrayLike, *,
                                   sample_weight: ArrayLike | None = None) -> float:
    """Mean absolute percentage error, as a fraction: ``mean(|e| / max(|y|, eps))``.

    ``eps`` is the machine epsilon (about 2.2e-16), scikit-learn's guard
    against division by zero: a zero target is not an error but makes the
    result astronomically large.  Under-forecasts cost at most 1 each (for
    non-negative forecasts), over-forecasts are unbounded.

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`mean_squared_error`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> round(mean_absolute_percentage_error(h.y_true, h.y_pred), 4)
    0.1536
    """
    return _mape(*_pair(y_true, y_pred, sample_weight))


def r2_score(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Coefficient of determination, ``1 - SSE / SST``.

    SST is the (weighted) spread of ``y_true`` around its own mean, so R^2
    compares the model with the constant forecast "the evaluation targets'
    mean": 1 is perfect, 0 is that constant, negative is worse than it --
    common on test data, whose mean no model was given.

    A constant ``y_true`` has SST = 0 and R^2 is undefined: this returns NaN
    with an :class:`~evalmetrics.arrays.UndefinedMetricWarning`, whereas
    scikit-learn returns 1.0 for perfect predictions and 0.0 otherwise.

    Parameters
    ----------
    y_true, y_pred, sample_weight
        As in :func:`mean_squared_error`.

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> round(r2_score(h.y_true, h.y_pred), 4)
    0.833
    """
    return _r2(*_pair(y_true, y_pred, sample_weight))


def best_constant(y_true: ArrayLike, *, metric: Literal["mse", "mae", "mape"] = "mse",
                  sample_weight: ArrayLike | None = None) -> BestConstant:
    """The constant forecast minimising ``metric`` on ``y_true``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Targets.
    metric : {"mse", "mae", "mape"}, default "mse"
        ``"mse"``: the (weighted) mean.  ``"mae"``: any (weighted) median;
        with an even count the whole interval between the two middle values.
        ``"mape"``: the median with weights ``1/y``; targets must be positive.
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights.

    Returns
    -------
    BestConstant
        ``(value, low, high, loss)``.

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> best_constant(h.y_true, metric="mae")
    BestConstant(value=17.5, low=15.0, high=20.0, loss=6.666666666666667)
    """
    if metric not in ("mse", "mae", "mape"):
        raise ValueError(f'metric must be "mse", "mae" or "mape", got {metric!r}')
    y = arrays.real_column(y_true, "y_true")
    w = _weights(sample_weight, len(y))
    if metric == "mape" and np.any(y <= 0):
        raise ValueError("the MAPE-optimal constant needs positive y_true (MAPE divides by the target)")
    return _best_constant(y, w, metric)


def mape_optimal_constant(y_true: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """The constant forecast with the smallest MAPE: the 1/y-weighted median.

    Sort the targets and give each the weight ``1/y`` (times its sample
    weight); the result is the first target at which the cumulative weight
    reaches half the total.  Small targets weigh most, so this lies below the
    ordinary median: MAPE rewards under-forecasting.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Strictly positive targets.
    sample_weight : array_like of shape (n,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> mape_optimal_constant(h.y_true)
    12.0
    """
    return best_constant(y_true, metric="mape", sample_weight=sample_weight).value
