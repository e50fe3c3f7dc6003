"""Every function next to its scikit-learn or SciPy counterpart.

:data:`REGISTRY` holds one :class:`Check` per function (or per option, such
as the three weightings of Cohen's kappa): the evalmetrics call, the
counterpart it must reproduce, a description of the data, the tolerance,
and a ``run(rng, n)`` that builds the data and returns the largest
difference (absolute for values up to 1, relative above).
:func:`compare_all` runs the registry, :func:`format_table` turns the
result into a Markdown table, and ``python -m evalmetrics.handbook.comparisons``
prints it.  :data:`NO_COUNTERPART` names the public functions left out,
with the reason.

The data are hard on purpose: scores and probabilities rounded to one or
two decimals (heavy ties, values on bin edges, exact 0 and 1), labels
{0, 1}, {-1, 1} and strings with ``pos_label``, two, three and five
classes, sample weights with zeros.  Where the two libraries differ only by
convention (the orientation of the precision-recall curve and its appended
point, the points ``roc_curve`` drops by default, the field order of the
reliability curve) the check converts one into the other, and the
counterpart's description says how.  This is one long registry on purpose:
one short entry per function, so a new function is one entry more.

scikit-learn and SciPy are imported inside the checks only.

The registry is split by topic, one module each, in the order of the
chapters of the book; the package imports them in that order, which is
the order of :data:`REGISTRY` and of the table:

======================  ===================================================
``_core``               :class:`Comparison`, :class:`Check`, the registry
                        and its decorator, the differences, the tolerances
``_data``               the hard random data and the families of checks
``rates``               counts and rates
``averaging``           averages over classes
``rankings``            curves, areas, ranks and costs
``probabilities``       calibration and recalibration
``regression``          regression metrics and best constants
``cross_validation``    the splitters (indices that differ) and
                        out-of-fold probabilities
``intervals``           the normal quantile, Wilson, Wald, the bootstrap
``models``              the models and the exact binormal AUC
``running``             :func:`compare_all` and :func:`format_table`
======================  ===================================================
"""

from __future__ import annotations

# The order of these imports is the order of REGISTRY (and of the book's
# table, and of the random stream each check draws from): keep it.
# isort: off
from . import rates
from . import averaging
from . import rankings
from . import probabilities
from . import regression
from . import cross_validation
from . import intervals
from . import models
from . import running
from ._core import *  # noqa: F401,F403
from .running import *  # noqa: F401,F403
# isort: on

from ._core import FITTED_TOLERANCE, METRIC_TOLERANCE, SIGMOID_TOLERANCE, TEMPERATURE_TOLERANCE
from ._data import BinarySet, binary_sets
from .probabilities import identity_classifier

__all__ = ["BinarySet", "Check", "Comparison", "FITTED_TOLERANCE", "METRIC_TOLERANCE", "NO_COUNTERPART",
           "REGISTRY", "SIGMOID_TOLERANCE", "TEMPERATURE_TOLERANCE", "binary_sets", "compare_all", "format_table",
           "identity_classifier"]
