"""Checks of the splitters and the out-of-fold probabilities.

Covers :mod:`evalmetrics.cross_validation` (the chapter ``book/cross-validation.md``):
the folds against ``sklearn.model_selection``'s splitters, index for index
(the difference counts the indices that differ), and the out-of-fold
probabilities against ``cross_val_predict``.
"""

from __future__ import annotations

import numpy as np

from ... import cross_validation, models
from ._core import _check, _load, _mismatches, _worst
from ._data import _class_sets, _features

# ---------------------------------------------------------------------------
# cross-validation (the differences count mismatched indices)
# ---------------------------------------------------------------------------

@_check("k_fold", "sklearn.model_selection.KFold", "n and n + 3 rows; 2, 5, 7 folds; unshuffled and 3 seeds", 0.0,
        kind="splitter")
def _(rng, n):
    kfold = _load("sklearn.model_selection.KFold")
    return sum(_mismatches(cross_validation.k_fold(rows, n_splits=k, shuffle=seed is not None, seed=seed),
                           kfold(k, shuffle=seed is not None, random_state=seed).split(np.zeros(rows)))
               for rows in (n, n + 3) for k in (2, 5, 7) for seed in (None, 0, 1, 2))


@_check("stratified_k_fold", "sklearn.model_selection.StratifiedKFold",
        "2, 3, 5 classes (ints, strings); 3 and 5 folds; unshuffled and 3 seeds", 0.0, kind="splitter")
def _(rng, n):
    stratified = _load("sklearn.model_selection.StratifiedKFold")
    return sum(_mismatches(cross_validation.stratified_k_fold(y, n_splits=k, shuffle=seed is not None, seed=seed),
                           stratified(k, shuffle=seed is not None, random_state=seed).split(np.zeros(len(y)), y))
               for y, _, _ in _class_sets(rng, n)[::2] for k in (3, 5) for seed in (None, 0, 1, 2))


@_check("group_k_fold", "sklearn.model_selection.GroupKFold", "groups of 1 to 12 rows, ints and strings; 2, 3, 5 folds",
        0.0, kind="splitter")
def _(rng, n):
    grouped = _load("sklearn.model_selection.GroupKFold")
    count = 0.0
    for as_text in (False, True):
        groups = np.repeat(np.arange(n), rng.integers(1, 13, n))[:n]
        groups = np.char.add("g", groups.astype(str)) if as_text else groups
        count += sum(_mismatches(cross_validation.group_k_fold(groups, n_splits=k),
                                 grouped(k).split(np.zeros(n), groups=groups)) for k in (2, 3, 5))
    return count


@_check("time_series_split", "sklearn.model_selection.TimeSeriesSplit",
        "3 and 5 splits; test_size default and 7; gap 0 and 2; max_train_size None and 20", 0.0, kind="splitter")
def _(rng, n):
    splitter = _load("sklearn.model_selection.TimeSeriesSplit")
    return sum(_mismatches(cross_validation.time_series_split(n, **options), splitter(**options).split(np.zeros(n)))
               for k in (3, 5) for size in (None, 7) for gap in (0, 2) for most in (None, 20)
               for options in [dict(n_splits=k, test_size=size, gap=gap, max_train_size=most)])


@_check("out_of_fold_probabilities", 'sklearn.model_selection.cross_val_predict(GaussianNB(), method="predict_proba")',
        "4 features on mixed scales; shuffled stratified 5 folds, 2 seeds", kind="model")
def _(rng, n):
    pairs = []
    for seed in (0, 1):
        X, y = _features(rng, n)
        folds = cross_validation.stratified_k_fold(y, n_splits=5, shuffle=True, seed=seed)
        theirs = _load("sklearn.model_selection.cross_val_predict")(
            _load("sklearn.naive_bayes.GaussianNB")(), X, y, cv=folds, method="predict_proba")
        pairs.append((cross_validation.out_of_fold_probabilities(models.GaussianNaiveBayes(), X, y, folds=folds),
                      theirs[:, 1]))
    return _worst(pairs)
