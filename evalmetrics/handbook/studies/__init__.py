"""The simulation studies of the chapter "In practice".

* :func:`imbalance_study` -- one binormal scoring model at several
  prevalences: what moves (precision, AP, accuracy, MCC, kappa) and what
  does not (ROC AUC, recall, balanced accuracy), next to a silent
  classifier that never flags anything.
* :func:`ab_comparison` -- two binormal models at 1 % prevalence whose ROC
  AUC and precision-recall summaries rank them in opposite orders.
* :func:`three_class_run` -- Gaussian naive Bayes on three classes of very
  different sizes, and the same model forbidden to predict the rare class.

Every study is deterministic given its ``seed`` (NumPy's PCG64 generator,
the same stream on every platform) and returns a frozen dataclass; the
arrays behind each number are kept in fields that are not part of the
``repr``.

The studies are the sections of the chapter In practice
(``book/in-practice.md``), one module each; every public name is
importable from this package (and from :mod:`evalmetrics.handbook`):

=================  ======================================================
``imbalance``      one model, several prevalences (:func:`imbalance_study`)
``ab_study``       two models, ROC against precision-recall
                   (:func:`ab_comparison`)
``three_classes``  three classes, and the rare one forbidden
                   (:func:`three_class_run`)
=================  ======================================================
"""

from __future__ import annotations

from . import ab_study, imbalance, three_classes
from .ab_study import *  # noqa: F401,F403
from .imbalance import *  # noqa: F401,F403
from .three_classes import *  # noqa: F401,F403

__all__ = [
    "ABComparison",
    "ClassRun",
    "DecisionMetrics",
    "ImbalanceStudy",
    "PrevalenceRun",
    "ScoredModel",
    "ThreeClassRun",
    "ab_comparison",
    "imbalance_study",
    "three_class_run",
]
