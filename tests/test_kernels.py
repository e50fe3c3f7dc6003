"""The kernel layer (``evalmetrics._kernels``) and what every caller gets from it.

* The bootstrap engine is a property the metric carries, used only once it has
  shown that it computes the caller's metric (on the data and on two
  resamples): a ``functools.wraps`` wrapper of ``roc_auc`` that computes the
  AUC takes it (proved with a spy on the engine, never by timing) and gives
  the same interval to the bit; a wrapper that computes anything else, on the
  data or only on resamples, gets the plain path's interval without a
  warning; a plain lambda takes the plain path and agrees to 1e-12;
  ``engine=`` selects it explicitly, and an explicit engine that computes
  another number is an error.
* Every caller of a kernel gets the kernel's number: DeLong, the bootstrap
  engine and the teaching versions divide the same ``2 U``; the one Brier
  score and the one normal distribution function agree with their plain
  formulas and with SciPy.
* The packed sort keys order arbitrary finite floats (hypothesis: signed
  zeros, subnormals, values near +-max) as ``np.argsort(kind="stable")``.
* Precision, on generated cases: every weighted metric that is a ratio of
  weighted sums is unchanged (1e-12, and to the bit for powers of two) when
  the weights are rescaled anywhere in the float range; integer scores
  beyond 2**53 keep their order (against exact integer comparisons).
"""

from __future__ import annotations

import functools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import evalmetrics as em
from evalmetrics._kernels import auc, brier, normal, sorting
from evalmetrics._kernels import bootstrap_auc as _bootstrap_auc
from helpers import assert_close, spy_on_engine
from test_common import SCORE_METRICS


