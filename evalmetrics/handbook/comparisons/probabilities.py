"""Checks of the probabilities: calibration and recalibration.

Covers :mod:`evalmetrics.calibration` and :mod:`evalmetrics.recalibration`
(the chapters ``book/calibration.md`` and ``book/brier-decomposition.md``): the Brier
score, the log loss, reliability curves, CORP, isotonic regression, Platt scaling and
temperature scaling, against ``brier_score_loss``, ``log_loss``, ``calibration_curve``,
``IsotonicRegression``, ``LogisticRegression`` and ``CalibratedClassifierCV``.
"""

from __future__ import annotations

import importlib
import warnings
from functools import partial

import numpy as np

from ... import calibration, cross_validation, recalibration
from ._core import FITTED_TOLERANCE, SIGMOID_TOLERANCE, TEMPERATURE_TOLERANCE, _check, _load, _sk_metrics, _worst
from ._data import _BINARY_DATA, _binary_check, _class_sets, _features

# ---------------------------------------------------------------------------
# probabilities: calibration and recalibration
# ---------------------------------------------------------------------------

_binary_check("brier_score", "sklearn.metrics.brier_score_loss", lambda d: [
    (calibration.brier_score(d.y_true, d.y_prob, **d.ours()),
     _sk_metrics().brier_score_loss(d.y_true, d.y_prob, **d.theirs()))])


def _log_loss(d):
    # scikit-learn reads one column as the probability of the larger label, which
    # for ("ok", "faulty") is "ok": hand it 0/1 outcomes instead.
    y = (d.y_true == d.label).astype(int)
    return [(calibration.log_loss(d.y_true, d.y_prob, **d.ours()),
             _sk_metrics().log_loss(y, d.y_prob, sample_weight=d.sample_weight))]


_binary_check("log_loss", "sklearn.metrics.log_loss (both clip at the float64 epsilon)", _log_loss,
              _BINARY_DATA + "; exact 0 and 1 among the probabilities")


def _decomposition(d):
    parts = calibration.brier_decomposition(d.y_true, d.y_prob, pos_label=d.pos_label)
    return [(parts.reliability - parts.resolution + parts.uncertainty,
             _sk_metrics().brier_score_loss(d.y_true, d.y_prob, pos_label=d.label))]


_binary_check("brier_decomposition", "REL − RES + UNC against sklearn.metrics.brier_score_loss", _decomposition,
              _BINARY_DATA + " (weights ignored)")


def _reliability(d, strategy):
    calibration_curve = _load("sklearn.calibration.calibration_curve")
    pairs = []
    for n_bins in (3, 5, 10):
        curve = calibration.reliability_curve(d.y_true, d.y_prob, n_bins=n_bins, strategy=strategy,
                                              pos_label=d.pos_label)
        prob_true, prob_pred = calibration_curve(d.y_true, d.y_prob, n_bins=n_bins, strategy=strategy,
                                                 pos_label=d.label)
        pairs += [(curve.mean_predicted, prob_pred), (curve.fraction_positive, prob_true)]
    return pairs


for _strategy in ("uniform", "quantile"):
    _binary_check(f'reliability_curve(strategy="{_strategy}")',
                  f'sklearn.calibration.calibration_curve(strategy="{_strategy}"), fields swapped',
                  partial(_reliability, strategy=_strategy), _BINARY_DATA + "; 3, 5, 10 bins (weights ignored)")


def _corp(d):
    y = (d.y_true == d.label).astype(float)
    corp = calibration.corp_reliability(d.y_true, d.y_prob, pos_label=d.pos_label)
    fitted = _load("sklearn.isotonic.IsotonicRegression")(out_of_bounds="clip").fit(d.y_prob, y).predict(d.y_prob)
    brier = _sk_metrics().brier_score_loss
    return [(corp.recalibrated, fitted), (corp.miscalibration, brier(y, d.y_prob) - brier(y, fitted))]


_binary_check("corp_reliability", "sklearn.isotonic.IsotonicRegression on (y_prob, y_true)", _corp,
              _BINARY_DATA + " (weights ignored)")


def _isotonic(d):
    w = None if d.sample_weight is None else d.sample_weight + 0.5  # PAV needs positive weights
    pairs = []
    for y in ((d.y_true == d.label).astype(float), d.y_score):
        ours = recalibration.isotonic_regression(y, sample_weight=w)
        pairs += [(ours, _load("sklearn.isotonic.isotonic_regression")(y, sample_weight=w)),
                  (ours, _load("scipy.optimize.isotonic_regression")(y, weights=w).x)]
    return pairs


_binary_check("isotonic_regression", "sklearn.isotonic.isotonic_regression, scipy.optimize.isotonic_regression",
              _isotonic, "0/1 and real targets with ties, half weighted", kind="model")


