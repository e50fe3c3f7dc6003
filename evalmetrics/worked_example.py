"""The worked examples of the handbook, as data.

* :func:`twelve_units` -- twelve inspected units scored by a model, four of
  them faulty (the positive class); units 7 and 8 share the score 0.40.
* :func:`graded_parts` -- seventy parts graded good, rework or scrap.
* :func:`six_households` -- daily electricity use of six households and a
  model's forecasts.

Most docstring examples in the package use the twelve units; those of
``regression``, the six households.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["GradedParts", "Households", "TwelveUnits", "graded_parts", "six_households", "twelve_units"]


@dataclass(frozen=True)
class TwelveUnits:
    """Labels and scores of the twelve units, in decreasing order of score.

    Attributes
    ----------
    unit : ndarray of int
        The unit numbers 1 to 12.
    y_true : ndarray of int
        1 for a faulty unit (the positive class), 0 for a working one.
    y_score : ndarray of float
        The scores, from 0.95 down to 0.10.
    """

    unit: np.ndarray
    y_true: np.ndarray
    y_score: np.ndarray


def twelve_units() -> TwelveUnits:
    """The twelve scored units of the worked example.

    Returns
    -------
    TwelveUnits
        Units 1, 3, 5 and 8 are faulty; units 7 and 8 tie at 0.40.

    Examples
    --------
    >>> units = twelve_units()
    >>> int(units.y_true.sum()), len(units.y_true)
    (4, 12)
    """
    score = np.array([0.95, 0.85, 0.80, 0.70, 0.65, 0.55, 0.40, 0.40, 0.30, 0.20, 0.15, 0.10])
    unit = np.arange(1, 13)
    faulty = np.isin(unit, [1, 3, 5, 8]).astype(int)
    return TwelveUnits(unit=unit, y_true=faulty, y_score=score)


@dataclass(frozen=True)
class GradedParts:
    """True and predicted grades of the seventy parts.

    Attributes
    ----------
    labels : tuple of str
        ``("good", "rework", "scrap")``, the order of the grades.
    matrix : ndarray of shape (3, 3)
        The confusion matrix, rows actual, columns predicted, in the order of ``labels``.
    y_true, y_pred : ndarray of str
        The grades of each part, seventy rows.
    """

    labels: tuple
    matrix: np.ndarray
    y_true: np.ndarray
    y_pred: np.ndarray


def graded_parts() -> GradedParts:
    """Seventy parts: 50 good, 15 rework, 5 scrap, and how a grader called them.

    The labels sort alphabetically in their natural order (good < rework <
    scrap), so sorted-label functions and the ordinal weighted kappa agree.

    Returns
    -------
    GradedParts

    Examples
    --------
    >>> parts = graded_parts()
    >>> parts.matrix.sum(axis=0)
    array([52, 14,  4])
    """
    labels = ("good", "rework", "scrap")
    matrix = np.array([[46, 3, 1], [5, 9, 1], [1, 2, 2]])
    y_true, y_pred = [], []
    for i, row in enumerate(matrix):
        for j, count in enumerate(row):
            y_true += [labels[i]] * int(count)
            y_pred += [labels[j]] * int(count)
    return GradedParts(labels=labels, matrix=matrix, y_true=np.array(y_true), y_pred=np.array(y_pred))


@dataclass(frozen=True)
class Households:
    """Actual daily use and forecasts, in kWh.

    Attributes
    ----------
    y_true, y_pred : ndarray of float
        The actual use and the forecast of each of the six households.
    """

    y_true: np.ndarray
    y_pred: np.ndarray


def six_households() -> Households:
    """Six households' daily electricity use (kWh) and a model's forecasts.

    Returns
    -------
    Households

    Examples
    --------
    >>> h = six_households()
    >>> float(h.y_true.mean().round(4))
    18.3333
    """
    return Households(
        y_true=np.array([12.0, 20.0, 15.0, 30.0, 8.0, 25.0]),
        y_pred=np.array([14.0, 18.0, 15.0, 24.0, 11.0, 27.0]),
    )
