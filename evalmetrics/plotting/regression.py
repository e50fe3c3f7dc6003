"""Figures of the regression chapter: which constant forecast each metric prefers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .. import regression
from .._typing import ArrayLike
from ._style import BLUE, GREEN, GREY, ORANGE, finish, place_legend, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_best_constants"]

_METRICS = (
    ("mse", "MSE", regression.mean_squared_error, BLUE),
    ("mae", "MAE", regression.mean_absolute_error, GREEN),
    ("mape", "MAPE", regression.mean_absolute_percentage_error, ORANGE),
)


def plot_best_constants(y_true: ArrayLike, *, grid: ArrayLike | None = None, axes: Sequence[Axes] | None = None,
                        figsize: tuple[float, float] = (8.8, 3.2)) -> Figure:
    """Each metric of a constant forecast c, as a function of c, minima marked.

    One panel per metric (their scales differ): MSE is a parabola with its
    minimum at the mean; MAE is piecewise linear and flat between the two
    middle targets for an even count (shaded); MAPE, for positive targets,
    bottoms out at the 1/y-weighted median, left of the ordinary median
    (dotted line in every panel).

    Parameters
    ----------
    y_true : array_like
        Targets (positive, for the MAPE panel).
    grid : array_like, optional
        Constants to evaluate (default: 400 points across the targets' range).
    axes : three matplotlib Axes, optional
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import six_households
    >>> fig = plot_best_constants(six_households().y_true)
    >>> len(fig.axes)
    3
    """
    y = np.asarray(y_true, dtype=float)
    if grid is None:
        span = y.max() - y.min()
        grid = np.linspace(y.min() - 0.1 * span, y.max() + 0.1 * span, 400)
    grid = np.asarray(grid, dtype=float)
    if axes is None:
        plt = pyplot()
        fig, axes = plt.subplots(1, 3, figsize=figsize, layout="constrained", sharex=True)
    else:
        fig = axes[0].figure
    median = float(np.median(y))
    for ax, (key, name, metric, colour) in zip(axes, _METRICS):
        values = [metric(y, np.full(len(y), c)) for c in grid]
        best = regression.best_constant(y, metric=key)
        ax.plot(grid, values, color=colour, linewidth=1.6)
        if best.high > best.low:
            ax.axvspan(best.low, best.high, color=colour, alpha=0.15,
                       label=f"minimum {best.loss:.4g} on [{best.low:.4g}, {best.high:.4g}]")
            ax.plot([best.low, best.high], [best.loss, best.loss], color=colour, linewidth=3)
        else:
            ax.plot([best.value], [best.loss], marker="o", color=colour, linestyle="none",
                    label=f"minimum {best.loss:.4g} at {best.value:.4g}")
        ax.axvline(median, color=GREY, linestyle=":", linewidth=1, label=f"median {median:.4g}")
        finish(ax, xlabel="constant forecast c", ylabel=f"{name} of c", title=name, legend=False)
        # Between the arms of the curve, if the median's line leaves room there; else under the panel.
        place_legend(ax, ["upper center", "upper left", "upper right"])
    return fig
