"""The two classifiers the handbook evaluates, in plain NumPy.

* :class:`LogisticRegression` -- an L2-penalized logistic regression on
  features standardized inside the model, fitted by Newton's method.
* :class:`GaussianNaiveBayes` -- one normal distribution per class and
  feature, multiplied as if the features were independent.

Both are frozen dataclasses: the unfitted object holds the options,
``fit(X, y)`` returns a fitted *copy* (the original is never changed), and
the fitted copy has ``predict_proba(X)``, the 1-D probabilities of the
positive class, and ``decision_function(X)``, the log-odds.  Labels are
{0, 1}, {-1, 1} or booleans, or any two labels with ``pos_label``.

Fitted on a table with column names (a pandas or polars DataFrame: anything
with a ``columns`` attribute of strings), a model remembers them in
``feature_names_in_``, as scikit-learn does, and refuses to predict for
columns that are reordered, renamed, missing or extra.  pandas is never
imported: the names are read from ``X.columns``.

They reproduce scikit-learn: ``LogisticRegression(penalty=lam)`` is
``StandardScaler`` followed by ``sklearn.linear_model.LogisticRegression(
C=1/lam)``, and ``GaussianNaiveBayes()`` is ``sklearn.naive_bayes.GaussianNB()``.
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field

import numpy as np

from . import arrays
from ._typing import ArrayLike, Label

__all__ = ["GaussianNaiveBayes", "LogisticRegression"]


# ---------------------------------------------------------------------------
# shared validation
# ---------------------------------------------------------------------------

def _feature_names(X):
    """The column names of a table (all strings), or None for an array or other names.

    As scikit-learn, only string names count: a DataFrame with integer
    column labels (0, 1, ...) is read like an array.
    """
    columns = getattr(X, "columns", None)
    if columns is None or isinstance(X, np.ndarray):
        return None
    names = [name for name in columns]
    if not names or not all(isinstance(name, str) for name in names):
        return None
    return np.array(names, dtype=object)


def _check_feature_names(model, X):
    """Refuse columns other than the fitted ones; warn (as scikit-learn) when names appear or vanish."""
    fitted = model.feature_names_in_
    given = _feature_names(X)
    name = type(model).__name__
    if fitted is None and given is None:
        return
    if fitted is None:
        warnings.warn(f"X has feature names, but this {name} was fitted without them", UserWarning,
                      stacklevel=4)
        return
    if given is None:
        warnings.warn(f"X has no feature names, but this {name} was fitted with {list(fitted)}; its "
                      "columns are taken in that order", UserWarning, stacklevel=4)
        return
    if len(given) == len(fitted) and np.all(given == fitted):
        return
    missing = [n for n in fitted if n not in set(given)]
    unexpected = [n for n in given if n not in set(fitted)]
    if not missing and not unexpected:
        fault = f"the same columns in another order: {list(given)}, fitted on {list(fitted)}"
    else:
        fault = "; ".join(part for part in (
            f"missing {missing}" if missing else "", f"not seen in fit {unexpected}" if unexpected else "")
            if part)
    raise ValueError(f"X has other feature names than the {name} was fitted on: {fault}; pass the "
                     f"columns {list(fitted)} in that order")


def _power_of_two_scale(X):
    """Per column a power of two near its largest magnitude (1 for a column of zeros):
    dividing by it is exact, and brings values up to the largest float into [-2, 2]."""
    largest = np.max(np.abs(X), axis=0)
    exponent = np.frexp(np.where(largest > 0, largest, 1.0))[1]
    return np.ldexp(1.0, exponent - 1)  # 2**1023 at most: 2**1024 is no float


def _features(X, n_features=None):
    """X as a finite 2-D float array (with the fitted number of columns)."""
    if X is None:
        raise TypeError("X is required, got None")
    X = arrays.real_array(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (rows, features), got shape {X.shape}")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"X is empty (shape {X.shape})")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"X contains {int(np.sum(~np.isfinite(X)))} NaN or infinite value(s)")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"X has {X.shape[1]} features, but the model was fitted on {n_features}")
    return X


def _training_data(X, y, pos_label):
    X = _features(X)
    is_positive = arrays.binary_labels(y, pos_label=pos_label, name="y")
    arrays.same_length(X=X, y=is_positive)
    if is_positive.all() or not is_positive.any():
        raise ValueError("y contains only one class; a classifier needs both")
    return X, is_positive.astype(np.float64)


def _require_fitted(model, attribute):
    if getattr(model, attribute) is None:
        raise ValueError(f"this {type(model).__name__} is not fitted; call fit(X, y) and use the model it returns")


def _sigmoid(z):
    # exp(-log(1 + exp(-z))) never overflows, for either sign of z.
    return np.exp(-np.logaddexp(0.0, -z))


# ---------------------------------------------------------------------------
# logistic regression
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class LogisticRegression:
    """L2-penalized logistic regression, fitted by Newton's method.

    The features are standardized inside the model (mean 0, population
    standard deviation 1; a constant feature is only centred), and the fit
    minimizes

    ``sum_i log_loss_i + penalty / 2 * ||w||^2``

    over the weights ``w`` of the standardized features and an unpenalized
    intercept.  This is scikit-learn's ``LogisticRegression(C=1/penalty)``
    on ``StandardScaler``-transformed features.  Newton steps (with step
    halving if a step would increase the objective) continue until the
    largest step is below ``tol``.

    Parameters
    ----------
    penalty : float, default 1.0
        L2 strength lambda, at least 0.  With 0 and separable classes the
        weights grow without bound and the fit warns that it did not converge.
    tol : float, default 1e-12
        Stop when the largest Newton step is below this.
    max_iter : int, default 100
        At most this many Newton steps (the fit warns if they were not enough).

    Attributes
    ----------
    weights : ndarray of shape (p,)
        The weights of the standardized features (None until :meth:`fit`).
    intercept : float
        The intercept on the standardized scale.
    feature_mean, feature_scale : ndarray of shape (p,)
        The standardization learnt from the training rows (computed on the
        columns divided by a power of two, so a feature with values near
        the largest float is standardized like any other).
    n_iter : int
        The Newton steps the fit took.
    feature_names_in_ : ndarray of str or None
        The column names of a DataFrame ``X`` in :meth:`fit`; None for an array.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> X = units.y_score.reshape(-1, 1)
    >>> model = LogisticRegression().fit(X, units.y_true)
    >>> p = model.predict_proba(X)
    >>> bool(p[0] > p[-1])
    True
    """

    penalty: float = 1.0
    tol: float = 1e-12
    max_iter: int = 100
    # Fitted state (None until fit): weights on the standardized features.
    weights: np.ndarray | None = field(default=None, repr=False, compare=False)
    intercept: float | None = field(default=None, repr=False, compare=False)
    feature_mean: np.ndarray | None = field(default=None, repr=False, compare=False)
    feature_scale: np.ndarray | None = field(default=None, repr=False, compare=False)
    n_iter: int | None = field(default=None, repr=False, compare=False)
    feature_names_in_: np.ndarray | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        arrays.non_negative(self.penalty, "penalty")
        arrays.real(self.tol, "tol", low=0.0, low_open=True)
        arrays.positive_int(self.max_iter, "max_iter", maximum=None)  # iterations, not memory

    def fit(self, X: ArrayLike, y: ArrayLike, *, pos_label: Label | None = None) -> LogisticRegression:
        """Return a fitted copy.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, finite numbers.
        y : array_like of shape (n,)
            Binary labels; ``pos_label`` names the positive one if they are
            not {0, 1}, {-1, 1} or booleans.
        pos_label : label, optional
            The positive class.

        Returns
        -------
        LogisticRegression
            A new model with the fitted attributes set; this one is unchanged
            (the model is frozen).
        """
        names = _feature_names(X)
        X, target = _training_data(X, y, pos_label)
        # Mean and spread of each column divided by a power of two (exact): the same numbers
        # for ordinary features, and no overflow for values near the largest float.
        unit = _power_of_two_scale(X)
        unit_mean, unit_scale = (X / unit).mean(axis=0), (X / unit).std(axis=0)
        # scikit-learn's StandardScaler leaves (near-)constant features unscaled.
        constant = unit_scale < 10 * np.finfo(float).eps * np.maximum(np.abs(unit_mean), 1.0 / unit)
        unit_scale = np.where(constant, 1.0 / unit, unit_scale)
        design = np.column_stack([np.ones(len(X)), (X / unit - unit_mean) / unit_scale])
        theta, n_iter = _newton(design, target, float(self.penalty), float(self.tol), int(self.max_iter))
        return dataclasses.replace(
            self, weights=theta[1:], intercept=float(theta[0]), feature_mean=unit_mean * unit,
            feature_scale=unit_scale * unit, n_iter=n_iter, feature_names_in_=names,
        )

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The log-odds of the positive class, ``intercept + w . z``.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, the same columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n,)
        """
        _require_fitted(self, "weights")
        _check_feature_names(self, X)
        X = _features(X, len(self.weights))
        unit = _power_of_two_scale(np.vstack([self.feature_mean, self.feature_scale]))
        standardized = (X / unit - self.feature_mean / unit) / (self.feature_scale / unit)
        return self.intercept + standardized @ self.weights

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Probability of the positive class, shape (n,).

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, the same columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n,)
        """
        return _sigmoid(self.decision_function(X))


def _objective(design, target, theta, penalty):
    z = design @ theta
    return float(np.sum(np.logaddexp(0.0, z) - target * z) + 0.5 * penalty * theta[1:] @ theta[1:])


def _newton(design, target, penalty, tol, max_iter):
    """Minimize the penalized log-loss; returns (theta, iterations)."""
    n_params = design.shape[1]
    ridge = np.full(n_params, penalty)
    ridge[0] = 0.0  # the intercept is not penalized
    theta = np.zeros(n_params)
    current = _objective(design, target, theta, penalty)
    for iteration in range(1, max_iter + 1):
        p = _sigmoid(design @ theta)
        gradient = design.T @ (p - target) + ridge * theta
        hessian = (design * (p * (1.0 - p))[:, None]).T @ design + np.diag(ridge)
        try:
            step = np.linalg.solve(hessian, gradient)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        # Halve the step while it increases the objective (rare: far from the optimum).
        length = 1.0
        for _ in range(30):
            candidate = theta - length * step
            value = _objective(design, target, candidate, penalty)
            if value <= current + 1e-12 * abs(current):
                break
            length /= 2
        theta, current = candidate, value
        if np.max(np.abs(length * step)) < tol * max(1.0, np.max(np.abs(theta))):
            return theta, iteration
    warnings.warn(
        f"Newton's method did not converge in {max_iter} iterations "
        "(separable classes with penalty=0?); increase max_iter or penalty",
        RuntimeWarning,
        stacklevel=3,
    )
    return theta, max_iter


# ---------------------------------------------------------------------------
# Gaussian naive Bayes
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GaussianNaiveBayes:
    """Gaussian naive Bayes for two classes.

    Each class c has a prior (its share of the training rows) and, per
    feature, the class mean and the population variance plus
    ``var_smoothing`` times the largest variance of any feature over all
    rows (which keeps a constant feature from dividing by zero).  The
    log-likelihood of a row sums the per-feature normal log-densities, as if
    the features were independent given the class.  Identical to
    scikit-learn's ``GaussianNB(var_smoothing=...)``.

    Parameters
    ----------
    var_smoothing : float, default 1e-9
        Share of the largest feature variance added to every variance.

    Attributes
    ----------
    class_prior : ndarray of shape (2,)
        The share of each class in the training rows, negative class first
        (None until :meth:`fit`).
    theta, var : ndarray of shape (2, p)
        The mean and smoothed variance of each feature in each class.
    feature_names_in_ : ndarray of str or None
        The column names of a DataFrame ``X`` in :meth:`fit`; None for an array.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> X = units.y_score.reshape(-1, 1)
    >>> model = GaussianNaiveBayes().fit(X, units.y_true)
    >>> model.class_prior.tolist()
    [0.6666666666666666, 0.3333333333333333]
    """

    var_smoothing: float = 1e-9
    # Fitted state (None until fit); row 0 is the negative class, row 1 the positive.
    class_prior: np.ndarray | None = field(default=None, repr=False, compare=False)
    theta: np.ndarray | None = field(default=None, repr=False, compare=False)
    var: np.ndarray | None = field(default=None, repr=False, compare=False)
    feature_names_in_: np.ndarray | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        arrays.non_negative(self.var_smoothing, "var_smoothing")

    def fit(self, X: ArrayLike, y: ArrayLike, *, pos_label: Label | None = None) -> GaussianNaiveBayes:
        """Return a fitted copy.

        Parameters
        ----------
        X, y, pos_label
            As in :meth:`LogisticRegression.fit`.

        Returns
        -------
        GaussianNaiveBayes
            A new model with the fitted attributes set.
        """
        names = _feature_names(X)
        X, target = _training_data(X, y, pos_label)
        with np.errstate(over="ignore"):
            spread = np.var(X, axis=0)
        if not np.all(np.isfinite(spread)):
            column = int(np.argmax(~np.isfinite(spread)))
            raise ValueError(
                f"X: the variance of feature {column} (largest magnitude {np.max(np.abs(X[:, column])):.3g}) "
                "is beyond the largest float, and Gaussian naive Bayes keeps it in the features' units; "
                "rescale that feature (divide it by a constant) before fitting"
            )
        epsilon = self.var_smoothing * spread.max()
        theta, var, counts = [], [], []
        for value in (0.0, 1.0):
            rows = X[target == value]
            mean = np.average(rows, axis=0)
            theta.append(mean)
            var.append(np.average((rows - mean) ** 2, axis=0) + epsilon)
            counts.append(len(rows))
        counts = np.array(counts, dtype=float)
        return dataclasses.replace(
            self, class_prior=counts / counts.sum(), theta=np.array(theta), var=np.array(var),
            feature_names_in_=names,
        )

    def _joint_log_likelihood(self, X):
        _require_fitted(self, "theta")
        _check_feature_names(self, X)
        X = _features(X, self.theta.shape[1])
        columns = []
        for c in range(2):
            normalizer = -0.5 * np.sum(np.log(2.0 * np.pi * self.var[c]))
            distance = -0.5 * np.sum((X - self.theta[c]) ** 2 / self.var[c], axis=1)
            columns.append(np.log(self.class_prior[c]) + normalizer + distance)
        return np.column_stack(columns)

    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """The log-odds of the positive class, ``log P(1 | x) - log P(0 | x)``.

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, the same columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n,)
        """
        joint = self._joint_log_likelihood(X)
        return joint[:, 1] - joint[:, 0]

    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Probability of the positive class, shape (n,).

        Parameters
        ----------
        X : array_like of shape (n, p)
            Features, the same columns as in :meth:`fit`.

        Returns
        -------
        ndarray of shape (n,)
        """
        joint = self._joint_log_likelihood(X)
        # Normalize in log space, as scikit-learn does, so tiny likelihoods do not underflow.
        largest = joint.max(axis=1, keepdims=True)
        log_total = np.log(np.sum(np.exp(joint - largest), axis=1)) + largest[:, 0]
        return np.exp(joint[:, 1] - log_total)
