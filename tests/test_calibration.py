"""Tests of evalmetrics.calibration and evalmetrics.recalibration.

Expected values come from the handbook's worked example (section
"Worked example > Calibration"), from the seed note on the Brier
decomposition (brier-decomposition-zh), or from scikit-learn / SciPy.
"""

from __future__ import annotations

import inspect
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalmetrics as em
from evalmetrics.calibration import (
    BinnedBrierDecomposition,
    BrierDecomposition,
    CorpReliability,
    ReliabilityCurve,
    binned_brier_decomposition,
    brier_decomposition,
    brier_score,
    classwise_ece,
    corp_reliability,
    expected_calibration_error,
    log_loss,
    reliability_curve,
    top_label_ece,
)
from evalmetrics.recalibration import (
    IsotonicCalibration,
    PlattCalibrated,
    PlattScaling,
    isotonic_regression,
)
from evalmetrics.worked_example import twelve_units
from helpers import assert_close

TOL = 1e-12


@pytest.fixture
def units():
    return twelve_units()


def population_forecast():
    """The seed note's forecast as data: two equally likely reports.

    Report 0.2 on 10 rows of which 1 is positive (true rate 0.1), report 0.8
    on 10 rows of which 7 are positive (true rate 0.7).
    """
    y_prob = np.r_[np.full(10, 0.2), np.full(10, 0.8)]
    y_true = np.r_[1, np.zeros(9, dtype=int), np.ones(7, dtype=int), np.zeros(3, dtype=int)]
    return y_true, y_prob


def random_data(seed, n=300, decimals=1):
    """Heavily tied probabilities (rounded) and labels loosely related to them."""
    rng = np.random.default_rng(seed)
    y_prob = np.round(rng.uniform(0, 1, n), decimals)
    y_true = (rng.uniform(0, 1, n) < 0.2 + 0.6 * y_prob).astype(int)
    weights = rng.uniform(0.1, 3.0, n)
    return y_true, y_prob, weights


# ---------------------------------------------------------------------------
# worked example: twelve units
# ---------------------------------------------------------------------------

def test_squared_error_sums_of_the_two_classes(units):
    faulty = units.y_true == 1
    # Handbook: faulty units' squared errors sum to 0.525, working units' to 1.8375.
    assert round(4 * brier_score(units.y_true[faulty], units.y_score[faulty]), 4) == 0.525
    assert round(8 * brier_score(units.y_true[~faulty], units.y_score[~faulty]), 4) == 1.8375


def test_brier_score_of_the_twelve_units(units):
    value = brier_score(units.y_true, units.y_score)
    # Handbook: 2.3625 / 12 = 0.196875 exactly, shown as 0.1969.
    assert value == pytest.approx(float(Fraction(23625, 120000)), abs=1e-15)
    assert round(value, 4) == 0.1969


def test_base_rate_forecast_and_gap(units):
    base = brier_score(units.y_true, np.full(12, 1 / 3))
    # Handbook: forecasting 1/3 scores (1/3)(2/3) = 0.2222; the model wins by 0.0253.
    assert base == pytest.approx(2 / 9, abs=1e-15)
    assert round(base, 4) == 0.2222
    assert round(base - brier_score(units.y_true, units.y_score), 4) == 0.0253
    # Uncertainty is the base-rate forecast's score.
    assert brier_decomposition(units.y_true, units.y_score).uncertainty == pytest.approx(2 / 9, abs=1e-15)


def test_log_loss_of_the_twelve_units(units):
    # Oracle: the probability each unit gave to its own outcome, summed in math.log.
    given = [s if y == 1 else 1 - s for y, s in zip(units.y_true.tolist(), units.y_score.tolist())]
    expected = -math.fsum(math.log(q) for q in given) / 12
    assert log_loss(units.y_true, units.y_score) == pytest.approx(expected, abs=TOL)
    assert round(log_loss(units.y_true, units.y_score), 4) == 0.5733


def test_log_loss_of_the_base_rate_is_the_entropy(units):
    # Reporting 1/3 for every unit: -(1/3) log(1/3) - (2/3) log(2/3) = 0.6365.
    entropy = -(math.log(1 / 3) / 3 + 2 * math.log(2 / 3) / 3)
    assert log_loss(units.y_true, np.full(12, 1 / 3)) == pytest.approx(entropy, abs=TOL)
    assert round(entropy, 4) == 0.6365


@pytest.mark.parametrize("q", [0.1, 0.3, 0.5, 0.8])
def test_log_loss_is_proper(q):
    # The expected loss of reporting p when the outcome is positive with probability q,
    # q -log p + (1 - q) -log(1 - p), is smallest at p = q on a fine grid.
    grid = np.linspace(0.01, 0.99, 99)
    expected = [q * log_loss([1], [p]) + (1 - q) * log_loss([0], [p]) for p in grid]
    assert grid[int(np.argmin(expected))] == pytest.approx(q)


def test_log_loss_clipping():
    eps = np.finfo(float).eps
    # A certain miss costs -log(eps) = 36.04, a certain hit -log(1 - eps), not 0.
    assert log_loss([1], [0.0]) == pytest.approx(-math.log(eps), abs=TOL)
    assert round(log_loss([1], [0.0]), 2) == 36.04
    assert log_loss([1], [1.0]) == pytest.approx(-math.log(1 - eps), rel=1e-12) and log_loss([1], [1.0]) > 0
    assert log_loss([0, 1], [1.0, 0.0], eps=0) == math.inf
    assert log_loss([0, 1], [0.0, 1.0], eps=0) == 0.0
    assert log_loss([1, 0], [1e-3, 0.5], eps=1e-2) == pytest.approx(-(math.log(1e-2) + math.log(0.5)) / 2, abs=TOL)


