"""Intervals: resampling the wrong unit, separate intervals, too few examples.

Demonstrates the section "Intervals" of the chapter Pitfalls (``book/pitfalls.md``):
"Resampling the wrong unit" (:func:`wrong_resampling_unit`), "Comparing models with
separate intervals" (:func:`paired_versus_separate`) and "Too few examples for the
metric" (:func:`too_few_examples`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...calibration import brier_score
from ...curves import roc_auc
from ...datasets import clustered_answers
from ...intervals import BootstrapResult, ConfidenceInterval, bootstrap_difference, bootstrap_interval, wilson_interval
from ...worked_example import twelve_units
from ._common import _binormal, _seed

__all__ = ["PairedComparison", "ResamplingUnits", "SmallSample", "paired_versus_separate",
           "too_few_examples", "wrong_resampling_unit"]


# ---------------------------------------------------------------------------
# intervals
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ResamplingUnits:
    """Accuracy of clustered answers: bootstrap over answers, over people, and fresh groups."""

    accuracy: float
    answers: BootstrapResult
    people: BootstrapResult
    fresh_sd: float
    fresh: np.ndarray = field(repr=False, compare=False)


def wrong_resampling_unit(*, n_resamples=2000, n_fresh=2000, seed=0):
    """30 people answering 20 questions (:func:`~evalmetrics.datasets.clustered_answers`).

    The group is drawn with ``seed``; the fresh groups with seeds
    ``seed + 1, ..., seed + n_fresh``.

    Examples
    --------
    >>> r = wrong_resampling_unit(n_resamples=500, n_fresh=200, seed=0)
    >>> r.answers.standard_error < r.people.standard_error
    True
    """
    seed = _seed(seed)
    person, correct = clustered_answers(30, 20, seed=seed)
    answers = bootstrap_interval(np.mean, correct, n_resamples=n_resamples, seed=seed)
    people = bootstrap_interval(np.mean, correct, groups=person, n_resamples=n_resamples, seed=seed)
    fresh = np.array([clustered_answers(30, 20, seed=seed + k)[1].mean() for k in range(1, n_fresh + 1)])
    return ResamplingUnits(float(correct.mean()), answers, people, float(fresh.std(ddof=1)), fresh)


@dataclass(frozen=True)
class PairedComparison:
    """Brier scores of two models on the same rows: separate intervals and the paired difference."""

    a: BootstrapResult
    b: BootstrapResult
    difference: BootstrapResult


def paired_versus_separate(*, n_resamples=2000, seed=0):
    """Calibrated probabilities (A) against the same with doubled log-odds (B).

    Binormal scores, 600 negatives and 300 positives (positives N(1.5, 1)).
    A gives the exact posterior probability, B the overconfident one.  The
    difference is B minus A (positive: A is better).

    Examples
    --------
    >>> r = paired_versus_separate(n_resamples=500, seed=0)
    >>> r.a.interval.high > r.b.interval.low, r.difference.interval.low > 0
    (True, True)
    """
    seed = _seed(seed)
    y, s = _binormal(600, 300, seed, mean=1.5)
    log_odds = 1.5 * s - 1.5 ** 2 / 2 + math.log(300 / 600)  # exact for this binormal model
    p_a, p_b = 1 / (1 + np.exp(-log_odds)), 1 / (1 + np.exp(-2 * log_odds))
    return PairedComparison(
        bootstrap_interval(brier_score, y, p_a, n_resamples=n_resamples, seed=seed + 1),
        bootstrap_interval(brier_score, y, p_b, n_resamples=n_resamples, seed=seed + 2),
        bootstrap_difference(brier_score, y, p_b, p_a, n_resamples=n_resamples, seed=seed + 3))


@dataclass(frozen=True)
class SmallSample:
    """Intervals of the twelve units: accuracy (Wilson) and AUC (bootstrap)."""

    accuracy_interval: ConfidenceInterval
    auc: BootstrapResult


def too_few_examples(*, n_resamples=2000, seed=0):
    """Wilson interval of 8 correct out of 12 and a percentile bootstrap of the AUC.

    Examples
    --------
    >>> r = too_few_examples(seed=0)
    >>> [round(x, 4) for x in r.accuracy_interval], r.auc.interval.low < 0.5
    ([0.3906, 0.8619], True)
    """
    u = twelve_units()
    correct = int(np.sum((u.y_score >= 0.5) == (u.y_true == 1)))
    return SmallSample(wilson_interval(correct, len(u.y_true)),
                       bootstrap_interval(roc_auc, u.y_true, u.y_score, n_resamples=n_resamples,
                                          seed=_seed(seed)))
