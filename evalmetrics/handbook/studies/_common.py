"""Helpers shared by the studies of :mod:`evalmetrics.handbook.studies` (private).

``_phi`` is the standard normal distribution function (the exact rates of
the binormal model), the package's one kernel of it; ``_positive_real``
and ``_seed`` check the arguments of every study.
"""

from __future__ import annotations

import numpy as np

from ... import arrays
from ..._kernels import normal

_phi = normal.cdf


def _positive_real(value, name):
    value = arrays.non_negative(value, name)
    if value == 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def _seed(seed):
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
        raise TypeError(f"seed must be an integer or None, got {type(seed).__name__}")
    return seed
