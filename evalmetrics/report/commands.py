"""The two report commands end to end: read, compute, render, then write everything at once.

:func:`csv_report` and :func:`demo_report` do the work of ``evalmetrics
report``; the argument parsing lives in :mod:`evalmetrics.__main__`.  Both
render every file in memory and hand them to :func:`write_report` only at
the end, so a failure at any step leaves no partial report.

A demo is not part of the library: :func:`demo_report` finds it by name in
the entry-point group :data:`DEMO_GROUP`, where a package registers it (the
book's companion registers ``breast-cancer``), and calls it.  That is the
documented hook through which ``evalmetrics report --demo`` runs the
screening project without the library importing the companion; a demo
writes its report with the public :func:`check_targets`,
:func:`write_report` and :func:`to_json`.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from pathlib import Path

import numpy as np

from .data import ReportError
from .document import render_html, render_markdown
from .reading import read_dataset

__all__ = ["DEMO_GROUP", "check_targets", "csv_report", "demo_report", "report_demos", "to_json", "write_report"]


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


def check_targets(out, figures_dir=None):
    """Check the report's folders before any work (see :func:`~evalmetrics.report.output.check_target`).

    Parameters
    ----------
    out : str
        The report's folder (``--out``).
    figures_dir : str, optional
        The figures' folder (``--figures``).

    Returns
    -------
    dict of str to bool
        Whether each folder existed: what :func:`write_report` takes as ``existed``.

    Examples
    --------
    >>> check_targets("a-folder-that-does-not-exist-yet")
    {'a-folder-that-does-not-exist-yet': False}
    """
    from .output import check_target

    existed = {out: check_target(out, "--out")}
    if figures_dir is not None:
        existed[figures_dir] = check_target(figures_dir, "--figures")
    return existed


def write_report(document, numbers, *, out, figures_dir=None, existed):
    """Write report.md, report.html, report.json and the figures in one rename; the line saying where.

    Parameters
    ----------
    document : Document
        The rendered report; its figures go to ``figures_dir``.
    numbers : bytes
        The content of report.json (:func:`to_json`).
    out, figures_dir : str
        As given to :func:`check_targets`.
    existed : dict of str to bool
        What :func:`check_targets` returned.

    Returns
    -------
    str
        "Report: <out>/report.html (also ...)".

    Examples
    --------
    >>> import os, tempfile
    >>> from evalmetrics.report import Document
    >>> with tempfile.TemporaryDirectory() as root:
    ...     out = os.path.join(root, "out")
    ...     line = write_report(Document("A title", (), ()), to_json({}), out=out, existed=check_targets(out))
    ...     files = sorted(os.listdir(out))
    >>> files
    ['.evalmetrics-report', 'report.html', 'report.json', 'report.md']
    """
    from .output import publish

    publish(_files(document, numbers, out, figures_dir), existed=existed)
    n_figures = len(document.figures())
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
    ['.evalmetrics-report', 'curves.png', 'reliability.png', 'report.html', 'report.json', 'report.md']
    """
    from .content import report_document, report_summary
    from .figures import matplotlib_available, report_figures
    from .model import build_report, give_back_freed_memory

    existed = check_targets(out, figures_dir)
    data = read_dataset(path, label=label, scores=scores, pos_label=pos_label, group=group, delimiter=delimiter)
    give_back_freed_memory(data.n_rows)
    checked = None
    if validation is not None:
        checked = read_dataset(validation, label=label, scores=scores, pos_label=pos_label, delimiter=delimiter)
        if checked.positive != data.positive:
            raise ReportError(f"{validation}: the positive class is {checked.positive!r}, "
                              f"but {data.positive!r} in {path}")
    plotting = matplotlib_available()
    bar = _progress(resamples) if progress else None
    try:
        report = build_report(data, validation=checked, threshold=threshold,
                              false_positive_cost=false_positive_cost, false_negative_cost=false_negative_cost,
                              resamples=resamples, seed=seed, confidence=confidence, n_bins=n_bins, progress=bar)
        if bar is not None:
            bar.describe("figures:")
        give_back_freed_memory()
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
    return report_summary(report, written=write_report(document, to_json(numbers), out=out, figures_dir=figures_dir,
                                                       existed=existed))


#: The entry-point group in which an installed package registers a demo report by name.
DEMO_GROUP = "evalmetrics.report_demos"


def report_demos():
    """The demo reports installed packages register, by name (the ``--demo`` choices).

    A demo is a callable registered in the entry-point group
    :data:`DEMO_GROUP`; the package's own companion registers
    ``breast-cancer`` (``evalmetrics.handbook.screening_report``).  This is
    the one way the library reaches a demo: it imports no companion module.

    Returns
    -------
    dict of str to importlib.metadata.EntryPoint

    Examples
    --------
    >>> sorted(report_demos())
    ['breast-cancer']
    """
    from importlib.metadata import entry_points

    return {point.name: point for point in entry_points(group=DEMO_GROUP)}


def demo_report(name, *, command, out, seed=0, folds=5, penalty=1.0, false_positive_cost=1.0,
                false_negative_cost=20.0, resamples=2000, figures_dir=None, progress=True):
    """Run a registered demo and write its report.

    The demo is looked up by ``name`` in :func:`report_demos` and called
    with every argument below as a keyword; it writes its report (with
    :func:`check_targets` first and :func:`write_report` last) and returns
    the text to print.

    Parameters
    ----------
    name : str
        The demo; the package registers "breast-cancer".
    command, out, figures_dir, progress
        As in :func:`csv_report`.
    seed, folds, penalty, false_positive_cost, false_negative_cost, resamples
        The demo's options (for "breast-cancer", those of
        :func:`evalmetrics.handbook.run_screening`).

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
    demos = report_demos()
    if name not in demos:
        known = ", ".join(repr(d) for d in sorted(demos)) or "none is installed"
        raise ReportError(f"unknown demo {name!r}; the demos are {known}")
    demo = demos[name].load()
    return demo(command=command, out=out, figures_dir=figures_dir, progress=progress, seed=seed, folds=folds,
                penalty=penalty, false_positive_cost=false_positive_cost,
                false_negative_cost=false_negative_cost, resamples=resamples)