def test_two_bin_reliability_curve(units):
    curve = reliability_curve(units.y_true, units.y_score, n_bins=2)
    assert isinstance(curve, ReliabilityCurve)
    # Handbook: mean scores 1.55/6 = 0.2583 and 4.5/6 = 0.75; observed 1/6 and 3/6.
    np.testing.assert_allclose(curve.mean_predicted, [1.55 / 6, 4.5 / 6], atol=1e-15)
    np.testing.assert_allclose(curve.fraction_positive, [1 / 6, 3 / 6], atol=1e-15)
    assert curve.count.tolist() == [6, 6]
    assert [round(x, 4) for x in curve.mean_predicted] == [0.2583, 0.75]
    gaps = np.abs(curve.mean_predicted - curve.fraction_positive)
    # Handbook: gaps 0.0917 and 0.25.
    assert [round(x, 4) for x in gaps] == [0.0917, 0.25]


def test_two_bin_ece(units):
    value = expected_calibration_error(units.y_true, units.y_score, n_bins=2)
    # Handbook: (6/12) 0.0917 + (6/12) 0.25 = 0.1708; exactly (0.55/6 + 0.25)/2 = 41/240.
    assert round(value, 4) == 0.1708
    assert value == pytest.approx(41 / 240, abs=1e-15)


def test_edge_value_goes_to_lower_bin():
    # Handbook: bins are closed on the right, so 0.5 belongs to the bin below it.
    curve = reliability_curve([0, 1, 1], [0.2, 0.5, 0.9], n_bins=2)
    assert curve.count.tolist() == [2, 1]
    assert curve.mean_predicted[0] == pytest.approx(0.35, abs=1e-15)


def test_ece_moves_with_the_binning(units):
    values = {
        (n, s): expected_calibration_error(units.y_true, units.y_score, n_bins=n, strategy=s)
        for n in (2, 3, 5, 10) for s in ("uniform", "quantile")
    }
    assert len({round(v, 10) for v in values.values()}) > 1


# ---------------------------------------------------------------------------
# the seed note's forecast: UNC 0.24, REL 0.01, RES 0.09, BS 0.16
# ---------------------------------------------------------------------------

def test_population_decomposition():
    y_true, y_prob = population_forecast()
    d = brier_decomposition(y_true, y_prob)
    assert isinstance(d, BrierDecomposition)
    # Seed note: UNC = 0.4 * 0.6 = 0.24, REL = 0.01, RES = 0.09.
    assert d.uncertainty == pytest.approx(0.24, abs=1e-15)
    assert d.reliability == pytest.approx(0.01, abs=1e-15)
    assert d.resolution == pytest.approx(0.09, abs=1e-15)
    # Seed note: BS = 0.01 - 0.09 + 0.24 = 0.16, and directly (0.10 + 0.22)/2 = 0.16.
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(0.16, abs=1e-15)
    assert d.brier_score == pytest.approx(0.16, abs=1e-15)
    assert brier_score(y_true, y_prob) == pytest.approx(0.16, abs=1e-15)


def test_population_per_report_terms():
    y_true, y_prob = population_forecast()
    low = y_prob == 0.2
    # Seed note: 0.1 (1-0.2)^2 + 0.9 (0.2)^2 = 0.10 and 0.7 (0.2)^2 + 0.3 (0.8)^2 = 0.22.
    assert brier_score(y_true[low], y_prob[low]) == pytest.approx(0.10, abs=1e-15)
    assert brier_score(y_true[~low], y_prob[~low]) == pytest.approx(0.22, abs=1e-15)


def test_relabelled_and_constant_forecasts():
    y_true, y_prob = population_forecast()
    relabelled = np.where(y_prob == 0.2, 0.1, 0.7)
    d = brier_decomposition(y_true, relabelled)
    # Seed note: reporting the true rates 0.1 and 0.7 scores 0.15 (REL 0, RES unchanged).
    assert d.brier_score == pytest.approx(0.15, abs=1e-15)
    assert d.reliability == pytest.approx(0.0, abs=1e-15)
    assert d.resolution == pytest.approx(0.09, abs=1e-15)
    # Seed note: the constant 0.4 is calibrated but has no resolution: 0.24.
    constant = brier_decomposition(y_true, np.full(20, 0.4))
    assert constant.brier_score == pytest.approx(0.24, abs=1e-15)
    assert constant.reliability == pytest.approx(0.0, abs=1e-15)
    assert constant.resolution == pytest.approx(0.0, abs=1e-15)


def test_binning_two_reports_changes_the_score():
    # Seed note: (S, Y) = (0.2, 0), (0.4, 1): original 0.20, one bin (report 0.3) 0.29.
    b = binned_brier_decomposition([0, 1], [0.2, 0.4], n_bins=1)
    assert isinstance(b, BinnedBrierDecomposition)
    assert b.brier_score == pytest.approx(0.20, abs=1e-15)
    assert b.binned_brier_score == pytest.approx(0.29, abs=1e-15)
    assert b.difference == pytest.approx(-0.09, abs=1e-15)
    assert b.reliability - b.resolution + b.uncertainty == pytest.approx(0.29, abs=1e-15)
    # The exact decomposition of the unbinned forecaster does recover 0.20.
    assert brier_decomposition([0, 1], [0.2, 0.4]).brier_score == pytest.approx(0.20, abs=1e-15)


def test_binning_is_exact_when_each_bin_holds_one_value():
    y_true, y_prob = population_forecast()
    b = binned_brier_decomposition(y_true, y_prob, n_bins=10)
    d = brier_decomposition(y_true, y_prob)
    assert b.difference == pytest.approx(0.0, abs=1e-15)
    assert (b.reliability, b.resolution) == pytest.approx((d.reliability, d.resolution), abs=1e-15)


