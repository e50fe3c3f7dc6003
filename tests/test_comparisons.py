"""Tests of evalmetrics.handbook.comparisons: every function against scikit-learn or SciPy."""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest

import evalmetrics as em
from evalmetrics.handbook.comparisons import (
    FITTED_TOLERANCE,
    KINDS,
    METRIC_TOLERANCE,
    NO_COUNTERPART,
    REGISTRY,
    SIGMOID_TOLERANCE,
    TEMPERATURE_TOLERANCE,
    Comparison,
    compare_all,
    format_table,
)
from evalmetrics.handbook.comparisons._core import _gap, _mismatches

SPLITTERS = {"k_fold", "stratified_k_fold", "group_k_fold", "time_series_split"}
FITTED = {"LogisticRegression", "PlattScaling"}
SIGMOID = {"PlattScaling(smooth_targets=True)", "PlattCalibrated(smooth_targets=True)"}
TEMPERATURE = {"TemperatureScaling", "TemperatureScaling(logits of K classes)",
               "TemperatureScaling(out-of-fold logits)"}
# The book summarises the table by kind (book/checked-against-scikit-learn.md): a fitted
# model's difference is never reported as a metric's.
MODELS = FITTED | SIGMOID | TEMPERATURE | {
    "GaussianNaiveBayes", "out_of_fold_probabilities", "nested_cross_validation", "isotonic_regression",
    'IsotonicCalibration(interpolation="linear")', 'best_constant(metric="mae")', 'best_constant(metric="mape")',
    'best_constant(metric="pinball")', "mape_optimal_constant"}
FORMULAS = {"normal_quantile", "normal_cdf", "binormal_auc", "wilson_interval", "wald_interval",
            "agresti_coull_interval", "clopper_pearson_interval", "coverage_probability"}


def base_name(function):
    return function.split("(")[0]


@pytest.fixture(scope="module")
def results():
    # Warnings are errors here: the book page that shows this table must print nothing on stderr.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return compare_all()


# ---------------------------------------------------------------------------
# the comparisons themselves
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(REGISTRY)), ids=[check.function for check in REGISTRY])
def test_every_function_agrees_with_its_counterpart(results, index):
    row = results[index]
    assert row.max_abs_difference <= row.tolerance, (
        f"{row.function} differs from {row.counterpart} by {row.max_abs_difference:.3g}")


@pytest.mark.parametrize("index", range(len(REGISTRY)), ids=[check.function for check in REGISTRY])
def test_every_function_agrees_on_other_data(index):
    # Another seed and a smaller size: other ties, other weights, other folds.
    check = REGISTRY[index]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        difference = check.run(np.random.default_rng([12345, index]), 61)
    assert difference <= check.tolerance


def test_tolerances_are_the_documented_ones():
    for check in REGISTRY:
        if check.function in SPLITTERS:
            assert check.tolerance == 0.0, check.function  # index for index
        elif check.function in FITTED:
            assert check.tolerance == FITTED_TOLERANCE == 1e-8, check.function
        elif check.function in SIGMOID:
            # scikit-learn's sigmoid calibrator stops L-BFGS at a gradient of 1e-6.
            assert check.tolerance == SIGMOID_TOLERANCE == 1e-6, check.function
        elif check.function in TEMPERATURE:
            # scikit-learn stops Brent's method when log(1 / T) is known to about 1.5e-8 of itself.
            assert check.tolerance == TEMPERATURE_TOLERANCE == 1e-6, check.function
        else:
            assert check.tolerance == METRIC_TOLERANCE == 1e-12, check.function


