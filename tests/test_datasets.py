"""Tests of evalmetrics.datasets: the generators follow their documented models."""

import math

import numpy as np
import pytest
from scipy import stats

from evalmetrics.datasets import (
    _demand_rate,
    binormal_auc,
    binormal_curve,
    binormal_scores,
    breast_cancer,
    clustered_answers,
    demand_series,
    gaussian_classes,
)

# ---------------------------------------------------------------------------
# binormal scores
# ---------------------------------------------------------------------------

def test_binormal_layout_and_reproducibility():
    y, score = binormal_scores(140, 60, mean=1.5, seed=3)
    assert y.tolist() == [0] * 140 + [1] * 60
    y2, score2 = binormal_scores(140, 60, mean=1.5, seed=3)
    np.testing.assert_array_equal(score, score2)
    assert not np.array_equal(score, binormal_scores(140, 60, mean=1.5, seed=4)[1])


def test_binormal_moments_follow_the_model():
    y, score = binormal_scores(50_000, 50_000, mean=2.0, sd=1.5, seed=0)
    # Standard errors of the means and sds are below 0.01 with 50,000 draws.
    assert abs(score[y == 0].mean()) < 0.03 and abs(score[y == 0].std() - 1.0) < 0.03
    assert abs(score[y == 1].mean() - 2.0) < 0.03 and abs(score[y == 1].std() - 1.5) < 0.03


def test_binormal_auc_values_of_the_handbook():
    # Handbook: Phi(1.5 / sqrt 2) = 0.8556 (coverage study), Phi(sqrt 2) = 0.9214 (imbalance study),
    # Phi(2.6 / sqrt 5) = 0.8775 (model B).
    assert round(binormal_auc(1.5), 4) == 0.8556
    assert round(binormal_auc(2.0), 4) == 0.9214
    assert round(binormal_auc(2.6, sd=2.0), 4) == 0.8775
    for mean, sd in [(0.0, 1.0), (1.5, 1.0), (2.6, 2.0), (-1.0, 0.5)]:
        assert abs(binormal_auc(mean, sd=sd) - stats.norm.cdf(mean / math.sqrt(1 + sd * sd))) <= 1e-15


def test_binormal_auc_is_the_share_of_ordered_pairs():
    y, score = binormal_scores(3000, 3000, mean=1.5, seed=1)
    empirical = np.mean(score[y == 1][:, None] > score[y == 0][None, :])
    assert abs(empirical - binormal_auc(1.5)) < 0.01  # standard error about 0.004


def test_binormal_rejects_negative_size():
    with pytest.raises(ValueError, match="n_negative"):
        binormal_scores(-1, 5)


def test_binormal_rejects_no_rows():
    with pytest.raises(ValueError, match="at least 1"):
        binormal_scores(0, 0)


def test_binormal_rejects_negative_sd():
    with pytest.raises(ValueError, match="sd"):
        binormal_scores(5, 5, sd=-1.0)


def test_binormal_rejects_infinite_mean():
    with pytest.raises(ValueError, match="mean must be finite"):
        binormal_scores(5, 5, mean=np.inf)


# ---------------------------------------------------------------------------
# the exact binormal curve
# ---------------------------------------------------------------------------

def test_binormal_curve_matches_scipy():
    curve = binormal_curve(mean=2.6, sd=2.0, prevalence=0.01, n_points=101)
    t = curve.thresholds
    assert np.all(np.diff(t) < 0)
    assert np.max(np.abs(curve.false_positive_rate - stats.norm.sf(t))) <= 1e-15
    assert np.max(np.abs(curve.true_positive_rate - stats.norm.sf(t, loc=2.6, scale=2.0))) <= 1e-15
    tpr, fpr = curve.true_positive_rate, curve.false_positive_rate
    expected = 0.01 * tpr / (0.01 * tpr + 0.99 * fpr)
    assert np.max(np.abs(curve.precision - expected)) <= 1e-12


def test_binormal_curve_area_is_the_binormal_auc():
    curve = binormal_curve(mean=2.0, sd=1.0, n_points=4001)
    area = np.trapezoid(curve.true_positive_rate, curve.false_positive_rate)
    assert area == pytest.approx(stats.norm.cdf(math.sqrt(2.0)), abs=1e-6)
    assert binormal_curve().precision is None


