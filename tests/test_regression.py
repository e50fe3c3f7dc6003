"""Tests of evalmetrics.regression.

Expected values come from the handbook's worked example (section
"Worked example > Regression", the six households) or from scikit-learn.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.regression import (
    BestConstant,
    best_constant,
    mape_optimal_constant,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_absolute_scaled_error,
    mean_squared_error,
    pinball_loss,
    r2_score,
    root_mean_squared_error,
)
from evalmetrics.worked_example import six_households

TOL = 1e-12


@pytest.fixture
def households():
    return six_households()


# ---------------------------------------------------------------------------
# worked example: six households
# ---------------------------------------------------------------------------

def test_errors_and_percentage_errors(households):
    errors = households.y_pred - households.y_true
    # Handbook: errors 2, -2, 0, -6, 3, 2.
    assert errors.tolist() == [2, -2, 0, -6, 3, 2]
    ape = np.abs(errors) / households.y_true
    # Handbook: 0.1667, 0.1000, 0, 0.2000, 0.3750, 0.0800, summing to 0.9217.
    assert [round(x, 4) for x in ape] == [0.1667, 0.1, 0.0, 0.2, 0.375, 0.08]
    assert round(ape.sum(), 4) == 0.9217


def test_mse_and_rmse(households):
    mse = mean_squared_error(households.y_true, households.y_pred)
    # Handbook: (4 + 4 + 0 + 36 + 9 + 4) / 6 = 57/6 = 9.5; RMSE = sqrt(9.5) = 3.0822.
    assert mse == float(Fraction(57, 6))
    assert mse == 9.5
    assert round(root_mean_squared_error(households.y_true, households.y_pred), 4) == 3.0822


def test_mae(households):
    # Handbook: MAE = 15/6 = 2.5.
    assert mean_absolute_error(households.y_true, households.y_pred) == 2.5


def test_mape(households):
    value = mean_absolute_percentage_error(households.y_true, households.y_pred)
    # Handbook: MAPE = 0.9217 / 6 = 0.1536; exactly (1/6 + 1/10 + 0 + 1/5 + 3/8 + 2/25) / 6.
    exact = (Fraction(1, 6) + Fraction(1, 10) + Fraction(1, 5) + Fraction(3, 8) + Fraction(2, 25)) / 6
    assert value == pytest.approx(float(exact), abs=1e-15)
    assert round(value, 4) == 0.1536


def test_r2(households):
    y = households.y_true
    # Handbook: mean 110/6 = 18.3333, SST 341.3333, R^2 = 1 - 57/341.3333 = 0.8330.
    assert round(y.mean(), 4) == 18.3333
    sst = float(np.sum((y - y.mean()) ** 2))
    assert sst == pytest.approx(float(Fraction(1024, 3)), abs=1e-12)
    assert round(sst, 4) == 341.3333
    value = r2_score(y, households.y_pred)
    assert value == pytest.approx(1 - 57 / (1024 / 3), abs=1e-15)
    assert round(value, 4) == 0.8330


def test_household_five_dominates_mape(households):
    ape = np.abs(households.y_pred - households.y_true) / households.y_true
    # Handbook: household 5 (3 kWh off a target of 8) contributes 0.375 of 0.9217.
    assert ape[4] == 0.375 and ape[4] == ape.max()


def test_best_constant_under_mse(households):
    best = best_constant(households.y_true, metric="mse")
    assert isinstance(best, BestConstant)
    # Handbook: the mean 18.3333 with MSE 56.8889 (= 512/9, the SST over 6).
    assert round(best.value, 4) == 18.3333
    assert best.loss == pytest.approx(512 / 9, abs=1e-12)
    assert round(best.loss, 4) == 56.8889


def test_best_constant_under_mae(households):
    best = best_constant(households.y_true, metric="mae")
    # Handbook: any value between the middle targets 15 and 20, MAE 6.6667 (= 40/6).
    assert (best.low, best.high, best.value) == (15.0, 20.0, 17.5)
    assert best.loss == pytest.approx(20 / 3, abs=1e-15)
    for c in (15.0, 16.2, 20.0):
        assert mean_absolute_error(households.y_true, np.full(6, c)) == pytest.approx(20 / 3, abs=1e-12)
    assert mean_absolute_error(households.y_true, np.full(6, 14.9)) > 20 / 3


def test_mape_weights_and_optimal_constant(households):
    targets = np.sort(households.y_true)
    weights = 1 / targets
    # Handbook: sorted targets 8, 12, 15, 20, 25, 30 have weights 0.125, 0.0833, 0.0667,
    # 0.05, 0.04, 0.0333, summing to 0.3983; half is 0.1992, first reached at 12.
    assert [round(w, 4) for w in weights] == [0.125, 0.0833, 0.0667, 0.05, 0.04, 0.0333]
    assert round(weights.sum(), 4) == 0.3983
    assert round(weights.sum() / 2, 4) == 0.1992
    assert mape_optimal_constant(households.y_true) == 12.0


def test_mape_and_mae_at_twelve_and_at_the_median(households):
    y = households.y_true
    # Handbook: MAPE 0.3700 at 12 against 0.4424 at the median 17.5; MAE 7.6667 at 12.
    assert round(mean_absolute_percentage_error(y, np.full(6, 12.0)), 4) == 0.3700
    assert round(mean_absolute_percentage_error(y, np.full(6, 17.5)), 4) == 0.4424
    assert mean_absolute_error(y, np.full(6, 12.0)) == pytest.approx(46 / 6, abs=1e-15)
    assert round(mean_absolute_error(y, np.full(6, 12.0)), 4) == 7.6667
    assert best_constant(y, metric="mape").loss == pytest.approx(0.37, abs=1e-15)


def test_mape_asymmetry():
    # Handbook: an under-forecast costs at most 100 % (forecast 0), three times the
    # target costs 200 %.
    assert mean_absolute_percentage_error([10.0], [0.0]) == 1.0
    assert mean_absolute_percentage_error([10.0], [30.0]) == 2.0


def test_mape_zero_target_is_huge_not_an_error():
    # Handbook: scikit-learn divides by max(|y|, eps), eps = 2.2e-16, so one zero target
    # makes the value of order 1e15.
    value = mean_absolute_percentage_error([0.0, 10.0], [1.0, 10.0])
    assert value == pytest.approx(0.5 / np.finfo(float).eps)
    assert value > 1e15


def test_negative_r2_on_test_data():
    y_test = np.array([10.0, 12.0, 14.0])
    training_mean = np.full(3, 20.0)  # a forecast made without the test data's mean
    assert r2_score(y_test, training_mean) < 0
    assert r2_score(y_test, np.full(3, y_test.mean())) == 0.0


def test_r2_is_squared_correlation_for_least_squares_fit():
    rng = np.random.default_rng(0)
    x = rng.normal(size=50)
    y = 2 * x + rng.normal(size=50)
    slope, intercept = np.polyfit(x, y, 1)
    fitted = slope * x + intercept
    assert r2_score(y, fitted) == pytest.approx(np.corrcoef(y, fitted)[0, 1] ** 2, abs=1e-12)
    # ... but not for another forecast.
    shifted = fitted + 1.0
    assert r2_score(y, shifted) != pytest.approx(np.corrcoef(y, shifted)[0, 1] ** 2, abs=1e-3)


# ---------------------------------------------------------------------------
# scikit-learn
# ---------------------------------------------------------------------------

PAIRS = [
    (mean_squared_error, "mean_squared_error"),
    (root_mean_squared_error, "root_mean_squared_error"),
    (mean_absolute_error, "mean_absolute_error"),
    (mean_absolute_percentage_error, "mean_absolute_percentage_error"),
    (r2_score, "r2_score"),
]


@pytest.mark.parametrize("ours, name", PAIRS)
@pytest.mark.parametrize("seed", range(3))
def test_matches_sklearn(ours, name, seed):
    import sklearn.metrics

    theirs = getattr(sklearn.metrics, name)
    rng = np.random.default_rng(seed)
    y = np.round(rng.gamma(2.0, 10.0, 400), 0)  # many ties, some zeros
    y_hat = np.round(y + rng.normal(0, 5, 400), 1)
    weights = rng.uniform(0, 3, 400)
    assert abs(ours(y, y_hat) - theirs(y, y_hat)) <= TOL * max(1.0, abs(theirs(y, y_hat)))
    assert abs(ours(y, y_hat, sample_weight=weights) - theirs(y, y_hat, sample_weight=weights)) <= (
        TOL * max(1.0, abs(theirs(y, y_hat, sample_weight=weights))))


def test_r2_constant_target_differs_from_sklearn():
    from sklearn.metrics import r2_score as sklearn_r2

    with pytest.warns(UndefinedMetricWarning, match="constant y_true"):
        assert np.isnan(r2_score([3.0, 3.0], [3.0, 3.0]))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(r2_score([3.0, 3.0], [2.0, 4.0]))
    # scikit-learn's convention: 1 for a perfect forecast, 0 otherwise.
    assert sklearn_r2([3.0, 3.0], [3.0, 3.0]) == 1.0
    assert sklearn_r2([3.0, 3.0], [2.0, 4.0]) == 0.0


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

targets = st.lists(st.integers(1, 40), min_size=1, max_size=30).map(lambda v: np.array(v, dtype=float))


@settings(max_examples=150, deadline=None)
@given(targets, st.integers(-50, 450))
def test_best_constants_are_minimal(y, other):
    c = other / 10.0
    constant = np.full(len(y), c)
    mse = best_constant(y, metric="mse")
    mae = best_constant(y, metric="mae")
    mape = best_constant(y, metric="mape")
    assert mse.loss <= mean_squared_error(y, constant) + 1e-9
    assert mae.loss <= mean_absolute_error(y, constant) + 1e-9
    assert mape.loss <= mean_absolute_percentage_error(y, constant) + 1e-12
    # Every point of the MAE interval attains the minimum.
    assert mean_absolute_error(y, np.full(len(y), mae.high)) == pytest.approx(mae.loss, abs=1e-9)
    assert mape.value <= mae.high  # 1/y weights pull the MAPE optimum down


@settings(max_examples=100, deadline=None)
@given(targets, st.lists(st.integers(-5, 5), min_size=30, max_size=30))
def test_rmse_at_least_mae(y, noise):
    y_hat = y + np.array(noise[: len(y)], dtype=float)
    assert root_mean_squared_error(y, y_hat) >= mean_absolute_error(y, y_hat) - 1e-12


def test_weighted_best_constant_equals_repeated_rows():
    y = np.array([8.0, 12.0, 15.0, 20.0])
    weights = np.array([1, 3, 1, 2])
    repeated = np.repeat(y, weights)
    for metric in ("mse", "mae", "mape"):
        assert best_constant(y, metric=metric, sample_weight=weights) == pytest.approx(
            best_constant(repeated, metric=metric), abs=1e-12)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------

def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        mean_squared_error([1.0, 2.0], [1.0])


def test_nan_prediction():
    with pytest.raises(ValueError, match="y_pred contains 1 NaN"):
        mean_absolute_error([1.0, 2.0], [1.0, np.nan])


def test_empty():
    with pytest.raises(ValueError, match="y_true is empty"):
        r2_score([], [])


def test_non_numeric():
    with pytest.raises(TypeError, match="y_true must contain numbers"):
        mean_squared_error(["a", "b"], [1.0, 2.0])


def test_negative_weight():
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        mean_squared_error([1.0, 2.0], [1.0, 2.0], sample_weight=[1.0, -1.0])


def test_weights_sum_to_zero():
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        mean_absolute_error([1.0, 2.0], [1.0, 2.0], sample_weight=[0.0, 0.0])


@pytest.mark.parametrize("bad", [[12.0, 0.0, 5.0], [12.0, -3.0]])
def test_mape_optimal_constant_needs_positive_targets(bad):
    with pytest.raises(ValueError, match="positive y_true"):
        mape_optimal_constant(bad)


def test_unknown_metric():
    with pytest.raises(ValueError, match="metric must be"):
        best_constant([1.0, 2.0], metric="rmsle")


def test_no_warning_for_defined_r2(households):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r2_score(households.y_true, households.y_pred)


def test_best_constants_figure(households):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.regression import plot_best_constants

    fig = plot_best_constants(households.y_true)
    assert [ax.get_title() for ax in fig.axes] == ["MSE", "MAE", "MAPE"]
    assert all(ax.get_xlabel() and ax.get_ylabel() for ax in fig.axes)
    plt.close(fig)


# ---------------------------------------------------------------------------
# the pinball loss and its best constant
# ---------------------------------------------------------------------------

def test_pinball_loss_of_the_households(households):
    y, y_hat = households.y_true, households.y_pred
    # Residuals y - y_hat = -2, 2, 0, 6, -3, -2: at alpha = 0.9 the two under-forecasts (2 and 6)
    # cost 0.9 per kWh and the three over-forecasts (2, 3, 2) 0.1, (7.2 + 0.7) / 6 = 79/60.
    assert pinball_loss(y, y_hat, alpha=0.9) == pytest.approx(float(Fraction(79, 60)), abs=1e-15)
    assert round(pinball_loss(y, y_hat, alpha=0.9), 4) == 1.3167
    # At alpha = 0.5 every unit costs one half: half the MAE 15/6.
    assert pinball_loss(y, y_hat) == 1.25 == mean_absolute_error(y, y_hat) / 2
    # alpha = 0 charges only over-forecasts (7 kWh), alpha = 1 only under-forecasts (8 kWh).
    assert pinball_loss(y, y_hat, alpha=0.0) == pytest.approx(7 / 6, abs=1e-15)
    assert pinball_loss(y, y_hat, alpha=1.0) == pytest.approx(8 / 6, abs=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_pinball_loss_matches_sklearn(seed):
    from sklearn.metrics import mean_pinball_loss

    rng = np.random.default_rng(seed)
    y = np.round(rng.gamma(2.0, 10.0, 300), 0)  # ties and zeros
    y_hat = np.round(y + rng.normal(0, 5, 300), 0)  # many exact hits
    weights = rng.integers(0, 4, 300).astype(float)
    for alpha in (0.0, 0.05, 0.5, 0.9, 1.0, float(rng.uniform())):
        for w in (None, weights):
            ours = pinball_loss(y, y_hat, alpha=alpha, sample_weight=w)
            theirs = mean_pinball_loss(y, y_hat, alpha=alpha, sample_weight=w)
            assert abs(ours - theirs) <= TOL * max(1.0, abs(theirs))


def test_best_pinball_constant_of_the_households(households):
    y = households.y_true  # sorted: 8, 12, 15, 20, 25, 30
    # alpha = 0.8: the cumulative count first reaches 0.8 * 6 = 4.8 at the fifth target, 25.
    best = best_constant(y, metric="pinball", alpha=0.8)
    assert (best.low, best.high, best.value) == (25.0, 25.0, 25.0)
    # At 25: the target 30 under-forecast by 5 at 0.8 (4), over-forecasts 17 + 13 + 10 + 5 = 45 at 0.2 (9):
    # 13 / 6.
    assert best.loss == pytest.approx(float(Fraction(13, 6)), abs=1e-15)
    # alpha = 0.5 is the median interval of the MAE, with half its loss.
    half, mae = best_constant(y, metric="pinball"), best_constant(y, metric="mae")
    assert (half.low, half.high, half.value) == (mae.low, mae.high, mae.value)
    assert half.loss == pytest.approx(mae.loss / 2, abs=1e-15)
    # alpha = 0.5 is also what best_constant(metric="pinball") assumes without alpha.
    assert best_constant(y, metric="pinball", alpha=0.5) == half


@settings(max_examples=150, deadline=None)
@given(targets, st.lists(st.integers(0, 3), min_size=30, max_size=30), st.integers(1, 99), st.integers(-50, 450))
def test_best_pinball_constant_is_the_weighted_quantile(y, weights, percent, other):
    from sklearn.metrics import mean_pinball_loss

    w = np.array(weights[: len(y)], dtype=float)
    w[0] = max(w[0], 1.0)
    alpha = percent / 100
    best = best_constant(y, metric="pinball", alpha=alpha, sample_weight=w)
    # low is NumPy's weighted inverted-CDF quantile, the first target whose cumulative weight reaches alpha.
    assert best.low == np.quantile(y, alpha, weights=w, method="inverted_cdf")
    # Every point of [low, high] attains the minimum, no constant does better, and the loss is scikit-learn's.
    for c in (best.low, best.value, best.high):
        assert mean_pinball_loss(y, np.full(len(y), c), alpha=alpha, sample_weight=w) == pytest.approx(
            best.loss, abs=1e-9)
    assert best.loss <= pinball_loss(y, np.full(len(y), other / 10.0), alpha=alpha, sample_weight=w) + 1e-9
    # Outside the interval the loss is larger.
    assert pinball_loss(y, np.full(len(y), best.low - 0.5), alpha=alpha, sample_weight=w) > best.loss + 1e-12
    assert pinball_loss(y, np.full(len(y), best.high + 0.5), alpha=alpha, sample_weight=w) > best.loss + 1e-12


def test_weighted_pinball_constant_equals_repeated_rows():
    y = np.array([8.0, 12.0, 15.0, 20.0])
    weights = np.array([1, 3, 1, 2])
    for alpha in (0.1, 0.5, 0.6, 0.9):
        assert best_constant(y, metric="pinball", alpha=alpha, sample_weight=weights) == pytest.approx(
            best_constant(np.repeat(y, weights), metric="pinball", alpha=alpha), abs=1e-12)


@pytest.mark.parametrize(("alpha", "error"), [(1.5, ValueError), (-0.1, ValueError), (np.nan, ValueError),
                                              ("0.5", TypeError), (True, TypeError)])
def test_pinball_loss_refuses_a_bad_alpha(alpha, error):
    with pytest.raises(error, match="alpha"):
        pinball_loss([1.0, 2.0], [1.0, 3.0], alpha=alpha)


@pytest.mark.parametrize("alpha", [0.0, 1.0, 1.5])
def test_best_pinball_constant_needs_alpha_strictly_inside(alpha):
    # alpha = 0 (or 1): every constant at or below the smallest (above the largest) target is best.
    with pytest.raises(ValueError, match="alpha must be strictly between 0 and 1"):
        best_constant([1.0, 2.0], metric="pinball", alpha=alpha)


def test_alpha_belongs_to_the_pinball_loss_only():
    with pytest.raises(ValueError, match='alpha applies to metric="pinball" only'):
        best_constant([1.0, 2.0], metric="mae", alpha=0.5)


# ---------------------------------------------------------------------------
# MASE
# ---------------------------------------------------------------------------

def test_mase_of_the_docstring_example(households):
    week = [14.0, 18.0, 14.0, 18.0, 22.0, 18.0, 22.0]  # six day-to-day changes of 4 kWh
    # MAE 15/6 over a scale of 4: 5/8.
    value = mean_absolute_scaled_error(households.y_true, households.y_pred, y_train=week)
    assert value == 0.625


@pytest.mark.parametrize("seasonality", [1, 7, 30])
def test_mase_is_the_mae_over_the_naive_forecasts_in_sample_mae(seasonality):
    from evalmetrics import demand_series

    sales = demand_series(seed=3)
    train, test = sales[:-100], sales[-100:]
    forecast = np.full(100, train[-28:].mean())
    # The naive forecast of day t is day t - m; its in-sample errors, written as a loop.
    naive_errors = [abs(train[t] - train[t - seasonality]) for t in range(seasonality, len(train))]
    expected = mean_absolute_error(test, forecast) / (sum(naive_errors) / len(naive_errors))
    value = mean_absolute_scaled_error(test, forecast, y_train=train, seasonality=seasonality)
    assert abs(value - expected) <= TOL
    # Days without a sale leave it finite, where MAPE explodes.
    assert np.any(test == 0) and np.isfinite(value) and mean_absolute_percentage_error(test, forecast) > 1e14


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=3, max_size=20), st.integers(1, 1000), st.integers(-50, 50))
def test_mase_has_no_units(series, factor, shift):
    series = np.array(series, dtype=float)
    if np.all(series[1:] == series[:-1]):
        return  # a constant series has no scale (tested below)
    y, forecast = series[-2:] + 1.0, series[-2:]
    value = mean_absolute_scaled_error(y, forecast, y_train=series)
    # Scaling every number by a factor (kWh to Wh) or shifting them all leaves it unchanged.
    scale, offset = factor / 7, shift / 3
    assert mean_absolute_scaled_error(y * scale + offset, forecast * scale + offset,
                                      y_train=series * scale + offset) == pytest.approx(value, rel=1e-9)


def test_mase_of_a_series_without_naive_error_is_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="repeats itself at lag seasonality"):
        assert np.isnan(mean_absolute_scaled_error([1.0, 2.0], [1.0, 1.0], y_train=[3.0, 3.0, 3.0]))
    with pytest.warns(UndefinedMetricWarning):  # a weekly series that repeats each week
        assert np.isnan(mean_absolute_scaled_error([1.0], [2.0], y_train=[1.0, 2.0, 1.0, 2.0], seasonality=2))


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    (dict(y_train=[1.0]), ValueError, "y_train needs more than seasonality=1 values, got 1"),
    (dict(y_train=[1.0, 2.0, 3.0], seasonality=3), ValueError, "y_train needs more than seasonality=3"),
    (dict(y_train=[1.0, 2.0], seasonality=0), ValueError, "seasonality must be at least 1"),
    (dict(y_train=[1.0, 2.0], seasonality=1.0), TypeError, "seasonality must be an integer"),
    (dict(y_train=[1.0, np.nan]), ValueError, "y_train contains 1 NaN"),
    (dict(y_train=["a", "b"]), TypeError, "y_train must contain numbers"),
])
def test_mase_refuses_a_bad_training_series(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        mean_absolute_scaled_error([1.0, 2.0], [1.0, 3.0], **kwargs)


def test_mase_needs_the_training_series():
    with pytest.raises(TypeError, match="y_train"):
        mean_absolute_scaled_error([1.0, 2.0], [1.0, 3.0])
