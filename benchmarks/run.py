#!/usr/bin/env python
"""Speed of evalmetrics against scikit-learn / SciPy and a physical-limit proxy (issue 5).

For every benchmarked function the script builds the data once, then times,
in the same process and interleaved (evalmetrics, counterpart, proxy,
evalmetrics, counterpart, proxy, ...):

* the evalmetrics function;
* its counterpart: the scikit-learn or SciPy function, or a plain Python
  loop over ``roc_auc_score`` for the bootstrap;
* a proxy of the physical limit: one ``np.sort`` / ``np.argsort`` of the
  scores for the ranking metrics, one ``np.bincount`` pass for the count
  metrics (for the BCa rows, the evalmetrics percentile bootstrap itself).

The number of rounds adapts to the cost of one call (a time budget per
row, at least three rounds); very fast calls are repeated inside one
sample so that a sample lasts a few milliseconds.  Medians are reported,
with the ratios evalmetrics / counterpart and evalmetrics / proxy, the
issue-5 target of each ratio and PASS or FAIL.

    python benchmarks/run.py              # the full suite (a few minutes)
    python benchmarks/run.py --quick      # smoke test: small sizes, few rounds
    python benchmarks/run.py --only roc_auc,brier_score --max-n 100000
    python benchmarks/run.py --markdown   # the table for benchmarks/README.md
    python benchmarks/run.py --list       # the benchmark names
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import types
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
# Time the working tree's package, whatever happens to be installed.
sys.path.insert(0, str(REPO))

import evalmetrics  # noqa: E402  (the working tree's, after the path above)

N_RESAMPLES = 2000          # B of issue 5
SEED = 20260505


# ---------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------

_CACHE: dict = {}


def binary_data(n, tied):
    """Binormal scores, 10 % positives: negatives N(0, 1), positives N(2, 1)
    (AUC about 0.92, as in the handbook's imbalance study), a second, weaker
    model for paired comparisons, and probabilities: the true posterior of the
    binormal model, so that the calibration functions see sensible input.
    ``tied`` rounds scores and probabilities to 2 decimals."""
    key = ("binary", n, tied)
    if key not in _CACHE:
        _CACHE.clear()  # keep one data set in memory at a time (1e7 rows are big)
        rng = np.random.default_rng(SEED + n)
        y = (rng.random(n) < 0.10).astype(np.int64)
        score = rng.normal(size=n) + 2.0 * y
        score_b = rng.normal(size=n) + 1.6 * y
        prob = 1.0 / (1.0 + np.exp(-(2.0 * score - 2.0 + math.log(0.1 / 0.9))))
        if tied:
            score, score_b, prob = np.round(score, 2), np.round(score_b, 2), np.round(prob, 2)
        y_pred = (score >= 1.0).astype(np.int64)
        _CACHE[key] = types.SimpleNamespace(y=y, score=score, score_b=score_b, prob=prob, y_pred=y_pred)
    return _CACHE[key]


def class_data(n, kind):
    """Ten classes: labels uniform on 0..9, predictions right 70 % of the time
    (else uniform); ``kind="str"`` maps them to strings ``"c0"`` ... ``"c9"``."""
    key = ("classes", n, kind)
    if key not in _CACHE:
        _CACHE.clear()
        rng = np.random.default_rng(SEED + 7 * n)
        y_true = rng.integers(0, 10, n)
        y_pred = np.where(rng.random(n) < 0.3, rng.integers(0, 10, n), y_true)
        if kind == "str":
            names = np.array([f"c{k}" for k in range(10)])
            y_true, y_pred = names[y_true], names[y_pred]
        _CACHE[key] = types.SimpleNamespace(y_true=y_true, y_pred=y_pred)
    return _CACHE[key]


# ---------------------------------------------------------------------------
# result checks (not timed): a benchmark of a wrong answer is worthless
# ---------------------------------------------------------------------------

def values_of(result):
    """Flatten a result (number, array, tuple, named tuple, dataclass) to arrays."""
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        parts = [getattr(result, f.name) for f in dataclasses.fields(result)]
    elif isinstance(result, tuple):
        parts = list(result)
    else:
        parts = [result]
    out = []
    for part in parts:
        try:
            array = np.asarray(part, dtype=float)
        except (TypeError, ValueError):
            continue
        out.append(array)
    return out


def close(a, b, tol=1e-9):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return False
    return bool(np.all((np.abs(a - b) <= tol) | (np.isnan(a) & np.isnan(b)) | (a == b)))


def check_scalar(em_result, sk_result):
    mine = values_of(em_result)
    return "ok" if mine and close(np.ravel(mine[0])[0], sk_result) else "DIFF"


def check_first_values(count):
    def check(em_result, sk_result):
        mine = [np.ravel(v) for v in values_of(em_result)]
        flat = np.concatenate(mine)[:count] if mine else np.array([])
        theirs = np.array([float(v) for v in list(sk_result)[:count]])
        return "ok" if close(flat, theirs) else "DIFF"
    return check


def check_arrays(em_result, sk_result):
    """Every scikit-learn array must appear among ours, in either order, allowing
    for scikit-learn's extra end point of the precision-recall curve."""
    mine = [v for v in values_of(em_result) if v.ndim == 1]
    for theirs in sk_result:
        theirs = np.asarray(theirs, dtype=float)
        candidates = (theirs, theirs[::-1], theirs[:-1], theirs[:-1][::-1], theirs[1:], theirs[1:][::-1])
        finite = [c for c in candidates]
        if not any(close(np.where(np.isinf(m), 1e300, m), np.where(np.isinf(c), 1e300, c))
                   for m in mine for c in finite):
            return "DIFF"
    return "ok"


def check_matrix(em_result, sk_result):
    return "ok" if np.array_equal(np.asarray(em_result), np.asarray(sk_result)) else "DIFF"


def check_folds(em_result, sk_result):
    mine = [values_of(fold) for fold in em_result]
    if len(mine) != len(sk_result):
        return "DIFF"
    for (train, test), (sk_train, sk_test) in zip(mine, sk_result):
        if not (np.array_equal(train, sk_train) and np.array_equal(test, sk_test)):
            return "DIFF"
    return "ok"


def interval_bounds(result):
    """(low, high) of an interval result: ``.interval``, ``.low``/``.high``, or the
    first two numbers of a tuple."""
    for holder in (getattr(result, "interval", None), result):
        if holder is not None and hasattr(holder, "low") and hasattr(holder, "high"):
            return float(holder.low), float(holder.high)
    values = [np.ravel(v) for v in values_of(result)]
    flat = np.concatenate(values) if values else np.array([])
    if len(flat) < 2:
        raise ValueError("no interval in the result")
    return float(flat[0]), float(flat[1])


def check_interval(em_result, estimate):
    """The interval must contain the full-sample value (``estimate``)."""
    low, high = interval_bounds(em_result)
    return "ok" if low <= estimate <= high else "DIFF"


def check_difference(em_result, sk_result):
    """A test of two AUCs must report their difference (``sk_result`` is the pair)."""
    difference = getattr(em_result, "difference", None)
    if difference is None:
        difference = np.ravel(values_of(em_result)[0])[0]
    return "ok" if close(difference, sk_result[0] - sk_result[1]) else "DIFF"


# ---------------------------------------------------------------------------
# targets
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Target:
    """evalmetrics / reference must be at most ``limit`` (a speed-up of
    ``1 / limit`` when ``speedup`` is set)."""

    limit: float
    speedup: bool = False

    def text(self):
        return f">= {1 / self.limit:g}x faster" if self.speedup else f"<= {self.limit:g}x"

    def passes(self, ratio):
        return ratio <= self.limit * (1 + 1e-9)


def at_least_1e5(target):
    return lambda n, variant: target if n >= 100_000 else None


# ---------------------------------------------------------------------------
# the registry
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Case:
    """What one row times; built by a benchmark's ``setup`` for one data set."""

    em: Callable
    counterpart: Callable | None = None
    counterpart_name: str = ""
    counterpart_scale: float = 1.0       # loop timed on fewer replicates, scaled linearly
    counterpart_once: bool = False       # too slow to repeat: one timed call
    proxy: Callable | None = None
    proxy_name: str = ""
    check: Callable | None = None        # check(em_result, counterpart_result) -> "ok" / "DIFF"
    check_against: Callable | None = None  # result to check against, if not the counterpart's
    note: str = ""


@dataclasses.dataclass
class Bench:
    name: str
    variants: tuple
    sizes: tuple
    quick_sizes: tuple
    setup: Callable                      # setup(em, n, variant, options) -> Case
    counterpart_target: Callable = lambda n, variant: None
    proxy_target: Callable = lambda n, variant: None
    counterpart_label: str = ""
    proxy_label: str = ""


BENCHES: list[Bench] = []


def bench(**kwargs):
    def register(setup):
        BENCHES.append(Bench(setup=setup, **kwargs))
        return setup
    return register


def sk():
    from sklearn import metrics
    return metrics


SCORE_VARIANTS = ("continuous", "tied")
RANK_SIZES = (10_000, 100_000, 1_000_000)
COUNT_SIZES = (10_000, 100_000, 1_000_000, 10_000_000)
QUICK = (10_000,)


# -- ranking metrics and curves --------------------------------------------

@bench(name="roc_auc", variants=SCORE_VARIANTS, sizes=RANK_SIZES + (10_000_000,), quick_sizes=QUICK,
       counterpart_label="roc_auc_score", proxy_label="np.sort",
       counterpart_target=lambda n, v: Target(0.15) if n < 100_000 else Target(0.30),
       proxy_target=lambda n, v: Target(1.5) if n >= 100_000 else None)
def _roc_auc(em, n, variant, options):
    f, d, m = em.roc_auc, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score), lambda: m.roc_auc_score(d.y, d.score), "roc_auc_score",
                proxy=lambda: np.sort(d.score), proxy_name="np.sort", check=check_scalar)


