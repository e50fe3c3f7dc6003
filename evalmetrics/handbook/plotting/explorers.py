"""The book's binormal threshold explorer (chapters roc-auc and precision-recall).

One sample of the binormal model per point of a grid of separations and
prevalences, explored with :func:`evalmetrics.plotting.threshold_explorer_grid`:
the separation moves both curves, the prevalence only the precision-recall curve.
"""

from __future__ import annotations

import numpy as np

from ...datasets import binormal_scores
from ...plotting.explorers import threshold_explorer_grid

__all__ = ["binormal_explorer"]


def binormal_explorer(*, separation=2.0, prevalence=0.3, threshold=1.0, n=1000, seed=0):
    """The threshold explorer of binormal samples, with separation and prevalence sliders.

    Negatives score N(0, 1) and positives N(separation, 1); each sample has ``n``
    examples, ``round(n * prevalence)`` of them positive, drawn with ``seed``.
    The separation runs from 0.5 to 3 in steps of 0.5, the prevalence from 0.1
    to 0.5 in steps of 0.1, the threshold from -2 to 5 in steps of 0.25.

    Parameters
    ----------
    separation, prevalence, threshold : float, default 2, 0.3 and 1
        The sliders' positions shown first.
    n : int, default 1000
        Examples per sample.
    seed : int, default 0

    Returns
    -------
    evalmetrics.plotting.explorers.Explorer

    Examples
    --------
    >>> explorer = binormal_explorer(n=200)
    >>> [p["name"] for p in explorer.spec["params"]]
    ['separation', 'prevalence', 'threshold']
    """

    def sample(separation, prevalence):
        n_positive = round(n * prevalence)
        return binormal_scores(n - n_positive, n_positive, mean=separation, seed=seed)

    grid = {"separation": np.arange(1, 7) / 2, "prevalence": np.arange(1, 6) / 10}
    return threshold_explorer_grid(sample, grid, thresholds=np.arange(-8, 21) / 4,
                                   setting={"separation": separation, "prevalence": prevalence},
                                   threshold=threshold)
