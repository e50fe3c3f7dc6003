"""The report's bootstrap: every resampled number from one sort per score column.

:func:`evalmetrics.intervals.bootstrap_interval` recomputes a metric on the
rows of each resample, so a report that bootstraps ten numbers of two score
columns sorts twenty times per resample.  Here each column is sorted once,
and a resample is nothing but how many times it drew each row (a
``bincount`` of the drawn rows, or of the drawn groups spread over their
rows).  From those multiplicities, in the column's sorted order:

* the cumulative counts of positives and negatives give the AUC as the
  integer ``2 U`` (each positive earns the negatives below it, ties half),
  exactly the integer :func:`evalmetrics.roc_auc` divides;
* the same cumulative counts at each positive score give the true and false
  positives above it, hence the average precision;
* the counts below the threshold give the confusion matrix, hence the rates,
  F1, balanced accuracy and MCC (computed by the package's own functions);
* a dot product with the squared errors gives the Brier score.

The resamples are the generic path's own draws (same seed, same rows: the
draws are made in the same chunks of whole resamples), so every replicate
equals the generic one up to rounding; the paired differences subtract the
replicates of two columns, which were computed on the same resamples.
Memory stays bounded: one chunk of draws (about a million indices) at a time.
"""

from __future__ import annotations

import collections
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

# The package's private kernels this module calls, imported in this one place.
from .._kernels.bootstrap_auc import _chunks as draw_chunks
from ..counts import BinaryCounts
from ..rates import balanced_accuracy, f1, matthews_correlation
from .results import UNDEFINED, Estimate

__all__ = ["ReportBootstrap"]

#: The bootstrapped numbers of a column, in the order they are computed.
THRESHOLD_METRICS = ("accuracy", "precision", "recall", "specificity", "f1", "balanced_accuracy", "mcc")
RANKING_METRICS = ("auc", "average_precision", "brier")
_WORKERS = max(1, min(4, os.cpu_count() or 1))
_IN_FLIGHT = 3


def _cumulative(counts):
    """Cumulative sums with a leading 0: ``out[i]`` counts the first ``i`` entries (int64)."""
    out = np.empty(len(counts) + 1, dtype=np.int64)
    out[0] = 0
    # Widened first, then summed in place: numpy's cumsum with a dtype casts element by element.
    out[1:] = counts
    np.cumsum(out[1:], out=out[1:])
    return out


def _dot(x, y):
    """Dot product of float vectors without BLAS.

    A BLAS dot may start threads; on a busy machine (and from the report's own worker
    threads) they wait on each other, and a 1e5-long dot took 45 ms instead of 0.05.
    """
    return np.einsum("i,i->", x, y)


class _SortedColumn:
    """One score column sorted once: where each positive sits among the negatives, and the threshold."""

    def __init__(self, is_positive, values, threshold, probabilities):
        order = np.argsort(values, kind="stable")
        ordered = values[order]
        positive = is_positive[order]
        self.positive_rows = order[positive]
        self.negative_rows = order[~positive]
        positive_scores, negative_scores = ordered[positive], ordered[~positive]
        del order, ordered, positive
        # Negatives strictly below and at most each positive's score: the AUC counts the first
        # in full and the ties between the two by one half.
        self.negatives_below = np.searchsorted(negative_scores, positive_scores, "left")
        at_most = np.searchsorted(negative_scores, positive_scores, "right")
        self.tied = bool(np.any(at_most != self.negatives_below))
        self.negatives_at_most = at_most if self.tied else None
        # Positives of one score form one threshold of the precision-recall curve.
        starts = np.flatnonzero(np.r_[True, positive_scores[1:] != positive_scores[:-1]])
        self.distinct_positives = len(starts) == len(positive_scores)
        self.group_starts = starts
        self.group_ends = np.r_[starts[1:], len(positive_scores)]
        self.group_negatives_below = self.negatives_below[starts]
        self.positives_below_threshold = int(np.searchsorted(positive_scores, threshold, "left"))
        self.negatives_below_threshold = int(np.searchsorted(negative_scores, threshold, "left"))
        # Squared errors in the same order as the multiplicities they are weighted by.
        self.positive_errors = (1.0 - positive_scores) ** 2 if probabilities else None
        self.negative_errors = negative_scores ** 2 if probabilities else None

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
        auc = average_precision = math.nan
        if p and q:
            below = negatives_upto[self.negatives_below]
            if self.tied:
                below += negatives_upto[self.negatives_at_most]
            else:
                below *= 2
            auc = int(np.dot(positive, below)) / (2 * p * q)
        if p:
            if self.distinct_positives:
                gained, above = positive, positives_upto[:-1]
            else:
                gained = positives_upto[self.group_ends] - positives_upto[self.group_starts]
                above = positives_upto[self.group_starts]
            true_positives = p - above
            flagged = true_positives + (q - negatives_upto[self.group_negatives_below])
            # A threshold above every drawn row flags nothing and gains nothing: 0 / 1, not 0 / 0.
            np.maximum(flagged, 1, out=flagged)
            average_precision = float(_dot(gained, true_positives / flagged)) / p
        brier = math.nan
        if self.positive_errors is not None:
            brier = float(_dot(positive, self.positive_errors) + _dot(negative, self.negative_errors)) / drawn
        return tp, fp, p - tp, q - fp, auc, average_precision, brier


