"""Cross-validation splitters and out-of-fold predictions.

Four splitters decide which rows may share a test fold:

* :func:`k_fold` cuts the rows (optionally shuffled) into consecutive blocks;
* :func:`stratified_k_fold` keeps each class's share the same in every fold;
* :func:`group_k_fold` keeps every row of a group in one fold;
* :func:`time_series_split` tests on a block and trains only on earlier rows.

Each returns a list of :class:`Fold` named tuples whose index arrays are
identical, index for index, to those of scikit-learn's ``KFold``,
``StratifiedKFold``, ``GroupKFold`` and ``TimeSeriesSplit`` (scikit-learn
1.9, ``random_state=seed``), shuffling included: the algorithms below are
the same, down to the use of :class:`numpy.random.RandomState`.  Test
indices, like scikit-learn's, come back in increasing order.

:func:`out_of_fold_probabilities` fits a model once per fold and predicts
the held-out rows, so that every row gets exactly one prediction from a
model that never saw it.  :func:`nested_cross_validation` chooses among
candidate models inside each training fold and scores the choice on the
held-out fold, next to the optimistic score of choosing on the held-out
folds themselves.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from . import arrays
from ._estimators import positive_probabilities, unfitted_copy
from ._typing import ArrayLike, Label, Seed

__all__ = [
    "Fold",
    "NestedScore",
    "group_k_fold",
    "k_fold",
    "nested_cross_validation",
    "out_of_fold_probabilities",
    "stratified_k_fold",
    "time_series_split",
]


class NestedScore(NamedTuple):
    """The result of :func:`nested_cross_validation`.

    Attributes
    ----------
    nested : float
        Mean over the outer folds of the score of the candidate chosen inside
        each fold's training rows: an estimate of how the whole procedure,
        choice included, performs on new rows.
    non_nested : float
        The best candidate's mean score over the same outer folds, chosen by
        that score: optimistic, because the held-out rows chose it.
    fold_scores : ndarray of shape (k,)
        The nested score of each outer fold.
    chosen : ndarray of int, shape (k,)
        The candidate (its index) chosen inside each outer fold.
    candidate_scores : ndarray of shape (m, k)
        Each candidate's score on each outer fold, fitted on that fold's
        training rows; ``non_nested`` is the largest row mean.
    best : int
        The candidate with the best mean over the outer folds.
    probabilities : ndarray of shape (n,)
        Each row's probability from the candidate chosen in its outer fold.
    """

    nested: float
    non_nested: float
    fold_scores: np.ndarray
    chosen: np.ndarray
    candidate_scores: np.ndarray
    best: int
    probabilities: np.ndarray


class Fold(NamedTuple):
    """Row indices of one split: the model fits ``train`` and predicts ``test``.

    Attributes
    ----------
    train, test : ndarray of int
        Row indices, disjoint.
    """

    train: np.ndarray
    test: np.ndarray


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------

def _check_splits(n_splits):
    return arrays.positive_int(n_splits, "n_splits", minimum=2)


def _check_shuffle(shuffle, seed):
    """Validated ``(shuffle, seed)``; a Generator gives the splitter one integer seed drawn from it."""
    shuffle = arrays.boolean(shuffle, "shuffle")
    # RandomState's bound, which scikit-learn's random_state has too.
    seed = arrays.seed(seed, maximum=2**32 - 1)
    if seed is not None and not shuffle:
        # scikit-learn refuses the same combination: the seed would silently do nothing.
        raise ValueError("seed has no effect when shuffle=False; pass shuffle=True or leave seed=None")
    if isinstance(seed, np.random.Generator):
        seed = arrays.seed(seed, concrete=True)
    return shuffle, seed


def _check_enough_rows(n_samples, n_splits):
    if n_splits > n_samples:
        raise ValueError(f"n_splits={n_splits} is greater than the number of rows, {n_samples}")


def _random_state(seed):
    # RandomState, not default_rng: its shuffle is the one scikit-learn uses,
    # so the same seed gives the same folds.
    return np.random.RandomState(seed)


def _folds_from_assignment(assignment, n_splits):
    """One :class:`Fold` per fold number, given each row's test-fold number."""
    assignment = arrays.narrow_codes(assignment, n_splits)
    folds = []
    for k in range(n_splits):
        # flatnonzero of a mask, not arange()[mask]: several times faster, same int64 indices.
        in_test = assignment == k
        test = np.flatnonzero(in_test)
        folds.append(Fold(np.flatnonzero(np.logical_not(in_test, out=in_test)), test))
    return folds


