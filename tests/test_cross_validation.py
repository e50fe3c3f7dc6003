"""Tests of evalmetrics.cross_validation: the splitters and out-of-fold predictions."""

import copy
import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.model_selection import GroupKFold, KFold, StratifiedKFold, TimeSeriesSplit, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from evalmetrics.calibration import brier_score, log_loss
from evalmetrics.counts import binary_counts
from evalmetrics.cross_validation import (
    Fold,
    NestedScore,
    group_k_fold,
    k_fold,
    nested_cross_validation,
    out_of_fold_probabilities,
    stratified_k_fold,
    time_series_split,
)
from evalmetrics.curves import roc_auc
from evalmetrics.models import GaussianNaiveBayes, LogisticRegression
from evalmetrics.worked_example import twelve_units


def assert_same_folds(ours, theirs):
    theirs = list(theirs)
    assert len(ours) == len(theirs)
    for fold, (train, test) in zip(ours, theirs):
        assert isinstance(fold, Fold)
        np.testing.assert_array_equal(fold.train, train)
        np.testing.assert_array_equal(fold.test, test)


# ---------------------------------------------------------------------------
# the twelve units (handbook, "Cross-validation folds")
# ---------------------------------------------------------------------------

def test_plain_folds_of_twelve_units():
    units = twelve_units()
    folds = k_fold(12, n_splits=4)
    # Handbook: units 1-3, 4-6, 7-9, 10-12, holding 2, 1, 1 and 0 faulty units.
    assert [units.unit[f.test].tolist() for f in folds] == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    assert [int(units.y_true[f.test].sum()) for f in folds] == [2, 1, 1, 0]


def test_stratified_folds_of_twelve_units():
    units = twelve_units()
    folds = stratified_k_fold(units.y_true, n_splits=4)
    # Handbook: folds of units {1, 2, 4}, {3, 6, 7}, {5, 9, 10}, {8, 11, 12}.
    assert [units.unit[f.test].tolist() for f in folds] == [[1, 2, 4], [3, 6, 7], [5, 9, 10], [8, 11, 12]]
    assert [int(units.y_true[f.test].sum()) for f in folds] == [1, 1, 1, 1]


def _fold_rates(units, folds):
    rates = []
    for fold in folds:
        c = binary_counts(units.y_true[fold.test], units.y_score[fold.test] >= 0.5)
        precision = Fraction(c.tp, c.tp + c.fp) if c.tp + c.fp else Fraction(0)  # 0/0 counted as 0
        recall = Fraction(c.tp, c.tp + c.fn)
        f1 = Fraction(2 * c.tp, 2 * c.tp + c.fp + c.fn)
        rates.append((c.tp, c.fp, c.fn, precision, recall, f1))
    return rates


def test_stratified_fold_rates_and_averaging_against_pooling():
    units = twelve_units()
    rates = _fold_rates(units, stratified_k_fold(units.y_true, n_splits=4))
    # Handbook: TP/FP/FN and P/R/F1 per stratified fold at threshold 0.5.
    assert [r[:3] for r in rates] == [(1, 2, 0), (1, 1, 0), (1, 0, 0), (0, 0, 1)]
    assert [r[3] for r in rates] == [Fraction(1, 3), Fraction(1, 2), 1, 0]
    assert [r[4] for r in rates] == [1, 1, 1, 0]
    assert [r[5] for r in rates] == [Fraction(1, 2), Fraction(2, 3), 1, 0]
    mean_precision = sum(r[3] for r in rates) / 4
    mean_recall = sum(r[4] for r in rates) / 4
    mean_f1 = sum(r[5] for r in rates) / 4
    # Handbook: mean precision 0.4583, recall 0.75, F1 0.5417 (exactly 11/24, 3/4, 13/24).
    assert mean_precision == Fraction(11, 24) and round(float(mean_precision), 4) == 0.4583
    assert mean_recall == Fraction(3, 4)
    assert mean_f1 == Fraction(13, 24) and round(float(mean_f1), 4) == 0.5417
    # Handbook: pooled precision 0.5, recall 0.75, F1 0.6 over all twelve units.
    pooled = binary_counts(units.y_true, units.y_score >= 0.5)
    assert Fraction(pooled.tp, pooled.tp + pooled.fp) == Fraction(1, 2)
    assert Fraction(pooled.tp, pooled.tp + pooled.fn) == Fraction(3, 4)
    assert Fraction(2 * pooled.tp, 2 * pooled.tp + pooled.fp + pooled.fn) == Fraction(3, 5)


