"""The numbers of an evaluation report, computed once (the results live in ``results``).

:func:`build_report` evaluates every score column of a :class:`Dataset` at
an operating threshold and as a ranking and (when the scores are
probabilities) as probabilities, each with a confidence interval:

* proportions -- accuracy, precision, recall, specificity -- get Wilson
  intervals; with groups a bootstrap over whole groups instead, because
  Wilson's binomial model assumes independent rows;
* F1, balanced accuracy, MCC, the AUC, average precision and the Brier
  score get percentile bootstrap intervals (rows, or whole groups), all
  drawn from the same resamples (one seed) and computed from one sort per
  column (:mod:`evalmetrics.report.resampling`);
* the AUC also gets DeLong's interval (logit scale, :mod:`evalmetrics.delong`);
* every pair of score columns gets paired differences of the AUC (bootstrap
  and DeLong), the AP and the Brier score.

Resamples on which a metric is undefined (one class only, nothing flagged)
are left out and counted.  The plain-language warnings are collected by
:mod:`evalmetrics.report.checks`.
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings

import numpy as np

from .. import arrays
from ..arrays import UndefinedMetricWarning
from ..calibration import binned_brier_decomposition, expected_calibration_error
from ..costs import bayes_threshold, best_threshold
from ..counts import _binary_counts_from_masks
from ..delong import delong_interval, delong_test
from ..intervals import wilson_interval
from .data import Dataset, ReportError
from .resampling import ReportBootstrap
from .results import UNDEFINED, ColumnReport, CostPoint, Estimate, PairedDifference, Report, ReportSetup

__all__ = ["build_report", "dataset_from_arrays"]


def dataset_from_arrays(y_true, scores, *, groups=None, pos_label=None, name="arrays"):
    """A :class:`Dataset` from arrays, for reports built in Python rather than from a CSV file.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels ({0, 1}, {-1, 1}, booleans, or any with ``pos_label``).
    scores : mapping of str to array_like of shape (n,)
        One entry per score column.
    groups : array_like of shape (n,), optional
    pos_label : label, optional
    name : str, default "arrays"
        What the report calls the data.

    Returns
    -------
    Dataset

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> data = dataset_from_arrays(units.y_true, {"model": units.y_score})
    >>> data.n_rows, int(data.y_true.sum())
    (12, 4)
    """
    is_positive = arrays.binary_labels(y_true, pos_label=pos_label)
    if is_positive.all() or not is_positive.any():
        raise ReportError("y_true has a single class; the report needs positives and negatives")
    names = tuple(scores)
    if not names:
        raise ReportError("scores is empty: pass at least one score column")
    values = tuple(arrays.scores(scores[key], f"scores[{key!r}]") for key in names)
    arrays.same_length(y_true=is_positive, **{f"scores[{k!r}]": v for k, v in zip(names, values)})
    if groups is not None:
        groups = arrays.column(groups, "groups").astype(str)
        arrays.same_length(y_true=is_positive, groups=groups)
        # Numbered in the sorted order of the names, as read_dataset numbers them.
        groups = np.unique(groups, return_inverse=True)[1].ravel().astype(np.int32)
    labels = np.unique(arrays.column(y_true, "y_true"))
    positive = pos_label if pos_label is not None else (True if labels.dtype.kind == "b" else 1)
    negatives = tuple(str(v) for v in labels.tolist() if v != positive)
    return Dataset(path=name, sha256="", label="y_true", positive=str(positive), negatives=negatives,
                   y_true=is_positive, score_names=names, score_values=values,
                   group=None if groups is None else "groups", groups=groups)


#: Rows from which the report maps its large arrays apart (see :func:`give_back_freed_memory`).
MEMORY_FIRST_ROWS = 1 << 21
# glibc's mallopt parameter, and the size from which an array then gets its own mapping.
_M_MMAP_THRESHOLD = -3
_OWN_MAPPING = 1 << 20


def give_back_freed_memory(rows=0):
    """Return the free pages of the heap to the system, between the report's stages (glibc only).

    A NumPy temporary below glibc's mmap threshold -- which grows to 32 MiB
    once a large array is freed, so most of a column's temporaries on
    millions of rows -- stays in the process when freed.  Trimmed after each
    stage, the process peaks at its largest stage instead of carrying every
    stage's leftovers into the next.  From :data:`MEMORY_FIRST_ROWS` rows on,
    every array of 1 MiB or more also gets its own mapping from then on (for
    the rest of the process), given back as soon as it is freed: slower, as
    each one is mapped afresh, but the peak stays proportional to the
    columns.  Elsewhere (another C library) nothing happens.

    Parameters
    ----------
    rows : int, default 0
        The rows of the data.

    Examples
    --------
    >>> give_back_freed_memory()
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None)
        if rows >= MEMORY_FIRST_ROWS:
            libc.mallopt(_M_MMAP_THRESHOLD, _OWN_MAPPING)
        libc.malloc_trim(0)
    except (ImportError, OSError, AttributeError):
        pass


