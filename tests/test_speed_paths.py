"""The fast paths of issue 5 give exactly what the general paths give.

Each fast path (label checks without np.unique, the bincount confusion
matrix, the one-pass Brier score, the order keys of the AUC sort, the
splitters without sorts, the AUC bootstrap from cell counts) is compared
with the general code it short-cuts, forced by switching the fast path off
with ``monkeypatch``, and with scikit-learn / SciPy where they have the
function.  Speed itself is measured in ``benchmarks/``, never here.
"""

import re
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import brier_score_loss, roc_auc_score
from sklearn.metrics import confusion_matrix as sk_confusion_matrix
from sklearn.metrics import roc_curve as sk_roc_curve
from sklearn.model_selection import GroupKFold, StratifiedKFold

import evalmetrics as em
from evalmetrics import arrays, counts, cross_validation, intervals
from evalmetrics._kernels import bootstrap_auc as _bootstrap_auc
from evalmetrics._kernels import resampling, sorting
from evalmetrics.arrays import UndefinedMetricWarning
from helpers import spy_on_engine


def no_fast_masks(monkeypatch):
    monkeypatch.setattr(arrays, "_default_binary_masks", lambda arrays_: None)
    monkeypatch.setattr(arrays, "_masks_of", lambda arrays_, pos_label: None)


def outcome(function, *args, **kwargs):
    """The result of a call, or the type and message of the error it raised."""
    try:
        return function(*args, **kwargs)
    except (ValueError, TypeError) as error:
        return type(error), str(error)


# ---------------------------------------------------------------------------
# arrays.positive_mask: min/max and comparisons instead of np.unique
# ---------------------------------------------------------------------------

LABEL_SETS = [
    np.array([0, 1, 1, 0]), np.array([1, 1, 1]), np.array([0, 0]), np.array([-1, 1, -1]),
    np.array([-1, -1]), np.array([-1, 0, 1]), np.array([-1, 0]), np.array([0, 2]), np.array([1, 2, 1]),
    np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.5, 1.0]), np.array([-1.0, 1.0]), np.array([-1.0, 0.5, 1.0]),
    np.array([True, False, True]), np.array([True, True]), np.array([0, 1], dtype=np.uint8),
    np.array(["a", "b", "a"]), np.array(["x", "y", "z"]), np.array([3, 1, 2, 3]),
]


@pytest.mark.parametrize("labels", LABEL_SETS, ids=lambda a: f"{a.dtype}-{a.tolist()}")
@pytest.mark.parametrize("pos_label", [None, 1, True, "a", 2, 0.5])
def test_positive_mask_fast_paths_equal_the_unique_path(monkeypatch, labels, pos_label):
    fast = outcome(arrays.positive_mask, labels, pos_label=pos_label)
    no_fast_masks(monkeypatch)
    slow = outcome(arrays.positive_mask, labels, pos_label=pos_label)
    if isinstance(slow, tuple):
        assert fast == slow  # the same error and message
    else:
        assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(fast, slow))


@pytest.mark.parametrize("true_labels, pred_labels", [
    ([0, 1, 1], [1, 1, 0]), ([-1, 1, 1], [1, 0, -1]), ([True, False], [1, 0]), ([0, 1], [0.0, 0.5]),
    ([1, 1], [-1, -1]), ([0, 1], [2, 0]), ([True, True], [False, False]),
])
def test_positive_mask_with_others_equals_the_unique_path(monkeypatch, true_labels, pred_labels):
    y_true, y_pred = np.array(true_labels), np.array(pred_labels)
    fast = outcome(arrays.positive_mask, y_true, others=[("y_pred", y_pred)])
    no_fast_masks(monkeypatch)
    slow = outcome(arrays.positive_mask, y_true, others=[("y_pred", y_pred)])
    if isinstance(slow, tuple):
        assert fast == slow
    else:
        assert all(np.array_equal(a, b) for a, b in zip(fast, slow))


def test_positive_mask_does_not_return_the_callers_array():
    labels = np.array([True, False, True])
    mask = arrays.positive_mask(labels)[0]
    mask[0] = False
    assert labels[0]


