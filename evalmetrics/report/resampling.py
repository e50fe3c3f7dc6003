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
import hashlib
import itertools
import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._kernels import resampling
from .._kernels.auc import auc_from_twice_u, average_precision_of_counts, twice_u_of_counts
from .._kernels.brier import brier_of_counts
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
# Resamples in flight: each holds its multiplicities (bytes); fewer for long columns.
_IN_FLIGHT_BYTES = 64 << 20
# Beyond this many rows the columns of a resample are computed one after another.
_PARALLEL_ROWS = 1 << 21

# The rates at a threshold, from counts (arrays over resamples); NaN where a ratio is 0 / 0.
_RATES = {
    "accuracy": lambda c: accuracy(counts=c, zero_division=math.nan),
    "precision": lambda c: precision(counts=c, zero_division=math.nan),
    "recall": lambda c: recall(counts=c, zero_division=math.nan),
    "specificity": lambda c: specificity(counts=c, zero_division=math.nan),
    "f1": lambda c: f1(counts=c, zero_division=math.nan),
    "balanced_accuracy": lambda c: balanced_accuracy(counts=c, zero_division=math.nan),
    "mcc": lambda c: matthews_correlation(counts=c),
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


def _cumulative(counts, dtype):
    """Cumulative sums with a leading 0: ``out[i]`` counts the first ``i`` entries."""
    out = np.empty(len(counts) + 1, dtype=dtype)
    out[0] = 0
    # Widened first, then summed in place: numpy's cumsum with a dtype casts element by element.
    out[1:] = counts
    np.cumsum(out[1:], out=out[1:])
    return out


def _index(values, n):
    """Row numbers in the narrowest integer type that holds them: half the memory below 2**31 rows."""
    return values.astype(np.int32) if n < 2 ** 31 else values


def _bytes(multiplicity):
    """The multiplicities as bytes when no row was drawn 256 times or more (nearly always), else as they are."""
    return multiplicity.astype(np.uint8) if multiplicity.max(initial=0) < 256 else multiplicity


class _SortedColumn:
    """One score column sorted once: where each positive sits among the negatives, and the threshold."""

    def __init__(self, is_positive, values, threshold, probabilities):
        # Built for memory: the n-long temporaries are freed as soon as they are used, and
        # every index is kept in 32 bits below 2**31 rows.
        n = len(values)
        order = np.argsort(values, kind="stable")
        positive = is_positive[order]
        self.positive_rows = _index(order[positive], n)
        self.negative_rows = _index(order[~positive], n)
        del order, positive
        positive_scores, negative_scores = values[self.positive_rows], values[self.negative_rows]
        # Negatives strictly below and at most each positive's score (the AUC counts the first
        # in full and the ties between the two by one half); None when no negative ties a positive.
        self.negatives_below = _index(np.searchsorted(negative_scores, positive_scores, "left"), n)
        at_most = _index(np.searchsorted(negative_scores, positive_scores, "right"), n)
        self.negatives_at_most = at_most if np.any(at_most != self.negatives_below) else None
        del at_most
        # Positives of one score form one threshold of the precision-recall curve.
        starts = _index(np.flatnonzero(np.r_[True, positive_scores[1:] != positive_scores[:-1]]), n)
        self.distinct_positives = len(starts) == len(positive_scores)
        self.group_starts = starts
        self.group_ends = _index(np.r_[starts[1:], len(positive_scores)], n)
        self.group_negatives_below = self.negatives_below[starts]
        self.positives_below_threshold = int(np.searchsorted(positive_scores, threshold, "left"))
        self.negatives_below_threshold = int(np.searchsorted(negative_scores, threshold, "left"))
        del positive_scores, negative_scores
        # The Brier score reads the column itself: no array of squared errors as long as the data.
        self.values = values if probabilities else None
        self.is_positive = is_positive

    def numbers(self, multiplicity, drawn):
        """(tp, fp, fn, tn, AUC, AP, Brier) of one resample, given each row's multiplicity
        (bytes, see :func:`_bytes`, or int64) and the rows drawn."""
        # Counts in 32 bits while twice the rows drawn fit (the AUC's 2 U is summed in 64).
        dtype = np.int32 if 2 * drawn < 2 ** 31 else np.int64
        positive = np.take(multiplicity, self.positive_rows).astype(dtype)
        negative = np.take(multiplicity, self.negative_rows)
        positives_upto, negatives_upto = _cumulative(positive, dtype), _cumulative(negative, dtype)
        p, q = int(positives_upto[-1]), int(negatives_upto[-1])
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
            if self.values is not None:
                brier = brier_of_counts(multiplicity, self.is_positive, self.values, p, drawn)
        return tp, fp, p - tp, q - fp, auc, ap, brier


class _Pass:
    """Every number of every column on every resample, computed once per stream of draws."""

    def __init__(self, n, groups, columns, progress):
        self.n, self.groups, self.columns, self.progress = n, groups, columns, progress
        self._found = {}  # (state of the generator, resamples) -> {(column, name): replicates}
        self._checked = []  # [(digest of the rows, numbers)] of the last resamples asked for by at()
        self._estimates = None

    def _values(self, multiplicity, drawn):
        """{(column, name): value} of one resample."""
        found = [[[value] for value in column.numbers(multiplicity, drawn)] for column in self.columns]
        return {key: float(values[0]) for key, values in self._named(found).items()}

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
        """{(column, name): value} on the data."""
        if self._estimates is None:
            self._estimates = self._values(np.ones(self.n, dtype=np.uint8), self.n)
        return self._estimates

    def at(self, rows):
        """{(column, name): value} on the resample holding ``rows``."""
        # Every number of the pass is checked on the same two resamples: computed once each.
        digest = hashlib.sha256(np.ascontiguousarray(rows, dtype=np.int64)).digest()
        for seen, numbers in self._checked:
            if seen == digest:
                return numbers
        numbers = self._values(_bytes(np.bincount(rows, minlength=self.n)), len(rows))
        self._checked = (self._checked + [(digest, numbers)])[-2:]
        return numbers

    def replicates(self, rng, n_resamples, groups):
        """{(column, name): replicates} on the resamples ``rng`` draws, the pass run once per stream
        (``rng=None``: those of the last pass)."""
        if groups is not None and not (groups is self.groups or np.array_equal(groups, self.groups)):
            raise ValueError("the report's engine was built for other groups")
        if rng is None:
            return self._last
        key = (repr(rng.bit_generator.state), n_resamples, groups is None)
        if key not in self._found:
            self._found = {key: self._run(rng, n_resamples, groups)}
        self._last = self._found[key]
        return self._last

    def _run(self, rng, n_resamples, groups):
        n, columns = self.n, self.columns
        found = np.empty((len(columns), 7, n_resamples))
        in_flight = max(1, min(3, _IN_FLIGHT_BYTES // (9 * n)))
        # One column at a time on long data: each holds a few temporaries as long as a class.
        workers = _WORKERS if n <= _PARALLEL_ROWS else 1

        def collect(b, futures):
            for c, future in enumerate(futures):
                found[c, :, b] = future.result()
            if self.progress is not None:
                self.progress.update(1)

        # The draws must come one after another from one generator; the columns of a resample
        # are then independent.  NumPy releases the GIL in its loops, so worker threads work
        # on resample b while this thread draws resample b + 1.
        pending = collections.deque()
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for b, multiplicity in enumerate(resampling.multiplicities(rng, n, n_resamples, groups)):
                drawn = int(multiplicity.sum()) if groups is not None else n
                # Multiplicities rarely pass 255: gathered as bytes, they stay in cache.
                multiplicity = _bytes(multiplicity)
                pending.append((b, [pool.submit(column.numbers, multiplicity, drawn) for column in columns]))
                del multiplicity
                while len(pending) > in_flight:
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
        shared = _Pass(len(y), codes, [_SortedColumn(y, s, t, p) for s, t, p in zip(scores, thresholds, probabilities)],
                       progress)
        options = dict(n_resamples=resamples, confidence=confidence, seed=seed, groups=codes)
        replicates = shared.replicates(np.random.default_rng(seed), resamples, codes)
        estimates = shared.estimate()

        def run(key, engine, bootstrap, metric, *columns):
            # Undefined on the data or on all but one resample: the library would refuse it.
            if math.isnan(estimates[key] if engine.second is None else engine.estimate()):
                return UNDEFINED, 0
            if np.count_nonzero(~np.isnan(engine.replicates(None, resamples, groups=codes))) < 2:
                return UNDEFINED, 0
            result = bootstrap(metric, y, *columns, engine=lambda *arrays: engine, **options)
            low, high = result.interval
            return Estimate(result.estimate, low, high, self.method), result.n_skipped

        # Every number now, so that the sorted columns are freed before the rest of the report.
        self._numbers = {}
        for c, (s, t) in enumerate(zip(scores, thresholds)):
            for name in THRESHOLD_METRICS + RANKING_METRICS:
                self._numbers[c, name] = run((c, name), _Engine(shared, name, c), bootstrap_interval,
                                             _metric(name, t), s)
        for (i, a), (j, b) in itertools.combinations(enumerate(scores), 2):
            for name in RANKING_METRICS:
                self._numbers[i, j, name] = run(None, _Engine(shared, name, i, j), bootstrap_difference,
                                                _metric(name, None), a, b)
        del replicates, shared

    def estimate(self, column, metric):
        """The :class:`Estimate` of ``metric`` for column number ``column``."""
        return self._numbers[column, metric][0]

    def skipped(self, column, metrics):
        """Most resamples any of ``metrics`` of the column left out (where it was undefined)."""
        return max(self._numbers[column, m][1] for m in metrics)

    def difference(self, first, second, metric):
        """The paired :class:`Estimate` of ``metric(first) - metric(second)`` on the same resamples."""
        return self._numbers[first, second, metric][0]