def test_probability_of_a_fold_without_positives():
    # Handbook: 10 positives among 200 rows, a fold of 20: C(190, 20) / C(200, 20) = 0.3398.
    p = Fraction(math.comb(190, 20), math.comb(200, 20))
    assert round(float(p), 4) == 0.3398
    # Handbook: 2000 folds expect 679.5 without a positive.
    assert round(float(2000 * p), 1) == 679.5


def test_simulated_folds_without_positives():
    y = np.zeros(200, dtype=int)
    y[:10] = 1
    empty_plain = sum(
        int(y[fold.test].sum() == 0)
        for seed in range(200)
        for fold in k_fold(200, n_splits=10, shuffle=True, seed=seed)
    )
    # Handbook: 665 of 2000 shuffled folds had no positive; seeds 0..199 reproduce it exactly.
    assert empty_plain == 665
    # Binomial sanity check around the expected 679.5 (sd about 21; folds are not independent).
    assert abs(empty_plain - 679.5) < 4 * math.sqrt(2000 * 0.3398 * 0.6602)
    empty_stratified = sum(
        int(y[fold.test].sum() == 0)
        for seed in range(200)
        for fold in stratified_k_fold(y, n_splits=10, shuffle=True, seed=seed)
    )
    # Handbook: stratified folds produced none.
    assert empty_stratified == 0


# ---------------------------------------------------------------------------
# index for index against scikit-learn
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 7, 12, 24, 50, 101])
@pytest.mark.parametrize("n_splits", [2, 3, 5, 7])
@pytest.mark.parametrize("shuffle, seed", [(False, None), (True, 0), (True, 1), (True, 12345)])
def test_k_fold_matches_sklearn(n, n_splits, shuffle, seed):
    if n_splits > n:
        return
    ours = k_fold(n, n_splits=n_splits, shuffle=shuffle, seed=seed)
    assert_same_folds(ours, KFold(n_splits, shuffle=shuffle, random_state=seed).split(np.zeros(n)))


@pytest.mark.parametrize("counts", [(10, 10), (18, 6), (95, 5), (30, 12, 5), (7, 7, 7, 9)])
@pytest.mark.parametrize("n_splits", [2, 3, 5])
@pytest.mark.parametrize("shuffle, seed", [(False, None), (True, 0), (True, 42)])
def test_stratified_k_fold_matches_sklearn(counts, n_splits, shuffle, seed):
    rng = np.random.default_rng(sum(counts) + n_splits)
    y = rng.permutation(np.repeat(np.arange(len(counts)), counts))
    ours = stratified_k_fold(y, n_splits=n_splits, shuffle=shuffle, seed=seed)
    theirs = StratifiedKFold(n_splits, shuffle=shuffle, random_state=seed).split(np.zeros(len(y)), y)
    assert_same_folds(ours, theirs)


def test_stratified_k_fold_string_labels_match_sklearn():
    rng = np.random.default_rng(5)
    # Classes appear in a non-sorted order: scikit-learn numbers them by appearance.
    y = np.array(["spam", "ham", "eggs"])[rng.choice(3, size=60, p=[0.2, 0.5, 0.3])]
    for seed in (None, 3):
        ours = stratified_k_fold(y, n_splits=4, shuffle=seed is not None, seed=seed)
        theirs = StratifiedKFold(4, shuffle=seed is not None, random_state=seed).split(np.zeros(60), y)
        assert_same_folds(ours, theirs)