def _counts(y, s, threshold):
    return _binary_counts_from_masks(y, s >= threshold)


_PROPORTIONS = {  # name: (successes, trials) of the counts
    "accuracy": lambda c: (c.tp + c.tn, c.total),
    "precision": lambda c: (c.tp, c.flagged),
    "recall": lambda c: (c.tp, c.positives),
    "specificity": lambda c: (c.tn, c.negatives),
}


def _probabilities(s):
    return bool(s.min() >= 0.0 and s.max() <= 1.0)


def _quiet_delong(function, *arguments, confidence):
    """DeLong's interval or test; with a class of one member it is NaN, and the report warns in words."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return function(*arguments, confidence=confidence)


def _wilson(successes, trials, confidence):
    if trials == 0:
        return UNDEFINED
    low, high = wilson_interval(int(successes), int(trials), confidence=confidence)
    return Estimate(successes / trials, low, high, "Wilson")


def _tied_pairs(y, s):
    _, group = np.unique(s, return_inverse=True)
    positives = np.bincount(group, weights=y.astype(float))
    negatives = np.bincount(group) - positives
    return float(np.dot(positives, negatives) / (positives.sum() * negatives.sum()))


def _threshold(name, y, s, setup, validation):
    """The operating threshold of one column and the rule that gave it."""
    if setup.threshold is not None:
        return setup.threshold, "given with --threshold"
    if setup.costs:
        costs = dict(false_positive_cost=setup.false_positive_cost,
                     false_negative_cost=setup.false_negative_cost)
        if validation is not None:
            best = best_threshold(validation.y_true, validation.score(name), **costs)
            return best.threshold, "cheapest total cost on the validation data"
        return best_threshold(y, s, **costs).threshold, "cheapest total cost on these same data (optimistic)"
    return 0.5, "default 0.5"


def _cost_points(y, s, threshold, setup):
    c_fp, c_fn = setup.false_positive_cost, setup.false_negative_cost
    bayes = bayes_threshold(false_positive_cost=c_fp, false_negative_cost=c_fn)
    hindsight = best_threshold(y, s, false_positive_cost=c_fp, false_negative_cost=c_fn).threshold
    rules = [("operating threshold", threshold), ("Bayes threshold cFP / (cFP + cFN)", bayes),
             ("default 0.5", 0.5), ("cheapest on these data (hindsight)", hindsight)]
    points = []
    for rule, t in rules:
        c = _counts(y, s, t)
        points.append(CostPoint(rule, float(t), c, float(c_fp * c.fp + c_fn * c.fn)))
    return tuple(points)


def _column(number, name, y, s, threshold, rule, setup, boot, grouped):
    counts = _counts(y, s, threshold)
    estimates = {}
    resampled = ["f1", "balanced_accuracy", "mcc", "auc", "average_precision"]
    for metric, proportion in _PROPORTIONS.items():
        if grouped:
            # Wilson's binomial model assumes independent rows; groups are resampled whole instead.
            estimates[metric] = boot.estimate(number, metric)
            resampled.append(metric)
        else:
            estimates[metric] = _wilson(*proportion(counts), setup.confidence)
    for metric in ("f1", "balanced_accuracy", "mcc"):
        estimates[metric] = boot.estimate(number, metric)
    delong = _quiet_delong(delong_interval, y, s, confidence=setup.confidence)
    probabilities = _probabilities(s)
    if probabilities:
        resampled.append("brier")
    return ColumnReport(
        name=name, n_distinct=len(np.unique(s)), minimum=float(s.min()), maximum=float(s.max()),
        tied_pairs=_tied_pairs(y, s), threshold=float(threshold), threshold_rule=rule, counts=counts,
        **estimates,
        auc=boot.estimate(number, "auc"),
        auc_delong=Estimate(delong.estimate, *delong.interval, "DeLong, logit scale"),
        average_precision=boot.estimate(number, "average_precision"),
        brier=boot.estimate(number, "brier") if probabilities else None,
        brier_decomposition=binned_brier_decomposition(y, s, n_bins=setup.n_bins) if probabilities else None,
        ece=expected_calibration_error(y, s, n_bins=setup.n_bins) if probabilities else None,
        costs=_cost_points(y, s, threshold, setup) if setup.costs else (),
        skipped=boot.skipped(number, resampled),
    )


def _pair(i, j, names, y, a, b, setup, boot):
    first, second = names[i], names[j]
    delong = _quiet_delong(delong_test, y, a, b, confidence=setup.confidence)
    out = [PairedDifference(first, second, "AUC", boot.difference(i, j, "auc"),
                            Estimate(delong.difference, *delong.interval, "DeLong"), delong.p_value),
           PairedDifference(first, second, "average precision", boot.difference(i, j, "average_precision"))]
    if _probabilities(a) and _probabilities(b):
        out.append(PairedDifference(first, second, "Brier score", boot.difference(i, j, "brier")))
    return out


def build_report(data, *, validation=None, threshold=None, false_positive_cost=None, false_negative_cost=None,
                 resamples=2000, seed=0, confidence=0.95, n_bins=10, progress=None):
    """Evaluate every score column of ``data`` and every pair of them.

    Parameters
    ----------
    data : Dataset
        From :func:`evalmetrics.report.read_dataset` or :func:`dataset_from_arrays`.
    validation : Dataset, optional
        Other data with the same score columns, on which a cost-based
        threshold is chosen instead of on ``data``.
    threshold : float, optional
        Flag scores at least this.  Default: chosen by cost when costs are
        given, else 0.5.
    false_positive_cost, false_negative_cost : float, optional
        Costs of the two errors; giving one sets the other to 1 if omitted.
    resamples : int, default 2000
    seed : int, default 0
    confidence : float, default 0.95
    n_bins : int, default 10
        Uniform bins of the expected calibration error.
    progress : ProgressBar, optional
        Advanced once per resample; its total should be ``resamples``.

    Returns
    -------
    Report

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> data = dataset_from_arrays(units.y_true, {"model": units.y_score})
    >>> report = build_report(data, resamples=200)
    >>> column = report.column("model")
    >>> column.counts, round(column.auc.value, 6), column.precision.method
    (BinaryCounts(tp=3, fp=3, fn=1, tn=5), 0.796875, 'Wilson')
    """
    if (false_positive_cost is None) != (false_negative_cost is None):
        false_positive_cost = 1.0 if false_positive_cost is None else false_positive_cost
        false_negative_cost = 1.0 if false_negative_cost is None else false_negative_cost
    if false_positive_cost is not None:
        bayes_threshold(false_positive_cost=false_positive_cost, false_negative_cost=false_negative_cost)
    setup = ReportSetup(
        threshold=None if threshold is None else float(threshold),
        false_positive_cost=None if false_positive_cost is None else float(false_positive_cost),
        false_negative_cost=None if false_negative_cost is None else float(false_negative_cost),
        resamples=arrays.positive_int(resamples, "resamples"), seed=arrays.seed(seed, concrete=True),
        confidence=float(confidence), n_bins=arrays.positive_int(n_bins, "n_bins", maximum=arrays.MAX_BINS),
        validation=None if validation is None else validation.path,
        validation_rows=None if validation is None else validation.n_rows,
    )
    if validation is not None:
        missing = [name for name in data.score_names if name not in validation.score_names]
        if missing:
            raise ReportError(f"the validation data lack the score column(s) {missing}")
    y, names, scores = data.y_true, data.score_names, data.score_values
    thresholds = [_threshold(name, y, s, setup, validation) for name, s in zip(names, scores)]
    if progress is not None:
        progress.describe("bootstrap")
    boot = ReportBootstrap(y, data.groups, scores, [t for t, _ in thresholds], [_probabilities(s) for s in scores],
                           resamples=setup.resamples, seed=setup.seed, confidence=setup.confidence,
                           progress=progress)
    give_back_freed_memory()
    columns = []
    for k, (name, s, (threshold, rule)) in enumerate(zip(names, scores, thresholds)):
        columns.append(_column(k, name, y, s, threshold, rule, setup, boot, data.groups is not None))
        give_back_freed_memory()
    differences = []
    for i, j in itertools.combinations(range(len(names)), 2):
        differences.extend(_pair(i, j, names, y, scores[i], scores[j], setup, boot))
    from .checks import report_warnings

    positives = int(y.sum())
    report = Report(setup=setup, n=len(y), positives=positives, negatives=len(y) - positives,
                    n_groups=None if data.groups is None else len(np.unique(data.groups)),
                    columns=tuple(columns), differences=tuple(differences), warnings=(), data=data)
    return dataclasses.replace(report, warnings=tuple(report_warnings(report)))
