"""Synthetic data with known structure, and the breast-cancer data.

Every generator states its model, takes a ``seed`` for
:func:`numpy.random.default_rng`, and returns plain arrays:

* :func:`binormal_scores` -- scores of a classifier whose negatives are
  N(0, 1) and positives N(mean, sd): the true AUC is known in closed form
  (:func:`binormal_auc`), and so are its ROC and precision-recall curves
  (:func:`binormal_curve`).
* :func:`gaussian_classes` -- three (or more) Gaussian classes of very
  different sizes, for multiclass averaging.
* :func:`clustered_answers` -- people answering questions, with abilities
  that differ between people, so answers are not independent.
* :func:`demand_series` -- two years of daily sales counts with a trend, a
  weekly rhythm and many days without a sale.
* :func:`breast_cancer` -- the Wisconsin diagnostic data shipped with
  scikit-learn, malignant = 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from . import arrays
from ._kernels import normal
from ._typing import Seed
from .rates import precision_at_prevalence

__all__ = [
    "BinormalCurve",
    "binormal_auc",
    "binormal_curve",
    "binormal_scores",
    "breast_cancer",
    "clustered_answers",
    "demand_series",
    "gaussian_classes",
]


def binormal_scores(n_negative: int, n_positive: int, *, mean: float = 2.0, sd: float = 1.0,
                    seed: Seed = None) -> tuple[np.ndarray, np.ndarray]:
    """Draw scores from the binormal model.

    Negatives score N(0, 1), positives N(``mean``, ``sd``^2), independently.
    A random positive outranks a random negative with probability
    ``Phi(mean / sqrt(1 + sd^2))`` (:func:`binormal_auc`), the true AUC.

    Parameters
    ----------
    n_negative, n_positive : int
        Class sizes (either may be 0).
    mean : float, default 2.0
        Mean score of the positives (the separation).
    sd : float, default 1.0
        Standard deviation of the positives' scores.
    seed : int, numpy.random.Generator or None, optional
        Fresh entropy when None; an integer repeats the draw; a generator is drawn from.

    Returns
    -------
    y_true : ndarray of int, shape (n_negative + n_positive,)
        0 for the negatives, which come first, then 1 for the positives.
    y_score : ndarray of float

    Examples
    --------
    >>> y, s = binormal_scores(8, 4, seed=0)
    >>> y.tolist()
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    """
    n_negative = arrays.positive_int(n_negative, "n_negative", minimum=0)
    n_positive = arrays.positive_int(n_positive, "n_positive", minimum=0)
    if n_negative + n_positive == 0:
        raise ValueError("n_negative + n_positive must be at least 1")
    mean = arrays.real(mean, "mean")
    sd = arrays.non_negative(sd, "sd")
    rng = np.random.default_rng(arrays.seed(seed))
    negatives = rng.normal(0.0, 1.0, n_negative)
    positives = rng.normal(mean, sd, n_positive)
    y_true = np.r_[np.zeros(n_negative, dtype=int), np.ones(n_positive, dtype=int)]
    return y_true, np.r_[negatives, positives]


def binormal_auc(mean: float, *, sd: float = 1.0) -> float:
    """True AUC of :func:`binormal_scores`: ``Phi(mean / sqrt(1 + sd^2))``.

    The difference of a positive and a negative score is normal with mean
    ``mean`` and variance ``1 + sd^2``; the AUC is the chance it is positive.

    Parameters
    ----------
    mean : float
        Mean score of the positives.
    sd : float, default 1.0
        Standard deviation of the positives' scores.

    Returns
    -------
    float

    Examples
    --------
    >>> round(binormal_auc(1.5), 4)
    0.8556
    """
    mean = arrays.real(mean, "mean")
    sd = arrays.non_negative(sd, "sd")
    return normal.cdf(mean / math.sqrt(1.0 + sd * sd))


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
    mean, sd : float
        The positives' distribution, N(mean, sd^2).
    prevalence : float or None
        The share of positives of ``precision``.
    """

    thresholds: np.ndarray = field(repr=False)
    false_positive_rate: np.ndarray = field(repr=False)
    true_positive_rate: np.ndarray = field(repr=False)
    precision: np.ndarray | None = field(repr=False)
    mean: float
    sd: float
    prevalence: float | None


