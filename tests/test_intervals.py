"""Tests of evalmetrics.intervals: Wald, Wilson and the bootstrap."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats
from sklearn.metrics import roc_auc_score

from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.intervals import (
    BootstrapResult,
    ConfidenceInterval,
    bootstrap_difference,
    bootstrap_interval,
    normal_quantile,
    wald_interval,
    wilson_interval,
)
from evalmetrics.worked_example import twelve_units


def pair_auc(y_true, y_score):
    """A slow, obviously correct AUC (pairs, ties one half); NaN with one class."""
    positives = y_score[y_true == 1]
    negatives = y_score[y_true == 0]
    if len(positives) == 0 or len(negatives) == 0:
        warnings.warn("only one class", UndefinedMetricWarning, stacklevel=2)
        return float("nan")
    diff = positives[:, None] - negatives[None, :]
    return float((np.sum(diff > 0) + 0.5 * np.sum(diff == 0)) / diff.size)


def sk_auc(y_true, y_score):
    """A fast AUC by counting, for each positive, the negatives below it (ties one half)."""
    positives = y_score[y_true == 1]
    negatives = np.sort(y_score[y_true == 0])
    if len(positives) == 0 or len(negatives) == 0:
        return float("nan")
    below = np.searchsorted(negatives, positives, "left") + np.searchsorted(negatives, positives, "right")
    return float(below.sum() / (2.0 * len(positives) * len(negatives)))


def test_fast_auc_helper_matches_sklearn():
    for seed in range(5):
        y, score = _tied_scores(seed)
        assert abs(sk_auc(y, score) - roc_auc_score(y, score)) <= 1e-15


def twelve_correct():
    units = twelve_units()
    return ((units.y_score >= 0.5) == (units.y_true == 1)).astype(float)


# ---------------------------------------------------------------------------
# the normal quantile
# ---------------------------------------------------------------------------

def test_z_of_the_worked_example():
    z = normal_quantile(0.975)
    # Handbook: z = 1.959964, z^2 = 3.8415.
    assert round(z, 6) == 1.959964
    assert round(z * z, 4) == 3.8415


def test_normal_quantile_matches_scipy_ndtri():
    grid = np.r_[np.linspace(0, 1, 4001)[1:-1], 10.0 ** -np.arange(1, 300), 1 - 10.0 ** -np.arange(1, 16)]
    for p in grid:
        expected = special.ndtri(p)
        assert abs(normal_quantile(float(p)) - expected) <= 2e-15 * max(1.0, abs(expected))


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_normal_quantile_rejects_p_outside_the_open_unit_interval(p):
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        normal_quantile(p)


def test_normal_quantile_rejects_a_string():
    with pytest.raises(TypeError, match="p must be a real number"):
        normal_quantile("0.5")


# ---------------------------------------------------------------------------
# Wald and Wilson on 8 of 12 (handbook, "How sure are we?")
# ---------------------------------------------------------------------------

def test_wald_interval_of_the_worked_example():
    low, high = wald_interval(8, 12)
    # Handbook: 0.6667 +/- 0.2667, from 0.3999 to 0.9334.
    assert round((high - low) / 2, 4) == 0.2667
    assert (round(low, 4), round(high, 4)) == (0.3999, 0.9334)


def test_wilson_interval_of_the_worked_example():
    z = normal_quantile(0.975)
    n, p = 12, 8 / 12
    # Handbook: centre (0.6667 + 3.8415/24) / (1 + 3.8415/12) = 0.8267 / 1.3201 = 0.6263.
    assert round(p + z * z / (2 * n), 4) == 0.8267
    assert round(1 + z * z / n, 4) == 1.3201
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    assert round(centre, 4) == 0.6263
    # Handbook: half-width 1.96 sqrt(0.018519 + 3.8415/576) / 1.3201 = 1.96 * 0.1587 / 1.3201 = 0.2356.
    assert round(p * (1 - p) / n, 6) == 0.018519
    assert round(math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)), 4) == 0.1587
    half_width = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert round(half_width, 4) == 0.2356
    low, high = wilson_interval(8, 12)
    # Handbook: 0.3906 to 0.8619.
    assert (round(low, 4), round(high, 4)) == (0.3906, 0.8619)
    assert low == pytest.approx(centre - half_width, abs=1e-15)
    assert high == pytest.approx(centre + half_width, abs=1e-15)


def test_interval_is_a_named_tuple():
    interval = wilson_interval(8, 12)
    assert isinstance(interval, ConfidenceInterval)
    assert interval == (interval.low, interval.high)


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
def test_wilson_matches_scipy_binomtest(confidence):
    worst = 0.0
    for n in list(range(1, 40)) + [57, 99, 143, 500, 1000, 12345]:
        for k in sorted({0, 1, 2, n // 3, n // 2, n - 2, n - 1, n} | set(range(0, n + 1, max(1, n // 15)))):
            if not 0 <= k <= n:
                continue
            ours = wilson_interval(k, n, confidence=confidence)
            theirs = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
            worst = max(worst, abs(ours.low - theirs.low), abs(ours.high - theirs.high))
    assert worst <= 1e-12


def test_wald_matches_the_normal_approximation_from_scipy():
    for k, n in [(0, 5), (3, 10), (8, 12), (50, 143), (999, 1000)]:
        p = k / n
        half = stats.norm.ppf(0.975) * math.sqrt(p * (1 - p) / n)
        ours = wald_interval(k, n)
        assert abs(ours.low - (p - half)) <= 1e-15 and abs(ours.high - (p + half)) <= 1e-15


def test_wald_leaves_the_unit_interval_where_wilson_does_not():
    # 1 of 12: the Wald interval goes below 0, Wilson's stays inside.
    assert wald_interval(1, 12).low < 0
    assert wilson_interval(1, 12).low > 0


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10_000), share=st.floats(0, 1), confidence=st.floats(0.01, 0.999))
def test_wilson_stays_in_the_unit_interval_and_contains_p_hat(n, share, confidence):
    k = int(round(share * n))
    low, high = wilson_interval(k, n, confidence=confidence)
    assert 0.0 <= low <= k / n + 1e-12 and k / n - 1e-12 <= high <= 1.0


# ---------------------------------------------------------------------------
# the bootstrap on the twelve units
# ---------------------------------------------------------------------------

def test_percentile_interval_of_accuracy():
    result = bootstrap_interval(np.mean, twelve_correct(), n_resamples=2000, seed=0)
    # Handbook: 2,000 resamples of the twelve units give 0.4167 to 0.9167; the
    # seed's draws are default_rng(0)'s, so the endpoints agree exactly (5/12 and 11/12).
    assert result.interval == (pytest.approx(5 / 12, abs=1e-15), pytest.approx(11 / 12, abs=1e-15))
    assert (round(result.interval.low, 4), round(result.interval.high, 4)) == (0.4167, 0.9167)
    assert result.estimate == pytest.approx(8 / 12, abs=1e-15)
    assert result.n_skipped == 0 and len(result.distribution) == 2000


def test_percentile_interval_of_auc_skips_resamples_without_faulty_units():
    units = twelve_units()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning may escape the loop
        result = bootstrap_interval(pair_auc, units.y_true, units.y_score, n_resamples=2000, seed=0)
    # Handbook: AUC interval 0.4831 to 1.0000, 17 of 2000 resamples skipped.
    assert (round(result.interval.low, 4), round(result.interval.high, 4)) == (0.4831, 1.0)
    assert result.n_skipped == 17
    assert len(result.distribution) == 2000 - 17
    # Handbook: 2000 (8/12)^12 = 15.4 expected; 17 is well inside a binomial range around it.
    expected = 2000 * (8 / 12) ** 12
    assert round(expected, 1) == 15.4
    assert abs(result.n_skipped - expected) <= 3 * math.sqrt(expected)
    # Handbook: AUC of the twelve units 0.7969 (= 51/64).
    assert result.estimate == pytest.approx(51 / 64, abs=1e-15)


def test_skipped_resamples_are_exactly_those_without_a_positive():
    units = twelve_units()
    result = bootstrap_interval(pair_auc, units.y_true, units.y_score, n_resamples=500, seed=9)
    rows = np.random.default_rng(9).integers(0, 12, (500, 12))
    assert result.n_skipped == int(np.sum(units.y_true[rows].sum(axis=1) == 0))


# ---------------------------------------------------------------------------
# against scipy.stats.bootstrap and a reference loop
# ---------------------------------------------------------------------------

def _tied_scores(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    score = np.round(rng.normal(size=n) + 1.2 * y, 1)  # heavy ties
    return y, score


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", [0, 1])
def test_matches_scipy_bootstrap_for_auc(method, seed):
    # The AUC is scikit-learn's in this test, to compare with a metric we did not write.
    sk_auc = roc_auc_score
    y, score = _tied_scores(seed)
    ours = bootstrap_interval(sk_auc, y, score, n_resamples=100, method=method, seed=seed)
    theirs = stats.bootstrap((y, score), sk_auc, paired=True, vectorized=False, n_resamples=100,
                             method=method, rng=seed)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12
    assert abs(ours.standard_error - theirs.standard_error) <= 1e-12
    np.testing.assert_array_equal(ours.distribution, theirs.bootstrap_distribution)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_matches_scipy_bootstrap_for_a_skewed_mean(method, confidence):
    values = np.random.default_rng(4).exponential(size=30)
    ours = bootstrap_interval(np.mean, values, n_resamples=999, method=method, confidence=confidence, seed=11)
    theirs = stats.bootstrap((values,), np.mean, paired=True, vectorized=False, n_resamples=999,
                             method=method, confidence_level=confidence, rng=11)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12


def reference_bootstrap(metric, columns, n_resamples, confidence, method, groups, seed):
    """A deliberately plain re-implementation (Efron and Tibshirani, ch. 14) to test against."""
    rng = np.random.default_rng(seed)
    n = len(columns[0])
    units = [np.array([i]) for i in range(n)] if groups is None else [
        np.flatnonzero(groups == g) for g in np.unique(groups)]
    draws = rng.integers(0, len(units), (n_resamples, len(units)))
    values = []
    for draw in draws:
        rows = np.concatenate([units[u] for u in draw])
        values.append(metric(*[c[rows] for c in columns]))
    values = np.array([v for v in values if not np.isnan(v)])
    alpha = (1 - confidence) / 2
    if method == "percentile":
        return np.quantile(values, [alpha, 1 - alpha])
    theta = metric(*columns)
    z0 = stats.norm.ppf((np.mean(values < theta) + np.mean(values <= theta)) / 2)
    jack = []
    for u in range(len(units)):
        rows = np.concatenate([units[v] for v in range(len(units)) if v != u])
        jack.append(metric(*[c[rows] for c in columns]))
    jack = np.array(jack)
    d = jack.mean() - jack
    a = np.sum(d ** 3) / (6 * np.sum(d ** 2) ** 1.5)
    levels = [stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in stats.norm.ppf([alpha, 1 - alpha])]
    return np.quantile(values, levels)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_group_bootstrap_matches_reference_loop(method):
    rng = np.random.default_rng(8)
    groups = np.repeat(np.arange(15), rng.integers(1, 6, 15))
    y, score = _tied_scores(3, n=len(groups))
    ours = bootstrap_interval(sk_auc, y, score, groups=groups, n_resamples=300, method=method, seed=5)
    expected = reference_bootstrap(sk_auc, [y, score], 300, 0.95, method, groups, 5)
    assert abs(ours.interval.low - expected[0]) <= 1e-12
    assert abs(ours.interval.high - expected[1]) <= 1e-12


def test_bca_with_skipped_resamples_matches_reference_loop():
    units = twelve_units()
    ours = bootstrap_interval(pair_auc, units.y_true, units.y_score, n_resamples=2000, method="bca", seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = reference_bootstrap(pair_auc, [units.y_true, units.y_score], 2000, 0.95, "bca", None, 0)
    assert abs(ours.interval.low - expected[0]) <= 1e-12
    assert abs(ours.interval.high - expected[1]) <= 1e-12
    assert ours.method == "bca" and ours.n_skipped == 17


# ---------------------------------------------------------------------------
# groups and the paired difference
# ---------------------------------------------------------------------------

def test_singleton_groups_resample_like_rows():
    y, score = _tied_scores(6, n=40)
    rows = bootstrap_interval(sk_auc, y, score, n_resamples=200, seed=2)
    singletons = bootstrap_interval(sk_auc, y, score, groups=np.arange(40), n_resamples=200, seed=2)
    np.testing.assert_array_equal(rows.distribution, singletons.distribution)


def test_groups_are_resampled_whole():
    groups = np.repeat(np.array(["a", "b", "c", "d", "e"]), [1, 2, 3, 4, 5])
    seen = []

    def record(g):
        seen.append(g.copy())
        return 0.0

    bootstrap_interval(record, groups, groups=groups, n_resamples=50, seed=0)
    size = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    for resample in seen[1:]:  # the first call is the estimate on the original data
        labels, counts = np.unique(resample, return_counts=True)
        assert all(count % size[label] == 0 for label, count in zip(labels, counts))
        assert sum(count // size[label] for label, count in zip(labels, counts)) == 5


def test_clustered_data_give_a_wider_group_interval():
    rng = np.random.default_rng(1)
    person = np.repeat(np.arange(30), 20)
    correct = (rng.random(600) < rng.uniform(0.2, 0.95, 30)[person]).astype(float)
    answers = bootstrap_interval(np.mean, correct, seed=0)
    people = bootstrap_interval(np.mean, correct, groups=person, seed=0)
    assert people.standard_error > 1.3 * answers.standard_error


def test_paired_difference_is_the_difference_of_same_resamples():
    y, a = _tied_scores(7)
    b = np.round(a + np.random.default_rng(0).normal(scale=0.7, size=len(a)), 1)
    result = bootstrap_difference(sk_auc, y, a, b, n_resamples=300, seed=4)
    only_a = bootstrap_interval(sk_auc, y, a, n_resamples=300, seed=4)
    only_b = bootstrap_interval(sk_auc, y, b, n_resamples=300, seed=4)
    np.testing.assert_allclose(result.distribution, only_a.distribution - only_b.distribution, atol=1e-15)
    assert result.estimate == pytest.approx(sk_auc(y, a) - sk_auc(y, b), abs=1e-15)


def test_paired_difference_is_narrower_than_separate_intervals_suggest():
    y, a = _tied_scores(2, n=150)
    b = np.round(a + np.random.default_rng(3).normal(scale=0.3, size=len(a)), 1)
    paired = bootstrap_difference(sk_auc, y, a, b, n_resamples=500, seed=0)
    separate = [bootstrap_interval(sk_auc, y, s, n_resamples=500, seed=s_seed)
                for s, s_seed in ((a, 1), (b, 2))]
    unpaired_se = math.hypot(separate[0].standard_error, separate[1].standard_error)
    assert paired.standard_error < 0.7 * unpaired_se


def test_paired_difference_matches_scipy():
    y, a = _tied_scores(3)
    b = np.round(a + np.random.default_rng(1).normal(size=len(a)), 1)

    def difference(y_, a_, b_):
        return sk_auc(y_, a_) - sk_auc(y_, b_)

    ours = bootstrap_difference(sk_auc, y, a, b, n_resamples=300, method="bca", seed=3)
    theirs = stats.bootstrap((y, a, b), difference, paired=True, vectorized=False, n_resamples=300,
                             method="bca", rng=3)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12


def test_result_is_frozen():
    result = bootstrap_interval(np.mean, twelve_correct(), n_resamples=10, seed=0)
    assert isinstance(result, BootstrapResult)
    with pytest.raises(AttributeError):
        result.estimate = 1.0


# ---------------------------------------------------------------------------
# bad input: one test per case
# ---------------------------------------------------------------------------

def test_wald_rejects_more_successes_than_trials():
    with pytest.raises(ValueError, match="successes=13 is greater than trials=12"):
        wald_interval(13, 12)


def test_wilson_rejects_zero_trials():
    with pytest.raises(ValueError, match="trials must be at least 1"):
        wilson_interval(0, 0)


def test_wilson_rejects_negative_successes():
    with pytest.raises(ValueError, match="successes must be at least 0"):
        wilson_interval(-1, 10)


def test_wilson_rejects_fractional_successes():
    with pytest.raises(TypeError, match="successes must be an integer"):
        wilson_interval(2.5, 10)


def test_wilson_rejects_confidence_of_one():
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        wilson_interval(5, 10, confidence=1.0)


def test_wald_rejects_confidence_as_percent_string():
    with pytest.raises(TypeError, match="confidence"):
        wald_interval(5, 10, confidence="95%")


@settings(max_examples=20, deadline=None)
@given(n_resamples=st.integers(-5, 1), paired=st.booleans())
def test_bootstrap_states_the_rule_of_at_least_two_resamples_up_front(n_resamples, paired):
    # One replicate gives no interval: the rule is said before anything is computed,
    # not as "undefined on 0 of 1 resamples" afterwards.
    with pytest.raises(ValueError, match=f"n_resamples must be at least 2, got {n_resamples}"):
        if paired:
            bootstrap_difference(sk_auc, [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1],
                                 n_resamples=n_resamples)
        else:
            bootstrap_interval(np.mean, [1.0, 2.0, 3.0], n_resamples=n_resamples)


# What a metric may wrongly return, the exception it gets and a piece of its message.
_BAD_VALUES = [
    (None, TypeError, "metric returned None"),
    (np.array([0.5]), TypeError, r"metric returned an array of shape \(1,\)"),
    (np.array([0.5, 0.25]), TypeError, r"metric returned an array of shape \(2,\)"),
    (np.array([[0.5]]), TypeError, r"metric returned an array of shape \(1, 1\)"),
    ("0.5", TypeError, "metric returned str"),
    (True, TypeError, "metric returned a boolean"),
    (np.bool_(False), TypeError, "metric returned a boolean"),
    (complex(0.5, 0), TypeError, "metric returned complex"),
    (np.array("x"), TypeError, "metric returned an array of dtype"),
    ([0.5], TypeError, "metric returned list"),
    (math.inf, ValueError, "metric returned inf"),
    (-math.inf, ValueError, "metric returned -inf"),
    (np.float32(np.inf), ValueError, "metric returned inf"),
    (10 ** 400, ValueError, "too large for a float"),
]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(_BAD_VALUES), at_call=st.integers(1, 12), paired=st.booleans(),
       method=st.sampled_from(["percentile", "bca"]))
def test_a_metric_returning_no_finite_number_is_named_in_the_error(case, at_call, paired, method):
    """The bad value comes on the data (call 1) or on a later resample or leave-out; the
    error names the argument (metric) and the fault, never NumPy's words or a NaN interval."""
    bad, error, message = case
    calls = []

    def metric(y, s):
        calls.append(1)
        return bad if len(calls) == at_call else float(np.mean(s[y == 1]) - np.mean(s))

    y = np.array([0, 1] * 6)
    s = np.linspace(0.0, 1.0, 12)
    where = "on the data" if at_call in (1, 2) and paired or at_call == 1 else "on resample|left out"
    with pytest.raises(error, match=message) as raised:
        if paired:
            bootstrap_difference(metric, y, s, s[::-1], n_resamples=20, seed=0, method=method)
        else:
            bootstrap_interval(metric, y, s, n_resamples=20, seed=0, method=method)
    assert raised.match(where)


