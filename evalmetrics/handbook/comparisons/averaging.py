"""Checks of the averages over classes, against ``precision_recall_fscore_support``.

Covers :mod:`evalmetrics.averaging` (the chapter ``book/averaging.md``): the
per-class scores, the macro, micro and weighted averages, and the F1 of
the macro averages.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from ... import averaging
from ._core import _check, _load, _worst
from ._data import _CLASSES_DATA, _class_sets

# ---------------------------------------------------------------------------
# averages over classes
# ---------------------------------------------------------------------------

def _class_scores(y, y_hat, **options):
    s = averaging.per_class_scores(y, y_hat, **options)
    return np.stack([s.precision, s.recall, s.f_score, s.support])


def _support_check(function, ours, average):
    shown = "None" if average is None else f'"{average}"'

    @_check(function, f"sklearn.metrics.precision_recall_fscore_support(average={shown})",
            _CLASSES_DATA + "; all labels and a subset; beta 1 and 2")
    def run(rng, n):
        theirs = _load("sklearn.metrics.precision_recall_fscore_support")
        return _worst((ours(y, y_hat, **options), theirs(y, y_hat, average=average, **options)[:3 if average else 4])
                      for y, y_hat, w in _class_sets(rng, n) for labels in (None, np.unique(y)[:2])
                      for beta in (1.0, 2.0)
                      for options in [dict(labels=labels, beta=beta, zero_division=0, sample_weight=w)])


_support_check("per_class_scores", _class_scores, None)
for _average in ("macro", "micro", "weighted"):
    _support_check(f'averaged_scores(average="{_average}")', partial(averaging.averaged_scores, average=_average),
                   _average)


@_check("f1_of_macro_averages", "harmonic mean of sklearn's macro precision_score and recall_score", _CLASSES_DATA)
def _(rng, n):
    precision, recall = _load("sklearn.metrics.precision_score"), _load("sklearn.metrics.recall_score")
    pairs = []
    for y, y_hat, w in _class_sets(rng, n):
        p, r = (f(y, y_hat, average="macro", sample_weight=w, zero_division=0) for f in (precision, recall))
        pairs.append((averaging.f1_of_macro_averages(y, y_hat, sample_weight=w, zero_division=0), 2 * p * r / (p + r)))
    return _worst(pairs)