def tied_scores(seed, n=120, decimals=1):
    """Binary labels and scores with ties (rounded to ``decimals``), both classes present."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    y[:2] = [0, 1]
    a = rng.normal(size=n) + y
    b = a + rng.normal(size=n)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return y, a, b


@pytest.fixture
def engine_calls(monkeypatch):
    """A list that records every engine built: the proof that a run took the fast path."""
    return spy_on_engine(monkeypatch)


def assert_identical(a, b):
    np.testing.assert_array_equal(a.distribution, b.distribution)
    assert (a.estimate, tuple(a.interval), a.standard_error, a.n_skipped) == (
        b.estimate, tuple(b.interval), b.standard_error, b.n_skipped)


# ---------------------------------------------------------------------------
# the engine as a property of the metric
# ---------------------------------------------------------------------------

def test_the_auc_functions_carry_the_engine():
    for metric in (em.roc_auc, em.rank_auc, em.pairwise_auc):
        assert metric.bootstrap_engine is _bootstrap_auc.auc_engine


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("decimals", [None, 1])
def test_a_wraps_wrapper_of_roc_auc_takes_the_engine_and_gives_the_same_interval(engine_calls, method, decimals):
    y, a, _ = tied_scores(1, decimals=decimals)

    @functools.wraps(em.roc_auc)
    def wrapped(y_true, y_score):
        return em.roc_auc(y_true, y_score)

    direct = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=300, method=method, seed=3)
    assert len(engine_calls) == 1
    through = em.bootstrap_interval(wrapped, y, a, n_resamples=300, method=method, seed=3)
    assert len(engine_calls) == 2  # the wrapper went through the engine too
    assert_identical(through, direct)


# Numbers a wrapper may compute instead of the AUC it wraps: on the data already, or only
# on resamples (the AUC of the distinct (label, score) pairs equals the AUC while no row
# repeats, as on distinct data, and differs on a resample, which repeats rows).
def _distinct_pairs_auc(y, s):
    pairs = np.unique(np.column_stack([y, s]), axis=0)
    return em.roc_auc(pairs[:, 0], pairs[:, 1])


OTHER_NUMBERS = {
    "1 - AUC": lambda y, s: 1 - em.roc_auc(y, s),
    "AUC of -s": lambda y, s: em.roc_auc(y, -s),
    "AUC squared": lambda y, s: em.roc_auc(y, s) ** 2,
    "AUC + 1e-9": lambda y, s: em.roc_auc(y, s) + 1e-9,
    "AUC of the distinct pairs": _distinct_pairs_auc,
    "average precision": lambda y, s: em.average_precision(y, s),
}


def test_the_issue_case_a_wrapper_computing_one_minus_the_auc():
    y, a, _ = tied_scores(21, n=200, decimals=None)

    @functools.wraps(em.roc_auc)
    def one_minus(y_true, y_score):
        return 1 - em.roc_auc(y_true, y_score)

    result = em.bootstrap_interval(one_minus, y, a, n_resamples=200, seed=0)
    assert result.estimate == 1 - em.roc_auc(y, a)
    assert result.interval.low <= result.estimate <= result.interval.high


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(sorted(OTHER_NUMBERS)), seed=st.integers(0, 10_000),
       decimals=st.sampled_from([None, 2, 1]), method=st.sampled_from(["percentile", "bca"]),
       paired=st.booleans(), grouped=st.booleans())
def test_a_wrapper_computing_another_number_gets_the_plain_interval_without_a_word(
        name, seed, decimals, method, paired, grouped):
    # A constant shift cancels in a difference, which then is the AUC's difference.
    assume(not (paired and name == "AUC + 1e-9"))
    y, a, b = tied_scores(seed, n=60, decimals=decimals)
    other = OTHER_NUMBERS[name]
    groups = np.arange(len(y)) % 12 if grouped else None
    wrapped = functools.wraps(em.roc_auc)(lambda y_true, y_score: other(y_true, y_score))
    assert wrapped.bootstrap_engine is _bootstrap_auc.auc_engine  # the attribute came along
    calls = []
    real = _bootstrap_auc.AucEngine.replicates
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_bootstrap_auc.AucEngine, "replicates",
                      lambda self, *args: calls.append(1) or real(self, *args))
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            options = dict(n_resamples=40, seed=seed, method=method, groups=groups)
            if paired:
                through = em.bootstrap_difference(wrapped, y, a, b, **options)
                plain = em.bootstrap_difference(other, y, a, b, engine=None, **options)
            else:
                through = em.bootstrap_interval(wrapped, y, a, **options)
                plain = em.bootstrap_interval(other, y, a, engine=None, **options)
    assert calls == []  # the engine was built, failed the check and computed nothing
    assert_identical(through, plain)


@pytest.mark.parametrize("name", sorted(OTHER_NUMBERS))
def test_an_explicit_engine_that_computes_another_number_is_an_error(name):
    y, a, b = tied_scores(22, n=80, decimals=None)
    other = OTHER_NUMBERS[name]
    with pytest.raises(ValueError, match="engine does not compute metric: on (the data|check resample 1)"):
        em.bootstrap_interval(other, y, a, n_resamples=20, seed=1, engine=_bootstrap_auc.auc_engine)
    if name != "AUC + 1e-9":  # a constant shift cancels in a difference
        with pytest.raises(ValueError, match="engine does not compute metric"):
            em.bootstrap_difference(other, y, a, b, n_resamples=20, seed=1, engine=_bootstrap_auc.auc_engine)


def test_a_wraps_wrapper_takes_the_engine_in_the_paired_difference(engine_calls):
    y, a, b = tied_scores(2)

    @functools.wraps(em.roc_auc)
    def wrapped(y_true, y_score):
        return em.roc_auc(y_true, y_score)

    direct = em.bootstrap_difference(em.roc_auc, y, a, b, n_resamples=200, seed=4)
    through = em.bootstrap_difference(wrapped, y, a, b, n_resamples=200, seed=4)
    assert len(engine_calls) == 2
    assert_identical(through, direct)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_a_plain_lambda_takes_the_generic_path_and_agrees(engine_calls, method):
    y, a, _ = tied_scores(5)
    plain = em.bootstrap_interval(lambda t, s: em.roc_auc(t, s), y, a, n_resamples=300, method=method, seed=6)
    assert engine_calls == []  # no attribute, no engine: the metric was called on every resample
    fast = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=300, method=method, seed=6)
    np.testing.assert_allclose(plain.distribution, fast.distribution, rtol=0, atol=1e-12)
    np.testing.assert_allclose(tuple(plain.interval), tuple(fast.interval), rtol=0, atol=1e-12)
    assert abs(plain.estimate - fast.estimate) <= 1e-12


def test_engine_none_calls_the_metric_and_an_explicit_engine_is_used(engine_calls):
    y, a, _ = tied_scores(7)
    calls = []

    def counted(t, s):
        calls.append(1)
        return em.roc_auc(t, s)

    generic = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=50, seed=8, engine=None)
    assert engine_calls == []
    chosen = em.bootstrap_interval(counted, y, a, n_resamples=50, seed=8, engine=_bootstrap_auc.auc_engine)
    # The engine replaced every metric call on the 50 resamples: the metric ran on the
    # data and on the check's two resamples only.
    assert len(engine_calls) == 1 and len(calls) == 3
    np.testing.assert_allclose(generic.distribution, chosen.distribution, rtol=0, atol=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("paired", [False, True])
def test_the_engine_resamples_whole_groups_as_the_plain_path_does(engine_calls, method, paired):
    y, a, b = tied_scores(9, decimals=1)
    groups = np.repeat(np.arange(30), 4)[np.random.default_rng(2).permutation(len(y))]
    options = dict(n_resamples=80, seed=1, groups=groups, method=method)
    if paired:
        fast = em.bootstrap_difference(em.roc_auc, y, a, b, **options)
        plain = em.bootstrap_difference(em.roc_auc, y, a, b, engine=None, **options)
    else:
        fast = em.bootstrap_interval(em.roc_auc, y, a, **options)
        plain = em.bootstrap_interval(em.roc_auc, y, a, engine=None, **options)
    assert len(engine_calls) == 1
    assert_identical(fast, plain)


def test_the_engine_is_not_used_with_weights(engine_calls):
    y, a, _ = tied_scores(9)

    @functools.wraps(em.roc_auc)
    def weighted(y_true, y_score, sample_weight):
        return em.roc_auc(y_true, y_score, sample_weight=sample_weight)

    # The engine computes the AUC of (y_true, y_score) alone: a third column is not its input.
    em.bootstrap_interval(weighted, y, a, np.ones(len(y)), n_resamples=20, seed=1)
    assert engine_calls == []


def test_bad_engine_is_refused():
    y, a, _ = tied_scores(10)
    with pytest.raises(TypeError, match="engine"):
        em.bootstrap_interval(em.roc_auc, y, a, n_resamples=20, engine="fast")

    class NoCheck:  # the former protocol: no at(rows), so nothing to check it against
        estimate = replicates = jackknife = staticmethod(lambda *args: 0.5)

    with pytest.raises(TypeError, match=r"engine\(\*arrays\) must return an engine with estimate\(\), at\(rows\)"):
        em.bootstrap_interval(em.roc_auc, y, a, n_resamples=20, engine=lambda *arrays: NoCheck())


# ---------------------------------------------------------------------------
# one count, one Brier score, one normal distribution function
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("decimals", [None, 1, 0])
def test_every_auc_route_divides_the_same_count(decimals):
    y, a, _ = tied_scores(12, n=200, decimals=decimals)
    is_positive = y == 1
    doubled, positives, negatives = auc.twice_u(a, is_positive)
    expected = auc.auc_from_twice_u(doubled, positives, negatives)
    engine = _bootstrap_auc.auc_engine(y, a)
    routes = [em.roc_auc(y, a), em.rank_auc(y, a), em.pairwise_auc(y, a), em.delong_interval(y, a).estimate,
              engine.estimate(), auc.roc_auc(is_positive, a)]
    assert routes == [expected] * len(routes)  # to the bit


def test_the_brier_kernel_is_the_mean_of_squares():
    rng = np.random.default_rng(13)
    y, p, w = rng.integers(0, 2, 500), rng.random(500), rng.random(500)
    assert brier.brier(y == 1, p) == float(np.mean((p - y) ** 2))
    assert brier.brier(y.astype(float), p, w) == pytest.approx(float(np.sum(w * (p - y) ** 2) / w.sum()), rel=1e-14)
    assert em.brier_score(y, p, sample_weight=w) == brier.brier(y == 1, p, w)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(2, 60), decimals=st.sampled_from([0, 1, 2, None]),
       width=st.sampled_from([np.uint8, np.int32, np.int64]))
def test_the_kernels_of_a_resample_from_counts_equal_the_metrics_on_its_rows(seed, n, decimals, width):
    """2 U, the average precision and the Brier score of a resample given as counts (what the
    engines compute) equal the kernels on the rows repeated that many times."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.random(n) if decimals is None else np.round(rng.random(n), decimals)
    counts = rng.integers(0, 4, n).astype(width)
    rows_y, rows_s = np.repeat(y, counts), np.repeat(s, counts)
    positives, drawn = int(counts[y].sum()), int(counts.sum())
    assume(0 < positives < drawn)
    # Counts in increasing order of score, negatives first in a tie: the layout the engines use.
    order = np.lexsort((y, s))
    positive_rows, negative_rows = order[y[order]], order[~y[order]]
    negatives_upto = np.r_[0, np.cumsum(counts[negative_rows].astype(np.int64))]
    below = np.searchsorted(s[negative_rows], s[positive_rows], "left")
    at_most = np.searchsorted(s[negative_rows], s[positive_rows], "right")
    twice = auc.twice_u_of_counts(counts[positive_rows], negatives_upto, at_most, below)
    assert int(twice) == auc.twice_u(rows_s, rows_y)[0]
    if np.array_equal(at_most, below):
        assert int(auc.twice_u_of_counts(counts[positive_rows], negatives_upto, at_most)) == int(twice)
    # The average precision: per distinct positive score, the positives there and the rows at or above it.
    distinct = np.unique(s[y])
    gained = np.array([counts[y & (s == v)].sum() for v in distinct])
    true_positives = np.array([counts[y & (s >= v)].sum() for v in distinct])
    # A score no drawn row reaches flags nothing and gains nothing: 0 / 1, as the report's engine says.
    flagged = np.maximum([counts[s >= v].sum() for v in distinct], 1)
    found = auc.average_precision_of_counts(gained, true_positives, flagged, positives)
    assert found == pytest.approx(em.average_precision(rows_y, rows_s), abs=1e-12)
    assert brier.brier_of_counts(counts, y, s, positives, drawn) == pytest.approx(
        brier.brier(rows_y, rows_s), abs=1e-12)