def binormal_curve(*, mean: float = 2.0, sd: float = 1.0, prevalence: float | None = None,
                   n_points: int = 801) -> BinormalCurve:
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
    The middle of three thresholds is 1: recall Phi(1), false positive rate
    1 - Phi(1), precision 0.0508 at 1 % prevalence.

    >>> curve = binormal_curve(prevalence=0.01, n_points=3)
    >>> curve.thresholds.tolist()
    [10.0, 1.0, -8.0]
    >>> curve.true_positive_rate.round(4)
    array([0.    , 0.8413, 1.    ])
    >>> curve.false_positive_rate.round(4)
    array([0.    , 0.1587, 1.    ])
    >>> curve.precision.round(4)
    array([1.    , 0.0508, 0.01  ])
    """
    mean = arrays.real(mean, "mean")
    sd = arrays.real(sd, "sd", low=0.0, low_open=True)
    if prevalence is not None:
        prevalence = arrays.probability(prevalence, "prevalence")
    n_points = arrays.positive_int(n_points, "n_points", minimum=2)
    # Eight standard deviations beyond either distribution: the rates are 0 or 1
    # there to about 1e-15.
    high = max(8.0, mean + 8.0 * sd)
    low = min(-8.0, mean - 8.0 * sd)
    thresholds = np.linspace(high, low, n_points)
    fpr = normal.cdf(-thresholds)
    tpr = normal.cdf((mean - thresholds) / sd)
    precision_ = None
    if prevalence is not None:
        precision_ = precision_at_prevalence(tpr, fpr, prevalence, zero_division=np.nan)
    return BinormalCurve(thresholds, fpr, tpr, precision_, mean, sd, prevalence)


def gaussian_classes(sizes: Sequence[int] = (1500, 400, 100), *, n_features: int = 2, separation: float = 1.35,
                     seed: Seed = None) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian classes of given sizes around points on a circle.

    Class k (k = 0, ..., K-1) is drawn from a normal distribution with
    identity covariance centred at ``separation * (cos 2 pi k / K, sin 2 pi
    k / K, 0, ..., 0)``: the centres are ``separation`` from the origin and
    evenly spaced on a circle in the first two features; further features
    are pure noise.  With the default sizes the last class is rare, and
    the default separation makes it hard: Gaussian naive Bayes, evaluated
    by stratified five-fold cross-validation, reaches an accuracy of about
    0.87 but catches only about 40 % of the rare class.

    Parameters
    ----------
    sizes : sequence of int, default (1500, 400, 100)
        Rows per class, at least two classes.
    n_features : int, default 2
    separation : float, default 1.35
        Distance of each class centre from the origin.
    seed : int, numpy.random.Generator or None, optional
        Fresh entropy when None; an integer repeats the draw; a generator is drawn from.

    Returns
    -------
    X : ndarray of shape (sum(sizes), n_features)
    y : ndarray of int, class numbers 0..K-1, in blocks

    Examples
    --------
    >>> X, y = gaussian_classes(seed=0)
    >>> X.shape, np.bincount(y).tolist()
    ((2000, 2), [1500, 400, 100])
    """
    sizes = [arrays.positive_int(size, "sizes") for size in sizes]
    if len(sizes) < 2:
        raise ValueError(f"sizes must list at least two classes, got {len(sizes)}")
    n_features = arrays.positive_int(n_features, "n_features", minimum=2)
    separation = arrays.non_negative(separation, "separation")
    rng = np.random.default_rng(arrays.seed(seed))
    angles = 2.0 * np.pi * np.arange(len(sizes)) / len(sizes)
    centres = np.zeros((len(sizes), n_features))
    centres[:, 0] = separation * np.cos(angles)
    centres[:, 1] = separation * np.sin(angles)
    y = np.repeat(np.arange(len(sizes)), sizes)
    X = centres[y] + rng.normal(size=(len(y), n_features))
    return X, y


