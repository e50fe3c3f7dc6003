"""Checks of the splitters and the out-of-fold probabilities.

Covers :mod:`evalmetrics.cross_validation` (the chapter ``book/cross-validation.md``):
the folds against ``sklearn.model_selection``'s splitters, index for index
(the difference counts the indices that differ), the out-of-fold
probabilities against ``cross_val_predict``, and nested cross-validation
against ``GridSearchCV`` inside and outside ``cross_validate``.
"""

from __future__ import annotations

import numpy as np

from ... import calibration, cross_validation, models
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


class _PositiveColumn:
    """A scikit-learn classifier whose ``predict_proba`` gives the positive class's column only."""

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        return _PositiveColumn(self.estimator.fit(X, y))

    def predict_proba(self, X):
        return self.estimator.predict_proba(X)[:, 1]


@_check("nested_cross_validation", "sklearn.model_selection.cross_validate(GridSearchCV(LogisticRegression(), "
        '{"C": ...}, cv=StratifiedKFold(3, shuffle=True))) and GridSearchCV(cv=outer folds).best_score_',
        "4 features on mixed scales; 5 values of C; log loss and Brier score; 2 seeds", kind="model")
def _(rng, n):
    logistic = _load("sklearn.linear_model.LogisticRegression")
    grid_search = _load("sklearn.model_selection.GridSearchCV")
    make_scorer, log_loss, brier = (_load(f"sklearn.metrics.{name}") for name in
                                    ("make_scorer", "log_loss", "brier_score_loss"))
    inner = _load("sklearn.model_selection.StratifiedKFold")
    penalties = [0.001, 0.01, 0.1, 1.0, 100.0]
    pairs = []
    for seed in (0, 1):
        X, y = _features(rng, n)
        outer = cross_validation.stratified_k_fold(y, n_splits=5, shuffle=True, seed=seed)
        outer_pairs = [(fold.train, fold.test) for fold in outer]
        # Continuous scores: with the AUC, two candidates whose fold AUCs are permutations of each other tie
        # exactly, and the last bits of each library's sum (different for a trapezoid and a count) break the tie.
        for ours_metric, theirs_metric, greater in ((calibration.log_loss, log_loss, False),
                                                    (calibration.brier_score, brier, False)):
            candidates = [_PositiveColumn(logistic(C=c, solver="newton-cholesky", tol=1e-12)) for c in penalties]
            ours = cross_validation.nested_cross_validation(candidates, X, y, metric=ours_metric, folds=outer,
                                                            inner_splits=3, seed=seed, greater_is_better=greater)
            scorer = make_scorer(theirs_metric, response_method="predict_proba", greater_is_better=greater)
            search = grid_search(logistic(solver="newton-cholesky", tol=1e-12), {"C": penalties}, scoring=scorer,
                                 cv=inner(3, shuffle=True, random_state=seed))
            nested = _load("sklearn.model_selection.cross_validate")(search, X, y, scoring=scorer, cv=outer_pairs,
                                                                     return_estimator=True)
            flat = grid_search(logistic(solver="newton-cholesky", tol=1e-12), {"C": penalties}, scoring=scorer,
                               cv=outer_pairs).fit(X, y)
            sign = 1.0 if greater else -1.0  # scikit-learn negates a loss
            pairs += [(ours.fold_scores, sign * nested["test_score"]), (ours.non_nested, sign * flat.best_score_),
                      (ours.chosen, [fitted.best_index_ for fitted in nested["estimator"]]),
                      (ours.best, flat.best_index_),
                      (ours.candidate_scores.mean(axis=1), sign * flat.cv_results_["mean_test_score"])]
    return _worst(pairs)
