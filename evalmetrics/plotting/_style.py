"""One palette and one style for every figure of the handbook.

Four colours from the Okabe-Ito palette, which stays distinguishable for
the common forms of colour blindness and in grey-scale print.
"""

from __future__ import annotations

BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILION = "#D55E00"
GREY = "#7F7F7F"  # reference lines (diagonals, baselines), never data

PALETTE = (BLUE, ORANGE, GREEN, VERMILION)


def pyplot():
    """Import matplotlib lazily: it is an optional dependency (extra ``plot``)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            "plotting needs matplotlib: pip install 'evalmetrics[plot]'"
        ) from error
    return plt


def new_axes(ax=None, *, figsize=(4.2, 4.0)):
    """Return ``(fig, ax)``, creating a figure only when ``ax`` is None."""
    plt = pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    else:
        fig = ax.figure
    return fig, ax


def finish(ax, *, xlabel, ylabel, title=None, legend=True, square=False):
    """Label the axes (always), add a legend if there is something to show."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if square:
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
    ax.grid(True, color="#e6e6e6", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if legend and ax.get_legend_handles_labels()[0]:
        ax.legend(frameon=False)
    return ax