@bench(name="average_precision", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="average_precision_score", proxy_label="np.sort",
       counterpart_target=lambda n, v: Target(0.35),
       proxy_target=lambda n, v: Target(1.5) if n >= 100_000 else None)
def _average_precision(em, n, variant, options):
    f, d, m = em.average_precision, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score), lambda: m.average_precision_score(d.y, d.score),
                "average_precision_score", proxy=lambda: np.sort(d.score), proxy_name="np.sort",
                check=check_scalar)


@bench(name="roc_curve", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="roc_curve(drop_intermediate=False)", proxy_label="np.argsort",
       counterpart_target=lambda n, v: Target(0.65), proxy_target=lambda n, v: Target(1.4))
def _roc_curve(em, n, variant, options):
    f, d, m = em.roc_curve, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score), lambda: m.roc_curve(d.y, d.score, drop_intermediate=False)[:2],
                "roc_curve", proxy=lambda: np.argsort(d.score), proxy_name="np.argsort", check=check_arrays)


@bench(name="precision_recall_curve", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="precision_recall_curve", proxy_label="np.argsort",
       counterpart_target=lambda n, v: Target(0.65), proxy_target=lambda n, v: Target(1.4))
def _pr_curve(em, n, variant, options):
    f, d, m = em.precision_recall_curve, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score), lambda: m.precision_recall_curve(d.y, d.score)[:2],
                "precision_recall_curve", proxy=lambda: np.argsort(d.score), proxy_name="np.argsort",
                check=check_arrays)


