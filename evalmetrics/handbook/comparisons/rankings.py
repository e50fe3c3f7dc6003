"""Checks of the curves, areas, ranks, costs and budgets.

Covers :mod:`evalmetrics.curves`, :mod:`evalmetrics.ranking`,
:mod:`evalmetrics.costs` and :mod:`evalmetrics.budgets` (the chapters
``book/roc-auc.md``, ``book/precision-recall.md``, ``book/costs.md``),
against scikit-learn's curves, areas, ``confusion_matrix_at_thresholds``,
``metric_at_thresholds`` and ``top_k_accuracy_score``, and SciPy's
``mannwhitneyu`` and ``rankdata``.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ... import budgets, costs, curves, ranking
from ._core import _check, _load, _sk_metrics, _worst
from ._data import _BINARY_DATA, _MATRIX_DATA, _binary_check, _score_matrix_sets

# ---------------------------------------------------------------------------
# curves, areas, ranks and costs
# ---------------------------------------------------------------------------

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
_binary_check("roc_auc(max_fpr=...)", "sklearn.metrics.roc_auc_score(max_fpr=...)", lambda d: [
    (curves.roc_auc(d.y_true, d.y_score, max_fpr=max_fpr, **d.ours()),
     _sk_metrics().roc_auc_score(d.y_true == d.label, d.y_score, max_fpr=max_fpr, sample_weight=d.sample_weight))
    for max_fpr in (0.01, 0.1, 0.3, 0.75)], _BINARY_DATA + "; max_fpr 0.01, 0.1, 0.3, 0.75")


def _multiclass_auc(rng, n, multi_class):
    theirs = _sk_metrics().roc_auc_score
    averages = ("macro", "weighted") if multi_class == "ovo" else ("macro", "weighted", "micro", None)
    pairs = []
    for y, scores, w in _score_matrix_sets(rng, n):
        w = None if multi_class == "ovo" else w  # scikit-learn has no weighted one-vs-one AUC
        for average in averages:
            options = dict(multi_class=multi_class, average=average, sample_weight=w)
            pairs.append((curves.roc_auc(y, scores, **options), theirs(y, scores, **options)))
        labels = np.unique(y)
        pairs.append((curves.roc_auc(y, scores, labels=labels, multi_class=multi_class, sample_weight=w),
                      theirs(y, scores, labels=labels, multi_class=multi_class, sample_weight=w)))
    return _worst(pairs)


for _multi_class in ("ovr", "ovo"):
    _check(f'roc_auc(multi_class="{_multi_class}")', f'sklearn.metrics.roc_auc_score(multi_class="{_multi_class}")',
           _MATRIX_DATA + ("; macro, weighted, micro, per class" if _multi_class == "ovr" else
                           "; macro, weighted; unweighted"))(partial(_multiclass_auc, multi_class=_multi_class))


@_check("average_precision(score matrix)", "sklearn.metrics.average_precision_score, y_true binarised",
        _MATRIX_DATA + "; macro, weighted, micro, per class")
def _(rng, n):
    theirs = _sk_metrics().average_precision_score
    return _worst((curves.average_precision(y, scores, average=average, sample_weight=w),
                   theirs(y, scores, average=average, sample_weight=w))
                  for y, scores, w in _score_matrix_sets(rng, n) for average in ("macro", "weighted", "micro", None))


_binary_check("det_curve", "sklearn.metrics.det_curve", lambda d: zip(
    curves.det_curve(d.y_true, d.y_score, **d.ours()), _sk_metrics().det_curve(d.y_true, d.y_score, **d.theirs())))
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
# budgets
# ---------------------------------------------------------------------------

def _sk_counts(d):
    """scikit-learn's cumulative TP and FP (weighted) at its thresholds, in decreasing order."""
    _, fps, _, tps, thresholds = _sk_metrics().confusion_matrix_at_thresholds(d.y_true, d.y_score, **d.theirs())
    return tps, fps, thresholds


def _gain(d):
    tps, fps, thresholds = _sk_counts(d)
    ours = budgets.gain_curve(d.y_true, d.y_score, **d.ours())
    return [(ours.share_flagged, np.r_[0.0, (tps + fps) / (tps[-1] + fps[-1])]),
            (ours.gain, np.r_[0.0, tps / tps[-1]]), (ours.thresholds, np.r_[np.inf, thresholds])]


def _lift(d):
    tps, fps, thresholds = _sk_counts(d)
    ours = budgets.lift_curve(d.y_true, d.y_score, **d.ours())
    share = (tps + fps) / (tps[-1] + fps[-1])
    return [(ours.share_flagged, share), (ours.lift, (tps / tps[-1]) / share), (ours.thresholds, thresholds)]


def _at_k(d, function):
    # Unweighted counts: the group holding the k-th place shares its positives in proportion.
    tps, fps = _sk_counts_unweighted(d)
    flagged = tps + fps
    pairs = []
    for k in (1, 7, len(d.y_true) // 10, len(d.y_true) // 3, len(d.y_true)):
        row = int(np.searchsorted(flagged, k))
        above_tp, above = (tps[row - 1], flagged[row - 1]) if row else (0, 0)
        hits = above_tp + (k - above) * (tps[row] - above_tp) / (flagged[row] - above)
        expected = hits / k if function == "precision_at_k" else hits / tps[-1]
        pairs.append((getattr(budgets, function)(d.y_true, d.y_score, k, pos_label=d.pos_label), expected))
    return pairs


def _sk_counts_unweighted(d):
    _, fps, _, tps, _ = _sk_metrics().confusion_matrix_at_thresholds(d.y_true, d.y_score, pos_label=d.label)
    return tps, fps


_binary_check("gain_curve", "read off sklearn.metrics.confusion_matrix_at_thresholds, plus the +inf row", _gain)
_binary_check("lift_curve", "read off sklearn.metrics.confusion_matrix_at_thresholds", _lift)
for _function in ("precision_at_k", "recall_at_k"):
    _binary_check(_function, "read off sklearn.metrics.confusion_matrix_at_thresholds, the tie at k shared",
                  partial(_at_k, function=_function),
                  "6 binary sets: 0/1, ±1, strings; tied scores; k = 1, 7, n/10, n/3, n (weights ignored)")


@_check("top_k_accuracy", "sklearn.metrics.top_k_accuracy_score",
        _MATRIX_DATA + "; k from 1 to 2 and classes − 1; labels; normalize both ways")
def _(rng, n):
    theirs = _sk_metrics().top_k_accuracy_score
    pairs = []
    for y, scores, w in _score_matrix_sets(rng, n):
        for k in sorted({1, 2, scores.shape[1] - 1}):
            for normalize in (True, False):
                options = dict(k=k, normalize=normalize, sample_weight=w)
                pairs.append((budgets.top_k_accuracy(y, scores, **options), theirs(y, scores, **options)))
        labels = np.unique(y)
        pairs.append((budgets.top_k_accuracy(y, scores, labels=labels, sample_weight=w),
                      theirs(y, scores, labels=labels, sample_weight=w)))
    return _worst(pairs)