def test_every_row_has_its_kind():
    kinds = {check.function: check.kind for check in REGISTRY}
    assert set(kinds.values()) == set(KINDS)
    assert {name for name, kind in kinds.items() if kind == "splitter"} == SPLITTERS
    assert {name for name, kind in kinds.items() if kind == "model"} == MODELS
    assert {name for name, kind in kinds.items() if kind == "formula"} == FORMULAS
    # Every estimator of the package (a class with fit) is compared as a model.
    for name in kinds:
        if isinstance(getattr(em, base_name(name)), type):
            assert kinds[name] == "model", name
    with pytest.raises(ValueError, match="kind"):
        from evalmetrics.handbook.comparisons._core import _check
        _check("f", "g", "d", kind="rate")


def test_registry_names_are_unique_and_real():
    names = [check.function for check in REGISTRY]
    assert len(names) == len(set(names))
    for name in names:
        assert callable(getattr(em, base_name(name))), name


def test_every_public_function_is_compared_or_explained():
    # Like scikit-learn's test_common: a new public function must join the registry,
    # or NO_COUNTERPART must say why it has no counterpart.
    compared = {base_name(check.function) for check in REGISTRY}
    explained = {base_name(name) for name in NO_COUNTERPART}
    for module in (em.arrays, em.counts, em.rates, em.averaging, em.curves, em.ranking, em.costs, em.budgets,
                   em.calibration,
                   em.recalibration, em.regression, em.cross_validation, em.intervals, em.delong, em.models,
                   em.datasets,
                   em.worked_example):
        for name in module.__all__:
            obj = getattr(module, name)
            is_result_or_warning = isinstance(obj, type) and not hasattr(obj, "fit")
            if callable(obj) and not is_result_or_warning:
                assert name in compared | explained, f"{module.__name__}.{name} has no comparison"


def test_subset_matches_the_full_run(results):
    # Check i draws from default_rng([seed, i]): running a few gives the numbers of the full run.
    names = {"roc_auc", "k_fold", "PlattCalibrated(smooth_targets=True)"}
    subset = compare_all(functions=names)
    full = [row for row in results if row.function in names]
    assert subset == full


# ---------------------------------------------------------------------------
# the conventions the registry converts (scikit-learn's defaults differ)
# ---------------------------------------------------------------------------

def test_default_roc_curve_drops_points_but_not_area():
    from sklearn.metrics import auc, roc_curve

    units = em.twelve_units()
    ours = em.roc_curve(units.y_true, units.y_score)
    fpr, tpr, _ = roc_curve(units.y_true, units.y_score)  # drop_intermediate=True by default
    assert len(fpr) < len(ours.false_positive_rate)
    assert _gap(ours.false_positive_rate, fpr) == math.inf
    assert auc(fpr, tpr) == pytest.approx(em.roc_auc(units.y_true, units.y_score), abs=1e-15)


def test_precision_recall_curve_is_reversed_and_has_no_appended_point():
    from sklearn.metrics import precision_recall_curve

    units = em.twelve_units()
    ours = em.precision_recall_curve(units.y_true, units.y_score)
    precision, recall, thresholds = precision_recall_curve(units.y_true, units.y_score)
    assert len(precision) == len(ours.precision) + 1 == len(thresholds) + 1
    assert (precision[-1], recall[-1]) == (1.0, 0.0)  # scikit-learn's extra point, no threshold
    np.testing.assert_array_equal(ours.precision, precision[:-1][::-1])
    np.testing.assert_array_equal(ours.thresholds, thresholds[::-1])


def test_r2_of_a_constant_target_differs_by_convention():
    from sklearn.metrics import r2_score

    y = np.full(5, 3.0)
    with pytest.warns(em.UndefinedMetricWarning, match="constant"):
        assert math.isnan(em.r2_score(y, y))
    assert r2_score(y, y) == 1.0  # scikit-learn: perfect predictions of a constant
    assert r2_score(y, y + 1) == 0.0


