"""The bootstrap's resamples: one stream of draws for every caller.

Contracts (clean input: a NumPy ``Generator``, ``n`` and ``n_resamples``
positive, groups as integer codes 0 .. G - 1, one per row, every code used):

* :func:`chunks` -- the sizes of the blocks of whole resamples drawn at once
  (about a million numbers each, so memory stays bounded whatever B).
* :func:`row_blocks` -- the row numbers of the resamples, one (k, n) block at
  a time: the draws of ``scipy.stats.bootstrap(paired=True)``, which draws
  all B x n at once (the generator yields the same stream in pieces).
* :func:`group_blocks` -- the groups drawn, one (k, G) block at a time.
* :func:`resamples` -- the row numbers of each resample, one at a time; with
  groups, the rows of each drawn group (G groups drawn with replacement).
* :func:`multiplicities` -- how many times each row is drawn in each
  resample, from the same draws.
* :func:`percentile` -- quantiles of the kept replicates, by linear
  interpolation between order statistics (NumPy's and SciPy's default).

:func:`evalmetrics.intervals.bootstrap_interval` (the plain path: the metric
on every resample), the AUC engine (:mod:`.bootstrap_auc`) and the report's
engine (:mod:`evalmetrics.report.resampling`) all draw from here, so a seed
gives every one of them the same resamples.

An *engine* computes a metric's replicates without calling it.  The bootstrap
asks it for ``estimate()`` (the value on all rows), ``at(rows)`` (the value on
the resample with those row numbers, repeats counted), ``replicates(rng,
n_resamples, draws, groups)`` (the values on the resamples this module draws
from ``rng``: NaN where undefined) and, for BCa without groups,
``jackknife()`` (each row left out once).  Before it trusts one, the
bootstrap checks ``estimate()`` and ``at`` on two resamples against the
metric itself.
"""

from __future__ import annotations

import numpy as np

__all__ = ["chunks", "group_blocks", "multiplicities", "percentile", "resamples", "row_blocks"]

# Numbers drawn per block: about 8 MB of int64 indices, a few such arrays alive at once.
CHUNK = 1 << 20


def chunks(n, n_resamples):
    """Sizes of the blocks of whole resamples of ``n`` draws each, summing to ``n_resamples``."""
    per_chunk = max(1, CHUNK // n)
    for start in range(0, n_resamples, per_chunk):
        yield min(per_chunk, n_resamples - start)


def row_blocks(rng, n, n_resamples):
    """(k, n) blocks of row numbers, k resamples each: SciPy's paired draws, in pieces."""
    for k in chunks(n, n_resamples):
        yield rng.integers(0, n, (k, n))


def group_blocks(rng, n_groups, n_resamples):
    """(k, G) blocks of drawn group numbers: ``rng.integers(0, G, (B, G))`` in pieces."""
    for k in chunks(n_groups, n_resamples):
        yield rng.integers(0, n_groups, (k, n_groups))


def resamples(rng, n, n_resamples, groups=None):
    """Yield the row numbers of each resample: n rows, or the rows of G drawn groups."""
    if groups is None:
        for block in row_blocks(rng, n, n_resamples):
            yield from block
        return
    n_groups = int(groups.max()) + 1
    order = np.argsort(groups, kind="stable")
    starts = np.r_[0, np.cumsum(np.bincount(groups, minlength=n_groups))]
    members = [order[starts[g]:starts[g + 1]] for g in range(n_groups)]
    for block in group_blocks(rng, n_groups, n_resamples):
        for chosen in block:
            yield np.concatenate([members[g] for g in chosen])


def multiplicities(rng, n, n_resamples, groups=None):
    """Yield how many times each row is drawn in each resample (int64, length n).

    The same resamples as :func:`resamples`: with groups a row counts as
    often as its group is drawn.
    """
    if groups is None:
        for k in chunks(n, n_resamples):
            block = rng.integers(0, n, (k, n))
            for j in range(k):
                yield np.bincount(block[j], minlength=n)
            del block  # before the next block is drawn: one at a time in memory
        return
    n_groups = int(groups.max()) + 1
    for block in group_blocks(rng, n_groups, n_resamples):
        for chosen in block:
            yield np.take(np.bincount(chosen, minlength=n_groups), groups)


def percentile(kept, levels):
    """The ``levels`` quantiles of the kept replicates (linear interpolation), as floats."""
    return [float(value) for value in np.quantile(kept, levels)]