def test_a_metric_returning_numbers_of_any_real_type_is_accepted():
    for kind in (int, float, np.float32, np.float64, np.int64, lambda v: np.array(v)):
        result = bootstrap_interval(lambda x, kind=kind: kind(int(x.sum() > 0)), np.arange(1.0, 7.0),
                                    n_resamples=10, seed=0)
        assert result.estimate == 1.0 and result.interval == (1.0, 1.0)


def test_bootstrap_rejects_unknown_method():
    with pytest.raises(ValueError, match='method must be "percentile" or "bca"'):
        bootstrap_interval(np.mean, [1.0, 2.0, 3.0], method="basic")


def test_bootstrap_rejects_bad_confidence():
    with pytest.raises(ValueError, match="confidence"):
        bootstrap_interval(np.mean, [1.0, 2.0, 3.0], confidence=95)


def test_bootstrap_rejects_arrays_of_different_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        bootstrap_interval(sk_auc, [0, 1, 0], [0.1, 0.2])


def test_bootstrap_rejects_no_arrays():
    with pytest.raises(ValueError, match="at least one array"):
        bootstrap_interval(np.mean)


def test_bootstrap_rejects_a_single_row():
    with pytest.raises(ValueError, match="at least 2 rows"):
        bootstrap_interval(np.mean, [1.0])


