"""Helpers shared by several modules of :mod:`evalmetrics.handbook.pitfalls` (private).

``_seed`` checks the ``seed`` argument of every seeded demonstration;
``_binormal`` draws the binormal scores of the sections "Rankings" (the
trapezoid rule on a fine curve) and "Intervals" (paired against separate
intervals) of the chapter Pitfalls.
"""

from __future__ import annotations

import numpy as np

from ...datasets import binormal_scores


def _seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
    return int(seed)


def _binormal(n_negative, n_positive, seed, mean=2.0):
    return binormal_scores(n_negative, n_positive, mean=mean, seed=seed)