def test_the_normal_cdf_matches_scipy_in_both_tails():
    from scipy.special import ndtr

    # Down to Phi = 1e-300 (SciPy flushes the subnormal tail to 0); its own error there is near 1e-13.
    x = np.r_[np.linspace(-37.0, 8.0, 2001), -1e300, 0.0, 1e300, -np.inf, np.inf]
    np.testing.assert_allclose(em.normal_cdf(x), ndtr(x), rtol=5e-13, atol=0)
    assert em.normal_cdf(1.959963984540054) == pytest.approx(0.975, abs=1e-15)
    assert isinstance(em.normal_cdf(0.5), float) and em.normal_cdf(0) == 0.5
    for p in (1e-300, 1e-10, 0.025, 0.5, 0.9, 1 - 1e-12):
        assert normal.cdf(normal.quantile(p)) == pytest.approx(p, rel=1e-13)


def test_normal_cdf_refuses_what_is_not_a_number():
    with pytest.raises(TypeError, match="x"):
        em.normal_cdf("1.0")
    with pytest.raises(TypeError, match="x"):
        em.normal_cdf(True)
    with pytest.raises(ValueError, match="NaN"):
        em.normal_cdf(math.nan)
    with pytest.raises(ValueError, match="NaN"):
        em.normal_cdf([0.0, math.nan])


