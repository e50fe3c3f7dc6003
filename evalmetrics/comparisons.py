"""Every function next to its scikit-learn or SciPy counterpart.

:data:`REGISTRY` holds one :class:`Check` per function (or per option, such
as the three weightings of Cohen's kappa): the evalmetrics call, the
counterpart it must reproduce, a description of the data, the tolerance,
and a ``run(rng, n)`` that builds the data and returns the largest
difference (absolute for values up to 1, relative above).
:func:`compare_all` runs the registry, :func:`format_table` turns the
result into a Markdown table, and ``python -m evalmetrics.comparisons``
prints it.  :data:`NO_COUNTERPART` names the public functions left out,
with the reason.

The data are hard on purpose: scores and probabilities rounded to one or
two decimals (heavy ties, values on bin edges, exact 0 and 1), labels
{0, 1}, {-1, 1} and strings with ``pos_label``, two, three and five
classes, sample weights with zeros.  Where the two libraries differ only by
convention (the orientation of the precision-recall curve and its appended
point, the points ``roc_curve`` drops by default, the field order of the
reliability curve) the check converts one into the other, and the
counterpart's description says how.  This is one long registry on purpose:
one short entry per function, so a new function is one entry more.

scikit-learn and SciPy are imported inside the checks only.
"""

from __future__ import annotations

import importlib
import math
import warnings
from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

from . import (arrays, averaging, calibration, costs, counts, cross_validation, curves, datasets,
               intervals, models, ranking, rates, recalibration, regression)

__all__ = ["Check", "Comparison", "NO_COUNTERPART", "REGISTRY", "compare_all", "format_table"]

# Metrics are sums and ratios of the same counts, so they agree to rounding.
# Fitted models stop at a convergence tolerance, so they agree less closely.
METRIC_TOLERANCE = 1e-12
FITTED_TOLERANCE = 1e-8
# scikit-learn fits the sigmoid calibrator by L-BFGS and stops when the
# gradient is below 1e-6; evalmetrics iterates Newton's method to convergence.
SIGMOID_TOLERANCE = 1e-6

NO_COUNTERPART = {
    "ratio": "a guarded division, used by every rate",
    "binned_brier_decomposition": "scikit-learn has no Brier decomposition",
    "expected_calibration_error": "scikit-learn has no expected calibration error",
    "delong_interval": "scikit-learn and SciPy have no DeLong variance of the AUC",
    "delong_test": "scikit-learn and SciPy have no DeLong test",
    "bayes_threshold": "a formula, cFP / (cFP + cFN)",
    "iso_cost_slope": "a formula, cFP (1 − π) / (cFN π)",
    "best_constant(metric=\"mse\")": "the (weighted) mean",
    "breast_cancer": "a wrapper of sklearn.datasets.load_breast_cancer",
    "binormal_scores": "synthetic data", "clustered_answers": "synthetic data",
    "demand_series": "synthetic data", "gaussian_classes": "synthetic data",
    "twelve_units": "the worked example", "graded_parts": "the worked example",
    "six_households": "the worked example",
}


@dataclass(frozen=True)
class Comparison:
    """The largest difference found between a function and its counterpart.

    ``max_abs_difference`` is the absolute difference for values up to 1
    (rates, probabilities) and the relative difference for larger ones
    (weighted counts, costs), ``|ours - theirs| / max(1, |theirs|)``.  For
    the splitters it counts the fold indices that differ, so 0 means
    identical index for index.
    """

    function: str
    counterpart: str
    max_abs_difference: float
    data: str
    tolerance: float = METRIC_TOLERANCE

    @property
    def agrees(self):
        """True when the difference is within the tolerance."""
        return bool(self.max_abs_difference <= self.tolerance)


@dataclass(frozen=True)
class Check:
    """A registry entry; ``run(rng, n)`` returns the largest difference."""

    function: str
    counterpart: str
    data: str
    tolerance: float
    run: Callable[[np.random.Generator, int], float]


REGISTRY: list[Check] = []


def _check(function, counterpart, data, tolerance=METRIC_TOLERANCE):
    def register(run):
        REGISTRY.append(Check(function, counterpart, data, tolerance, run))
        return run
    return register


def _load(dotted):
    """``_load("sklearn.metrics.roc_auc_score")`` imports and returns the object."""
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


# ---------------------------------------------------------------------------
# differences
# ---------------------------------------------------------------------------

def _gap(ours, theirs):
    """Largest difference, absolute up to 1 and relative above: |a - b| / max(1, |b|).

    Rates and probabilities lie in [0, 1], so for them this is the absolute
    difference.  Weighted counts and costs grow with the data, and the
    rounding of their sums with them; dividing by the size keeps one
    tolerance meaningful for any number of rows.  Equal NaN or infinities
    count as equal, a NaN against a number or a shape mismatch as inf.
    """
    a, b = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
    if a.shape != b.shape:
        return math.inf
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    if np.all(same):
        return 0.0
    a, b = a[~same], b[~same]
    with np.errstate(invalid="ignore"):
        difference = np.abs(a - b) / np.maximum(1.0, np.abs(b))
    return float(np.max(np.where(np.isnan(difference), math.inf, difference)))


def _worst(pairs):
    return max((_gap(ours, theirs) for ours, theirs in pairs), default=0.0)


