"""Confidence intervals: four for proportions, the bootstrap for the rest.

* :func:`wald_interval` -- the textbook normal approximation
  ``p_hat +/- z * sqrt(p_hat * (1 - p_hat) / n)``; it can leave [0, 1].
* :func:`wilson_interval` -- every proportion ``p`` the observed ``p_hat``
  would not reject, the roots of a quadratic in ``p``; always inside [0, 1].
* :func:`agresti_coull_interval` -- Wald's formula at Wilson's centre, with
  ``z^2`` pseudo-trials added (half of them successes).
* :func:`clopper_pearson_interval` -- the exact interval: inverts the two
  one-sided binomial tests, so its coverage never falls below the nominal
  level (the only function here that needs SciPy, for the beta quantile).
* :func:`coverage_probability` -- how often an interval method covers the
  true proportion, summed exactly over the binomial outcomes.
* :func:`bootstrap_interval` -- percentile or BCa interval of any metric,
  resampling rows (paired across the arrays) or whole groups.
* :func:`bootstrap_difference` -- the paired bootstrap of the difference of
  one metric between two models scored on the same rows.

The normal quantile ``z`` is computed here without SciPy
(:func:`normal_quantile`, to about 1e-15; :func:`normal_cdf` is its
inverse).  With ``groups=None`` the resamples are drawn exactly as
``scipy.stats.bootstrap(data, statistic, paired=True, vectorized=False,
rng=seed)`` draws them, so both give the same percentile and BCa intervals
when no resample is skipped.  ``draws="counts"`` trades that identity for
speed on heavily tied AUC data: it draws how many times each cell of tied
scores is chosen instead of the rows themselves.

For a metric that carries a sort-once engine (``metric.bootstrap_engine``:
the package's AUC functions), the same resamples are evaluated from counts
over the sorted rows, with a closed-form BCa jackknife
(``evalmetrics._kernels.bootstrap_auc``), once the engine has shown that it
computes the caller's metric: its value on the data and on two resamples
must equal the metric's own.  A ``functools.wraps`` wrapper copies the
attribute; if it computes something else, the check fails and the metric is
called on every resample.  DeLong's variance of the AUC is in
:mod:`evalmetrics.delong`.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import arrays
from ._kernels import normal, resampling
from ._typing import ArrayLike
from .arrays import UndefinedMetricWarning

__all__ = [
    "BootstrapResult",
    "ConfidenceInterval",
    "agresti_coull_interval",
    "bootstrap_difference",
    "bootstrap_interval",
    "clopper_pearson_interval",
    "coverage_probability",
    "normal_cdf",
    "normal_quantile",
    "wald_interval",
    "wilson_interval",
]


class ConfidenceInterval(NamedTuple):
    """Lower and upper end of a confidence interval.

    Attributes
    ----------
    low, high : float
        The ends, ``low <= high``.
    """

    low: float
    high: float


# ---------------------------------------------------------------------------
# the normal distribution without SciPy (the kernels are in _kernels.normal)
# ---------------------------------------------------------------------------

def normal_cdf(x: float | np.ndarray) -> float | np.ndarray:
    """The distribution function of the standard normal distribution, Phi(x).

    Computed as ``erfc(-x / sqrt(2)) / 2``, which keeps full relative
    precision in the lower tail (it agrees with ``scipy.special.ndtr``).

    Parameters
    ----------
    x : float or array_like of float
        Finite or infinite real numbers.

    Returns
    -------
    float or ndarray of float64
        A float for a number, an array of the same shape for an array.

    Examples
    --------
    >>> round(normal_cdf(1.959964), 4)
    0.975
    """
    if np.ndim(x) == 0:
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise TypeError(f"x must be a real number or an array of them, got {type(x).__name__}")
        if math.isnan(x):
            raise ValueError("x is NaN")
        return normal.cdf(float(x))
    if np.asarray(x).dtype.kind == "b":
        raise TypeError("x must contain real numbers, got dtype bool")
    # The package's one check of numbers of any shape: no strings, complex or masked values.
    values = arrays.real_array(x, "x")
    if np.isnan(values).any():
        raise ValueError(f"x contains {int(np.isnan(values).sum())} NaN value(s)")
    return normal.cdf(values.astype(np.float64))


def normal_quantile(p: float) -> float:
    """The p-quantile of the standard normal distribution, Phi^{-1}(p).

    Accurate to about 1e-15 (it agrees with ``scipy.special.ndtri``).

    Parameters
    ----------
    p : float
        A probability strictly between 0 and 1.

    Returns
    -------
    float

    Examples
    --------
    >>> round(normal_quantile(0.975), 6)
    1.959964
    """
    p = arrays.probability(p, "p")
    return normal.quantile(p)


def _check_confidence(confidence):
    return arrays.probability(confidence, "confidence")


# ---------------------------------------------------------------------------
# intervals for a proportion
# ---------------------------------------------------------------------------

def _check_proportion(successes, trials):
    trials = arrays.positive_int(trials, "trials", maximum=None)  # a count, not an allocation
    successes = arrays.positive_int(successes, "successes", minimum=0, maximum=None)
    if successes > trials:
        raise ValueError(f"successes={successes} is greater than trials={trials}")
    return successes, trials


def wald_interval(successes: int, trials: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Wald (normal-approximation) interval for a proportion.

    ``p_hat +/- z * sqrt(p_hat (1 - p_hat) / n)`` with ``p_hat = successes /
    trials`` and ``z`` the ``(1 + confidence) / 2`` normal quantile.  It is
    not clipped: for small ``n`` or ``p_hat`` near 0 or 1 it can leave
    [0, 1], and at ``p_hat`` = 0 or 1 it has width zero -- the reasons to
    prefer :func:`wilson_interval`.

    Parameters
    ----------
    successes : int
        Number of successes (correct predictions, caught positives, ...).
    trials : int
        Number of trials, at least 1.
    confidence : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    Accuracy of the twelve units at threshold 0.5 is 8 of 12:

    >>> low, high = wald_interval(8, 12)
    >>> round(low, 4), round(high, 4)
    (0.3999, 0.9334)
    """
    successes, trials = _check_proportion(successes, trials)
    z = normal_quantile(0.5 + 0.5 * _check_confidence(confidence))
    p = successes / trials
    half_width = z * math.sqrt(p * (1.0 - p) / trials)
    return ConfidenceInterval(p - half_width, p + half_width)