def _first_appearance(table, shifted, n_classes):
    """Row of the first appearance of each code ``table[shifted]``; the search
    doubles a prefix of the rows until every code has been seen, so it rarely
    reads them all."""
    size = 1024
    while True:
        prefix = table[shifted[:size]]
        first = np.full(n_classes, len(shifted), dtype=np.intp)
        np.minimum.at(first, prefix, np.arange(len(prefix)))
        if size >= len(shifted) or np.all(first < len(shifted)):
            return first
        size *= 4


# ---------------------------------------------------------------------------
# the splitters
# ---------------------------------------------------------------------------

def k_fold(n_samples: int, *, n_splits: int = 5, shuffle: bool = False, seed: Seed = None) -> list[Fold]:
    """Plain k-fold: consecutive blocks of (optionally shuffled) rows.

    The first ``n_samples % n_splits`` folds get one row more than the
    others.  Identical to ``sklearn.model_selection.KFold(n_splits,
    shuffle=shuffle, random_state=seed).split(...)``.

    Parameters
    ----------
    n_samples : int
        Number of rows.
    n_splits : int, default 5
        Number of folds, at least 2 and at most ``n_samples``.
    shuffle : bool, default False
        Shuffle the rows before cutting them into blocks.
    seed : int, numpy.random.Generator or None
        Seed of the shuffle (only with ``shuffle=True``).

    Returns
    -------
    list of Fold

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> y = twelve_units().y_true
    >>> [int(y[fold.test].sum()) for fold in k_fold(12, n_splits=4)]
    [2, 1, 1, 0]
    """
    n_samples = arrays.positive_int(n_samples, "n_samples")
    n_splits = _check_splits(n_splits)
    shuffle, seed = _check_shuffle(shuffle, seed)
    _check_enough_rows(n_samples, n_splits)
    return _k_fold(n_samples, n_splits, shuffle, seed)


