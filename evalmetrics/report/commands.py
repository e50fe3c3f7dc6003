"""The two report commands end to end: read, compute, render, then write everything at once.

:func:`csv_report` and :func:`demo_report` do the work of ``evalmetrics
report``; the argument parsing lives in :mod:`evalmetrics.__main__`.  Both
render every file in memory and hand them to
:func:`~evalmetrics.report.output.publish` only at the end, so a failure at
any step leaves no partial report.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from pathlib import Path

import numpy as np

from .data import ReportError, read_dataset
from .document import render_html, render_markdown

__all__ = ["csv_report", "demo_report", "to_json"]


def _plain(value):
    """JSON-ready copy: dataclasses and named tuples by field (arrays and repr=False fields left out)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr}
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, np.ndarray):
        return None
    return value


def to_json(value):
    """UTF-8 JSON of a report's numbers (NaN as null, infinity as "inf").

    Examples
    --------
    >>> from evalmetrics.report import Estimate
    >>> to_json(Estimate(0.5, float("nan"), float("inf"), "Wilson"))
    b'{\\n  "value": 0.5,\\n  "low": null,\\n  "high": "inf",\\n  "method": "Wilson"\\n}\\n'
    """
    return (json.dumps(_plain(value), indent=2, allow_nan=False) + "\n").encode("utf-8")


def _files(document, numbers, out, figures_dir):
    """``{folder: {name: bytes}}`` of one report; figures beside the Markdown unless sent elsewhere."""
    out = Path(out)
    figures_dir = out if figures_dir is None else Path(figures_dir)
    pngs = {figure.name: figure.png for figure in document.figures()}
    if figures_dir.resolve() == out.resolve():
        figure_path = None
    else:
        # The Markdown refers to the figures relative to its own folder, wherever they went.
        relative = Path(os.path.relpath(figures_dir.resolve(), out.resolve()))
        figure_path = lambda name: (relative / name).as_posix()  # noqa: E731
    markdown = render_markdown(document, figure_path=figure_path)
    files = {out.resolve(): {"report.md": markdown.encode("utf-8"),
                             "report.html": render_html(document).encode("utf-8"),
                             "report.json": numbers}}
    files.setdefault(figures_dir.resolve(), {}).update(pngs)
    return files


def _progress(total):
    from .progress import ProgressBar

    return ProgressBar(total, stream=sys.stderr)


def _written_line(out, figures_dir, n_figures):
    where = Path(out) / "report.html"
    extra = f" and {n_figures} figure(s)" if n_figures else ""
    if figures_dir is not None and Path(figures_dir).resolve() != Path(out).resolve() and n_figures:
        extra += f" (figures in {figures_dir})"
    return f"Report: {where} (also report.md, report.json{extra})"


