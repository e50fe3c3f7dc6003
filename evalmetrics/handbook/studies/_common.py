"""Helpers shared by the studies of :mod:`evalmetrics.handbook.studies` (private).

``_phi`` is the standard normal distribution function (the exact rates of
the binormal model); ``_positive_real`` and ``_seed`` check the arguments
of every study.
"""

from __future__ import annotations

import math

import numpy as np

from ... import arrays


def _phi(x):
    """Standard normal distribution function, elementwise (erfc keeps the tails accurate)."""
    return np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)), otypes=[float])(x)


def _positive_real(value, name):
    value = arrays.non_negative(value, name)
    if value == 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def _seed(seed):
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an integer or None, got {type(seed).__name__}")
    return seed
