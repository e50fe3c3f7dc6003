"""The report's bootstrap: the library's bootstrap, with one engine for every number.

Every bootstrapped number of a report is
:func:`evalmetrics.intervals.bootstrap_interval` (or ``bootstrap_difference``
for a paired difference) of a metric written with the library's public
functions -- :func:`~evalmetrics.roc_auc`,
:func:`~evalmetrics.average_precision`, :func:`~evalmetrics.brier_score` and
the rates at the column's threshold -- so the resamples, the percentile
interval and the rule for undefined resamples are the library's own.

What the report adds is an *engine* (see :mod:`evalmetrics._kernels.resampling`)
that computes all of those numbers for every column in one pass over the
resamples.  Each column is sorted once, and a resample is nothing but how
many times it drew each row (a ``bincount`` of the drawn rows, or of the
drawn groups spread over their rows).  From those multiplicities, in the
column's sorted order, the kernels give the AUC's ``2 U``
(:func:`~evalmetrics._kernels.auc.twice_u_of_counts`), the average precision
(:func:`~evalmetrics._kernels.auc.average_precision_of_counts`) and the
Brier score (:func:`~evalmetrics._kernels.brier.brier_of_counts`); the counts
below the threshold give the confusion matrix, hence the rates through the
library's rate functions.  ``bootstrap_interval`` trusts the engine only
after it has matched each metric on the data and on two resamples, and the
pass is run once: every number then reads its replicates from it.

Memory stays bounded: one chunk of draws at a time, and at most a few
resamples' multiplicities in flight.
"""

from __future__ import annotations

import collections
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._kernels import resampling
from .._kernels.auc import auc_from_twice_u, average_precision_of_counts, twice_u_of_counts
from .._kernels.brier import brier_of_counts, squared_errors
from ..calibration import brier_score
from ..counts import BinaryCounts
from ..curves import average_precision, roc_auc
from ..intervals import bootstrap_difference, bootstrap_interval
from ..rates import accuracy, balanced_accuracy, f1, matthews_correlation, precision, recall, specificity
from .results import UNDEFINED, Estimate

__all__ = ["ReportBootstrap"]

#: The bootstrapped numbers of a column, in the order they are computed.
THRESHOLD_METRICS = ("accuracy", "precision", "recall", "specificity", "f1", "balanced_accuracy", "mcc")
RANKING_METRICS = ("auc", "average_precision", "brier")
_WORKERS = max(1, min(4, os.cpu_count() or 1))
# Resamples in flight: each holds two n-long arrays (int64 and bytes); fewer for long columns.
_IN_FLIGHT_BYTES = 64 << 20

# The rates at a threshold, from counts (arrays over resamples); NaN where a ratio is 0 / 0.
_RATES = {
    "accuracy": lambda c: accuracy(c, zero_division=math.nan),
    "precision": lambda c: precision(c, zero_division=math.nan),
    "recall": lambda c: recall(c, zero_division=math.nan),
    "specificity": lambda c: specificity(c, zero_division=math.nan),
    "f1": lambda c: f1(c, zero_division=math.nan),
    "balanced_accuracy": lambda c: balanced_accuracy(c, zero_division=math.nan),
    "mcc": matthews_correlation,
}


def _with_both_classes(metric):
    """The metric, undefined (NaN) on rows that hold one class only."""
    def defined(y, s):
        return metric(y, s) if 0 < np.count_nonzero(y) < len(y) else math.nan
    return defined


def _metric(name, threshold):
    """The metric the report bootstraps as ``name``, written with the library's public functions.

    Every number at the threshold is undefined on a resample without both
    classes, like the AUC; a ratio whose denominator is zero is NaN.
    """
    if name == "auc":
        return roc_auc
    if name == "average_precision":
        return _with_both_classes(average_precision)
    if name == "brier":
        return _with_both_classes(brier_score)
    rate = {"accuracy": accuracy, "precision": precision, "recall": recall, "specificity": specificity,
            "f1": f1, "balanced_accuracy": balanced_accuracy}.get(name)
    if rate is None:
        return _with_both_classes(lambda y, s: matthews_correlation(y, s >= threshold))
    return _with_both_classes(lambda y, s: rate(y, s >= threshold, zero_division=math.nan))


