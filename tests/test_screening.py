"""Tests of evalmetrics.handbook.screening, the breast-cancer screening evaluation.

The split is deterministic given the seed, so the data counts are asserted
exactly.  The handbook's conclusions are asserted as conclusions; its
printed values are asserted where they are deterministic (the Bayes
threshold) and, with a tolerance, where our seeded run reproduces them.
Every metric is recomputed with scikit-learn on the same probabilities.
"""

from fractions import Fraction

import matplotlib
import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.calibration import calibration_curve
from sklearn.model_selection import StratifiedKFold

from evalmetrics.datasets import breast_cancer
from evalmetrics.handbook import screening
from evalmetrics.handbook.screening import run_screening
from helpers import assert_readable

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def result():
    return run_screening()


# ---------------------------------------------------------------------------
# the data and the split
# ---------------------------------------------------------------------------

def test_data_counts(result):
    # Handbook: 569 tumours, 30 features, 212 malignant (37.3 %).
    assert (result.n_tumours, result.n_features, result.n_malignant) == (569, 30, 212)
    assert round(result.prevalence, 3) == 0.373


def test_test_set_is_locked_first(result):
    # Handbook: the test set is 143 tumours, 53 malignant; 426 are left for development.
    assert (result.n_test, result.n_test_malignant, result.n_development) == (143, 53, 426)
    assert np.intersect1d(result.test_rows, result.development_rows).size == 0
    assert np.union1d(result.test_rows, result.development_rows).tolist() == list(range(569))


def test_test_set_is_sklearn_first_stratified_fold(result):
    _, y = breast_cancer()
    splitter = StratifiedKFold(n_splits=4, shuffle=True, random_state=0)
    train, test = next(iter(splitter.split(np.zeros(len(y)), y)))
    np.testing.assert_array_equal(result.test_rows, np.sort(test))
    np.testing.assert_array_equal(result.development_rows, np.sort(train))
    np.testing.assert_array_equal(result.y_test, y[result.test_rows])


def test_bayes_threshold_is_one_over_21(result):
    # Handbook: cFP = 1, cFN = 20 give 1/21 = 0.0476.
    assert round(result.bayes_threshold, 4) == 0.0476
    assert result.bayes_threshold == pytest.approx(float(Fraction(1, 21)), abs=1e-15)


def test_setup_is_recorded(result):
    assert (result.seed, result.folds, result.penalty, result.resamples) == (0, 5, 1.0, 2000)
    assert (result.false_positive_cost, result.false_negative_cost) == (1.0, 20.0)
    assert [m.key for m in result.models] == ["logistic", "naive_bayes", "platt"]


# ---------------------------------------------------------------------------
# the handbook's conclusions
# ---------------------------------------------------------------------------

def test_logistic_regression_ranks_almost_perfectly(result):
    # Handbook: out-of-fold AUC 0.9976.
    assert result.model("logistic").development.auc > 0.99


def test_platt_scaling_keeps_the_ranking_and_improves_the_brier_score(result):
    # Handbook: naive Bayes' test AUC 0.9816 before and after; Brier 0.0708 -> 0.0555.
    naive, platt = result.model("naive_bayes"), result.model("platt")
    assert platt.test_auc.estimate == naive.test_auc.estimate
    assert platt.test_brier.estimate < naive.test_brier.estimate
    assert platt.development.brier < naive.development.brier


def test_default_threshold_costs_more_than_the_chosen_one(result):
    # Handbook: 82 against 34, 143 against 54, 143 against 53.
    for evaluation in result.models:
        assert evaluation.point("default").cost > evaluation.point("chosen").cost


def test_bayes_threshold_needs_calibrated_probabilities(result):
    # Handbook: the Bayes threshold costs 144 for naive Bayes, 40 after Platt scaling.
    naive, platt = result.model("naive_bayes"), result.model("platt")
    assert naive.point("bayes").cost > 2 * platt.point("bayes").cost
    # For the calibrated logistic regression both routes give the same test cost (34 each).
    logistic = result.model("logistic")
    assert logistic.point("bayes").cost == logistic.point("chosen").cost
    # Naive Bayes' searched threshold lies orders of magnitude below the Bayes threshold.
    assert naive.chosen_threshold < 1e-3 * result.bayes_threshold


