"""The Brier score: one mean of squared errors for every caller.

Contract (clean input: ``y`` a bool mask of positives or float 0/1 outcomes,
``p`` float64 forecasts of the same length, optional non-negative float64
weights with a positive sum):

* :func:`brier` -- the (weighted) mean of ``(p - y)^2``, a float (the same for weights
  at any scale).
* :func:`squared_errors` -- the terms ``(p - y)^2`` themselves (float64).
* :func:`brier_of_counts` -- the Brier score of a resample, from how many times it
  drew each row (``counts``, any integer type), the rows' squared errors and the
  number of rows drawn.
"""

from __future__ import annotations

import numpy as np

from .weights import scale_free

__all__ = ["brier", "brier_of_counts", "squared_errors"]

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


def squared_errors(y, p):
    """``(p - y)^2`` as float64, the terms whose mean is the Brier score."""
    errors = np.subtract(p, y, dtype=np.float64)
    np.square(errors, out=errors)
    return errors


def brier_of_counts(counts, errors, total):
    """``sum(counts x errors) / total``: the Brier score of the resample that drew row i counts[i] times.

    Summed without BLAS (which may start threads that wait on each other when
    called from worker threads); the integer counts are cast as they are read.
    """
    return float(np.einsum("i,i->", counts, errors)) / total