def test_corp_on_the_population_forecast():
    y_true, y_prob = population_forecast()
    corp = corp_reliability(y_true, y_prob)
    assert isinstance(corp, CorpReliability)
    # The observed rates 0.1 < 0.7 are already monotone, so CORP recalibrates to them
    # and MCB = 0.16 - 0.15 = 0.01, DSC = 0.24 - 0.15 = 0.09 (the seed note's REL and RES).
    np.testing.assert_allclose(corp.calibrated, [0.1, 0.7], atol=1e-15)
    assert corp.miscalibration == pytest.approx(0.01, abs=1e-15)
    assert corp.discrimination == pytest.approx(0.09, abs=1e-15)
    assert corp.uncertainty == pytest.approx(0.24, abs=1e-15)


def test_corp_pools_a_non_monotone_forecast(units):
    corp = corp_reliability(units.y_true, units.y_score)
    # Hand PAV over the distinct scores 0.10 ... 0.95 (0.40 pooled, 1 of 2 faulty):
    # 0,0,0,0 | 0.40, 0.55 -> 1/3 | 0.65..0.85 -> 1/2 | 0.95 -> 1.
    expected = [0, 0, 0, 0, 1 / 3, 1 / 3, 0.5, 0.5, 0.5, 0.5, 1]
    np.testing.assert_allclose(corp.calibrated, expected, atol=1e-15)
    assert corp.count.sum() == 12
    assert corp.miscalibration - corp.discrimination + corp.uncertainty == pytest.approx(
        corp.brier_score, abs=TOL)


# ---------------------------------------------------------------------------
# scikit-learn and SciPy
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_brier_score_matches_sklearn(seed):
    from sklearn.metrics import brier_score_loss

    y_true, y_prob, weights = random_data(seed, decimals=2)
    assert abs(brier_score(y_true, y_prob) - brier_score_loss(y_true, y_prob)) <= TOL
    assert abs(brier_score(y_true, y_prob, sample_weight=weights)
               - brier_score_loss(y_true, y_prob, sample_weight=weights)) <= TOL
    labels = np.where(y_true == 1, "faulty", "working")
    assert abs(brier_score(labels, y_prob, pos_label="faulty")
               - brier_score_loss(labels, y_prob, pos_label="faulty")) <= TOL


def _extreme_probabilities(seed, n=400):
    """Tied probabilities with exact 0 and 1 and values within 1e-17 of them, on both classes."""
    y_true, y_prob, weights = random_data(seed, n=n, decimals=2)
    y_prob[:8] = 0.0, 1.0, 0.0, 1.0, 1e-20, 1 - 1e-17, 1e-300, 0.5
    y_true[:8] = 0, 0, 1, 1, 1, 0, 0, 1
    weights[8:12] = 0.0
    return y_true, y_prob, weights


@pytest.mark.parametrize("seed", range(4))
def test_log_loss_matches_sklearn(seed):
    from sklearn.metrics import log_loss as sklearn_log_loss

    y_true, y_prob, weights = _extreme_probabilities(seed)
    assert abs(log_loss(y_true, y_prob) - sklearn_log_loss(y_true, y_prob)) <= TOL
    assert abs(log_loss(y_true, y_prob, sample_weight=weights)
               - sklearn_log_loss(y_true, y_prob, sample_weight=weights)) <= TOL
    # scikit-learn reads a single column as the probability of the larger label.
    labels = np.where(y_true == 1, "working", "faulty")
    assert abs(log_loss(labels, 1 - y_prob, pos_label="faulty")
               - sklearn_log_loss(labels, y_prob)) <= TOL
    assert abs(log_loss(2 * y_true - 1, y_prob) - sklearn_log_loss(2 * y_true - 1, y_prob)) <= TOL


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 2, 3, 5, 7, 10, 20])
@pytest.mark.parametrize("decimals", [1, 2])
def test_reliability_curve_matches_sklearn(strategy, n_bins, decimals):
    from sklearn.calibration import calibration_curve

    y_true, y_prob, _ = random_data(n_bins + 10 * decimals, decimals=decimals)
    labels = np.where(y_true == 1, "b", "a")
    ours = reliability_curve(labels, y_prob, n_bins=n_bins, strategy=strategy, pos_label="b")
    prob_true, prob_pred = calibration_curve(labels, y_prob, n_bins=n_bins, strategy=strategy, pos_label="b")
    assert len(ours.mean_predicted) == len(prob_pred)
    assert np.max(np.abs(ours.mean_predicted - prob_pred)) <= TOL
    assert np.max(np.abs(ours.fraction_positive - prob_true)) <= TOL


def test_reliability_curve_at_bin_edges_matches_sklearn():
    from sklearn.calibration import calibration_curve

    y_prob = np.array([0.0, 0.2, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0, 1.0])
    y_true = np.array([0, 0, 1, 0, 1, 1, 0, 1, 1])
    for n_bins in (2, 5, 10):
        ours = reliability_curve(y_true, y_prob, n_bins=n_bins)
        prob_true, prob_pred = calibration_curve(y_true, y_prob, n_bins=n_bins)
        assert np.max(np.abs(ours.mean_predicted - prob_pred)) <= TOL
        assert np.max(np.abs(ours.fraction_positive - prob_true)) <= TOL


@pytest.mark.parametrize("seed", range(4))
def test_isotonic_regression_matches_sklearn_and_scipy(seed):
    from scipy.optimize import isotonic_regression as scipy_isotonic
    from sklearn.isotonic import isotonic_regression as sklearn_isotonic

    rng = np.random.default_rng(seed)
    y = np.round(rng.normal(np.linspace(0, 2, 200), 1.0), 1)
    weights = rng.uniform(0.1, 2.0, 200)
    assert np.max(np.abs(isotonic_regression(y) - sklearn_isotonic(y))) <= TOL
    assert np.max(np.abs(isotonic_regression(y, sample_weight=weights)
                         - sklearn_isotonic(y, sample_weight=weights))) <= TOL
    assert np.max(np.abs(isotonic_regression(y, sample_weight=weights)
                         - scipy_isotonic(y, weights=weights).x)) <= TOL


