"""The Brier score: one mean of squared errors for every caller.

Contract (clean input: ``y`` a bool mask of positives or float 0/1 outcomes,
``p`` float64 forecasts of the same length, optional non-negative float64
weights with a positive sum):

* :func:`brier` -- the (weighted) mean of ``(p - y)^2``, a float (the same for weights
  at any scale).
* :func:`brier_of_counts` -- the Brier score of a resample, from how many times it
  drew each row (``counts``, any integer type), the rows themselves, the
  positives and the rows it drew.
"""

from __future__ import annotations

import numpy as np

from .weights import scale_free

__all__ = ["brier", "brier_of_counts"]

# Rows per block of the unweighted score: 512 KB of float64 stays in the L2 cache,
# so the squares are never written to memory (a fresh n-long array would cost more
# in page faults than the arithmetic).
_BLOCK = 1 << 16


def brier(y, p, weights=None):
    """Mean of ``(p - y)^2``, weighted by ``weights`` when given.

    Unweighted, block by block (a mask is upcast inside the subtraction): up
    to one block this is ``np.mean`` of the squares to the bit (the same
    pairwise sum); beyond, the block sums are added in order, well within
    1e-15.
    """
    if weights is not None:
        return float(np.average((p - y) ** 2, weights=scale_free(weights)))
    n = len(p)
    error = np.empty(min(n, _BLOCK))
    total = 0.0
    for start in range(0, n, _BLOCK):
        block = error[:min(_BLOCK, n - start)]
        np.subtract(p[start:start + _BLOCK], y[start:start + _BLOCK], out=block)
        np.square(block, out=block)
        total += float(np.add.reduce(block))
    return total / n


def brier_of_counts(counts, y, p, positives, total):
    """The Brier score of the resample that drew row i ``counts[i]`` times.

    ``sum(c (p - y)^2) = sum(c p^2) - 2 sum(c p y) + sum(c y)``, the last term
    being the positives drawn: three sums over the rows as they are, so that
    no array of squared errors is kept (it would be as long as the data).
    Summed without BLAS (which may start threads that wait on each other when
    called from worker threads); the integer counts are cast as they are read.
    """
    squares = float(np.einsum("i,i,i->", counts, p, p))
    cross = float(np.einsum("i,i,i->", counts, p, y))
    return (squares - 2.0 * cross + positives) / total
