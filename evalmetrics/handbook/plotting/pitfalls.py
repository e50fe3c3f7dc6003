"""Figures of the chapter "Pitfalls": tie staircases and two areas in precision-recall space.

The bootstrap distributions of the resampling pitfall are drawn by
:func:`evalmetrics.plotting.validation.plot_bootstrap_distributions`.
"""

from __future__ import annotations

import numpy as np

from ...plotting import (
    BLUE,
    GREEN,
    GREY,
    MAX_WIDTH_IN,
    ORANGE,
    SMALL_TEXT,
    finish,
    new_axes,
    place_legend,
    pyplot,
)

__all__ = ["plot_pr_areas", "plot_tie_staircases"]


def plot_tie_staircases(y_true, y_score, ax=None, *, pos_label=None, title=None):
    """ROC curves that step through tied rows one at a time, against the grouped curve.

    Draws the row-by-row curve with tied negatives first (orange) and with
    tied positives first (green), and the correct curve, which crosses each
    tied group diagonally (blue).  The legend gives each area.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
    pos_label : label, optional
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_tie_staircases(units.y_true, units.y_score)
    >>> fig.axes[0].get_xlabel()
    'False positive rate'
    """
    from ...curves import roc_auc, roc_curve
    from ..pitfalls import row_by_row_roc

    fig, ax = new_axes(ax)
    ax.plot([0, 1], [0, 1], color=GREY, linestyle=":", linewidth=1.0)
    # Thick lines below thin ones, so the shared segments of the three curves stay visible.
    for first, colour, name, width in ((False, ORANGE, "negatives first", 5.0),
                                       (True, GREEN, "positives first", 3.0)):
        curve = row_by_row_roc(y_true, y_score, positives_first=first, pos_label=pos_label)
        area = np.trapezoid(curve.true_positive_rate, curve.false_positive_rate)
        ax.plot(curve.false_positive_rate, curve.true_positive_rate, color=colour, linewidth=width,
                alpha=0.8, label=f"row by row, {name}: {area:.6g}")
    curve = roc_curve(y_true, y_score, pos_label=pos_label)
    ax.plot(curve.false_positive_rate, curve.true_positive_rate, color=BLUE, linewidth=1.6,
            marker="o", markersize=3.5,
            label=f"ties grouped: {roc_auc(y_true, y_score, pos_label=pos_label):.6g}")
    finish(ax, xlabel="False positive rate", ylabel="True positive rate", title=title, square=True,
           legend=False)
    place_legend(ax, ["lower right"])
    return fig


def _pr_panel(ax, y_true, y_score, title, pos_label):
    from ...curves import average_precision, precision_recall_curve
    from ..pitfalls import trapezoidal_pr_area

    curve = precision_recall_curve(y_true, y_score, pos_label=pos_label)
    recall = np.r_[0.0, curve.recall]
    # Average precision: each precision holds over the recall it adds (a step function).
    ax.stairs(curve.precision, recall, fill=True, color=BLUE, alpha=0.35,
              label=f"steps (AP): {average_precision(y_true, y_score, pos_label=pos_label):.4f}")
    ax.stairs(curve.precision, recall, color=BLUE, linewidth=1.2)
    # The trapezoid rule joins scikit-learn's start (0, 1) and the points by straight lines.
    precision = np.r_[1.0, curve.precision]
    ax.fill_between(recall, precision, color=ORANGE, alpha=0.15, linewidth=0)
    ax.plot(recall, precision, color=ORANGE, linewidth=1.6, linestyle="--",
            label=f"trapezoids: {trapezoidal_pr_area(y_true, y_score, pos_label=pos_label):.4f}")
    few = len(recall) <= 30
    ax.plot(recall[1:], precision[1:], linestyle="none", marker="o", markersize=4 if few else 1.5,
            color=GREY, label="operating points")
    finish(ax, xlabel="Recall", ylabel="Precision", title=title, legend=False)
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.05)
    ax.legend(frameon=False, loc="upper right", fontsize=SMALL_TEXT)


def plot_pr_areas(cases, *, pos_label=None, ncols=2):
    """Average precision (steps) against the trapezoidal area, one panel per case.

    Parameters
    ----------
    cases : mapping of str to (y_true, y_score)
        Panel title -> labels and scores (or 0/1 predictions).
    pos_label : label, optional
    ncols : int, default 2

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_pr_areas({'twelve units': (units.y_true, units.y_score)})
    >>> len(fig.axes)
    2
    """
    plt = pyplot()
    items = list(cases.items())
    if not items:
        raise ValueError("cases is empty")
    nrows = int(np.ceil(len(items) / ncols))
    width = min(4.6 * ncols, MAX_WIDTH_IN)  # wider, its text would be shrunk below legible
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 3.8 * nrows), layout="constrained",
                             squeeze=False)
    for ax, (title, (y_true, y_score)) in zip(axes.flat, items):
        _pr_panel(ax, y_true, y_score, title, pos_label)
    for ax in list(axes.flat)[len(items):]:
        ax.set_visible(False)
    return fig
