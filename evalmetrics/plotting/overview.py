"""The map of the handbook: what a model outputs and which questions each output answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._style import BLUE, GREEN, GREY, ORANGE, SMALL_TEXT, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_chapter_map"]


def _box(ax, x, y, text, colour, *, width=0.27, height=0.12, bold=False):
    from matplotlib.patches import FancyBboxPatch

    patch = FancyBboxPatch(
        (x - width / 2, y - height / 2), width, height,
        boxstyle="round,pad=0.012,rounding_size=0.02",
        facecolor="white", edgecolor=colour, linewidth=1.8,
    )
    ax.add_patch(patch)
    ax.text(x, y, text, ha="center", va="center", fontsize=SMALL_TEXT,
            fontweight="bold" if bold else "normal", wrap=True)


def _arrow(ax, start, end, colour, *, style="-|>", dashed=False):
    ax.annotate(
        "", xy=end, xytext=start,
        arrowprops=dict(arrowstyle=style, color=colour, linewidth=1.5,
                        linestyle="--" if dashed else "-", shrinkA=2, shrinkB=2),
    )


def plot_chapter_map(ax: Axes | None = None) -> Figure:
    """Draw the chapter map: scores, the three strengths of output, costs, intervals.

    The three branches are decisions at one threshold, rankings and
    probabilities; orange arrows show where costs and calibration set the
    threshold; the green node is the interval that every reported number needs.

    Parameters
    ----------
    ax : matplotlib Axes, optional
        Draw here; a new figure is created when omitted.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = plot_chapter_map()
    >>> len(fig.axes)
    1
    """
    plt = pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=(7.5, 4.6), layout="constrained")
    else:
        fig = ax.figure
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.axis("off")

    _box(ax, 0.5, 0.92, "Scores on unseen data\n(held-out or out-of-fold)", BLUE, width=0.36, bold=True)
    branches = [
        (0.17, "Decisions at one threshold\nconfusion matrix, rates,\nF-scores, MCC, kappa"),
        (0.5, "Rankings\nROC curve and AUC,\nprecision-recall and AP"),
        (0.83, "Probabilities\ncalibration, Brier score\nand its decomposition"),
    ]
    for x, text in branches:
        _box(ax, x, 0.64, text, BLUE, width=0.3, height=0.17)
        _arrow(ax, (0.5, 0.86), (x, 0.73), GREY)
    _box(ax, 0.5, 0.36, "Costs of the two errors\nchoose the threshold", ORANGE, width=0.3, height=0.13)
    # Rankings feed the cost search; costs set the threshold of the decisions.
    _arrow(ax, (0.5, 0.555), (0.5, 0.425), GREY)
    _arrow(ax, (0.355, 0.38), (0.22, 0.555), ORANGE)
    _arrow(ax, (0.79, 0.555), (0.655, 0.40), ORANGE, dashed=True)
    ax.text(0.86, 0.42, "calibrated:\nBayes threshold", fontsize=SMALL_TEXT, color=ORANGE, ha="left")
    _box(ax, 0.5, 0.09, "An interval around every number\n(Wilson, bootstrap, paired differences)",
         GREEN, width=0.46, height=0.12, bold=True)
    for x in (0.17, 0.83):
        _arrow(ax, (x, 0.555), (0.5 + (x - 0.5) * 0.5, 0.155), GREEN)
    _arrow(ax, (0.5, 0.295), (0.5, 0.155), GREEN)
    return fig
