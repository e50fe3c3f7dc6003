"""Tests of evalmetrics.handbook.pitfalls and evalmetrics.handbook.plotting.pitfalls.

Deterministic demonstrations (twelve units, graded parts, six households)
are checked against the handbook's printed values and exact fractions
(section "Pitfalls" and the worked example it refers to).  Seeded
simulations are checked for their conclusion, at the default seed and, for
the cheap ones, at other seeds too; where scikit-learn or SciPy compute the
same quantity, the two agree to 1e-12.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalmetrics.curves import roc_auc
from evalmetrics.handbook import pitfalls as P
from evalmetrics.handbook.pitfalls._common import _binormal
from evalmetrics.handbook.pitfalls.leakage import _selected_in_folds_auc
from evalmetrics.handbook.pitfalls.regression import _trend_forecast
from evalmetrics.worked_example import twelve_units
from helpers import TOL


def close(value, fraction):
    return abs(value - float(fraction)) <= 1e-15


# ---------------------------------------------------------------------------
# the two wrong computations
# ---------------------------------------------------------------------------

tied_data = st.integers(4, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)),
    st.lists(st.integers(0, 5), min_size=n, max_size=n)))  # six score values: heavy ties


@settings(max_examples=150, deadline=None)
@given(tied_data)
def test_grouped_auc_is_the_mean_of_the_two_extreme_tie_orders(data):
    y, s = np.array(data[0]), np.array(data[1]) / 5
    areas = [np.trapezoid(c.true_positive_rate, c.false_positive_rate)
             for c in (P.row_by_row_roc(y, s, positives_first=f) for f in (False, True))]
    assert areas[0] - TOL <= roc_auc(y, s) <= areas[1] + TOL
    assert abs(roc_auc(y, s) - (areas[0] + areas[1]) / 2) <= TOL


@settings(max_examples=150, deadline=None)
@given(tied_data)
def test_trapezoidal_pr_area_is_sklearns_auc_of_its_curve(data):
    from sklearn.metrics import auc, precision_recall_curve

    y, s = np.array(data[0]), np.round(np.array(data[1]) / 5, 1)
    precision, recall, _ = precision_recall_curve(y, s)
    assert abs(P.trapezoidal_pr_area(y, s) - auc(recall, precision)) <= TOL


def test_trapezoidal_pr_area_with_string_labels():
    from sklearn.metrics import auc, precision_recall_curve

    u = twelve_units()
    y = np.where(u.y_true == 1, "faulty", "working")
    precision, recall, _ = precision_recall_curve(y, u.y_score, pos_label="faulty")
    assert abs(P.trapezoidal_pr_area(y, u.y_score, pos_label="faulty") - auc(recall, precision)) <= TOL


def test_row_by_row_roc_of_the_twelve_units():
    u = twelve_units()
    curve = P.row_by_row_roc(u.y_true, u.y_score)
    assert len(curve.false_positive_rate) == 13  # (0, 0) and one point per unit
    # Units 7 (working) and 8 (faulty) tie at 0.40: negatives first, the curve goes right, then up.
    assert curve.false_positive_rate[7] == 0.5 and curve.true_positive_rate[7] == 0.75


def test_row_by_row_roc_needs_both_classes():
    with pytest.raises(ValueError, match="both classes"):
        P.row_by_row_roc([1, 1, 1], [0.2, 0.5, 0.9])


def test_row_by_row_roc_rejects_inconsistent_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        P.row_by_row_roc([0, 1, 1], [0.2, 0.5])


def test_row_by_row_roc_rejects_nan_scores():
    with pytest.raises(ValueError, match="y_score"):
        P.row_by_row_roc([0, 1, 1], [0.2, np.nan, 0.3])


def test_row_by_row_roc_needs_pos_label_for_strings():
    with pytest.raises(ValueError, match="pos_label"):
        P.row_by_row_roc(["a", "b"], [0.2, 0.5])


def test_trapezoidal_pr_area_needs_positives():
    with pytest.raises(ValueError, match="no positives"):
        P.trapezoidal_pr_area([0, 0, 0], [0.2, 0.5, 0.9])


@pytest.mark.parametrize("function", [
    P.trapezoid_on_fine_curve, P.accuracy_under_imbalance, P.rare_class_hidden,
    P.threshold_on_test_set, P.uncalibrated_threshold, P.calibration_on_training, P.fold_rmse,
    P.mape_near_zero, P.misread_r_squared, P.wrong_resampling_unit, P.paired_versus_separate,
    P.too_few_examples, P.group_leak, P.temporal_leak, P.selection_leak, P.selection_permutation_null,
])
def test_seeds_must_be_integers(function):
    with pytest.raises(TypeError, match="seed"):
        function(seed="0")


def test_folds_without_positives_rejects_zero_shuffles():
    with pytest.raises(ValueError, match="n_shuffles"):
        P.folds_without_positives(n_shuffles=0)


# ---------------------------------------------------------------------------
# rankings
# ---------------------------------------------------------------------------

def test_auc_from_hard_predictions_is_the_balanced_accuracy():
    from sklearn.metrics import roc_auc_score

    from evalmetrics.rates import balanced_accuracy

    r = P.auc_from_hard_predictions()
    # Handbook, Pitfalls: 0.7969 (= 25.5/32) from scores, 0.6875 from predictions at 0.5.
    assert close(r.right, Fraction(51, 64)) and round(r.right, 4) == 0.7969
    assert close(r.wrong, Fraction(11, 16)) and round(r.wrong, 4) == 0.6875
    u = twelve_units()
    predictions = (u.y_score >= 0.5).astype(int)
    assert r.wrong == balanced_accuracy(u.y_true, predictions)
    assert abs(r.wrong - roc_auc_score(u.y_true, predictions)) <= TOL


def test_trapezoid_on_hard_predictions_is_far_above_ap():
    from sklearn.metrics import auc, average_precision_score, precision_recall_curve

    r = P.trapezoid_on_hard_predictions()
    # Our construction (recall 0.8, precision 0.2, prevalence 0.05):
    # trapezoids 0.8 (1 + 0.2) / 2 + 0.2 (0.2 + 0.05) / 2 = 101/200, AP 0.8 * 0.2 + 0.2 * 0.05 = 17/100.
    assert close(r.wrong, Fraction(101, 200)) and close(r.right, Fraction(17, 100))
    assert r.wrong > 2.5 * r.right
    y, pred = P.hard_prediction_data()
    precision, recall, _ = precision_recall_curve(y, pred)
    assert abs(r.wrong - auc(recall, precision)) <= TOL
    assert abs(r.right - average_precision_score(y, pred)) <= TOL


def test_hard_prediction_data_counts():
    from evalmetrics.counts import binary_counts

    y, pred = P.hard_prediction_data()
    # Docstring: 1,000 cases, 50 positive, 200 flagged, 40 of them positive.
    assert binary_counts(y, pred) == binary_counts(y, pred).__class__(tp=40, fp=160, fn=10, tn=790)


@pytest.mark.parametrize("seed", range(5))
def test_trapezoid_lands_below_ap_on_a_fine_curve(seed):
    from sklearn.metrics import average_precision_score

    r = P.trapezoid_on_fine_curve(seed=seed)
    assert r.wrong < r.right
    y, s = _binormal(1980, 20, seed)
    assert abs(r.right - average_precision_score(y, s)) <= TOL


def test_tie_orders_of_the_twelve_units():
    from sklearn.metrics import roc_auc_score

    r = P.tie_orders()
    # Handbook, Pitfalls: 25/32 = 0.78125 and 26/32 = 0.8125 row by row, grouped 0.796875.
    assert r.negative_first == Fraction(25, 32)
    assert r.positive_first == Fraction(26, 32)
    assert r.grouped == Fraction(51, 64)
    u = twelve_units()
    assert abs(r.grouped - roc_auc_score(u.y_true, u.y_score)) <= TOL


# ---------------------------------------------------------------------------
# decisions at one threshold
# ---------------------------------------------------------------------------

def test_accuracy_under_imbalance():
    r = P.accuracy_under_imbalance(seed=0)
    # 19,800 negatives and 200 positives: the silent classifier is right 99 % of the time.
    assert r.prevalence == 0.01 and r.silent_accuracy == 0.99
    assert r.model_accuracy < r.silent_accuracy
    assert r.model_recall > 0.75  # binormal recall at threshold 1 is Phi(1) = 0.8413
    assert r.silent_balanced_accuracy == 0.5 and r.silent_mcc == 0.0
    assert r.model_balanced_accuracy > 0.75 and r.model_mcc > 0


def test_rare_class_hidden_costs_macro_far_more_than_weighted():
    r = P.rare_class_hidden(seed=0)
    macro_drop = r.macro_f1 - r.macro_f1_without_rare
    weighted_drop = r.weighted_f1 - r.weighted_f1_without_rare
    # Handbook: 0.18 of macro F1 against 0.03 of weighted F1.
    assert weighted_drop > 0 and macro_drop > 3 * weighted_drop
    assert macro_drop > 0.1 and weighted_drop < 0.05
    assert 0 < r.accuracy - r.accuracy_without_rare < 0.05


def test_two_macro_f1():
    from sklearn.metrics import f1_score

    from evalmetrics.worked_example import graded_parts

    r = P.two_macro_f1()
    # Handbook, Three classes: mean of 92/102, 18/29 and 4/9 = 0.6557; F1 of 0.6758 and 0.6400 = 0.6574.
    mean_of_f1 = (Fraction(92, 102) + Fraction(18, 29) + Fraction(4, 9)) / 3
    macro_p = (Fraction(46, 52) + Fraction(9, 14) + Fraction(2, 4)) / 3
    macro_r = (Fraction(46, 50) + Fraction(9, 15) + Fraction(2, 5)) / 3
    assert abs(r.mean_of_f1 - float(mean_of_f1)) <= TOL and round(r.mean_of_f1, 4) == 0.6557
    assert abs(r.f1_of_means - float(2 * macro_p * macro_r / (macro_p + macro_r))) <= TOL
    assert round(r.f1_of_means, 4) == 0.6574
    parts = graded_parts()
    assert abs(r.mean_of_f1 - f1_score(parts.y_true, parts.y_pred, average="macro")) <= TOL


def test_swapped_positive_class():
    from sklearn.metrics import f1_score, precision_score, recall_score

    views = P.swapped_positive_class()
    # Handbook, Pitfalls: 0.5, 0.75, 0.6 (faulty positive) become 5/6, 5/8, 10/14 (working positive).
    assert (views.faulty.precision, views.faulty.recall, views.faulty.f1) == (0.5, 0.75, 0.6)
    assert close(views.working.precision, Fraction(5, 6)) and close(views.working.recall, Fraction(5, 8))
    assert close(views.working.f1, Fraction(5, 7))
    # Accuracy 8/12, MCC 12/sqrt(6*4*8*6) and kappa 1/3 (worked example) do not move.
    for view in views:
        assert close(view.accuracy, Fraction(2, 3))
        assert abs(view.mcc - 12 / math.sqrt(6 * 4 * 8 * 6)) <= TOL
        assert abs(view.kappa - 1 / 3) <= TOL
    u = twelve_units()
    y = np.where(u.y_true == 1, "faulty", "working")
    pred = np.where(u.y_score >= 0.5, "faulty", "working")
    for metric, ours in ((precision_score, views.working.precision), (recall_score, views.working.recall),
                         (f1_score, views.working.f1)):
        assert abs(ours - metric(y, pred, pos_label="working")) <= TOL


def test_transposed_matrix_turns_precision_into_recall():
    # Worked example at 0.5: precision 3/6, recall 3/4.
    assert P.transposed_matrix() == (0.5, 0.75, 0.75)


# ---------------------------------------------------------------------------
# thresholds and probabilities
# ---------------------------------------------------------------------------

def test_threshold_on_test_set():
    r = P.threshold_on_test_set(seed=0)
    assert r.bayes_cost < r.default_cost and r.validation_cost < r.default_cost
    # Chosen on the test set, the threshold is the cheapest there by construction ...
    assert r.test_cost <= min(r.validation_cost, r.bayes_cost, r.default_cost)
    # ... and its promise does not hold on fresh data from the same population.
    assert r.test_cost < r.test_threshold_fresh_cost


@pytest.mark.parametrize("seed", range(5))
def test_uncalibrated_threshold(seed):
    r = P.uncalibrated_threshold(seed=seed)
    assert r.bayes_threshold == 1 / 21  # costs 1 and 20, as in the screening run
    assert r.platt_cost < r.raw_cost and r.platt_brier < r.raw_brier
    assert r.platt_auc == r.raw_auc  # Platt scaling is increasing: same ranking
    assert 0 < r.platt_slope < 0.5  # six copies of one signal: log-odds several times too large


@pytest.mark.parametrize("seed", range(3))
def test_calibration_on_training(seed):
    r = P.calibration_on_training(seed=seed)
    assert r.training_slope > 1 > r.held_out_slope > 0
    assert r.held_out_brier < r.raw_brier < r.training_brier
    assert r.cross_validated_brier < r.raw_brier


# ---------------------------------------------------------------------------
# folds
# ---------------------------------------------------------------------------

def test_fold_averaging():
    r = P.fold_averaging()
    # Handbook, Cross-validation folds: means 0.4583 and 0.5417, pooled 0.5000 and 0.6000.
    assert close(r.mean_precision, Fraction(11, 24)) and round(r.mean_precision, 4) == 0.4583
    assert close(r.mean_f1, Fraction(13, 24)) and round(r.mean_f1, 4) == 0.5417
    assert r.pooled_precision == 0.5 and r.pooled_f1 == 0.6


def test_fold_rmse_against_sklearn():
    from sklearn.metrics import root_mean_squared_error
    from sklearn.model_selection import TimeSeriesSplit

    from evalmetrics.datasets import demand_series

    r = P.fold_rmse(seed=0)
    sales = demand_series(seed=0)
    days = np.arange(len(sales), dtype=float)
    theirs = []
    for train, test in TimeSeriesSplit(n_splits=5).split(sales):
        forecast = np.polyval(np.polyfit(days[train], sales[train], 1), days[test])
        theirs.append(root_mean_squared_error(sales[test], forecast))
    assert np.max(np.abs(np.array(r.fold_rmse) - theirs)) <= TOL
    # Equal fold sizes: the pooled MSE is the mean of the fold MSEs.
    assert abs(r.pooled_rmse - math.sqrt(np.mean(np.square(r.fold_rmse)))) <= TOL


@pytest.mark.parametrize("seed", range(5))
def test_mean_of_fold_rmses_is_at_most_the_pooled_rmse(seed):
    r = P.fold_rmse(seed=seed)
    assert r.mean_rmse <= r.pooled_rmse


def test_folds_without_positives():
    from sklearn.model_selection import KFold

    r = P.folds_without_positives()
    # Handbook: 2000 * C(190, 20) / C(200, 20) = 2000 * 0.3398 = 679.5.
    assert r.n_folds == 2000 and round(r.probability, 4) == 0.3398 and round(r.expected, 1) == 679.5
    assert abs(r.shuffled - r.expected) < 4 * math.sqrt(r.n_folds * r.probability * (1 - r.probability))
    assert r.stratified == 0
    y = np.r_[np.ones(10, int), np.zeros(190, int)]
    theirs = sum(int(y[test].sum() == 0) for s in range(200)
                 for _, test in KFold(10, shuffle=True, random_state=s).split(y))
    assert r.shuffled == theirs


# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------

def test_mape_near_zero():
    from sklearn.metrics import mean_absolute_percentage_error

    from evalmetrics.datasets import demand_series

    r = P.mape_near_zero(seed=0)
    assert r.mape > 1e10 and r.mape_sale_days < 5
    assert r.zero_days_tested > 0 and r.zero_days == int(np.sum(demand_series(seed=0) == 0))
    sales, days, _, test, line = _trend_forecast(0)
    theirs = mean_absolute_percentage_error(sales[test], np.polyval(line, days[test]))
    assert abs(r.mape / theirs - 1) <= TOL


def test_mape_best_constant():
    r = P.mape_best_constant()
    # Handbook, Regression: best constant 12 (MAPE 0.3700) against the median 17.5 (MAPE 0.4424).
    assert (r.mape_constant, r.median) == (12.0, 17.5)
    targets = [12, 20, 15, 30, 8, 25]
    exact = [sum(Fraction(abs(c - y), y) for y in targets) / 6 for c in (12, Fraction(35, 2))]
    assert close(r.mape_at_constant, exact[0]) and round(r.mape_at_constant, 4) == 0.37
    assert abs(r.mape_at_median - float(exact[1])) <= TOL and round(r.mape_at_median, 4) == 0.4424


def test_misread_r_squared():
    r = P.misread_r_squared(seed=0)
    assert r.training_mean_r2 < 0
    assert abs(r.fit_r2 - r.fit_correlation_squared) <= TOL
    assert abs(r.test_r2 - r.test_correlation_squared) > 0.01


# ---------------------------------------------------------------------------
# intervals
# ---------------------------------------------------------------------------

def test_wrong_resampling_unit():
    r = P.wrong_resampling_unit(seed=0)
    binomial_sd = math.sqrt(r.accuracy * (1 - r.accuracy) / 600)
    assert abs(r.answers.standard_error / binomial_sd - 1) < 0.1
    assert r.people.standard_error > 1.4 * r.answers.standard_error
    assert abs(r.people.standard_error / r.fresh_sd - 1) < 0.3
    assert len(r.fresh) == 2000


@pytest.mark.parametrize("seed", range(3))
def test_paired_versus_separate(seed):
    r = P.paired_versus_separate(n_resamples=1000, seed=seed)
    assert r.a.interval.high > r.b.interval.low  # the separate intervals overlap
    assert r.difference.interval.low > 0  # the paired interval excludes zero
    assert abs(r.difference.estimate - (r.b.estimate - r.a.estimate)) <= TOL


def test_too_few_examples():
    from scipy.stats import binomtest

    r = P.too_few_examples(seed=0)
    # Handbook, How sure are we?: Wilson 0.3906 to 0.8619 for 8 correct of 12.
    assert [round(x, 4) for x in r.accuracy_interval] == [0.3906, 0.8619]
    theirs = binomtest(8, 12).proportion_ci(method="wilson")
    assert abs(r.accuracy_interval.low - theirs.low) <= TOL
    assert abs(r.accuracy_interval.high - theirs.high) <= TOL
    assert r.auc.interval.low < 0.5 < r.auc.interval.high
    # Resamples without a faulty unit: 2000 (8/12)^12 = 15.4 expected (handbook).
    expected = 2000 * (8 / 12) ** 12
    assert abs(r.auc.n_skipped - expected) < 4 * math.sqrt(expected)


# ---------------------------------------------------------------------------
# leakage
# ---------------------------------------------------------------------------

def test_group_leak():
    r = P.group_leak(seed=0)
    # Seeded (book, Pitfalls, "Rows of one patient on both sides"): shuffled row folds
    # 0.9976, grouped folds 0.6565, the model on 500 new patients 0.5654.
    assert [round(x, 4) for x in (r.row_folds_auc, r.group_folds_auc, r.new_patients_auc)] \
        == [0.9976, 0.6565, 0.5654]
    # The leak's size: row folds promise at least 0.3 more than new patients deliver,
    # grouped folds come within the noise of 50 patients (0.15).
    assert r.row_folds_auc - r.new_patients_auc > 0.3
    assert abs(r.group_folds_auc - r.new_patients_auc) < 0.15
    assert (r.n_patients, r.rows_per_patient) == (50, 6)


@pytest.mark.parametrize("seed", range(1, 6))
def test_group_leak_other_seeds(seed):
    r = P.group_leak(seed=seed)
    assert r.row_folds_auc > r.group_folds_auc + 0.2 and r.row_folds_auc > r.new_patients_auc + 0.2


def test_temporal_leak():
    r = P.temporal_leak(seed=0)
    # Seeded (book, Pitfalls, "Shuffled folds of a time series"): 2.5400 shuffled, 3.6726 forward.
    assert [round(x, 4) for x in (r.shuffled_rmse, r.forward_rmse)] == [2.54, 3.6726]
    assert r.forward_rmse > 1.4 * r.shuffled_rmse
    # Interpolating from days on both sides nearly reaches the measurement noise itself.
    assert r.noise_sd < r.shuffled_rmse < 1.3 * r.noise_sd


@pytest.mark.parametrize("seed", range(1, 6))
def test_temporal_leak_other_seeds(seed):
    r = P.temporal_leak(seed=seed)
    assert r.forward_rmse > 1.4 * r.shuffled_rmse


def test_selection_leak():
    r = P.selection_leak(seed=0)
    # Seeded (book, Pitfalls, "Features chosen on all rows"): 0.8976 when the features are
    # chosen on all rows, 0.6112 when chosen inside the folds, 0.5014 on fresh rows.
    assert [round(x, 4) for x in (r.selected_on_all_auc, r.selected_in_folds_auc, r.fresh_auc)] \
        == [0.8976, 0.6112, 0.5014]
    # The features are noise, so the truth is 0.5: 2,000 fresh rows pin it to about 0.013.
    assert abs(r.fresh_auc - 0.5) < 0.04
    assert r.selected_on_all_auc > 0.8 and r.selected_on_all_auc - r.selected_in_folds_auc > 0.2


def test_selection_leak_is_biased_and_selection_in_folds_is_not():
    leaky = [P.selection_leak(seed=s) for s in range(10)]
    # Every seed: the leaky estimate far above 0.5; the honest ones scatter around 0.5
    # (one AUC on 100 rows has a standard error of about 0.058, their mean of ten 0.018).
    assert min(r.selected_on_all_auc for r in leaky) > 0.75
    assert abs(np.mean([r.selected_in_folds_auc for r in leaky]) - 0.5) < 3 * 0.058 / math.sqrt(10)


def test_selection_permutation_null():
    r = P.selection_permutation_null(n_permutations=40, seed=0)
    # The observed AUC is the honest one of selection_leak on the same rows and folds.
    assert r.observed_auc == P.selection_leak(seed=0).selected_in_folds_auc
    assert r.null_aucs.shape == (40,) and np.all((r.null_aucs >= 0) & (r.null_aucs <= 1))
    assert r.p_value == (1 + np.sum(r.null_aucs >= r.observed_auc)) / 41
    # Seeded, as the book prints it with 200 permutations: centred on 0.5 (mean 0.4999), standard
    # deviation 0.0760, above the 0.058 of one AUC on 50 + 50 rows; p = 20/201.
    full = P.selection_permutation_null(seed=0)
    assert round(float(full.null_aucs.std(ddof=1)), 4) == 0.076 and full.p_value == 20 / 201
    assert abs(full.null_aucs.mean() - 0.5) < 3 * full.null_aucs.std(ddof=1) / math.sqrt(200)
    # Reproducible, and the permutations differ from one another.
    again = P.selection_permutation_null(n_permutations=40, seed=0)
    assert np.array_equal(again.null_aucs, r.null_aucs) and len(np.unique(r.null_aucs)) > 30


def test_selection_permutation_null_permutes_the_labels_of_the_same_rows():
    # With an informative feature the observed AUC stands far out of its null: the
    # permutations break the link between labels and features, nothing else.
    rng = np.random.default_rng(0)
    y = rng.permutation(np.arange(100) % 2)
    X = rng.normal(size=(100, 50))
    X[:, 0] += 2 * y
    observed = _selected_in_folds_auc(X, y, 10, 0)
    null = [_selected_in_folds_auc(X, rng.permutation(y), 10, 0) for _ in range(20)]
    assert observed > 0.8 and max(null) < observed - 0.15


@pytest.mark.parametrize("function, argument, value, error", [
    (P.selection_permutation_null, "n_permutations", 0, ValueError),
    (P.selection_permutation_null, "n_permutations", 2.5, TypeError),
    (P.selection_permutation_null, "n_rows", 10, ValueError),
    (P.group_leak, "n_patients", 5, ValueError), (P.group_leak, "rows_per_patient", 1, ValueError),
    (P.group_leak, "n_neighbours", 1000, ValueError), (P.group_leak, "n_neighbours", 2.5, TypeError),
    (P.temporal_leak, "n_days", 10, ValueError), (P.temporal_leak, "n_neighbours", 11, ValueError),
    (P.selection_leak, "n_rows", 10, ValueError), (P.selection_leak, "n_selected", 0, ValueError),
    (P.selection_leak, "n_features", 5, ValueError),
])
def test_leaks_reject_bad_sizes(function, argument, value, error):
    with pytest.raises(error, match=argument):
        function(**{argument: value})


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------

@pytest.fixture
def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_plot_tie_staircases(pyplot):
    from evalmetrics.handbook.plotting.pitfalls import plot_tie_staircases

    u = twelve_units()
    fig = plot_tie_staircases(u.y_true, u.y_score)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["row by row, negatives first: 0.78125", "row by row, positives first: 0.8125",
                      "ties grouped: 0.796875"]
    assert ax.get_xlabel() and ax.get_ylabel()


def test_plot_pr_areas(pyplot):
    from evalmetrics.handbook.plotting.pitfalls import plot_pr_areas

    fig = plot_pr_areas({"hard predictions": P.hard_prediction_data()})
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 1
    labels = [t.get_text() for t in visible[0].get_legend().get_texts()]
    assert labels[:2] == ["steps (AP): 0.1700", "trapezoids: 0.5050"]


def test_plot_pr_areas_rejects_no_cases(pyplot):
    from evalmetrics.handbook.plotting.pitfalls import plot_pr_areas

    with pytest.raises(ValueError, match="cases"):
        plot_pr_areas({})