# ---------------------------------------------------------------------------
# the packed sort keys over arbitrary finite floats (hypothesis)
# ---------------------------------------------------------------------------

_LARGEST = np.finfo(np.float64).max
_EDGES = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072014e-308,
          np.nextafter(2.2250738585072014e-308, 0.0), _LARGEST, -_LARGEST, np.nextafter(_LARGEST, 0.0),
          1.0, -1.0, np.nextafter(1.0, 2.0), 2.0 ** 53, -(2.0 ** 53)]
# Any finite double (hypothesis favours the awkward ones), or a hand-picked edge.
finite_floats = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(_EDGES))


@st.composite
def scored_rows(draw):
    values = np.array(draw(st.lists(finite_floats, min_size=1, max_size=60)), dtype=np.float64)
    if draw(st.booleans()):  # ties: repeat some of the values
        values = values[np.array(draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=60)))]
    labels = np.array(draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values))))
    return values, labels


def _check_keys(values, labels):
    """The keys of ``values`` sort them as np.argsort(kind="stable") does, and decode back."""
    ordered = sorting.order_keys(values)
    if ordered is None:
        return False
    keys, decode = ordered
    assert keys.dtype == np.int64 and keys.min() >= 0
    np.testing.assert_array_equal(np.argsort(keys, kind="stable"), np.argsort(values, kind="stable"))
    # Decoded, the sorted keys are the sorted scores, bit for bit (-0.0 read as +0.0).
    decoded = decode(np.sort(keys))
    np.testing.assert_array_equal(decoded.view(np.int64), (np.sort(values) + 0.0).view(np.int64))
    # With the labels packed in: negatives first inside a tie, the labels carried along.
    packed, decode = sorting.order_keys(values, labels.astype(np.uint8))
    assert packed.dtype == np.uint64
    by_score_then_label = np.lexsort((labels, values))
    np.testing.assert_array_equal(np.argsort(packed, kind="stable"), by_score_then_label)
    np.testing.assert_array_equal(sorting.labels_of(np.sort(packed)), labels[by_score_then_label])
    descending = decode((np.sort(packed)[::-1] >> np.uint64(1)).view(np.int64), descending=True)
    np.testing.assert_array_equal(descending.view(np.int64), (np.sort(values)[::-1] + 0.0).view(np.int64))
    return True


