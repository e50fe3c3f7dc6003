"""The report's figures, drawn by :mod:`evalmetrics.plotting` and saved as PNG bytes.

matplotlib is optional: :func:`report_figures` returns an empty list (and
the report says why) when it is not installed.
"""

from __future__ import annotations

import io

import numpy as np

from .document import Figure

__all__ = ["figure_png", "matplotlib_available", "report_figures"]

#: Resolution of the PNG files; 120 dpi keeps a four-panel figure under ~150 kB.
DPI = 120


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
    from ..plotting._style import VERMILION, pyplot
    from ..plotting.curves import plot_precision_recall_curve, plot_roc_curve

    plt = pyplot()
    data = report.data
    small = data.n_rows <= 60
    fig, (roc_ax, pr_ax) = plt.subplots(1, 2, figsize=(10.0, 4.8), layout="constrained")
    for name, s in zip(data.score_names, data.score_values):
        plot_roc_curve(data.y_true, s, roc_ax, label=name, mark_ties=small)
        plot_precision_recall_curve(data.y_true, s, pr_ax, label=name, sawtooth=small)
    # The operating point of each column on both curves.
    for column in report.columns:
        c = column.counts
        tpr, fpr = c.tp / c.positives, c.fp / c.negatives
        roc_ax.plot([fpr], [tpr], marker="D", color=VERMILION, markersize=6, linestyle="none")
        if c.flagged:
            pr_ax.plot([tpr], [c.tp / c.flagged], marker="D", color=VERMILION, markersize=6, linestyle="none")
    roc_ax.set_title("ROC curves (diamonds: operating points)")
    pr_ax.set_title("Precision-recall curves (dashed: prevalence)")
    return fig


def _reliability(report):
    from ..plotting.calibration import plot_reliability_diagram

    data = report.data
    columns = {c.name: data.score(c.name) for c in report.columns if c.probabilities}
    if not columns:
        return None
    return plot_reliability_diagram(data.y_true, columns, n_bins=report.setup.n_bins,
                                    title=f"Reliability, {report.setup.n_bins} uniform bins",
                                    figsize=(5.6, 5.6))


def _costs(report):
    from ..plotting._style import pyplot
    from ..plotting.curves import plot_cost_curve

    setup, data = report.setup, report.data
    plt = pyplot()
    k = len(report.columns)
    fig, axes = plt.subplots(1, k, figsize=(5.4 * k, 3.8), layout="constrained", squeeze=False)
    for ax, column in zip(axes[0], report.columns):
        s = data.score(column.name)
        marks = tuple(t for t in (column.threshold,) if np.isfinite(t))
        span = (min(0.0, float(s.min())), max(1.0, float(s.max())))
        plot_cost_curve(data.y_true, s, ax, false_positive_cost=setup.false_positive_cost,
                        false_negative_cost=setup.false_negative_cost, mark_thresholds=marks,
                        bayes=column.probabilities, title=column.name, x_range=span)
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
    figures = [Figure("curves.png", "ROC curves (left) with the chance diagonal and precision-recall curves "
                      "(right) with the prevalence as baseline; diamonds mark the operating thresholds.",
                      figure_png(_roc_and_pr(report)))]
    reliability = _reliability(report)
    if reliability is not None:
        figures.append(Figure("reliability.png", "Reliability diagram: mean predicted probability against the "
                              "observed share of positives per bin, with the rows per bin below.",
                              figure_png(reliability)))
    if report.setup.costs:
        figures.append(Figure("costs.png", "Total cost against the threshold for each score column.",
                              figure_png(_costs(report))))
    return figures
