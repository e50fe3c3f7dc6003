"""Checks of the regression metrics and the best constants.

Covers :mod:`evalmetrics.regression` (the chapter ``book/regression.md``): the
errors, R-squared and the pinball loss against ``sklearn.metrics``, the best
MAE, MAPE and pinball constants against the minimum of scikit-learn's loss over
the targets.
"""

from __future__ import annotations

import numpy as np

from ... import regression
from ._core import _check, _load, _worst
from ._data import _REGRESSION_DATA, _regression_sets

# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------

for _name in ("mean_squared_error", "root_mean_squared_error", "mean_absolute_error",
              "mean_absolute_percentage_error", "r2_score"):
    _check(_name, f"sklearn.metrics.{_name}", _REGRESSION_DATA)(
        lambda rng, n, name=_name: _worst((getattr(regression, name)(y, y_hat, sample_weight=w),
                                           _load(f"sklearn.metrics.{name}")(y, y_hat, sample_weight=w))
                                          for y, y_hat, w in _regression_sets(rng, n)))

_ALPHAS = (0.0, 0.1, 0.5, 0.9, 1.0)
_check("pinball_loss", "sklearn.metrics.mean_pinball_loss", _REGRESSION_DATA + "; alpha 0, 0.1, 0.5, 0.9, 1")(
    lambda rng, n: _worst((regression.pinball_loss(y, y_hat, alpha=alpha, sample_weight=w),
                           _load("sklearn.metrics.mean_pinball_loss")(y, y_hat, alpha=alpha, sample_weight=w))
                          for y, y_hat, w in _regression_sets(rng, n) for alpha in _ALPHAS))


def _grid_minimum(y, w, loss, **options):
    """Lowest minimiser and minimum of a loss over the constants at every target.

    The MAE, MAPE and pinball loss of a constant are piecewise linear in it,
    so a minimum always sits at a target value.
    """
    candidates = np.unique(y)
    losses = np.array([_load(loss)(y, np.full(len(y), c), sample_weight=w, **options) for c in candidates])
    # On a flat stretch (a weighted median that is not unique) the minimisers'
    # losses are equal but for rounding, so argmin alone may pick any of them:
    # take the lowest target whose loss is the minimum to rounding.
    lowest = int(np.flatnonzero(losses <= losses.min() * (1 + 1e-12))[0])
    return candidates[lowest], losses.min()


for _metric, _loss in (("mae", "mean_absolute_error"), ("mape", "mean_absolute_percentage_error")):
    _check(f'best_constant(metric="{_metric}")', f"lowest minimiser of sklearn.metrics.{_loss} over the targets",
           _REGRESSION_DATA, kind="model")(
        lambda rng, n, metric=_metric, loss=f"sklearn.metrics.{_loss}": _worst(
            ((best.low, best.loss), _grid_minimum(y, w, loss)) for y, _, w in _regression_sets(rng, n)
            for best in [regression.best_constant(y, metric=metric, sample_weight=w)]))
_check('best_constant(metric="pinball")', "lowest minimiser of sklearn.metrics.mean_pinball_loss over the targets",
       _REGRESSION_DATA + "; alpha 0.1, 0.5, 0.9", kind="model")(
    lambda rng, n: _worst(((best.low, best.loss), _grid_minimum(y, w, "sklearn.metrics.mean_pinball_loss", alpha=alpha))
                          for y, _, w in _regression_sets(rng, n) for alpha in _ALPHAS[1:-1]
                          for best in [regression.best_constant(y, metric="pinball", alpha=alpha, sample_weight=w)]))
_check("mape_optimal_constant", "argmin of sklearn.metrics.mean_absolute_percentage_error over the targets",
       _REGRESSION_DATA, kind="model")(lambda rng, n: _worst(
           (regression.mape_optimal_constant(y, sample_weight=w),
            _grid_minimum(y, w, "sklearn.metrics.mean_absolute_percentage_error")[0])
           for y, _, w in _regression_sets(rng, n)))