def test_paired_intervals(result):
    # Handbook: AUC difference -0.0072 to +0.0202 (straddles 0); Brier -0.0743 to -0.0051 (excludes 0).
    auc, brier = result.auc_difference.interval, result.brier_difference.interval
    assert auc.low < 0 < auc.high
    assert brier.high < 0
    # The separate Brier intervals overlap although the paired one excludes zero.
    logistic = result.model("logistic").test_brier.interval
    naive = result.model("naive_bayes").test_brier.interval
    assert logistic.high > naive.low


def test_reproduces_the_handbook_run(result):
    # Our seeds (split 0, development folds 1, Platt folds 2) give the handbook's run; a
    # tolerance of 6e-5 allows a last-digit difference from another BLAS.
    logistic, naive, platt = result.models
    for value, printed in (
        (logistic.development.auc, 0.9976), (logistic.development.brier, 0.0159),
        (naive.development.auc, 0.9886), (platt.development.brier, 0.0406),
        (logistic.test_auc.estimate, 0.9874), (naive.test_auc.estimate, 0.9816),
        (logistic.test_brier.estimate, 0.0320), (naive.test_brier.estimate, 0.0708),
        (platt.test_brier.estimate, 0.0555), (logistic.chosen_threshold, 0.05209),
        (result.auc_difference.estimate, 0.0059), (result.brier_difference.estimate, -0.0388),
    ):
        assert abs(value - printed) < 6e-5
    costs = [[m.point(rule).cost for rule in screening.RULES] for m in result.models]
    # Handbook: 82/34/34, 143/54/144, 143/53/40.
    assert costs == [[82, 34, 34], [143, 54, 144], [143, 53, 40]]


# ---------------------------------------------------------------------------
# internal consistency
# ---------------------------------------------------------------------------

def test_operating_points_are_consistent(result):
    for evaluation in result.models:
        thresholds = {p.rule: p.threshold for p in evaluation.operating_points}
        assert thresholds == {"default": 0.5, "chosen": evaluation.chosen_threshold,
                              "bayes": result.bayes_threshold}
        for point in evaluation.operating_points:
            flagged = evaluation.test_probabilities >= point.threshold
            malignant = result.y_test == 1
            assert point.false_alarms == np.sum(flagged & ~malignant)
            assert point.missed == np.sum(~flagged & malignant)
            assert point.counts.tp + point.counts.fn == 53
            assert point.counts.fp + point.counts.tn == 90
            assert point.cost == (result.false_positive_cost * point.false_alarms
                                  + result.false_negative_cost * point.missed)


def test_chosen_threshold_minimizes_the_development_cost(result):
    y = result.y_development
    for evaluation in result.models:
        p = evaluation.oof_probabilities
        candidates = np.r_[np.inf, np.unique(p)]
        cost = np.array([np.sum((p >= t) & (y == 0)) + 20 * np.sum((p < t) & (y == 1)) for t in candidates])
        assert evaluation.development_cost == cost.min()
        at_chosen = np.sum((p >= evaluation.chosen_threshold) & (y == 0)) + 20 * np.sum(
            (p < evaluation.chosen_threshold) & (y == 1))
        assert at_chosen == cost.min()
        # The highest of the cheapest thresholds.
        assert evaluation.chosen_threshold == candidates[cost == cost.min()].max()


def test_brier_decompositions_add_up(result):
    for evaluation in result.models:
        d = evaluation.brier_decomposition
        assert abs(d.reliability - d.resolution + d.uncertainty - evaluation.test_brier.estimate) < 1e-14
        b = evaluation.binned_brier_decomposition
        assert abs(b.brier_score - evaluation.test_brier.estimate) < 1e-15
        c = evaluation.corp
        corp_total = c.miscalibration - c.discrimination + c.uncertainty
        assert abs(corp_total - evaluation.test_brier.estimate) < 1e-14
    # Same ranking, same CORP discrimination: it depends on the order of the forecasts only.
    naive, platt = result.model("naive_bayes"), result.model("platt")
    assert platt.corp.discrimination == pytest.approx(naive.corp.discrimination, abs=1e-12)