def test_bootstrap_rejects_groups_of_wrong_length():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        bootstrap_interval(np.mean, [1.0, 2.0, 3.0], groups=[1, 2])


def test_bootstrap_rejects_a_single_group():
    with pytest.raises(ValueError, match="single group"):
        bootstrap_interval(np.mean, [1.0, 2.0, 3.0], groups=[7, 7, 7])


def test_bootstrap_rejects_a_non_callable_metric():
    with pytest.raises(TypeError, match="metric must be callable"):
        bootstrap_interval("auc", [0, 1], [0.1, 0.2])


def test_bootstrap_rejects_a_non_integer_seed():
    with pytest.raises(TypeError, match="seed"):
        bootstrap_interval(np.mean, [1.0, 2.0], seed=0.5)


def test_bootstrap_rejects_a_metric_undefined_on_the_data():
    with pytest.raises(ValueError, match="undefined .NaN. on the original data"):
        bootstrap_interval(pair_auc, np.zeros(5, dtype=int), np.arange(5.0))


def test_bootstrap_rejects_a_metric_undefined_on_almost_every_resample():
    def only_on_the_original(values):
        return 1.0 if np.array_equal(values, np.arange(6.0)) else float("nan")

    with pytest.raises(ValueError, match=r"undefined \(NaN\) on 20 of 20 resamples; an interval needs at least 2"):
        bootstrap_interval(only_on_the_original, np.arange(6.0), n_resamples=20, seed=0)


