"""A/B: two binormal models that the ROC area and the precision-recall view rank oppositely.

:func:`ab_comparison` (the section "The A/B comparison at 1 % prevalence"
of ``book/in-practice.md``): two models on rare positives, estimated and
in theory, whose ROC AUC prefers one and whose precision-recall summaries
prefer the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ... import arrays
from ...curves import average_precision, precision_at_recall, recall_at_false_positive_rate, roc_auc
from ...datasets import binormal_auc, binormal_scores
from ...intervals import normal_quantile
from ...rates import precision_at_prevalence
from ._common import _phi, _positive_real, _seed

__all__ = ["ABComparison", "ScoredModel", "ab_comparison"]


# ---------------------------------------------------------------------------
# A/B: the ROC area and the precision-recall curve disagree
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ScoredModel:
    """One binormal model of :func:`ab_comparison`, estimated and in theory."""

    name: str
    mean: float
    sd: float
    auc: float
    average_precision: float
    recall_at_fpr: float
    precision_at_recall: float
    theoretical_auc: float
    theoretical_recall_at_fpr: float
    theoretical_precision_at_recall: float
    y_true: np.ndarray = field(repr=False, compare=False)
    y_score: np.ndarray = field(repr=False, compare=False)


@dataclass(frozen=True)
class ABComparison:
    """Result of :func:`ab_comparison`."""

    a: ScoredModel
    b: ScoredModel
    false_positive_rate: float
    recall: float
    n_positive: int
    n_negative: int
    seed: int | None

    @property
    def prevalence(self):
        return self.n_positive / (self.n_positive + self.n_negative)


def _scored_model(name, mean, sd, n_negative, n_positive, fpr, target_recall, seed):
    y_true, y_score = binormal_scores(n_negative, n_positive, mean=mean, sd=sd, seed=seed)
    pi = n_positive / (n_negative + n_positive)
    # Exact operating points: the threshold at which the negatives' (or the
    # positives') normal tail has the required size.
    t_fpr = -normal_quantile(fpr) if 0.0 < fpr < 1.0 else (math.inf if fpr == 0 else -math.inf)
    t_recall = mean - sd * normal_quantile(target_recall) if 0.0 < target_recall < 1.0 else None
    theory_recall = float(_phi((mean - t_fpr) / sd)) if math.isfinite(t_fpr) else float(fpr >= 1)
    if t_recall is None:
        theory_precision = float("nan")
    else:
        theory_precision = float(precision_at_prevalence(target_recall, float(_phi(-t_recall)), pi))
    return ScoredModel(
        name=name, mean=float(mean), sd=float(sd),
        auc=float(roc_auc(y_true, y_score)),
        average_precision=float(average_precision(y_true, y_score)),
        recall_at_fpr=recall_at_false_positive_rate(y_true, y_score, fpr),
        precision_at_recall=precision_at_recall(y_true, y_score, target_recall),
        theoretical_auc=binormal_auc(mean, sd=sd),
        theoretical_recall_at_fpr=theory_recall,
        theoretical_precision_at_recall=theory_precision,
        y_true=y_true, y_score=y_score,
    )


def ab_comparison(*, n_negative=19_800, n_positive=200, model_a=(2.0, 1.0), model_b=(2.6, 2.0),
                  false_positive_rate=0.01, recall=0.5, seed=0):
    """Two binormal models on rare positives: the AUC prefers A, the PR view B.

    Each model scores ``n_negative`` negatives from N(0, 1) and
    ``n_positive`` positives from N(mean, sd^2), ``model_a`` and ``model_b``
    giving (mean, sd).  Both draw with the same ``seed``, so they score the
    same negatives and their positives come from the same standard normal
    draws (common random numbers): the comparison isolates the positives'
    distribution.  The default B spreads its positives widely, above every
    negative and among them: lower AUC, better everywhere a rare-positive
    application operates.

    Parameters
    ----------
    n_negative, n_positive : int, default 19800 and 200 (1 % prevalence)
    model_a, model_b : (float, float)
        (mean, sd) of each model's positive scores.
    false_positive_rate : float, default 0.01
        Operating point for the recall comparison.
    recall : float, default 0.5
        Operating point for the precision comparison.
    seed : int, numpy.random.Generator or None, default 0
        Both models draw with it (a generator gives one integer seed for both).

    Returns
    -------
    ABComparison

    Examples
    --------
    >>> ab = ab_comparison(seed=0)
    >>> round(ab.a.theoretical_auc, 4), round(ab.b.theoretical_auc, 4)
    (0.9214, 0.8775)
    >>> ab.a.auc > ab.b.auc and ab.b.average_precision > ab.a.average_precision
    True
    """
    n_negative = arrays.positive_int(n_negative, "n_negative")
    n_positive = arrays.positive_int(n_positive, "n_positive")
    seed = _seed(seed)
    models = []
    for name, spec in (("A", model_a), ("B", model_b)):
        try:
            mean, sd = (float(v) for v in spec)
        except (TypeError, ValueError):
            raise TypeError(f"model_{name.lower()} must be a (mean, sd) pair of numbers") from None
        sd = _positive_real(sd, f"model_{name.lower()} sd")
        models.append((name, mean, sd))
    fpr = arrays.probability(false_positive_rate, "false_positive_rate", open_interval=False)
    target = arrays.probability(recall, "recall", open_interval=False)
    a, b = (_scored_model(name, mean, sd, n_negative, n_positive, fpr, target, seed)
            for name, mean, sd in models)
    return ABComparison(a=a, b=b, false_positive_rate=fpr, recall=target,
                        n_positive=n_positive, n_negative=n_negative, seed=seed)