@pytest.mark.parametrize("seed", range(20))
def test_random_splits_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 80))
    n_splits = int(rng.integers(2, 6))
    groups = rng.integers(0, int(rng.integers(n_splits, 20)), size=n)
    if len(np.unique(groups)) >= n_splits:
        assert_same_folds(group_k_fold(groups, n_splits=n_splits),
                          GroupKFold(n_splits).split(np.zeros(n), None, groups))
    test_size = None if seed % 2 else int(rng.integers(1, max(2, n // (n_splits + 1))))
    gap = int(rng.integers(0, 3))
    max_train = None if seed % 3 else int(rng.integers(1, n))
    assert_same_folds(
        time_series_split(n, n_splits=n_splits, test_size=test_size, gap=gap, max_train_size=max_train),
        TimeSeriesSplit(n_splits, test_size=test_size, gap=gap, max_train_size=max_train).split(np.zeros(n)),
    )


def test_group_k_fold_string_groups_and_equal_sizes_match_sklearn():
    # Many groups of equal size: the tie order decides the folds.
    groups = np.array(list("abcdefgh"))[np.repeat(np.arange(8), 3)]
    assert_same_folds(group_k_fold(groups, n_splits=3), GroupKFold(3).split(np.zeros(24), None, groups))


# ---------------------------------------------------------------------------
# the four splitters on 24 rows, six positives, eight groups of unequal size
# ---------------------------------------------------------------------------

Y24 = np.isin(np.arange(24), [2, 3, 9, 14, 15, 21]).astype(int)
GROUPS24 = np.repeat(np.arange(8), [5, 4, 4, 3, 3, 2, 2, 1])


def test_four_splitters_on_24_rows():
    X = np.zeros((24, 1))
    plain = k_fold(24, n_splits=4, shuffle=True, seed=0)
    assert_same_folds(plain, KFold(4, shuffle=True, random_state=0).split(X))
    stratified = stratified_k_fold(Y24, n_splits=4)
    assert_same_folds(stratified, StratifiedKFold(4).split(X, Y24))
    grouped = group_k_fold(GROUPS24, n_splits=4)
    assert_same_folds(grouped, GroupKFold(4).split(X, Y24, GROUPS24))
    forward = time_series_split(24, n_splits=4)
    assert_same_folds(forward, TimeSeriesSplit(4).split(X))
    # Stratified test folds hold 1, 1, 2 and 2 of the six positives (as in the handbook's figure).
    assert [int(Y24[f.test].sum()) for f in stratified] == [1, 1, 2, 2]
    # Shuffled plain folds with seed 0 leave one fold without a positive.
    assert [int(Y24[f.test].sum()) for f in plain] == [1, 0, 2, 3]
    # Grouped folds: four test folds of six rows, no group split between folds.
    assert [len(f.test) for f in grouped] == [6, 6, 6, 6]
    for f in grouped:
        assert not set(GROUPS24[f.test]) & set(GROUPS24[f.train])
    # Time-series splits train only on rows before the test block.
    for f in forward:
        assert f.train.max() < f.test.min()


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 60), n_splits=st.integers(2, 8), seed=st.integers(0, 2**31 - 1))
def test_k_fold_partitions_the_rows(n, n_splits, seed):
    if n_splits > n:
        return
    folds = k_fold(n, n_splits=n_splits, shuffle=True, seed=seed)
    tested = np.concatenate([f.test for f in folds])
    np.testing.assert_array_equal(np.sort(tested), np.arange(n))
    sizes = [len(f.test) for f in folds]
    assert max(sizes) - min(sizes) <= 1
    for f in folds:
        np.testing.assert_array_equal(np.sort(np.r_[f.train, f.test]), np.arange(n))


@settings(max_examples=60, deadline=None)
@given(labels=st.lists(st.integers(0, 2), min_size=6, max_size=60), seed=st.integers(0, 1000))
def test_stratified_fold_class_counts_differ_by_at_most_one(labels, seed):
    y = np.array(labels)
    n_splits = 3
    if np.bincount(y)[np.unique(y)].min() < n_splits:
        return
    folds = stratified_k_fold(y, n_splits=n_splits, shuffle=True, seed=seed)
    for c in np.unique(y):
        per_fold = [int(np.sum(y[f.test] == c)) for f in folds]
        assert max(per_fold) - min(per_fold) <= 1


# ---------------------------------------------------------------------------
# out-of-fold probabilities
# ---------------------------------------------------------------------------

def _data(seed=0, n=200, p=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * [1.0, 3.0, 0.5, 10.0][:p]
    y = (X @ np.array([1.0, -0.3, 2.0, 0.05][:p]) + rng.normal(size=n) > 0).astype(int)
    return X, y


def test_out_of_fold_logistic_matches_sklearn_cross_val_predict():
    X, y = _data()
    folds = stratified_k_fold(y, n_splits=5)
    ours = out_of_fold_probabilities(LogisticRegression(penalty=1.0), X, y, folds=folds)
    sk_model = make_pipeline(StandardScaler(), SkLogisticRegression(C=1.0, solver="newton-cholesky", tol=1e-12))
    theirs = cross_val_predict(sk_model, X, y, cv=StratifiedKFold(5), method="predict_proba")[:, 1]
    assert np.max(np.abs(ours - theirs)) <= 1e-8


def test_out_of_fold_naive_bayes_matches_sklearn_cross_val_predict():
    X, y = _data(1)
    folds = k_fold(len(y), n_splits=4, shuffle=True, seed=3)
    ours = out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=folds)
    theirs = cross_val_predict(GaussianNB(), X, y, cv=KFold(4, shuffle=True, random_state=3),
                               method="predict_proba")[:, 1]
    assert np.max(np.abs(ours - theirs)) <= 1e-12


def test_out_of_fold_uses_a_model_without_the_fold():
    X, y = _data(2, n=60)
    folds = group_k_fold(np.arange(60) // 6, n_splits=5)
    oof = out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=folds)
    for fold in folds:
        model = GaussianNaiveBayes().fit(X[fold.train], y[fold.train])
        np.testing.assert_array_equal(oof[fold.test], model.predict_proba(X[fold.test]))


def test_out_of_fold_accepts_plain_pairs():
    X, y = _data(3, n=40)
    pairs = [(f.train.tolist(), f.test.tolist()) for f in k_fold(40, n_splits=4)]
    as_folds = out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=k_fold(40, n_splits=4))
    np.testing.assert_array_equal(out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=pairs), as_folds)


