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
model that never saw it.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from . import arrays
from ._estimators import positive_probabilities, unfitted_copy
from ._typing import ArrayLike, Label, Seed

__all__ = [
    "Fold",
    "group_k_fold",
    "k_fold",
    "out_of_fold_probabilities",
    "stratified_k_fold",
    "time_series_split",
]


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
