"""The report's bootstrap (evalmetrics/report/resampling.py) against the generic path.

The oracle is :func:`evalmetrics.intervals.bootstrap_interval` and
``bootstrap_difference`` with each metric written as a plain function of
the resampled rows (recomputed from scratch on every resample, through the
package's ordinary kernels): the same seed draws the same resamples, so
every estimate and interval end must agree to 1e-12 -- on rows and on whole
groups, with heavy ties, scores tied across the classes, a threshold on a
tied score, resamples that miss a class, and the paired differences.
Every number is the library's bootstrap fed by one pass of the report's
engine, and an engine that computes another number stops the report.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from evalmetrics._kernels.brier import brier as _brier
from evalmetrics.counts import _binary_counts_from_masks
from evalmetrics.curves import _average_precision, _roc_auc, _threshold_table
from evalmetrics.intervals import bootstrap_difference, bootstrap_interval
from evalmetrics.rates import balanced_accuracy, f1, matthews_correlation
from evalmetrics.report import build_report, dataset_from_arrays
from evalmetrics.report.resampling import RANKING_METRICS, THRESHOLD_METRICS, ReportBootstrap

TOL = 1e-12


def at_threshold(threshold, compute):
    def metric(y, s):
        c = _binary_counts_from_masks(y, s >= threshold)
        if c.positives == 0 or c.negatives == 0:
            return math.nan
        return compute(c)
    return metric


def ratio(successes, trials):
    return successes / trials if trials else math.nan


ORACLE = {
    "accuracy": lambda t: at_threshold(t, lambda c: ratio(c.tp + c.tn, c.total)),
    "precision": lambda t: at_threshold(t, lambda c: ratio(c.tp, c.flagged)),
    "recall": lambda t: at_threshold(t, lambda c: ratio(c.tp, c.positives)),
    "specificity": lambda t: at_threshold(t, lambda c: ratio(c.tn, c.negatives)),
    "f1": lambda t: at_threshold(t, lambda c: f1(counts=c, zero_division=math.nan)),
    "balanced_accuracy": lambda t: at_threshold(t, lambda c: balanced_accuracy(counts=c, zero_division=math.nan)),
    "mcc": lambda t: at_threshold(t, lambda c: matthews_correlation(counts=c)),
    "auc": lambda t: (lambda y, s: _roc_auc(y, s)),
    "average_precision": lambda t: (lambda y, s: _average_precision(_threshold_table(y, s))),
    "brier": lambda t: (lambda y, p: _brier(y.astype(float), p)),
}


def generic(function, metric, *columns, groups, resamples, seed):
    """(estimate, low, high, skipped) of the generic bootstrap, NaN where it says undefined."""
    try:
        result = function(metric, *columns, n_resamples=resamples, groups=groups, seed=seed)
    except ValueError as error:
        assert "undefined" in str(error)
        return math.nan, math.nan, math.nan, 0
    return result.estimate, result.interval.low, result.interval.high, result.n_skipped


def same(estimate, expected):
    value, low, high, _ = expected
    for mine, theirs in ((estimate.value, value), (estimate.low, low), (estimate.high, high)):
        assert (math.isnan(mine) and math.isnan(theirs)) or abs(mine - theirs) <= TOL, (estimate, expected)


def data(seed, n, decimals, n_groups=None, prevalence=0.3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    a = np.round(np.clip(0.25 * y + 0.75 * rng.random(n), 0, 1), decimals)
    b = np.round(np.clip(0.15 * y + 0.85 * rng.random(n), 0, 1), max(decimals - 1, 1))
    groups = None if n_groups is None else rng.integers(0, n_groups, n).astype(str)
    return y, a, b, groups


CASES = {
    "rows, heavy ties": dict(seed=0, n=60, decimals=1),
    "rows, two decimals": dict(seed=1, n=150, decimals=2),
    "rows, distinct scores": dict(seed=2, n=90, decimals=12),
    "rows, few positives": dict(seed=3, n=25, decimals=1, prevalence=0.12),
    "groups, heavy ties": dict(seed=4, n=80, decimals=1, n_groups=9),
    "groups, two decimals": dict(seed=5, n=120, decimals=2, n_groups=25),
    "groups, few groups": dict(seed=6, n=40, decimals=1, n_groups=3),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_every_number_equals_the_generic_bootstrap(case):
    y, a, b, groups = data(**CASES[case])
    thresholds = [0.5, float(b[3])]  # the second sits on a tied score
    resamples, seed = 60, 11
    boot = ReportBootstrap(y, groups, [a, b], thresholds, [True, True], resamples=resamples, seed=seed,
                           confidence=0.95)
    for column, (s, t) in enumerate(zip((a, b), thresholds)):
        skipped = 0
        for metric in THRESHOLD_METRICS + RANKING_METRICS:
            expected = generic(bootstrap_interval, ORACLE[metric](t), y, s, groups=groups, resamples=resamples,
                               seed=seed)
            same(boot.estimate(column, metric), expected)
            skipped = max(skipped, expected[3])
        assert boot.skipped(column, THRESHOLD_METRICS + RANKING_METRICS) == skipped
    for metric in RANKING_METRICS:
        expected = generic(bootstrap_difference, ORACLE[metric](None), y, a, b, groups=groups,
                           resamples=resamples, seed=seed)
        same(boot.difference(0, 1, metric), expected)


def test_resamples_that_miss_a_class_are_left_out_as_in_the_generic_path():
    y = np.zeros(12, dtype=bool)
    y[:2] = True
    s = np.linspace(0.05, 0.95, 12)
    boot = ReportBootstrap(y, None, [s], [0.5], [True], resamples=200, seed=3, confidence=0.9)
    expected = generic(bootstrap_interval, ORACLE["auc"](None), y, s, groups=None, resamples=200, seed=3)
    assert expected[3] > 0  # the case exercises skipping
    same(boot.estimate(0, "auc"), expected)
    assert boot.skipped(0, ["auc"]) == expected[3]


def test_a_report_is_the_generic_bootstrap_wired_in():
    y, a, b, groups = data(seed=7, n=100, decimals=2, n_groups=12)
    report = build_report(dataset_from_arrays(y, {"a": a, "b": b * 4 - 1}, groups=groups), resamples=40, seed=2)
    column = report.column("a")
    for field, metric in (("auc", "auc"), ("average_precision", "average_precision"), ("brier", "brier"),
                          ("mcc", "mcc"), ("precision", "precision")):
        expected = generic(bootstrap_interval, ORACLE[metric](0.5), y, a, groups=groups, resamples=40, seed=2)
        same(getattr(column, field), expected)
    assert report.column("b").brier is None  # not probabilities: no Brier score, no Brier difference
    assert [d.metric for d in report.differences] == ["AUC", "average precision"]
    expected = generic(bootstrap_difference, ORACLE["auc"](None), y, a, b * 4 - 1, groups=groups, resamples=40,
                       seed=2)
    same(report.differences[0].bootstrap, expected)


def test_a_row_drawn_256_times_or_more_is_counted_in_full():
    from evalmetrics.report.resampling import _bytes, _SortedColumn

    y, a, _, _ = data(seed=8, n=400, decimals=2)
    column = _SortedColumn(y, a, 0.5, True)
    wide = np.zeros(len(y), dtype=np.int64)
    wide[:40] = 1
    wide[np.flatnonzero(y)[0]] = 300  # as a byte, 300 would wrap around to 44
    wide[np.flatnonzero(~y)[0]] = 260
    assert _bytes(wide) is wide and _bytes(np.minimum(wide, 255)).dtype == np.uint8
    found = column.numbers(_bytes(wide), int(wide.sum()))
    expected = ORACLE["auc"](None)(np.repeat(y, wide), np.repeat(a, wide))
    assert abs(found[4] - expected) <= TOL
    c = _binary_counts_from_masks(np.repeat(y, wide), np.repeat(a, wide) >= 0.5)
    assert found[:4] == (c.tp, c.fp, c.fn, c.tn)


# ---------------------------------------------------------------------------
# one engine: every number is the library's bootstrap, which checks the engine
# ---------------------------------------------------------------------------

def test_every_number_is_the_librarys_bootstrap_fed_by_one_pass(monkeypatch):
    import evalmetrics.report.resampling as resampling

    calls, runs = [], []
    for name in ("bootstrap_interval", "bootstrap_difference"):
        real = getattr(resampling, name)
        monkeypatch.setattr(resampling, name,
                            lambda *args, _real=real, _name=name, **kwargs: calls.append((_name, kwargs)) or
                            _real(*args, **kwargs))
    real_run = resampling._Pass._run
    monkeypatch.setattr(resampling._Pass, "_run", lambda self, *args: runs.append(1) or real_run(self, *args))
    y, a, b, groups = data(seed=9, n=120, decimals=2, n_groups=15)
    boot = ReportBootstrap(y, groups, [a, b], [0.5, 0.5], [True, True], resamples=30, seed=4, confidence=0.9)
    for column in (0, 1):
        for metric in THRESHOLD_METRICS + RANKING_METRICS:
            boot.estimate(column, metric)
    for metric in RANKING_METRICS:
        boot.difference(0, 1, metric)
    assert len(runs) == 1  # one pass over the resamples serves all 23 numbers
    assert [name for name, _ in calls] == ["bootstrap_interval"] * 20 + ["bootstrap_difference"] * 3
    assert all(callable(options["engine"]) and options["n_resamples"] == 30 and options["seed"] == 4
               for _, options in calls)


@pytest.mark.parametrize("number", range(7))
def test_an_engine_that_computes_another_number_stops_the_report(monkeypatch, number):
    """A fault in the report's engine (one of its seven numbers off by 1e-9) is caught by the
    bootstrap's check against the library's own metric, never printed."""
    from evalmetrics.report.resampling import _SortedColumn

    real = _SortedColumn.numbers

    def off(self, *args):
        values = list(real(self, *args))
        values[number] += 1e-9 if number >= 4 else 1
        return tuple(values)

    monkeypatch.setattr(_SortedColumn, "numbers", off)
    y, a, _, _ = data(seed=10, n=80, decimals=2)
    with pytest.raises(ValueError, match="engine does not compute metric"):
        build_report(dataset_from_arrays(y, {"a": a, "b": a[::-1]}), resamples=20, seed=1)
