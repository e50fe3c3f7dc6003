"""The handbook's companion code: what the chapters demonstrate, apart from the library.

A user of the metrics imports :mod:`evalmetrics`; the pages of the book
import this subpackage explicitly for the computations that exist only to
make a point of a chapter:

====================  ======================================================
``pitfalls``          each pitfall of the chapter Pitfalls as a small
                      computation
``studies``           the imbalance, A/B and three-class studies of the
                      chapter In practice
``screening``         the breast-cancer screening evaluation of In practice
``screening_report``  the same run as a report (``evalmetrics report
                      --demo breast-cancer``, through an entry point)
``comparisons``       every function next to its scikit-learn or SciPy
                      counterpart (the page Checked against scikit-learn;
                      ``python -m evalmetrics.handbook.comparisons``)
``plotting``          the figures of the pitfalls, the studies and the
                      screening run
``pages``             helpers of the pages themselves: glue-and-assert,
                      Markdown tables
====================  ======================================================

The public names of ``pitfalls``, ``studies`` and ``screening`` are
importable from here; ``comparisons``, ``plotting`` and ``pages`` are
imported by name.
"""

from __future__ import annotations

from . import pitfalls, screening, studies
from .pitfalls import *  # noqa: F401,F403
from .screening import *  # noqa: F401,F403
from .studies import *  # noqa: F401,F403

__all__ = sorted(set(pitfalls.__all__) | set(studies.__all__) | set(screening.__all__))
