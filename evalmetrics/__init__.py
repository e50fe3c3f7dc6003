"""evalmetrics: evaluation metrics from scratch in NumPy.

One module per idea:

========================  ==================================================
``arrays``                :func:`ratio`, the undefined-metric warning
``counts``                confusion matrix, :class:`BinaryCounts`
``rates``                 accuracy, precision, recall, F-beta, MCC, kappa, LR+/LR-
``averaging``             macro, micro and weighted averages over classes
``curves``                threshold table; ROC, PR, DET curves; ROC AUC, average precision
``ranking``               the AUC as a probability (pairs, ranks)
``costs``                 cost curves and cost-optimal thresholds
``budgets``               precision and recall at k, gain, lift, top-k accuracy
``calibration``           Brier score and decompositions, log loss, ECE, CORP
``recalibration``         Platt scaling, isotonic regression, temperature scaling
``regression``            MSE, RMSE, MAE, MAPE, MASE, R-squared, pinball loss
``cross_validation``      splitters, out-of-fold probabilities, nested CV
``intervals``             Wald, Wilson, Agresti-Coull, exact; bootstrap
``delong``                DeLong's variance of the AUC, intervals and tests
``models``                logistic regression and Gaussian naive Bayes
``datasets``              synthetic data and the breast-cancer loader
``worked_example``        the twelve units, the graded parts, the six households
``plotting``              figures (matplotlib) and explorers (Vega-Lite)
``report``                evaluation reports: ``evalmetrics report``
========================  ==================================================

Every public function and class of these modules (``plotting`` and
``report`` apart) is importable from ``evalmetrics`` itself.  The book's companion code --
the pitfalls, the studies, the screening project, the comparisons with
scikit-learn -- is not part of this namespace: it lives in
:mod:`evalmetrics.handbook`, which the pages import explicitly.  numpy is
the only hard dependency: scikit-learn, SciPy, matplotlib and vl-convert-python
are imported inside the few functions (and methods) that need them.
"""

from . import (
    arrays,
    averaging,
    budgets,
    calibration,
    costs,
    counts,
    cross_validation,
    curves,
    datasets,
    delong,
    intervals,
    models,
    ranking,
    rates,
    recalibration,
    regression,
    worked_example,
)
from .arrays import *  # noqa: F401,F403
from .averaging import *  # noqa: F401,F403
from .budgets import *  # noqa: F401,F403
from .calibration import *  # noqa: F401,F403
from .costs import *  # noqa: F401,F403
from .counts import *  # noqa: F401,F403
from .cross_validation import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .datasets import *  # noqa: F401,F403
from .delong import *  # noqa: F401,F403
from .intervals import *  # noqa: F401,F403
from .models import *  # noqa: F401,F403
from .ranking import *  # noqa: F401,F403
from .rates import *  # noqa: F401,F403
from .recalibration import *  # noqa: F401,F403
from .regression import *  # noqa: F401,F403
from .worked_example import *  # noqa: F401,F403

# The version, in this one place: pyproject.toml reads it (tool.setuptools.dynamic).
__version__ = "0.1.0"
