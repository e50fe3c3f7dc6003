"""Checks of the models and of the exact binormal AUC.

Covers :mod:`evalmetrics.models` against scikit-learn's
``LogisticRegression`` and ``GaussianNB``, and
:func:`~evalmetrics.datasets.binormal_auc` against its formula in SciPy.
"""

from __future__ import annotations

import math

import numpy as np

from ... import datasets, models
from ._core import FITTED_TOLERANCE, _check, _load, _worst
from ._data import _features

# ---------------------------------------------------------------------------
# models and the exact binormal AUC
# ---------------------------------------------------------------------------

@_check("LogisticRegression", "StandardScaler + sklearn.linear_model.LogisticRegression(C=1/penalty, "
        'solver="newton-cholesky", tol=1e-12)', "4 features on mixed scales; penalty 0.01, 1, 10; new rows",
        FITTED_TOLERANCE, kind="model")
def _(rng, n):
    pairs = []
    for penalty in (0.01, 1.0, 10.0):
        (X, y), X_new = _features(rng, n), _features(rng, n)[0]
        scaler = _load("sklearn.preprocessing.StandardScaler")().fit(X)
        theirs = _load("sklearn.linear_model.LogisticRegression")(C=1 / penalty, solver="newton-cholesky", tol=1e-12)
        theirs.fit(scaler.transform(X), y)
        pairs.append((models.LogisticRegression(penalty=penalty).fit(X, y).predict_proba(X_new),
                      theirs.predict_proba(scaler.transform(X_new))[:, 1]))
    return _worst(pairs)


@_check("GaussianNaiveBayes", "sklearn.naive_bayes.GaussianNB", "4 features on mixed scales; var_smoothing 1e-9, 1e-3",
        kind="model")
def _(rng, n):
    pairs = []
    for smoothing in (1e-9, 1e-3):
        (X, y), X_new = _features(rng, n), _features(rng, n)[0]
        theirs = _load("sklearn.naive_bayes.GaussianNB")(var_smoothing=smoothing).fit(X, y)
        pairs.append((models.GaussianNaiveBayes(var_smoothing=smoothing).fit(X, y).predict_proba(X_new),
                      theirs.predict_proba(X_new)[:, 1]))
    return _worst(pairs)


_check("binormal_auc", "scipy.stats.norm.cdf(mean / √(1 + sd²))", "mean from −3 to 3, sd from 0.25 to 4",
       kind="formula")(
    lambda rng, n: _worst((datasets.binormal_auc(mean, sd=sd), _load("scipy.stats.norm").cdf(mean / math.hypot(1, sd)))
                          for mean in np.linspace(-3, 3, 13) for sd in (0.25, 1.0, 2.0, 4.0)))
