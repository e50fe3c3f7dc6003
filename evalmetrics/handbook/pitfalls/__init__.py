"""The common mistakes of evaluation, each shown by a small computation.

Every function here returns the handful of numbers that make one mistake
visible, as a small frozen result.  The worked examples (twelve units,
graded parts, six households) give exact numbers; the others run a seeded
simulation, so their numbers are fixed for a given ``seed``; their
conclusion (which number is larger) holds for the default seed and, as
the tests check, for most others.

Two helpers compute the *wrong* quantities on purpose, so that they can be
compared with the right ones: :func:`row_by_row_roc` (a ROC curve that
ignores ties) and :func:`trapezoidal_pr_area` (the trapezoid rule in
precision-recall space, ``sklearn.metrics.auc(recall, precision)``).

The demonstrations are grouped as the sections of the chapter Pitfalls
(``book/pitfalls.md``), one module each; every public name is importable
from this package (and from :mod:`evalmetrics.handbook`):

==================  =====================================================
``rankings``        the two wrong computations; hard predictions, the
                    trapezoid rule in precision-recall space, ties
``decisions``       decisions at one threshold: imbalance, averages,
                    the positive class, a transposed matrix
``thresholds``      thresholds and probabilities (a screening simulation)
``folds``           averaging or pooling folds, folds without positives
``regression``      MAPE near zero, R-squared misread
``intervals``       the resampling unit, paired differences, small samples
``leakage``         rows of one patient, a shuffled time series and features
                    chosen on all rows, on both sides of a split
==================  =====================================================
"""

from __future__ import annotations

from . import decisions, folds, intervals, leakage, rankings, regression, thresholds
from .decisions import *  # noqa: F401,F403
from .folds import *  # noqa: F401,F403
from .intervals import *  # noqa: F401,F403
from .leakage import *  # noqa: F401,F403
from .rankings import *  # noqa: F401,F403
from .regression import *  # noqa: F401,F403
from .thresholds import *  # noqa: F401,F403

__all__ = [
    "AreaComparison", "CalibrationOnTraining", "CostThresholds", "EmptyFolds", "FoldAverages",
    "FoldRmse", "GroupLeak", "MapeConstant", "MapeNearZero", "PairedComparison", "PositiveClassView",
    "PositiveClassViews", "RSquaredReadings", "RareClassDrop", "ResamplingUnits", "SelectionLeak", "SelectionNull",
    "SilentClassifier",
    "SmallSample", "TemporalLeak", "TieOrders", "TransposedReading", "TwoMacroF1", "UncalibratedThreshold",
    "accuracy_under_imbalance", "auc_from_hard_predictions", "calibration_on_training",
    "fold_averaging", "fold_rmse", "folds_without_positives", "group_leak", "hard_prediction_data",
    "mape_best_constant",
    "mape_near_zero", "misread_r_squared", "paired_versus_separate", "rare_class_hidden",
    "row_by_row_roc", "selection_leak", "selection_permutation_null", "swapped_positive_class", "temporal_leak",
    "threshold_on_test_set", "tie_orders",
    "too_few_examples", "transposed_matrix", "trapezoid_on_fine_curve",
    "trapezoid_on_hard_predictions", "trapezoidal_pr_area", "two_macro_f1", "uncalibrated_threshold",
    "wrong_resampling_unit",
]