def _mismatches(ours, theirs):
    """Number of train and test indices that differ between two lists of folds."""
    theirs = list(theirs)
    count = abs(len(ours) - len(theirs)) * 10**6  # a missing fold can never pass
    for fold, (train, test) in zip(ours, theirs):
        for a, b in ((fold.train, train), (fold.test, test)):
            common = min(len(a), len(b))
            count += abs(len(a) - len(b)) + int(np.sum(a[:common] != b[:common]))
    return float(count)


# ---------------------------------------------------------------------------
# hard random data
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Binary:
    y_true: np.ndarray
    y_pred: np.ndarray
    y_score: np.ndarray  # real scores with ties
    y_prob: np.ndarray  # probabilities with ties, exact 0 and 1 included
    pos_label: object  # what evalmetrics gets (None for {0, 1} and {-1, 1})
    negative: object
    sample_weight: np.ndarray | None

    @property
    def label(self):  # the positive label, given explicitly to scikit-learn
        return 1 if self.pos_label is None else self.pos_label

    def ours(self):
        return dict(pos_label=self.pos_label, sample_weight=self.sample_weight)

    def theirs(self):
        return dict(pos_label=self.label, sample_weight=self.sample_weight)


_BINARY_DATA = "6 binary sets: 0/1, ±1, strings; tied scores; weights with zeros"
_CLASSES_DATA = "6 sets of 2, 3, 5 classes (ints, strings), half weighted"
_REGRESSION_DATA = "2 sets of tied positive targets, one weighted"


def _binary_sets(rng, n):
    sets = []
    for (negative, positive), pos_label in (((0, 1), None), ((-1, 1), None), (("ok", "faulty"), "faulty")):
        for weighted, decimals in ((False, 1), (True, 2)):
            is_positive = rng.random(n) < rng.uniform(0.2, 0.5)
            is_positive[:2] = True, False
            score = np.round(rng.normal(size=n) + 1.3 * is_positive, decimals)
            prob = np.round(1.0 / (1.0 + np.exp(0.5 - 1.5 * score)), decimals)
            prob[rng.choice(n, 4, replace=False)] = 0.0, 0.0, 1.0, 1.0
            weights = None
            if weighted:
                weights = np.round(rng.uniform(0.0, 3.0, n), 1)
                weights[rng.choice(np.arange(2, n), 3, replace=False)] = 0.0
            y_true = np.where(is_positive, positive, negative)
            y_pred = np.where(score >= np.median(score), positive, negative)
            sets.append(_Binary(y_true, y_pred, score, prob, pos_label, negative, weights))
    return sets


def _class_sets(rng, n, sizes=(2, 3, 5)):
    """(y_true, y_pred, sample_weight) triples; every class occurs in y_true."""
    sets = []
    for k in sizes:
        names = np.arange(k) if k != 5 else np.array(["a", "b", "c", "d", "e"])
        for weighted in (False, True):
            codes = rng.integers(0, k, n)
            codes[:k] = np.arange(k)
            guess = np.where(rng.random(n) < 0.6, codes, rng.integers(0, k, n))
            sets.append((names[codes], names[guess], np.round(rng.uniform(0, 3, n), 1) if weighted else None))
    return sets


def _regression_sets(rng, n):
    sets = []
    for weighted in (False, True):
        y = np.round(rng.gamma(3.0, 5.0, n), 1) + 0.5
        y_hat = np.round(y + rng.normal(scale=4.0, size=n), 1)
        sets.append((y, y_hat, np.round(rng.uniform(0.0, 3.0, n), 1) if weighted else None))
    return sets


