"""Helpers shared by the studies of :mod:`evalmetrics.handbook.studies` (private).

``_phi`` is the standard normal distribution function (the exact rates of
the binormal model), the library's public one; ``_positive_real`` and
``_seed`` check the arguments of every study.
"""

from __future__ import annotations

import numpy as np

from ... import arrays
from ...intervals import normal_cdf

_phi = normal_cdf


def _positive_real(value, name):
    return arrays.real(value, name, low=0.0, low_open=True)


def _seed(seed):
    # The studies use their seed more than once (two models draw the same negatives):
    # a Generator gives one integer drawn from it, None stays fresh entropy.
    value = arrays.seed(seed)
    return arrays.seed(value, concrete=True) if isinstance(value, np.random.Generator) else value