def test_probabilities_check_keeps_its_messages():
    with pytest.raises(ValueError, match=re.escape("y_prob contains 1 NaN or infinite value(s)")):
        arrays.probabilities([0.2, np.nan])
    with pytest.raises(ValueError, match=re.escape("y_prob contains 1 NaN or infinite value(s)")):
        arrays.probabilities([0.2, np.inf])
    with pytest.raises(ValueError, match=re.escape("must be probabilities in [0, 1]: 1 value(s) lie outside, "
                                                   "the first -0.1 (row 0)")):
        arrays.probabilities([-0.1, 0.5])
    assert np.isnan(arrays.probabilities([0.2, np.nan], finite=False)[1])


def test_scores_accept_huge_finite_values_whose_sum_overflows():
    values = arrays.scores([1e308, 1e308, -1e308])
    assert values.tolist() == [1e308, 1e308, -1e308]
    with pytest.raises(ValueError, match=re.escape("y_score contains 2 NaN or infinite value(s)")):
        arrays.scores([np.inf, -np.inf, 1.0])


# ---------------------------------------------------------------------------
# confusion matrix and Brier score
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.uint64, bool])
@pytest.mark.parametrize("weighted", [False, True])
def test_bincount_confusion_matrix_equals_the_encoded_path(monkeypatch, dtype, weighted):
    rng = np.random.default_rng(3)
    high = 2 if dtype is bool else 7
    y_true = rng.integers(0, high, 500).astype(dtype)
    y_pred = rng.integers(0, high, 500).astype(dtype)
    y_pred[y_pred == 1] = 0  # a class only in y_true: it must still get a row and a column
    weights = rng.random(500) if weighted else None
    fast = em.confusion_matrix(y_true, y_pred, sample_weight=weights)
    monkeypatch.setattr(counts, "_small_int_matrix", lambda *args: None)
    slow = em.confusion_matrix(y_true, y_pred, sample_weight=weights)
    np.testing.assert_array_equal(fast, slow)
    assert fast.dtype == slow.dtype
    np.testing.assert_allclose(fast, sk_confusion_matrix(y_true, y_pred, sample_weight=weights), rtol=0, atol=1e-12)


def test_negative_integer_labels_take_the_general_path():
    y_true, y_pred = np.array([-3, 0, 5, 5]), np.array([0, 0, 5, -3])
    np.testing.assert_array_equal(em.confusion_matrix(y_true, y_pred), sk_confusion_matrix(y_true, y_pred))


@pytest.mark.parametrize("seed", range(4))
def test_one_pass_brier_score_is_the_mean_of_squares_to_the_bit(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 1000)
    p = np.round(rng.random(1000), seed)
    assert em.brier_score(y, p) == float(np.mean((p - y) ** 2))
    assert abs(em.brier_score(y, p) - brier_score_loss(y, p)) <= 1e-12
    labels = np.where(y == 1, "yes", "no")
    assert em.brier_score(labels, p, pos_label="yes") == em.brier_score(y, p)


@pytest.mark.parametrize("n", [65_536, 65_537, 300_001])
def test_blocked_brier_score_equals_the_mean_of_squares(monkeypatch, n):
    # Block by block beyond 65,536 rows: the same value to rounding, whatever the block size.
    from evalmetrics._kernels import brier

    rng = np.random.default_rng(n)
    y, p = rng.integers(0, 2, n), rng.random(n)
    whole = float(np.mean((p - y) ** 2))
    assert em.brier_score(y, p) == pytest.approx(whole, rel=1e-15, abs=0)
    monkeypatch.setattr(brier, "_BLOCK", 1000)
    assert em.brier_score(y, p) == pytest.approx(whole, rel=1e-15, abs=0)
    assert em.brier_score(y[:999], p[:999]) == float(np.mean((p[:999] - y[:999]) ** 2))


# ---------------------------------------------------------------------------
# the order keys of the AUC sort
# ---------------------------------------------------------------------------

