"""Helpers shared by several modules of :mod:`evalmetrics.handbook.pitfalls` (private).

``_seed`` checks the ``seed`` argument of every seeded demonstration;
``_binormal`` draws the binormal scores of the sections "Rankings" (the
trapezoid rule on a fine curve) and "Intervals" (paired against separate
intervals) of the chapter Pitfalls.
"""

from __future__ import annotations

from ... import arrays
from ...datasets import binormal_scores


def _seed(seed):
    # Concrete: the demonstrations derive further seeds (seed + 1, ...).
    return arrays.seed(seed, concrete=True)


def _binormal(n_negative, n_positive, seed, mean=2.0):
    return binormal_scores(n_negative, n_positive, mean=mean, seed=seed)