@pytest.mark.parametrize("seed", range(4))
def test_isotonic_calibration_matches_sklearn(seed):
    from sklearn.isotonic import IsotonicRegression

    y_true, y_prob, weights = random_data(seed, decimals=1)
    weights[::7] = 0.0  # zero-weight rows are dropped, as scikit-learn does
    reference = IsotonicRegression(out_of_bounds="clip").fit(y_prob, y_true, sample_weight=weights)
    linear = IsotonicCalibration(interpolation="linear").fit(y_prob, y_true, sample_weight=weights)
    grid = np.linspace(-0.1, 1.1, 241)
    assert np.max(np.abs(linear.transform(grid) - reference.predict(grid))) <= TOL
    # At the fitted scores themselves, the step map agrees with scikit-learn too.
    step = IsotonicCalibration().fit(y_prob, y_true, sample_weight=weights)
    seen = y_prob[weights > 0]
    assert np.max(np.abs(step.transform(seen) - reference.predict(seen))) <= TOL


def test_isotonic_step_map_between_and_outside_thresholds():
    iso = IsotonicCalibration().fit([0.1, 0.2, 0.3, 0.6], [0, 1, 0, 1])
    # PAV: 0, (1 + 0)/2 pooled, 1 -> values 0, 0.5, 0.5, 1.
    np.testing.assert_allclose(iso.values, [0.0, 0.5, 0.5, 1.0])
    # Steps hold the value of the threshold at or below; outside the range: clipped.
    np.testing.assert_allclose(iso.transform([0.0, 0.1, 0.15, 0.5, 0.6, 0.9]), [0, 0, 0, 0.5, 1, 1])


@pytest.mark.parametrize("seed", range(3))
def test_corp_recalibration_matches_sklearn_isotonic(seed):
    from sklearn.isotonic import IsotonicRegression

    y_true, y_prob, _ = random_data(seed, decimals=1)
    corp = corp_reliability(y_true, y_prob)
    reference = IsotonicRegression().fit_transform(y_prob, y_true)
    assert np.max(np.abs(corp.recalibrated - reference)) <= TOL


def _sklearn_logistic(scores, targets, weights=None):
    """Unpenalised logistic regression on one feature with fractional targets,
    written as each row twice: positive with weight t, negative with weight 1 - t."""
    from sklearn.linear_model import LogisticRegression

    n = len(scores)
    weights = np.ones(n) if weights is None else weights
    X = np.r_[scores, scores][:, None]
    y = np.r_[np.ones(n), np.zeros(n)]
    w = np.r_[weights * targets, weights * (1 - targets)]
    model = LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-15, max_iter=1000)
    model.fit(X, y, sample_weight=w)
    return float(model.coef_[0, 0]), float(model.intercept_[0])


@pytest.mark.parametrize("seed", range(3))
def test_platt_matches_logistic_regression(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    scores = np.round(rng.normal(1.5 * y, 1.0), 1)
    weights = rng.uniform(0.5, 2.0, 200)
    plain = PlattScaling().fit(scores, y, sample_weight=weights)
    slope, intercept = _sklearn_logistic(scores, y.astype(float), weights)
    assert abs(plain.slope - slope) <= 1e-9 and abs(plain.intercept - intercept) <= 1e-9
    # Platt's smoothed targets (N+ + 1)/(N+ + 2) and 1/(N- + 2), unweighted.
    n_pos, n_neg = y.sum(), len(y) - y.sum()
    targets = np.where(y == 1, (n_pos + 1) / (n_pos + 2), 1 / (n_neg + 2))
    smooth = PlattScaling(smooth_targets=True).fit(scores, y)
    slope, intercept = _sklearn_logistic(scores, targets)
    assert abs(smooth.slope - slope) <= 1e-9 and abs(smooth.intercept - intercept) <= 1e-9


def test_platt_smoothed_matches_sklearn_sigmoid_calibration():
    from sklearn.calibration import _SigmoidCalibration

    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 300)
    scores = rng.normal(2.0 * y, 1.0)
    reference = _SigmoidCalibration().fit(scores, y)
    ours = PlattScaling(smooth_targets=True).fit(scores, y)
    # scikit-learn stops L-BFGS at gtol 1e-6, so only ~1e-6 agreement is possible;
    # its sigmoid is 1 / (1 + exp(a s + b)), hence the signs.
    assert ours.slope == pytest.approx(-reference.a_, abs=1e-5)
    assert ours.intercept == pytest.approx(-reference.b_, abs=1e-5)
    grid = np.linspace(-3, 5, 50)
    assert np.max(np.abs(ours.predict_proba(grid) - reference.predict(grid))) <= 1e-6


def test_platt_calibrated_matches_calibrated_classifier_cv():
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 240)
    X = rng.normal(y[:, None] * [1.0, 0.5], 1.0, size=(240, 2))
    base = LogisticRegression(C=0.01)
    ours = PlattCalibrated(base, n_folds=3, seed=5, smooth_targets=True).fit(X, y)
    reference = CalibratedClassifierCV(
        LogisticRegression(C=0.01), method="sigmoid", ensemble=False,
        cv=StratifiedKFold(3, shuffle=True, random_state=5),
    ).fit(X, y)
    # Same folds, same base model, same smoothed targets; the only difference is
    # scikit-learn's L-BFGS tolerance in the sigmoid fit.
    assert np.max(np.abs(ours.predict_proba(X) - reference.predict_proba(X)[:, 1])) <= 1e-6


