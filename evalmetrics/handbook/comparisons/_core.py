"""The registry of :mod:`evalmetrics.handbook.comparisons` and the measure of a difference (private).

:data:`REGISTRY` holds one :class:`Check` per function; ``_check`` is the
decorator that appends one (so the registry runs in the order the package
imports the check modules, and each module in the order of its entries).
:class:`Comparison` is the result of one check, and ``_gap``, ``_worst``
and ``_mismatches`` measure the difference it reports.  The tolerances
and :data:`NO_COUNTERPART` (the public functions left out, with the
reason) live here too; ``_load`` and ``_sk_metrics`` import scikit-learn
and SciPy inside the checks only.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Check", "Comparison", "KINDS", "NO_COUNTERPART", "REGISTRY"]


# Metrics are sums and ratios of the same counts, so they agree to rounding.
# Fitted models stop at a convergence tolerance, so they agree less closely.
METRIC_TOLERANCE = 1e-12
FITTED_TOLERANCE = 1e-8
# scikit-learn fits the sigmoid calibrator by L-BFGS and stops when the
# gradient is below 1e-6; evalmetrics iterates Newton's method to convergence.
SIGMOID_TOLERANCE = 1e-6
# scikit-learn fits the temperature by Brent's method on log(1 / T), which stops when the
# bracket is about sqrt(epsilon) = 1.5e-8 of log(1 / T) wide; evalmetrics iterates Newton's
# method to the last bits.  Probabilities differ by a few 1e-8, up to 1e-6 for large logits.
TEMPERATURE_TOLERANCE = 1e-6

# What a row compares, for the book's summary of the table (each kind has its own largest
# difference): a metric of labels, scores and weights (counts, rates, curves, costs,
# errors, their bootstrap intervals); a formula of numbers alone (the normal distribution,
# the binormal AUC, the intervals of a proportion); a model fitted to data (its
# predictions); a splitter (its folds).
KINDS = ("metric", "formula", "model", "splitter")

NO_COUNTERPART = {
    "ratio": "a guarded division, used by every rate",
    "binned_brier_decomposition": "scikit-learn has no Brier decomposition",
    "expected_calibration_error": "scikit-learn has no expected calibration error",
    "classwise_ece": "scikit-learn has no expected calibration error",
    "top_label_ece": "scikit-learn has no expected calibration error",
    "delong_interval": "scikit-learn and SciPy have no DeLong variance of the AUC",
    "delong_test": "scikit-learn and SciPy have no DeLong test",
    "bayes_threshold": "a formula, cFP / (cFP + cFN)",
    "iso_cost_slope": "a formula, cFP (1 − π) / (cFN π)",
    "best_constant(metric=\"mse\")": "the (weighted) mean",
    "average_precision(method=\"interpolated\", \"11-point\", \"101-point\")":
        "scikit-learn computes only the step sum; the tests compare these with transcriptions of the "
        "PASCAL VOC and COCO evaluation code",
    "mean_absolute_scaled_error": "scikit-learn has no MASE",
    "breast_cancer": "a wrapper of sklearn.datasets.load_breast_cancer",
    "binormal_scores": "synthetic data", "clustered_answers": "synthetic data",
    "binormal_curve": "a formula, 1 − Φ(t) and 1 − Φ((t − mean) / sd)",
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
    kind: str = "metric"

    @property
    def agrees(self):
        """True when the difference is within the tolerance."""
        return bool(self.max_abs_difference <= self.tolerance)


@dataclass(frozen=True)
class Check:
    """A registry entry; ``run(rng, n)`` returns the largest difference.

    ``kind`` is one of :data:`KINDS`: what the row compares.
    """

    function: str
    counterpart: str
    data: str
    tolerance: float
    run: Callable[[np.random.Generator, int], float]
    kind: str = "metric"


REGISTRY: list[Check] = []


def _check(function, counterpart, data, tolerance=METRIC_TOLERANCE, kind="metric"):
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")

    def register(run):
        REGISTRY.append(Check(function, counterpart, data, tolerance, run, kind))
        return run
    return register


def _load(dotted):
    """``_load("sklearn.metrics.roc_auc_score")`` imports and returns the object."""
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _sk_metrics():
    return importlib.import_module("sklearn.metrics")


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