def test_paired_difference_estimates(result):
    logistic, naive = result.model("logistic"), result.model("naive_bayes")
    assert result.auc_difference.estimate == logistic.test_auc.estimate - naive.test_auc.estimate
    assert result.brier_difference.estimate == logistic.test_brier.estimate - naive.test_brier.estimate
    assert result.auc_difference.n_resamples == result.brier_difference.n_resamples == 2000


# ---------------------------------------------------------------------------
# agreement with scikit-learn on the same probabilities
# ---------------------------------------------------------------------------

def _sklearn_ece(y, p, n_bins=10):
    # Right-closed uniform bins, as calibration_curve builds them.
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    ids = np.searchsorted(edges[1:-1], p)
    total = 0.0
    for b in np.unique(ids):
        rows = ids == b
        total += rows.sum() / len(p) * abs(p[rows].mean() - y[rows].mean())
    return total


def test_development_metrics_match_sklearn(result):
    y = result.y_development
    for evaluation in result.models:
        p = evaluation.oof_probabilities
        flagged = (p >= 0.5).astype(int)
        d = evaluation.development
        pairs = (
            (d.accuracy, skm.accuracy_score(y, flagged)),
            (d.precision, skm.precision_score(y, flagged)),
            (d.recall, skm.recall_score(y, flagged)),
            (d.f1, skm.f1_score(y, flagged)),
            (d.mcc, skm.matthews_corrcoef(y, flagged)),
            (d.auc, skm.roc_auc_score(y, p)),
            (d.average_precision, skm.average_precision_score(y, p)),
            (d.brier, skm.brier_score_loss(y, p)),
            (d.ece, _sklearn_ece(y, p)),
        )
        for ours, theirs in pairs:
            assert abs(ours - theirs) <= 1e-12


def test_ece_bins_match_calibration_curve(result):
    y, p = result.y_development, result.model("naive_bayes").oof_probabilities
    prob_true, prob_pred = calibration_curve(y, p, n_bins=10)
    edges = np.linspace(0.0, 1.0, 11)
    ids = np.searchsorted(edges[1:-1], p)
    ours = [(p[ids == b].mean(), y[ids == b].mean()) for b in np.unique(ids)]
    assert np.max(np.abs(np.array(ours) - np.column_stack([prob_pred, prob_true]))) <= 1e-12


def test_test_metrics_match_sklearn(result):
    y = result.y_test
    for evaluation in result.models:
        p = evaluation.test_probabilities
        assert abs(evaluation.test_auc.estimate - skm.roc_auc_score(y, p)) <= 1e-12
        assert abs(evaluation.test_average_precision.estimate - skm.average_precision_score(y, p)) <= 1e-12
        assert abs(evaluation.test_brier.estimate - skm.brier_score_loss(y, p)) <= 1e-12


def test_bootstrap_replicates_match_sklearn(result):
    # The bootstrap draws all row indices at once from default_rng(seed).
    y = result.y_test
    rows = np.random.default_rng(result.seed).integers(0, len(y), (result.resamples, len(y)))
    logistic = result.model("logistic")
    p = logistic.test_probabilities
    auc = np.array([skm.roc_auc_score(y[r], p[r]) for r in rows])
    assert np.max(np.abs(auc - logistic.test_auc.distribution)) <= 1e-12
    low, high = np.quantile(auc, [0.025, 0.975])
    assert abs(logistic.test_auc.interval.low - low) <= 1e-12
    assert abs(logistic.test_auc.interval.high - high) <= 1e-12


