"""Figures of calibration: reliability diagrams (binned, CORP, per class), the Brier waterfall.

Used by the chapters calibration, brier-decomposition and in-practice.
Every function draws on the axes it is given (or a new figure), labels its
axes and returns the figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

import numpy as np

from .. import calibration
from .._typing import ArrayLike, Label
from ..calibration import BinnedBrierDecomposition, BrierDecomposition, CorpReliability
from ._style import BLUE, GREEN, GREY, ORANGE, PALETTE, SMALL_TEXT, VERMILION, finish, mark_small_bars, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_brier_waterfall",
    "plot_classwise_reliability",
    "plot_corp_diagram",
    "plot_reliability_and_corp",
    "plot_reliability_diagram",
]


def _forecasts(y_prob):
    """``{label: probabilities}`` from one array or a mapping of several."""
    if isinstance(y_prob, Mapping):
        return dict(y_prob)
    return {None: y_prob}


def _diagram_axes(axes, figsize):
    """A (diagram, histogram) pair of axes sharing x, histogram a quarter as tall."""
    if axes is not None:
        top, bottom = axes
        return top.figure, top, bottom
    plt = pyplot()
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=figsize, sharex=True, layout="constrained",
        gridspec_kw={"height_ratios": [3, 1]},
    )
    return fig, top, bottom


def _diagonal(ax):
    ax.plot([0, 1], [0, 1], color=GREY, linestyle="--", linewidth=1, label="perfectly calibrated")


def plot_reliability_diagram(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = calibration.N_BINS,
                             strategy: Literal["uniform", "quantile"] = "uniform", pos_label: Label | None = None,
                             axes: tuple[Axes, Axes] | None = None, title: str | None = None,
                             figsize: tuple[float, float] = (4.4, 5.2), legend: bool = True) -> Figure:
    """Binned reliability diagram with the bin counts underneath.

    Each non-empty bin is a point (mean forecast, observed share of
    positives), joined by lines; the diagonal is perfect calibration.  The
    lower panel shows how many rows each bin holds, which says how far to
    trust each point.  Bins as in :func:`evalmetrics.reliability_curve`.

    Parameters
    ----------
    y_true : array_like
        Binary labels.
    y_prob : array_like or mapping of str to array_like
        Probabilities of the positive class; a mapping draws several models
        (labelled by its keys) on the same axes.
    n_bins, strategy, pos_label
        As in :func:`evalmetrics.reliability_curve`.
    axes : pair of matplotlib Axes, optional
        (diagram, histogram); a new figure is created when omitted.
    title : str, optional
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).
    legend : bool, default True
        False: no legend (the caller places one; finding a free place inside
        the diagram draws the figure once more).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_reliability_diagram(units.y_true, units.y_score, n_bins=2)
    >>> len(fig.axes)
    2
    """
    fig, top, bottom = _diagram_axes(axes, figsize)
    _diagonal(top)
    models = _forecasts(y_prob)
    width = 1.0 / n_bins if strategy == "uniform" else 0.02
    offsets = np.linspace(-0.25, 0.25, len(models)) * width if len(models) > 1 else [0.0]
    counts = []
    for (name, probabilities), colour, offset in zip(models.items(), PALETTE, offsets):
        curve = calibration.reliability_curve(
            y_true, probabilities, n_bins=n_bins, strategy=strategy, pos_label=pos_label
        )
        top.plot(curve.mean_predicted, curve.fraction_positive, marker="o", color=colour,
                 linewidth=1.4, label=name)
        counts.append(bottom.bar(curve.mean_predicted + offset, curve.count,
                                 width=width / max(len(models), 1) * 0.9, color=colour, alpha=0.8))
    # A bin of a row or two among hundreds is under a pixel tall: its count is written.
    for bars in counts:
        mark_small_bars(bottom, bars)
    finish(top, xlabel="", ylabel="observed share of positives", title=title, square=False,
           legend=legend)
    top.set_xlim(-0.02, 1.02)
    top.set_ylim(-0.02, 1.02)
    finish(bottom, xlabel="mean predicted probability (bin)", ylabel="rows", legend=False)
    return fig


def plot_corp_diagram(y_true: ArrayLike, y_prob: ArrayLike, *, pos_label: Label | None = None,
                      axes: tuple[Axes, Axes] | None = None, title: str | None = None, colour: str = BLUE,
                      figsize: tuple[float, float] = (4.4, 5.2)) -> Figure:
    """CORP reliability diagram: the isotonic recalibration curve, no bins.

    The step curve is the pool-adjacent-violators estimate of P(Y = 1 | p)
    at every distinct forecast p; the diagonal is perfect calibration.  The
    legend gives the exact decomposition BS = MCB - DSC + UNC, and the lower
    panel is a histogram of the forecasts.

    Parameters
    ----------
    y_true, y_prob, pos_label
        As in :func:`evalmetrics.corp_reliability`.
    axes : pair of matplotlib Axes, optional
        (diagram, histogram).
    title : str, optional
    colour : colour of the curve
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_corp_diagram(units.y_true, units.y_score)
    >>> len(fig.axes)
    2
    """
    corp = calibration.corp_reliability(y_true, y_prob, pos_label=pos_label)
    fig, top, bottom = _diagram_axes(axes, figsize)
    _diagonal(top)
    summary = (f"CORP: BS {corp.brier_score:.4f} = MCB {corp.miscalibration:.4f}"
               f"\n  - DSC {corp.discrimination:.4f} + UNC {corp.uncertainty:.4f}")
    # "post": the recalibrated value holds from one distinct forecast to the next.
    top.step(corp.forecast, corp.calibrated, where="post", color=colour, linewidth=1.8, label=summary)
    top.plot(corp.forecast, corp.calibrated, linestyle="none", marker=".", color=colour, markersize=4)
    finish(top, xlabel="", ylabel="recalibrated probability (PAV)", title=title)
    top.set_xlim(-0.02, 1.02)
    top.set_ylim(-0.02, 1.02)
    bottom.hist(np.repeat(corp.forecast, corp.count), bins=np.linspace(0, 1, 21), color=colour, alpha=0.8)
    finish(bottom, xlabel="predicted probability", ylabel="rows", legend=False)
    return fig


def plot_reliability_and_corp(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = calibration.N_BINS,
                              strategy: Literal["uniform", "quantile"] = "uniform", pos_label: Label | None = None,
                              figsize: tuple[float, float] = (8.6, 5.2)) -> Figure:
    """The binned reliability diagram (left) beside the CORP diagram (right), same data.

    Parameters
    ----------
    y_true, y_prob : array_like of shape (n,)
        Binary labels and probabilities of the positive class.
    n_bins, strategy
        As in :func:`evalmetrics.reliability_curve` (the left diagram).
    pos_label : label, optional
        The positive class.
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> fig = plot_reliability_and_corp(y, s, n_bins=2)
    >>> len(fig.axes)
    4
    """
    plt = pyplot()
    fig, grid = plt.subplots(
        2, 2, figsize=figsize, layout="constrained", sharex=True,
        gridspec_kw={"height_ratios": [3, 1]},
    )
    plot_reliability_diagram(
        y_true, y_prob, n_bins=n_bins, strategy=strategy, pos_label=pos_label,
        axes=(grid[0, 0], grid[1, 0]), title=f"binned, {n_bins} {strategy} bins",
    )
    plot_corp_diagram(y_true, y_prob, pos_label=pos_label, axes=(grid[0, 1], grid[1, 1]),
                      title="CORP (isotonic, no bins)", colour=ORANGE)
    return fig


def _three_terms(decomposition):
    """(uncertainty, resolution-like, reliability-like, score, names) of either decomposition."""
    if hasattr(decomposition, "miscalibration"):
        return (decomposition.uncertainty, decomposition.discrimination,
                decomposition.miscalibration, decomposition.brier_score, ("UNC", "DSC", "MCB"))
    if hasattr(decomposition, "binned_brier_score"):
        score = decomposition.binned_brier_score
    else:
        score = decomposition.brier_score
    return (decomposition.uncertainty, decomposition.resolution,
            decomposition.reliability, score, ("UNC", "RES", "REL"))


def plot_brier_waterfall(decomposition: BrierDecomposition | BinnedBrierDecomposition | CorpReliability, *,
                         ax: Axes | None = None, fmt: str = ".4g",
                         title: str | None = None, figsize: tuple[float, float] = (5.0, 3.6)) -> Figure:
    """Waterfall from the base-rate score to the Brier score.

    Start at the uncertainty (the score of always forecasting the base rate),
    subtract the resolution, add the reliability, arrive at the Brier score.

    Parameters
    ----------
    decomposition : BrierDecomposition, BinnedBrierDecomposition or CorpReliability
        For CORP, discrimination and miscalibration play the two roles.
    ax : matplotlib Axes, optional
    fmt : str, default ".4g"
        Format of the value labels.
    title : str, optional
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> from evalmetrics import brier_decomposition
    >>> parts = brier_decomposition(units.y_true, units.y_score)
    >>> fig = plot_brier_waterfall(parts)
    >>> fig.axes[0].get_xlabel()
    ''
    """
    plt = pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    else:
        fig = ax.figure
    unc, res, rel, score, (n_unc, n_res, n_rel) = _three_terms(decomposition)
    after = unc - res
    names = [f"uncertainty\n{n_unc}", f"- resolution\n{n_res}", f"+ reliability\n{n_rel}", "Brier score\nBS"]
    bottoms = [0.0, after, after, 0.0]
    heights = [unc, res, rel, score]
    colours = [GREY, GREEN, VERMILION, BLUE]
    ax.bar(range(4), heights, bottom=bottoms, color=colours, width=0.6)
    labels = [format(unc, fmt), "-" + format(res, fmt), "+" + format(rel, fmt), format(score, fmt)]
    for i, (b, h, text) in enumerate(zip(bottoms, heights, labels)):
        ax.text(i, b + h, text, ha="center", va="bottom", fontsize=SMALL_TEXT)
    # Connectors carry each running total to the next bar.
    for i, level in enumerate([unc, after, after + rel]):
        ax.plot([i + 0.3, i + 0.7], [level, level], color=GREY, linewidth=0.8)
    ax.set_xticks(range(4), names)
    ax.set_ylim(0, max(unc, score) * 1.18)
    finish(ax, xlabel="", ylabel="Brier score", title=title, legend=False)
    return fig


def plot_classwise_reliability(y_true: ArrayLike, y_prob: ArrayLike, *, n_bins: int = 10, strategy: str = "uniform",
                               labels: ArrayLike | None = None, figsize: tuple[float, float] = (8.8, 3.4)) -> Figure:
    """Reliability diagrams of several classes: one panel per class, then the top label.

    Panel ``k`` bins column ``k`` of the probabilities and plots the share of
    rows of class ``k`` in each bin (the curves behind :func:`evalmetrics.classwise_ece`);
    the last panel bins each row's largest probability, the confidence, and
    plots the share of rows whose predicted class is right (behind
    :func:`evalmetrics.top_label_ece`).  With one model each panel's title
    gives its ECE; several models share one legend below the panels.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Class labels.
    y_prob : array_like of shape (n, K) or mapping of str to such arrays
        Probabilities, one column per class; a mapping draws several models
        (labelled by its keys) on the same panels.
    n_bins, strategy, labels
        As in :func:`evalmetrics.classwise_ece`.
    figsize : (float, float)
        Size in inches of the figure.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> both = np.column_stack([1 - units.y_score, units.y_score])
    >>> fig = plot_classwise_reliability(units.y_true, both, n_bins=4)
    >>> [ax.get_title() for ax in fig.axes]
    ['class 0, ECE 0.1708', 'class 1, ECE 0.1708', 'top label, ECE 0.0792']
    """
    models = _forecasts(y_prob)
    # The public functions validate the input (and give the single model's ECEs).
    eces = {name: (calibration.classwise_ece(y_true, probabilities, n_bins=n_bins, strategy=strategy,
                                             labels=labels, average=None),
                   calibration.top_label_ece(y_true, probabilities, n_bins=n_bins, strategy=strategy,
                                             labels=labels))
            for name, probabilities in models.items()}
    y_true = np.asarray(y_true)
    classes = np.unique(y_true) if labels is None else np.asarray(labels)
    plt = pyplot()
    fig, panels = plt.subplots(1, len(classes) + 1, figsize=figsize, layout="constrained", sharey=True)
    for ax in panels:
        _diagonal(ax)
    for (name, probabilities), colour in zip(models.items(), PALETTE):
        matrix = np.asarray(probabilities, dtype=float)
        predicted = np.argmax(matrix, axis=1)
        events = [(y_true == label, matrix[:, k]) for k, label in enumerate(classes)]
        events.append((classes[predicted] == y_true, matrix[np.arange(len(matrix)), predicted]))
        for ax, (happened, forecast) in zip(panels, events):
            curve = calibration.reliability_curve(happened.astype(int), forecast, n_bins=n_bins, strategy=strategy)
            ax.plot(curve.mean_predicted, curve.fraction_positive, marker="o", markersize=3.5, color=colour,
                    linewidth=1.4, label=name)
    for k, ax in enumerate(panels):
        is_top = k == len(classes)
        title = "top label" if is_top else f"class {classes[k]}"
        if len(models) == 1:
            per_class, top = next(iter(eces.values()))
            title += f", ECE {top if is_top else per_class[k]:.4f}"
        finish(ax, xlabel="confidence" if is_top else f"P(class {classes[k]})",
               ylabel="observed share" if k == 0 else ("accuracy" if is_top else ""), title=title, legend=False)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
    if len(models) > 1:
        handles, names = panels[0].get_legend_handles_labels()
        fig.legend(handles, names, loc="outside lower center", ncol=len(names), frameon=False)
    return fig
