"""Regression: MAPE with zero or small targets, and R-squared misread.

Demonstrates the section "Regression" of the chapter Pitfalls (``book/pitfalls.md``):
"MAPE with zero or small targets" (:func:`mape_near_zero`, :func:`mape_best_constant`)
and "Misreading R²" (:func:`misread_r_squared`), on the demand series and the six
households.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...datasets import demand_series
from ...regression import mape_optimal_constant, mean_absolute_percentage_error, r2_score
from ...worked_example import six_households
from ._common import _seed

__all__ = ["MapeConstant", "MapeNearZero", "RSquaredReadings", "mape_best_constant", "mape_near_zero",
           "misread_r_squared"]


# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------

class MapeNearZero(NamedTuple):
    """MAPE of a linear trend forecast of the last 182 days of the demand series."""

    zero_days: int
    zero_days_tested: int
    mape: float
    mape_sale_days: float


def _trend_forecast(seed, horizon=182):
    sales = demand_series(seed=_seed(seed))
    days = np.arange(len(sales), dtype=float)
    train, test = slice(0, len(sales) - horizon), slice(len(sales) - horizon, None)
    line = np.polyfit(days[train], sales[train], 1)
    return sales, days, train, test, line


def mape_near_zero(*, seed=0):
    """MAPE over every test day and over the days with a sale.

    Examples
    --------
    >>> r = mape_near_zero(seed=0)
    >>> r.mape > 1e10, r.mape_sale_days < 5
    (True, True)
    """
    sales, days, train, test, line = _trend_forecast(seed)
    actual, forecast = sales[test], np.polyval(line, days[test])
    sold = actual > 0
    return MapeNearZero(int(np.sum(sales == 0)), int(np.sum(~sold)),
                        mean_absolute_percentage_error(actual, forecast),
                        mean_absolute_percentage_error(actual[sold], forecast[sold]))


class MapeConstant(NamedTuple):
    """Best constant under MAPE for the six households, against the median."""

    mape_constant: float
    median: float
    mape_at_constant: float
    mape_at_median: float


def mape_best_constant():
    """12 kWh (MAPE 0.37) against the median 17.5 kWh (MAPE 0.4424).

    Examples
    --------
    >>> [round(x, 4) for x in mape_best_constant()]
    [12.0, 17.5, 0.37, 0.4424]
    """
    y = six_households().y_true
    best, median = mape_optimal_constant(y), float(np.median(y))
    return MapeConstant(best, median, mean_absolute_percentage_error(y, np.full(len(y), best)),
                        mean_absolute_percentage_error(y, np.full(len(y), median)))


class RSquaredReadings(NamedTuple):
    """R-squared against squared correlation, and the training mean as a forecast."""

    training_mean_r2: float
    fit_r2: float
    fit_correlation_squared: float
    test_r2: float
    test_correlation_squared: float


def misread_r_squared(*, seed=0):
    """R-squared of the demand series' trend line on its training days and on the last 182.

    Examples
    --------
    >>> r = misread_r_squared(seed=0)
    >>> r.training_mean_r2 < 0, abs(r.fit_r2 - r.fit_correlation_squared) < 1e-12
    (True, True)
    """
    sales, days, train, test, line = _trend_forecast(seed)
    fitted, forecast = np.polyval(line, days[train]), np.polyval(line, days[test])
    mean_forecast = np.full(len(sales[test]), sales[train].mean())
    return RSquaredReadings(
        r2_score(sales[test], mean_forecast),
        r2_score(sales[train], fitted), float(np.corrcoef(sales[train], fitted)[0, 1] ** 2),
        r2_score(sales[test], forecast), float(np.corrcoef(sales[test], forecast)[0, 1] ** 2))
