"""The Brier score: one mean of squared errors for every caller.

Contract (clean input: ``y`` a bool mask of positives or float 0/1 outcomes,
``p`` float64 forecasts of the same length, optional non-negative float64
weights with a positive sum):

* :func:`brier` -- the (weighted) mean of ``(p - y)^2``, a float (the same for weights
  at any scale).
"""

from __future__ import annotations

import numpy as np

from .weights import scale_free

__all__ = ["brier"]

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