ADVERSARIAL = [
    [-0.0, 0.0, 1.0, -1.0],
    [5e-324, -5e-324, 0.0, -0.0, 1e-310, -1e-310],
    [1e300, -1e300, 2.0, -2.0, 0.0],
    [-5.0, 5.0, -4.5, 4.5, 0.1, -0.1],
    [-1.5, 1.9, 0.25, -0.0],
    [3.0, 7.0, 3.0, 1e-5],
    [-3.0, -7.0, -1e-5, -0.0],
]


@pytest.mark.parametrize("pool", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_order_keys_sort_like_the_scores_and_decode_back(pool):
    values = np.array(pool)
    ordered = sorting.order_keys(values)
    if ordered is None:  # only when even the cut needs 64 bits
        return
    keys, decode = ordered
    assert keys.min() >= 0
    # Equal keys exactly for equal scores (-0.0 == 0.0), order as the scores.
    np.testing.assert_array_equal(np.sign(keys[:, None] - keys[None, :]), np.sign(values[:, None] - values[None, :]))
    np.testing.assert_array_equal(decode(keys), values + 0.0)


@pytest.mark.parametrize("pool", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_auc_and_curve_on_adversarial_scores_match_sklearn(pool):
    rng = np.random.default_rng(len(pool))
    values = rng.choice(np.array(pool), 300)
    y = rng.integers(0, 2, 300)
    assert em.roc_auc(y, values) == em.pairwise_auc(y, values)
    assert abs(em.roc_auc(y, values) - roc_auc_score(y, values)) <= 1e-12
    ours = em.roc_curve(y, values)
    theirs = sk_roc_curve(y, values, drop_intermediate=False)
    np.testing.assert_array_equal(ours.thresholds[1:], theirs[2][1:])
    np.testing.assert_allclose(ours.false_positive_rate, theirs[0], rtol=0, atol=1e-12)


@pytest.mark.parametrize("decimals", [None, 2, 1, 0])
def test_average_precision_from_positive_positions_equals_the_table_sum(decimals):
    from sklearn.metrics import average_precision_score

    from evalmetrics import curves

    for seed in range(6):
        rng = np.random.default_rng(seed)
        y = (rng.random(400) < 0.2).astype(int)
        score = rng.normal(size=400) + y
        if decimals is not None:
            score = np.round(score, decimals)
        table_sum = curves._average_precision(em.threshold_table(y, score))
        assert abs(em.average_precision(y, score) - table_sum) <= 1e-15
        assert abs(em.average_precision(y, score) - average_precision_score(y, score)) <= 1e-12


def test_average_precision_without_positives_is_nan_with_a_warning():
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(em.average_precision(np.zeros(4, dtype=int), [0.1, 0.2, 0.3, 0.4]))


# ---------------------------------------------------------------------------
# splitters without sorts
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.uint64])
def test_int_table_encodes_like_np_unique(dtype):
    rng = np.random.default_rng(0)
    values = rng.integers(0, 60, 3000)
    if np.dtype(dtype).kind == "i":
        values -= 30
    values = values.astype(dtype)
    unique, table, shifted, sizes = arrays.short_range_codes(values)
    expected, codes, expected_sizes = np.unique(values, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(unique, expected)
    assert unique.dtype == expected.dtype
    np.testing.assert_array_equal(table[shifted], codes.ravel())
    np.testing.assert_array_equal(sizes, expected_sizes)


@pytest.mark.parametrize("values", [np.arange(-128, 128, dtype=np.int8)[::-1],
                                    np.array([2**63 + 5, 2**63 + 1, 2**63 + 9], dtype=np.uint64),
                                    np.array([-(2**63), -(2**63) + 3])])
def test_int_table_handles_full_ranges_of_narrow_and_huge_integers(values):
    unique, table, shifted, _ = arrays.short_range_codes(values)
    expected, codes = np.unique(values, return_inverse=True)
    np.testing.assert_array_equal(unique, expected)
    np.testing.assert_array_equal(table[shifted], codes.ravel())


def test_first_appearance_finds_a_class_that_appears_last():
    y = np.r_[np.zeros(10_000, dtype=int), 7, np.ones(5, dtype=int)]
    unique, table, shifted, _ = arrays.short_range_codes(y)
    np.testing.assert_array_equal(cross_validation._first_appearance(table, shifted, 3), [0, 10_001, 10_000])


@pytest.mark.parametrize("shuffle", [False, True])
def test_stratified_folds_with_late_classes_match_sklearn(shuffle):
    rng = np.random.default_rng(4)
    y = np.r_[rng.integers(3, 6, 4000), np.full(7, 9), np.full(6, 1)]  # two classes first seen at the end
    seed = 3 if shuffle else None
    ours = em.stratified_k_fold(y, n_splits=5, shuffle=shuffle, seed=seed)
    theirs = StratifiedKFold(5, shuffle=shuffle, random_state=seed).split(np.zeros(len(y)), y)
    for fold, (train, test) in zip(ours, theirs):
        np.testing.assert_array_equal(fold.train, train)
        np.testing.assert_array_equal(fold.test, test)


def test_group_folds_of_integer_groups_equal_those_of_the_same_groups_as_strings():
    rng = np.random.default_rng(5)
    groups = rng.integers(0, 400, 6000)
    as_ints = em.group_k_fold(groups, n_splits=5)
    # Zero-padded strings sort like the integers, so the general path sees the same groups.
    as_strings = em.group_k_fold(np.char.zfill(groups.astype(str), 3), n_splits=5)
    theirs = GroupKFold(5).split(np.zeros(len(groups)), groups=groups)
    for a, b, (train, test) in zip(as_ints, as_strings, theirs):
        np.testing.assert_array_equal(a.test, b.test)
        np.testing.assert_array_equal(a.train, b.train)
        np.testing.assert_array_equal(a.test, test)
        np.testing.assert_array_equal(a.train, train)


def test_unshuffled_k_fold_blocks_are_int64_like_sklearn():
    folds = em.k_fold(11, n_splits=3)
    assert [f.test.tolist() for f in folds] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]
    assert [f.train.tolist() for f in folds][1] == [0, 1, 2, 3, 8, 9, 10]
    assert all(f.train.dtype == np.int64 and f.test.dtype == np.int64 for f in folds)


