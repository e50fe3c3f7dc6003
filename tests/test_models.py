"""Tests of evalmetrics.models against scikit-learn."""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import StandardScaler

from evalmetrics.models import GaussianNaiveBayes, LogisticRegression
from evalmetrics.worked_example import twelve_units


def random_problem(seed, n=150, p=4):
    rng = np.random.default_rng(seed)
    # Features on very different scales and offsets: standardization must matter.
    X = rng.normal(size=(n, p)) * rng.uniform(0.1, 20, p) + rng.normal(scale=10, size=p)
    direction = rng.normal(size=p) / X.std(axis=0)
    y = (X @ direction + rng.normal(scale=1.5, size=n) > np.median(X @ direction)).astype(int)
    return X, y


def sklearn_logistic(X, y, penalty):
    scaler = StandardScaler().fit(X)
    model = SkLogisticRegression(C=1.0 / penalty, solver="newton-cholesky", tol=1e-12).fit(scaler.transform(X), y)
    return scaler, model


# ---------------------------------------------------------------------------
# logistic regression
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("penalty", [0.01, 0.1, 1.0, 10.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_logistic_matches_sklearn(penalty, seed):
    X, y = random_problem(seed)
    ours = LogisticRegression(penalty=penalty).fit(X, y)
    scaler, theirs = sklearn_logistic(X, y, penalty)
    X_new = random_problem(seed + 100)[0]
    assert np.max(np.abs(ours.predict_proba(X_new) - theirs.predict_proba(scaler.transform(X_new))[:, 1])) <= 1e-8
    assert np.max(np.abs(ours.weights - theirs.coef_[0])) <= 1e-7
    assert abs(ours.intercept - theirs.intercept_[0]) <= 1e-7


def test_logistic_matches_sklearn_on_breast_cancer():
    X, target = load_breast_cancer(return_X_y=True)
    y = (target == 0).astype(int)  # malignant = 1
    ours = LogisticRegression(penalty=1.0).fit(X, y)
    scaler, theirs = sklearn_logistic(X, y, 1.0)
    assert np.max(np.abs(ours.predict_proba(X) - theirs.predict_proba(scaler.transform(X))[:, 1])) <= 1e-8
    assert np.max(np.abs(ours.decision_function(X) - theirs.decision_function(scaler.transform(X)))) <= 1e-6


def test_logistic_probability_is_sigmoid_of_decision_function():
    X, y = random_problem(4)
    model = LogisticRegression().fit(X, y)
    z = model.decision_function(X)
    np.testing.assert_allclose(model.predict_proba(X), 1 / (1 + np.exp(-z)), rtol=1e-14, atol=1e-16)


def test_logistic_gradient_is_zero_at_the_fit():
    X, y = random_problem(5)
    model = LogisticRegression(penalty=2.0).fit(X, y)
    Z = (X - model.feature_mean) / model.feature_scale
    residual = model.predict_proba(X) - y
    assert abs(residual.sum()) <= 1e-9
    np.testing.assert_allclose(Z.T @ residual + 2.0 * model.weights, 0, atol=1e-9)


def test_logistic_with_string_labels_and_pos_label():
    X, y = random_problem(6)
    labels = np.where(y == 1, "spam", "ham")
    as_strings = LogisticRegression().fit(X, labels, pos_label="spam")
    as_numbers = LogisticRegression().fit(X, y)
    np.testing.assert_array_equal(as_strings.predict_proba(X), as_numbers.predict_proba(X))


def test_logistic_with_minus_one_plus_one_labels():
    X, y = random_problem(7)
    np.testing.assert_array_equal(LogisticRegression().fit(X, 2 * y - 1).predict_proba(X),
                                  LogisticRegression().fit(X, y).predict_proba(X))


def test_logistic_constant_feature_is_harmless():
    X, y = random_problem(8)
    X = np.column_stack([X, np.full(len(y), 3.0)])
    model = LogisticRegression().fit(X, y)
    assert model.weights[-1] == pytest.approx(0.0, abs=1e-12)


def test_fit_returns_a_fitted_copy():
    X, y = random_problem(9)
    model = LogisticRegression(penalty=0.5)
    fitted = model.fit(X, y)
    assert model.weights is None and fitted.weights is not None
    assert fitted.penalty == 0.5 and fitted == model  # options compare, fitted state does not
    with pytest.raises(dataclasses.FrozenInstanceError):
        fitted.penalty = 2.0


def test_logistic_on_the_twelve_units_ranks_like_the_scores():
    units = twelve_units()
    X = units.y_score.reshape(-1, 1)
    p = LogisticRegression().fit(X, units.y_true).predict_proba(X)
    assert np.all(np.diff(p) <= 0)  # a monotone map of one feature keeps the order


def test_unpenalized_fit_on_separable_data_warns():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    with pytest.warns(RuntimeWarning, match="did not converge"):
        LogisticRegression(penalty=0.0, max_iter=20).fit(X, [0, 0, 1, 1])


# ---------------------------------------------------------------------------
# Gaussian naive Bayes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-3])
def test_naive_bayes_matches_sklearn(seed, var_smoothing):
    X, y = random_problem(seed, p=6)
    ours = GaussianNaiveBayes(var_smoothing=var_smoothing).fit(X, y)
    theirs = GaussianNB(var_smoothing=var_smoothing).fit(X, y)
    X_new = random_problem(seed + 50, p=6)[0]
    assert np.max(np.abs(ours.predict_proba(X_new) - theirs.predict_proba(X_new)[:, 1])) <= 1e-12
    np.testing.assert_allclose(ours.theta, theirs.theta_, rtol=1e-14)
    np.testing.assert_allclose(ours.var, theirs.var_, rtol=1e-14)


def test_naive_bayes_matches_sklearn_on_breast_cancer():
    X, target = load_breast_cancer(return_X_y=True)
    y = (target == 0).astype(int)
    ours = GaussianNaiveBayes().fit(X, y)
    theirs = GaussianNB().fit(X, y)
    assert np.max(np.abs(ours.predict_proba(X) - theirs.predict_proba(X)[:, 1])) <= 1e-12


def test_naive_bayes_decision_function_is_the_log_odds():
    X, y = random_problem(3, p=3)
    ours = GaussianNaiveBayes().fit(X, y)
    log_proba = GaussianNB().fit(X, y).predict_log_proba(X)
    np.testing.assert_allclose(ours.decision_function(X), log_proba[:, 1] - log_proba[:, 0], rtol=1e-9, atol=1e-9)


def test_naive_bayes_priors_of_the_twelve_units():
    units = twelve_units()
    model = GaussianNaiveBayes().fit(units.y_score.reshape(-1, 1), units.y_true)
    # Eight working and four faulty units: priors 2/3 and 1/3.
    np.testing.assert_allclose(model.class_prior, [2 / 3, 1 / 3], rtol=1e-15)


def test_naive_bayes_with_pos_label():
    X, y = random_problem(2)
    labels = np.where(y == 1, "malignant", "benign")
    np.testing.assert_array_equal(GaussianNaiveBayes().fit(X, labels, pos_label="malignant").predict_proba(X),
                                  GaussianNaiveBayes().fit(X, y).predict_proba(X))


# ---------------------------------------------------------------------------
# bad input: one test per case
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("model", [LogisticRegression(), GaussianNaiveBayes()], ids=["logistic", "bayes"])
class TestBadInput:
    def test_rejects_1d_features(self, model):
        with pytest.raises(ValueError, match="X must be a 2-D array"):
            model.fit(np.arange(10.0), [0, 1] * 5)

    def test_rejects_3d_features(self, model):
        with pytest.raises(ValueError, match="X must be a 2-D array"):
            model.fit(np.zeros((10, 2, 2)), [0, 1] * 5)

    def test_rejects_nan_features(self, model):
        X = np.ones((10, 2))
        X[3, 1] = np.nan
        with pytest.raises(ValueError, match="X contains 1 NaN"):
            model.fit(X, [0, 1] * 5)

    def test_rejects_non_numeric_features(self, model):
        with pytest.raises(TypeError, match="X must contain numbers"):
            model.fit([["a", "b"], ["c", "d"]], [0, 1])

    def test_rejects_mismatched_rows(self, model):
        with pytest.raises(ValueError, match="inconsistent lengths"):
            model.fit(np.ones((10, 2)), [0, 1] * 4)

    def test_rejects_three_classes(self, model):
        with pytest.raises(ValueError, match="y is not binary"):
            model.fit(np.ones((9, 2)), [0, 1, 2] * 3)

    def test_rejects_string_labels_without_pos_label(self, model):
        with pytest.raises(ValueError, match="pass pos_label"):
            model.fit(np.ones((4, 2)), ["a", "b", "a", "b"])

    def test_rejects_a_single_class(self, model):
        with pytest.raises(ValueError, match="only one class"):
            model.fit(np.random.default_rng(0).normal(size=(5, 2)), [1] * 5)

    def test_rejects_prediction_before_fit(self, model):
        with pytest.raises(ValueError, match="not fitted"):
            model.predict_proba(np.ones((3, 2)))

    def test_rejects_wrong_number_of_features(self, model):
        X, y = random_problem(0, p=3)
        with pytest.raises(ValueError, match="X has 2 features, but the model was fitted on 3"):
            model.fit(X, y).predict_proba(X[:, :2])


def test_logistic_rejects_negative_penalty():
    with pytest.raises(ValueError, match="penalty"):
        LogisticRegression(penalty=-1.0)


def test_logistic_rejects_zero_tolerance():
    with pytest.raises(ValueError, match="tol must be a finite positive number"):
        LogisticRegression(tol=0.0)


def test_logistic_rejects_zero_iterations():
    with pytest.raises(ValueError, match="max_iter"):
        LogisticRegression(max_iter=0)


def test_naive_bayes_rejects_negative_smoothing():
    with pytest.raises(ValueError, match="var_smoothing"):
        GaussianNaiveBayes(var_smoothing=-1e-9)


# ---------------------------------------------------------------------------
# column names of a table: remembered at fit, checked at predict (generated)
# ---------------------------------------------------------------------------

class Table:
    """The part of a pandas DataFrame the models read: ``columns`` and the array
    (pandas is no dependency of the package, nor of its tests)."""

    def __init__(self, data, columns):
        self.data, self.columns = np.asarray(data, dtype=float), list(columns)

    def __array__(self, dtype=None, copy=None):
        return self.data if dtype is None else self.data.astype(dtype)

    def __len__(self):
        return len(self.data)


MODELS = [LogisticRegression(), GaussianNaiveBayes()]
names = st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=5, unique=True)


@pytest.mark.parametrize("model", MODELS, ids=["logistic", "bayes"])
@settings(max_examples=25, deadline=None)
@given(columns=names, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_other_columns_than_at_fit_are_refused(model, columns, seed, data):
    X, y = random_problem(seed % 1000, n=60, p=len(columns))
    fitted = model.fit(Table(X, columns), y)
    assert list(fitted.feature_names_in_) == columns
    # The same columns in the same order: the array's predictions.
    np.testing.assert_array_equal(fitted.predict_proba(Table(X, columns)), model.fit(X, y).predict_proba(X))
    change = data.draw(st.sampled_from(["reordered", "renamed", "missing", "extra"]))
    order = list(range(len(columns)))
    if change == "reordered":
        order = data.draw(st.permutations(order).filter(lambda o: o != sorted(o)))
        other, values = [columns[i] for i in order], X[:, order]
    elif change == "renamed":
        at = data.draw(st.integers(0, len(columns) - 1))
        new = data.draw(st.text(min_size=1, max_size=6).filter(lambda n: n not in columns))
        other, values = columns[:at] + [new] + columns[at + 1:], X
    elif change == "missing":
        at = data.draw(st.integers(0, len(columns) - 1))
        other, values = columns[:at] + columns[at + 1:], np.delete(X, at, axis=1)
    else:
        new = data.draw(st.text(min_size=1, max_size=6).filter(lambda n: n not in columns))
        other, values = columns + [new], np.column_stack([X, X[:, 0]])
    for method in (fitted.predict_proba, fitted.decision_function):
        with pytest.raises(ValueError, match=r"^X has other feature names than the .* fitted on") as caught:
            method(Table(values, other))
        assert str(columns) in str(caught.value)


@pytest.mark.parametrize("model", MODELS, ids=["logistic", "bayes"])
def test_names_that_appear_or_vanish_warn_as_in_scikit_learn(model):
    X, y = random_problem(3, p=2)
    with pytest.warns(UserWarning, match="X has no feature names, but this .* was fitted with"):
        model.fit(Table(X, ["a", "b"]), y).predict_proba(X)
    with pytest.warns(UserWarning, match="X has feature names, but this .* was fitted without them"):
        model.fit(X, y).predict_proba(Table(X, ["a", "b"]))
    # Names that are not all strings are no names, as in scikit-learn.
    assert model.fit(Table(X, [0, 1]), y).feature_names_in_ is None


# ---------------------------------------------------------------------------
# features near the largest float (generated)
# ---------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 999), column=st.integers(0, 2), power=st.integers(-8, 307),
       mantissa=st.floats(1.0, 1.79))
def test_logistic_regression_does_not_depend_on_the_unit_of_a_feature(seed, column, power, mantissa):
    # The features are standardized inside the model, so rescaling one of them
    # (up to values near the largest float) changes no probability.  (Not below
    # 1e-8: a spread under about 1e-14 counts as a constant feature, as in
    # scikit-learn's StandardScaler.)
    X, y = random_problem(seed, n=80, p=3)
    X = X / np.max(np.abs(X), axis=0)  # every feature in [-1, 1]
    factor = mantissa * 10.0**power
    scaled = X.copy()
    scaled[:, column] *= factor
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow, no underflow warning
        reference = LogisticRegression().fit(X, y)
        model = LogisticRegression().fit(scaled, y)
        probabilities = model.predict_proba(scaled)
    np.testing.assert_allclose(probabilities, reference.predict_proba(X), rtol=0, atol=1e-9)
    np.testing.assert_allclose(model.weights, reference.weights, rtol=1e-9, atol=1e-12)
    assert model.weights[column] != 0.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 999), power=st.one_of(st.integers(0, 140), st.integers(160, 307)))
def test_naive_bayes_refuses_a_variance_beyond_the_largest_float(seed, power):
    # Gaussian naive Bayes keeps variances in the features' units: up to 1e280 they are
    # numbers, from 1e320 on beyond any float (the powers between are left out: there the
    # answer depends on the rounding of the sum of squares).
    X, y = random_problem(seed, n=80, p=3)
    X = X / np.max(np.abs(X), axis=0)
    X[:, 1] *= 10.0**power
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if power <= 140:
            assert np.all(np.isfinite(GaussianNaiveBayes().fit(X, y).predict_proba(X)))
        else:
            with pytest.raises(ValueError, match="^X: the variance of feature 1 .* beyond the largest float"):
                GaussianNaiveBayes().fit(X, y)