def wilson_interval(successes: int, trials: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Wilson score interval for a proportion.

    The set of proportions ``p`` for which ``|p_hat - p| <= z sqrt(p (1 - p)
    / n)``; squaring gives a quadratic in ``p`` whose roots are

    ``(p_hat + z^2 / 2n  +/-  z sqrt(p_hat (1 - p_hat) / n + z^2 / 4n^2)) / (1 + z^2 / n)``.

    The centre is pulled towards one half and the interval never leaves
    [0, 1]; at 0 or ``trials`` successes the end at 0 or 1 is exact.
    Identical to ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``.

    Parameters
    ----------
    successes : int
    trials : int
    confidence : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> low, high = wilson_interval(8, 12)
    >>> round(low, 4), round(high, 4)
    (0.3906, 0.8619)
    """
    successes, trials = _check_proportion(successes, trials)
    z = normal_quantile(0.5 + 0.5 * _check_confidence(confidence))
    p = successes / trials
    # Newcombe's arrangement of the roots (scipy uses it too): one division at the end.
    denominator = 2.0 * (trials + z * z)
    centre = (2.0 * trials * p + z * z) / denominator
    half_width = z / denominator * math.sqrt(4.0 * trials * p * (1.0 - p) + z * z)
    low = 0.0 if successes == 0 else centre - half_width
    high = 1.0 if successes == trials else centre + half_width
    return ConfidenceInterval(low, high)


def agresti_coull_interval(successes: int, trials: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Agresti-Coull ("add z^2 / 2 successes and failures") interval for a proportion.

    With ``n~ = n + z^2`` and ``p~ = (successes + z^2 / 2) / n~``, the
    interval is ``p~ +/- z sqrt(p~ (1 - p~) / n~)`` (Agresti and Coull, 1998,
    "Approximate is better than 'exact' for interval estimation of binomial
    proportions"): Wald's formula around Wilson's centre.  At 95 % it is
    close to adding two successes and two failures.  It always contains the
    Wilson interval.  Like :func:`wald_interval` it is not clipped, so near
    0 or ``trials`` successes an end can leave [0, 1];
    statsmodels' ``proportion_confint(method="agresti_coull")`` computes the
    same ends and then clips them to [0, 1].

    Parameters
    ----------
    successes : int
    trials : int
    confidence : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> low, high = agresti_coull_interval(8, 12)
    >>> round(low, 4), round(high, 4)
    (0.388, 0.8645)
    """
    successes, trials = _check_proportion(successes, trials)
    z = normal_quantile(0.5 + 0.5 * _check_confidence(confidence))
    adjusted_trials = trials + z * z
    centre = (successes + 0.5 * z * z) / adjusted_trials
    half_width = z * math.sqrt(centre * (1.0 - centre) / adjusted_trials)
    return ConfidenceInterval(centre - half_width, centre + half_width)


def clopper_pearson_interval(successes: int, trials: int, *, confidence: float = 0.95) -> ConfidenceInterval:
    """Clopper-Pearson ("exact") interval for a proportion.

    Every proportion ``p`` that neither one-sided binomial test rejects at
    level ``alpha / 2``: the low end solves ``P(X >= k | n, p) = alpha / 2``
    and the high end ``P(X <= k | n, p) = alpha / 2``, for ``X`` binomial.
    Both are beta quantiles, ``B(alpha / 2; k, n - k + 1)`` and
    ``B(1 - alpha / 2; k + 1, n - k)``, with the ends 0 at ``k = 0`` and 1 at
    ``k = n``.  Its coverage is at least ``confidence`` for every true
    proportion, which makes it wider than it needs to be on average.
    Equal to ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")``
    (which finds the same roots with Brent's method, to about 1e-12).

    The beta quantile is the inverse of the regularised incomplete beta
    function; it comes from ``scipy.special.betaincinv`` and
    ``betainccinv``, imported here (SciPy is in the ``ml`` extra), because
    an inverse accurate to rounding for every ``n`` is a numerical library
    of its own, unlike the normal quantile of the other intervals.

    Parameters
    ----------
    successes : int
    trials : int
    confidence : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> low, high = clopper_pearson_interval(8, 12)
    >>> round(low, 4), round(high, 4)
    (0.3489, 0.9008)
    """
    successes, trials = _check_proportion(successes, trials)
    alpha = 1.0 - _check_confidence(confidence)
    try:
        from scipy.special import betainccinv, betaincinv
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError("clopper_pearson_interval needs SciPy: pip install 'evalmetrics[ml]'") from error
    # The upper end from the complement, so that a tail of alpha / 2 is solved without 1 - alpha / 2.
    low = 0.0 if successes == 0 else float(betaincinv(successes, trials - successes + 1, alpha / 2))
    high = 1.0 if successes == trials else float(betainccinv(successes + 1, trials - successes, alpha / 2))
    return ConfidenceInterval(low, high)


def coverage_probability(interval: Callable[..., tuple[float, float]], trials: int, p: ArrayLike, *,
                         confidence: float = 0.95) -> float | np.ndarray:
    """The probability that an interval method covers the true proportion ``p``.

    Sums the binomial probabilities of the outcomes ``k = 0, ..., trials``
    whose interval ``interval(k, trials, confidence=confidence)`` contains
    ``p``: the coverage the method delivers, exactly, where its
    ``confidence`` is the coverage it claims.

    Parameters
    ----------
    interval : callable
        ``interval(successes, trials, confidence=...)`` returning ``(low,
        high)``, such as :func:`wilson_interval`.
    trials : int
        Number of trials, from 1 to 100,000.
    p : float or array_like of float
        True proportions in [0, 1].
    confidence : float, default 0.95

    Returns
    -------
    float or ndarray
        A float for a number, an array of the shape of ``p`` for an array.

    Examples
    --------
    >>> round(coverage_probability(wald_interval, 12, 0.9), 4)
    0.7132
    >>> round(coverage_probability(wilson_interval, 12, 0.9), 4)
    0.9744
    """
    if not callable(interval):
        raise TypeError(f"interval must be callable, got {type(interval).__name__}")
    # The method is called once per outcome: n + 1 calls.
    trials = arrays.positive_int(trials, "trials", maximum=100_000)
    confidence = _check_confidence(confidence)
    if np.asarray(p).dtype.kind == "b":
        raise TypeError("p must contain real numbers, got dtype bool")
    values = arrays.real_array(p, "p")
    if not np.all(np.isfinite(values)) or np.any((values < 0) | (values > 1)):
        raise ValueError("p must contain proportions in [0, 1]")
    ends = np.array([tuple(interval(k, trials, confidence=confidence)) for k in range(trials + 1)], dtype=float)
    k = np.arange(trials + 1)
    # log C(n, k) from lgamma keeps every term finite for any n; p^k (1 - p)^(n - k) is
    # formed in logs too, with 0 log 0 = 0 at p = 0 and p = 1.
    log_choose = np.array([math.lgamma(trials + 1) - math.lgamma(j + 1) - math.lgamma(trials - j + 1) for j in k])
    coverage = np.empty(values.size)
    for i, proportion in enumerate(values.ravel()):
        with np.errstate(divide="ignore", invalid="ignore"):
            log_terms = (log_choose + np.where(k == 0, 0.0, k * np.log(proportion))
                         + np.where(k == trials, 0.0, (trials - k) * np.log1p(-proportion)))
        covers = (ends[:, 0] <= proportion) & (proportion <= ends[:, 1])
        coverage[i] = np.sum(np.exp(log_terms[covers]))
    return float(coverage[0]) if values.ndim == 0 else coverage.reshape(values.shape)


# ---------------------------------------------------------------------------
# the bootstrap
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BootstrapResult:
    """A metric, its bootstrap interval and the distribution behind it.

    Attributes
    ----------
    estimate : float
        The metric on the original data.
    interval : ConfidenceInterval
    method : str
        ``"percentile"`` or ``"bca"``.
    n_resamples : int
        Resamples drawn, including skipped ones.
    n_skipped : int
        Resamples on which the metric was undefined (NaN), left out.
    standard_error : float
        Standard deviation (ddof 1) of the kept replicates.
    distribution : ndarray
        The kept replicates, in the order they were drawn.
    """

    estimate: float
    interval: ConfidenceInterval
    method: str
    n_resamples: int
    n_skipped: int
    standard_error: float
    distribution: np.ndarray = field(repr=False, compare=False)


def _check_bootstrap_options(arrays_, n_resamples, confidence, method, groups, seed, draws):
    if not arrays_:
        raise ValueError("pass at least one array to resample")
    columns = [np.asarray(a) for a in arrays_]
    for number, a in enumerate(columns):
        if a.ndim == 0:
            raise ValueError(f"array {number} must be at least 1-D, got a scalar")
    lengths = {len(a) for a in columns}
    if len(lengths) > 1:
        raise ValueError(f"inconsistent lengths: the arrays have {sorted(len(a) for a in columns)} rows")
    n = lengths.pop()
    if n < 2:
        raise ValueError(f"the bootstrap needs at least 2 rows, got {n}")
    # Two replicates are the fewest an interval can be read from.
    n_resamples = arrays.positive_int(n_resamples, "n_resamples", minimum=2)
    confidence = _check_confidence(confidence)
    if method not in ("percentile", "bca"):
        raise ValueError(f'method must be "percentile" or "bca", got {method!r}')
    if not isinstance(draws, str) or draws not in ("rows", "counts"):
        raise ValueError(f'draws must be "rows" or "counts", got {draws!r}')
    if groups is not None:
        groups = arrays.class_labels(groups, "groups", whole=False)
        arrays.same_length(arrays=columns[0], groups=groups)
        try:
            _, groups = np.unique(groups, return_inverse=True)
        except TypeError:
            raise TypeError("groups must hold mutually comparable labels") from None
        groups = groups.ravel()
        if groups.max() < 1:
            raise ValueError("groups has a single group; resampling groups needs at least 2")
    arrays.seed(seed)
    return columns, n_resamples, confidence, groups


def _check_engine(engine):
    if not (engine is None or (isinstance(engine, str) and engine == "auto") or callable(engine)):
        raise TypeError(f"engine must be 'auto', None or a callable, got {engine!r}")


class _Fault(Exception):
    """A metric's value that is not one finite real number: the exception to raise and why."""

    def __init__(self, kind, returned, advice="it must return a real number (NaN where undefined)"):
        super().__init__(returned)
        self.kind, self.returned, self.advice = kind, returned, advice

    def named(self, where):
        return self.kind(f"metric returned {self.returned} {where}; {self.advice}")


def _real(value, side=""):
    """The metric's value as a float; a :class:`_Fault` when it is none."""
    if type(value) is float:
        result = value
    elif isinstance(value, (bool, np.bool_)) or (isinstance(value, np.ndarray) and value.dtype.kind == "b"):
        raise _Fault(TypeError, f"a boolean{side}")
    elif isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise _Fault(TypeError, f"an array of shape {value.shape}{side}",
                         "it must return one real number (NaN where undefined)")
        if value.dtype.kind not in "fiu":
            raise _Fault(TypeError, f"an array of dtype {value.dtype}{side}")
        result = float(value)
    elif isinstance(value, numbers.Real):
        try:
            result = float(value)
        except OverflowError:
            shown = f"an integer of {len(str(abs(int(value))))} digits" if isinstance(value, numbers.Integral) \
                else repr(value)
            raise _Fault(ValueError, f"{shown}{side}", "it is too large for a float") from None
    else:
        raise _Fault(TypeError, ("None" if value is None else type(value).__name__) + side)
    if math.isinf(result):
        raise _Fault(ValueError, f"{result}{side}",
                     "the bootstrap needs finite values (NaN marks a resample where the metric is undefined)")
    return result


def _value(metric, columns, rows, where):
    """The metric on the chosen rows, as a float; a bad value is an error that says where it arose."""
    try:
        return _real(metric(*[c[rows] for c in columns]))
    except _Fault as fault:
        raise fault.named(where) from None


def _quietly(metric, columns, rows, where):
    """The metric on the chosen rows, with its undefined-metric warnings silenced."""
    with warnings.catch_warnings():
        # Undefined resamples are counted in the result instead of warned about one by one.
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return _value(metric, columns, rows, where)


def _replicates(metric, columns, all_rows, n_resamples):
    """The metric on every resample; one warnings context for the whole loop (it is not cheap)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return np.array([_value(metric, columns, rows, f"on resample {b + 1} of {n_resamples}")
                         for b, rows in enumerate(all_rows)])


# The resamples on which an engine must agree with the metric: drawn from their own
# generator, so that the check changes nothing in the caller's stream of resamples.
# Beyond _CHECK_ROWS rows a check draws that many rows (with replacement, so some rows
# repeat as in any resample): the check then costs a bounded time and memory.
_CHECK_SEED = 20_240_601
_CHECKS = 2
_CHECK_ROWS = 1 << 16


def _agree(engine_value, metric_value):
    if math.isnan(metric_value) or math.isnan(engine_value):
        return math.isnan(metric_value) and math.isnan(engine_value)
    return abs(engine_value - metric_value) <= 1e-12 * max(1.0, abs(metric_value))


def _disagreement(engine, metric, columns, estimate):
    """None when the engine computes the metric (on the data and on two resamples), else where it does not."""
    own = float(engine.estimate())
    if not _agree(own, estimate):
        return f"on the data the engine gives {own!r}, the metric {estimate!r}"
    n = len(columns[0])
    rng = np.random.default_rng(_CHECK_SEED)
    for check in range(_CHECKS):
        rows = rng.integers(0, n, min(n, _CHECK_ROWS))
        expected = _quietly(metric, columns, rows, "on a check resample")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            found = float(engine.at(rows))
        if not _agree(found, expected):
            return f"on check resample {check + 1} the engine gives {found!r}, the metric {expected!r}"
    return None


def _engine(carrier, metric, columns, engine, estimate):
    """The engine that replaces the metric calls, or None (the metric is called on every resample).

    ``engine="auto"`` takes the factory ``carrier.bootstrap_engine``, if any; a
    callable is the factory.  Either way the engine must compute ``metric``:
    an engine the metric carries that fails the check is dropped without a
    word (the plain path gives the right interval, only slower); an engine
    the caller passed is an error.
    """
    if engine is None:
        return None
    explicit = callable(engine)
    factory = engine if explicit else getattr(carrier, "bootstrap_engine", None)
    if factory is None:
        return None
    built = factory(*columns)
    if not all(callable(getattr(built, name, None)) for name in ("estimate", "at", "replicates")):
        if not explicit:
            return None
        raise TypeError("engine(*arrays) must return an engine with estimate(), at(rows) and "
                        f"replicates(rng, n_resamples, draws, groups), got {type(built).__name__}")
    fault = _disagreement(built, metric, columns, estimate)
    if fault is None:
        return built
    if explicit:
        raise ValueError(f"engine does not compute metric: {fault}")
    return None


def _jackknife(metric, columns, n, groups):
    """The metric with each row (or each group) left out once."""
    if groups is None:
        keep = np.ones(n, dtype=bool)
        out = []
        for i in range(n):
            keep[i] = False
            out.append(_quietly(metric, columns, np.flatnonzero(keep), f"with row {i} left out"))
            keep[i] = True
        return np.array(out)
    return np.array([_quietly(metric, columns, np.flatnonzero(groups != g), f"with group {g} left out")
                     for g in range(groups.max() + 1)])


def _bca_levels(metric, columns, estimate, replicates, alpha, n, groups, engine):
    """Adjusted quantile levels of the BCa interval (Efron and Tibshirani, ch. 14)."""
    # Bias correction: how far the estimate sits from the middle of the replicates
    # (ties counted one half, as scipy does).
    share_below = (np.sum(replicates < estimate) + np.sum(replicates <= estimate)) / (2 * len(replicates))
    if not 0.0 < share_below < 1.0:
        raise ValueError(
            "the BCa interval is undefined: every replicate lies on one side of the estimate "
            "(a degenerate distribution); use method='percentile'"
        )
    z0 = normal_quantile(share_below)
    # Acceleration from the skewness of the jackknife values; undefined leave-outs are dropped.
    if engine is not None and groups is None:
        leave_out = engine.jackknife()
    else:
        leave_out = _jackknife(metric, columns, n, groups)
    leave_out = leave_out[~np.isnan(leave_out)]
    deviation = leave_out.mean() - leave_out
    spread = np.sum(deviation ** 2)
    acceleration = np.sum(deviation ** 3) / (6.0 * spread ** 1.5) if spread > 0 else 0.0
    levels = []
    for z_alpha in (normal_quantile(alpha), -normal_quantile(alpha)):
        shifted = z0 + z_alpha
        levels.append(normal.cdf(z0 + shifted / (1.0 - acceleration * shifted)))
    return levels


def _bootstrap(metric, columns, n_resamples, confidence, method, groups, seed, engine="auto", draws="rows",
               carrier=None):
    """The bootstrap of ``metric`` on ``columns``; an engine (see ``_engine``, its factory
    carried by ``carrier``) replaces the metric calls on the resamples when it computes the metric."""
    n = len(columns[0])
    # The metric reads the data themselves (no copy: the report's columns are long), through
    # read-only views, so that a metric cannot change the caller's arrays.
    views = [c.view() for c in columns]
    for view in views:
        view.flags.writeable = False
    estimate = _quietly(metric, views, slice(None), "on the data")
    if math.isnan(estimate):
        raise ValueError("the metric is undefined (NaN) on the original data")
    engine = _engine(metric if carrier is None else carrier, metric, columns, engine, estimate)
    rng = np.random.default_rng(seed)
    if engine is None:
        values = _replicates(metric, columns, resampling.resamples(rng, n, n_resamples, groups), n_resamples)
    elif groups is None:
        values = np.asarray(engine.replicates(rng, n_resamples, draws), dtype=np.float64)
    else:
        values = np.asarray(engine.replicates(rng, n_resamples, draws, groups), dtype=np.float64)
    kept = values[~np.isnan(values)]
    if len(kept) < 2:
        raise ValueError(f"the metric was undefined (NaN) on {n_resamples - len(kept)} of {n_resamples} "
                         "resamples; an interval needs at least 2 defined replicates")
    alpha = 0.5 * (1.0 - confidence)
    if method == "bca":
        levels = _bca_levels(metric, columns, estimate, kept, alpha, n, groups, engine)
    else:
        levels = [alpha, 1.0 - alpha]
    low, high = resampling.percentile(kept, levels)
    return BootstrapResult(
        estimate=estimate,
        interval=ConfidenceInterval(low, high),
        method=method,
        n_resamples=n_resamples,
        n_skipped=int(n_resamples - len(kept)),
        standard_error=float(np.std(kept, ddof=1)),
        distribution=kept,
    )


def bootstrap_interval(metric, *arrays_, n_resamples=2000, confidence=0.95, method="percentile",
                       groups=None, seed=None, draws="rows", engine="auto"):
    """Bootstrap confidence interval of any metric.

    Each resample draws ``n`` rows with replacement -- the same rows from
    every array, so pairs stay together -- or, with ``groups``, as many
    whole groups as there are, with replacement.  The metric is recomputed
    on each; resamples where it is NaN (an AUC without positives, say) are
    skipped and counted in ``n_skipped``.  The estimate is always the
    metric's own value on the data.

    * ``"percentile"``: the ``alpha/2`` and ``1 - alpha/2`` quantiles of the
      replicates.
    * ``"bca"``: bias-corrected and accelerated: the quantile levels are
      shifted by the share of replicates below the estimate (bias) and by
      the skewness of the jackknife values (acceleration), which improves
      coverage for skewed metrics such as an AUC near 1.

    Parameters
    ----------
    metric : callable
        ``metric(*arrays)`` returns one finite real number, or NaN where it
        is undefined; None, an array, a boolean or an infinity is an error
        that says on which data it arose.  A metric may carry a fast path
        as its ``bootstrap_engine`` attribute (see ``engine``);
        ``evalmetrics.roc_auc``, ``rank_auc`` and ``pairwise_auc`` carry the
        sort-once AUC bootstrap, which gives the same replicates to the bit.
    *arrays_ : array_like
        Arrays with one entry (or row) per example, e.g. ``y_true, y_score``.
    n_resamples : int, default 2000
        At least 2, the fewest replicates an interval can be read from.
    confidence : float, default 0.95
    method : {"percentile", "bca"}
    groups : array_like, optional
        Group label per row; whole groups are resampled.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`.
    draws : {"rows", "counts"}, default "rows"
        ``"rows"`` draws the resamples exactly as ``scipy.stats.bootstrap(...,
        paired=True, vectorized=False, rng=seed)`` does, so the intervals
        equal SciPy's.  ``"counts"`` lets an unweighted AUC with heavily tied
        scores (at least 32 rows per cell of tied scores) draw each
        resample's counts over the cells from a multinomial distribution
        instead of drawing its rows: the same bootstrap distribution, other
        random numbers, and a cost that no longer grows with ``n``.  Other
        metrics, groups and scores with many distinct values draw rows as
        with ``"rows"``.
    engine : "auto", None or callable, default "auto"
        How the replicates are computed.  An engine computes them without
        calling the metric, and is used only once it has shown that it
        computes the metric: its value on the data and on two resamples
        (drawn from a generator of their own, so the resamples of the
        interval do not change; of at most 2**16 rows, so the check stays
        cheap on long data) must equal the metric's own, to 1e-12
        relative.  ``"auto"``: the engine the metric carries as
        ``metric.bootstrap_engine``, if any, when the arrays are ``y_true,
        y_score``; one that fails the check is dropped without a warning
        and the metric is called on every resample (the interval is then
        right, only slower).  So a ``functools.wraps`` wrapper, which
        copies the attribute, keeps the fast path when it computes the
        same number and loses it when it computes another.  None: call the
        metric on every resample.  A callable: ``engine(*arrays)`` returns
        the engine (``estimate()``, ``at(rows)``, ``replicates(rng,
        n_resamples, draws)``, and with groups ``replicates(rng,
        n_resamples, draws, groups)``; ``jackknife()`` for BCa), as
        ``evalmetrics.roc_auc.bootstrap_engine`` does; one that fails the
        check is a ValueError.

    Returns
    -------
    BootstrapResult

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> correct = (units.y_score >= 0.5) == (units.y_true == 1)
    >>> result = bootstrap_interval(np.mean, correct, seed=0)
    >>> round(result.estimate, 4), result.n_skipped
    (0.6667, 0)
    """
    columns, n_resamples, confidence, groups = _check_bootstrap_options(
        arrays_, n_resamples, confidence, method, groups, seed, draws)
    if not callable(metric):
        raise TypeError(f"metric must be callable, got {type(metric).__name__}")
    _check_engine(engine)
    # The engine a metric carries computes it of (y_true, y_score) only: not of weights.
    use = None if engine == "auto" and len(columns) != 2 else engine
    return _bootstrap(metric, columns, n_resamples, confidence, method, groups, seed, use, draws)


def bootstrap_difference(metric, y_true, y_score_a, y_score_b, *, n_resamples=2000, confidence=0.95,
                         method="percentile", groups=None, seed=None, draws="rows", engine="auto"):
    """Paired bootstrap of ``metric(y_true, a) - metric(y_true, b)``.

    Both models are scored on the same resample in every replicate, which
    keeps the correlation between their errors: two separate intervals
    would ignore it and overstate the uncertainty of the difference.

    Parameters
    ----------
    metric : callable
        ``metric(y_true, y_score)`` returns a float.
    y_true, y_score_a, y_score_b : array_like of shape (n,)
    n_resamples, confidence, method, groups, seed, draws
        As in :func:`bootstrap_interval`; with ``draws="counts"`` the cells
        are the pairs (cell of a, cell of b) that occur.
    engine : "auto", None or callable, default "auto"
        As in :func:`bootstrap_interval`; a callable is called as
        ``engine(y_true, y_score_a, y_score_b)`` and returns the engine of the
        difference.

    Returns
    -------
    BootstrapResult
        Of the difference, model a minus model b.

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> def accuracy(y, s):
    ...     return float(np.mean((s >= 0.5) == (y == 1)))
    >>> y, s = units.y_true, units.y_score
    >>> result = bootstrap_difference(accuracy, y, s, 1 - s, seed=0)
    >>> round(result.estimate, 4)
    0.3333
    """
    columns, n_resamples, confidence, groups = _check_bootstrap_options(
        (y_true, y_score_a, y_score_b), n_resamples, confidence, method, groups, seed, draws)
    if not callable(metric):
        raise TypeError(f"metric must be callable, got {type(metric).__name__}")

    def difference(y, a, b):
        return _real(metric(y, a), " for y_score_a") - _real(metric(y, b), " for y_score_b")

    _check_engine(engine)
    return _bootstrap(difference, columns, n_resamples, confidence, method, groups, seed, engine, draws,
                      carrier=metric)