# ---------------------------------------------------------------------------
# the AUC bootstrap from cell counts
# ---------------------------------------------------------------------------

def generic_auc(y, score):
    """The package's AUC behind a wrapper, which the fast path does not recognise."""
    return em.roc_auc(y, score)


def generic_rank_auc(y, score):
    return em.rank_auc(y, score)


def scores(seed, n, decimals, share=0.3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < share).astype(int)
    y[:2] = [0, 1]
    a = rng.normal(size=n) + y
    b = a + rng.normal(size=n)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return y, a, b


def assert_same(fast, slow):
    np.testing.assert_array_equal(fast.distribution, slow.distribution)
    assert fast.estimate == slow.estimate
    assert tuple(fast.interval) == tuple(slow.interval)
    assert (fast.n_skipped, fast.standard_error, fast.method) == (slow.n_skipped, slow.standard_error, slow.method)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_auc_bootstrap_fast_path_equals_the_generic_path_to_the_bit(method, decimals):
    y, a, _ = scores(1, 150, decimals)
    fast = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=400, method=method, seed=7)
    slow = em.bootstrap_interval(generic_auc, y, a, n_resamples=400, method=method, seed=7)
    assert_same(fast, slow)


@pytest.mark.parametrize("metric", [em.rank_auc, em.pairwise_auc])
def test_the_other_auc_functions_take_the_fast_path_too(monkeypatch, metric):
    y, a, _ = scores(2, 90, 1)
    fast = em.bootstrap_interval(metric, y, a, n_resamples=200, method="bca", seed=1)
    slow = em.bootstrap_interval(generic_rank_auc, y, a, n_resamples=200, method="bca", seed=1)
    assert_same(fast, slow)
    calls = spy_on_engine(monkeypatch)
    em.bootstrap_interval(metric, y, a, n_resamples=10, seed=1)
    em.bootstrap_interval(generic_rank_auc, y, a, n_resamples=10, seed=1)
    assert len(calls) == 1  # the package's function took the engine, the wrapper did not


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("decimals", [None, 1])
def test_auc_difference_fast_path_equals_the_generic_path(method, decimals):
    y, a, b = scores(3, 120, decimals)
    fast = em.bootstrap_difference(em.roc_auc, y, a, b, n_resamples=300, method=method, seed=2)
    slow = em.bootstrap_difference(generic_auc, y, a, b, n_resamples=300, method=method, seed=2)
    assert_same(fast, slow)