def test_platt_calibrated_with_evalmetrics_model():
    from evalmetrics.models import GaussianNaiveBayes

    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    X = rng.normal(y[:, None] * [1.0, 1.0, 1.0], 1.0, size=(200, 3))
    X[:, 1] = X[:, 0] + 0.1 * X[:, 1]  # correlated features make naive Bayes overconfident
    model = PlattCalibrated(GaussianNaiveBayes()).fit(X, y)
    p = model.predict_proba(X)
    assert p.shape == (200,) and np.all((p > 0) & (p < 1))
    # A monotone map: the ranking of the base model is kept.
    raw = model.fitted_estimator.decision_function(X)
    assert np.array_equal(np.argsort(raw, kind="stable"), np.argsort(p, kind="stable"))


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

forecasts = st.lists(
    st.tuples(st.integers(0, 1), st.integers(0, 20).map(lambda k: k / 20)), min_size=1, max_size=60
)


@settings(max_examples=150, deadline=None)
@given(forecasts)
def test_decomposition_identity_and_bounds(rows):
    y_true, y_prob = map(np.array, zip(*rows))
    d = brier_decomposition(y_true, y_prob)
    assert d.reliability - d.resolution + d.uncertainty == pytest.approx(d.brier_score, abs=TOL)
    assert d.reliability >= 0
    assert -TOL <= d.resolution <= d.uncertainty + TOL


@settings(max_examples=150, deadline=None)
@given(forecasts, st.integers(1, 12), st.sampled_from(["uniform", "quantile"]))
def test_binned_decomposition_identities(rows, n_bins, strategy):
    y_true, y_prob = map(np.array, zip(*rows))
    b = binned_brier_decomposition(y_true, y_prob, n_bins=n_bins, strategy=strategy)
    assert b.reliability - b.resolution + b.uncertainty == pytest.approx(b.binned_brier_score, abs=TOL)
    assert b.difference == pytest.approx(b.within_bin_variance - 2 * b.within_bin_covariance, abs=TOL)
    assert -TOL <= b.resolution <= b.uncertainty + TOL
    ece = expected_calibration_error(y_true, y_prob, n_bins=n_bins, strategy=strategy)
    assert 0 <= ece <= 1
    # ECE^2 <= binned reliability (Jensen), with the same bins.
    assert ece**2 <= b.reliability + TOL


@settings(max_examples=150, deadline=None)
@given(forecasts)
def test_corp_identity_and_signs(rows):
    y_true, y_prob = map(np.array, zip(*rows))
    c = corp_reliability(y_true, y_prob)
    assert c.miscalibration - c.discrimination + c.uncertainty == pytest.approx(c.brier_score, abs=TOL)
    assert c.miscalibration >= -TOL
    assert -TOL <= c.discrimination <= c.uncertainty + TOL
    assert np.all(np.diff(c.calibrated) >= -TOL)
    # Recalibrated forecasts are calibrated in-sample: their own REL is zero.
    assert brier_decomposition(y_true, np.clip(c.recalibrated, 0, 1)).reliability <= TOL


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(1, 5)), min_size=1, max_size=50))
def test_isotonic_is_monotone_and_keeps_the_weighted_mean(rows):
    y, w = (np.array(c, dtype=float) for c in zip(*rows))
    fit = isotonic_regression(y / 4, sample_weight=w)
    assert np.all(np.diff(fit) >= -TOL)
    assert np.average(fit, weights=w) == pytest.approx(np.average(y / 4, weights=w), abs=1e-9)
    assert np.max(np.abs(isotonic_regression(fit, sample_weight=w) - fit)) <= TOL


def test_recalibration_keeps_the_ranking(units):
    platt = PlattScaling().fit(units.y_score, units.y_true)
    p = platt.predict_proba(units.y_score)
    # Scores are sorted decreasingly (units 7 and 8 tied), and the slope is positive.
    assert np.all(np.diff(p) <= 0) and np.array_equal(np.diff(p) == 0, np.diff(units.y_score) == 0)
    assert np.array_equal(platt.transform(units.y_score), p)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_probabilities_outside_unit_interval():
    with pytest.raises(ValueError, match="y_prob must be probabilities"):
        brier_score([0, 1], [0.2, 1.2])
    with pytest.raises(ValueError, match="y_prob must be probabilities"):
        reliability_curve([0, 1], [-0.1, 0.5])


def test_nan_probability():
    with pytest.raises(ValueError, match="y_prob contains 1 NaN"):
        brier_decomposition([0, 1], [np.nan, 0.5])


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        expected_calibration_error([0, 1, 1], [0.2, 0.5])


def test_empty_input():
    with pytest.raises(ValueError, match="y_true is empty"):
        corp_reliability([], [])


@pytest.mark.parametrize("function", [reliability_curve, expected_calibration_error, binned_brier_decomposition])
def test_n_bins_below_one(function):
    with pytest.raises(ValueError, match="n_bins must be at least 1"):
        function([0, 1], [0.2, 0.5], n_bins=0)


def test_n_bins_not_an_integer():
    with pytest.raises(TypeError, match="n_bins must be an integer"):
        reliability_curve([0, 1], [0.2, 0.5], n_bins=2.5)


@pytest.mark.parametrize("function", [reliability_curve, expected_calibration_error, binned_brier_decomposition])
def test_bad_strategy(function):
    with pytest.raises(ValueError, match="strategy must be"):
        function([0, 1], [0.2, 0.5], strategy="equal")


def test_string_labels_need_pos_label():
    with pytest.raises(ValueError, match="pass pos_label"):
        brier_score(["a", "b"], [0.2, 0.5])


def test_more_than_two_labels():
    with pytest.raises(ValueError, match="not binary"):
        brier_score([0, 1, 2], [0.2, 0.5, 0.7])