# ---------------------------------------------------------------------------
# bad input: one test per case
# ---------------------------------------------------------------------------

def test_k_fold_rejects_one_split():
    with pytest.raises(ValueError, match="n_splits must be at least 2"):
        k_fold(10, n_splits=1)


def test_k_fold_rejects_more_folds_than_rows():
    with pytest.raises(ValueError, match="greater than the number of rows"):
        k_fold(3, n_splits=4)


def test_k_fold_rejects_non_integer_splits():
    with pytest.raises(TypeError, match="n_splits"):
        k_fold(10, n_splits=2.5)


def test_k_fold_rejects_seed_without_shuffle():
    with pytest.raises(ValueError, match="seed has no effect"):
        k_fold(10, n_splits=2, seed=1)


def test_k_fold_rejects_non_boolean_shuffle():
    with pytest.raises(TypeError, match="shuffle"):
        k_fold(10, shuffle="yes")


def test_k_fold_rejects_non_integer_seed():
    with pytest.raises(TypeError, match="seed"):
        k_fold(10, shuffle=True, seed=1.5)


def test_stratified_rejects_a_class_smaller_than_n_splits():
    y = [0] * 10 + [1] * 2
    with pytest.raises(ValueError, match="class 1 of y has only 2 member"):
        stratified_k_fold(y, n_splits=3)


def test_stratified_names_a_string_class():
    y = ["a"] * 10 + ["rare"]
    with pytest.raises(ValueError, match="class 'rare'"):
        stratified_k_fold(y, n_splits=2)


def test_stratified_rejects_more_folds_than_rows():
    with pytest.raises(ValueError, match="greater than the number of rows"):
        stratified_k_fold([0, 1, 0], n_splits=4)


def test_stratified_rejects_continuous_target():
    with pytest.raises(ValueError, match="non-integer"):
        stratified_k_fold([0.5, 1.5, 2.5, 0.1], n_splits=2)


def test_stratified_rejects_nan_labels():
    with pytest.raises(ValueError, match="NaN"):
        stratified_k_fold([0.0, 1.0, np.nan, 1.0], n_splits=2)


def test_stratified_rejects_2d_labels():
    with pytest.raises(ValueError, match="1-D"):
        stratified_k_fold(np.zeros((4, 2)), n_splits=2)


def test_group_k_fold_rejects_more_folds_than_groups():
    with pytest.raises(ValueError, match="greater than the number of groups, 2"):
        group_k_fold([1, 1, 2, 2, 2], n_splits=3)