def test_skipped_resamples_are_counted_like_the_generic_path():
    units = em.twelve_units()
    fast = em.bootstrap_interval(em.roc_auc, units.y_true, units.y_score, n_resamples=2000, method="bca", seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        slow = em.bootstrap_interval(generic_auc, units.y_true, units.y_score, n_resamples=2000, method="bca",
                                     seed=0)
    assert_same(fast, slow)
    # Handbook: 17 of the 2000 resamples of the twelve units have no faulty unit.
    assert fast.n_skipped == 17


def test_string_labels_and_minus_one_labels_take_the_fast_path():
    y, a, _ = scores(4, 100, 1)
    base = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=100, seed=3)
    assert_same(em.bootstrap_interval(em.roc_auc, np.where(y == 1, 1, -1), a, n_resamples=100, seed=3), base)
    assert_same(em.bootstrap_interval(em.roc_auc, y.astype(bool), a, n_resamples=100, seed=3), base)


def test_fast_path_validates_like_the_metric():
    with pytest.raises(ValueError, match="pos_label"):
        em.bootstrap_interval(em.roc_auc, np.array([0, 1, 2, 1]), np.arange(4.0), n_resamples=10)
    with pytest.raises(ValueError, match="undefined"):
        em.bootstrap_interval(em.roc_auc, np.zeros(5, dtype=int), np.arange(5.0), n_resamples=10)


@pytest.mark.parametrize("decimals", [None, 1])
def test_closed_form_jackknife_equals_n_refits(decimals):
    y, a, b = scores(5, 70, decimals)
    y[:3] = 1  # enough positives; leaving one out never empties a class
    engine = _bootstrap_auc.auc_engine(y, a)
    refits = intervals._jackknife(generic_auc, [y, a], len(y), None)
    np.testing.assert_array_equal(engine.jackknife(), refits)
    pair = _bootstrap_auc.auc_engine(y, a, b)
    differences = intervals._jackknife(lambda y_, a_, b_: em.roc_auc(y_, a_) - em.roc_auc(y_, b_),
                                       [y, a, b], len(y), None)
    np.testing.assert_array_equal(pair.jackknife(), differences)


def test_jackknife_leaving_out_the_only_positive_is_nan():
    y = np.array([0, 0, 1, 0])
    leave_out = _bootstrap_auc.auc_engine(y, np.array([0.1, 0.4, 0.3, 0.2])).jackknife()
    assert np.isnan(leave_out[2]) and not np.any(np.isnan(np.delete(leave_out, 2)))


def test_chunked_draws_are_the_draws_of_one_call(monkeypatch):
    y, a, _ = scores(6, 50, 1)
    whole = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=97, seed=4)
    monkeypatch.setattr(resampling, "CHUNK", 120)  # two or three resamples per chunk
    assert_same(em.bootstrap_interval(em.roc_auc, y, a, n_resamples=97, seed=4), whole)
    assert_same(em.bootstrap_interval(generic_auc, y, a, n_resamples=97, seed=4), whole)
    rows = np.random.default_rng(4).integers(0, 50, (97, 50))
    expected = [roc_auc_score(y[r], a[r]) if 0 < y[r].sum() < 50 else np.nan for r in rows]
    np.testing.assert_allclose(whole.distribution, [v for v in expected if not np.isnan(v)], rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("decimals", [None, 2])
def test_fast_auc_bootstrap_matches_scipy(method, decimals):
    y, a, b = scores(8, 200, decimals)
    ours = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=500, method=method.lower(), seed=9)
    theirs = stats.bootstrap((y, a), roc_auc_score, paired=True, vectorized=False, n_resamples=500,
                             method=method, rng=9)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12
    assert abs(ours.standard_error - theirs.standard_error) <= 1e-12
