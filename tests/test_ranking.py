"""Tests of evalmetrics.ranking: the AUC by pairs and by ranks, midranks, binormal AUC.

Expected values come from the handbook's worked example ("The area under the
ROC curve, three ways") and its imbalance study unless a comment says otherwise.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn import metrics as skm

from evalmetrics import ranking
from evalmetrics.arrays import UndefinedMetricWarning
from evalmetrics.curves import roc_auc
from evalmetrics.ranking import midranks, pairwise_auc, rank_auc
from evalmetrics.worked_example import twelve_units

UNITS = twelve_units()
Y, S = UNITS.y_true, UNITS.y_score


# ---------------------------------------------------------------------------
# the worked example
# ---------------------------------------------------------------------------

def test_worked_example_pairs():
    positives, negatives = S[Y == 1], S[Y == 0]
    wins = sum(Fraction(int(p > q)) + Fraction(int(p == q), 2) for p in positives for q in negatives)
    # Handbook: 8 + 7 + 6 + 4 + 0.5 = 25.5 correctly ordered pairs out of 4 x 8 = 32.
    assert wins == Fraction(51, 2)
    assert len(positives) * len(negatives) == 32
    assert pairwise_auc(Y, S) == 25.5 / 32 == 0.796875


def test_worked_example_ranks():
    ranks = midranks(S)
    # Handbook: the faulty units have ranks 12, 10, 8 and 5.5, summing to 35.5.
    assert ranks[Y == 1].tolist() == [12.0, 10.0, 8.0, 5.5]
    assert ranks[Y == 1].sum() == 35.5
    # Handbook: (35.5 - 4 * 5 / 2) / (4 * 8) = 25.5 / 32 = 0.796875, shown as 0.7969.
    assert rank_auc(Y, S) == (35.5 - 4 * 5 / 2) / (4 * 8) == 0.796875
    assert round(rank_auc(Y, S), 4) == 0.7969


def test_worked_example_three_ways():
    # Handbook: trapezoids, pairs and ranks agree exactly.
    assert roc_auc(Y, S) == pairwise_auc(Y, S) == rank_auc(Y, S) == 0.796875


def test_midranks_of_the_tie():
    # Handbook: the two units at 0.40 share ranks 5 and 6, so each gets 5.5;
    # 0.10 has rank 1 and 0.95 rank 12.
    ranks = midranks(S)
    assert ranks[6] == ranks[7] == 5.5
    assert ranks[-1] == 1.0 and ranks[0] == 12.0


# ---------------------------------------------------------------------------
# against scikit-learn and SciPy on heavy ties
# ---------------------------------------------------------------------------

def _case(seed, n=400, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return y, np.round(rng.normal(size=n) + y, decimals), rng.uniform(0, 2, size=n)


@pytest.mark.parametrize("seed", range(5))
def test_midranks_match_scipy(seed):
    _, s, _ = _case(seed)
    assert np.array_equal(midranks(s), stats.rankdata(s, method="average"))


@pytest.mark.parametrize("seed", range(5))
def test_rank_and_pairwise_match_sklearn(seed):
    y, s, _ = _case(seed, decimals=seed % 3)
    expected = skm.roc_auc_score(y, s)
    assert abs(rank_auc(y, s) - expected) <= 1e-12
    assert abs(pairwise_auc(y, s) - expected) <= 1e-12


@pytest.mark.parametrize("seed", range(3))
def test_pairwise_with_weights_matches_sklearn(seed):
    y, s, w = _case(seed)
    assert abs(pairwise_auc(y, s, sample_weight=w) - skm.roc_auc_score(y, s, sample_weight=w)) <= 1e-12


def test_string_labels_with_pos_label():
    y, s, _ = _case(11)
    labels = np.where(y, "faulty", "working")
    expected = skm.roc_auc_score(labels == "faulty", s)
    assert abs(rank_auc(labels, s, pos_label="faulty") - expected) <= 1e-12
    assert abs(pairwise_auc(labels, s, pos_label="faulty") - expected) <= 1e-12
    # Swapping the positive class turns the AUC into 1 - AUC.
    assert abs(rank_auc(labels, s, pos_label="working") - (1 - expected)) <= 1e-12


def test_mann_whitney_u_matches_scipy():
    y, s, _ = _case(5)
    u = stats.mannwhitneyu(s[y], s[~y]).statistic
    assert abs(rank_auc(y, s) - u / (y.sum() * (~y).sum())) <= 1e-12


def test_pairwise_blocks_do_not_change_the_result(monkeypatch):
    y, s, w = _case(7, n=300)
    whole, weighted = pairwise_auc(y, s), pairwise_auc(y, s, sample_weight=w)
    monkeypatch.setattr(ranking, "_PAIRS_PER_BLOCK", 50)  # many blocks of a few rows
    assert pairwise_auc(y, s) == whole
    assert abs(pairwise_auc(y, s, sample_weight=w) - weighted) <= 1e-12


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 50).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda y: 0 < sum(y) < len(y)),
    st.lists(st.sampled_from([-2.5, -1.0, -0.0, 0.0, 0.3, 0.7, 1.0, 4.0]), min_size=n, max_size=n),
)))
def test_sort_pairs_and_ranks_agree_exactly(case):
    # All three are the same integer count over 2 P N, so they agree to the bit.
    y, s = np.array(case[0]), np.array(case[1])
    assert roc_auc(y, s) == pairwise_auc(y, s) == rank_auc(y, s)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=60))
def test_midranks_properties(values):
    ranks = midranks(values)
    n = len(values)
    assert ranks.sum() == n * (n + 1) / 2
    assert np.array_equal(ranks, stats.rankdata(values, method="average"))


# ---------------------------------------------------------------------------
# undefined cases and bad input
# ---------------------------------------------------------------------------

def test_one_class_gives_nan_and_a_warning():
    with pytest.warns(UndefinedMetricWarning, match="rank AUC"):
        assert np.isnan(rank_auc([0, 0, 0], [1.0, 2.0, 3.0]))
    with pytest.warns(UndefinedMetricWarning, match="pairwise AUC"):
        assert np.isnan(pairwise_auc([1, 1], [1.0, 2.0]))


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="inconsistent lengths"):
        rank_auc(Y, S[:-1])


def test_empty_input():
    with pytest.raises(ValueError, match="empty"):
        pairwise_auc([], [])


def test_nan_scores():
    with pytest.raises(ValueError, match="y_score contains 1 NaN"):
        rank_auc(Y, np.r_[S[:-1], np.nan])


def test_midranks_refuse_nan_and_two_dimensional_input():
    with pytest.raises(ValueError, match="values contains 1 NaN"):
        midranks([1.0, np.nan])
    with pytest.raises(ValueError, match="values must be a 1-D array"):
        midranks(np.ones((3, 2)))


def test_non_binary_labels_without_pos_label():
    with pytest.raises(ValueError, match="pass pos_label"):
        pairwise_auc(np.where(Y == 1, "a", "b"), S)


def test_absent_pos_label():
    with pytest.raises(ValueError, match="pos_label=2 does not occur"):
        rank_auc(Y, S, pos_label=2)


def test_roc_auc_of_binormal_scores_is_near_the_closed_form():
    from evalmetrics.datasets import binormal_auc, binormal_scores

    y, s = binormal_scores(20000, 20000, mean=2.0, seed=2024)
    # Handbook: Phi(sqrt 2) = 0.9214; the standard error here is about 0.0015.
    assert round(binormal_auc(2.0), 4) == 0.9214
    assert abs(roc_auc(y, s) - binormal_auc(2.0)) < 0.01
    assert rank_auc(y, s) == roc_auc(y, s)
