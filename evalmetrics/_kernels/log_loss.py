"""The log loss: one mean of negative log probabilities for every caller.

Contract (clean input: ``y`` a bool mask of positives, ``p`` float64 forecasts
in [0, 1] of the same length, ``eps`` a float in [0, 0.5), optional
non-negative float64 weights with a positive sum):

* :func:`log_loss` -- the (weighted) mean of ``-log q`` where ``q`` is the
  probability given to the outcome that happened, clipped to
  ``[eps, 1 - eps]``; ``inf`` when ``eps`` is 0 and some ``q`` is 0.
"""

from __future__ import annotations

import numpy as np

from .weights import scale_free

__all__ = ["log_loss"]


def log_loss(y, p, eps, weights=None):
    """Mean of ``-log(clip(q, eps, 1 - eps))`` with ``q = p`` for positives, ``1 - p`` otherwise.

    ``1 - p`` is formed before the clip, as scikit-learn does with its
    two-column ``[1 - p, p]``: the same rounding, so the two agree to the last
    bits rather than to ``log1p``'s better accuracy near 0.
    """
    given = np.where(y, p, 1.0 - p)
    if eps > 0.0:
        np.clip(given, eps, 1.0 - eps, out=given)
    with np.errstate(divide="ignore"):  # q = 0 without clipping: an infinite loss, by design
        loss = -np.log(given)
    if weights is None:
        return float(np.mean(loss))
    return float(np.average(loss, weights=scale_free(weights)))