def test_binormal_curve_prevalence_out_of_range():
    with pytest.raises(ValueError, match="prevalence"):
        binormal_curve(prevalence=1.0)


def test_binormal_curve_needs_two_points():
    with pytest.raises(ValueError, match="n_points"):
        binormal_curve(n_points=1)


# ---------------------------------------------------------------------------
# Gaussian classes
# ---------------------------------------------------------------------------

def test_gaussian_classes_sizes_and_centres():
    X, y = gaussian_classes((3000, 3000, 3000), n_features=3, separation=2.0, seed=0)
    assert X.shape == (9000, 3)
    assert np.bincount(y).tolist() == [3000, 3000, 3000]
    for k in range(3):
        angle = 2 * np.pi * k / 3
        expected = [2.0 * np.cos(angle), 2.0 * np.sin(angle), 0.0]
        np.testing.assert_allclose(X[y == k].mean(axis=0), expected, atol=0.06)  # se about 0.018


def test_gaussian_classes_default_is_the_three_class_run():
    X, y = gaussian_classes(seed=1)
    # Handbook: three classes of 1,500, 400 and 100 examples.
    assert np.bincount(y).tolist() == [1500, 400, 100]
    assert X.shape == (2000, 2)


def test_gaussian_classes_rejects_one_class():
    with pytest.raises(ValueError, match="at least two classes"):
        gaussian_classes((100,))


def test_gaussian_classes_rejects_empty_class():
    with pytest.raises(ValueError, match="sizes"):
        gaussian_classes((100, 0))


def test_gaussian_classes_rejects_one_feature():
    with pytest.raises(ValueError, match="n_features"):
        gaussian_classes(n_features=1)


# ---------------------------------------------------------------------------
# clustered answers
# ---------------------------------------------------------------------------

def test_clustered_answers_layout():
    person, correct = clustered_answers(seed=0)
    assert person.tolist() == np.repeat(np.arange(30), 20).tolist()
    assert set(np.unique(correct).tolist()) <= {0, 1}


def test_people_differ_more_than_chance_allows():
    person, correct = clustered_answers(200, 50, seed=2)
    per_person = correct.reshape(200, 50).mean(axis=1)
    p = correct.mean()
    # Without person effects the per-person accuracies would vary like binomial(50, p) / 50.
    assert per_person.var() > 3 * p * (1 - p) / 50


def test_fresh_groups_vary_more_than_a_binomial_of_answers():
    accuracies = np.array([clustered_answers(seed=s)[1].mean() for s in range(400)])
    p = accuracies.mean()
    assert 0.58 < p < 0.68  # the documented average of about 0.63
    assert accuracies.std() > 1.5 * math.sqrt(p * (1 - p) / 600)


def test_clustered_answers_rejects_zero_people():
    with pytest.raises(ValueError, match="n_people"):
        clustered_answers(0)


# ---------------------------------------------------------------------------
# demand series
# ---------------------------------------------------------------------------

def test_demand_series_expects_96_days_without_a_sale():
    # Handbook: two years of daily sales with 96 days without a sale.
    expected = np.exp(-_demand_rate(np.arange(730))).sum()
    assert round(expected) == 96
    zero_days = [int(np.sum(demand_series(seed=s) == 0)) for s in range(200)]
    assert abs(np.mean(zero_days) - expected) < 2.0  # sd of a single count about 8.7


def test_demand_series_counts_and_trend():
    sales = demand_series(seed=1)
    assert sales.shape == (730,) and sales.dtype == float
    assert np.all(sales >= 0) and np.all(sales == np.round(sales))
    assert sales[365:].mean() > sales[:365].mean()


def test_demand_series_rejects_zero_days():
    with pytest.raises(ValueError, match="n_days"):
        demand_series(0)


# ---------------------------------------------------------------------------
# breast cancer
# ---------------------------------------------------------------------------

def test_breast_cancer_has_malignant_as_positive():
    X, y = breast_cancer()
    # Handbook: 569 tumours, 30 features, 212 malignant (37.3 %).
    assert X.shape == (569, 30)
    assert int(y.sum()) == 212 and round(y.mean(), 3) == 0.373
    from sklearn.datasets import load_breast_cancer

    data = load_breast_cancer()
    assert list(data.target_names) == ["malignant", "benign"]
    np.testing.assert_array_equal(y, data.target == 0)