def test_group_k_fold_rejects_one_split():
    with pytest.raises(ValueError, match="n_splits"):
        group_k_fold([1, 2, 3], n_splits=1)


def test_group_k_fold_rejects_nan_groups():
    with pytest.raises(ValueError, match="groups contains 1 NaN"):
        group_k_fold([1.0, np.nan, 2.0, 3.0], n_splits=2)


def test_time_series_rejects_too_few_rows():
    with pytest.raises(ValueError, match="needs at least 6 rows"):
        time_series_split(5, n_splits=5)


def test_time_series_rejects_blocks_leaving_no_training_rows():
    with pytest.raises(ValueError, match="leave no row to train on"):
        time_series_split(10, n_splits=3, test_size=3, gap=1)


def test_time_series_rejects_negative_gap():
    with pytest.raises(ValueError, match="gap"):
        time_series_split(10, n_splits=2, gap=-1)


def test_time_series_rejects_zero_test_size():
    with pytest.raises(ValueError, match="test_size"):
        time_series_split(10, n_splits=2, test_size=0)


def test_out_of_fold_rejects_folds_that_do_not_cover_every_row():
    X, y = _data(n=24)
    with pytest.raises(ValueError, match="cover every row exactly once"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=time_series_split(24, n_splits=3))


def test_out_of_fold_rejects_rows_in_train_and_test():
    X, y = _data(n=20)
    folds = [Fold(np.arange(20), np.arange(10)), Fold(np.arange(10), np.arange(10, 20))]
    with pytest.raises(ValueError, match="both train and test"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=folds)


def test_out_of_fold_rejects_indices_out_of_range():
    X, y = _data(n=20)
    folds = [Fold(np.arange(10, 20), np.arange(10)), Fold(np.arange(10), np.arange(10, 21))]
    with pytest.raises(ValueError, match="outside 0..19"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=folds)


def test_out_of_fold_rejects_malformed_folds():
    X, y = _data(n=20)
    with pytest.raises(TypeError, match=r"folds\[0\]"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=[np.arange(20)])


def test_out_of_fold_rejects_empty_folds():
    X, y = _data(n=20)
    with pytest.raises(ValueError, match="folds is empty"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y, folds=[])


def test_out_of_fold_rejects_1d_features():
    X, y = _data(n=20)
    with pytest.raises(ValueError, match="X must be a 2-D"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X[:, 0], y, folds=k_fold(20))


def test_out_of_fold_rejects_mismatched_rows():
    X, y = _data(n=20)
    with pytest.raises(ValueError, match="inconsistent lengths"):
        out_of_fold_probabilities(GaussianNaiveBayes(), X, y[:-1], folds=k_fold(19))


def test_out_of_fold_rejects_a_model_without_fit():
    X, y = _data(n=20)
    with pytest.raises(TypeError, match="model must have a fit"):
        out_of_fold_probabilities(object(), X, y, folds=k_fold(20))


# ---------------------------------------------------------------------------
# the caller's model is never fitted, scikit-learn's as it is (generated)
# ---------------------------------------------------------------------------

class InPlace:
    """A duck-typed model that fits in place, as scikit-learn's do, without their API."""

    def __init__(self):
        self.direction = None

    def fit(self, X, y):
        self.direction = np.linalg.lstsq(np.column_stack([np.ones(len(X)), X]), y - 0.5, rcond=None)[0]
        return self

    def decision_function(self, X):
        return np.column_stack([np.ones(len(X)), X]) @ self.direction


def _estimators():
    return {
        "sklearn logistic": lambda: SkLogisticRegression(C=0.5, solver="newton-cholesky"),
        "sklearn naive Bayes": GaussianNB,  # predict_proba only
        "evalmetrics logistic": LogisticRegression,
        "evalmetrics naive Bayes": GaussianNaiveBayes,
        "in place": InPlace,
    }


def _state(estimator):
    """What fitting would change: the attributes (names, and the values of arrays and plain values)."""
    values = dataclasses.asdict(estimator) if dataclasses.is_dataclass(estimator) else vars(estimator)
    return {name: copy.deepcopy(value) for name, value in values.items()
            if value is None or isinstance(value, (np.ndarray, int, float, str, bool, tuple))}


def _same_state(a, b):
    return a.keys() == b.keys() and all(
        np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a)


