"""Checks of the counts and rates: confusion matrices, binary counts, precision to kappa.

Covers :mod:`evalmetrics.counts` and :mod:`evalmetrics.rates` (the chapters
``book/confusion-matrix.md``, ``book/f-scores.md``, ``book/imbalance.md``), against
``sklearn.metrics.confusion_matrix``, ``multilabel_confusion_matrix`` and
the ``*_score`` functions; ``precision_at_prevalence`` against
``precision_score`` with the classes reweighted; ``likelihood_ratios``
against ``class_likelihood_ratios``, its undefined cases included.
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np

from ... import counts, rates
from ._core import _check, _load, _worst
from ._data import _BINARY_DATA, _CLASSES_DATA, _binary_check, _class_sets, _classes, _rate

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


def _likelihood_pairs(d):
    pairs = []
    # The data's own decisions, then three that leave a ratio undefined: nothing flagged
    # (no false positive), everything flagged (no true negative), and no positive at all.
    everything, nothing = np.full(len(d.y_true), d.label), np.full(len(d.y_true), d.negative)
    for y_true, y_pred in ((d.y_true, d.y_pred), (d.y_true, nothing), (d.y_true, everything),
                           (np.full(len(d.y_true), d.negative), d.y_pred)):
        for replace in (np.nan, 1.0, {"LR+": np.inf, "LR-": 0.0}):
            with warnings.catch_warnings():
                # Undefined cases warn (in both libraries); here only the values are compared.
                warnings.simplefilter("ignore")
                ours = rates.likelihood_ratios(y_true, y_pred, replace_undefined_by=replace, **d.ours())
                theirs = _load("sklearn.metrics.class_likelihood_ratios")(
                    y_true, y_pred, labels=[d.negative, d.label], sample_weight=d.sample_weight,
                    replace_undefined_by=replace)
            pairs.append((tuple(ours), tuple(theirs)))
    return pairs


_binary_check("likelihood_ratios", "sklearn.metrics.class_likelihood_ratios(labels=[neg, pos])", _likelihood_pairs,
              data=_BINARY_DATA + "; the undefined cases")