def csv_report(path, *, label, scores, command, out, pos_label=None, group=None, threshold=None,
               false_positive_cost=None, false_negative_cost=None, validation=None, resamples=2000, seed=0,
               confidence=0.95, n_bins=10, delimiter=",", figures_dir=None, progress=True):
    """Evaluate the score columns of a CSV file and write the report.

    Parameters
    ----------
    path : str
        The CSV file.
    label, scores, pos_label, group, delimiter
        As in :func:`evalmetrics.report.read_dataset`.
    command : str
        The command line, printed in the report.
    out : str
        Folder of report.md, report.html, report.json (and the figures).
    threshold, false_positive_cost, false_negative_cost, resamples, seed, confidence, n_bins
        As in :func:`evalmetrics.report.build_report`.
    validation : str, optional
        A second CSV file with the same columns, on which a cost-based
        threshold is chosen.
    figures_dir : str, optional
        Folder of the PNG figures (default ``out``).
    progress : bool, default True
        Show a progress bar on stderr when it is a terminal.

    Returns
    -------
    str
        The text to print: the first screen of the report.

    Examples
    --------
    >>> import os, tempfile
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     data = os.path.join(folder, "units.csv")
    ...     with open(data, "w") as handle:
    ...         _ = handle.write("faulty,score\\n" + "".join(
    ...             f"{y},{s}\\n" for y, s in zip(units.y_true, units.y_score)))
    ...     text = csv_report(data, label="faulty", scores=["score"], command="(doctest)",
    ...                       out=os.path.join(folder, "out"), resamples=100, progress=False)
    ...     files = sorted(os.listdir(os.path.join(folder, "out")))
    >>> files
    ['curves.png', 'reliability.png', 'report.html', 'report.json', 'report.md']
    """
    from .content import report_document, report_summary
    from .figures import matplotlib_available, report_figures
    from .model import bootstrap_runs, build_report
    from .output import check_target, publish

    check_target(out, "--out")
    if figures_dir is not None:
        check_target(figures_dir, "--figures")
    data = read_dataset(path, label=label, scores=scores, pos_label=pos_label, group=group, delimiter=delimiter)
    checked = None
    if validation is not None:
        checked = read_dataset(validation, label=label, scores=scores, pos_label=pos_label, delimiter=delimiter)
        if checked.positive != data.positive:
            raise ReportError(f"{validation}: the positive class is {checked.positive!r}, "
                              f"but {data.positive!r} in {path}")
    plotting = matplotlib_available()
    bar = _progress(bootstrap_runs(data) * (resamples + 1)) if progress else None
    try:
        report = build_report(data, validation=checked, threshold=threshold,
                              false_positive_cost=false_positive_cost, false_negative_cost=false_negative_cost,
                              resamples=resamples, seed=seed, confidence=confidence, n_bins=n_bins, progress=bar)
        if bar is not None:
            bar.describe("figures:")
        figures = report_figures(report) if plotting else []
    finally:
        if bar is not None:
            bar.close()
    if not plotting:
        report = dataclasses.replace(report, warnings=report.warnings + (
            "No figures: matplotlib is not installed (pip install 'evalmetrics[plot]').",))
    document = report_document(report, command=command, figures=figures)
    numbers = {"source": {"path": data.path, "sha256": data.sha256, "label": data.label,
                          "positive": data.positive, "negatives": list(data.negatives),
                          "scores": list(data.score_names), "group": data.group},
               "prevalence": report.prevalence, "baseline_accuracy": report.baseline_accuracy,
               **_plain(report)}
    publish(_files(document, to_json(numbers), out, figures_dir))
    return report_summary(report, written=_written_line(out, figures_dir, len(figures)))


def demo_report(name, *, command, out, seed=0, folds=5, penalty=1.0, false_positive_cost=1.0,
                false_negative_cost=20.0, resamples=2000, figures_dir=None, progress=True):
    """Run the handbook's screening project and write its report.

    Parameters
    ----------
    name : str
        The demo; only "breast-cancer" exists.
    command, out, figures_dir, progress
        As in :func:`csv_report`.
    seed, folds, penalty, false_positive_cost, false_negative_cost, resamples
        As in :func:`evalmetrics.handbook.run_screening`.

    Returns
    -------
    str
        The text to print.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     text = demo_report("breast-cancer", command="(doctest)", out=folder, resamples=20,
    ...                        progress=False)
    >>> print(text.splitlines()[1])
    569 tumours, 30 features, 212 malignant (37.3 %); test set locked first: 143 tumours, 53 malignant
    """
    from ..handbook.screening import run_screening
    from .demo import demo_document, demo_figures, demo_summary
    from .figures import matplotlib_available
    from .output import check_target, publish

    if name != "breast-cancer":
        raise ReportError(f"unknown demo {name!r}; the only demo is 'breast-cancer'")
    check_target(out, "--out")
    if figures_dir is not None:
        check_target(figures_dir, "--figures")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ReportError("the breast-cancer demo needs scikit-learn for its data: "
                          "pip install 'evalmetrics[ml]'") from None
    steps = 11  # the messages run_screening sends: data, 3 per model, the paired bootstrap
    bar = _progress(steps + 1) if progress else None

    def say(message):
        if bar is not None:
            bar.describe(message)
            bar.update(1)

    try:
        result = run_screening(seed=seed, folds=folds, penalty=penalty, false_positive_cost=false_positive_cost,
                               false_negative_cost=false_negative_cost, resamples=resamples, progress=say)
        say("figures")
        figures = demo_figures(result) if matplotlib_available() else []
    finally:
        if bar is not None:
            bar.close()
    document = demo_document(result, command=command, figures=figures)
    publish(_files(document, to_json(result), out, figures_dir))
    return demo_summary(result, written=_written_line(out, figures_dir, len(figures)))