@pytest.mark.parametrize("name", list(_estimators()))
@settings(max_examples=10, deadline=None)
@given(seeds=st.lists(st.integers(0, 10**6), min_size=2, max_size=2, unique=True))
def test_platt_calibrated_fits_copies_never_the_estimator(name, seeds):
    # Two wrappers of one estimator, fitted on different data: the first one's
    # predictions do not move, and the estimator itself is as it was.
    from evalmetrics import PlattCalibrated

    estimator = _estimators()[name]()
    before = _state(estimator)
    X1, y1 = _data(seeds[0] % 1000, n=80, p=2)
    X2, y2 = _data(seeds[1] % 1000, n=80, p=2)
    first = PlattCalibrated(estimator, n_folds=3).fit(X1, y1)
    predicted = first.predict_proba(X1)
    second = PlattCalibrated(estimator, n_folds=3).fit(X2, y2[::-1])
    np.testing.assert_array_equal(first.predict_proba(X1), predicted)
    assert first.fitted_estimator is not second.fitted_estimator is not estimator
    assert _same_state(_state(estimator), before)
    assert np.all((predicted > 0) & (predicted < 1))


@pytest.mark.parametrize("name", list(_estimators()))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 999), n_splits=st.integers(2, 5), text=st.booleans())
def test_out_of_fold_takes_any_estimator_and_leaves_it_unfitted(name, seed, n_splits, text):
    estimator = _estimators()[name]()
    if not hasattr(estimator, "predict_proba"):
        return  # InPlace has decision scores only
    X, y = _data(seed, n=60, p=2)
    folds = stratified_k_fold(y, n_splits=n_splits)
    before = _state(estimator)
    ours = out_of_fold_probabilities(estimator, X, y, folds=folds)
    assert _same_state(_state(estimator), before)
    if name.startswith("sklearn"):
        # The positive class's column, chosen by classes_: cross_val_predict's second column.
        theirs = cross_val_predict(_estimators()[name](), X, y, cv=[tuple(f) for f in folds],
                                   method="predict_proba")[:, 1]
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
        if text:  # text labels, the positive class named: sorted first or second alike
            words = np.where(y == 1, "ill", "well")
            for positive, expected in (("ill", ours), ("well", 1.0 - ours)):
                got = out_of_fold_probabilities(estimator, X, words, folds=folds, pos_label=positive)
                np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)


def test_a_two_column_predict_proba_needs_classes_and_a_positive_class():
    class TwoColumns:
        def fit(self, X, y):
            return self

        def predict_proba(self, X):
            return np.full((len(X), 2), 0.5)

    X, y = _data(4, n=20, p=2)
    with pytest.raises(TypeError, match="model.predict_proba returned 2 columns, but model has no classes_"):
        out_of_fold_probabilities(TwoColumns(), X, y, folds=k_fold(20, n_splits=2))
    words = np.where(y == 1, "ill", "well")
    with pytest.raises(ValueError, match=r"model.classes_ are \['ill', 'well'\]: pass pos_label"):
        out_of_fold_probabilities(GaussianNB(), X, words, folds=k_fold(20, n_splits=2))
    with pytest.raises(ValueError, match="pos_label='sick' does not occur in y"):
        out_of_fold_probabilities(GaussianNB(), X, words, folds=k_fold(20, n_splits=2), pos_label="sick")


# ---------------------------------------------------------------------------
# nested cross-validation
# ---------------------------------------------------------------------------

def nested_oracle(models, X, y, metric, folds, inner_splits, seed, greater):
    """Nested cross-validation written out with plain loops: refits everything, shares nothing."""
    better = (lambda a, b: a > b) if greater else (lambda a, b: a < b)

    def cv_mean(model, X_, y_, splits):
        return sum(metric(y_[test], model.fit(X_[train], y_[train]).predict_proba(X_[test]))
                   for train, test in splits) / len(splits)

    outer_scores, chosen = [], []
    for train, test in folds:
        inner = StratifiedKFold(inner_splits, shuffle=True, random_state=seed).split(X[train], y[train])
        inner = list(inner)
        means = [cv_mean(model, X[train], y[train], inner) for model in models]
        best = 0
        for k in range(1, len(models)):
            if better(means[k], means[best]):
                best = k
        chosen.append(best)
        outer_scores.append(metric(y[test], models[best].fit(X[train], y[train]).predict_proba(X[test])))
    means = [cv_mean(model, X, y, folds) for model in models]
    return outer_scores, chosen, (max if greater else min)(means)


