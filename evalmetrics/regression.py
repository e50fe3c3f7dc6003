"""Regression metrics and the constant forecast each one prefers.

* :func:`mean_squared_error`, :func:`root_mean_squared_error`,
  :func:`mean_absolute_error`, :func:`mean_absolute_percentage_error` and
  :func:`r2_score` -- scikit-learn's functions of the same names, for one
  target column, with ``sample_weight``.
* :func:`pinball_loss` -- the quantile loss, scikit-learn's
  ``mean_pinball_loss``: under-forecasts cost ``alpha`` per unit,
  over-forecasts ``1 - alpha``.
* :func:`mean_absolute_scaled_error` -- the MAE divided by the in-sample MAE
  of the (seasonal) naive forecast on a training series (Hyndman and
  Koehler, 2006).
* :func:`best_constant` -- the constant forecast that minimises MSE (the
  mean), MAE (any median), MAPE (a 1/y-weighted median) or the pinball loss
  (an ``alpha``-quantile), and :func:`mape_optimal_constant`, the MAPE one.

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
    "mean_absolute_scaled_error",
    "mean_squared_error",
    "pinball_loss",
    "r2_score",
    "root_mean_squared_error",
]

_EPS = np.finfo(np.float64).eps


class BestConstant(NamedTuple):
    """The minimising constant forecast(s) of a metric.

    Every constant in ``[low, high]`` attains the minimum ``loss``; ``value``
    is one representative: the mean (MSE), the midpoint of the median
    interval (MAE, the usual median), ``low`` (MAPE, the 1/y-weighted median
    where the cumulative weight first reaches half) or the midpoint of the
    ``alpha``-quantile interval (pinball loss).

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


def _pinball(y, y_hat, w, alpha):
    residual = y - y_hat
    # alpha per unit below the target, 1 - alpha per unit above it (scikit-learn's form).
    loss = alpha * np.maximum(residual, 0.0) + (1.0 - alpha) * np.maximum(-residual, 0.0)
    return float(np.average(loss, weights=w))


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


def _weighted_median_interval(y, w, alpha=0.5):
    """All minimisers of ``sum w_i |c - y_i|``: an interval ``[low, high]``.

    The derivative is (weight below c) - (weight above c); it vanishes on
    a whole gap between two data values when the cumulative weight hits
    exactly half the total there, otherwise only at one data value.  With
    ``alpha``, the minimisers of the pinball loss: the derivative of
    ``sum w_i rho_alpha(y_i - c)`` is (weight below c) - alpha (total
    weight), so "half" becomes the share ``alpha``.
    """
    order = np.argsort(y, kind="stable")
    y, w = y[order], w[order]
    keep = w > 0
    y, w = y[keep], w[keep]
    cumulative = np.cumsum(w)
    level = cumulative[-1] * alpha
    # A relative tolerance, so that weights like 1/y that sum to half up to
    # rounding still count as an exact tie.
    tolerance = 1e-12 * cumulative[-1]
    k = int(np.searchsorted(cumulative, level - tolerance))
    if abs(cumulative[k] - level) <= tolerance and k + 1 < len(y):
        return float(y[k]), float(y[k + 1])
    return float(y[k]), float(y[k])


def _best_constant(y, w, metric, alpha=0.5):
    weights = np.ones(len(y)) if w is None else w
    if metric == "mse":
        value = float(np.average(y, weights=weights))
        low = high = value
    elif metric in ("mae", "pinball"):
        low, high = _weighted_median_interval(y, weights, alpha)
        value = (low + high) / 2.0
    else:
        low, high = _weighted_median_interval(y, weights / y)
        value = low
    constant = np.full(len(y), value)
    if metric == "pinball":
        return BestConstant(value, low, high, _pinball(y, constant, w, alpha))
    loss = {"mse": _mse, "mae": _mae, "mape": _mape}[metric](y, constant, w)
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


def pinball_loss(y_true: ArrayLike, y_pred: ArrayLike, *, alpha: float = 0.5,
                 sample_weight: ArrayLike | None = None) -> float:
    """Pinball (quantile) loss: ``mean(alpha (y - y_pred)+ + (1 - alpha) (y_pred - y)+)``.

    A forecast below its target costs ``alpha`` per unit, one above it
    ``1 - alpha``, so the loss is smallest for the ``alpha``-quantile of the
    target (:func:`best_constant` with ``metric="pinball"``): a forecast of
    "demand we cover nine days in ten" is judged with ``alpha=0.9``.  At
    ``alpha=0.5`` it is half the MAE.  Equals scikit-learn's
    ``mean_pinball_loss``.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Targets and predictions (finite real numbers).
    alpha : float, default 0.5
        The quantile level, in [0, 1].
    sample_weight : array_like of shape (n,), optional
        Non-negative row weights (a weighted mean).

    Returns
    -------
    float

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> pinball_loss(h.y_true, h.y_pred)
    1.25
    >>> round(pinball_loss(h.y_true, h.y_pred, alpha=0.9), 4)
    1.3167
    """
    alpha = arrays.probability(alpha, "alpha", open_interval=False)
    return _pinball(*_pair(y_true, y_pred, sample_weight), alpha)


