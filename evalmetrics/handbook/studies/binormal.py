"""The exact ROC and precision-recall curves of the binormal model.

:func:`binormal_curve` gives the operating points of the model the
studies draw from (negatives N(0, 1), positives N(mean, sd^2)), to draw
next to the estimated curves of the chapter In practice
(``book/in-practice.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ... import arrays
from ...rates import precision_at_prevalence
from ._common import _phi, _positive_real

__all__ = ["BinormalCurve", "binormal_curve"]


# ---------------------------------------------------------------------------
# the exact binormal curves
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BinormalCurve:
    """Exact operating points of the binormal model at a grid of thresholds.

    Attributes
    ----------
    thresholds : ndarray, decreasing
    false_positive_rate, true_positive_rate : ndarray
        ``1 - Phi(t)`` and ``1 - Phi((t - mean) / sd)``.
    precision : ndarray or None
        Precision at ``prevalence`` by Bayes' rule; None without a prevalence.
    """

    thresholds: np.ndarray = field(repr=False)
    false_positive_rate: np.ndarray = field(repr=False)
    true_positive_rate: np.ndarray = field(repr=False)
    precision: np.ndarray | None = field(repr=False)
    mean: float
    sd: float
    prevalence: float | None


def binormal_curve(*, mean=2.0, sd=1.0, prevalence=None, n_points=801):
    """The exact ROC (and precision-recall) curve of the binormal model.

    Negatives score N(0, 1) and positives N(``mean``, ``sd``^2).  At a
    threshold t the rates are ``FPR = 1 - Phi(t)`` and ``TPR = 1 -
    Phi((t - mean) / sd)``; precision at prevalence pi follows from Bayes'
    rule, ``TPR pi / (TPR pi + FPR (1 - pi))``.  The thresholds run from far
    above to far below both distributions, so the curves reach (0, 0) and
    (1, 1) to plotting accuracy.

    Parameters
    ----------
    mean, sd : float
        The positives' distribution (``sd`` > 0).
    prevalence : float in (0, 1), optional
        Also compute the precision at this share of positives.
    n_points : int, default 801

    Returns
    -------
    BinormalCurve

    Examples
    --------
    The middle of three thresholds is 1, the imbalance study's operating
    point: recall Phi(1), false positive rate 1 - Phi(1), precision 0.0508
    at 1 % prevalence.

    >>> curve = binormal_curve(prevalence=0.01, n_points=3)
    >>> curve.thresholds.tolist()
    [10.0, 1.0, -8.0]
    >>> print(curve.true_positive_rate.round(4), curve.false_positive_rate.round(4), curve.precision.round(4))
    [0.     0.8413 1.    ] [0.     0.1587 1.    ] [1.     0.0508 0.01  ]
    """
    mean = float(mean)
    if not math.isfinite(mean):
        raise ValueError(f"mean must be finite, got {mean}")
    sd = _positive_real(sd, "sd")
    if prevalence is not None:
        prevalence = float(prevalence)
        if not 0.0 < prevalence < 1.0:
            raise ValueError(f"prevalence must lie strictly between 0 and 1, got {prevalence}")
    n_points = arrays.positive_int(n_points, "n_points", minimum=2)
    # Eight standard deviations beyond either distribution: the rates are 0 or 1
    # there to about 1e-15.
    high = max(8.0, mean + 8.0 * sd)
    low = min(-8.0, mean - 8.0 * sd)
    thresholds = np.linspace(high, low, n_points)
    fpr = _phi(-thresholds)
    tpr = _phi((mean - thresholds) / sd)
    precision_ = None
    if prevalence is not None:
        precision_ = precision_at_prevalence(tpr, fpr, prevalence, zero_division=np.nan)
    return BinormalCurve(thresholds, fpr, tpr, precision_, mean, sd, prevalence)
