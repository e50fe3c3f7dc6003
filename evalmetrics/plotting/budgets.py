"""Figures of budgets: the cumulative gain and the lift against the share of rows examined.

Used by the chapter costs.  Every function draws on ``ax`` (or a new figure),
labels its axes and returns the figure; a second call on the same axes adds
a curve in the next colour of the palette.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .._typing import ArrayLike, Label
from ._style import GREY, PALETTE, SMALL_TEXT, finish, new_axes, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["plot_gain_and_lift", "plot_gain_curve", "plot_lift_curve"]

_GAIN_GID = "evalmetrics-gain-curve"
_LIFT_GID = "evalmetrics-lift-curve"


def _next_colour(ax, gid, color):
    if color is not None:
        return color
    return PALETTE[sum(1 for line in ax.get_lines() if line.get_gid() == gid) % len(PALETTE)]


def _has(ax, gid):
    return any(line.get_gid() == gid for line in ax.get_lines())


def _draw(ax, share, values, *, gid, color, label, budget, max_share, ylabel, title, legend):
    """One curve against the share examined, in the next colour, the budget marked once."""
    ax.plot(share, values, color=_next_colour(ax, gid, color), linewidth=1.8, gid=gid, label=label,
            marker="o" if len(values) <= 60 else None, markersize=3.5)
    if budget is not None and not _has(ax, "evalmetrics-budget"):
        ax.axvline(budget, color=GREY, linestyle="-.", linewidth=1.0, gid="evalmetrics-budget",
                   label=f"budget {100 * budget:g} %")
    ax.set_xlim(0, max_share)
    finish(ax, xlabel="Share of rows examined", ylabel=ylabel, title=title, legend=False)
    ax.legend(frameon=False, fontsize=SMALL_TEXT, **legend)


def plot_gain_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *,
                    pos_label: Label | None = None, sample_weight: ArrayLike | None = None,
                    label: str | None = None, color: str | None = None, budget: float | None = None,
                    max_share: float = 1.0, title: str | None = None) -> Figure:
    """The cumulative gain: share of positives found against share of rows examined.

    The dotted diagonal is a random ranking; the grey dashes are a perfect
    one, which finds every positive once the share examined reaches the
    prevalence; a budget is a grey dash-dotted vertical line.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
        Draw here (another curve on the same axes gets the next colour).
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.budgets.gain_curve`.
    label : str, optional
        Legend entry.
    color : colour, optional
    budget : float, optional
        A share of rows to mark with a vertical line.
    max_share : float, default 1
        The right end of the horizontal axis (zoom in on small budgets).
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_gain_curve(units.y_true, units.y_score, budget=0.25)
    >>> fig.axes[0].get_ylabel()
    'Share of positives found (gain)'
    """
    from ..budgets import gain_curve
    from ..curves import _ratio_table

    fig, ax = new_axes(ax)
    curve = gain_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if not _has(ax, "evalmetrics-random"):
        table = _ratio_table(y_true, y_score, pos_label, sample_weight)
        prevalence = table.positives / (table.positives + table.negatives)
        ax.plot([0, 1], [0, 1], color=GREY, linestyle=":", linewidth=1.0, gid="evalmetrics-random",
                label="random ranking")
        ax.plot([0, prevalence, 1], [0, 1, 1], color=GREY, linestyle="--", linewidth=0.8,
                label="perfect ranking")
    ax.set_ylim(-0.02, 1.02)
    _draw(ax, curve.share_flagged, curve.gain, gid=_GAIN_GID, color=color, label=label, budget=budget,
          max_share=max_share, ylabel="Share of positives found (gain)", title=title,
          # Lower right, above the chance diagonal's end when zoomed in; the curves run above it.
          legend=dict(loc="lower right", bbox_to_anchor=(1.0, 0.12)))
    return fig


def plot_lift_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *,
                    pos_label: Label | None = None, sample_weight: ArrayLike | None = None,
                    label: str | None = None, color: str | None = None, budget: float | None = None,
                    max_share: float = 1.0, title: str | None = None) -> Figure:
    """The lift: precision over prevalence against share of rows examined.

    The dotted line at 1 is a random ranking (and every ranking once
    everything is examined).

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.budgets.lift_curve`.
    label : str, optional
    color : colour, optional
    budget : float, optional
        A share of rows to mark with a vertical line.
    max_share : float, default 1
        The right end of the horizontal axis.
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_lift_curve(units.y_true, units.y_score)
    >>> fig.axes[0].get_ylabel()
    'Lift (precision / prevalence)'
    """
    from ..budgets import lift_curve

    fig, ax = new_axes(ax)
    curve = lift_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if not _has(ax, "evalmetrics-lift-one"):
        ax.axhline(1.0, color=GREY, linestyle=":", linewidth=1.0, gid="evalmetrics-lift-one",
                   label="random ranking")
    _draw(ax, curve.share_flagged, curve.lift, gid=_LIFT_GID, color=color, label=label, budget=budget,
          max_share=max_share, ylabel="Lift (precision / prevalence)", title=title,
          legend=dict(loc="upper right"))  # the lift falls from the left
    # After drawing: a fixed limit set before would stop the axis from growing to the curves.
    ax.set_ylim(bottom=0, top=1.05 * max(line.get_ydata().max() for line in ax.get_lines()
                                          if line.get_gid() == _LIFT_GID))
    return fig


def plot_gain_and_lift(cases: Mapping[str, tuple[ArrayLike, ArrayLike]], *, budget: float | None = None,
                       max_share: float = 1.0, figsize: tuple[float, float] = (8.8, 4.2)) -> Figure:
    """Gain curves (left) and lift curves (right) of the same data sets.

    Parameters
    ----------
    cases : dict of str to (y_true, y_score)
        One curve per entry in each panel, in the palette's order; labels
        {0, 1}, {-1, 1} or booleans.
    budget : float, optional
        A share of rows to mark in both panels.
    max_share : float, default 1
        The right end of both horizontal axes.
    figsize : (float, float)

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> cases = {"twelve units": (units.y_true, units.y_score)}
    >>> fig = plot_gain_and_lift(cases)
    >>> len(fig.axes)
    2
    """
    plt = pyplot()
    fig, (gain_ax, lift_ax) = plt.subplots(1, 2, figsize=figsize, layout="constrained")
    for name, (y_true, y_score) in cases.items():
        plot_gain_curve(y_true, y_score, gain_ax, label=name, budget=budget, max_share=max_share)
        plot_lift_curve(y_true, y_score, lift_ax, label=name, budget=budget, max_share=max_share)
    return fig
