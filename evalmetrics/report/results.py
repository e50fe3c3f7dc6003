"""The results of a report, as frozen dataclasses and named tuples.

:class:`Report` holds the data summary, one :class:`ColumnReport` per score
column, the :class:`PairedDifference` of every pair of columns and the
warnings; every value with an interval is an :class:`Estimate`.  They are
computed by :func:`evalmetrics.report.build_report`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from ..calibration import BinnedBrierDecomposition
from ..counts import BinaryCounts
from .data import Dataset

__all__ = ["ColumnReport", "CostPoint", "Estimate", "PairedDifference", "Report", "ReportSetup"]


class Estimate(NamedTuple):
    """A value with the ends of its confidence interval and how they were computed."""

    value: float
    low: float
    high: float
    method: str


UNDEFINED = Estimate(math.nan, math.nan, math.nan, "undefined")


class CostPoint(NamedTuple):
    """One threshold rule with its counts and total cost ``cFP FP + cFN FN``."""

    rule: str
    threshold: float
    counts: BinaryCounts
    cost: float


@dataclass(frozen=True)
class ColumnReport:
    """Everything the report says about one score column."""

    name: str
    n_distinct: int
    minimum: float
    maximum: float
    tied_pairs: float  # share of (positive, negative) pairs with equal scores, counted one half by the AUC
    threshold: float
    threshold_rule: str
    counts: BinaryCounts
    accuracy: Estimate
    precision: Estimate
    recall: Estimate
    specificity: Estimate
    f1: Estimate
    balanced_accuracy: Estimate
    mcc: Estimate
    auc: Estimate
    auc_delong: Estimate
    average_precision: Estimate
    brier: Estimate | None
    brier_decomposition: BinnedBrierDecomposition | None  # over the ECE's bins
    ece: float | None
    costs: tuple = ()
    skipped: int = 0  # most resamples any one metric of this column left out

    @property
    def probabilities(self):
        """True when every score lies in [0, 1] (so calibration was evaluated)."""
        return self.brier is not None


@dataclass(frozen=True)
class PairedDifference:
    """``metric(first) - metric(second)`` on the same rows, paired bootstrap and DeLong."""

    first: str
    second: str
    metric: str
    bootstrap: Estimate
    delong: Estimate | None = None
    p_value: float | None = None


@dataclass(frozen=True)
class ReportSetup:
    """The choices behind a report (printed under "How this report was produced")."""

    threshold: float | None
    false_positive_cost: float | None
    false_negative_cost: float | None
    resamples: int
    seed: int
    confidence: float
    n_bins: int
    validation: str | None = None
    validation_rows: int | None = None

    @property
    def costs(self):
        return self.false_positive_cost is not None


@dataclass(frozen=True)
class Report:
    """The report's numbers: the data, one :class:`ColumnReport` per score, the pairs."""

    setup: ReportSetup
    n: int
    positives: int
    negatives: int
    n_groups: int | None
    columns: tuple
    differences: tuple
    warnings: tuple
    data: Dataset = field(repr=False, compare=False)

    @property
    def prevalence(self):
        return self.positives / self.n

    @property
    def baseline_accuracy(self):
        """Accuracy of always predicting the majority class."""
        return max(self.positives, self.negatives) / self.n

    @property
    def majority(self):
        """The majority class as written in the data (the negatives' name(s) if they win)."""
        if self.positives > self.negatives:
            return self.data.positive
        return " / ".join(self.data.negatives)

    def column(self, name):
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"no score column {name!r}; the columns are {[c.name for c in self.columns]}")
