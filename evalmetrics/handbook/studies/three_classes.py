"""Three classes of very different sizes, and the same model forbidden the rare one.

:func:`three_class_run` (the section "Three classes" of
``book/in-practice.md``): out-of-fold Gaussian naive Bayes predictions on
three classes, and what giving up the rare class does to each summary.  Its
out-of-fold probabilities are the score matrix of the sections on several
classes in ``book/roc-auc.md``, ``book/precision-recall.md`` and
``book/costs.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...averaging import ClassScores, averaged_scores, per_class_scores
from ...counts import confusion_matrix
from ...cross_validation import stratified_k_fold
from ...datasets import gaussian_classes
from ...rates import accuracy, balanced_accuracy, cohen_kappa, matthews_correlation
from ._common import _seed

__all__ = ["ClassRun", "ThreeClassRun", "three_class_run"]


# ---------------------------------------------------------------------------
# three classes, and the same model forbidden the rare one
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassRun:
    """Out-of-fold predictions of three classes and their summary measures."""

    accuracy: float
    macro_f1: float
    weighted_f1: float
    balanced_accuracy: float
    mcc: float
    kappa: float
    rare_recall: float
    per_class: ClassScores = field(repr=False, compare=False)
    matrix: np.ndarray = field(repr=False, compare=False)
    y_pred: np.ndarray = field(repr=False, compare=False)


@dataclass(frozen=True)
class ThreeClassRun:
    """Result of :func:`three_class_run`: every class allowed, and the rare one forbidden."""

    sizes: tuple[int, ...]
    rare_class: int
    all_classes: ClassRun
    without_rare: ClassRun
    y_true: np.ndarray = field(repr=False, compare=False)
    seed: int | None = None
    #: Out-of-fold posterior probabilities, one column per class (rows sum to 1): the scores
    #: the rankings of several classes read (``roc_auc(..., multi_class=...)``).
    y_prob: np.ndarray | None = field(default=None, repr=False, compare=False)


def _naive_bayes_log_joint(X_train, y_train, X_test, n_classes):
    """Log prior plus Gaussian naive Bayes log-likelihood of every test row and class.

    A private multiclass stand-in: :class:`evalmetrics.models.GaussianNaiveBayes`
    handles two classes.  The variance smoothing is scikit-learn's GaussianNB
    default (1e-9 times the largest feature variance), so the predictions agree.
    """
    epsilon = 1e-9 * np.var(X_train, axis=0).max()
    columns = []
    for k in range(n_classes):
        rows = X_train[y_train == k]
        mean = rows.mean(axis=0)
        var = rows.var(axis=0) + epsilon
        log_prior = math.log(len(rows) / len(y_train))
        columns.append(log_prior - 0.5 * np.sum(np.log(2.0 * np.pi * var))
                       - 0.5 * np.sum((X_test - mean) ** 2 / var, axis=1))
    return np.column_stack(columns)


def _class_run(y, y_pred, n_classes, rare):
    labels = np.arange(n_classes)
    per_class = per_class_scores(y, y_pred, labels=labels, zero_division=0)
    return ClassRun(
        accuracy=float(accuracy(y, y_pred)),
        macro_f1=averaged_scores(y, y_pred, average="macro", labels=labels, zero_division=0).f_score,
        weighted_f1=averaged_scores(y, y_pred, average="weighted", labels=labels, zero_division=0).f_score,
        balanced_accuracy=float(balanced_accuracy(y, y_pred, zero_division=0)),
        mcc=float(matthews_correlation(y, y_pred)),
        kappa=float(cohen_kappa(y, y_pred, labels=labels, zero_division=0)),
        rare_recall=float(per_class.recall[rare]), per_class=per_class,
        matrix=confusion_matrix(y, y_pred, labels=np.arange(n_classes)), y_pred=y_pred,
    )


def three_class_run(*, sizes=(1500, 400, 100), n_splits=5, separation=1.35, seed=0):
    """Gaussian naive Bayes on classes of unequal size, with and without the rare class.

    The data come from :func:`~evalmetrics.datasets.gaussian_classes`;
    stratified ``n_splits``-fold cross-validation (shuffled with ``seed``)
    gives every row one out-of-fold log-posterior per class.  The model
    predicts the most probable class; the "forbidden" model predicts the
    most probable class other than the smallest one, so it never names the
    rare class and its recall there is 0.

    Parameters
    ----------
    sizes : sequence of int, default (1500, 400, 100)
    n_splits : int, default 5
    separation : float, default 1.35
    seed : int, numpy.random.Generator or None, default 0
        Seeds both the data and the fold shuffle (a generator gives one integer seed for both).

    Returns
    -------
    ThreeClassRun

    Examples
    --------
    >>> run = three_class_run(seed=0)
    >>> run.without_rare.rare_recall, run.all_classes.rare_recall > 0
    (0.0, True)
    """
    seed = _seed(seed)
    X, y = gaussian_classes(sizes, separation=separation, seed=seed)
    n_classes = len(sizes)
    folds = stratified_k_fold(y, n_splits=n_splits, shuffle=True, seed=seed)
    log_joint = np.empty((len(y), n_classes))
    for train, test in folds:
        log_joint[test] = _naive_bayes_log_joint(X[train], y[train], X[test], n_classes)
    rare = int(np.argmin(sizes))
    allowed = np.delete(np.arange(n_classes), rare)
    forbidden_pred = allowed[np.argmax(log_joint[:, allowed], axis=1)]
    return ThreeClassRun(
        sizes=tuple(int(s) for s in sizes), rare_class=rare,
        all_classes=_class_run(y, np.argmax(log_joint, axis=1), n_classes, rare),
        without_rare=_class_run(y, forbidden_pred, n_classes, rare), y_true=y, seed=seed,
        y_prob=_posterior(log_joint),
    )


def _posterior(log_joint):
    """Each row's probabilities from its log joint densities (the largest subtracted first)."""
    shifted = np.exp(log_joint - log_joint.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)