def _features(rng, n, p=4):
    """Features on very different scales, so standardization matters."""
    y = (rng.random(n) < 0.4).astype(int)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 10.0, p) + rng.normal(scale=5.0, size=p)
    X[:, : p // 2] += 0.9 * y[:, None] * X[:, : p // 2].std(axis=0)
    return X, y


# ---------------------------------------------------------------------------
# families of checks
# ---------------------------------------------------------------------------

def _binary_check(function, counterpart, compute, data=_BINARY_DATA, tolerance=METRIC_TOLERANCE):
    """``compute(d)`` returns (ours, theirs) pairs for one binary data set."""
    _check(function, counterpart, data, tolerance)(
        lambda rng, n: _worst(pair for d in _binary_sets(rng, n) for pair in compute(d)))


def _rate(function, ours, theirs, counterpart=None, on_negative=False, complement=False, **options):
    def compute(d):
        label = d.negative if on_negative else d.label
        value = _load(theirs)(d.y_true, d.y_pred, pos_label=label, zero_division=0, sample_weight=d.sample_weight,
                              **options)
        return [(ours(d.y_true, d.y_pred, zero_division=0, **d.ours()), 1.0 - value if complement else value)]
    _binary_check(function, counterpart or theirs, compute)


def _classes(function, ours, theirs, counterpart=None, **options):
    _check(function, counterpart or theirs, _CLASSES_DATA)(
        lambda rng, n: _worst((ours(y, y_hat, sample_weight=w, **options),
                               _load(theirs)(y, y_hat, sample_weight=w, **options))
                              for y, y_hat, w in _class_sets(rng, n)))


# ---------------------------------------------------------------------------
# counts and rates
# ---------------------------------------------------------------------------

@_check("confusion_matrix", "sklearn.metrics.confusion_matrix", _CLASSES_DATA + "; labels subset; normalize")
def _(rng, n):
    theirs = _load("sklearn.metrics.confusion_matrix")
    return _worst((counts.confusion_matrix(y, y_hat, **options), theirs(y, y_hat, **options))
                  for y, y_hat, w in _class_sets(rng, n) for labels in (None, np.unique(y)[::-1][:2])
                  for normalize in (None, "true", "pred", "all")
                  for options in [dict(labels=labels, sample_weight=w, normalize=normalize)])


def _matrix_of(d, y_pred):
    return _load("sklearn.metrics.confusion_matrix")(d.y_true, y_pred, labels=[d.negative, d.label],
                                                     sample_weight=d.sample_weight)


_binary_check("binary_counts", "sklearn.metrics.confusion_matrix(labels=[neg, pos]).ravel()", lambda d: [
    (counts.binary_counts(d.y_true, d.y_pred, **d.ours()).ravel(), _matrix_of(d, d.y_pred).ravel())])
_binary_check("counts_at_threshold", "sklearn.metrics.confusion_matrix of y_score >= t", lambda d: [
    (counts.counts_at_threshold(d.y_true, d.y_score, t, **d.ours()).ravel(),
     _matrix_of(d, np.where(d.y_score >= t, d.label, d.negative)).ravel()) for t in np.unique(d.y_score)[::7]])
_binary_check("counts_from_matrix", "sklearn.metrics.confusion_matrix(...).ravel()", lambda d: [
    (counts.counts_from_matrix(_matrix_of(d, d.y_pred)).ravel(), _matrix_of(d, d.y_pred).ravel())])


@_check("one_vs_rest", "sklearn.metrics.multilabel_confusion_matrix", _CLASSES_DATA)
def _(rng, n):
    theirs = _load("sklearn.metrics.multilabel_confusion_matrix")
    pairs = []
    for y, y_hat, w in _class_sets(rng, n):
        c = counts.one_vs_rest(counts.confusion_matrix(y, y_hat, sample_weight=w))
        pairs.append((np.stack([c.tn, c.fp, c.fn, c.tp], axis=1), theirs(y, y_hat, sample_weight=w).reshape(-1, 4)))
    return _worst(pairs)


_rate("precision", rates.precision, "sklearn.metrics.precision_score")
_rate("recall", rates.recall, "sklearn.metrics.recall_score")
_rate("specificity", rates.specificity, "sklearn.metrics.recall_score",
      "sklearn.metrics.recall_score, negative class as pos_label", on_negative=True)
_rate("false_positive_rate", rates.false_positive_rate, "sklearn.metrics.recall_score",
      "1 − sklearn.metrics.recall_score, negative class as pos_label", on_negative=True, complement=True)
_rate("negative_predictive_value", rates.negative_predictive_value, "sklearn.metrics.precision_score",
      "sklearn.metrics.precision_score, negative class as pos_label", on_negative=True)
_rate("f1", rates.f1, "sklearn.metrics.f1_score")
for _beta in (0.5, 2):
    _rate(f"f_beta(beta={_beta})", partial(rates.f_beta, beta=_beta),
          "sklearn.metrics.fbeta_score", f"sklearn.metrics.fbeta_score(beta={_beta})", beta=_beta)
_classes("accuracy", rates.accuracy, "sklearn.metrics.accuracy_score")
for _adjusted in (False, True):
    _classes(f"balanced_accuracy(adjusted={_adjusted})", rates.balanced_accuracy,
             "sklearn.metrics.balanced_accuracy_score",
             f"sklearn.metrics.balanced_accuracy_score(adjusted={_adjusted})", adjusted=_adjusted)
_classes("matthews_correlation", rates.matthews_correlation, "sklearn.metrics.matthews_corrcoef")
for _weights in (None, "linear", "quadratic"):
    _shown = "None" if _weights is None else f'"{_weights}"'
    _classes(f"cohen_kappa(weights={_shown})", rates.cohen_kappa, "sklearn.metrics.cohen_kappa_score",
             f"sklearn.metrics.cohen_kappa_score(weights={_shown})", weights=_weights)


def _prevalence_pairs(d):
    c = counts.binary_counts(d.y_true, d.y_pred, pos_label=d.pos_label)
    pairs = []
    for prevalence in (0.001, 0.01, 0.1, 0.5, 0.9):
        # Reweighting the classes to shares pi and 1 - pi moves the data to prevalence pi.
        weights = np.where(d.y_true == d.label, prevalence / c.positives, (1 - prevalence) / c.negatives)
        pairs.append((rates.precision_at_prevalence(c.tp / c.positives, c.fp / c.negatives, prevalence),
                      _load("sklearn.metrics.precision_score")(d.y_true, d.y_pred, pos_label=d.label,
                                                               sample_weight=weights)))
    return pairs


_binary_check("precision_at_prevalence", "sklearn.metrics.precision_score, classes reweighted to π and 1 − π",
              _prevalence_pairs, _BINARY_DATA + "; π from 0.001 to 0.9")


# ---------------------------------------------------------------------------
# averages over classes
# ---------------------------------------------------------------------------

def _class_scores(y, y_hat, **options):
    s = averaging.per_class_scores(y, y_hat, **options)
    return np.stack([s.precision, s.recall, s.f_score, s.support])


def _support_check(function, ours, average):
    shown = "None" if average is None else f'"{average}"'

    @_check(function, f"sklearn.metrics.precision_recall_fscore_support(average={shown})",
            _CLASSES_DATA + "; all labels and a subset; beta 1 and 2")
    def run(rng, n):
        theirs = _load("sklearn.metrics.precision_recall_fscore_support")
        return _worst((ours(y, y_hat, **options), theirs(y, y_hat, average=average, **options)[:3 if average else 4])
                      for y, y_hat, w in _class_sets(rng, n) for labels in (None, np.unique(y)[:2])
                      for beta in (1.0, 2.0)
                      for options in [dict(labels=labels, beta=beta, zero_division=0, sample_weight=w)])


_support_check("per_class_scores", _class_scores, None)
for _average in ("macro", "micro", "weighted"):
    _support_check(f'averaged_scores(average="{_average}")', partial(averaging.averaged_scores, average=_average),
                   _average)


@_check("f1_of_macro_averages", "harmonic mean of sklearn's macro precision_score and recall_score", _CLASSES_DATA)
def _(rng, n):
    precision, recall = _load("sklearn.metrics.precision_score"), _load("sklearn.metrics.recall_score")
    pairs = []
    for y, y_hat, w in _class_sets(rng, n):
        p, r = (f(y, y_hat, average="macro", sample_weight=w, zero_division=0) for f in (precision, recall))
        pairs.append((averaging.f1_of_macro_averages(y, y_hat, sample_weight=w, zero_division=0), 2 * p * r / (p + r)))
    return _worst(pairs)


# ---------------------------------------------------------------------------
# curves, areas, ranks and costs
# ---------------------------------------------------------------------------

def _sk_metrics():
    return importlib.import_module("sklearn.metrics")


def _threshold_table(d):
    table = curves.threshold_table(d.y_true, d.y_score, **d.ours())
    tns, fps, fns, tps, thresholds = _sk_metrics().confusion_matrix_at_thresholds(d.y_true, d.y_score, **d.theirs())
    return [(table.thresholds, thresholds), (table.true_positives, tps), (table.false_positives, fps),
            (table.true_negatives, tns), (table.false_negatives, fns)]


def _sk_roc(d):
    return _sk_metrics().roc_curve(d.y_true, d.y_score, drop_intermediate=False, **d.theirs())


def _pr_curve(d):
    precision, recall, thresholds = _sk_metrics().precision_recall_curve(d.y_true, d.y_score, **d.theirs())
    ours = curves.precision_recall_curve(d.y_true, d.y_score, **d.ours())
    # scikit-learn: increasing thresholds, then one more point (recall 0, precision 1) without a threshold.
    return [(ours.precision, precision[:-1][::-1]), (ours.recall, recall[:-1][::-1]),
            (ours.thresholds, thresholds[::-1]), ((precision[-1], recall[-1]), (1.0, 0.0))]


def _precision_at_recall(d):
    precision, recall, _ = _sk_metrics().precision_recall_curve(d.y_true, d.y_score, **d.theirs())
    # The highest threshold whose recall reaches the target: the last such index, thresholds increasing.
    return [(curves.precision_at_recall(d.y_true, d.y_score, target, **d.ours()),
             precision[np.flatnonzero(recall[:-1] >= target).max()]) for target in (0.0, 0.1, 0.5, 0.8, 1.0)]


def _recall_at_fpr(d):
    fpr, tpr, _ = _sk_roc(d)
    return [(curves.recall_at_false_positive_rate(d.y_true, d.y_score, target, **d.ours()), tpr[fpr <= target].max())
            for target in (0.0, 0.01, 0.05, 0.2, 0.5, 1.0)]


def _sk_auc(d, weighted=True):
    return _sk_metrics().roc_auc_score(d.y_true == d.label, d.y_score,
                                       sample_weight=d.sample_weight if weighted else None)


def _rank_auc(d):
    mann_whitney = _load("scipy.stats.mannwhitneyu")
    positive = d.y_true == d.label
    u = mann_whitney(d.y_score[positive], d.y_score[~positive]).statistic / (positive.sum() * (~positive).sum())
    ours = ranking.rank_auc(d.y_true, d.y_score, pos_label=d.pos_label)
    return [(ours, _sk_auc(d, weighted=False)), (ours, u)]


_binary_check("threshold_table", "sklearn.metrics.confusion_matrix_at_thresholds", _threshold_table)
_binary_check("roc_curve", "sklearn.metrics.roc_curve(drop_intermediate=False)",
              lambda d: zip(curves.roc_curve(d.y_true, d.y_score, **d.ours()), _sk_roc(d)))
_binary_check("roc_auc", "sklearn.metrics.roc_auc_score",
              lambda d: [(curves.roc_auc(d.y_true, d.y_score, **d.ours()), _sk_auc(d))])
_binary_check("precision_recall_curve", "sklearn.metrics.precision_recall_curve, reversed, last point dropped",
              _pr_curve)
_binary_check("average_precision", "sklearn.metrics.average_precision_score", lambda d: [
    (curves.average_precision(d.y_true, d.y_score, **d.ours()),
     _sk_metrics().average_precision_score(d.y_true, d.y_score, **d.theirs()))])
_binary_check("precision_at_recall", "read off sklearn.metrics.precision_recall_curve", _precision_at_recall)
_binary_check("recall_at_false_positive_rate", "read off sklearn.metrics.roc_curve", _recall_at_fpr)
_binary_check("pairwise_auc", "sklearn.metrics.roc_auc_score",
              lambda d: [(ranking.pairwise_auc(d.y_true, d.y_score, **d.ours()), _sk_auc(d))])
_binary_check("rank_auc", "sklearn.metrics.roc_auc_score and scipy.stats.mannwhitneyu U / (P N)", _rank_auc,
              _BINARY_DATA + " (weights ignored)")
_binary_check("midranks", 'scipy.stats.rankdata(method="average")', lambda d: [
    (ranking.midranks(d.y_score), _load("scipy.stats.rankdata")(d.y_score, method="average"))])


def _cost_pairs(d, function):
    positive = d.y_true == d.label
    weights = np.ones(len(positive)) if d.sample_weight is None else d.sample_weight

    def errors(y_true, y_pred, sample_weight):
        # scikit-learn decides which rows each threshold flags (and drops zero
        # weights); this only adds up the weights of the two kinds of error.
        is_positive, flagged = y_true == d.label, y_pred.astype(bool)
        return sample_weight[flagged & ~is_positive].sum(), sample_weight[~flagged & is_positive].sum()

    counted, thresholds = _sk_metrics().metric_at_thresholds(d.y_true, d.y_score, errors, sample_weight=weights)
    # metric_at_thresholds starts at the highest score; the +inf row flags nothing.
    counted, thresholds = np.vstack([(0.0, weights[positive].sum()), counted]), np.r_[np.inf, thresholds]
    pairs = []
    for fp, fn in ((1.0, 5.0), (2.5, 1.0)):
        options = dict(false_positive_cost=fp, false_negative_cost=fn, **d.ours())
        values = counted @ (fp, fn)
        if function == "cost_curve":
            curve = costs.cost_curve(d.y_true, d.y_score, **options)
            pairs += [(curve.total_cost, values), (curve.thresholds, thresholds)]
        elif function == "best_threshold":
            best = costs.best_threshold(d.y_true, d.y_score, **options)
            pairs += [((best.threshold, best.cost), (thresholds[np.argmin(values)], values.min()))]
        else:
            pairs += [(costs.cost_at_threshold(d.y_true, d.y_score, t, **options), v)
                      for t, v in zip(thresholds[::5], values[::5])]
    return pairs


for _function, _counterpart in (("cost_curve", "sklearn.metrics.metric_at_thresholds, plus the +inf row"),
                                ("best_threshold", "argmin of sklearn.metrics.metric_at_thresholds (+inf first)"),
                                ("cost_at_threshold", "sklearn.metrics.metric_at_thresholds at every fifth threshold")):
    _binary_check(_function, _counterpart, partial(_cost_pairs, function=_function),
                  _BINARY_DATA + "; costs (1, 5) and (2.5, 1)")


def _youden(d):
    fpr, tpr, thresholds = _sk_roc(d)
    row = int(np.argmax(tpr - fpr))
    expected = (thresholds[row], tpr[row] - fpr[row], tpr[row], fpr[row])
    return [(costs.youden_index(d.y_true, d.y_score, **d.ours()), expected)]


_binary_check("youden_index", "largest TPR − FPR of sklearn.metrics.roc_curve(drop_intermediate=False)", _youden)


# ---------------------------------------------------------------------------
# probabilities: calibration and recalibration
# ---------------------------------------------------------------------------

_binary_check("brier_score", "sklearn.metrics.brier_score_loss", lambda d: [
    (calibration.brier_score(d.y_true, d.y_prob, **d.ours()),
     _sk_metrics().brier_score_loss(d.y_true, d.y_prob, **d.theirs()))])
def _decomposition(d):
    parts = calibration.brier_decomposition(d.y_true, d.y_prob, pos_label=d.pos_label)
    return [(parts.reliability - parts.resolution + parts.uncertainty,
             _sk_metrics().brier_score_loss(d.y_true, d.y_prob, pos_label=d.label))]


_binary_check("brier_decomposition", "REL − RES + UNC against sklearn.metrics.brier_score_loss", _decomposition,
              _BINARY_DATA + " (weights ignored)")


def _reliability(d, strategy):
    calibration_curve = _load("sklearn.calibration.calibration_curve")
    pairs = []
    for n_bins in (3, 5, 10):
        curve = calibration.reliability_curve(d.y_true, d.y_prob, n_bins=n_bins, strategy=strategy,
                                              pos_label=d.pos_label)
        prob_true, prob_pred = calibration_curve(d.y_true, d.y_prob, n_bins=n_bins, strategy=strategy,
                                                 pos_label=d.label)
        pairs += [(curve.mean_predicted, prob_pred), (curve.fraction_positive, prob_true)]
    return pairs


for _strategy in ("uniform", "quantile"):
    _binary_check(f'reliability_curve(strategy="{_strategy}")',
                  f'sklearn.calibration.calibration_curve(strategy="{_strategy}"), fields swapped',
                  partial(_reliability, strategy=_strategy), _BINARY_DATA + "; 3, 5, 10 bins (weights ignored)")


def _corp(d):
    y = (d.y_true == d.label).astype(float)
    corp = calibration.corp_reliability(d.y_true, d.y_prob, pos_label=d.pos_label)
    fitted = _load("sklearn.isotonic.IsotonicRegression")(out_of_bounds="clip").fit(d.y_prob, y).predict(d.y_prob)
    brier = _sk_metrics().brier_score_loss
    return [(corp.recalibrated, fitted), (corp.miscalibration, brier(y, d.y_prob) - brier(y, fitted))]


_binary_check("corp_reliability", "sklearn.isotonic.IsotonicRegression on (y_prob, y_true)", _corp,
              _BINARY_DATA + " (weights ignored)")


def _isotonic(d):
    w = None if d.sample_weight is None else d.sample_weight + 0.5  # PAV needs positive weights
    pairs = []
    for y in ((d.y_true == d.label).astype(float), d.y_score):
        ours = recalibration.isotonic_regression(y, sample_weight=w)
        pairs += [(ours, _load("sklearn.isotonic.isotonic_regression")(y, sample_weight=w)),
                  (ours, _load("scipy.optimize.isotonic_regression")(y, weights=w).x)]
    return pairs


_binary_check("isotonic_regression", "sklearn.isotonic.isotonic_regression, scipy.optimize.isotonic_regression",
              _isotonic, "0/1 and real targets with ties, half weighted")


def _isotonic_calibration(d):
    y = (d.y_true == d.label).astype(float)
    grid = np.linspace(d.y_score.min() - 1.0, d.y_score.max() + 1.0, 301)
    ours = recalibration.IsotonicCalibration(interpolation="linear").fit(d.y_score, y, sample_weight=d.sample_weight)
    theirs = _load("sklearn.isotonic.IsotonicRegression")(out_of_bounds="clip")
    return [(ours.transform(grid), theirs.fit(d.y_score, y, sample_weight=d.sample_weight).predict(grid))]


_binary_check('IsotonicCalibration(interpolation="linear")',
              'sklearn.isotonic.IsotonicRegression(out_of_bounds="clip")',
              _isotonic_calibration, _BINARY_DATA + "; a grid beyond the fitted range")

_GRID = np.linspace(-4.0, 4.0, 81)


def _platt(d):
    ours = recalibration.PlattScaling().fit(d.y_score, d.y_true, **d.ours())
    theirs = _load("sklearn.linear_model.LogisticRegression")(C=np.inf, solver="newton-cholesky", tol=1e-12)
    theirs.fit(d.y_score[:, None], d.y_true == d.label, sample_weight=d.sample_weight)
    return [(ours.predict_proba(_GRID), theirs.predict_proba(_GRID[:, None])[:, 1])]


def _identity_classifier(scores, y):
    """A fitted scikit-learn classifier whose decision function is its one feature."""
    base = importlib.import_module("sklearn.base")

    class Identity(base.ClassifierMixin, base.BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def decision_function(self, X):
            return np.asarray(X, dtype=float)[:, 0]

        def predict(self, X):
            return self.classes_[(self.decision_function(X) > 0).astype(int)]

    return Identity().fit(scores[:, None], y)


def _platt_smoothed(d):
    y = (d.y_true == d.label).astype(int)
    ours = recalibration.PlattScaling(smooth_targets=True).fit(d.y_score, y, sample_weight=d.sample_weight)
    frozen = _load("sklearn.frozen.FrozenEstimator")(_identity_classifier(d.y_score, y))
    theirs = _load("sklearn.calibration.CalibratedClassifierCV")(frozen, method="sigmoid", ensemble=False)
    with warnings.catch_warnings():
        # The weights are meant for the calibrator only, which is what scikit-learn warns it does.
        warnings.filterwarnings("ignore", message="Since FrozenEstimator", category=UserWarning)
        theirs.fit(d.y_score[:, None], y, sample_weight=d.sample_weight)
    return [(ours.predict_proba(_GRID), theirs.predict_proba(_GRID[:, None])[:, 1])]


_binary_check("PlattScaling", 'sklearn.linear_model.LogisticRegression(C=inf, solver="newton-cholesky") on the score',
              _platt, _BINARY_DATA + "; probabilities on a grid", FITTED_TOLERANCE)
_binary_check("PlattScaling(smooth_targets=True)",
              'sklearn.calibration.CalibratedClassifierCV(FrozenEstimator(model), method="sigmoid")', _platt_smoothed,
              _BINARY_DATA + "; probabilities on a grid", SIGMOID_TOLERANCE)


@_check("PlattCalibrated(smooth_targets=True)", 'sklearn.calibration.CalibratedClassifierCV(method="sigmoid", '
        "ensemble=False, cv=StratifiedKFold(3, shuffle=True))",
        "4 features on mixed scales, 3 seeds; scikit-learn's LogisticRegression inside", SIGMOID_TOLERANCE)
def _(rng, n):
    logistic = _load("sklearn.linear_model.LogisticRegression")
    calibrated = _load("sklearn.calibration.CalibratedClassifierCV")
    folds = _load("sklearn.model_selection.StratifiedKFold")
    pairs = []
    for seed in range(3):
        X, y = _features(rng, n)
        ours = recalibration.PlattCalibrated(logistic(solver="newton-cholesky", tol=1e-12), n_folds=3, seed=seed,
                                             smooth_targets=True).fit(X, y)
        theirs = calibrated(logistic(solver="newton-cholesky", tol=1e-12), method="sigmoid", ensemble=False,
                            cv=folds(3, shuffle=True, random_state=seed)).fit(X, y)
        pairs.append((ours.predict_proba(X), theirs.predict_proba(X)[:, 1]))
    return _worst(pairs)


# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------

for _name in ("mean_squared_error", "root_mean_squared_error", "mean_absolute_error",
              "mean_absolute_percentage_error", "r2_score"):
    _check(_name, f"sklearn.metrics.{_name}", _REGRESSION_DATA)(
        lambda rng, n, name=_name: _worst((getattr(regression, name)(y, y_hat, sample_weight=w),
                                           _load(f"sklearn.metrics.{name}")(y, y_hat, sample_weight=w))
                                          for y, y_hat, w in _regression_sets(rng, n)))


def _grid_minimum(y, w, loss):
    """Lowest minimiser and minimum of a loss over the constants at every target.

    The MAE and MAPE of a constant are piecewise linear in it, so a
    minimum always sits at a target value.
    """
    candidates = np.unique(y)
    losses = np.array([_load(loss)(y, np.full(len(y), c), sample_weight=w) for c in candidates])
    return candidates[int(np.argmin(losses))], losses.min()


for _metric, _loss in (("mae", "mean_absolute_error"), ("mape", "mean_absolute_percentage_error")):
    _check(f'best_constant(metric="{_metric}")', f"lowest minimiser of sklearn.metrics.{_loss} over the targets",
           _REGRESSION_DATA)(
        lambda rng, n, metric=_metric, loss=f"sklearn.metrics.{_loss}": _worst(
            ((best.low, best.loss), _grid_minimum(y, w, loss)) for y, _, w in _regression_sets(rng, n)
            for best in [regression.best_constant(y, metric=metric, sample_weight=w)]))
_check("mape_optimal_constant", "argmin of sklearn.metrics.mean_absolute_percentage_error over the targets",
       _REGRESSION_DATA)(lambda rng, n: _worst(
           (regression.mape_optimal_constant(y, sample_weight=w),
            _grid_minimum(y, w, "sklearn.metrics.mean_absolute_percentage_error")[0])
           for y, _, w in _regression_sets(rng, n)))


# ---------------------------------------------------------------------------
# cross-validation (the differences count mismatched indices)
# ---------------------------------------------------------------------------

@_check("k_fold", "sklearn.model_selection.KFold", "n and n + 3 rows; 2, 5, 7 folds; unshuffled and 3 seeds", 0.0)
def _(rng, n):
    kfold = _load("sklearn.model_selection.KFold")
    return sum(_mismatches(cross_validation.k_fold(rows, n_splits=k, shuffle=seed is not None, seed=seed),
                           kfold(k, shuffle=seed is not None, random_state=seed).split(np.zeros(rows)))
               for rows in (n, n + 3) for k in (2, 5, 7) for seed in (None, 0, 1, 2))


@_check("stratified_k_fold", "sklearn.model_selection.StratifiedKFold",
        "2, 3, 5 classes (ints, strings); 3 and 5 folds; unshuffled and 3 seeds", 0.0)
def _(rng, n):
    stratified = _load("sklearn.model_selection.StratifiedKFold")
    return sum(_mismatches(cross_validation.stratified_k_fold(y, n_splits=k, shuffle=seed is not None, seed=seed),
                           stratified(k, shuffle=seed is not None, random_state=seed).split(np.zeros(len(y)), y))
               for y, _, _ in _class_sets(rng, n)[::2] for k in (3, 5) for seed in (None, 0, 1, 2))


@_check("group_k_fold", "sklearn.model_selection.GroupKFold", "groups of 1 to 12 rows, ints and strings; 2, 3, 5 folds",
        0.0)
def _(rng, n):
    grouped = _load("sklearn.model_selection.GroupKFold")
    count = 0.0
    for as_text in (False, True):
        groups = np.repeat(np.arange(n), rng.integers(1, 13, n))[:n]
        groups = np.char.add("g", groups.astype(str)) if as_text else groups
        count += sum(_mismatches(cross_validation.group_k_fold(groups, n_splits=k),
                                 grouped(k).split(np.zeros(n), groups=groups)) for k in (2, 3, 5))
    return count


@_check("time_series_split", "sklearn.model_selection.TimeSeriesSplit",
        "3 and 5 splits; test_size default and 7; gap 0 and 2; max_train_size None and 20", 0.0)
def _(rng, n):
    splitter = _load("sklearn.model_selection.TimeSeriesSplit")
    return sum(_mismatches(cross_validation.time_series_split(n, **options), splitter(**options).split(np.zeros(n)))
               for k in (3, 5) for size in (None, 7) for gap in (0, 2) for most in (None, 20)
               for options in [dict(n_splits=k, test_size=size, gap=gap, max_train_size=most)])


@_check("out_of_fold_probabilities", 'sklearn.model_selection.cross_val_predict(GaussianNB(), method="predict_proba")',
        "4 features on mixed scales; shuffled stratified 5 folds, 2 seeds")
def _(rng, n):
    pairs = []
    for seed in (0, 1):
        X, y = _features(rng, n)
        folds = cross_validation.stratified_k_fold(y, n_splits=5, shuffle=True, seed=seed)
        theirs = _load("sklearn.model_selection.cross_val_predict")(
            _load("sklearn.naive_bayes.GaussianNB")(), X, y, cv=folds, method="predict_proba")
        pairs.append((cross_validation.out_of_fold_probabilities(models.GaussianNaiveBayes(), X, y, folds=folds),
                      theirs[:, 1]))
    return _worst(pairs)


# ---------------------------------------------------------------------------
# intervals
# ---------------------------------------------------------------------------

@_check("normal_quantile", "scipy.special.ndtri", "3,999 levels in (0, 1); tails down to 1e-295")
def _(rng, n):
    levels = np.r_[np.linspace(0, 1, 4001)[1:-1], 10.0 ** -np.arange(1, 300, 7), 1 - 10.0 ** -np.arange(1, 16)]
    return _gap([intervals.normal_quantile(float(p)) for p in levels], _load("scipy.special.ndtri")(levels))


def _proportions():
    for trials in (1, 2, 5, 12, 37, 143, 1000):
        for successes in sorted({0, 1, trials // 3, trials // 2, trials - 1, trials}):
            for confidence in (0.8, 0.95, 0.99):
                yield successes, trials, confidence


_PROPORTIONS = "k from 0 to n, n from 1 to 1,000; confidence 0.8, 0.95, 0.99"
_check("wilson_interval", 'scipy.stats.binomtest(k, n).proportion_ci(method="wilson")', _PROPORTIONS)(
    lambda rng, n: _worst((intervals.wilson_interval(k, trials, confidence=c), tuple(
        _load("scipy.stats.binomtest")(k, trials).proportion_ci(confidence_level=c, method="wilson")))
        for k, trials, c in _proportions()))
_check("wald_interval", "p̂ ± z √(p̂ (1 − p̂) / n), z from scipy.stats.norm.ppf", _PROPORTIONS)(
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


# ---------------------------------------------------------------------------
# models and the exact binormal AUC
# ---------------------------------------------------------------------------

@_check("LogisticRegression", "StandardScaler + sklearn.linear_model.LogisticRegression(C=1/penalty, "
        'solver="newton-cholesky", tol=1e-12)', "4 features on mixed scales; penalty 0.01, 1, 10; new rows",
        FITTED_TOLERANCE)
def _(rng, n):
    pairs = []
    for penalty in (0.01, 1.0, 10.0):
        (X, y), X_new = _features(rng, n), _features(rng, n)[0]
        scaler = _load("sklearn.preprocessing.StandardScaler")().fit(X)
        theirs = _load("sklearn.linear_model.LogisticRegression")(C=1 / penalty, solver="newton-cholesky", tol=1e-12)
        theirs.fit(scaler.transform(X), y)
        pairs.append((models.LogisticRegression(penalty=penalty).fit(X, y).predict_proba(X_new),
                      theirs.predict_proba(scaler.transform(X_new))[:, 1]))
    return _worst(pairs)


@_check("GaussianNaiveBayes", "sklearn.naive_bayes.GaussianNB", "4 features on mixed scales; var_smoothing 1e-9, 1e-3")
def _(rng, n):
    pairs = []
    for smoothing in (1e-9, 1e-3):
        (X, y), X_new = _features(rng, n), _features(rng, n)[0]
        theirs = _load("sklearn.naive_bayes.GaussianNB")(var_smoothing=smoothing).fit(X, y)
        pairs.append((models.GaussianNaiveBayes(var_smoothing=smoothing).fit(X, y).predict_proba(X_new),
                      theirs.predict_proba(X_new)[:, 1]))
    return _worst(pairs)


_check("binormal_auc", "scipy.stats.norm.cdf(mean / √(1 + sd²))", "mean from −3 to 3, sd from 0.25 to 4")(
    lambda rng, n: _worst((datasets.binormal_auc(mean, sd=sd), _load("scipy.stats.norm").cdf(mean / math.hypot(1, sd)))
                          for mean in np.linspace(-3, 3, 13) for sd in (0.25, 1.0, 2.0, 4.0)))


# ---------------------------------------------------------------------------
# running the registry
# ---------------------------------------------------------------------------

def compare_all(*, seed=0, n=200, functions=None):
    """Run the checks of :data:`REGISTRY` on fresh random data.

    Parameters
    ----------
    seed : int, default 0
        Check ``i`` draws from ``numpy.random.default_rng([seed, i])``, so
        no check depends on another.
    n : int, default 200
        Rows of each random data set, at least 30.
    functions : collection of str, optional
        Run only the checks with these ``function`` names (default: all).

    Returns
    -------
    list of Comparison
        One per check run, in registry order.

    Examples
    --------
    >>> rows = compare_all(functions={"roc_auc", "k_fold"})
    >>> [(row.function, row.agrees) for row in rows]
    [('roc_auc', True), ('k_fold', True)]
    """
    n = arrays.positive_int(n, "n", minimum=30)
    if functions is not None:
        unknown = set(functions) - {check.function for check in REGISTRY}
        if unknown:
            raise ValueError(f"functions not in the registry: {sorted(unknown)}")
    return [Comparison(check.function, check.counterpart, check.run(np.random.default_rng([seed, i]), n), check.data,
                       check.tolerance)
            for i, check in enumerate(REGISTRY) if functions is None or check.function in functions]


def _number(value):
    if value == 0:
        return "0"
    return "inf" if math.isinf(value) else f"{value:.1e}"


def format_table(rows):
    """A Markdown table of comparisons, one line per row.

    Examples
    --------
    >>> print(format_table([Comparison("roc_auc", "sklearn.metrics.roc_auc_score", 2.2e-16, "ties")]))
    | Function | Counterpart | Largest difference | Tolerance | Data |
    |---|---|---|---|---|
    | `roc_auc` | `sklearn.metrics.roc_auc_score` | 2.2e-16 | 1.0e-12 | ties |
    """
    lines = ["| Function | Counterpart | Largest difference | Tolerance | Data |", "|---|---|---|---|---|"]
    for row in rows:
        cells = (f"`{row.function}`", f"`{row.counterpart}`", _number(row.max_abs_difference),
                 _number(row.tolerance) if row.tolerance else "exact", row.data)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    results = compare_all()
    print(format_table(results))
    failed = [row.function for row in results if not row.agrees]
    print(f"\n{len(results)} comparisons; " + (f"outside tolerance: {', '.join(failed)}" if failed else "all agree"))