def _k_fold(n_samples, n_splits, shuffle, seed):
    sizes = np.full(n_splits, n_samples // n_splits)
    sizes[: n_samples % n_splits] += 1
    if not shuffle:
        # Unshuffled folds are consecutive blocks: ranges, no masks.
        stops = np.cumsum(sizes).tolist()
        starts = [0] + stops[:-1]
        return [Fold(np.concatenate([np.arange(0, start), np.arange(stop, n_samples)]), np.arange(start, stop))
                for start, stop in zip(starts, stops)]
    order = np.arange(n_samples)
    _random_state(seed).shuffle(order)
    assignment = np.empty(n_samples, dtype=np.uint8 if n_splits < 256 else np.intp)
    assignment[order] = np.repeat(np.arange(n_splits), sizes)
    return _folds_from_assignment(assignment, n_splits)


def stratified_k_fold(y: ArrayLike, *, n_splits: int = 5, shuffle: bool = False, seed: Seed = None) -> list[Fold]:
    """Stratified k-fold: every fold keeps each class's share.

    scikit-learn's algorithm: the sorted labels are dealt round-robin to the
    folds, which fixes how many rows of each class every fold receives (fold
    class counts differ by at most one); then each class's rows, in order of
    appearance, are given to the folds in blocks of those sizes (shuffled
    per class when ``shuffle=True``).  Classes are numbered by first
    appearance in ``y``, as in ``StratifiedKFold``, so the folds are
    identical to it.

    Parameters
    ----------
    y : array_like of shape (n,)
        Class labels (any number of classes, numbers or strings).
    n_splits : int, default 5
        Number of folds.
    shuffle : bool, default False
        Shuffle each class's fold assignment.
    seed : int, numpy.random.Generator or None
        Seed of the shuffle (only with ``shuffle=True``).

    Returns
    -------
    list of Fold

    Raises
    ------
    ValueError
        When some class has fewer than ``n_splits`` members.  scikit-learn
        only warns in that case and builds folds without that class; we
        refuse, because a fold without a class makes per-fold recall of that
        class undefined.

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> folds = stratified_k_fold(units.y_true, n_splits=4)
    >>> [units.unit[fold.test].tolist() for fold in folds]
    [[1, 2, 4], [3, 6, 7], [5, 9, 10], [8, 11, 12]]
    """
    y = arrays.class_labels(y, "y")
    n_splits = _check_splits(n_splits)
    shuffle, seed = _check_shuffle(shuffle, seed)
    _check_enough_rows(len(y), n_splits)
    fast = arrays.short_range_codes(y)
    if fast is not None:
        classes, table, shifted, _ = fast
        first_seen = _first_appearance(table, shifted, len(classes))
    else:
        try:
            classes, first_seen, codes = np.unique(y, return_index=True, return_inverse=True)
        except TypeError:
            raise TypeError("y must hold mutually comparable labels (do not mix numbers and strings)") from None
    # Renumber the classes by order of first appearance, as scikit-learn does.
    appearance = np.argsort(np.argsort(first_seen))
    if fast is not None:
        codes = np.take(arrays.narrow_codes(appearance[table], len(classes)), shifted)
    else:
        codes = appearance[codes.ravel()]
    classes = classes[np.argsort(first_seen)]
    members = np.bincount(codes, minlength=len(classes))
    for label, count in zip(classes.tolist(), members.tolist()):
        if count < n_splits:
            raise ValueError(
                f"class {label!r} of y has only {count} member(s), fewer than n_splits={n_splits}; "
                "some folds would contain none of it"
            )
    return _stratified_k_fold(codes, len(classes), n_splits, shuffle, seed)


def _stratified_k_fold(codes, n_classes, n_splits, shuffle, seed):
    rng = _random_state(seed)
    # allocation[k, c]: rows of class c in fold k, from dealing the sorted labels
    # round-robin.  Class c fills positions [start_c, stop_c) of the sorted labels,
    # and fold k gets the positions congruent to k modulo n_splits: counted, not sorted.
    stops = np.cumsum(np.bincount(codes, minlength=n_classes))
    starts = stops - np.bincount(codes, minlength=n_classes)
    k = np.arange(n_splits)[:, None]
    allocation = (stops - k + n_splits - 1) // n_splits - (starts - k + n_splits - 1) // n_splits
    codes = arrays.narrow_codes(codes, n_classes)
    assignment = np.empty(len(codes), dtype=np.uint8 if n_splits < 256 else np.intp)
    for c in range(n_classes):
        fold_of_member = np.repeat(np.arange(n_splits), allocation[:, c])
        if shuffle:
            rng.shuffle(fold_of_member)
        # Row numbers, not a boolean mask, on the left: the scatter is about twice as fast.
        assignment[np.flatnonzero(codes == c)] = fold_of_member
    return _folds_from_assignment(assignment, n_splits)


def group_k_fold(groups: ArrayLike, *, n_splits: int = 5) -> list[Fold]:
    """Grouped k-fold: all rows of a group land in the same test fold.

    Groups are placed from the largest to the smallest, each into the fold
    with the fewest rows so far (ties: the lowest fold number; equal-sized
    groups: the later group in sorted order first), exactly as scikit-learn's
    ``GroupKFold`` without shuffling.

    Parameters
    ----------
    groups : array_like of shape (n,)
        Group label of each row (a patient, a speaker, a household).
    n_splits : int, default 5
        Number of folds, at most the number of distinct groups.

    Returns
    -------
    list of Fold

    Examples
    --------
    >>> groups = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 6]
    >>> [fold.test.tolist() for fold in group_k_fold(groups, n_splits=3)]
    [[8, 9, 10, 11], [0, 1, 2, 7], [3, 4, 5, 6]]
    """
    groups = arrays.class_labels(groups, "groups", whole=False)
    n_splits = _check_splits(n_splits)
    _check_enough_rows(len(groups), n_splits)
    fast = arrays.short_range_codes(groups)
    if fast is not None:
        unique, table, shifted, sizes = fast
    else:
        try:
            unique, codes = np.unique(groups, return_inverse=True)
        except TypeError:
            raise TypeError("groups must hold mutually comparable labels (do not mix numbers and strings)") from None
        codes = codes.ravel()
        sizes = np.bincount(codes, minlength=len(unique))
    if n_splits > len(unique):
        raise ValueError(f"n_splits={n_splits} is greater than the number of groups, {len(unique)}")
    fold_of_group = _group_folds(sizes, n_splits)
    if fast is not None:
        # Fold of each label value, then one gather over the rows.
        fold_of_value = arrays.narrow_codes(fold_of_group[table], n_splits)
        return _folds_from_assignment(np.take(fold_of_value, shifted), n_splits)
    return _folds_from_assignment(fold_of_group[codes], n_splits)


def _group_folds(sizes, n_splits):
    """Test fold of each group, greedily: largest group into the lightest fold."""
    n_groups = len(sizes)
    # A stable ascending sort reversed: largest first, and among equal sizes
    # the later group first.  This detail is what makes the folds match.
    largest_first = np.argsort(sizes, kind="stable")[::-1]
    # The lightest fold (lowest number among equals) is the top of a heap of
    # (rows, fold) pairs: the argmin of scikit-learn's loop without a NumPy call per group.
    heap = [(0, fold) for fold in range(n_splits)]
    fold_of_group = [0] * n_groups
    for group, size in zip(largest_first.tolist(), sizes[largest_first].tolist()):
        rows, lightest = heap[0]
        heapq.heapreplace(heap, (rows + size, lightest))
        fold_of_group[group] = lightest
    return np.array(fold_of_group)


def time_series_split(n_samples: int, *, n_splits: int = 5, test_size: int | None = None, gap: int = 0,
                      max_train_size: int | None = None) -> list[Fold]:
    """Forward-chaining splits: train on the past, test on the next block.

    The last ``n_splits * test_size`` rows are cut into ``n_splits`` test
    blocks; each split trains on every row before its block except the
    ``gap`` rows just before it (and at most the ``max_train_size`` most
    recent ones).  ``test_size`` defaults to ``n_samples // (n_splits + 1)``.
    Identical to scikit-learn's ``TimeSeriesSplit``.  Unlike the other
    splitters, the test blocks do not cover every row: the first rows are
    only ever trained on.

    Parameters
    ----------
    n_samples : int
        Number of rows, in time order.
    n_splits : int, default 5
    test_size : int, optional
    gap : int, default 0
    max_train_size : int, optional

    Returns
    -------
    list of Fold

    Examples
    --------
    >>> folds = time_series_split(12, n_splits=3)
    >>> [(len(f.train), f.test.tolist()) for f in folds]
    [(3, [3, 4, 5]), (6, [6, 7, 8]), (9, [9, 10, 11])]
    """
    n_samples = arrays.positive_int(n_samples, "n_samples")
    n_splits = _check_splits(n_splits)
    gap = arrays.positive_int(gap, "gap", minimum=0)
    if test_size is not None:
        test_size = arrays.positive_int(test_size, "test_size")
    if max_train_size is not None:
        max_train_size = arrays.positive_int(max_train_size, "max_train_size")
    if n_splits + 1 > n_samples:
        raise ValueError(
            f"n_splits={n_splits} needs at least {n_splits + 1} rows (one training block "
            f"before the first test block), got {n_samples}"
        )
    if test_size is None:
        test_size = n_samples // (n_splits + 1)
    if n_samples - gap - n_splits * test_size <= 0:
        raise ValueError(
            f"too many splits for {n_samples} rows: n_splits={n_splits} test blocks of "
            f"test_size={test_size} with gap={gap} leave no row to train on"
        )
    return _time_series_split(n_samples, n_splits, test_size, gap, max_train_size)


def _time_series_split(n_samples, n_splits, test_size, gap, max_train_size):
    indices = np.arange(n_samples)
    folds = []
    for test_start in range(n_samples - n_splits * test_size, n_samples, test_size):
        train_end = test_start - gap
        train_start = 0 if max_train_size is None else max(0, train_end - max_train_size)
        folds.append(Fold(indices[train_start:train_end], indices[test_start:test_start + test_size]))
    return folds


# ---------------------------------------------------------------------------
# out-of-fold predictions
# ---------------------------------------------------------------------------

def _check_folds(folds, n_samples):
    """Turn ``folds`` into index arrays; the test sets must partition the rows."""
    checked = []
    tested = np.zeros(n_samples, dtype=int)
    for number, fold in enumerate(folds):
        try:
            train, test = fold
        except (TypeError, ValueError):
            raise TypeError(f"folds[{number}] must be a (train, test) pair of index arrays") from None
        pair = []
        for name, index in (("train", train), ("test", test)):
            index = np.asarray(index)
            if index.ndim != 1 or index.dtype.kind not in "iu" or index.size == 0:
                raise ValueError(f"folds[{number}].{name} must be a non-empty 1-D array of row indices")
            if index.min() < 0 or index.max() >= n_samples:
                raise ValueError(f"folds[{number}].{name} has indices outside 0..{n_samples - 1}")
            pair.append(index)
        if np.intersect1d(pair[0], pair[1]).size:
            raise ValueError(f"folds[{number}] has rows in both train and test")
        tested[pair[1]] += 1
        checked.append(Fold(*pair))
    if not checked:
        raise ValueError("folds is empty")
    if np.any(tested != 1):
        raise ValueError(
            f"the test folds must cover every row exactly once; {int(np.sum(tested == 0))} row(s) "
            f"are never tested and {int(np.sum(tested > 1))} are tested more than once "
            "(time_series_split does not cover every row)"
        )
    return checked


def out_of_fold_probabilities(model: Any, X: ArrayLike, y: ArrayLike, *,
                              folds: Iterable[Fold | tuple[ArrayLike, ArrayLike]],
                              pos_label: Label | None = None) -> np.ndarray:
    """Positive-class probability of every row from a model that did not see it.

    For each fold a copy of the model (never ``model`` itself, which stays
    unfitted) is fitted on the training rows and predicts the test rows; the
    test folds must cover every row exactly once, as those of
    :func:`k_fold`, :func:`stratified_k_fold` and :func:`group_k_fold` do.

    Parameters
    ----------
    model : object
        Has ``fit(X, y)`` returning a fitted model with ``predict_proba(X)``:
        1-D positive-class probabilities, as the models of
        :mod:`evalmetrics.models` give, or one column per class in the
        order of ``classes_``, as scikit-learn's classifiers give.  It is
        copied before each fit (``sklearn.base.clone`` for a scikit-learn
        estimator).
    X : array_like of shape (n, p)
        Features.
    y : array_like of shape (n,)
        Labels, passed to ``fit`` unchanged.
    folds : sequence of Fold or (train, test) pairs
    pos_label : label, optional
        The class whose column of a two-column ``predict_proba`` is
        returned; needed unless the classes are {0, 1}, {-1, 1} or booleans.

    Returns
    -------
    ndarray of shape (n,)

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics.models import LogisticRegression
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> X = units.y_score.reshape(-1, 1)
    >>> folds = stratified_k_fold(units.y_true, n_splits=4)
    >>> model = LogisticRegression()
    >>> p = out_of_fold_probabilities(model, X, units.y_true, folds=folds)
    >>> p.shape, bool(np.all((0 < p) & (p < 1)))
    ((12,), True)
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (rows, features), got shape {X.shape}")
    y = arrays.column(y, "y")
    arrays.same_length(X=X, y=y)
    if not hasattr(model, "fit"):
        raise TypeError(f"model must have a fit(X, y) method, got {type(model).__name__}")
    if pos_label is not None:
        arrays.binary_labels(y, pos_label=pos_label, name="y")  # the same errors as everywhere
    folds = _check_folds(folds, len(y))
    return _out_of_fold_probabilities(model, X, y, folds, pos_label)


def _out_of_fold_probabilities(model, X, y, folds, pos_label=None):
    probabilities = np.empty(len(y))
    for train, test in folds:
        fitted = unfitted_copy(model, "model").fit(X[train], y[train])
        probabilities[test] = positive_probabilities(fitted.predict_proba(X[test]), fitted, pos_label)
    return probabilities


# ---------------------------------------------------------------------------
# nested cross-validation
# ---------------------------------------------------------------------------

def nested_cross_validation(models: Sequence[Any], X: ArrayLike, y: ArrayLike, *,
                            metric: Callable[[np.ndarray, np.ndarray], float], folds: Sequence[Fold],
                            inner_splits: int = 5, seed: Seed = None, greater_is_better: bool = True) -> NestedScore:
    """Choose among models inside each training fold; score the choice on the held-out fold.

    For each outer fold, every candidate is scored by stratified
    ``inner_splits``-fold cross-validation on the fold's training rows (the
    mean of ``metric`` over the inner folds), the best is refitted on those
    training rows and scores the held-out rows.  The mean of these outer
    scores is ``nested``: the choice is part of the fitted procedure, so the
    held-out rows never took part in it.  ``non_nested`` instead picks the
    candidate with the best mean over the outer folds themselves, the
    common shortcut, whose held-out rows have chosen the winner and flatter
    it.

    This is scikit-learn's ``cross_val_score(GridSearchCV(model, grid,
    scoring=..., cv=inner), X, y, scoring=..., cv=folds)`` (``nested``) next
    to ``GridSearchCV(model, grid, scoring=..., cv=folds).best_score_``
    (``non_nested``), with ``inner = StratifiedKFold(inner_splits,
    shuffle=True, random_state=seed)``: ties go to the first candidate, as
    there, and means that differ only by rounding (a few units in the last
    place) count as ties.

    Parameters
    ----------
    models : sequence of objects
        The candidates: unfitted models whose ``fit(X, y)`` returns a fitted
        model with ``predict_proba(X)`` of the positive class, such as
        :class:`LogisticRegression` with different penalties, or a model
        with and without :class:`PlattCalibrated`.
    X : array_like of shape (n, p)
        Features.
    y : array_like of shape (n,)
        Labels, passed to ``fit`` and to ``metric`` unchanged.
    metric : callable
        ``metric(y_true, y_prob)`` returns a number, such as
        :func:`roc_auc` or :func:`brier_score`.
    folds : sequence of Fold or (train, test) pairs
        The outer folds; their test sets must cover every row once.
    inner_splits : int, default 5
        Stratified folds inside each outer training set.
    seed : int, numpy.random.Generator or None
        Shuffles the inner folds like ``StratifiedKFold(shuffle=True,
        random_state=seed)``, the same seed in every outer fold (a Generator
        gives one integer seed drawn from it); None keeps the rows in order.
    greater_is_better : bool, default True
        False for a loss (the Brier score, the log loss): the smallest wins.

    Returns
    -------
    NestedScore

    Examples
    --------
    Three penalties of a logistic regression on the twelve units' scores,
    judged by the Brier score (a loss): chosen inside the folds, the
    penalty 1 wins twice; chosen on the held-out folds themselves, the
    penalty 10 looks better than any choice made without them.

    >>> from evalmetrics import LogisticRegression, brier_score
    >>> from evalmetrics import twelve_units
    >>> units = twelve_units()
    >>> X = units.y_score.reshape(-1, 1)
    >>> outer = stratified_k_fold(units.y_true, n_splits=2)
    >>> models = [LogisticRegression(penalty=p) for p in (0.1, 1.0, 10.0)]
    >>> result = nested_cross_validation(
    ...     models, X, units.y_true, metric=brier_score, folds=outer,
    ...     inner_splits=2, greater_is_better=False)
    >>> result.chosen.tolist(), round(result.nested, 4)
    ([1, 1], 0.2952)
    >>> result.best, round(result.non_nested, 4)
    (2, 0.2044)
    """
    models = list(models) if not isinstance(models, (str, bytes)) else None
    if not models:
        raise ValueError("models must be a non-empty sequence of candidate models")
    for number, model in enumerate(models):
        if not hasattr(model, "fit"):
            raise TypeError(f"models[{number}] must have a fit(X, y) method, got {type(model).__name__}")
    if not callable(metric):
        raise TypeError(f"metric must be a function of (y_true, y_prob), got {type(metric).__name__}")
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (rows, features), got shape {X.shape}")
    y = arrays.class_labels(y, "y")
    arrays.same_length(X=X, y=y)
    inner_splits = _check_splits(inner_splits)
    seed = arrays.seed(seed, maximum=2**32 - 1)
    if isinstance(seed, np.random.Generator):
        # One integer drawn from it, as the splitters do: the same inner folds in every outer fold.
        seed = arrays.seed(seed, concrete=True)
    if seed is not None:
        seed = int(seed)
    greater_is_better = arrays.boolean(greater_is_better, "greater_is_better")
    folds = _check_folds(folds, len(y))
    for number, (train, _) in enumerate(folds):
        counts = np.unique(y[train], return_counts=True)[1]
        if counts.min() < inner_splits:
            raise ValueError(f"the training rows of folds[{number}] hold a class with only {counts.min()} "
                             f"row(s), fewer than inner_splits={inner_splits}")
    return _nested_cross_validation(models, X, y, metric, folds, inner_splits, seed, greater_is_better)


def _nested_cross_validation(models, X, y, metric, folds, inner_splits, seed, greater_is_better):
    sign = 1.0 if greater_is_better else -1.0

    def best_of(mean_scores):
        # The first of the best, as scikit-learn's rank_test_score.  Means equal but for rounding
        # (two rankings with the same AUCs, summed in another order) are ties too: the last bits
        # of a sum must not choose the model.
        signed = sign * np.asarray(mean_scores, dtype=float)
        top = np.max(signed)
        return int(np.flatnonzero(signed >= top - 8 * np.finfo(float).eps * max(1.0, abs(top)))[0])

    def fold_scores(probabilities, target, test_sets):
        return [float(metric(target[test], probabilities[test])) for test in test_sets]

    # Each candidate fitted on every outer training set: the non-nested table, and the nested
    # predictions too, since the chosen candidate is refitted on the same rows.
    outer_probabilities = [_out_of_fold_probabilities(model, X, y, folds) for model in models]
    candidate_scores = np.array([fold_scores(p, y, [test for _, test in folds]) for p in outer_probabilities])
    chosen = []
    for train, _ in folds:
        inner = _stratified_k_fold(*_codes_of(y[train]), inner_splits, seed is not None, seed)
        inner_means = [np.mean(fold_scores(_out_of_fold_probabilities(model, X[train], y[train], inner), y[train],
                                           [test for _, test in inner]))
                       for model in models]
        chosen.append(best_of(inner_means))
    chosen = np.array(chosen)
    nested_scores = candidate_scores[chosen, np.arange(len(folds))]
    probabilities = np.empty(len(y))
    for (_, test), choice in zip(folds, chosen):
        probabilities[test] = outer_probabilities[choice][test]
    means = candidate_scores.mean(axis=1)
    best = best_of(means)
    return NestedScore(float(nested_scores.mean()), float(means[best]), nested_scores, chosen, candidate_scores,
                       best, probabilities)


def _codes_of(y):
    """``(codes, n_classes)`` with classes numbered by first appearance, as ``stratified_k_fold`` numbers them."""
    classes, first_seen, codes = np.unique(y, return_index=True, return_inverse=True)
    appearance = np.argsort(np.argsort(first_seen))
    return appearance[codes.ravel()], len(classes)