def test_nested_cross_validation_of_the_twelve_units():
    units = twelve_units()
    X = units.y_score.reshape(-1, 1)
    outer = stratified_k_fold(units.y_true, n_splits=2)
    models = [LogisticRegression(penalty=p) for p in (0.1, 1.0, 10.0)]
    result = nested_cross_validation(models, X, units.y_true, metric=brier_score, folds=outer, inner_splits=2,
                                     greater_is_better=False)
    assert isinstance(result, NestedScore)
    # Inside each half, two inner folds prefer the penalty 1; on the halves themselves the penalty 10
    # has the lowest mean Brier score: the non-nested choice flatters itself.
    assert result.chosen.tolist() == [1, 1] and result.best == 2
    assert result.nested == pytest.approx(result.candidate_scores[1].mean(), abs=1e-15)
    assert result.non_nested == result.candidate_scores[2].mean() < result.nested
    assert round(result.nested, 4) == 0.2952 and round(result.non_nested, 4) == 0.2044
    # The probabilities are those of the chosen candidate, fitted without each row's half.
    expected = out_of_fold_probabilities(models[1], X, units.y_true, folds=outer)
    assert np.array_equal(result.probabilities, expected)


@pytest.mark.parametrize("seed", range(3))
def test_nested_cross_validation_matches_plain_loops(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(90) < 0.4).astype(int)
    X = rng.normal(size=(90, 6))
    X[:, :2] += 0.8 * y[:, None]
    folds = stratified_k_fold(y, n_splits=3, shuffle=True, seed=seed)
    models = [LogisticRegression(penalty=p) for p in (0.03, 1.0, 30.0)]
    for metric, greater in ((log_loss, False), (brier_score, False)):
        ours = nested_cross_validation(models, X, y, metric=metric, folds=folds, inner_splits=4, seed=seed,
                                       greater_is_better=greater)
        scores, chosen, non_nested = nested_oracle(models, X, y, metric, folds, 4, seed, greater)
        assert ours.chosen.tolist() == chosen
        assert np.max(np.abs(ours.fold_scores - scores)) <= 1e-12
        assert abs(ours.nested - np.mean(scores)) <= 1e-12 and abs(ours.non_nested - non_nested) <= 1e-12


class _Positive:
    """A scikit-learn classifier whose predict_proba returns the positive class only."""

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y):
        return _Positive(self.estimator.fit(X, y))

    def predict_proba(self, X):
        return self.estimator.predict_proba(X)[:, 1]


@pytest.mark.parametrize("seed", range(3))
def test_nested_cross_validation_matches_grid_search(seed):
    from sklearn.metrics import brier_score_loss, make_scorer
    from sklearn.model_selection import GridSearchCV, cross_validate

    rng = np.random.default_rng(10 + seed)
    y = (rng.random(150) < 0.35).astype(int)
    X = rng.normal(size=(150, 5)) * [1, 10, 0.1, 1, 3]
    X[:, :2] += 0.9 * y[:, None] * [1, 10]
    penalties = [0.001, 0.1, 10.0]
    outer = stratified_k_fold(y, n_splits=4, shuffle=True, seed=seed)
    candidates = [_Positive(SkLogisticRegression(C=c, solver="newton-cholesky", tol=1e-12)) for c in penalties]
    ours = nested_cross_validation(candidates, X, y, metric=brier_score, folds=outer, inner_splits=3, seed=seed,
                                   greater_is_better=False)
    scorer = make_scorer(brier_score_loss, response_method="predict_proba", greater_is_better=False)
    search = GridSearchCV(SkLogisticRegression(solver="newton-cholesky", tol=1e-12), {"C": penalties},
                          scoring=scorer, cv=StratifiedKFold(3, shuffle=True, random_state=seed))
    nested = cross_validate(search, X, y, scoring=scorer, cv=[tuple(f) for f in outer], return_estimator=True)
    flat = GridSearchCV(SkLogisticRegression(solver="newton-cholesky", tol=1e-12), {"C": penalties},
                        scoring=scorer, cv=[tuple(f) for f in outer]).fit(X, y)
    # scikit-learn negates a loss to maximise it.
    assert np.max(np.abs(ours.fold_scores + nested["test_score"])) <= 1e-12
    assert ours.chosen.tolist() == [fitted.best_index_ for fitted in nested["estimator"]]
    assert abs(ours.non_nested + flat.best_score_) <= 1e-12 and ours.best == flat.best_index_


