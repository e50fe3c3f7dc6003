"""Sample weights at a safe scale.

Contract (clean input: non-negative finite float64 weights, or None):

* :func:`scale_free` -- the weights times the power of two that brings the
  largest into [0.5, 1), or None for None.

Multiplying by a power of two is exact (short of the subnormal range), so a
metric that is a ratio of weighted sums gives the same number, to the bit,
for weights rescaled by any power of two, and within rounding for any other
factor; and sums of up to 2**53 such weights can neither overflow nor
underflow (weights of 1e-160 or 1e300 would).  Functions whose result is a
weighted sum itself (counts, costs) must not use it.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["scale_free"]


def scale_free(weights):
    """``weights * 2**-e`` with ``e`` the binary exponent of the largest weight (or None)."""
    if weights is None or len(weights) == 0:
        return weights
    largest = float(weights.max())
    if largest == 0.0:
        return weights
    _, exponent = math.frexp(largest)
    return np.ldexp(weights, -exponent)