def test_weights_summing_to_zero():
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        brier_score([0, 1], [0.2, 0.5], sample_weight=[0, 0])


@pytest.mark.parametrize("eps", [-1e-3, 0.5, 1.0, math.nan])
def test_log_loss_eps_outside_its_range(eps):
    with pytest.raises(ValueError, match=r"eps must be in \[0, 0.5\)"):
        log_loss([0, 1], [0.2, 0.5], eps=eps)


@pytest.mark.parametrize("eps", ["auto", True, None])
def test_log_loss_eps_not_a_number(eps):
    with pytest.raises(TypeError, match="eps must be a real number"):
        log_loss([0, 1], [0.2, 0.5], eps=eps)


def test_log_loss_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="y_prob must be probabilities"):
        log_loss([0, 1], [0.2, 1.2])
    with pytest.raises(ValueError, match="y_prob contains 1 NaN"):
        log_loss([0, 1], [np.nan, 0.5])
    with pytest.raises(ValueError, match="inconsistent lengths"):
        log_loss([0, 1, 1], [0.2, 0.5])
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        log_loss([0, 1], [0.2, 0.5], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="pass pos_label"):
        log_loss(["a", "b"], [0.2, 0.5])


def test_platt_needs_both_classes():
    with pytest.raises(ValueError, match="both classes"):
        PlattScaling().fit([0.1, 0.4, 0.8], [1, 1, 1])


def test_platt_separated_scores_need_smoothing():
    with pytest.raises(ValueError, match="smooth_targets=True"):
        PlattScaling().fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1])
    fitted = PlattScaling(smooth_targets=True).fit([0.1, 0.2, 0.8, 0.9], [0, 0, 1, 1])
    assert np.isfinite(fitted.slope) and fitted.slope > 0


def test_platt_not_fitted():
    with pytest.raises(ValueError, match="not fitted"):
        PlattScaling().predict_proba([0.2])


def test_platt_calibrated_too_few_rows_per_class(units):
    class Model:
        def fit(self, X, y):
            return self

        def decision_function(self, X):
            return X[:, 0]

    with pytest.raises(ValueError, match="at least n_folds"):
        PlattCalibrated(Model(), n_folds=5).fit(units.y_score[:, None], units.y_true)
    with pytest.raises(ValueError, match="not fitted"):
        PlattCalibrated(Model()).predict_proba([[0.5]])


def test_isotonic_bad_interpolation_and_not_fitted():
    with pytest.raises(ValueError, match="interpolation must be"):
        IsotonicCalibration(interpolation="cubic").fit([0.1, 0.2], [0, 1])
    with pytest.raises(ValueError, match="not fitted"):
        IsotonicCalibration().transform([0.1])


def test_isotonic_regression_zero_weight():
    with pytest.raises(ValueError, match="sample_weight must be positive"):
        isotonic_regression([1.0, 0.0], sample_weight=[1.0, 0.0])


def test_no_warnings_on_one_class():
    # One class only: UNC = RES = 0 and REL = BS, all defined; nothing to warn about.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = brier_decomposition([0, 0, 0], [0.1, 0.2, 0.2])
    assert d.uncertainty == 0 and d.reliability == pytest.approx(d.brier_score)


# ---------------------------------------------------------------------------
# figures (smoke tests: they draw, label their axes and return the figure)
# ---------------------------------------------------------------------------

def test_calibration_figures(units):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.calibration import (
        plot_brier_waterfall,
        plot_corp_diagram,
        plot_reliability_and_corp,
        plot_reliability_diagram,
    )

    y_true, y_prob = population_forecast()
    figures = [
        plot_reliability_diagram(units.y_true, {"a": units.y_score, "b": units.y_score**2}, n_bins=2),
        plot_corp_diagram(units.y_true, units.y_score),
        plot_reliability_and_corp(units.y_true, units.y_score, n_bins=2, strategy="quantile"),
        plot_brier_waterfall(brier_decomposition(y_true, y_prob)),
        plot_brier_waterfall(corp_reliability(y_true, y_prob)),
        plot_brier_waterfall(binned_brier_decomposition([0, 1], [0.2, 0.4], n_bins=1)),
    ]
    for fig in figures:
        assert all(ax.get_ylabel() for ax in fig.axes)
        plt.close(fig)
    # The waterfall's last bar is the Brier score: 0.16 for the seed note's forecast.
    fig = plot_brier_waterfall(brier_decomposition(y_true, y_prob))
    heights = [patch.get_height() for patch in fig.axes[0].patches]
    assert heights == pytest.approx([0.24, 0.09, 0.01, 0.16], abs=1e-12)
    plt.close(fig)


def test_platt_constant_scores_give_the_base_rate():
    # No information in the scores: slope 0 and the base rate 1/4 for every score.
    platt = PlattScaling().fit([0.5, 0.5, 0.5, 0.5], [1, 0, 0, 0])
    assert platt.slope == 0.0
    assert platt.predict_proba([0.1, 0.9]) == pytest.approx([0.25, 0.25], abs=1e-15)


def test_platt_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        PlattScaling().fit([0.1, 0.2, 0.3], [0, 1])


# ---------------------------------------------------------------------------
# sample weights on every calibration summary (generated)
# ---------------------------------------------------------------------------

WEIGHTED = {
    "brier_decomposition": lambda y, p, **o: vars(em.brier_decomposition(y, p, **o)),
    "binned_brier_decomposition": lambda y, p, **o: vars(em.binned_brier_decomposition(y, p, n_bins=5, **o)),
    "binned, quantile bins": lambda y, p, **o: vars(em.binned_brier_decomposition(y, p, n_bins=3,
                                                                                strategy="quantile", **o)),
    "reliability_curve": lambda y, p, **o: em.reliability_curve(y, p, **o)._asdict(),
    "expected_calibration_error": lambda y, p, **o: {"ece": em.expected_calibration_error(y, p, **o)},
    "corp_reliability": lambda y, p, **o: {k: v for k, v in vars(em.corp_reliability(y, p, **o)).items()
                                           if k != "recalibrated"},
}