def test_one_candidate_has_no_choice_to_flatter():
    units = twelve_units()
    X = units.y_score.reshape(-1, 1)
    folds = stratified_k_fold(units.y_true, n_splits=2)
    result = nested_cross_validation([LogisticRegression()], X, units.y_true, metric=roc_auc, folds=folds,
                                     inner_splits=2)
    assert result.nested == result.non_nested and result.chosen.tolist() == [0, 0] and result.best == 0


def test_means_equal_but_for_rounding_are_ties():
    # Two candidates whose outer fold scores are the same three numbers in reverse order: the
    # second's mean is one unit in the last place larger, yet the first must win.
    class Constant:
        def fit(self, X, y):
            return self

        def predict_proba(self, X):
            return np.full(len(X), 0.5)

    scores = [0.08, 0.83, 0.79]
    assert np.mean(scores[::-1]) > np.mean(scores)  # by rounding only
    calls = iter(scores + scores[::-1] + [0.5] * 100)  # the outer folds come first, then the inner ones

    def metric(y_true, y_prob):
        return next(calls)

    y = np.array([0, 1] * 6)
    result = nested_cross_validation([Constant(), Constant()], np.zeros((12, 1)), y, metric=metric,
                                     folds=stratified_k_fold(y, n_splits=3), inner_splits=2)
    assert result.best == 0 and result.chosen.tolist() == [0, 0, 0]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    (dict(models=[]), ValueError, "models must be a non-empty sequence"),
    (dict(models=[object()]), TypeError, r"models\[0\] must have a fit"),
    (dict(metric="roc_auc"), TypeError, "metric must be a function"),
    (dict(X=np.zeros(12)), ValueError, "X must be a 2-D array"),
    (dict(X=np.zeros((11, 1))), ValueError, "inconsistent lengths"),
    (dict(inner_splits=1), ValueError, "n_splits must be at least 2"),
    (dict(inner_splits=3), ValueError, "fewer than inner_splits=3"),
    (dict(greater_is_better="yes"), TypeError, "greater_is_better must be True or False"),
    (dict(seed=-1), ValueError, "seed must be a non-negative integer"),
    (dict(folds=[(np.arange(6), np.arange(6, 12))]), ValueError, "test folds must cover every row"),
])
def test_nested_cross_validation_refuses_bad_input(kwargs, error, message):
    units = twelve_units()
    arguments = dict(models=[LogisticRegression()], X=units.y_score.reshape(-1, 1), y=units.y_true,
                     metric=roc_auc, folds=stratified_k_fold(units.y_true, n_splits=2), inner_splits=2)
    arguments.update(kwargs)
    models, X, y = arguments.pop("models"), arguments.pop("X"), arguments.pop("y")
    with pytest.raises(error, match=message):
        nested_cross_validation(models, X, y, **arguments)


def test_nested_scores_figure_marks_the_flattering_side():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from evalmetrics.plotting.validation import plot_nested_scores

    results = [NestedScore(0.30, 0.20, None, None, None, 0, None), NestedScore(0.25, 0.25, None, None, None, 0, None),
               NestedScore(0.10, 0.15, None, None, None, 0, None)]
    fig = plot_nested_scores(results, metric="Brier score", greater_is_better=False)
    ax = fig.axes[0]
    flattering, other = (collection.get_offsets() for collection in ax.collections)
    assert flattering.tolist() == [[0.30, 0.20]] and other.tolist() == [[0.25, 0.25], [0.10, 0.15]]
    assert ax.get_xlabel() == "nested Brier score" and ax.get_ylabel() == "non-nested Brier score"
    plt.close(fig)
    # For a score the flattering side is above the diagonal.
    fig = plot_nested_scores(results, greater_is_better=True)
    flattering, _ = (collection.get_offsets() for collection in fig.axes[0].collections)
    assert flattering.tolist() == [[0.10, 0.15]]
    plt.close(fig)