def test_kappa_of_one_class_differs_by_convention():
    from sklearn.metrics import cohen_kappa_score

    y = np.zeros(6, dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isnan(cohen_kappa_score(y, y))  # scikit-learn's replace_undefined_by=nan
    assert math.isnan(em.cohen_kappa(y, y, zero_division=np.nan))
    with pytest.warns(em.UndefinedMetricWarning):
        assert em.cohen_kappa(y, y) == 0.0  # zero_division="warn": 0 and a warning


def test_stratified_folds_refuse_what_scikit_learn_only_warns_about():
    from sklearn.model_selection import StratifiedKFold

    y = np.array([0] * 10 + [1] * 2)
    with pytest.warns(UserWarning, match="least populated class"):
        list(StratifiedKFold(3).split(np.zeros(12), y))
    with pytest.raises(ValueError, match="fewer than n_splits"):
        em.stratified_k_fold(y, n_splits=3)


# ---------------------------------------------------------------------------
# the helpers that measure differences
# ---------------------------------------------------------------------------

def test_gap_counts_matching_nan_and_infinity_as_equal():
    assert _gap([np.nan, np.inf, 1.0], [np.nan, np.inf, 1.0]) == 0.0


def test_gap_counts_nan_against_a_number_as_infinite():
    assert _gap([np.nan, 1.0], [0.5, 1.0]) == math.inf


def test_gap_counts_a_shape_mismatch_as_infinite():
    assert _gap([1.0, 2.0], [1.0, 2.0, 3.0]) == math.inf


def test_gap_is_absolute_up_to_one():
    assert _gap([0.25, 0.5, 1.0], [0.25, 0.75, 0.875]) == 0.25


def test_gap_is_relative_above_one():
    # 0.5 on 2.5 and 1 on 200: weighted counts and costs are compared by size.
    assert _gap([2.0, 201.0], [2.5, 200.0]) == pytest.approx(0.2, abs=1e-15)


def test_mismatches_count_differing_indices():
    folds = em.k_fold(6, n_splits=3)
    same = [(fold.train, fold.test) for fold in folds]
    assert _mismatches(folds, same) == 0
    shifted = [(fold.train, fold.test + 0) for fold in folds]
    shifted[0] = (folds[0].train, np.array([0, 2]))
    assert _mismatches(folds, shifted) == 1
    assert _mismatches(folds, same[:2]) >= 10**6  # a missing fold


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------

def test_table_has_one_row_per_registry_entry(results):
    lines = format_table(results).splitlines()
    assert lines[0].startswith("| Function | Kind |") and set(lines[1]) <= set("|-")
    assert len(lines) == 2 + len(REGISTRY)
    for line, check in zip(lines[2:], REGISTRY):
        assert line.startswith(f"| `{check.function}` | {check.kind} |")


def test_table_shows_exact_zero_and_small_differences():
    rows = [Comparison("k_fold", "KFold", 0.0, "folds", 0.0, "splitter"),
            Comparison("f1", "f1_score", 1.1e-16, "ties")]
    lines = format_table(rows).splitlines()
    assert lines[2] == "| `k_fold` | splitter | `KFold` | 0 | exact | folds |"
    assert lines[3] == "| `f1` | metric | `f1_score` | 1.1e-16 | 1.0e-12 | ties |"


def test_script_prints_the_table():
    output = subprocess.run([sys.executable, "-W", "error", "-m", "evalmetrics.handbook.comparisons"],
                            capture_output=True, text=True, check=True).stdout
    rows = [line for line in output.splitlines() if line.startswith("| `")]
    assert len(rows) == len(REGISTRY)
    assert output.rstrip().endswith(f"{len(REGISTRY)} comparisons; all agree")


def test_comparison_knows_whether_it_agrees():
    assert Comparison("f", "g", 1e-13, "d").agrees
    assert not Comparison("f", "g", 1e-11, "d").agrees
    assert not Comparison("k_fold", "KFold", 1.0, "d", 0.0).agrees


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_too_few_rows_are_refused():
    with pytest.raises(ValueError, match="n must be at least 30"):
        compare_all(n=10)


def test_unknown_function_names_are_refused():
    with pytest.raises(ValueError, match="not in the registry"):
        compare_all(functions={"roc_auc", "no_such_metric"})