def _threshold_metrics(tp, fp, fn, tn):
    """The seven numbers at the threshold, per resample; NaN where a class is missing or a ratio is 0 / 0."""
    counts = BinaryCounts(tp=tp, fp=fp, fn=fn, tn=tn)
    one_class = (counts.positives == 0) | (counts.negatives == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {
            "accuracy": (tp + tn) / counts.total,
            "precision": np.where(counts.flagged > 0, tp / np.maximum(counts.flagged, 1), np.nan),
            "recall": np.where(counts.positives > 0, tp / np.maximum(counts.positives, 1), np.nan),
            "specificity": np.where(counts.negatives > 0, tn / np.maximum(counts.negatives, 1), np.nan),
            "f1": np.asarray(f1(counts=counts, zero_division=math.nan), dtype=float),
            "balanced_accuracy": np.asarray(balanced_accuracy(counts=counts, zero_division=math.nan), dtype=float),
            "mcc": np.asarray(matthews_correlation(counts=counts), dtype=float),
        }
    return {name: np.where(one_class, np.nan, value) for name, value in values.items()}


@dataclass(frozen=True)
class _Resampled:
    """A number on the data and on every resample (NaN where undefined)."""

    estimate: float
    replicates: np.ndarray


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
        self.resamples, self.confidence = resamples, confidence
        self.method = "bootstrap" if groups is None else "group bootstrap"
        columns = [_SortedColumn(y, s, t, p) for s, t, p in zip(scores, thresholds, probabilities)]
        n = len(y)
        everything = np.ones(n, dtype=np.int64)
        estimates = [column.numbers(everything, everything, n) for column in columns]
        found = np.empty((len(columns), 7, resamples))

        def collect(b, futures):
            for c, future in enumerate(futures):
                found[c, :, b] = future.result()
            if progress is not None:
                progress.update(1)

        # The draws must come one after another from one generator; the columns of a resample
        # are then independent.  NumPy releases the GIL in its loops, so worker threads work
        # on resample b while this thread draws resample b + 1.  A few resamples in flight
        # at most: each holds two n-long arrays.
        pending = collections.deque()
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            for b, multiplicity in enumerate(_multiplicities(n, groups, resamples, seed)):
                drawn = int(multiplicity.sum()) if groups is not None else n
                # Multiplicities rarely pass 255: gathered as bytes, they stay in cache.
                small = multiplicity.astype(np.uint8)
                pending.append((b, [pool.submit(column.numbers, small, multiplicity, drawn) for column in columns]))
                while len(pending) > _IN_FLIGHT:
                    collect(*pending.popleft())
            while pending:
                collect(*pending.popleft())
        self._numbers = []
        for c in range(len(columns)):
            numbers = {}
            at_data = _threshold_metrics(*(np.array([v]) for v in estimates[c][:4]))
            at_resamples = _threshold_metrics(*(found[c, k].astype(np.int64) for k in range(4)))
            for name in THRESHOLD_METRICS:
                numbers[name] = _Resampled(float(at_data[name][0]), at_resamples[name])
            for k, name in enumerate(RANKING_METRICS, start=4):
                numbers[name] = _Resampled(float(estimates[c][k]), found[c, k])
            self._numbers.append(numbers)

    def _interval(self, estimate, replicates):
        """(Estimate, resamples left out) of a percentile interval."""
        if math.isnan(estimate):
            return UNDEFINED, 0
        kept = replicates[~np.isnan(replicates)]
        if len(kept) < 2:
            return UNDEFINED, 0
        alpha = 0.5 * (1.0 - self.confidence)
        # Linear interpolation between order statistics, as the generic bootstrap does.
        low, high = np.quantile(kept, [alpha, 1.0 - alpha])
        return Estimate(estimate, float(low), float(high), self.method), self.resamples - len(kept)

    def estimate(self, column, metric):
        """The :class:`Estimate` of ``metric`` for column number ``column``."""
        number = self._numbers[column][metric]
        return self._interval(number.estimate, number.replicates)[0]

    def skipped(self, column, metrics):
        """Most resamples any of ``metrics`` of the column left out (where it was undefined)."""
        numbers = self._numbers[column]
        return max(self._interval(numbers[m].estimate, numbers[m].replicates)[1] for m in metrics)

    def difference(self, first, second, metric):
        """The paired :class:`Estimate` of ``metric(first) - metric(second)`` on the same resamples."""
        a, b = self._numbers[first][metric], self._numbers[second][metric]
        return self._interval(a.estimate - b.estimate, a.replicates - b.replicates)[0]


def _multiplicities(n, groups, resamples, seed):
    """Yield how many times each row is drawn in each resample: the generic bootstrap's draws.

    Rows: ``rng.integers(0, n, (k, n))`` in the chunks of
    :func:`evalmetrics.intervals.bootstrap_interval`; groups: ``rng.integers(0,
    n_groups, (resamples, n_groups))``, drawn here in chunks of whole resamples
    (the generator yields the same numbers), each group's count spread over its rows.
    """
    rng = np.random.default_rng(seed)
    if groups is None:
        for k in draw_chunks(n, resamples):
            for rows in rng.integers(0, n, (k, n)):
                yield np.bincount(rows, minlength=n)
        return
    _, group_of_row = np.unique(groups, return_inverse=True)
    group_of_row = group_of_row.ravel()
    n_groups = int(group_of_row.max()) + 1
    for k in draw_chunks(n_groups, resamples):
        for chosen in rng.integers(0, n_groups, (k, n_groups)):
            yield np.take(np.bincount(chosen, minlength=n_groups), group_of_row)