# -- count metrics ---------------------------------------------------------

def bincount_proxy(y_true, y_pred, k):
    return lambda: np.bincount(y_true * k + y_pred, minlength=k * k)


@bench(name="confusion_matrix", variants=("int, 10 classes",), sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="confusion_matrix", proxy_label="np.bincount",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _confusion_int(em, n, variant, options):
    f, d, m = em.confusion_matrix, class_data(n, "int"), sk()
    return Case(lambda: f(d.y_true, d.y_pred), lambda: m.confusion_matrix(d.y_true, d.y_pred),
                "confusion_matrix", proxy=bincount_proxy(d.y_true, d.y_pred, 10), proxy_name="np.bincount",
                check=check_matrix)


@bench(name="confusion_matrix_str", variants=("str, 10 classes",), sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="confusion_matrix", counterpart_target=at_least_1e5(Target(0.5)))
def _confusion_str(em, n, variant, options):
    f, d, m = em.confusion_matrix, class_data(n, "str"), sk()
    return Case(lambda: f(d.y_true, d.y_pred), lambda: m.confusion_matrix(d.y_true, d.y_pred),
                "confusion_matrix", check=check_matrix)


@bench(name="averaged_scores", variants=("macro, 10 classes",), sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="precision_recall_fscore_support(average='macro')", proxy_label="np.bincount",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _averaged(em, n, variant, options):
    f, d, m = em.averaged_scores, class_data(n, "int"), sk()
    return Case(lambda: f(d.y_true, d.y_pred, average="macro"),
                lambda: m.precision_recall_fscore_support(d.y_true, d.y_pred, average="macro"),
                "precision_recall_fscore_support", proxy=bincount_proxy(d.y_true, d.y_pred, 10),
                proxy_name="np.bincount", check=check_first_values(3))


@bench(name="f_beta", variants=("binary, beta=2",), sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="fbeta_score(beta=2)", proxy_label="np.bincount",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _f_beta(em, n, variant, options):
    f, d, m = em.f_beta, binary_data(n, False), sk()
    return Case(lambda: f(d.y, d.y_pred, beta=2.0), lambda: m.fbeta_score(d.y, d.y_pred, beta=2.0), "fbeta_score",
                proxy=bincount_proxy(d.y, d.y_pred, 2), proxy_name="np.bincount", check=check_scalar)


@bench(name="matthews_correlation", variants=("binary", "10 classes"), sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="matthews_corrcoef", proxy_label="np.bincount",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _mcc(em, n, variant, options):
    f, m = em.matthews_correlation, sk()
    if variant == "binary":
        d = binary_data(n, False)
        y_true, y_pred, k = d.y, d.y_pred, 2
    else:
        d = class_data(n, "int")
        y_true, y_pred, k = d.y_true, d.y_pred, 10
    return Case(lambda: f(y_true, y_pred), lambda: m.matthews_corrcoef(y_true, y_pred), "matthews_corrcoef",
                proxy=bincount_proxy(y_true, y_pred, k), proxy_name="np.bincount", check=check_scalar)


@bench(name="cohen_kappa", variants=("quadratic, 10 classes",), sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="cohen_kappa_score(weights='quadratic')", proxy_label="np.bincount",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _kappa(em, n, variant, options):
    f, d, m = em.cohen_kappa, class_data(n, "int"), sk()
    return Case(lambda: f(d.y_true, d.y_pred, weights="quadratic"),
                lambda: m.cohen_kappa_score(d.y_true, d.y_pred, weights="quadratic"),
                "cohen_kappa_score", proxy=bincount_proxy(d.y_true, d.y_pred, 10), proxy_name="np.bincount",
                check=check_scalar)


@bench(name="brier_score", variants=SCORE_VARIANTS, sizes=COUNT_SIZES, quick_sizes=QUICK,
       counterpart_label="brier_score_loss", proxy_label="np.bincount(y, weights=p)",
       counterpart_target=at_least_1e5(Target(0.10)), proxy_target=at_least_1e5(Target(2.0)))
def _brier(em, n, variant, options):
    f, d, m = em.brier_score, binary_data(n, variant == "tied"), sk()
    # One bincount pass that reads both arrays: the least any score of (y, p) must do.
    return Case(lambda: f(d.y, d.prob), lambda: m.brier_score_loss(d.y, d.prob), "brier_score_loss",
                proxy=lambda: np.bincount(d.y, weights=d.prob, minlength=2), proxy_name="np.bincount",
                check=check_scalar)


# -- calibration -----------------------------------------------------------

@bench(name="reliability_curve", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="calibration_curve(n_bins=10)", counterpart_target=lambda n, v: Target(0.5))
def _reliability(em, n, variant, options):
    from sklearn.calibration import calibration_curve
    f, d = em.reliability_curve, binary_data(n, variant == "tied")
    return Case(lambda: f(d.y, d.prob, n_bins=10), lambda: calibration_curve(d.y, d.prob, n_bins=10),
                "calibration_curve", check=check_arrays)


def sklearn_ece(y, prob, n_bins=10):
    """ECE from scikit-learn's reliability curve plus the bin counts it does not return
    (same right-closed uniform bins as ``calibration_curve``)."""
    from sklearn.calibration import calibration_curve
    fraction, mean_predicted = calibration_curve(y, prob, n_bins=n_bins)
    bins = np.linspace(0.0, 1.0, n_bins + 1)
    counts = np.bincount(np.searchsorted(bins[1:-1], prob), minlength=n_bins)
    counts = counts[counts > 0]
    return float(np.sum(counts / len(prob) * np.abs(fraction - mean_predicted)))


@bench(name="expected_calibration_error", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="calibration_curve + bin weights", counterpart_target=lambda n, v: Target(0.5))
def _ece(em, n, variant, options):
    f, d = em.expected_calibration_error, binary_data(n, variant == "tied")
    return Case(lambda: f(d.y, d.prob, n_bins=10), lambda: sklearn_ece(d.y, d.prob),
                "calibration_curve+weights", check=check_scalar)


# -- bootstrap ---------------------------------------------------------------

def auc_loop(y, scores, replicates, seed=0):
    """The baseline: a Python loop of roc_auc_score on resampled rows (the
    difference of two AUCs when two score vectors are given)."""
    m = sk()
    rng = np.random.default_rng(seed)
    n = len(y)

    def run():
        values = []
        for _ in range(replicates):
            rows = rng.integers(0, n, n)
            y_resampled = y[rows]
            if y_resampled.min() == y_resampled.max():
                continue
            aucs = [m.roc_auc_score(y_resampled, s[rows]) for s in scores]
            values.append(aucs[0] - aucs[1] if len(aucs) == 2 else aucs[0])
        return np.percentile(values, [2.5, 97.5])
    return run


def loop_replicates(n, options):
    if options.quick:
        return 10
    return 50 if n <= 10_000 else 20


BOOT_SIZES = (10_000, 100_000)
QUICK_BOOT = (1_000,)


@bench(name="bootstrap_interval", variants=SCORE_VARIANTS, sizes=BOOT_SIZES, quick_sizes=QUICK_BOOT,
       counterpart_label="loop of roc_auc_score (B=2000)",
       counterpart_target=lambda n, v: Target(1 / 100, True) if v == "tied" else Target(1 / 30, True))
def _bootstrap(em, n, variant, options):
    d = binary_data(n, variant == "tied")
    r, b = loop_replicates(n, options), options.n_resamples
    return Case(lambda: em.bootstrap_interval(em.roc_auc, d.y, d.score, n_resamples=b, seed=0),
                auc_loop(d.y, [d.score], r), "loop", counterpart_scale=b / r,
                check=check_interval, check_against=lambda: sk().roc_auc_score(d.y, d.score),
                note=f"percentile, B={b}; loop timed on {r} resamples and scaled x{b / r:g}")


# draws="counts": multinomial counts over the cells of tied scores instead of the
# rows (the same bootstrap distribution, not SciPy's random numbers).  With
# continuous scores it draws rows, so only the tied data are timed; 1e6 shows
# that its cost no longer grows with n.
@bench(name="bootstrap_interval_counts", variants=("tied",), sizes=BOOT_SIZES + (1_000_000,),
       quick_sizes=QUICK_BOOT, counterpart_label="loop of roc_auc_score (B=2000)",
       counterpart_target=lambda n, v: Target(1 / 100, True))
def _bootstrap_counts(em, n, variant, options):
    d = binary_data(n, True)
    f, b = em.bootstrap_interval, options.n_resamples
    r = loop_replicates(n, options)
    return Case(lambda: f(em.roc_auc, d.y, d.score, n_resamples=b, seed=0, draws="counts"),
                auc_loop(d.y, [d.score], r), "loop", counterpart_scale=b / r,
                check=check_interval, check_against=lambda: sk().roc_auc_score(d.y, d.score),
                note=f'draws="counts", percentile, B={b}; loop timed on {r} resamples and scaled x{b / r:g}')


def scipy_bca(y, score, n_resamples):
    from scipy import stats
    m = sk()

    def run():
        return stats.bootstrap((y, score), lambda a, b: m.roc_auc_score(a, b), paired=True, vectorized=False,
                               n_resamples=n_resamples, method="BCa", batch=100,
                               rng=np.random.default_rng(0)).confidence_interval
    return run


# BCa only at n = 1e4, where issue 5 sets its targets: its jackknife is n metric calls.
@bench(name="bootstrap_interval_bca", variants=("continuous",), sizes=(10_000,), quick_sizes=(300,),
       counterpart_label="scipy.stats.bootstrap(method='BCa'), n = 1e4 only",
       proxy_label="evalmetrics percentile bootstrap",
       counterpart_target=lambda n, v: Target(1 / 200, True), proxy_target=lambda n, v: Target(1.2))
def _bootstrap_bca(em, n, variant, options):
    d = binary_data(n, False)
    b = options.n_resamples
    call = partial(em.bootstrap_interval, em.roc_auc, d.y, d.score, n_resamples=b, seed=0, method="bca")
    percentile = partial(em.bootstrap_interval, em.roc_auc, d.y, d.score, n_resamples=b, seed=0)
    counterpart = scipy_bca(d.y, d.score, b) if n <= 10_000 else None
    note = f"B={b}; SciPy timed once (its jackknife alone is n roc_auc_score calls)" if counterpart else \
        f"B={b}; SciPy BCa not run above n = 1e4 (minutes per call)"
    return Case(call, counterpart, "scipy BCa" if counterpart else "", counterpart_once=True,
                proxy=percentile, proxy_name="percentile", check=check_interval,
                check_against=lambda: sk().roc_auc_score(d.y, d.score), note=note)


@bench(name="bootstrap_difference", variants=SCORE_VARIANTS, sizes=BOOT_SIZES, quick_sizes=QUICK_BOOT,
       counterpart_label="loop of 2 x roc_auc_score (B=2000)",
       counterpart_target=lambda n, v: Target(1 / 30, True))
def _bootstrap_difference(em, n, variant, options):
    d = binary_data(n, variant == "tied")
    r, b = loop_replicates(n, options), options.n_resamples
    m = sk()
    return Case(lambda: em.bootstrap_difference(em.roc_auc, d.y, d.score, d.score_b, n_resamples=b, seed=0),
                auc_loop(d.y, [d.score, d.score_b], r), "loop", counterpart_scale=b / r,
                check=check_interval,
                check_against=lambda: m.roc_auc_score(d.y, d.score) - m.roc_auc_score(d.y, d.score_b),
                note=f"paired AUC difference, B={b}; loop timed on {r} resamples and scaled x{b / r:g}")


# -- DeLong ------------------------------------------------------------------

@bench(name="delong_interval", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="one roc_auc_score call", counterpart_target=lambda n, v: Target(0.35))
def _delong_interval(em, n, variant, options):
    f, d, m = em.delong_interval, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score), lambda: m.roc_auc_score(d.y, d.score), "roc_auc_score",
                check=check_interval, check_against=lambda: m.roc_auc_score(d.y, d.score))


@bench(name="delong_test", variants=SCORE_VARIANTS, sizes=RANK_SIZES, quick_sizes=QUICK,
       counterpart_label="two roc_auc_score calls", counterpart_target=lambda n, v: Target(0.6))
def _delong_test(em, n, variant, options):
    f, d, m = em.delong_test, binary_data(n, variant == "tied"), sk()
    return Case(lambda: f(d.y, d.score, d.score_b),
                lambda: (m.roc_auc_score(d.y, d.score), m.roc_auc_score(d.y, d.score_b)), "2 x roc_auc_score",
                check=check_difference)


# -- splitters -------------------------------------------------------------

SPLIT_SIZES = (1_000_000,)


def split_data(n):
    rng = np.random.default_rng(SEED + 3)
    y = (rng.random(n) < 0.10).astype(np.int64)
    groups = rng.integers(0, max(n // 20, 5), n)     # about 20 rows per group
    return np.zeros((n, 1)), y, groups


def materialize(split):
    return lambda: [(train, test) for train, test in split()]


@bench(name="k_fold", variants=("5 folds",), sizes=SPLIT_SIZES, quick_sizes=(100_000,),
       counterpart_label="KFold", counterpart_target=lambda n, v: Target(1.0))
def _k_fold(em, n, variant, options):
    from sklearn.model_selection import KFold
    f = em.k_fold
    X, _, _ = split_data(n)
    return Case(lambda: f(n, n_splits=5), materialize(lambda: KFold(5).split(X)), "KFold", check=check_folds)


@bench(name="stratified_k_fold", variants=("5 folds",), sizes=SPLIT_SIZES, quick_sizes=(100_000,),
       counterpart_label="StratifiedKFold", counterpart_target=lambda n, v: Target(0.6))
def _stratified(em, n, variant, options):
    from sklearn.model_selection import StratifiedKFold
    f = em.stratified_k_fold
    X, y, _ = split_data(n)
    return Case(lambda: f(y, n_splits=5), materialize(lambda: StratifiedKFold(5).split(X, y)),
                "StratifiedKFold", check=check_folds)


@bench(name="group_k_fold", variants=("5 folds",), sizes=SPLIT_SIZES, quick_sizes=(100_000,),
       counterpart_label="GroupKFold", counterpart_target=lambda n, v: Target(0.6))
def _group(em, n, variant, options):
    from sklearn.model_selection import GroupKFold
    f = em.group_k_fold
    X, y, groups = split_data(n)
    return Case(lambda: f(groups, n_splits=5), materialize(lambda: GroupKFold(5).split(X, y, groups)),
                "GroupKFold", check=check_folds)


# ---------------------------------------------------------------------------
# timing
# ---------------------------------------------------------------------------

def timed_call(function, number=1):
    start = time.perf_counter()
    for _ in range(number):
        result = function()
    return (time.perf_counter() - start) / number, result


def measure(case, options):
    """Median seconds per call of (evalmetrics, counterpart, proxy), interleaved."""
    callables = [case.em, case.counterpart, case.proxy]
    repeatable = [True, case.counterpart is not None and not case.counterpart_once, case.proxy is not None]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a warning path must not print in the middle of the table
        # Warm-up: one call each, which also gives the results to check and the cost of a call.
        first, results = [], []
        for function in callables:
            if function is None:
                first.append(None)
                results.append(None)
                continue
            seconds, result = timed_call(function)
            first.append(seconds)
            results.append(result)
        numbers = [max(1, math.ceil(options.min_sample / max(t, 1e-7))) if t is not None else 0 for t in first]
        per_round = sum(t * k for t, k, again in zip(first, numbers, repeatable) if again and t is not None)
        rounds = int(options.budget / max(per_round, 1e-9))
        rounds = max(options.min_rounds, min(options.max_rounds, rounds))
        if per_round > options.slow_round:
            rounds = 1  # e.g. a bootstrap at 1e5 rows: the warm-up plus one timed round
        rounds += 1 - rounds % 2  # odd: the median is one sample
        samples = [[] for _ in callables]
        gc.collect()
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            for _ in range(rounds):
                for i, function in enumerate(callables):
                    if repeatable[i]:
                        samples[i].append(timed_call(function, numbers[i])[0])
        finally:
            if gc_was_enabled:
                gc.enable()
    medians = []
    for i in range(3):
        if samples[i]:
            medians.append(statistics.median(samples[i]))
        else:
            medians.append(first[i])  # None, or the single timed call
    return medians, results, rounds


# ---------------------------------------------------------------------------
# running and reporting
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Row:
    name: str
    variant: str
    n: int
    status: str = "ok"            # ok / error
    em: float | None = None
    counterpart: float | None = None
    counterpart_name: str = ""
    counterpart_ratio: float | None = None
    counterpart_target: str = ""
    counterpart_result: str = ""
    proxy: float | None = None
    proxy_name: str = ""
    proxy_ratio: float | None = None
    proxy_target: str = ""
    proxy_result: str = ""
    check: str = ""
    rounds: int = 0
    note: str = ""


def compare(row, which, seconds, target):
    if seconds is None or row.em is None:
        return
    ratio = row.em / seconds
    setattr(row, f"{which}_ratio", ratio)
    if target is None:
        setattr(row, f"{which}_target", "")
        setattr(row, f"{which}_result", "info")
    else:
        setattr(row, f"{which}_target", target.text())
        setattr(row, f"{which}_result", "PASS" if target.passes(ratio) else "FAIL")


def run_one(em, spec, n, variant, options):
    row = Row(spec.name, variant, n)
    case = spec.setup(em, n, variant, options)
    try:
        (t_em, t_counterpart, t_proxy), results, rounds = measure(case, options)
    except Exception as exc:  # noqa: BLE001 - a failing call is a result to report, not a crash
        row.status, row.note = "error", f"{type(exc).__name__}: {str(exc)[:160]}"
        return row
    row.em, row.rounds, row.note = t_em, rounds, case.note
    if t_counterpart is not None:
        row.counterpart = t_counterpart * case.counterpart_scale
        row.counterpart_name = case.counterpart_name
        compare(row, "counterpart", row.counterpart, spec.counterpart_target(n, variant))
    if t_proxy is not None:
        row.proxy, row.proxy_name = t_proxy, case.proxy_name
        compare(row, "proxy", row.proxy, spec.proxy_target(n, variant))
    if case.check is not None:
        try:
            expected = case.check_against() if case.check_against else results[1]
            row.check = case.check(results[0], expected) if expected is not None else ""
        except Exception as exc:  # noqa: BLE001
            row.check = f"? ({type(exc).__name__})"
    return row


def sizes_for(spec, options):
    sizes = spec.quick_sizes if options.quick else spec.sizes
    if options.max_n:
        kept = tuple(n for n in sizes if n <= options.max_n)
        sizes = kept or (options.max_n,)
    return sizes


def fmt_time(seconds):
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} us"


def fmt_ratio(ratio):
    if ratio is None:
        return "-"
    return f"{ratio:.3f}" if ratio < 10 else f"{ratio:.1f}"


def fmt_n(n):
    exponent = math.log10(n)
    return f"1e{int(exponent)}" if exponent == int(exponent) else f"{n:,}"


def verdict(result, target):
    return f"{target} {result}".strip() if result else ""


HEADERS = ("function", "data", "n", "evalmetrics", "counterpart", "time", "ratio", "target",
           "proxy", "time", "ratio", "target", "check", "rounds", "note")


def cells(row):
    if row.status != "ok":
        return (row.name, row.variant, fmt_n(row.n), row.status.upper(), "", "", "", "", "", "", "", "", "",
                "", row.note)
    return (row.name, row.variant, fmt_n(row.n), fmt_time(row.em),
            row.counterpart_name or "-", fmt_time(row.counterpart), fmt_ratio(row.counterpart_ratio),
            verdict(row.counterpart_result, row.counterpart_target),
            row.proxy_name or "-", fmt_time(row.proxy), fmt_ratio(row.proxy_ratio),
            verdict(row.proxy_result, row.proxy_target), row.check, str(row.rounds), row.note)


def print_text(rows, out):
    table = [HEADERS] + [cells(r) for r in rows]
    shown = len(HEADERS) - 1  # the note goes on its own line
    widths = [max(len(line[i]) for line in table) for i in range(shown)]
    for k, line in enumerate(table):
        print("  ".join(cell.ljust(w) for cell, w in zip(line[:shown], widths)).rstrip(), file=out)
        if k and line[-1]:
            print(" " * 4 + "note: " + line[-1], file=out)
        if k == 0:
            print("  ".join("-" * w for w in widths), file=out)


def print_markdown(rows, out):
    print("| " + " | ".join(HEADERS) + " |", file=out)
    print("|" + "|".join(" --- " for _ in HEADERS) + "|", file=out)
    for row in rows:
        print("| " + " | ".join(c.replace("|", "/") for c in cells(row)) + " |", file=out)


def machine_note():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import scipy
    import sklearn
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=False).stdout.strip() or "?"
    except OSError:
        commit = "?"
    return (f"{datetime.datetime.now().isoformat(timespec='seconds')}; {cpu}, {os.cpu_count()} cores; "
            f"Python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
            f"scipy {scipy.__version__}; git {commit} (+ working tree); load average {load}")


def summary(rows):
    failing = [r for r in rows if "FAIL" in (r.counterpart_result, r.proxy_result)]
    counts = {k: sum(1 for r in rows for res in (r.counterpart_result, r.proxy_result) if res == k)
              for k in ("PASS", "FAIL")}
    lines = [f"targets: {counts['PASS']} PASS, {counts['FAIL']} FAIL; "
             f"{sum(r.status == 'error' for r in rows)} error(s), "
             f"{sum(r.check == 'DIFF' for r in rows)} result mismatch(es)"]
    if failing:
        lines.append("failing: " + ", ".join(sorted({r.name for r in failing})))
    return lines


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, few rounds: a smoke test")
    parser.add_argument("--only", metavar="NAME[,NAME]", help="run only these benchmarks (exact name or prefix)")
    parser.add_argument("--markdown", action="store_true", help="print the result table as Markdown")
    parser.add_argument("--max-n", type=float, metavar="N", help="skip sizes above N (e.g. 1e5)")
    parser.add_argument("--budget", type=float, help="seconds of timing per row (default 2, quick 0.2)")
    parser.add_argument("--json", metavar="PATH", help="also write the rows as JSON")
    parser.add_argument("--list", action="store_true", help="list the benchmark names and exit")
    options = parser.parse_args(argv)
    options.max_n = int(options.max_n) if options.max_n else None
    if options.budget is None:
        options.budget = 0.2 if options.quick else 2.0
    options.min_rounds = 3
    options.max_rounds = 15 if options.quick else 101
    options.min_sample = 0.001 if options.quick else 0.005
    # Quick mode is a smoke test: a tenth of the bootstrap resamples (the rows say so).
    options.n_resamples = 200 if options.quick else N_RESAMPLES
    options.slow_round = 20.0  # seconds; a round slower than this is timed once after the warm-up
    return options


def selected(options):
    if not options.only:
        return BENCHES
    wanted = [w.strip() for w in options.only.split(",") if w.strip()]
    chosen = [b for b in BENCHES if any(b.name == w or b.name.startswith(w) for w in wanted)]
    if not chosen:
        raise SystemExit(f"--only {options.only!r} matches no benchmark; try --list")
    return chosen


def main(argv=None):
    options = parse(argv)
    if options.list:
        for spec in BENCHES:
            print(f"{spec.name:28s} vs {spec.counterpart_label}"
                  + (f"; proxy {spec.proxy_label}" if spec.proxy_label else ""))
        return 0
    em = evalmetrics
    log = sys.stderr
    machine = machine_note()
    print(f"# evalmetrics benchmarks ({'quick' if options.quick else 'full'}): {machine}", file=log)
    rows = []
    started = time.perf_counter()
    for spec in selected(options):
        for n in sizes_for(spec, options):
            for variant in spec.variants:
                tick = time.perf_counter()
                row = run_one(em, spec, n, variant, options)
                rows.append(row)
                state = row.status if row.status != "ok" else \
                    " ".join(x for x in (row.counterpart_result, row.proxy_result) if x) or "ok"
                print(f"  {spec.name:28s} {variant:22s} n={fmt_n(n):5s} {state:10s} "
                      f"({time.perf_counter() - tick:.1f} s)", file=log, flush=True)
    load_after = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"# done in {time.perf_counter() - started:.0f} s; load average now {load_after}", file=log)
    out = sys.stdout
    print(file=out)
    (print_markdown if options.markdown else print_text)(rows, out)
    print(file=out)
    bullet = "- " if options.markdown else ""
    for line in summary(rows):
        print(bullet + line, file=out)
    print(bullet + "ratio = evalmetrics time / reference time (smaller is faster); loop times are scaled to "
          f"B = {options.n_resamples} resamples from fewer timed replicates (see the notes).", file=out)
    if options.json:
        Path(options.json).write_text(json.dumps({"machine": machine, "load_after": load_after,
                                                  "quick": options.quick,
                                                  "rows": [dataclasses.asdict(r) for r in rows]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