def clustered_answers(n_people: int = 30, n_questions: int = 20, *,
                      seed: Seed = None) -> tuple[np.ndarray, np.ndarray]:
    """People answering questions, whose answers are clustered by person.

    Person i has an ability ``a_i ~ N(0.6, 1)`` on the log-odds scale and
    answers each question correctly, independently, with probability
    ``1 / (1 + exp(-a_i))`` (about 0.63 on average, from about 0.3 for weak
    to 0.9 for strong people).  Answers of one person share that person's
    ability, so the ``n_people * n_questions`` answers are far from
    independent: only the people are.  Resampling answers instead of people
    understates the spread of the accuracy over fresh groups of people.

    Parameters
    ----------
    n_people : int, default 30
    n_questions : int, default 20
    seed : int, numpy.random.Generator or None, optional
        Fresh entropy when None; an integer repeats the draw; a generator is drawn from.

    Returns
    -------
    person : ndarray of int, shape (n_people * n_questions,)
        Person number 0..n_people-1 of each answer, in blocks.
    correct : ndarray of int
        1 if the answer was correct.

    Examples
    --------
    >>> person, correct = clustered_answers(seed=0)
    >>> person.shape, int(person.max())
    ((600,), 29)
    """
    n_people = arrays.positive_int(n_people, "n_people")
    n_questions = arrays.positive_int(n_questions, "n_questions")
    rng = np.random.default_rng(arrays.seed(seed))
    ability = rng.normal(_MEAN_ABILITY, _SD_ABILITY, n_people)
    chance = 1.0 / (1.0 + np.exp(-ability))
    person = np.repeat(np.arange(n_people), n_questions)
    correct = (rng.random(n_people * n_questions) < chance[person]).astype(int)
    return person, correct


_MEAN_ABILITY = 0.6
_SD_ABILITY = 1.0


def demand_series(n_days: int = 730, *, seed: Seed = None) -> np.ndarray:
    """Daily sales of a slow-moving product over two years.

    Sales on day t (t = 0, ..., n_days - 1) are Poisson with rate

    ``exp(0.4 + 0.8 t / 730 + 0.5 sin(2 pi t / 7))``:

    an upward trend (the weekly average rate grows from about 1.6 to 3.5 a
    day over two years), a weekly rhythm, and Poisson noise.  With the
    default length about 96 days are expected to have no sale at all
    (the sum over the days of ``exp(-rate)``), which is what makes
    percentage errors explode.

    Parameters
    ----------
    n_days : int, default 730
    seed : int, numpy.random.Generator or None, optional
        Fresh entropy when None; an integer repeats the draw; a generator is drawn from.

    Returns
    -------
    ndarray of float, shape (n_days,)
        Units sold each day (whole numbers, stored as floats for the
        regression metrics).

    Examples
    --------
    >>> sales = demand_series(seed=0)
    >>> sales.shape, bool(np.all(sales == np.round(sales)))
    ((730,), True)
    """
    n_days = arrays.positive_int(n_days, "n_days")
    rng = np.random.default_rng(arrays.seed(seed))
    return rng.poisson(_demand_rate(np.arange(n_days))).astype(float)


def _demand_rate(day):
    return np.exp(0.4 + 0.8 * day / 730 + 0.5 * np.sin(2.0 * np.pi * day / 7))


def breast_cancer() -> tuple[np.ndarray, np.ndarray]:
    """The Breast Cancer Wisconsin (Diagnostic) data, malignant as positive.

    569 tumours, 30 features, 212 malignant.  The data ship with
    scikit-learn (``sklearn.datasets.load_breast_cancer``), so nothing is
    downloaded; scikit-learn codes malignant as 0, and this loader flips it
    so that malignant = 1 is the positive class.  Licence CC BY 4.0 (W.
    Wolberg, W. Street, O. Mangasarian, UCI Machine Learning Repository).

    Returns
    -------
    X : ndarray of shape (569, 30)
    y : ndarray of int, 1 = malignant

    Examples
    --------
    >>> X, y = breast_cancer()
    >>> X.shape, int(y.sum())
    ((569, 30), 212)
    """
    try:
        from sklearn.datasets import load_breast_cancer
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError("breast_cancer needs scikit-learn: pip install 'evalmetrics[ml]'") from error
    X, target = load_breast_cancer(return_X_y=True)
    return X, (target == 0).astype(int)
