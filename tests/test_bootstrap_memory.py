"""Memory of the sort-once AUC bootstrap: under 64 MiB of extra memory at any B for n <= 1e6.

NumPy reports its allocations to :mod:`tracemalloc`, so the peak traced
memory of one call, minus what was allocated before it, is the extra memory
the call needed (the caller's arrays excluded).
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import evalmetrics as em

LIMIT = 64 * 2**20  # issue 5: "extra memory stays under 64 MiB at any B for n <= 1e6"


def extra_memory(function, *args, **kwargs):
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def scores(n, tied, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    a = rng.normal(size=n) + 2.0 * y
    b = rng.normal(size=n) + 1.5 * y
    if tied:
        a, b = np.round(a, 2), np.round(b, 1)
    return y, a, b


@pytest.mark.parametrize("method", ["percentile", "bca"])
@pytest.mark.parametrize("tied, draws, n_resamples", [(False, "rows", 3), (True, "counts", 2000)])
def test_single_auc_bootstrap_at_a_million_rows_stays_under_64_mib(method, tied, draws, n_resamples):
    y, a, _ = scores(1_000_000, tied)
    used = extra_memory(em.bootstrap_interval, em.roc_auc, y, a, n_resamples=n_resamples,
                        method=method, seed=0, draws=draws)
    assert used < LIMIT, f"{used / 2**20:.1f} MiB"


@pytest.mark.parametrize("tied, draws, n_resamples", [(False, "rows", 3), (True, "counts", 20)])
def test_paired_difference_at_a_million_rows_stays_under_64_mib(tied, draws, n_resamples):
    y, a, b = scores(1_000_000, tied)
    used = extra_memory(em.bootstrap_difference, em.roc_auc, y, a, b, n_resamples=n_resamples,
                        method="bca", seed=0, draws=draws)
    assert used < LIMIT, f"{used / 2**20:.1f} MiB"


def test_memory_does_not_grow_with_the_number_of_resamples():
    # Resamples are drawn and counted in chunks of about a million elements.
    y, a, _ = scores(200_000, False)
    few = extra_memory(em.bootstrap_interval, em.roc_auc, y, a, n_resamples=10, seed=0)
    many = extra_memory(em.bootstrap_interval, em.roc_auc, y, a, n_resamples=200, seed=0)
    # The replicates themselves (8 bytes each) are the only thing that grows.
    assert many <= few * 1.05 + 8 * 200
