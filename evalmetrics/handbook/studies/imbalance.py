"""Imbalance: one binormal scoring model at several prevalences.

:func:`imbalance_study` (the section "Imbalance: what moves and what does
not" of ``book/in-practice.md``): what moves with the prevalence
(precision, AP, accuracy, MCC, kappa) and what does not (ROC AUC, recall,
balanced accuracy), next to a silent classifier that never flags anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ... import arrays
from ...counts import BinaryCounts, counts_at_threshold
from ...curves import average_precision, roc_auc
from ...datasets import binormal_auc, binormal_scores
from ...rates import (
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    f1,
    matthews_correlation,
    precision,
    precision_at_prevalence,
    recall,
)
from ._common import _phi, _positive_real, _seed

__all__ = ["DecisionMetrics", "ImbalanceStudy", "PrevalenceRun", "imbalance_study"]


# ---------------------------------------------------------------------------
# imbalance: one model, three prevalences
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DecisionMetrics:
    """The measures of one set of hard decisions (binary counts)."""

    counts: BinaryCounts
    accuracy: float
    balanced_accuracy: float
    precision: float
    recall: float
    f1: float
    mcc: float
    kappa: float

    @classmethod
    def from_counts(cls, counts):
        """All measures of ``counts``; undefined ratios (nothing flagged) are 0."""
        return cls(
            counts=counts, accuracy=float(accuracy(counts=counts, zero_division=0)),
            balanced_accuracy=float(balanced_accuracy(counts=counts, zero_division=0)),
            precision=float(precision(counts=counts, zero_division=0)),
            recall=float(recall(counts=counts, zero_division=0)),
            f1=float(f1(counts=counts, zero_division=0)), mcc=float(matthews_correlation(counts=counts)),
            kappa=float(cohen_kappa(counts=counts, zero_division=0)),
        )


@dataclass(frozen=True)
class PrevalenceRun:
    """The study at one prevalence.

    ``model`` flags the scores of at least the threshold, ``silent`` never
    flags anything.  ``expected_precision`` is the model's precision by
    Bayes' rule from its exact rates, the value the estimate should be near.
    """

    target_prevalence: float
    n_positive: int
    n_negative: int
    auc: float
    average_precision: float
    model: DecisionMetrics
    silent: DecisionMetrics
    expected_precision: float
    y_true: np.ndarray = field(repr=False, compare=False)
    y_score: np.ndarray = field(repr=False, compare=False)

    @property
    def prevalence(self):
        """The realised share of positives, ``P / n``."""
        return self.n_positive / (self.n_positive + self.n_negative)


@dataclass(frozen=True)
class ImbalanceStudy:
    """Result of :func:`imbalance_study`: the exact values and one run per prevalence."""

    mean: float
    sd: float
    threshold: float
    theoretical_auc: float
    model_tpr: float
    model_fpr: float
    runs: tuple[PrevalenceRun, ...]
    seed: int | None


def imbalance_study(*, prevalences=(0.5, 0.1, 0.01), n_negative=20_000, mean=2.0, sd=1.0,
                    threshold=1.0, seed=0):
    """One scoring model evaluated at several prevalences.

    Negatives score N(0, 1) and positives N(``mean``, ``sd``^2)
    (:func:`~evalmetrics.datasets.binormal_scores`).  For prevalence pi the
    data hold ``n_negative`` negatives and ``round(n_negative pi / (1 - pi))``
    positives.  Every run draws with the same ``seed``, so the negatives are
    the same at every prevalence and the positives of a rarer run are the
    first ones of a more common run: only the number of positives changes,
    which is the cleanest form of the experiment.

    Parameters
    ----------
    prevalences : sequence of float in (0, 1), default (0.5, 0.1, 0.01)
    n_negative : int, default 20000
    mean, sd : float, default 2 and 1
    threshold : float, default 1.0
        The model flags every score of at least this value.
    seed : int, numpy.random.Generator or None, default 0
        Every run draws with it (a generator gives one integer seed for all).

    Returns
    -------
    ImbalanceStudy

    Examples
    --------
    >>> study = imbalance_study(prevalences=(0.5, 0.1), n_negative=900, seed=0)
    >>> [run.n_positive for run in study.runs], round(study.theoretical_auc, 4)
    ([900, 100], 0.9214)
    >>> [round(run.silent.accuracy, 2) for run in study.runs]
    [0.5, 0.9]
    """
    n_negative = arrays.positive_int(n_negative, "n_negative")
    sd = _positive_real(sd, "sd")
    threshold = arrays.real(threshold, "threshold")
    seed = _seed(seed)
    checked = [arrays.probability(pi, "prevalences") for pi in prevalences]
    if not checked:
        raise ValueError("prevalences is empty")
    tpr = float(_phi((mean - threshold) / sd))
    fpr = float(_phi(-threshold))
    runs = []
    for pi in checked:
        n_positive = max(1, round(n_negative * pi / (1.0 - pi)))
        y_true, y_score = binormal_scores(n_negative, n_positive, mean=mean, sd=sd, seed=seed)
        runs.append(PrevalenceRun(
            target_prevalence=pi, n_positive=n_positive, n_negative=n_negative,
            auc=float(roc_auc(y_true, y_score)), average_precision=float(average_precision(y_true, y_score)),
            model=DecisionMetrics.from_counts(counts_at_threshold(y_true, y_score, threshold)),
            silent=DecisionMetrics.from_counts(BinaryCounts(tp=0, fp=0, fn=n_positive, tn=n_negative)),
            expected_precision=float(precision_at_prevalence(tpr, fpr, pi)), y_true=y_true, y_score=y_score,
        ))
    return ImbalanceStudy(mean=float(mean), sd=sd, threshold=threshold,
                          theoretical_auc=binormal_auc(mean, sd=sd), model_tpr=tpr, model_fpr=fpr,
                          runs=tuple(runs), seed=seed)