@st.composite
def weighted_forecasts(draw):
    n = draw(st.integers(4, 40))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:2] = 0, 1
    p = np.round(np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n))), 1)
    w = np.array(draw(st.lists(st.floats(0.01, 5), min_size=n, max_size=n)))
    return y, p, w


@pytest.mark.parametrize("name", list(WEIGHTED))
@settings(max_examples=30, deadline=None)
@given(problem=weighted_forecasts(), zeros=st.lists(st.integers(0, 39), max_size=4))
def test_rows_of_weight_zero_are_rows_left_out(name, problem, zeros):
    y, p, w = problem
    zeros = [i for i in set(zeros) if i >= 2 and i < len(y)]
    w[zeros] = 0.0
    kept = w > 0
    with_zeros = WEIGHTED[name](y, p, sample_weight=w)
    without = WEIGHTED[name](y[kept], p[kept], sample_weight=w[kept])
    assert with_zeros.keys() == without.keys()
    for field in with_zeros:
        assert_close(np.asarray(with_zeros[field], dtype=float), np.asarray(without[field], dtype=float))


@settings(max_examples=50, deadline=None)
@given(problem=weighted_forecasts())
def test_weighted_decompositions_add_up_to_scikit_learns_weighted_brier_score(problem):
    from sklearn.metrics import brier_score_loss

    y, p, w = problem
    theirs = brier_score_loss(y, p, sample_weight=w)
    for d in (em.brier_decomposition(y, p, sample_weight=w), em.binned_brier_decomposition(y, p, sample_weight=w)):
        assert d.brier_score == pytest.approx(theirs, abs=1e-12)
        binned = getattr(d, "binned_brier_score", d.brier_score)
        assert d.reliability - d.resolution + d.uncertainty == pytest.approx(binned, abs=1e-12)
    corp = em.corp_reliability(y, p, sample_weight=w)
    assert corp.brier_score == pytest.approx(theirs, abs=1e-12)
    assert corp.miscalibration - corp.discrimination + corp.uncertainty == pytest.approx(theirs, abs=1e-12)
    # CORP's recalibration is scikit-learn's weighted isotonic regression of y on p.
    from sklearn.isotonic import IsotonicRegression

    fitted = IsotonicRegression(y_min=0.0, y_max=1.0).fit(p, y, sample_weight=w).predict(corp.forecast)
    np.testing.assert_allclose(corp.calibrated, fitted, rtol=0, atol=1e-12)
    # Weighted base rate and uncertainty.
    base = np.sum(w * y) / np.sum(w)
    assert corp.uncertainty == pytest.approx(base * (1 - base), abs=1e-12)


def test_every_binned_summary_has_one_default_number_of_bins():
    from evalmetrics.plotting import calibration as plots

    for function in (em.reliability_curve, em.expected_calibration_error, em.binned_brier_decomposition,
                     plots.plot_reliability_diagram, plots.plot_reliability_and_corp):
        assert inspect.signature(function).parameters["n_bins"].default == em.calibration.N_BINS == 10

# ---------------------------------------------------------------------------
# several classes: classwise and top-label ECE
# ---------------------------------------------------------------------------

def slow_ece(y, p, n_bins):
    """ECE with uniform bins closed on the right, one row at a time (the oracle)."""
    edges = [k / n_bins for k in range(n_bins + 1)]
    total = 0.0
    for k in range(n_bins):
        rows = [i for i in range(len(p)) if (k == 0 or p[i] > edges[k]) and (k == n_bins - 1 or p[i] <= edges[k + 1])]
        if rows:
            total += abs(sum(p[i] for i in rows) - sum(y[i] for i in rows))
    return total / len(p)


def three_class_probabilities(seed, n=200, decimals=1):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, 3, n)
    raw = rng.uniform(0.05, 1.0, (n, 3)) + 0.8 * np.eye(3)[codes] * rng.uniform(0, 1, (n, 1))
    return codes, np.round(raw / raw.sum(axis=1, keepdims=True), decimals)  # ties, rows near 1


def test_two_columns_of_the_twelve_units(units):
    both = np.column_stack([1 - units.y_score, units.y_score])
    per_class = classwise_ece(units.y_true, both, n_bins=2, average=None)
    # The positive column is the one-column ECE, 41/240; the other column is the complement's.
    assert per_class[1] == pytest.approx(41 / 240, abs=1e-15)
    assert per_class[0] == expected_calibration_error(1 - units.y_true, 1 - units.y_score, n_bins=2)
    assert classwise_ece(units.y_true, both, n_bins=2) == pytest.approx(per_class.mean(), abs=1e-15)


def test_top_label_ece_of_the_twelve_units(units):
    both = np.column_stack([1 - units.y_score, units.y_score])
    # Confidences 0.95, 0.85, 0.8, 0.7, 0.65, 0.55, 0.6, 0.6, 0.7, 0.8, 0.85, 0.9 (the larger of p, 1 - p);
    # right for units 1, 3, 5, 7, 9-12. Four bins: (0.5, 0.75] holds six, mean 0.6333, 3 right (gap 2/15);
    # (0.75, 1] six, mean 0.8583, 5 right (gap 1/40); ECE (2/15 + 1/40) / 2 = 19/240.
    assert top_label_ece(units.y_true, both, n_bins=4) == pytest.approx(19 / 240, abs=1e-15)
    assert round(top_label_ece(units.y_true, both, n_bins=4), 4) == 0.0792


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_bins", [1, 3, 10])
def test_classwise_and_top_label_ece_against_the_oracle(seed, n_bins):
    codes, probabilities = three_class_probabilities(seed)
    names = np.array(["cat", "dog", "eel"])
    per_class = classwise_ece(names[codes], probabilities, n_bins=n_bins, average=None)
    for k in range(3):
        oracle = slow_ece((codes == k).astype(float).tolist(), probabilities[:, k].tolist(), n_bins)
        assert abs(per_class[k] - oracle) <= TOL
    predicted = probabilities.argmax(axis=1)  # the first column of a tied maximum
    oracle = slow_ece((predicted == codes).astype(float).tolist(), probabilities.max(axis=1).tolist(), n_bins)
    assert abs(top_label_ece(codes, probabilities, n_bins=n_bins) - oracle) <= TOL