@settings(max_examples=400, deadline=None)
@given(scored_rows())
def test_packed_keys_sort_like_a_stable_argsort(rows):
    values, labels = rows
    if not _check_keys(values, labels):
        # Only a range no 63-bit key can span (both signs, tiny to huge) is split by sign,
        # and each sign alone always fits.
        above = values > 0
        assert above.any() and (~above).any()
        for part in (above, ~above):
            assert _check_keys(values[part], labels[part])


@settings(max_examples=200, deadline=None)
@given(scored_rows())
def test_auc_and_table_over_arbitrary_floats_equal_the_pairwise_oracle(rows):
    values, labels = rows
    doubled, positives, negatives = auc.twice_u(values, labels)
    assert (positives, negatives) == (int(labels.sum()), int((~labels).sum()))
    positive, negative = values[labels][:, None], values[~labels][None, :]
    assert doubled == 2 * int(np.sum(positive > negative)) + int(np.sum(positive == negative))
    thresholds, tp, fp = sorting.score_table(values, labels)
    distinct = np.unique(values + 0.0)[::-1]
    np.testing.assert_array_equal(thresholds, distinct)
    np.testing.assert_array_equal(tp, [np.sum(labels & (values >= t)) for t in distinct])
    np.testing.assert_array_equal(fp, [np.sum(~labels & (values >= t)) for t in distinct])


# ---------------------------------------------------------------------------
# precision: weights at any scale, integer scores beyond 2**53
# ---------------------------------------------------------------------------

def _flat(value):
    """Any result (number, array, named tuple or dataclass of them) as one flat float array."""
    if hasattr(value, "__dataclass_fields__"):
        value = [getattr(value, name) for name in value.__dataclass_fields__]
    if isinstance(value, (tuple, list)):
        return np.concatenate([_flat(v) for v in value])
    return np.atleast_1d(np.asarray(value, dtype=float)).ravel()


def _pr_points(y, s, **options):
    return tuple(em.precision_recall_curve(y, s, **options)[:2])


def _roc_points(y, s, **options):
    return tuple(em.roc_curve(y, s, **options)[:2])


def _youden(y, s, **options):
    return tuple(em.youden_index(y, s, **options))


# Every weighted metric whose value is a ratio of weighted sums: (name, call, second argument).
# (Platt scaling is not one: its smoothed targets add one example of each class in units of weight.)
SCALE_FREE = [
    ("accuracy", em.accuracy, "pred"),
    ("precision", functools.partial(em.precision, zero_division=0), "pred"),
    ("recall", functools.partial(em.recall, zero_division=0), "pred"),
    ("specificity", functools.partial(em.specificity, zero_division=0), "pred"),
    ("false_positive_rate", functools.partial(em.false_positive_rate, zero_division=0), "pred"),
    ("negative_predictive_value", functools.partial(em.negative_predictive_value, zero_division=0), "pred"),
    ("f1", functools.partial(em.f1, zero_division=0), "pred"),
    ("f_beta", functools.partial(em.f_beta, beta=2.0, zero_division=0), "pred"),
    ("balanced_accuracy", functools.partial(em.balanced_accuracy, zero_division=0), "pred"),
    ("matthews_correlation", em.matthews_correlation, "pred"),
    ("cohen_kappa", functools.partial(em.cohen_kappa, zero_division=0), "pred"),
    ("cohen_kappa_quadratic", functools.partial(em.cohen_kappa, weights="quadratic", zero_division=0), "pred"),
    ("averaged_scores_macro", functools.partial(em.averaged_scores, zero_division=0), "pred"),
    ("averaged_scores_weighted", functools.partial(em.averaged_scores, average="weighted", zero_division=0),
     "pred"),
    ("f1_of_macro_averages", functools.partial(em.f1_of_macro_averages, zero_division=0), "pred"),
    ("roc_auc", em.roc_auc, "score"),
    ("pairwise_auc", em.pairwise_auc, "score"),
    ("average_precision", em.average_precision, "score"),
    ("roc_curve", _roc_points, "score"),
    ("precision_recall_curve", _pr_points, "score"),
    ("precision_at_recall", functools.partial(em.precision_at_recall, recall=0.5), "score"),
    ("recall_at_false_positive_rate", functools.partial(em.recall_at_false_positive_rate, false_positive_rate=0.3),
     "score"),
    ("youden_index", _youden, "score"),
    ("brier_score", em.brier_score, "prob"),
    ("brier_decomposition", lambda y, p, **o: tuple(vars(em.brier_decomposition(y, p, **o)).values()), "prob"),
    # Its difference, within-bin variance and covariance are differences of nearly equal numbers
    # (0 up to rounding when a bin's forecasts are equal): only relative error makes no sense there.
    ("binned_brier_decomposition", lambda y, p, **o: tuple(
        value for name, value in vars(em.binned_brier_decomposition(y, p, **o)).items()
        if name not in ("difference", "within_bin_variance", "within_bin_covariance")), "prob"),
    ("reliability_curve", lambda y, p, **o: tuple(em.reliability_curve(y, p, **o)[:2]), "prob"),  # count: weights
    ("expected_calibration_error", em.expected_calibration_error, "prob"),
    ("corp_reliability", lambda y, p, **o: (lambda c: (c.calibrated, c.recalibrated, c.brier_score, c.miscalibration,
                                                       c.discrimination))(em.corp_reliability(y, p, **o)), "prob"),
    ("log_loss", em.log_loss, "prob"),
    ("mean_squared_error", em.mean_squared_error, "real"),
    ("root_mean_squared_error", em.root_mean_squared_error, "real"),
    ("mean_absolute_error", em.mean_absolute_error, "real"),
    ("mean_absolute_percentage_error", em.mean_absolute_percentage_error, "real"),
    ("r2_score", em.r2_score, "real"),
    ("pinball_loss", functools.partial(em.pinball_loss, alpha=0.8), "real"),
    ("best_constant", lambda y, _, **o: em.best_constant(y, **o), "real"),
    ("best_constant_pinball", lambda y, _, **o: em.best_constant(y, metric="pinball", alpha=0.3, **o), "real"),
    ("mape_optimal_constant", lambda y, _, **o: em.mape_optimal_constant(y, **o), "real"),
    ("isotonic_regression", lambda y, _, **o: em.isotonic_regression(y, **o), "real"),
]

