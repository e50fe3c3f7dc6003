"""Helpers shared by the studies of :mod:`evalmetrics.studies` (private).

``_phi`` is the standard normal distribution function (the exact rates of
the binormal model); ``_positive_real`` and ``_seed`` check the arguments
of every study.
"""

from __future__ import annotations

import math

import numpy as np

from .. import arrays


def _phi(x):
    """Standard normal distribution function, elementwise (erfc keeps the tails accurate)."""
    return np.vectorize(lambda v: 0.5 * math.erfc(-v / math.sqrt(2.0)), otypes=[float])(x)


def _positive_real(value, name):
    return arrays.real(value, name, low=0.0, low_open=True)


def _seed(seed):
    return arrays.seed(seed)