def test_classwise_ece_with_quantile_bins_is_per_column(units):
    codes, probabilities = three_class_probabilities(7, decimals=2)
    per_class = classwise_ece(codes, probabilities, n_bins=5, strategy="quantile", average=None)
    expected = [expected_calibration_error(codes == k, probabilities[:, k], n_bins=5, strategy="quantile")
                for k in range(3)]
    assert np.max(np.abs(per_class - expected)) <= TOL


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_ece_of_several_classes_ignores_row_and_column_order(seed):
    codes, probabilities = three_class_probabilities(seed, n=50)
    rng = np.random.default_rng(seed)
    order, columns = rng.permutation(50), rng.permutation(3)
    base = classwise_ece(codes, probabilities, n_bins=4, average=None)
    moved = classwise_ece(codes[order], probabilities[order][:, columns], n_bins=4, labels=columns, average=None)
    assert np.max(np.abs(moved - base[columns])) <= TOL
    tied = np.any(np.sum(probabilities == probabilities.max(axis=1, keepdims=True), axis=1) > 1)
    if not tied:  # a tied maximum goes to the first column, which a permutation changes
        assert abs(top_label_ece(codes[order], probabilities[order][:, columns], n_bins=4, labels=columns)
                   - top_label_ece(codes, probabilities, n_bins=4)) <= TOL


def test_a_model_that_overrates_a_class_can_pass_the_top_label_ece():
    # Every row is class 0 or 1 with probability 1/2 and the model says (0.5, 0.3, 0.2): the predicted
    # class 0 is right half the time at confidence 0.5 (top-label ECE 0), while classes 1 and 2 are off.
    y = np.array([0, 1] * 50)
    probabilities = np.tile([0.5, 0.3, 0.2], (100, 1))
    assert top_label_ece(y, probabilities, labels=[0, 1, 2]) == 0.0
    per_class = classwise_ece(y, probabilities, labels=[0, 1, 2], average=None)
    assert per_class == pytest.approx([0.0, 0.2, 0.2], abs=1e-15)


@pytest.mark.parametrize(("y_prob", "y_true", "options", "error", "message"), [
    ([0.2, 0.8], [0, 1], {}, ValueError, "y_prob must be a 2-D array with one column per class"),
    ([[0.2], [0.8]], [0, 1], {}, ValueError, "y_prob must be a 2-D array with one column per class"),
    ([[0.2, 1.8], [0.5, 0.5]], [0, 1], {}, ValueError, "y_prob must be probabilities in"),
    ([[0.2, np.nan], [0.5, 0.5]], [0, 1], {}, ValueError, "y_prob contains 1 NaN"),
    ([["a", "b"], ["c", "d"]], [0, 1], {}, TypeError, "y_prob must contain numbers"),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 1, 1], {}, ValueError, "inconsistent lengths"),
    ([[0.2, 0.3, 0.5], [0.5, 0.5, 0.0]], [0, 1], {}, ValueError, "y_prob has 3 columns but y_true has 2"),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 2], {"labels": [0, 1]}, ValueError, "y_true contains 1 row"),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 0.5], {}, ValueError, "y_true must hold class labels"),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 1], {"n_bins": 0}, ValueError, "n_bins must be at least 1"),
    ([[0.2, 0.8], [0.5, 0.5]], [0, 1], {"strategy": "equal"}, ValueError, "strategy must be"),
])
@pytest.mark.parametrize("function", [classwise_ece, top_label_ece])
def test_bad_input_of_several_classes(function, y_prob, y_true, options, error, message):
    with pytest.raises(error, match=message):
        function(y_true, y_prob, **options)


def test_classwise_ece_average_option():
    with pytest.raises(ValueError, match='average must be "macro" or None'):
        classwise_ece([0, 1], [[0.2, 0.8], [0.5, 0.5]], average="weighted")


def test_classwise_reliability_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.calibration import plot_classwise_reliability

    codes, probabilities = three_class_probabilities(3)
    names = np.array(["ant", "bee", "cat"])
    fig = plot_classwise_reliability(names[codes], {"a": probabilities, "b": probabilities**2 / (
        probabilities**2).sum(axis=1, keepdims=True)}, n_bins=5)
    assert [ax.get_title() for ax in fig.axes] == ["class ant", "class bee", "class cat", "top label"]
    assert [ax.get_xlabel() for ax in fig.axes] == ["P(class ant)", "P(class bee)", "P(class cat)", "confidence"]
    assert fig.axes[0].get_ylabel() and fig.axes[-1].get_ylabel() == "accuracy"
    assert [text.get_text() for text in fig.legends[0].get_texts()] == ["perfectly calibrated", "a", "b"]
    # Each panel's first model curve is the reliability curve of its column (or of the confidence).
    curve = reliability_curve(codes == 1, probabilities[:, 1], n_bins=5)
    line = fig.axes[1].get_lines()[1]
    assert np.allclose(line.get_xdata(), curve.mean_predicted) and np.allclose(line.get_ydata(),
                                                                               curve.fraction_positive)
    plt.close(fig)
