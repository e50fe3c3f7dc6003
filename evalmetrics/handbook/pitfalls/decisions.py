"""Decisions at one threshold: what accuracy, averages and the choice of classes hide.

Demonstrates the section "Decisions at one threshold" of the chapter Pitfalls
(``book/pitfalls.md``): "Accuracy under imbalance" (:func:`accuracy_under_imbalance`),
"Weighted averages hide small classes" (:func:`rare_class_hidden`), "Two macro F1
scores" (:func:`two_macro_f1`), "Choosing the positive class silently"
(:func:`swapped_positive_class`) and "Reading a transposed confusion matrix"
(:func:`transposed_matrix`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...averaging import averaged_scores, f1_of_macro_averages
from ...counts import binary_counts, confusion_matrix
from ...rates import accuracy, cohen_kappa, f1, matthews_correlation, precision, recall
from ...worked_example import graded_parts, twelve_units
from ._common import _seed

__all__ = [
    "PositiveClassView", "PositiveClassViews", "RareClassDrop", "SilentClassifier",
    "TransposedReading", "TwoMacroF1", "accuracy_under_imbalance", "rare_class_hidden",
    "swapped_positive_class", "transposed_matrix", "two_macro_f1",
]


# ---------------------------------------------------------------------------
# decisions at one threshold
# ---------------------------------------------------------------------------

class SilentClassifier(NamedTuple):
    """A model and a classifier that never flags, at 1 % prevalence."""

    prevalence: float
    silent_accuracy: float
    model_accuracy: float
    model_recall: float
    silent_balanced_accuracy: float
    model_balanced_accuracy: float
    silent_mcc: float
    model_mcc: float


def accuracy_under_imbalance(*, seed=0):
    """19,800 negatives and 200 positives; the model flags binormal scores of at least 1.

    Examples
    --------
    >>> r = accuracy_under_imbalance(seed=0)
    >>> r.silent_accuracy, r.model_accuracy < r.silent_accuracy
    (0.99, True)
    """
    from ..studies import imbalance_study

    run = imbalance_study(prevalences=(0.01,), n_negative=19_800, seed=_seed(seed)).runs[0]
    return SilentClassifier(run.prevalence, run.silent.accuracy, run.model.accuracy, run.model.recall,
                            run.silent.balanced_accuracy, run.model.balanced_accuracy,
                            run.silent.mcc, run.model.mcc)


class RareClassDrop(NamedTuple):
    """Three-class run: all classes allowed, and the rare class forbidden."""

    macro_f1: float
    macro_f1_without_rare: float
    weighted_f1: float
    weighted_f1_without_rare: float
    accuracy: float
    accuracy_without_rare: float


def rare_class_hidden(*, seed=0):
    """What never predicting the rare class costs each average (the three-class run).

    Examples
    --------
    >>> r = rare_class_hidden(seed=0)
    >>> r.macro_f1 - r.macro_f1_without_rare > 3 * (r.weighted_f1 - r.weighted_f1_without_rare)
    True
    """
    from ..studies import three_class_run

    run = three_class_run(seed=_seed(seed))
    a, b = run.all_classes, run.without_rare
    return RareClassDrop(a.macro_f1, b.macro_f1, a.weighted_f1, b.weighted_f1, a.accuracy, b.accuracy)


class TwoMacroF1(NamedTuple):
    """The mean of per-class F1 scores and the F1 of macro precision and recall."""

    mean_of_f1: float
    f1_of_means: float


def two_macro_f1():
    """Both macro F1 scores of the graded parts: 0.6557 and 0.6574.

    Examples
    --------
    >>> [round(x, 4) for x in two_macro_f1()]
    [0.6557, 0.6574]
    """
    p = graded_parts()
    return TwoMacroF1(averaged_scores(p.y_true, p.y_pred, average="macro").f_score,
                      f1_of_macro_averages(p.y_true, p.y_pred))


class PositiveClassView(NamedTuple):
    """The measures of the twelve units at 0.5 with one class called positive."""

    precision: float
    recall: float
    f1: float
    accuracy: float
    mcc: float
    kappa: float


class PositiveClassViews(NamedTuple):
    """The same decisions seen with "faulty" and with "working" as the positive class."""

    faulty: PositiveClassView
    working: PositiveClassView


def swapped_positive_class():
    """The twelve units at 0.5 with "faulty" and then "working" as the positive class.

    Examples
    --------
    >>> views = swapped_positive_class()
    >>> round(views.faulty.f1, 4), round(views.working.f1, 4), views.faulty.mcc == views.working.mcc
    (0.6, 0.7143, True)
    """
    u = twelve_units()
    y = np.where(u.y_true == 1, "faulty", "working")
    pred = np.where(u.y_score >= 0.5, "faulty", "working")
    views = []
    for positive in ("faulty", "working"):
        c = binary_counts(y, pred, pos_label=positive)
        views.append(PositiveClassView(
            precision(y, pred, pos_label=positive), recall(y, pred, pos_label=positive),
            f1(y, pred, pos_label=positive), accuracy(counts=c), matthews_correlation(counts=c), cohen_kappa(counts=c)))
    return PositiveClassViews(*views)


class TransposedReading(NamedTuple):
    """Precision read off the right matrix and off its transpose."""

    precision: float
    recall: float
    misread_precision: float


def transposed_matrix():
    """Column-wise precision of the twelve units' matrix and of its transpose.

    Examples
    --------
    >>> transposed_matrix()
    TransposedReading(precision=0.5, recall=0.75, misread_precision=0.75)
    """
    u = twelve_units()
    matrix = confusion_matrix(u.y_true, (u.y_score >= 0.5).astype(int))  # rows actual

    def column_precision(m):  # "the diagonal cell over its column total"
        return float(m[1, 1] / m[:, 1].sum())

    return TransposedReading(column_precision(matrix), float(matrix[1, 1] / matrix[1].sum()),
                             column_precision(matrix.T))
