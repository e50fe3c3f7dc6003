"""Leakage: cross-validation that lets the test rows into the training.

Demonstrates the section "Leakage" of the chapter Pitfalls (``book/pitfalls.md``),
the leaks that the chapter Cross-validation warns about: rows of one patient on
both sides of a split (:func:`group_leak`), a shuffled split of a time series
(:func:`temporal_leak`) and features selected on all rows before the split
(:func:`selection_leak`).  Each runs a small seeded simulation and returns the
leaky estimate, the honest one and, where the simulation can draw it, the value
on fresh data that both try to estimate.  :func:`selection_permutation_null`
gives the honest estimate its yardstick: the spread of the same procedure's
AUC when the labels are permuted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ... import arrays
from ...cross_validation import group_k_fold, k_fold, stratified_k_fold, time_series_split
from ...curves import roc_auc
from ...models import LogisticRegression
from ._common import _seed

__all__ = ["GroupLeak", "SelectionLeak", "SelectionNull", "TemporalLeak", "group_leak", "selection_leak",
           "selection_permutation_null", "temporal_leak"]


def _nearest_neighbour_scores(X_train, y_train, X_test, n_neighbours):
    """Share of positives among the ``n_neighbours`` nearest training rows (Euclidean)."""
    distances = ((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    # A stable sort breaks equal distances by training order, so the result is reproducible.
    nearest = np.argsort(distances, axis=1, kind="stable")[:, :n_neighbours]
    return y_train[nearest].mean(axis=1)


# ---------------------------------------------------------------------------
# a group leak
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GroupLeak:
    """AUC of a nearest-neighbour model with rows or patients as the unit of the folds."""

    row_folds_auc: float
    group_folds_auc: float
    new_patients_auc: float
    n_patients: int
    rows_per_patient: int


def _patients(rng, n_patients, rows_per_patient):
    # Each patient has a position in five features and one label; the label depends
    # weakly on the first feature only, and the rows of a patient scatter a little
    # around the patient's position (repeat visits, several images).
    centres = rng.normal(size=(n_patients, 5))
    y_patient = (rng.random(n_patients) < 1.0 / (1.0 + np.exp(-centres[:, 0]))).astype(int)
    patient = np.repeat(np.arange(n_patients), rows_per_patient)
    X = centres[patient] + 0.3 * rng.normal(size=(len(patient), 5))
    return patient, X, y_patient[patient]


def group_leak(*, n_patients=50, rows_per_patient=6, n_neighbours=5, seed=0):
    """Cross-validate a nearest-neighbour model with rows, then patients, as the unit.

    Every patient contributes ``rows_per_patient`` rows that share the
    patient's label and lie close together in the five features.  The model
    scores a row by the share of positives among its ``n_neighbours``
    nearest training rows.  Shuffled five-fold cross-validation over rows
    leaves most of a test patient's rows in the training folds, where they
    are the nearest neighbours; grouped folds
    (:func:`~evalmetrics.cross_validation.group_k_fold`) keep each patient
    on one side.  The model fitted on all rows is then scored on 500 new
    patients drawn from the same population, the value both estimates aim at.

    Parameters
    ----------
    n_patients, rows_per_patient, n_neighbours : int
        At least 10, 2 and 1; ``n_neighbours`` at most the number of rows.
    seed : int, numpy.random.Generator or None, default 0
        Seeds the patients, the shuffled folds and the new patients.

    Returns
    -------
    GroupLeak
        The pooled out-of-fold AUC of each split and the AUC on new patients.

    Examples
    --------
    >>> r = group_leak(seed=0)
    >>> r.row_folds_auc > r.group_folds_auc
    True
    """
    n_patients = arrays.positive_int(n_patients, "n_patients", minimum=10)
    rows_per_patient = arrays.positive_int(rows_per_patient, "rows_per_patient", minimum=2)
    n_neighbours = arrays.positive_int(n_neighbours, "n_neighbours")
    if n_neighbours > n_patients * rows_per_patient // 2:
        raise ValueError(f"n_neighbours must be at most half the rows, got {n_neighbours}")
    seed = _seed(seed)
    rng = np.random.default_rng(seed)
    patient, X, y = _patients(rng, n_patients, rows_per_patient)
    aucs = []
    for folds in (k_fold(len(y), n_splits=5, shuffle=True, seed=seed), group_k_fold(patient, n_splits=5)):
        scores = np.empty(len(y))
        for train, test in folds:
            scores[test] = _nearest_neighbour_scores(X[train], y[train], X[test], n_neighbours)
        aucs.append(roc_auc(y, scores))
    _, X_new, y_new = _patients(rng, 500, 1)
    new_auc = roc_auc(y_new, _nearest_neighbour_scores(X, y, X_new, n_neighbours))
    return GroupLeak(float(aucs[0]), float(aucs[1]), float(new_auc), n_patients, rows_per_patient)


# ---------------------------------------------------------------------------
# a temporal leak
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TemporalLeak:
    """RMSE of a nearest-days forecast under shuffled and forward-chaining folds."""

    shuffled_rmse: float
    forward_rmse: float
    noise_sd: float
    n_days: int


def temporal_leak(*, n_days=360, n_neighbours=3, seed=0):
    """Cross-validate a forecast of a wandering daily series, shuffled and forward.

    The series is a random walk (steps of standard deviation 1) read with
    measurement noise of standard deviation 2.  The model forecasts a day by
    the mean of the ``n_neighbours`` training days nearest to it in time.
    Shuffled five-fold cross-validation gives it training days on both sides
    of every test day, so it interpolates; forward-chaining folds
    (:func:`~evalmetrics.cross_validation.time_series_split`) only give it the
    past, as deployment will.  Both RMSEs pool the errors of all test days.

    Parameters
    ----------
    n_days : int, default 360
        At least 30.
    n_neighbours : int, default 3
        At least 1 and at most 10.
    seed : int, numpy.random.Generator or None, default 0
        Seeds the series and the shuffled folds.

    Returns
    -------
    TemporalLeak

    Examples
    --------
    >>> r = temporal_leak(seed=0)
    >>> r.shuffled_rmse < r.forward_rmse
    True
    """
    n_days = arrays.positive_int(n_days, "n_days", minimum=30)
    n_neighbours = arrays.positive_int(n_neighbours, "n_neighbours")
    if n_neighbours > 10:
        raise ValueError(f"n_neighbours must be at most 10, got {n_neighbours}")
    seed = _seed(seed)
    rng = np.random.default_rng(seed)
    noise_sd = 2.0
    series = 50.0 + np.cumsum(rng.normal(size=n_days)) + noise_sd * rng.normal(size=n_days)
    days = np.arange(n_days, dtype=float)[:, None]
    rmses = []
    for folds in (k_fold(n_days, n_splits=5, shuffle=True, seed=seed), time_series_split(n_days, n_splits=5)):
        errors = []
        for train, test in folds:
            forecast = _nearest_neighbour_scores(days[train], series[train], days[test], n_neighbours)
            errors.append(forecast - series[test])
        rmses.append(float(np.sqrt(np.mean(np.concatenate(errors) ** 2))))
    return TemporalLeak(rmses[0], rmses[1], noise_sd, n_days)


# ---------------------------------------------------------------------------
# a preprocessing leak
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class SelectionLeak:
    """AUC of a model on features chosen before, or inside, the cross-validation."""

    selected_on_all_auc: float
    selected_in_folds_auc: float
    fresh_auc: float
    n_rows: int
    n_features: int
    n_selected: int


def _select(X, y, n_selected):
    # The features whose class means differ most, in units of their spread: the
    # usual univariate filter (a t-statistic up to a constant for balanced classes).
    difference = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    return np.argsort(-np.abs(difference) / X.std(axis=0), kind="stable")[:n_selected]


def _noise_rows(rng, n_rows, n_features):
    # Balanced labels and standard normal features, independent of each other.
    y = rng.permutation(np.arange(n_rows) % 2)
    return y, rng.normal(size=(n_rows, n_features))


def _selected_in_folds_auc(X, y, n_selected, seed):
    # The honest pipeline: stratified five folds, features chosen on each training
    # fold alone, and the AUC of the pooled out-of-fold probabilities.
    scores = np.empty(len(y))
    for train, test in stratified_k_fold(y, n_splits=5, shuffle=True, seed=seed):
        chosen = _select(X[train], y[train], n_selected)
        model = LogisticRegression().fit(X[train][:, chosen], y[train])
        scores[test] = model.predict_proba(X[test][:, chosen])
    return float(roc_auc(y, scores))


def _selection_sizes(n_rows, n_features, n_selected):
    n_rows = arrays.positive_int(n_rows, "n_rows", minimum=20)
    n_selected = arrays.positive_int(n_selected, "n_selected")
    n_features = arrays.positive_int(n_features, "n_features", minimum=n_selected)
    return n_rows, n_features, n_selected


def selection_leak(*, n_rows=100, n_features=1000, n_selected=10, seed=0):
    """Choose features on all rows, then cross-validate; against choosing inside each fold.

    Labels (half positive) and features are independent standard normal noise,
    so every model's true AUC is 0.5.  Selecting the ``n_selected`` features
    whose class means differ most on *all* rows, then cross-validating a
    logistic regression on them (stratified five folds, pooled out-of-fold
    probabilities), lets the test rows' labels choose the features.  Selecting
    within each training fold does not.  The model selected and fitted on all
    rows is also scored on 2,000 fresh rows.

    Parameters
    ----------
    n_rows : int, default 100
        At least 20.
    n_features : int, default 1000
        At least ``n_selected``.
    n_selected : int, default 10
        At least 1.
    seed : int, numpy.random.Generator or None, default 0

    Returns
    -------
    SelectionLeak

    Examples
    --------
    >>> r = selection_leak(seed=0)
    >>> r.selected_on_all_auc > 0.75 > r.selected_in_folds_auc
    True
    """
    n_rows, n_features, n_selected = _selection_sizes(n_rows, n_features, n_selected)
    seed = _seed(seed)
    rng = np.random.default_rng(seed)
    y, X = _noise_rows(rng, n_rows, n_features)
    chosen_on_all = _select(X, y, n_selected)
    leaky = np.empty(n_rows)
    for train, test in stratified_k_fold(y, n_splits=5, shuffle=True, seed=seed):
        model = LogisticRegression().fit(X[train][:, chosen_on_all], y[train])
        leaky[test] = model.predict_proba(X[test][:, chosen_on_all])
    honest = _selected_in_folds_auc(X, y, n_selected, seed)
    y_fresh, X_fresh = _noise_rows(rng, 2000, n_features)
    model = LogisticRegression().fit(X[:, chosen_on_all], y)
    fresh = roc_auc(y_fresh, model.predict_proba(X_fresh[:, chosen_on_all]))
    return SelectionLeak(float(roc_auc(y, leaky)), honest, float(fresh), n_rows, n_features, n_selected)


@dataclass(frozen=True)
class SelectionNull:
    """The honest AUC of :func:`selection_leak` against the AUCs of the same procedure on permuted labels."""

    observed_auc: float
    null_aucs: np.ndarray
    p_value: float


def selection_permutation_null(*, n_permutations=200, n_rows=100, n_features=1000, n_selected=10, seed=0):
    """The permutation null of the cross-validated AUC with features chosen inside the folds.

    On the rows of :func:`selection_leak` (same sizes and ``seed``), the honest
    procedure (stratified five folds, the ``n_selected`` features chosen on each
    training fold, a logistic regression, the AUC of the pooled out-of-fold
    probabilities) is run once on the labels and once on each of
    ``n_permutations`` random permutations of them, with everything else
    unchanged.  Permuted labels carry no information about the features, so the
    permuted AUCs show how far the procedure's AUC strays from 0.5 by chance:
    the yardstick for the observed AUC, which mixes five fitted models with
    features chosen on noise and so varies more than the AUC of one model on one
    test set.  The p-value is one-sided, ``(1 + #{null >= observed}) /
    (1 + n_permutations)``.

    Parameters
    ----------
    n_permutations : int, default 200
        At least 1.
    n_rows, n_features, n_selected : int
        As in :func:`selection_leak`.
    seed : int, default 0
        The data and folds of :func:`selection_leak`; the permutations use
        ``seed + 1``.

    Returns
    -------
    SelectionNull

    Examples
    --------
    >>> r = selection_permutation_null(n_permutations=20, seed=0)
    >>> r.observed_auc == selection_leak(seed=0).selected_in_folds_auc, len(r.null_aucs)
    (True, 20)
    """
    n_rows, n_features, n_selected = _selection_sizes(n_rows, n_features, n_selected)
    n_permutations = arrays.positive_int(n_permutations, "n_permutations")
    seed = _seed(seed)
    y, X = _noise_rows(np.random.default_rng(seed), n_rows, n_features)
    observed = _selected_in_folds_auc(X, y, n_selected, seed)
    shuffler = np.random.default_rng(seed + 1)
    null = np.array([_selected_in_folds_auc(X, shuffler.permutation(y), n_selected, seed)
                     for _ in range(n_permutations)])
    p_value = (1 + int(np.sum(null >= observed))) / (1 + n_permutations)
    return SelectionNull(observed, null, p_value)
