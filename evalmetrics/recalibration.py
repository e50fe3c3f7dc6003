"""Repairing probabilities: Platt scaling, isotonic regression, temperature scaling.

* :class:`PlattScaling` -- a one-feature logistic regression from a score to
  a probability, fitted by Newton's method (Platt, 1999).
* :class:`PlattCalibrated` -- wraps a model and fits Platt scaling on its
  *inner cross-validated* scores, so the calibrator never sees scores of
  rows the model was trained on.
* :func:`isotonic_regression` and :class:`IsotonicCalibration` -- the best
  non-decreasing fit by pool-adjacent-violators (PAV), and the monotone
  step map it defines from scores to probabilities.
* :class:`TemperatureScaling` -- one temperature that divides the logits
  (or log-probabilities) of two or more classes before the softmax, fitted
  by minimising the log loss (Guo et al., 2017).

Platt's and the isotonic map are monotone, so neither changes the ranking
(ROC curve, AUC) of the scores; temperature scaling keeps each row's
predicted class, and with two classes the ranking too.  They change what the
numbers mean.  Fit them on held-out or out-of-fold scores.  Measuring calibration is :mod:`evalmetrics.calibration`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from . import arrays
from ._estimators import positive_probabilities, unfitted_copy
from ._kernels.weights import scale_free
from ._typing import ArrayLike, Label
from .cross_validation import stratified_k_fold

__all__ = [
    "IsotonicCalibration",
    "PlattCalibrated",
    "PlattScaling",
    "TemperatureScaling",
    "isotonic_regression",
]


# ---------------------------------------------------------------------------
# pool-adjacent-violators
# ---------------------------------------------------------------------------

def _pav(y, w):
    """Weighted least-squares non-decreasing fit of ``y`` in the given order.

    One pass with a stack of blocks: each new value starts a block, and
    while the block below has a larger mean the two merge into their
    weighted mean.  O(n) merges in total.  Weights must be positive.
    """
    means, weights, starts = [], [], []
    for i, (value, weight) in enumerate(zip(y.tolist(), w.tolist())):
        means.append(value)
        weights.append(weight)
        starts.append(i)
        # Strict ">" : equal neighbours already satisfy monotonicity.
        while len(means) > 1 and means[-2] > means[-1]:
            total = weights[-2] + weights[-1]
            means[-2] = (weights[-2] * means[-2] + weights[-1] * means[-1]) / total
            weights[-2] = total
            del means[-1], weights[-1], starts[-1]
    lengths = np.diff(np.r_[starts, len(y)])
    return np.repeat(np.asarray(means, dtype=float), lengths)


def _positive_weights(sample_weight, n):
    weights = arrays.sample_weights(sample_weight, n)
    if weights is None:
        return np.ones(n)
    if np.any(weights == 0):
        raise ValueError("sample_weight must be positive for isotonic regression (drop zero-weight rows)")
    # The fit depends on the weights only through weighted means: at a safe scale no sum
    # of them overflows, whatever scale they came in.
    return scale_free(weights)


def isotonic_regression(y: ArrayLike, *, sample_weight: ArrayLike | None = None) -> np.ndarray:
    """Non-decreasing least-squares fit of ``y`` in the order given.

    Minimises ``sum w_i (y_i - x_i)^2`` subject to ``x_1 <= ... <= x_n`` by
    pool-adjacent-violators; equals ``sklearn.isotonic.isotonic_regression``
    and ``scipy.optimize.isotonic_regression(...).x``.

    Parameters
    ----------
    y : array_like of shape (n,)
        Values, already in the order that must become non-decreasing.
    sample_weight : array_like of shape (n,), optional
        Strictly positive weights.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    Faulty (1) or not (0) for the twelve units, in increasing order of score:

    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> isotonic_regression(u.y_true[::-1]).round(4)
    array([0.    , 0.    , 0.    , 0.    , 0.3333, 0.3333, 0.3333, 0.5   ,
           0.5   , 0.5   , 0.5   , 1.    ])
    """
    values = arrays.real_column(y, "y")
    weights = _positive_weights(sample_weight, len(values))
    return _pav(values, weights)


@dataclass(frozen=True)
class IsotonicCalibration:
    """Monotone map from scores to probabilities, fitted by isotonic regression.

    ``fit`` pools rows with equal scores (weighted mean outcome), runs PAV
    over the distinct scores in increasing order and stores them as
    ``thresholds`` with fitted ``values``.  ``transform`` evaluates the map:
    ``interpolation="step"`` (default) takes the value of the largest
    threshold at or below the score, a piecewise-constant monotone map;
    ``"linear"`` interpolates between thresholds as scikit-learn's
    ``IsotonicRegression`` does.  Scores outside the fitted range are
    clipped to it (``out_of_bounds="clip"`` in scikit-learn).

    Parameters
    ----------
    interpolation : {"step", "linear"}, default "step"
        How :meth:`transform` evaluates the map between thresholds.

    Attributes
    ----------
    thresholds : ndarray
        The distinct fitted scores, increasing (None until :meth:`fit`).
    values : ndarray
        The fitted, non-decreasing value at each threshold.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> iso = IsotonicCalibration().fit(u.y_score, u.y_true)
    >>> iso.transform([0.05, 0.40, 0.60, 0.99]).round(4)
    array([0.    , 0.3333, 0.3333, 1.    ])
    """

    thresholds: np.ndarray | None = None
    values: np.ndarray | None = None
    interpolation: str = "step"

    def fit(self, scores: ArrayLike, y: ArrayLike, *, sample_weight: ArrayLike | None = None) -> IsotonicCalibration:
        """Fit on scores and outcomes (0/1 labels, or any real values); return a fitted copy.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores, larger meaning a larger outcome.
        y : array_like of shape (n,)
            The outcomes.
        sample_weight : array_like of shape (n,), optional
            Non-negative weights; rows of weight zero are dropped.

        Returns
        -------
        IsotonicCalibration
            A new map with ``thresholds`` and ``values`` set.
        """
        if self.interpolation not in ("step", "linear"):
            raise ValueError(f'interpolation must be "step" or "linear", got {self.interpolation!r}')
        s = arrays.scores(scores, "scores")
        target = arrays.real_column(y, "y")
        arrays.same_length(scores=s, y=target)
        weights = scale_free(arrays.sample_weights(sample_weight, len(s)))
        if weights is not None:
            # Zero-weight rows carry no information; scikit-learn drops them too.
            kept = weights > 0
            if not np.any(kept):
                raise ValueError("sample_weight sums to zero")
            s, target, weights = s[kept], target[kept], weights[kept]
        else:
            weights = np.ones(len(s))
        thresholds, group = np.unique(s, return_inverse=True)
        total = np.bincount(group, weights=weights)
        mean = np.bincount(group, weights=weights * target) / total
        return dataclasses.replace(self, thresholds=thresholds, values=_pav(mean, total))

    def transform(self, scores: ArrayLike) -> np.ndarray:
        """The fitted map at ``scores``.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,)
        """
        if self.thresholds is None:
            raise ValueError("IsotonicCalibration is not fitted; call fit(scores, y) first")
        s = arrays.scores(scores, "scores")
        if self.interpolation == "linear":
            return np.interp(s, self.thresholds, self.values)
        position = np.searchsorted(self.thresholds, s, side="right") - 1
        return self.values[np.clip(position, 0, len(self.values) - 1)]

    def predict_proba(self, scores: ArrayLike) -> np.ndarray:
        """The same as :meth:`transform`: probabilities of the positive class when fitted on 0/1 labels.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,)
        """
        return self.transform(scores)


# ---------------------------------------------------------------------------
# Platt scaling
# ---------------------------------------------------------------------------

def _log_sigmoid(eta):
    return -np.logaddexp(0.0, -eta)


def _newton_logistic(z, t, w, *, max_iter=100):
    """Maximise the weighted Bernoulli log-likelihood of targets ``t`` in [0, 1]
    for ``p = sigmoid(a z + b)``.  Newton steps with step halving, so every
    iteration decreases the loss even far from the optimum."""
    def loss(theta):
        eta = theta[0] * z + theta[1]
        return float(np.sum(w * (np.logaddexp(0.0, eta) - t * eta)))

    mean_t = float(np.average(t, weights=w))
    theta = np.array([0.0, np.log(mean_t / (1.0 - mean_t))])
    current = loss(theta)
    design = np.column_stack([z, np.ones_like(z)])
    for _ in range(max_iter):
        p = np.exp(_log_sigmoid(theta[0] * z + theta[1]))
        gradient = design.T @ (w * (p - t))
        hessian = design.T @ (design * (w * p * (1.0 - p))[:, None])
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        # Near the optimum a full step lowers the loss by less than its rounding, so
        # "no worse" allows that rounding; demanding a strict decrease would halve the
        # steps away and stop with a gradient of 1e-7 instead of 1e-14.
        slack = 8 * np.finfo(float).eps * max(abs(current), 1.0)
        while True:
            candidate = theta - size * step
            value = loss(candidate)
            if value <= current + slack or size < 1e-10:
                break
            size /= 2.0
        theta, current = candidate, value
        # The scores are standardised, so an absolute tolerance is meaningful.
        if np.max(np.abs(size * step)) < 1e-13:
            break
    return theta


def _fit_platt(s, positive, w, smooth_targets):
    w = np.ones(len(s)) if w is None else w
    n_pos = float(np.sum(w[positive]))
    n_neg = float(np.sum(w[~positive]))
    if n_pos == 0 or n_neg == 0:
        raise ValueError("y must contain both classes (with positive weight) to fit Platt scaling")
    if smooth_targets:
        # Platt's (1999) targets: a Bayesian prior pulls 1 and 0 slightly inwards,
        # so perfectly separated scores still give a finite fit.
        t = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    else:
        t = positive.astype(float)
    centre = float(np.average(s, weights=w))
    spread = float(np.sqrt(np.average((s - centre) ** 2, weights=w)))
    if not smooth_targets and spread > 0:
        has = w > 0
        pos_s, neg_s = s[positive & has], s[~positive & has]
        # Complete or quasi-complete separation (classes overlap at most in one tied
        # score): the likelihood keeps rising as the slope grows, no finite maximum.
        if pos_s.min() >= neg_s.max() or neg_s.min() >= pos_s.max():
            raise ValueError(
                "the scores separate the classes perfectly, so the maximum-likelihood "
                "slope is infinite; use smooth_targets=True"
            )
    if spread == 0:
        # Constant scores carry no information: slope 0, the intercept gives the base rate.
        mean_t = float(np.average(t, weights=w))
        return 0.0, float(np.log(mean_t / (1.0 - mean_t)))
    a, b = _newton_logistic((s - centre) / spread, t, w)
    return float(a / spread), float(b - a * centre / spread)


@dataclass(frozen=True)
class PlattScaling:
    """Platt scaling: ``P(y = 1 | s) = 1 / (1 + exp(-(slope * s + intercept)))``.

    ``fit`` maximises the Bernoulli log-likelihood by Newton's method.  With
    ``smooth_targets=False`` (default) the targets are the labels 1 and 0,
    a plain logistic regression on one feature; perfectly separated scores
    then have no finite fit and raise.  ``smooth_targets=True`` uses Platt's
    targets ``(N+ + 1)/(N+ + 2)`` and ``1/(N- + 2)``, as scikit-learn's sigmoid
    calibrator (``CalibratedClassifierCV(method="sigmoid")``) does; its
    ``a, b`` are ``-slope, -intercept`` here.

    Parameters
    ----------
    smooth_targets : bool, default False
        Platt's targets instead of the labels.

    Attributes
    ----------
    slope, intercept : float
        The fitted map (None until :meth:`fit`).

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> platt = PlattScaling().fit(u.y_score, u.y_true)
    >>> round(platt.slope, 4), round(platt.intercept, 4)
    (4.6968, -3.318)
    """

    slope: float | None = None
    intercept: float | None = None
    smooth_targets: bool = False

    def fit(self, scores: ArrayLike, y: ArrayLike, *, pos_label: Label | None = None,
            sample_weight: ArrayLike | None = None) -> PlattScaling:
        """Fit on held-out scores and labels; return a fitted copy.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores of a model on rows it was not trained on.
        y : array_like of shape (n,)
            Binary labels.
        pos_label : label, optional
            The positive class, needed unless the labels are {0, 1}, {-1, 1}
            or booleans.
        sample_weight : array_like of shape (n,), optional
            Non-negative weights.

        Returns
        -------
        PlattScaling
            A new map with ``slope`` and ``intercept`` set.
        """
        positive = arrays.binary_labels(y, pos_label=pos_label, name="y")
        s = arrays.scores(scores, "scores")
        arrays.same_length(scores=s, y=positive)
        # Not scale_free: Platt's smoothed targets add one positive and one negative
        # in units of weight, so the fit depends on the scale of the weights.
        w = arrays.sample_weights(sample_weight, len(s))
        slope, intercept = _fit_platt(s, positive, w, arrays.boolean(self.smooth_targets, "smooth_targets"))
        return dataclasses.replace(self, slope=slope, intercept=intercept)

    def decision_function(self, scores: ArrayLike) -> np.ndarray:
        """The fitted log-odds ``slope * s + intercept``.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,)
        """
        if self.slope is None:
            raise ValueError("PlattScaling is not fitted; call fit(scores, y) first")
        return self.slope * arrays.scores(scores, "scores") + self.intercept

    def predict_proba(self, scores: ArrayLike) -> np.ndarray:
        """Calibrated probabilities of the positive class, shape (n,).

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,)
        """
        return np.exp(_log_sigmoid(self.decision_function(scores)))

    def transform(self, scores: ArrayLike) -> np.ndarray:
        """The same as :meth:`predict_proba`.

        Parameters
        ----------
        scores : array_like of shape (n,)
            Finite scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,)
        """
        return self.predict_proba(scores)


@dataclass(frozen=True)
class PlattCalibrated:
    """A model whose scores are mapped to probabilities by Platt scaling.

    ``fit(X, y)`` (1) computes out-of-fold ``decision_function`` scores by
    stratified ``n_folds``-fold cross-validation inside the training data,
    (2) fits :class:`PlattScaling` on them and (3) refits ``estimator`` on all
    rows.  The calibrator thus learns how the model's scores behave on rows
    it was not trained on.  Unlike scikit-learn's ``CalibratedClassifierCV``,
    which by default averages one calibrated copy per fold, there is one
    model and one map.

    ``estimator`` is any object whose ``fit(X, y)`` returns a fitted model
    with ``decision_function(X)`` or, failing that, ``predict_proba(X)``
    (as scikit-learn's ``CalibratedClassifierCV`` reads it).  It is never
    fitted itself: each fold and the final refit fit a copy
    (``sklearn.base.clone`` for a scikit-learn estimator, a copy without
    fitted state for the package's models), so two wrappers of one
    estimator do not change each other.

    Parameters
    ----------
    estimator : object
        The base model.
    n_folds : int, default 3
        Inner folds (stratified, as ``evalmetrics.stratified_k_fold``).
    seed : int, numpy.random.Generator or None, default 0
        Shuffles the inner folds like ``StratifiedKFold(shuffle=True,
        random_state=seed)`` (a generator gives one integer seed per fit);
        None keeps the rows in order.
    smooth_targets : bool, default False
        Passed to :class:`PlattScaling`.
    pos_label : label, optional
        Positive class of ``y`` when it is not {0, 1}, {-1, 1} or boolean.

    Attributes
    ----------
    fitted_estimator : object
        The estimator refitted on all rows (None until :meth:`fit`).
    calibrator : PlattScaling
        The map fitted on the out-of-fold scores.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> class Identity:  # the "model" returns the unit's score as it is
    ...     def fit(self, X, y):
    ...         return self
    ...     def decision_function(self, X):
    ...         return X[:, 0]
    >>> model = PlattCalibrated(Identity(), n_folds=2)
    >>> model = model.fit(u.y_score[:, None], u.y_true)
    >>> model.predict_proba([[0.95], [0.10]]).round(4)
    array([0.7584, 0.0548])
    """

    estimator: object
    n_folds: int = 3
    seed: int | np.random.Generator | None = 0
    smooth_targets: bool = False
    pos_label: object = None
    # Fitted state (None until fit), left out of comparisons like the models' own.
    fitted_estimator: object = field(default=None, repr=False, compare=False)
    calibrator: PlattScaling | None = field(default=None, repr=False, compare=False)

    def fit(self, X: ArrayLike, y: ArrayLike) -> PlattCalibrated:
        """Fit the model and its Platt map; return a fitted copy.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, as the estimator takes them.
        y : array_like of shape (n,)
            Binary labels (``pos_label`` names the positive one).

        Returns
        -------
        PlattCalibrated
            A new model with ``fitted_estimator`` and ``calibrator`` set.
        """
        n_folds = arrays.positive_int(self.n_folds, "n_folds", minimum=2)
        X = np.asarray(X)
        y = arrays.column(y, "y")
        positive = arrays.binary_labels(y, pos_label=self.pos_label, name="y")
        if X.shape[0] != len(y):
            raise ValueError(f"inconsistent lengths: X has {X.shape[0]} rows, y has {len(y)}")
        if min(np.sum(positive), np.sum(~positive)) < n_folds:
            raise ValueError(f"each class needs at least n_folds={n_folds} rows for the inner folds")
        # Shuffled folds when a seed is given, identical to scikit-learn's
        # StratifiedKFold(shuffle=True, random_state=seed); seed=None keeps the order.
        folds = stratified_k_fold(
            positive.astype(int), n_splits=n_folds, shuffle=self.seed is not None, seed=self.seed
        )
        scores = np.empty(len(y))
        for train, test in folds:
            model = unfitted_copy(self.estimator).fit(X[train], y[train])
            scores[test] = self._scores(model, X[test])
        slope, intercept = _fit_platt(scores, positive, None, arrays.boolean(self.smooth_targets, "smooth_targets"))
        calibrator = PlattScaling(slope, intercept, self.smooth_targets)
        return dataclasses.replace(
            self, fitted_estimator=unfitted_copy(self.estimator).fit(X, y), calibrator=calibrator
        )

    def _scores(self, model, X):
        """The model's scores of the positive class: its decision function, else its probability."""
        if hasattr(model, "decision_function"):
            return np.asarray(model.decision_function(X), dtype=float).ravel()
        if not hasattr(model, "predict_proba"):
            raise TypeError(f"estimator ({type(model).__name__}) has neither decision_function nor "
                            "predict_proba")
        return positive_probabilities(model.predict_proba(X), model, self.pos_label, "estimator")

    def _check_fitted(self):
        if self.calibrator is None:
            raise ValueError("PlattCalibrated is not fitted; call fit(X, y) first")

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Calibrated log-odds of the positive class.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, as the estimator takes them.

        Returns
        -------
        ndarray of shape (n,)
        """
        self._check_fitted()
        return self.calibrator.decision_function(self._scores(self.fitted_estimator, np.asarray(X)))

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Calibrated probabilities of the positive class, shape (n,).

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, as the estimator takes them.

        Returns
        -------
        ndarray of shape (n,)
        """
        return np.exp(_log_sigmoid(self.decision_function(X)))


# ---------------------------------------------------------------------------
# temperature scaling
# ---------------------------------------------------------------------------

def _logit_matrix(scores, name="scores"):
    """``(matrix, binary)``: 1-D log-odds become the two columns (0, s); a matrix of
    two or more columns is taken as it is.  Finite real numbers only."""
    array = arrays.real_array(scores, name)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array[:, 0]
    if array.ndim == 1:
        values = arrays.scores(array, name)
        return np.column_stack([np.zeros(len(values)), values]), True
    if array.ndim != 2:
        raise ValueError(f"{name} must be 1-D log-odds or a 2-D array with one column per class, "
                         f"got shape {array.shape}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    bad = int(np.count_nonzero(~np.isfinite(array)))
    if bad:
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s) (log-probabilities of 0? "
                         "clip the probabilities away from 0 first)")
    return array, False


def _class_codes(y, labels, n_columns, *, name="y", score_name="scores"):
    """``(y, codes)``: the column of each row's class; ``labels`` gives the column
    order (default: the sorted distinct values of ``y``, scikit-learn's ``classes_``)."""
    y = arrays.class_labels(y, name)
    if labels is None:
        classes = np.unique(y)
        if len(classes) != n_columns:
            raise ValueError(f"{score_name} has {n_columns} columns but {name} has {len(classes)} classes; "
                             "pass labels to say which class each column scores")
        return y, np.searchsorted(classes, y)
    classes = arrays.class_labels(labels, "labels")
    arrays.same_label_kind(**{name: y, "labels": classes})
    if len(np.unique(classes)) != len(classes):
        raise ValueError("labels contains duplicates")
    if len(classes) != n_columns:
        raise ValueError(f"{score_name} has {n_columns} columns but labels names {len(classes)} classes")
    order = np.argsort(classes, kind="stable")
    position = np.clip(np.searchsorted(classes[order], y), 0, len(classes) - 1)
    found = classes[order][position] == y
    if not np.all(found):
        raise ValueError(f"{name} contains {int(np.sum(~found))} row(s) whose label is not in labels, "
                         f"such as {y[~found][0]!r}")
    return y, order[position]


def _temperature_slope(beta, z, codes, w):
    """The log loss's first and second derivatives in the inverse temperature ``beta``.

    With ``p = softmax(beta z)`` each row contributes ``E_p[z] - z_y`` and
    ``Var_p[z]``: the loss is convex in ``beta``.
    """
    scaled = beta * z
    scaled -= scaled.max(axis=1, keepdims=True)
    p = np.exp(scaled)
    p /= p.sum(axis=1, keepdims=True)
    mean_score = np.sum(p * z, axis=1)
    gradient = np.sum(w * (mean_score - z[np.arange(len(z)), codes]))
    curvature = np.sum(w * np.sum(p * (z - mean_score[:, None]) ** 2, axis=1))
    return float(gradient), float(curvature)


def _fit_inverse_temperature(z, codes, w):
    """The inverse temperature minimising the weighted log loss of ``softmax(beta z)``.

    Newton's method kept inside a bracket ``[low, high]`` on which the
    derivative changes sign (bisection when a step would leave it), so it
    converges from any start; the loss is convex, so the root is the minimum.
    """
    kept = w > 0
    z, codes, w = z[kept], codes[kept], w[kept]
    # At beta = 0 every class has probability 1/K: the derivative there is the mean
    # row score minus the observed class's score.
    if not _temperature_slope(0.0, z, codes, w)[0] < 0:
        raise ValueError("the scores do not favour the observed classes (the observed class scores no "
                         "higher than the row's mean on average), so no finite temperature beats "
                         "uniform probabilities")
    if np.all(z[np.arange(len(z)), codes] >= z.max(axis=1)):
        raise ValueError("the scores separate the classes perfectly (the observed class has the largest "
                         "score in every row), so the log loss keeps falling as the temperature goes to "
                         "zero: no finite temperature fits")
    # Doubling from the scale of the scores finds a beta past the minimum.
    spread = float(np.average(np.ptp(z, axis=1), weights=w))
    low, high = 0.0, 1.0 / spread
    while _temperature_slope(high, z, codes, w)[0] < 0:
        low, high = high, 2.0 * high
    beta = (low + high) / 2.0
    for _ in range(200):
        gradient, curvature = _temperature_slope(beta, z, codes, w)
        if gradient == 0:
            break
        if gradient < 0:
            low = beta
        else:
            high = beta
        step = gradient / curvature if curvature > 0 else np.inf
        candidate = beta - step
        if not low < candidate < high:
            candidate = (low + high) / 2.0
        converged = abs(candidate - beta) <= 4 * np.finfo(float).eps * beta
        beta = candidate
        if converged or high - low <= 4 * np.finfo(float).eps * high:
            break
    return beta


def _softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class TemperatureScaling:
    """Temperature scaling: ``softmax(z / T)`` for logits ``z`` and one temperature ``T``.

    ``fit`` chooses the ``T > 0`` that minimises the (weighted) log loss of
    the observed classes, by Newton's method on ``1 / T`` (the loss is convex
    in it).  One parameter for any number of classes: ``T > 1`` softens
    overconfident probabilities, ``T < 1`` sharpens timid ones.  Every row's
    logits are divided by the same positive number, so the order of the
    classes within a row, and with it the predicted class, never changes;
    with two classes the order of the rows does not change either (the map
    is increasing), but with three or more a column's order of the rows can
    (its probability depends on the gaps to all other logits, which ``T``
    reweights).  It does not move one class against the others: a model
    that overrates a class stays so (Guo et al., 2017).

    The scores are either 1-D log-odds of the positive class (two classes;
    ``predict_proba`` then returns the positive class's probability,
    ``sigmoid(s / T)``, like :class:`PlattScaling` without its intercept), or
    a matrix with one column per class of logits or log-probabilities
    (``numpy.log`` of a ``predict_proba`` matrix: a row's constant shift does
    not change a softmax).

    scikit-learn's ``CalibratedClassifierCV(method="temperature")`` fits the
    inverse ``beta = 1 / T`` of the same loss.  For 1-D decision values ``d``
    it uses the logits ``(-d, d)``, so its ``T`` is twice this one on the same
    scores; for probabilities it takes ``log(p + 1e-12)``.

    Attributes
    ----------
    temperature : float
        Divides the logits before the softmax (None until :meth:`fit`).

    Examples
    --------
    The twelve units' scores read as probabilities are overconfident: a
    temperature above 1 pulls 0.95 and 0.10 towards one half.

    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> u = twelve_units()
    >>> log_odds = np.log(u.y_score / (1 - u.y_score))
    >>> scaling = TemperatureScaling().fit(log_odds, u.y_true)
    >>> round(scaling.temperature, 4)
    1.2461
    >>> scaling.predict_proba(np.log([0.95 / 0.05, 0.10 / 0.90])).round(4)
    array([0.914 , 0.1464])
    """

    temperature: float | None = None

    def fit(self, scores: ArrayLike, y: ArrayLike, *, labels: ArrayLike | None = None, pos_label: Label | None = None,
            sample_weight: ArrayLike | None = None) -> TemperatureScaling:
        """Fit on held-out scores and labels; return a fitted copy.

        Parameters
        ----------
        scores : array_like of shape (n,) or (n, K)
            Log-odds of the positive class, or logits (log-probabilities) of
            ``K >= 2`` classes, from rows the model was not trained on.
        y : array_like of shape (n,)
            The observed classes.
        labels : array_like of shape (K,), optional
            The class of each column of a score matrix, in column order;
            default the sorted distinct values of ``y`` (scikit-learn's
            ``classes_``).  Matrix scores only.
        pos_label : label, optional
            The positive class of 1-D log-odds, needed unless the labels are
            {0, 1}, {-1, 1} or booleans.  1-D scores only.
        sample_weight : array_like of shape (n,), optional
            Non-negative weights.

        Returns
        -------
        TemperatureScaling
            A new map with ``temperature`` set.
        """
        z, binary = _logit_matrix(scores)
        if binary:
            if labels is not None:
                raise ValueError("labels applies to a score matrix; for 1-D log-odds name the positive "
                                 "class with pos_label")
            codes = arrays.binary_labels(y, pos_label=pos_label, name="y").astype(np.intp)
        else:
            if pos_label is not None:
                raise ValueError("pos_label applies to 1-D log-odds; the columns of a score matrix are "
                                 "the classes of labels")
            y, codes = _class_codes(y, labels, z.shape[1])
        arrays.same_length(scores=z, y=codes)
        weights = scale_free(arrays.sample_weights(sample_weight, len(codes)))
        if weights is None:
            weights = np.ones(len(codes))
        elif not np.any(weights > 0):
            raise ValueError("sample_weight sums to zero")
        beta = _fit_inverse_temperature(z, codes, weights)
        return dataclasses.replace(self, temperature=float(1.0 / beta))

    def predict_proba(self, scores: ArrayLike) -> np.ndarray:
        """Calibrated probabilities: shape (n,) for 1-D log-odds, (n, K) for a matrix.

        Parameters
        ----------
        scores : array_like of shape (n,) or (n, K)
            Scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,) or (n, K)
        """
        if self.temperature is None:
            raise ValueError("TemperatureScaling is not fitted; call fit(scores, y) first")
        z, binary = _logit_matrix(scores)
        if binary:
            return np.exp(_log_sigmoid(z[:, 1] / self.temperature))
        return _softmax(z / self.temperature)

    def transform(self, scores: ArrayLike) -> np.ndarray:
        """The same as :meth:`predict_proba`.

        Parameters
        ----------
        scores : array_like of shape (n,) or (n, K)
            Scores on the scale the map was fitted on.

        Returns
        -------
        ndarray of shape (n,) or (n, K)
        """
        return self.predict_proba(scores)