def _cumulative(counts):
    """Cumulative sums with a leading 0: ``out[i]`` counts the first ``i`` entries (int64)."""
    out = np.empty(len(counts) + 1, dtype=np.int64)
    out[0] = 0
    # Widened first, then summed in place: numpy's cumsum with a dtype casts element by element.
    out[1:] = counts
    np.cumsum(out[1:], out=out[1:])
    return out


def _index(values, n):
    """Row numbers in the narrowest integer type that holds them: half the memory below 2**31 rows."""
    return values.astype(np.int32) if n < 2 ** 31 else values


class _SortedColumn:
    """One score column sorted once: where each positive sits among the negatives, and the threshold."""

    def __init__(self, is_positive, values, threshold, probabilities):
        n = len(values)
        order = np.argsort(values, kind="stable")
        ordered = values[order]
        positive = is_positive[order]
        self.positive_rows = _index(order[positive], n)
        self.negative_rows = _index(order[~positive], n)
        positive_scores, negative_scores = ordered[positive], ordered[~positive]
        del order, ordered, positive
        # Negatives strictly below and at most each positive's score (the AUC counts the first
        # in full and the ties between the two by one half); None when no negative ties a positive.
        self.negatives_below = np.searchsorted(negative_scores, positive_scores, "left")
        at_most = np.searchsorted(negative_scores, positive_scores, "right")
        self.negatives_at_most = at_most if np.any(at_most != self.negatives_below) else None
        del at_most
        # Positives of one score form one threshold of the precision-recall curve.
        starts = np.flatnonzero(np.r_[True, positive_scores[1:] != positive_scores[:-1]])
        self.distinct_positives = len(starts) == len(positive_scores)
        self.group_starts = starts
        self.group_ends = np.r_[starts[1:], len(positive_scores)]
        self.group_negatives_below = self.negatives_below[starts]
        self.positives_below_threshold = int(np.searchsorted(positive_scores, threshold, "left"))
        self.negatives_below_threshold = int(np.searchsorted(negative_scores, threshold, "left"))
        del positive_scores, negative_scores
        self.errors = squared_errors(is_positive, values) if probabilities else None

    def numbers(self, multiplicity, wide, drawn):
        """(tp, fp, fn, tn, AUC, AP, Brier) of one resample, given each row's multiplicity.

        ``multiplicity`` may be bytes that wrapped around for a row drawn 256 times
        or more; then the totals miss ``drawn`` and ``wide`` (int64) is used instead.
        """
        positive = np.take(multiplicity, self.positive_rows).astype(np.int64)
        negative = np.take(multiplicity, self.negative_rows)
        positives_upto, negatives_upto = _cumulative(positive), _cumulative(negative)
        p, q = int(positives_upto[-1]), int(negatives_upto[-1])
        if p + q != drawn and multiplicity is not wide:
            return self.numbers(wide, wide, drawn)
        tp = p - int(positives_upto[self.positives_below_threshold])
        fp = q - int(negatives_upto[self.negatives_below_threshold])
        auc = ap = brier = math.nan
        if p and q:
            at_most = self.negatives_below if self.negatives_at_most is None else self.negatives_at_most
            below = None if self.negatives_at_most is None else self.negatives_below
            auc = auc_from_twice_u(int(twice_u_of_counts(positive, negatives_upto, at_most, below)), p, q)
            if self.distinct_positives:
                gained, above = positive, positives_upto[:-1]
            else:
                gained = positives_upto[self.group_ends] - positives_upto[self.group_starts]
                above = positives_upto[self.group_starts]
            true_positives = p - above
            flagged = true_positives + (q - negatives_upto[self.group_negatives_below])
            # A threshold above every drawn row flags nothing and gains nothing: 0 / 1, not 0 / 0.
            np.maximum(flagged, 1, out=flagged)
            ap = average_precision_of_counts(gained, true_positives, flagged, p)
            if self.errors is not None:
                brier = brier_of_counts(multiplicity, self.errors, drawn)
        return tp, fp, p - tp, q - fp, auc, ap, brier