def test_logistic_probabilities_match_sklearn(result):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = breast_cancer()
    dev, test = result.development_rows, result.test_rows
    model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, solver="newton-cholesky", tol=1e-12,
                                                               max_iter=1000))
    expected = model.fit(X[dev], y[dev]).predict_proba(X[test])[:, 1]
    assert np.max(np.abs(result.model("logistic").test_probabilities - expected)) < 1e-8


# ---------------------------------------------------------------------------
# determinism, options, progress
# ---------------------------------------------------------------------------

def test_deterministic_given_the_seed():
    first, second = run_screening(resamples=30), run_screening(resamples=30)
    assert first == second
    for a, b in zip(first.models, second.models):
        np.testing.assert_array_equal(a.oof_probabilities, b.oof_probabilities)
        np.testing.assert_array_equal(a.test_auc.distribution, b.test_auc.distribution)


def test_other_seed_and_costs():
    # The handbook's example command: --false-negative-cost 50 --seed 3.
    other = run_screening(seed=3, false_negative_cost=50.0, resamples=30)
    assert other.bayes_threshold == pytest.approx(1 / 51, abs=1e-15)
    assert (other.n_test, other.n_test_malignant) == (143, 53)
    assert not np.array_equal(other.test_rows, run_screening(resamples=2).test_rows)
    for evaluation in other.models:
        for point in evaluation.operating_points:
            assert point.cost == point.false_alarms + 50 * point.missed


def test_progress_is_reported():
    messages = []
    run_screening(resamples=2, progress=messages.append)
    assert messages[0] == "loading the breast-cancer data"
    assert any("Platt" in m for m in messages) and messages[-1].startswith("paired bootstrap")


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_seed_must_be_an_integer():
    with pytest.raises(TypeError, match="seed"):
        run_screening(seed=1.5)


def test_seed_must_not_be_negative():
    with pytest.raises(ValueError, match="seed"):
        run_screening(seed=-1)


def test_folds_at_least_two():
    with pytest.raises(ValueError, match="folds"):
        run_screening(folds=1)


def test_negative_penalty():
    with pytest.raises(ValueError, match="penalty"):
        run_screening(penalty=-1.0)


def test_negative_cost():
    with pytest.raises(ValueError, match="false_negative_cost"):
        run_screening(false_negative_cost=-20.0)


def test_both_costs_zero():
    with pytest.raises(ValueError, match="both be zero"):
        run_screening(false_positive_cost=0.0, false_negative_cost=0.0)


def test_resamples_at_least_one():
    with pytest.raises(ValueError, match="resamples"):
        run_screening(resamples=0)


def test_progress_must_be_callable():
    with pytest.raises(TypeError, match="progress"):
        run_screening(progress="verbose")


def test_unknown_model_key(result):
    with pytest.raises(KeyError, match="logistic"):
        result.model("forest")


def test_unknown_rule(result):
    with pytest.raises(KeyError, match="chosen"):
        result.models[0].point("median")


# ---------------------------------------------------------------------------
# figures
# ---------------------------------------------------------------------------

def test_figures(result):
    import matplotlib.pyplot as plt

    from evalmetrics.handbook.plotting import studies as figures

    fig = figures.plot_screening_reliability(result)
    assert [ax.get_title() for ax in fig.axes[:3]] == [m.name for m in result.models]
    plt.close(fig)
    fig = figures.plot_screening_costs(result)
    assert len(fig.axes) == 3 and all(ax.get_xscale() == "log" for ax in fig.axes)
    plt.close(fig)
    fig = figures.plot_screening_bootstrap(result)
    assert fig.axes[2].get_xlabel() == "logistic regression minus naive Bayes"
    plt.close(fig)
    # One legend outside the panels: inside, they hid points, histograms and (the
    # chosen threshold's line through every entry) the costs.
    for fig in (figures.plot_screening_reliability(result), figures.plot_screening_bootstrap(result),
                figures.plot_screening_costs(result)):
        assert_readable(fig)
        assert all(ax.get_legend() is None for ax in fig.axes)
        (legend,) = fig.legends
        plt.close(fig)
    with pytest.raises(ValueError, match="which"):
        figures.plot_screening_reliability(result, which="training")