def _isotonic_calibration(d):
    y = (d.y_true == d.label).astype(float)
    grid = np.linspace(d.y_score.min() - 1.0, d.y_score.max() + 1.0, 301)
    ours = recalibration.IsotonicCalibration(interpolation="linear").fit(d.y_score, y, sample_weight=d.sample_weight)
    theirs = _load("sklearn.isotonic.IsotonicRegression")(out_of_bounds="clip")
    return [(ours.transform(grid), theirs.fit(d.y_score, y, sample_weight=d.sample_weight).predict(grid))]


_binary_check('IsotonicCalibration(interpolation="linear")',
              'sklearn.isotonic.IsotonicRegression(out_of_bounds="clip")',
              _isotonic_calibration, _BINARY_DATA + "; a grid beyond the fitted range", kind="model")

_GRID = np.linspace(-4.0, 4.0, 81)


def _platt(d):
    ours = recalibration.PlattScaling().fit(d.y_score, d.y_true, **d.ours())
    theirs = _load("sklearn.linear_model.LogisticRegression")(C=np.inf, solver="newton-cholesky", tol=1e-12)
    theirs.fit(d.y_score[:, None], d.y_true == d.label, sample_weight=d.sample_weight)
    return [(ours.predict_proba(_GRID), theirs.predict_proba(_GRID[:, None])[:, 1])]


