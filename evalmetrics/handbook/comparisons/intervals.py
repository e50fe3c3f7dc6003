"""Checks of the intervals: the normal distribution, Wilson and Wald, the bootstrap.

Covers :mod:`evalmetrics.intervals` (the chapter ``book/intervals.md``), against
``scipy.special.ndtri`` and ``ndtr``, ``scipy.stats.binomtest`` and ``scipy.stats.bootstrap``.
"""

from __future__ import annotations

import math

import numpy as np

from ... import curves, intervals
from ._core import _check, _gap, _load, _worst

# ---------------------------------------------------------------------------
# intervals
# ---------------------------------------------------------------------------

@_check("normal_quantile", "scipy.special.ndtri", "3,999 levels in (0, 1); tails down to 1e-295", kind="formula")
def _(rng, n):
    levels = np.r_[np.linspace(0, 1, 4001)[1:-1], 10.0 ** -np.arange(1, 300, 7), 1 - 10.0 ** -np.arange(1, 16)]
    return _gap([intervals.normal_quantile(float(p)) for p in levels], _load("scipy.special.ndtri")(levels))


@_check("normal_cdf", "scipy.special.ndtr", "4,001 points from -37 to 8 (down to 1e-300)", kind="formula")
def _(rng, n):
    x = np.linspace(-37.0, 8.0, 4001)
    return _gap(intervals.normal_cdf(x), _load("scipy.special.ndtr")(x))


def _proportions():
    for trials in (1, 2, 5, 12, 37, 143, 1000):
        for successes in sorted({0, 1, trials // 3, trials // 2, trials - 1, trials}):
            for confidence in (0.8, 0.95, 0.99):
                yield successes, trials, confidence


_PROPORTIONS = "k from 0 to n, n from 1 to 1,000; confidence 0.8, 0.95, 0.99"
_check("wilson_interval", 'scipy.stats.binomtest(k, n).proportion_ci(method="wilson")', _PROPORTIONS, kind="formula")(
    lambda rng, n: _worst((intervals.wilson_interval(k, trials, confidence=c), tuple(
        _load("scipy.stats.binomtest")(k, trials).proportion_ci(confidence_level=c, method="wilson")))
        for k, trials, c in _proportions()))
_check("wald_interval", "p̂ ± z √(p̂ (1 − p̂) / n), z from scipy.stats.norm.ppf", _PROPORTIONS, kind="formula")(
    lambda rng, n: _worst((intervals.wald_interval(k, trials, confidence=c), (k / trials - half, k / trials + half))
                          for k, trials, c in _proportions()
                          for half in [_load("scipy.stats.norm").ppf(0.5 + c / 2)
                                       * math.sqrt(k / trials * (1 - k / trials) / trials)]))


def _tied_auc_data(rng):
    y = rng.integers(0, 2, 60)
    y[:2] = 0, 1
    return y, np.round(rng.normal(size=60) + 1.2 * y, 1)


def _bootstrap_pairs(ours, theirs):
    return [(ours.interval, tuple(theirs.confidence_interval)), (ours.standard_error, theirs.standard_error)]


@_check("bootstrap_interval", "scipy.stats.bootstrap(paired=True, vectorized=False, rng=seed)",
        "ROC AUC of 60 tied scores, mean of 30 skewed values; percentile and BCa")
def _(rng, n):
    data = {curves.roc_auc: _tied_auc_data(rng), np.mean: (rng.exponential(size=30),)}
    pairs = []
    for method in ("percentile", "bca"):
        for metric, columns in data.items():
            ours = intervals.bootstrap_interval(metric, *columns, n_resamples=200, method=method, seed=7)
            pairs += _bootstrap_pairs(ours, _load("scipy.stats.bootstrap")(
                columns, metric, paired=True, vectorized=False, n_resamples=200, method=method, rng=7))
    return _worst(pairs)


@_check("bootstrap_difference", "scipy.stats.bootstrap of the paired difference", "ROC AUC of two tied scores; BCa")
def _(rng, n):
    y, a = _tied_auc_data(rng)
    b = np.round(a + rng.normal(size=60), 1)
    ours = intervals.bootstrap_difference(curves.roc_auc, y, a, b, n_resamples=200, method="bca", seed=3)
    theirs = _load("scipy.stats.bootstrap")((y, a, b),
                                            lambda y_, a_, b_: curves.roc_auc(y_, a_) - curves.roc_auc(y_, b_),
                                            paired=True, vectorized=False, n_resamples=200, method="bca", rng=3)
    return _worst(_bootstrap_pairs(ours, theirs))
