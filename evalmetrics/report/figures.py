"""The report's figures, drawn by :mod:`evalmetrics.plotting` and saved as PNG bytes.

matplotlib is optional: :func:`report_figures` returns an empty list (and
the report says why) when it is not installed.

A column's name is the user's and may be anything: long, in Chinese, with a
``$`` that matplotlib would read as mathematics.  A figure shows it through
:func:`figure_label`: on one line, at most :data:`LABEL_LENGTH` characters
(cut with an ellipsis), ``$`` escaped, and drawn in a font that has its
characters -- matplotlib's default, or one it falls back to among the fonts
installed (Debian's ``fonts-noto-cjk`` for Chinese, Japanese and Korean).
When no font has them, the figure names the column by its number instead,
so nothing is drawn as empty boxes and matplotlib has nothing to warn about.
A name that starts with ``_``, which matplotlib would leave out of a legend,
is shown after the column's number.  The text, the tables and report.json always give the full name.
"""

from __future__ import annotations

import functools
import io
import re
from contextlib import contextmanager

import numpy as np

from .document import Figure

__all__ = ["figure_label", "figure_png", "matplotlib_available", "report_figures"]

#: Resolution of the PNG files; 120 dpi keeps a four-panel figure under ~150 kB.
DPI = 120
#: Characters of a column's name in a figure; a longer one ends with an ellipsis.
LABEL_LENGTH = 28


@functools.cache
def _characters(path):
    """The code points a font file has glyphs for (empty when it cannot be read)."""
    from matplotlib.ft2font import FT2Font

    try:
        return frozenset(FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):
        return frozenset()


@functools.cache
def _fallback(wanted):
    """The family of an installed font with glyphs for every code point of ``wanted``, or None.

    The fonts matplotlib knows first, then the system's; a "last resort"
    font, whose glyphs are boxes, does not count.  A family is taken only
    from an upright font of normal weight: matplotlib looks a family up at
    that weight and warns on stderr when it finds only a bold one (Noto CJK
    comes as one file per weight).
    """
    from matplotlib import font_manager

    def regular(entry):
        return entry.style == "normal" and entry.weight in (400, "normal", "regular", "book")

    known = {entry.fname: entry for entry in font_manager.fontManager.ttflist}
    for path in font_manager.findSystemFonts():
        if path not in known:
            known[path] = None
    for path, entry in known.items():
        if entry is not None and (entry.name.lower().startswith("last resort") or not regular(entry)):
            continue
        if not wanted <= _characters(path):
            continue
        if entry is None:
            try:
                font_manager.fontManager.addfont(path)
            except (OSError, RuntimeError, ValueError):
                continue
            entry = font_manager.fontManager.ttflist[-1]
            if entry.name.lower().startswith("last resort") or not regular(entry):
                continue
        return entry.name
    return None


def _fonts_for(text):
    """The font families that draw ``text`` (matplotlib's first), or None when no installed font can."""
    from matplotlib import font_manager, rcParams

    default = font_manager.findfont(font_manager.FontProperties(family=rcParams["font.family"]))
    wanted = frozenset(ord(c) for c in text) - _characters(default)
    if not wanted:
        return []
    family = _fallback(wanted)
    return None if family is None else [family]


def figure_label(name, number):
    """What a figure shows for the column ``name`` (number ``number``, from 1): see the module's docstring.

    Examples
    --------
    >>> figure_label("model_a", 1), figure_label("x" * 40, 2)
    ('model_a', 'xxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    >>> print(figure_label("cost in $", 3))
    cost in \\$
    >>> figure_label("_private", 4)  # matplotlib would leave it out of the legend
    'column 4: _private'
    """
    shown = re.sub(r"\s+", " ", name).strip() or f"column {number}"
    if shown.startswith("_"):
        # matplotlib leaves a label that starts with "_" out of the legend.
        shown = f"column {number}: {shown}"
    if len(shown) > LABEL_LENGTH:
        shown = shown[:LABEL_LENGTH - 1] + "…"
    if _fonts_for(shown) is None:
        return f"column {number}"
    return shown.replace("$", r"\$")


@contextmanager
def _drawable(names):
    """matplotlib's fonts, with the fallbacks the shown ``names`` need, inside the block."""
    from matplotlib import rc_context, rcParams

    extra = []
    for name in names:
        for family in _fonts_for(name) or []:
            if family not in extra:
                extra.append(family)
    families = list(rcParams["font.family"]) + extra
    with rc_context({"font.family": families}):
        yield


def matplotlib_available():
    """True when matplotlib can be imported.

    Examples
    --------
    >>> isinstance(matplotlib_available(), bool)
    True
    """
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def figure_png(fig):
    """The PNG bytes of a matplotlib figure, which is then closed.

    Examples
    --------
    >>> from evalmetrics.plotting.curves import plot_roc_curve
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> figure_png(plot_roc_curve(units.y_true, units.y_score))[:4]
    b'\\x89PNG'
    """
    from ..plotting._style import pyplot

    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=DPI)
    finally:
        pyplot().close(fig)
    return buffer.getvalue()