def test_bca_rejects_a_degenerate_distribution():
    with pytest.raises(ValueError, match="BCa interval is undefined"):
        bootstrap_interval(lambda x: len(np.unique(x)), np.arange(30.0), method="bca", n_resamples=200, seed=0)


def test_difference_rejects_mismatched_scores():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        bootstrap_difference(sk_auc, [0, 1, 0], [0.1, 0.2, 0.3], [0.1, 0.2])


# ---------------------------------------------------------------------------
# the AUC fast path (metric=roc_auc) against scipy.stats.bootstrap
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fast_auc_path_matches_scipy_bootstrap(method, seed):
    from evalmetrics.curves import roc_auc

    y, score = _tied_scores(seed, n=120)
    ours = bootstrap_interval(roc_auc, y, score, n_resamples=300, method=method, seed=seed)
    theirs = stats.bootstrap((y, score), roc_auc_score, paired=True, vectorized=False, n_resamples=300,
                             method=method, rng=seed)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12
    assert abs(ours.standard_error - theirs.standard_error) <= 1e-12
    np.testing.assert_allclose(ours.distribution, theirs.bootstrap_distribution, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("seed", [3, 4])
def test_fast_paired_auc_difference_matches_scipy_bootstrap(method, seed):
    from evalmetrics.curves import roc_auc

    y, a = _tied_scores(seed, n=120)
    b = np.round(a + np.random.default_rng(seed).normal(size=len(a)), 1)

    def difference(y_, a_, b_):
        return roc_auc_score(y_, a_) - roc_auc_score(y_, b_)

    ours = bootstrap_difference(roc_auc, y, a, b, n_resamples=300, method=method, seed=seed)
    theirs = stats.bootstrap((y, a, b), difference, paired=True, vectorized=False, n_resamples=300,
                             method=method, rng=seed)
    assert abs(ours.interval.low - theirs.confidence_interval.low) <= 1e-12
    assert abs(ours.interval.high - theirs.confidence_interval.high) <= 1e-12
    assert abs(ours.standard_error - theirs.standard_error) <= 1e-12


def test_fast_auc_path_equals_the_loop_over_the_metric():
    from evalmetrics.curves import roc_auc

    y, score = _tied_scores(5, n=90)
    fast = bootstrap_interval(roc_auc, y, score, n_resamples=250, method="bca", seed=6)
    loop = bootstrap_interval(lambda y_, s_: roc_auc(y_, s_), y, score, n_resamples=250, method="bca", seed=6)
    np.testing.assert_array_equal(fast.distribution, loop.distribution)
    assert tuple(fast.interval) == tuple(loop.interval)