# Factors of the weights: powers of ten and two across the range, and up to the float limit.
_FACTORS = [1e-160, 1e154, 1e-300, 1e300, 2.0 ** -1000, 2.0 ** 1000, 3.7e-200, 9.1e250]


def _weighted_problem(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 80))
    y = rng.integers(0, 2, n)
    y[:2] = 0, 1
    weights = rng.random(n) * rng.choice([1.0, 1e-3], n) + 1e-6  # a spread of magnitudes
    if kind == "pred":
        second = np.where(rng.random(n) < 0.7, y, 1 - y)
    elif kind == "score":
        second = np.round(rng.normal(size=n) + y, int(rng.integers(0, 2)))  # ties
    elif kind == "prob":
        second = np.round(rng.random(n), 1)
    else:
        y = rng.normal(size=n) + 3.0
        second = y + rng.normal(size=n)
    return y, second, weights


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name, metric, kind", SCALE_FREE, ids=[entry[0] for entry in SCALE_FREE])
def test_weighted_metrics_do_not_change_when_the_weights_are_rescaled(name, metric, kind, seed):
    y, second, weights = _weighted_problem(1000 * seed + len(name), kind)
    rng = np.random.default_rng(seed)
    factors = _FACTORS + [10.0 ** int(rng.integers(-300, 300)), 2.0 ** int(rng.integers(-1000, 1000))]
    rescaled = [(f"times {f:g}", weights * f) for f in factors]
    # Near the float limit: the largest weight just below it, where the sums overflow.
    largest = np.finfo(np.float64).max * rng.uniform(0.5, 1)
    rescaled.append(("up to the float limit", weights / weights.max() * largest))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", em.UndefinedMetricWarning)
        reference = _flat(metric(y, second, sample_weight=weights))
        assert np.all(np.isfinite(reference) | np.isnan(reference))
        for label, other in rescaled:
            scaled = _flat(metric(y, second, sample_weight=other))
            np.testing.assert_allclose(scaled, reference, rtol=1e-12, atol=0, equal_nan=True,
                                       err_msg=f"{name}, weights {label}")
        for factor in (2.0 ** -1000, 2.0 ** 1000, 2.0 ** -300):
            # A power of two changes no bit of the scaled weights, hence none of the result.
            np.testing.assert_array_equal(_flat(metric(y, second, sample_weight=weights * factor)), reference,
                                          err_msg=f"{name}, weights times {factor:g}")