class _Pass:
    """Every number of every column on every resample, computed once per stream of draws."""

    def __init__(self, y, groups, columns, progress):
        self.y, self.groups, self.columns, self.progress = y, groups, columns, progress
        self.n = len(y)
        self._found = {}  # (state of the generator, resamples) -> {(column, name): replicates}
        self._checked = []  # [(rows, numbers)] of the last resamples asked for by at()

    def _all(self, multiplicity, wide, drawn, pool=None):
        """{(column, name): value} of one resample (values, or arrays over a block of them)."""
        if pool is None:
            found = [column.numbers(multiplicity, wide, drawn) for column in self.columns]
        else:
            found = [f.result() for f in [pool.submit(c.numbers, multiplicity, wide, drawn)
                                          for c in self.columns]]
        return found

    @staticmethod
    def _named(found):
        """{(column, name): array over resamples} from per-column (tp, fp, fn, tn, AUC, AP, Brier) rows."""
        out = {}
        for c, values in enumerate(found):
            tp, fp, fn, tn = (np.asarray(values[k], dtype=np.int64) for k in range(4))
            counts = BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)
            one_class = (counts.positives == 0) | (counts.negatives == 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                for name in THRESHOLD_METRICS:
                    out[c, name] = np.where(one_class, np.nan, np.asarray(_RATES[name](counts), dtype=float))
            for k, name in enumerate(RANKING_METRICS, start=4):
                out[c, name] = np.asarray(values[k], dtype=float)
        return out

    def estimate(self):
        if not hasattr(self, "_estimates"):
            everything = np.ones(self.n, dtype=np.int64)
            found = self._all(everything, everything, self.n)
            self._estimates = {key: float(v[0]) for key, v in self._named([[[x] for x in row] for row in found]).items()}
        return self._estimates

    def at(self, rows):
        """{(column, name): value} on the resample holding ``rows``."""
        for seen, numbers in self._checked:
            if seen is rows or np.array_equal(seen, rows):
                return numbers
        wide = np.bincount(rows, minlength=self.n)
        found = self._all(wide, wide, len(rows))
        numbers = {key: float(v[0]) for key, v in self._named([[[x] for x in row] for row in found]).items()}
        self._checked = (self._checked + [(rows, numbers)])[-2:]
        return numbers

    def replicates(self, rng, n_resamples, groups):
        """{(column, name): replicates} on the resamples ``rng`` draws (run once per stream)."""
        if groups is not None and not (groups is self.groups or np.array_equal(groups, self.groups)):
            raise ValueError("the report's engine was built for other groups")
        key = (repr(rng.bit_generator.state), n_resamples, groups is None)
        if key not in self._found:
            self._found = {key: self._run(rng, n_resamples, groups)}
        return self._found[key]

    def _run(self, rng, n_resamples, groups):
        n, columns = self.n, self.columns
        found = np.empty((len(columns), 7, n_resamples))
        in_flight = max(1, min(3, _IN_FLIGHT_BYTES // (9 * n)))

        def collect(b, futures):
            for c, future in enumerate(futures):
                found[c, :, b] = future.result()
            if self.progress is not None:
                self.progress.update(1)

        # The draws must come one after another from one generator; the columns of a resample
        # are then independent.  NumPy releases the GIL in its loops, so worker threads work
        # on resample b while this thread draws resample b + 1.
        pending = collections.deque()
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            for b, multiplicity in enumerate(resampling.multiplicities(rng, n, n_resamples, groups)):
                drawn = int(multiplicity.sum()) if groups is not None else n
                # Multiplicities rarely pass 255: gathered as bytes, they stay in cache.
                small = multiplicity.astype(np.uint8)
                pending.append((b, [pool.submit(column.numbers, small, multiplicity, drawn) for column in columns]))
                del multiplicity, small
                while len(pending) >= in_flight:
                    collect(*pending.popleft())
            while pending:
                collect(*pending.popleft())
        return self._named([[found[c, k] for k in range(7)] for c in range(len(columns))])


class _Engine:
    """One number of the pass (or the difference of one number between two columns), as an engine."""

    def __init__(self, shared, name, first, second=None):
        self.shared, self.name, self.first, self.second = shared, name, first, second

    def _pick(self, numbers):
        value = numbers[self.first, self.name]
        return value if self.second is None else value - numbers[self.second, self.name]

    def estimate(self):
        return self._pick(self.shared.estimate())

    def at(self, rows):
        return self._pick(self.shared.at(rows))

    def replicates(self, rng, n_resamples, draws="rows", groups=None):
        return self._pick(self.shared.replicates(rng, n_resamples, groups))


class ReportBootstrap:
    """Every bootstrapped number of a report, from the same resamples, computed once.

    Parameters
    ----------
    y : ndarray of bool
        True for the positives.
    groups : ndarray or None
        Group of each row: whole groups are resampled.
    scores : sequence of ndarray of float
    thresholds : sequence of float
        The operating threshold of each column.
    probabilities : sequence of bool
        Whether each column's scores are probabilities (then its Brier score is resampled).
    resamples, seed, confidence
        As in :func:`evalmetrics.intervals.bootstrap_interval` (percentile intervals).
    progress : ProgressBar, optional
        Advanced once per resample.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> boot = ReportBootstrap(units.y_true == 1, None, [units.y_score], [0.5], [True], resamples=200, seed=0,
    ...                        confidence=0.95)
    >>> round(boot.estimate(0, "auc").value, 6), boot.estimate(0, "auc").method
    (0.796875, 'bootstrap')
    """

    def __init__(self, y, groups, scores, thresholds, probabilities, *, resamples, seed, confidence,
                 progress=None):
        self.method = "bootstrap" if groups is None else "group bootstrap"
        codes = None if groups is None else np.unique(groups, return_inverse=True)[1].ravel()
        columns = [_SortedColumn(y, s, t, p) for s, t, p in zip(scores, thresholds, probabilities)]
        self._shared = _Pass(y, codes, columns, progress)
        self._options = dict(n_resamples=resamples, confidence=confidence, seed=seed, groups=codes)
        self._y, self._scores, self._thresholds = y, list(scores), list(thresholds)
        self._results = {}
        self._shared.replicates(np.random.default_rng(seed), resamples, codes)

    def _result(self, key, estimate, replicates, run):
        """The library's bootstrap of one number, or None where it is undefined (as the library would say)."""
        if key not in self._results:
            defined = np.count_nonzero(~np.isnan(replicates))
            self._results[key] = None if math.isnan(estimate) or defined < 2 else run()
        return self._results[key]

    def _estimate(self, result):
        if result is None:
            return UNDEFINED, 0
        low, high = result.interval
        return Estimate(result.estimate, low, high, self.method), result.n_skipped

    def _column(self, column, metric):
        engine = _Engine(self._shared, metric, column)
        replicates = engine.replicates(np.random.default_rng(self._options["seed"]), self._options["n_resamples"],
                                       groups=self._options["groups"])
        return self._estimate(self._result((column, metric), engine.estimate(), replicates, lambda: bootstrap_interval(
            _metric(metric, self._thresholds[column]), self._y, self._scores[column],
            engine=lambda *arrays: engine, **self._options)))

    def estimate(self, column, metric):
        """The :class:`Estimate` of ``metric`` for column number ``column``."""
        return self._column(column, metric)[0]

    def skipped(self, column, metrics):
        """Most resamples any of ``metrics`` of the column left out (where it was undefined)."""
        return max(self._column(column, m)[1] for m in metrics)

    def difference(self, first, second, metric):
        """The paired :class:`Estimate` of ``metric(first) - metric(second)`` on the same resamples."""
        engine = _Engine(self._shared, metric, first, second)
        replicates = engine.replicates(np.random.default_rng(self._options["seed"]), self._options["n_resamples"],
                                       groups=self._options["groups"])
        return self._estimate(self._result((first, second, metric), engine.estimate(), replicates,
                                           lambda: bootstrap_difference(
                                               _metric(metric, None), self._y, self._scores[first],
                                               self._scores[second], engine=lambda *arrays: engine,
                                               **self._options)))[0]