def _roc_and_pr(report):
    from ..plotting._style import VERMILION, legend_below, pyplot
    from ..plotting.curves import plot_precision_recall_curve, plot_roc_curve

    plt = pyplot()
    data = report.data
    small = data.n_rows <= 60
    fig, (roc_ax, pr_ax) = plt.subplots(1, 2, figsize=(10.0, 4.8), layout="constrained")
    for number, (name, s) in enumerate(zip(data.score_names, data.score_values), start=1):
        label = figure_label(name, number)
        plot_roc_curve(data.y_true, s, roc_ax, label=label, mark_ties=small, legend=False)
        plot_precision_recall_curve(data.y_true, s, pr_ax, label=label, sawtooth=small, legend=False)
    # The operating point of each column on both curves.
    for column in report.columns:
        c = column.counts
        tpr, fpr = c.tp / c.positives, c.fp / c.negatives
        roc_ax.plot([fpr], [tpr], marker="D", color=VERMILION, markersize=6, linestyle="none")
        if c.flagged:
            pr_ax.plot([tpr], [c.tp / c.flagged], marker="D", color=VERMILION, markersize=6, linestyle="none")
    roc_ax.set_title("ROC curves (diamonds: operating points)")
    pr_ax.set_title("Precision-recall curves (dashed: prevalence)")
    # Under the axes whatever the columns are called: a legend inside moves below when a
    # long name would cover a curve, and the two panels of one report would then differ
    # (and finding a free place inside draws the figure once more: 41 MiB at 5e6 rows).
    for ax in (roc_ax, pr_ax):
        legend_below(ax)
    return fig


def _reliability(report):
    from ..plotting._style import legend_below
    from ..plotting.calibration import plot_reliability_diagram

    data = report.data
    columns = {figure_label(c.name, k): data.score(c.name)
               for k, c in enumerate(report.columns, start=1) if c.probabilities}
    if not columns:
        return None
    fig = plot_reliability_diagram(data.y_true, columns, n_bins=report.setup.n_bins,
                                   title=f"Reliability, {report.setup.n_bins} uniform bins",
                                   figsize=(5.6, 5.6), legend=False)
    # Under the histogram, as the curves' legends are under theirs (no extra drawing).
    top, bottom = fig.axes[:2]
    handles, names = top.get_legend_handles_labels()
    legend_below(bottom, handles=handles, labels=names)
    return fig


def _costs(report):
    from ..plotting._style import legend_below, pyplot
    from ..plotting.curves import plot_cost_curve

    setup, data = report.setup, report.data
    plt = pyplot()
    k = len(report.columns)
    fig, axes = plt.subplots(1, k, figsize=(5.4 * k, 3.8), layout="constrained", squeeze=False)
    for number, (ax, column) in enumerate(zip(axes[0], report.columns), start=1):
        s = data.score(column.name)
        marks = tuple(t for t in (column.threshold,) if np.isfinite(t))
        span = (min(0.0, float(s.min())), max(1.0, float(s.max())))
        plot_cost_curve(data.y_true, s, ax, false_positive_cost=setup.false_positive_cost,
                        false_negative_cost=setup.false_negative_cost, mark_thresholds=marks,
                        bayes=column.probabilities, title=figure_label(column.name, number), x_range=span,
                        legend=False)
        legend_below(ax)  # one column: two columns of one panel ran into the next
    return fig


def report_figures(report):
    """The figures of a CSV report: ROC and PR curves, reliability, costs.

    Parameters
    ----------
    report : Report

    Returns
    -------
    list of Figure
        Empty when matplotlib is not installed.

    Examples
    --------
    >>> from evalmetrics.report import build_report, dataset_from_arrays
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> report = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=50)
    >>> [figure.name for figure in report_figures(report)]
    ['curves.png', 'reliability.png']
    """
    if not matplotlib_available():
        return []
    names = report.data.score_names
    labels = [figure_label(name, k) for k, name in enumerate(names, start=1)]
    replaced = [f"column {k} is {name!r}" for k, (name, label) in enumerate(zip(names, labels), start=1)
                if label == f"column {k}" and name != label]
    # Said in the caption, in the text: the page shows the name that the figure could not.
    note = f" No installed font has the characters of some names: {'; '.join(replaced)}." if replaced else ""
    with _drawable(labels):
        figures = [Figure("curves.png", "ROC curves (left) with the chance diagonal and precision-recall curves "
                          "(right) with the prevalence as baseline; diamonds mark the operating thresholds."
                          + note, figure_png(_roc_and_pr(report)))]
        reliability = _reliability(report)
        if reliability is not None:
            figures.append(Figure("reliability.png", "Reliability diagram: mean predicted probability against "
                                  "the observed share of positives per bin, with the rows per bin below." + note,
                                  figure_png(reliability)))
        if report.setup.costs:
            figures.append(Figure("costs.png", "Total cost against the threshold for each score column." + note,
                                  figure_png(_costs(report))))
    return figures