def mean_absolute_scaled_error(y_true: ArrayLike, y_pred: ArrayLike, *, y_train: ArrayLike,
                               seasonality: int = 1) -> float:
    """MASE: the MAE divided by the in-sample MAE of the naive forecast.

    ``MASE = mean |y_pred - y_true| / mean_t |y_train[t] - y_train[t - m]|``
    with ``m = seasonality``: the scale is the mean absolute error that the
    forecast "the value ``m`` steps earlier" made on the training series
    (Hyndman and Koehler, 2006).  Below 1, the forecast beats that naive
    forecast's in-sample error; the ratio has no units, stays finite when
    targets are zero and treats errors above and below the target alike.

    A training series equal to itself ``m`` steps later has a zero scale:
    the result is NaN with an :class:`~evalmetrics.arrays.UndefinedMetricWarning`.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,)
        Targets and forecasts of the evaluation period.
    y_train : array_like of shape (T,)
        The training series, in time order; at least ``seasonality + 1``
        values.
    seasonality : int, default 1
        The lag of the naive forecast: 1 for "the day before", 7 for "the
        same weekday a week before" in daily data.

    Returns
    -------
    float

    Examples
    --------
    The households' use, forecast for the next six days, against a training
    week whose day-to-day changes are 4 kWh each:

    >>> from evalmetrics.worked_example import six_households
    >>> h = six_households()
    >>> week = [14.0, 18.0, 14.0, 18.0, 22.0, 18.0, 22.0]
    >>> mean_absolute_scaled_error(h.y_true, h.y_pred, y_train=week)
    0.625
    """
    y, y_hat, _ = _pair(y_true, y_pred, None)
    train = arrays.real_column(y_train, "y_train")
    seasonality = arrays.positive_int(seasonality, "seasonality")
    if len(train) <= seasonality:
        raise ValueError(f"y_train needs more than seasonality={seasonality} values, got {len(train)}")
    return _mase(y, y_hat, train, seasonality)


def _mase(y, y_hat, train, seasonality):
    scale = float(np.mean(np.abs(train[seasonality:] - train[:-seasonality])))
    if scale == 0:
        warnings.warn(
            "mean_absolute_scaled_error is undefined when y_train repeats itself at lag seasonality "
            "(the naive forecast's in-sample error is zero); returning nan",
            arrays.UndefinedMetricWarning,
            stacklevel=3,
        )
        return float("nan")
    return _mae(y, y_hat, None) / scale


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


def best_constant(y_true: ArrayLike, *, metric: Literal["mse", "mae", "mape", "pinball"] = "mse",
                  alpha: float | None = None, sample_weight: ArrayLike | None = None) -> BestConstant:
    """The constant forecast minimising ``metric`` on ``y_true``.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Targets.
    metric : {"mse", "mae", "mape", "pinball"}, default "mse"
        ``"mse"``: the (weighted) mean.  ``"mae"``: any (weighted) median;
        with an even count the whole interval between the two middle values.
        ``"mape"``: the median with weights ``1/y``; targets must be positive.
        ``"pinball"``: any (weighted) ``alpha``-quantile, the interval where
        the cumulative weight reaches the share ``alpha`` of the total
        (``low`` is ``numpy.quantile(y, alpha, weights=w,
        method="inverted_cdf")``).
    alpha : float, optional
        The quantile level of ``metric="pinball"``, strictly between 0 and 1
        (default 0.5, where the pinball loss is half the MAE).  Only for
        ``"pinball"``.
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
    >>> best_constant(h.y_true, metric="pinball", alpha=0.8).value
    25.0
    """
    if metric not in ("mse", "mae", "mape", "pinball"):
        raise ValueError(f'metric must be "mse", "mae", "mape" or "pinball", got {metric!r}')
    if alpha is not None and metric != "pinball":
        raise ValueError(f'alpha applies to metric="pinball" only, got metric={metric!r}')
    # At 0 or 1 every constant beyond the smallest or largest target is a minimiser: no interval to report.
    alpha = 0.5 if alpha is None else arrays.probability(alpha, "alpha")
    y = arrays.real_column(y_true, "y_true")
    w = _weights(sample_weight, len(y))
    if metric == "mape" and np.any(y <= 0):
        raise ValueError("the MAPE-optimal constant needs positive y_true (MAPE divides by the target)")
    return _best_constant(y, w, metric, alpha)


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
