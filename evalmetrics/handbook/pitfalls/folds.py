"""Folds: averaging fold metrics against pooling, and folds without positives.

Demonstrates the section "Folds" of the chapter Pitfalls (``book/pitfalls.md``):
"Averaging fold metrics, or pooling without thinking" (:func:`fold_averaging`,
:func:`fold_rmse`) and "Folds without positives" (:func:`folds_without_positives`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ... import arrays
from ...cross_validation import k_fold, stratified_k_fold, time_series_split
from ...datasets import demand_series
from ...rates import f1, precision
from ...regression import root_mean_squared_error
from ...worked_example import twelve_units
from ._common import _seed

__all__ = ["EmptyFolds", "FoldAverages", "FoldRmse", "fold_averaging", "fold_rmse", "folds_without_positives"]


# ---------------------------------------------------------------------------
# folds
# ---------------------------------------------------------------------------

class FoldAverages(NamedTuple):
    """Fold means and pooled values of the twelve units' stratified folds at 0.5."""

    mean_precision: float
    pooled_precision: float
    mean_f1: float
    pooled_f1: float


def fold_averaging():
    """Four stratified folds of the twelve units: mean F1 13/24 against pooled 3/5.

    Examples
    --------
    >>> [round(x, 4) for x in fold_averaging()]
    [0.4583, 0.5, 0.5417, 0.6]
    """
    u = twelve_units()
    pred = (u.y_score >= 0.5).astype(int)
    folds = stratified_k_fold(u.y_true, n_splits=4)
    # The fold that flags nothing has precision 0/0, counted as 0 (scikit-learn's default).
    mean_p = np.mean([precision(u.y_true[t], pred[t], zero_division=0) for _, t in folds])
    mean_f = np.mean([f1(u.y_true[t], pred[t], zero_division=0) for _, t in folds])
    return FoldAverages(float(mean_p), precision(u.y_true, pred), float(mean_f), f1(u.y_true, pred))


@dataclass(frozen=True)
class FoldRmse:
    """RMSE of a linear trend forecast in five forward-chaining folds."""

    fold_rmse: tuple
    mean_rmse: float
    pooled_rmse: float


def fold_rmse(*, seed=0):
    """Mean of fold RMSEs against the pooled RMSE on :func:`~evalmetrics.datasets.demand_series`.

    Each fold fits a least-squares line in the day number to its training
    days and forecasts its test block; the five test blocks have equal sizes.

    Examples
    --------
    >>> r = fold_rmse(seed=0)
    >>> r.mean_rmse <= r.pooled_rmse
    True
    """
    sales = demand_series(seed=_seed(seed))
    days = np.arange(len(sales), dtype=float)
    rmses, errors = [], []
    for train, test in time_series_split(len(sales), n_splits=5):
        forecast = np.polyval(np.polyfit(days[train], sales[train], 1), days[test])
        rmses.append(root_mean_squared_error(sales[test], forecast))
        errors.append(forecast - sales[test])
    pooled = math.sqrt(np.mean(np.concatenate(errors) ** 2))
    return FoldRmse(tuple(rmses), float(np.mean(rmses)), pooled)


class EmptyFolds(NamedTuple):
    """Test folds without a positive, 10 positives among 200 rows, ten folds."""

    n_folds: int
    probability: float
    expected: float
    shuffled: int
    stratified: int


def folds_without_positives(*, n_shuffles=200):
    """Count folds without a positive over ``n_shuffles`` shuffled ten-fold splits.

    Shuffle ``s`` uses ``seed=s`` for ``s = 0, ..., n_shuffles - 1``.  A fold
    of 20 rows misses all 10 positives with probability C(190, 20) / C(200, 20).

    Examples
    --------
    >>> r = folds_without_positives(n_shuffles=20)
    >>> r.n_folds, round(r.probability, 4), r.stratified
    (200, 0.3398, 0)
    """
    n_shuffles = arrays.positive_int(n_shuffles, "n_shuffles")
    y = np.r_[np.ones(10, int), np.zeros(190, int)]
    probability = math.comb(190, 20) / math.comb(200, 20)
    shuffled = sum(int(y[f.test].sum() == 0)
                   for s in range(n_shuffles) for f in k_fold(200, n_splits=10, shuffle=True, seed=s))
    stratified = sum(int(y[f.test].sum() == 0)
                     for s in range(n_shuffles)
                     for f in stratified_k_fold(y, n_splits=10, shuffle=True, seed=s))
    n_folds = 10 * n_shuffles
    return EmptyFolds(n_folds, probability, n_folds * probability, shuffled, stratified)