def _big_integer_problem(seed):
    """Integer scores near +-2**62 a few units apart: float64 would merge most of them."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 120))
    y = rng.integers(0, 2, n)
    y[:2] = 0, 1
    centre = int(rng.choice([2**62, -(2**62), 2**53, 2**63 - 600]))
    scores = np.array([centre + int(k) for k in rng.integers(-250, 250, n)], dtype=np.int64)
    if seed % 3 == 0:  # a perfect ranking that float64 would turn into one big tie
        scores = np.where(y == 1, scores + 500 if centre < 2**63 - 600 else scores, scores - 500)
        scores[y == 1] = np.maximum(scores[y == 1], scores[y == 0].max() + 1)
    return y, scores


def _exact_auc(y, scores):
    positive, negative = scores[y == 1][:, None], scores[y == 0][None, :]
    wins = 2 * int(np.sum(positive > negative)) + int(np.sum(positive == negative))  # int64 compares exactly
    return wins / (2 * positive.size * negative.size)


@pytest.mark.parametrize("seed", range(12))
def test_integer_scores_beyond_2_53_keep_their_order(seed):
    from sklearn.metrics import average_precision_score

    y, scores = _big_integer_problem(seed)
    exact = _exact_auc(y, scores)
    if seed % 3 == 0:
        assert exact == 1.0
    ranks = np.unique(scores, return_inverse=True)[1]
    assert em.roc_auc(y, scores) == exact
    assert em.rank_auc(y, scores) == exact
    assert em.pairwise_auc(y, scores) == exact
    assert em.roc_auc(y, scores, sample_weight=np.ones(len(y))) == pytest.approx(exact, rel=1e-15)
    assert em.delong_interval(y, scores).estimate == exact
    assert _bootstrap_auc.auc_engine(y, scores).estimate() == exact
    assert em.average_precision(y, scores) == pytest.approx(average_precision_score(y, ranks), abs=1e-15)
    np.testing.assert_array_equal(em.midranks(scores), em.midranks(ranks))
    table = em.threshold_table(y, scores)
    distinct = np.unique(scores)[::-1]
    assert len(table) == len(distinct)  # no false ties
    np.testing.assert_array_equal(table.true_positives, [np.sum((y == 1) & (scores >= t)) for t in distinct])
    np.testing.assert_array_equal(table.thresholds, distinct)  # the integers themselves
    assert table.thresholds.dtype == scores.dtype
    curve = em.cost_curve(y, scores, false_positive_cost=1.0, false_negative_cost=3.0)
    assert len(curve.total_cost) == len(distinct) + 1  # +inf, then every distinct integer
    # Each row's cost from integer comparisons with its threshold, which float64 would blur.
    exact_costs = [np.sum(y == 1) * 3.0] + [np.sum((scores >= t) & (y == 0)) + 3.0 * np.sum((scores < t) & (y == 1))
                                            for t in distinct]
    np.testing.assert_array_equal(curve.total_cost, exact_costs)
    best = em.best_threshold(y, scores, false_positive_cost=1.0, false_negative_cost=3.0)
    assert best.cost == min(exact_costs)
    youden = em.youden_index(y, scores)
    assert 0.0 <= youden.index <= 1.0 and youden.threshold in set(distinct.tolist()) | {np.inf}
    difference = em.delong_test(y, scores, -scores).difference
    assert difference == pytest.approx(exact - (1.0 - exact), abs=1e-15)


# ---------------------------------------------------------------------------
# every score keeps its order: generated scores that float64 would merge
# ---------------------------------------------------------------------------

EXTENDED = np.finfo(np.longdouble).nmant > 52  # x86: 64 bits of mantissa; elsewhere longdouble is float64
SPELLINGS = ["int64", "uint64", "python", "python beyond floats", "mixed", "list"] + (["longdouble"] if EXTENDED
                                                                                      else [])


def _exact_value(value):
    return int(value) if isinstance(value, (int, np.integer)) else Fraction(*value.as_integer_ratio())


@st.composite
def crowded_scores(draw):
    """``(y, scores, exact)``: scores a few units apart where float64 would merge them, with ties, in
    one of several spellings, and their exact values as Python numbers."""
    n = draw(st.integers(4, 40))
    steps = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    y[:4] = 0, 1, 0, 1  # DeLong's variance needs two of each class
    spelling = draw(st.sampled_from(SPELLINGS))
    if spelling == "longdouble":
        unit = np.finfo(np.longdouble).eps * np.longdouble(2) ** draw(st.integers(-20, 20))
        scores = np.longdouble(draw(st.sampled_from([1, -1]))) * (1 + np.array(steps, dtype=np.longdouble) * unit)
        return y, scores, [_exact_value(v) for v in scores]
    low, high = {"int64": (2**53, 2**63 - 10), "uint64": (2**63, 2**64 - 10), "python": (2**64, 2**200),
                 "python beyond floats": (2**1030, 2**1100), "mixed": (2**53, 2**70),
                 "list": (2**53, 2**80)}[spelling]
    centre = draw(st.integers(low, high)) * (1 if spelling == "uint64" else draw(st.sampled_from([1, -1])))
    if spelling == "int64" and centre < 0:
        centre = max(centre, -(2**63))
    values = [centre + step for step in steps]
    if spelling == "mixed":  # some of them floats: Python compares int and float exactly
        values = [float(v) if i % 3 == 0 else v for i, v in enumerate(values)]
    if spelling in ("int64", "uint64"):
        return y, np.array(values, dtype=spelling), values
    if spelling == "list":
        return y, values, values
    scores = np.empty(n, dtype=object)
    scores[:] = values
    return y, scores, [_exact_value(v) for v in values]


def _exact_ranks(exact):
    distinct = sorted(set(exact))
    position = {v: i for i, v in enumerate(distinct)}
    return np.array([position[v] for v in exact], dtype=float), distinct


RANKING = [m for m in SCORE_METRICS if m.ranking]


@settings(max_examples=60, deadline=None)
@given(problem=crowded_scores(), weighted=st.booleans())
def test_every_ranking_metric_sees_the_exact_order(problem, weighted):
    # A ranking metric depends on the scores only through their order: on scores float64
    # would merge it must equal its value on the exact ranks (no false ties).
    y, scores, exact = problem
    ranks, _ = _exact_ranks(exact)
    weights = np.arange(1, len(y) + 1) % 3 + 1.0 if weighted else None
    for metric in RANKING:
        options = dict(sample_weight=weights) if metric.weights and weighted else {}
        assert_close(metric.call(y, scores, **options), metric.call(y, ranks, **options), tol=0), metric.name
    np.testing.assert_array_equal(em.midranks(scores), em.midranks(ranks))
    assert em.delong_test(y, scores, ranks).difference == 0.0
    if isinstance(scores, np.ndarray) and scores.dtype == np.longdouble:
        from sklearn.metrics import roc_auc_score  # which keeps the extended precision too

        assert em.roc_auc(y, scores) == pytest.approx(roc_auc_score(y, scores), abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(problem=crowded_scores())
def test_thresholds_are_the_scores_themselves_and_reproduce_their_counts(problem):
    y, scores, exact = problem
    _, distinct = _exact_ranks(exact)
    table = em.threshold_table(y, scores)
    assert [_exact_value(t) for t in table.thresholds.tolist()] == distinct[::-1] or \
        [_exact_value(t) for t in table.thresholds] == distinct[::-1]
    if isinstance(scores, np.ndarray) and scores.dtype != object:
        assert table.thresholds.dtype == scores.dtype  # in the scores' own type
    for row, threshold in enumerate(table.thresholds):
        flagged = np.array([v >= _exact_value(threshold) for v in exact])
        assert table.true_positives[row] == np.sum(flagged & (y == 1))
        assert table.false_positives[row] == np.sum(flagged & (y == 0))
        counts = em.counts_at_threshold(y, scores, threshold)
        assert (counts.tp, counts.fp) == (table.true_positives[row], table.false_positives[row])
    best = em.best_threshold(y, scores, false_positive_cost=1.0, false_negative_cost=2.0)
    at_best = em.counts_at_threshold(y, scores, best.threshold)
    assert (at_best.fp, at_best.fn) == (best.false_positives, best.false_negatives)
    assert em.cost_at_threshold(y, scores, best.threshold, false_positive_cost=1.0,
                                false_negative_cost=2.0) == best.cost
    youden = em.youden_index(y, scores)
    at_youden = em.counts_at_threshold(y, scores, youden.threshold)
    assert at_youden.tp / at_youden.positives == youden.true_positive_rate
    assert at_youden.fp / at_youden.negatives == youden.false_positive_rate
    curve = em.roc_curve(y, scores)
    assert curve.thresholds[0] == np.inf and list(curve.thresholds[1:]) == list(table.thresholds)


@settings(max_examples=100, deadline=None)
@given(problem=crowded_scores(), offset=st.integers(-2, 2), as_float=st.booleans())
def test_a_threshold_between_crowded_scores_is_compared_exactly(problem, offset, as_float):
    # Thresholds given as integers or floats next to the scores: the counts follow exact comparisons.
    y, scores, exact = problem
    threshold = exact[0] + offset if isinstance(exact[0], int) else exact[0]
    if as_float:
        threshold = float(threshold) if abs(threshold) < 2**1000 else threshold
    flagged = np.array([v >= threshold for v in exact])
    counts = em.counts_at_threshold(y, scores, threshold)
    assert (counts.tp, counts.fp) == (np.sum(flagged & (y == 1)), np.sum(flagged & (y == 0)))