def identity_classifier(scores, y):
    """A fitted scikit-learn classifier whose decision function is its features.

    Wrapped in ``sklearn.frozen.FrozenEstimator``, it lets scikit-learn's
    ``CalibratedClassifierCV`` calibrate given scores, as evalmetrics'
    recalibrators do: one feature is the decision function of two classes,
    several are the logits of as many classes (in the order of ``classes_``).

    Parameters
    ----------
    scores : ndarray of shape (n,) or (n, K)
    y : array_like of shape (n,)
        The labels; their distinct values become ``classes_``.

    Returns
    -------
    sklearn.base.ClassifierMixin

    Examples
    --------
    >>> import numpy as np
    >>> model = identity_classifier(np.array([-1.0, 2.0]), np.array([0, 1]))
    >>> model.decision_function([[0.5]]), model.predict([[0.5], [-0.5]])
    (array([0.5]), array([1, 0]))
    """
    base = importlib.import_module("sklearn.base")

    class Identity(base.ClassifierMixin, base.BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.unique(y)
            return self

        def decision_function(self, X):
            X = np.asarray(X, dtype=float)
            return X[:, 0] if X.shape[1] == 1 else X

        def predict(self, X):
            scores = self.decision_function(X)
            if scores.ndim == 2:
                return self.classes_[np.argmax(scores, axis=1)]
            return self.classes_[(scores > 0).astype(int)]

    return Identity().fit(scores.reshape(len(scores), -1), y)


def _platt_smoothed(d):
    y = (d.y_true == d.label).astype(int)
    ours = recalibration.PlattScaling(smooth_targets=True).fit(d.y_score, y, sample_weight=d.sample_weight)
    frozen = _load("sklearn.frozen.FrozenEstimator")(identity_classifier(d.y_score, y))
    theirs = _load("sklearn.calibration.CalibratedClassifierCV")(frozen, method="sigmoid", ensemble=False)
    with warnings.catch_warnings():
        # The weights are meant for the calibrator only, which is what scikit-learn warns it does.
        warnings.filterwarnings("ignore", message="Since FrozenEstimator", category=UserWarning)
        theirs.fit(d.y_score[:, None], y, sample_weight=d.sample_weight)
    return [(ours.predict_proba(_GRID), theirs.predict_proba(_GRID[:, None])[:, 1])]


_binary_check("PlattScaling", 'sklearn.linear_model.LogisticRegression(C=inf, solver="newton-cholesky") on the score',
              _platt, _BINARY_DATA + "; probabilities on a grid", FITTED_TOLERANCE, kind="model")
_binary_check("PlattScaling(smooth_targets=True)",
              'sklearn.calibration.CalibratedClassifierCV(FrozenEstimator(model), method="sigmoid")', _platt_smoothed,
              _BINARY_DATA + "; probabilities on a grid", SIGMOID_TOLERANCE, kind="model")


@_check("PlattCalibrated(smooth_targets=True)", 'sklearn.calibration.CalibratedClassifierCV(method="sigmoid", '
        "ensemble=False, cv=StratifiedKFold(3, shuffle=True))",
        "4 features on mixed scales, 3 seeds; scikit-learn's LogisticRegression inside", SIGMOID_TOLERANCE,
        kind="model")
def _(rng, n):
    logistic = _load("sklearn.linear_model.LogisticRegression")
    calibrated = _load("sklearn.calibration.CalibratedClassifierCV")
    folds = _load("sklearn.model_selection.StratifiedKFold")
    pairs = []
    for seed in range(3):
        X, y = _features(rng, n)
        ours = recalibration.PlattCalibrated(logistic(solver="newton-cholesky", tol=1e-12), n_folds=3, seed=seed,
                                             smooth_targets=True).fit(X, y)
        theirs = calibrated(logistic(solver="newton-cholesky", tol=1e-12), method="sigmoid", ensemble=False,
                            cv=folds(3, shuffle=True, random_state=seed)).fit(X, y)
        pairs.append((ours.predict_proba(X), theirs.predict_proba(X)[:, 1]))
    return _worst(pairs)


def _sklearn_temperature(scores, y, sample_weight=None):
    """scikit-learn's temperature calibrator of given scores (a frozen model: one map, fitted on all rows).

    The folds of ``cv`` only split rows that a frozen model predicts the same way; two of them
    need two rows of each class, where the default five warn for a rarer class.
    """
    frozen = _load("sklearn.frozen.FrozenEstimator")(identity_classifier(scores, y))
    theirs = _load("sklearn.calibration.CalibratedClassifierCV")(frozen, method="temperature", cv=2)
    with warnings.catch_warnings():
        # The weights are meant for the calibrator only, which is what scikit-learn warns it does.
        warnings.filterwarnings("ignore", message="Since FrozenEstimator", category=UserWarning)
        return theirs.fit(scores.reshape(len(scores), -1), y, sample_weight=sample_weight)


def _temperature_binary(d):
    # scikit-learn's positive class is the larger label, which for ("ok", "faulty") is "ok": give it 0/1.
    y = (d.y_true == d.label).astype(int)
    # Log-odds without an intercept to fit: centred, so that positives score above the middle on average
    # (otherwise the best temperature is infinite, which evalmetrics refuses and scikit-learn clips).
    log_odds = d.y_score - np.average(d.y_score, weights=d.sample_weight)
    ours = recalibration.TemperatureScaling().fit(log_odds, d.y_true, **d.ours())
    theirs = _sklearn_temperature(log_odds, y, d.sample_weight)
    return [(ours.predict_proba(_GRID), theirs.predict_proba(_GRID[:, None])[:, 1])]


_binary_check("TemperatureScaling", 'sklearn.calibration.CalibratedClassifierCV(FrozenEstimator(model), '
              'method="temperature")', _temperature_binary, _BINARY_DATA + "; centred scores; probabilities on a grid",
              TEMPERATURE_TOLERANCE, kind="model")


@_check("TemperatureScaling(logits of K classes)", 'sklearn.calibration.CalibratedClassifierCV(FrozenEstimator('
        'model), method="temperature")', "4 sets of 3 and 5 classes (ints, strings), half weighted; logits rounded "
        "to 1 decimal", TEMPERATURE_TOLERANCE, kind="model")
def _(rng, n):
    pairs = []
    # Two classes are the 1-D check above: scikit-learn reads a binary decision function as one column.
    for y, _, w in _class_sets(rng, n, sizes=(3, 5)):
        classes, codes = np.unique(y, return_inverse=True)
        logits = np.round(rng.normal(size=(n, len(classes))) + 1.2 * np.eye(len(classes))[codes], 1)
        ours = recalibration.TemperatureScaling().fit(logits, y, sample_weight=w)
        theirs = _sklearn_temperature(logits, y, w)
        pairs.append((ours.predict_proba(logits), theirs.predict_proba(logits)))
    return _worst(pairs)


@_check("TemperatureScaling(out-of-fold logits)", 'sklearn.calibration.CalibratedClassifierCV(LogisticRegression(), '
        'method="temperature", ensemble=False, cv=StratifiedKFold(3, shuffle=True))',
        "3 classes, 4 features on mixed scales, 2 seeds; scikit-learn's LogisticRegression inside",
        TEMPERATURE_TOLERANCE, kind="model")
def _(rng, n):
    logistic = _load("sklearn.linear_model.LogisticRegression")
    calibrated = _load("sklearn.calibration.CalibratedClassifierCV")
    folds = _load("sklearn.model_selection.StratifiedKFold")
    pairs = []
    for seed in range(2):
        X, _ = _features(rng, n)
        y = rng.integers(0, 3, n)
        X[:, :2] += y[:, None] * X[:, :2].std(axis=0)
        # ensemble=False: the calibrator is fitted on the out-of-fold logits, the model refitted on all rows.
        logits = np.empty((n, 3))
        for train, test in cross_validation.stratified_k_fold(y, n_splits=3, shuffle=True, seed=seed):
            fitted = logistic(solver="newton-cholesky", tol=1e-12).fit(X[train], y[train])
            logits[test] = fitted.decision_function(X[test])
        ours = recalibration.TemperatureScaling().fit(logits, y)
        model = logistic(solver="newton-cholesky", tol=1e-12).fit(X, y)
        theirs = calibrated(logistic(solver="newton-cholesky", tol=1e-12), method="temperature", ensemble=False,
                            cv=folds(3, shuffle=True, random_state=seed)).fit(X, y)
        pairs.append((ours.predict_proba(model.decision_function(X)), theirs.predict_proba(X)))
    return _worst(pairs)
