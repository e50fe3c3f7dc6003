"""The bootstrap of the AUC with ``draws="counts"``: cell counts drawn directly.

Each replicate must be the AUC of a real resample (the rows its counts stand
for), the draws must follow the bootstrap distribution, and the option must
fall back to the row draws (and so to SciPy's resamples) when the cells are many.
"""

from __future__ import annotations

import numpy as np
import pytest

import evalmetrics as em
from evalmetrics._kernels import bootstrap_auc as _bootstrap_auc
from evalmetrics._kernels import resampling


def tied_scores(seed, n, decimals, shift=1.5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    score = np.round(1.0 / (1.0 + np.exp(-(rng.normal(size=n) + shift * y))), decimals)
    return y, score


def representatives(codes):
    """One row of each distinct code, in increasing order of code."""
    _, first = np.unique(codes, return_index=True)
    return first


def replicates_and_counts(engine, seed, n_resamples):
    """The engine's count replicates and the multinomial counts behind them (same seed)."""
    sizes, to_cells = engine._joint_cells()
    values = engine._count_replicates(np.random.default_rng(seed), n_resamples, sizes, to_cells)
    counts = np.random.default_rng(seed).multinomial(engine.n, sizes / engine.n, size=n_resamples)
    return values, counts


@pytest.mark.parametrize("decimals", [1, 2])
def test_each_count_replicate_is_the_auc_of_the_rows_it_stands_for(decimals):
    y, score = tied_scores(0, 3000, decimals)
    engine = _bootstrap_auc.auc_engine(y, score)
    values, counts = replicates_and_counts(engine, 5, 40)
    rows = representatives(engine.cells[0].cell_of_row)
    assert len(rows) == counts.shape[1]
    for value, count in zip(values, counts):
        chosen = np.repeat(rows, count)
        assert len(chosen) == len(y)
        assert value == em.roc_auc(y[chosen], score[chosen])  # exact: one integer count


def test_each_paired_count_replicate_is_the_difference_on_its_rows():
    y, a = tied_scores(1, 4000, 1)
    _, b = tied_scores(2, 4000, 1, shift=0.8)
    engine = _bootstrap_auc.auc_engine(y, a, b)
    values, counts = replicates_and_counts(engine, 6, 30)
    cells_a, cells_b = (c.cell_of_row for c in engine.cells)
    rows = representatives(cells_a * engine.cells[1].n_cells + cells_b)
    assert len(rows) == counts.shape[1]
    for value, count in zip(values, counts):
        chosen = np.repeat(rows, count)
        assert value == em.roc_auc(y[chosen], a[chosen]) - em.roc_auc(y[chosen], b[chosen])


def test_counts_follow_the_bootstrap_distribution_of_the_rows():
    # The same bootstrap from other random numbers: with 4000 resamples each, the
    # two distributions agree to Monte Carlo error.
    y, score = tied_scores(3, 6000, 1)
    rows = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=4000, seed=0)
    counts = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=4000, seed=0, draws="counts")
    assert counts.estimate == rows.estimate
    assert not np.array_equal(counts.distribution, rows.distribution)  # counts were really drawn
    assert counts.standard_error == pytest.approx(rows.standard_error, rel=0.08)
    assert abs(counts.distribution.mean() - rows.distribution.mean()) < 0.1 * rows.standard_error
    for ours, theirs in zip(counts.interval, rows.interval):
        assert abs(ours - theirs) < 0.3 * rows.standard_error


def test_count_draws_are_reproducible_and_depend_on_the_seed():
    y, score = tied_scores(4, 5000, 1)
    first = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=300, seed=7, draws="counts")
    again = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=300, seed=7, draws="counts")
    other = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=300, seed=8, draws="counts")
    np.testing.assert_array_equal(first.distribution, again.distribution)
    assert not np.array_equal(first.distribution, other.distribution)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_many_cells_fall_back_to_the_rows_of_scipy(method):
    # Continuous scores: about one cell per positive, far fewer than 32 rows per cell.
    rng = np.random.default_rng(5)
    y = (rng.random(800) < 0.4).astype(int)
    score = rng.normal(size=800) + y
    rows = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=200, method=method, seed=1)
    counts = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=200, method=method, seed=1, draws="counts")
    np.testing.assert_array_equal(counts.distribution, rows.distribution)
    assert counts.interval == rows.interval


def test_other_metrics_and_groups_draw_rows_whatever_draws_says():
    y, score = tied_scores(6, 2000, 1)
    for kwargs in ({}, {"groups": np.arange(2000) // 10}):
        rows = em.bootstrap_interval(em.brier_score, y, score, n_resamples=50, seed=2, **kwargs)
        counts = em.bootstrap_interval(em.brier_score, y, score, n_resamples=50, seed=2, draws="counts", **kwargs)
        np.testing.assert_array_equal(counts.distribution, rows.distribution)


def test_bca_with_count_draws_uses_the_same_jackknife():
    y, score = tied_scores(7, 6000, 1)
    counts = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=2000, method="bca", seed=3, draws="counts")
    rows = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=2000, method="bca", seed=3)
    assert counts.interval.low < counts.estimate < counts.interval.high
    for ours, theirs in zip(counts.interval, rows.interval):
        assert abs(ours - theirs) < 0.3 * rows.standard_error


def test_count_draws_keep_memory_bounded_in_chunks(monkeypatch):
    # Chunks of resampling.CHUNK count elements: shrink it and the replicates must not change.
    y, score = tied_scores(8, 5000, 1)
    whole = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=120, seed=4, draws="counts")
    monkeypatch.setattr(resampling, "CHUNK", 64)
    pieces = em.bootstrap_interval(em.roc_auc, y, score, n_resamples=120, seed=4, draws="counts")
    # The generator's multinomial stream does not depend on how many rows one call asks for.
    np.testing.assert_array_equal(pieces.distribution, whole.distribution)


@pytest.mark.parametrize("draws", ["cells", "ROWS", None, 1])
def test_unknown_draws_are_refused_by_name(draws):
    y, score = tied_scores(9, 100, 1)
    with pytest.raises(ValueError, match="draws must be"):
        em.bootstrap_interval(em.roc_auc, y, score, n_resamples=10, draws=draws)
    with pytest.raises(ValueError, match="draws must be"):
        em.bootstrap_difference(em.roc_auc, y, score, score, n_resamples=10, draws=draws)
