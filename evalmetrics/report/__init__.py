"""Evaluation reports of anyone's labels and scores: the engine of ``evalmetrics report``.

=====================  ======================================================
``data``               the data read, the rules for its values, one-line errors
``reading``            a CSV file read in bounded chunks, the used columns only
``model``              the report's numbers: :func:`build_report`
``resampling``         the engine of every bootstrapped number: one pass, the library's bootstrap
``results``            the dataclasses that hold them
``checks``             the plain-language warnings
``content``            what the report says, as a :class:`Document`
``document``           Markdown and self-contained HTML rendering
``figures``            ROC, precision-recall, reliability and cost figures
``commands``           both commands end to end; the demos through their hook
``output``             a report folder: never over a user's file, one rename
``signals``            every catchable stopping signal as an exception while writing
``progress``           a dependency-free progress bar on stderr
=====================  ======================================================

The report package never imports the book's companion
(:mod:`evalmetrics.handbook`): ``evalmetrics report --demo`` runs a demo that a
package registers in the entry-point group ``evalmetrics.report_demos``
(:func:`report_demos`), and the companion registers its screening project there.

Example, in Python rather than from the command line:

>>> from evalmetrics.report import build_report, dataset_from_arrays
>>> from evalmetrics.worked_example import twelve_units
>>> units = twelve_units()
>>> report = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=100)
>>> round(report.column("model").auc_delong.low, 4)
0.4281
"""

from .checks import report_warnings
from .commands import csv_report, demo_report, report_demos
from .content import report_document, report_summary
from .data import Dataset, ReportError
from .document import Document, render_html, render_markdown
from .model import build_report, dataset_from_arrays
from .reading import read_dataset
from .results import ColumnReport, CostPoint, Estimate, PairedDifference, Report, ReportSetup

__all__ = [
    "ColumnReport",
    "CostPoint",
    "Dataset",
    "Document",
    "Estimate",
    "PairedDifference",
    "Report",
    "ReportError",
    "ReportSetup",
    "build_report",
    "csv_report",
    "dataset_from_arrays",
    "demo_report",
    "read_dataset",
    "render_html",
    "render_markdown",
    "report_demos",
    "report_document",
    "report_summary",
    "report_warnings",
]
