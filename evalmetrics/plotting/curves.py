"""Figures of the chapters roc-auc, precision-recall and costs.

Every function draws on ``ax`` (or a new figure), labels its axes and
returns the figure.  Calling :func:`plot_roc_curve` or
:func:`plot_precision_recall_curve` again on the same axes adds a curve in
the next colour of the palette; the reference lines (chance diagonal,
prevalence baseline) are drawn once per axes.  A legend sits inside its axes
where it hides no line, marker or text, else under the axes
(``_style.place_legend``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._typing import ArrayLike, Label
from ._style import GREY, ORANGE, PALETTE, VERMILION, finish, legend_below, new_axes, place_legend, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_cost_curve",
    "plot_det_curve",
    "plot_iso_cost_lines",
    "plot_precision_recall_curve",
    "plot_roc_and_precision_recall",
    "plot_roc_curve",
]

_ROC_GID = "evalmetrics-roc-curve"
_PR_GID = "evalmetrics-pr-curve"


def _next_colour(ax, gid, color):
    if color is not None:
        return color
    drawn = sum(1 for line in ax.get_lines() if line.get_gid() == gid)
    return PALETTE[drawn % len(PALETTE)]


def _has(ax, gid):
    return any(artist.get_gid() == gid for artist in ax.get_lines())


def plot_roc_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *, pos_label: Label | None = None,
                   sample_weight: ArrayLike | None = None, label: str | None = None, color: str | None = None,
                   shade: bool = False, mark_ties: bool = True, binormal: tuple[float, float] | None = None,
                   title: str | None = None, legend: bool = True) -> Figure:
    """The ROC staircase, one point per distinct score, with the chance diagonal.

    A tied group holding both classes moves the curve diagonally in one
    step; with ``mark_ties`` those steps are drawn again, thick and
    translucent, so they stand out from the horizontal and vertical steps.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
        Draw here (another curve on the same axes gets the next colour).
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.curves.roc_curve`.
    label : str, optional
        Legend entry; the AUC is appended.
    color : colour, optional
        Default: the next colour of the palette.
    shade : bool, default False
        Fill the area under the curve (the AUC).
    mark_ties : bool, default True
        Emphasize the diagonal steps of tied groups.
    binormal : (mean, sd), optional
        Also draw the exact ROC curve of binormal scores, negatives N(0, 1)
        and positives N(mean, sd^2), dotted in the same colour.
    title : str, optional
    legend : bool, default True
        False: no legend (the caller places one for all its curves; placing
        it where it hides no data draws the figure once more).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_roc_curve(units.y_true, units.y_score, shade=True)
    >>> fig.axes[0].get_xlabel()
    'False positive rate'
    """
    from ..curves import roc_auc, roc_curve

    fig, ax = new_axes(ax)
    if not _has(ax, "evalmetrics-chance"):
        ax.plot([0, 1], [0, 1], color=GREY, linestyle=":", linewidth=1.0, gid="evalmetrics-chance",
                label="chance")
    colour = _next_colour(ax, _ROC_GID, color)
    curve = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    area = roc_auc(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    fpr, tpr = curve.false_positive_rate, curve.true_positive_rate
    text = f"AUC {area:.4f}" if label is None else f"{label} (AUC {area:.4f})"
    # Dots mark the operating points while they can still be told apart.
    ax.plot(fpr, tpr, color=colour, linewidth=1.8, marker="o" if len(fpr) <= 60 else None,
            markersize=3.5, gid=_ROC_GID, label=text)
    if shade:
        ax.fill_between(fpr, tpr, color=colour, alpha=0.15, linewidth=0)
    if mark_ties:
        diagonal = np.flatnonzero((np.diff(fpr) > 0) & (np.diff(tpr) > 0))
        for i in diagonal:
            ax.plot(fpr[i:i + 2], tpr[i:i + 2], color=colour, linewidth=7, alpha=0.3,
                    solid_capstyle="round")
    if binormal is not None:
        from ..datasets import binormal_curve

        mean, sd = binormal
        exact = binormal_curve(mean=mean, sd=sd)
        ax.plot(exact.false_positive_rate, exact.true_positive_rate, color=colour, linestyle="--",
                linewidth=1.0, label=f"exact binormal, mean {mean:g}, sd {sd:g}")
    # (finish places no legend: placing one draws the figure, and one is placed below)
    finish(ax, xlabel="False positive rate", ylabel="True positive rate", title=title, square=True,
           legend=False)
    # At the lower right, unless the diagonal or a curve runs through it there.
    if legend:
        place_legend(ax, ["lower right"])
    return fig


def plot_precision_recall_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *,
                                pos_label: Label | None = None, sample_weight: ArrayLike | None = None,
                                label: str | None = None, color: str | None = None, sawtooth: bool = True,
                                baseline: bool = True, title: str | None = None,
                                join: str = "straight", legend: bool = True) -> Figure:
    """Average precision as steps, the sawtooth of all operating points, the prevalence.

    The steps rise to the precision reached at each threshold where recall
    grows; their area is the average precision.  The dots are every
    operating point (the sawtooth): only those where recall rises enter AP,
    the others are its teeth.  The dashed line is the prevalence, the precision of flagging at
    random (not the AP of a random ranking, which is higher on small data).

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.curves.precision_recall_curve`.
    label : str, optional
        Legend entry; the AP is appended.
    color : colour, optional
    sawtooth : bool, default True
        Draw every operating point.
    baseline : bool, default True
        Draw the prevalence.
    title : str, optional
    join : {"straight", "steps"}, default "straight"
        How the sawtooth joins consecutive operating points: straight lines
        (a guide for the eye, not the precisions that flagging part of the
        examples between two thresholds achieves), or steps in the
        convention of the average precision, a vertical move at the recall
        already reached and a horizontal one at the new precision, so that
        each false alarm hangs below the steps as a vertical tooth.
    legend : bool, default True
        False: no legend (the caller places one).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> y, s = units.y_true, units.y_score
    >>> fig = plot_precision_recall_curve(y, s, label='twelve units',
    ...                                   join='steps')
    >>> fig.axes[0].get_xlabel()
    'Recall'
    """
    from ..curves import _average_precision, threshold_table

    if join not in ("straight", "steps"):
        raise ValueError(f'join must be "straight" or "steps", got {join!r}')
    fig, ax = new_axes(ax)
    colour = _next_colour(ax, _PR_GID, color)
    table = threshold_table(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    recall, precision = table.recall, table.precision
    ap = _average_precision(table)
    rises = np.flatnonzero(np.diff(np.r_[0.0, recall]) > 0)
    step_recall = np.r_[0.0, recall[rises]]
    step_precision = np.r_[precision[rises][:1], precision[rises]]
    text = f"AP {ap:.4f}" if label is None else f"{label} (AP {ap:.4f})"
    ax.step(step_recall, step_precision, where="pre", color=colour, linewidth=1.8, gid=_PR_GID,
            label=text)
    if sawtooth:
        ax.plot(recall, precision, color=colour, linewidth=0.8, alpha=0.5,
                drawstyle="default" if join == "straight" else "steps-pre",
                marker="o" if len(recall) <= 60 else None, markersize=3.5, markerfacecolor="white",
                label="every threshold")
    prevalence = table.positives / (table.positives + table.negatives)
    if baseline and not _has(ax, "evalmetrics-prevalence"):
        ax.axhline(prevalence, color=GREY, linestyle="--", linewidth=1.0, gid="evalmetrics-prevalence",
                   label=f"prevalence {prevalence:.4f}")
    finish(ax, xlabel="Recall", ylabel="Precision", title=title, square=True, legend=False)
    if legend:
        place_legend(ax, ["lower left", "lower right", "upper right"])
    return fig


def plot_roc_and_precision_recall(cases: Mapping[str, tuple[ArrayLike, ArrayLike]], *, sawtooth: bool | None = None,
                                  mark_ties: bool | None = None, figsize: tuple[float, float] = (8.8, 5.1)) -> Figure:
    """ROC curves (left) and precision-recall curves (right) of the same data sets.

    The precision-recall legend sits under its axes, where it hides no curve.

    Parameters
    ----------
    cases : dict of str to (y_true, y_score)
        One curve per entry in each panel, in the palette's order; labels
        {0, 1}, {-1, 1} or booleans.  With several cases each gets its
        prevalence as a dotted baseline in its colour.
    sawtooth, mark_ties : bool, optional
        Passed on to the two plotting functions; by default both are on for
        small data (at most 60 rows per case) and off otherwise.
    figsize : (float, float)

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> curves = {'twelve units': (units.y_true, units.y_score)}
    >>> fig = plot_roc_and_precision_recall(curves)
    >>> len(fig.axes)
    2
    """
    plt = pyplot()
    fig, (roc_ax, pr_ax) = plt.subplots(1, 2, figsize=figsize, layout="constrained")
    for name, (y_true, y_score) in cases.items():
        small = len(y_score) <= 60
        plot_roc_curve(y_true, y_score, roc_ax, label=name,
                       mark_ties=small if mark_ties is None else mark_ties)
        plot_precision_recall_curve(y_true, y_score, pr_ax, label=name,
                                    sawtooth=small if sawtooth is None else sawtooth,
                                    baseline=len(cases) == 1)
    if len(cases) > 1:  # one baseline per case, in the case's colour
        for line, (y_true, _) in zip([drawn for drawn in pr_ax.get_lines() if drawn.get_gid() == _PR_GID],
                                     cases.values()):
            pr_ax.axhline(_prevalence(y_true, None, None), color=line.get_color(), linestyle=":",
                          linewidth=1.0)
    # Under the recall axis: the curves of a few cases leave no corner free.
    legend_below(pr_ax)
    return fig


def plot_cost_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *, false_positive_cost: float,
                    false_negative_cost: float, pos_label: Label | None = None, sample_weight: ArrayLike | None = None,
                    mark_thresholds: Sequence[float] = (), bayes: bool = True, title: str | None = None,
                    x_range: tuple[float, float] = (0.0, 1.0), legend: bool = True) -> Figure:
    """Total cost against the threshold: a staircase that changes only at the scores.

    The cost at threshold t is that of flagging every score at least t, so
    it is constant between two neighbouring scores.  The cheapest threshold
    is marked in vermilion; ``bayes`` adds the threshold
    ``cFP / (cFP + cFN)`` that calibrated probabilities would justify.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
    false_positive_cost, false_negative_cost : float
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.costs.cost_curve`.
    mark_thresholds : sequence of float
        Further thresholds to mark with their cost (the default 0.5, say).
    bayes : bool, default True
        Draw the Bayes threshold as a vertical line.
    title : str, optional
    x_range : (float, float), default (0, 1)
        Horizontal extent, widened if needed to show every score.
    legend : bool, default True
        False: no legend (the caller places one).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> costs = dict(false_positive_cost=1, false_negative_cost=10)
    >>> fig = plot_cost_curve(units.y_true, units.y_score, **costs)
    >>> fig.axes[0].get_xlabel()
    'Threshold (flag scores at least this)'
    """
    from ..costs import bayes_threshold, best_threshold, cost_at_threshold, cost_curve

    costs = dict(false_positive_cost=false_positive_cost, false_negative_cost=false_negative_cost,
                 pos_label=pos_label, sample_weight=sample_weight)
    fig, ax = new_axes(ax, figsize=(5.6, 3.6))
    curve = cost_curve(y_true, y_score, **costs)
    scores = curve.thresholds[:0:-1]  # ascending
    left = min(x_range[0], scores[0] - 0.05 * (scores[-1] - scores[0] or 1.0))
    right = max(x_range[1], scores[-1] + 0.05 * (scores[-1] - scores[0] or 1.0))
    # With where="pre" the cost of score v_j covers (v_{j-1}, v_j]; above the
    # highest score nothing is flagged (the cost at +inf).
    x = np.r_[left, scores, right]
    y = np.r_[curve.total_cost[-1], curve.total_cost[:0:-1], curve.total_cost[0]]
    ax.step(x, y, where="pre", color=PALETTE[0], linewidth=1.8, label="total cost")
    ax.plot(scores, curve.total_cost[:0:-1], linestyle="none", marker="o", markersize=3.5,
            color=PALETTE[0])
    best = best_threshold(y_true, y_score, **costs)
    ax.plot([best.threshold], [best.cost], marker="o", markersize=9, color=VERMILION, linestyle="none",
            label=f"cheapest: {best.threshold:g}, cost {best.cost:g}")
    for threshold in mark_thresholds:
        cost = cost_at_threshold(y_true, y_score, threshold, **costs)
        ax.plot([threshold], [cost], marker="s", markersize=7, color=ORANGE, linestyle="none",
                label=f"threshold {threshold:g}, cost {cost:g}")
    if bayes:
        threshold = bayes_threshold(false_positive_cost=false_positive_cost,
                                    false_negative_cost=false_negative_cost)
        cost = cost_at_threshold(y_true, y_score, threshold, **costs)
        ax.axvline(threshold, color=GREY, linestyle="--", linewidth=1.0,
                   label=f"Bayes threshold {threshold:.4f}, cost {cost:g}")
    ax.set_xlim(left, right)
    ax.set_ylim(bottom=0)
    finish(ax, xlabel="Threshold (flag scores at least this)", ylabel="Total cost", title=title,
           legend=False)
    # The Bayes threshold's line and the staircase leave no corner free for every data set.
    if legend:
        place_legend(ax, ["upper left", "upper center", "lower right", "center left"], below={"ncol": 2})
    return fig


def plot_iso_cost_lines(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *, false_positive_cost: float,
                        false_negative_cost: float, pos_label: Label | None = None,
                        sample_weight: ArrayLike | None = None, n_lines: int = 3, title: str | None = None) -> Figure:
    """The ROC curve with lines of equal expected cost, the best one touching it.

    In ROC space the expected cost is constant along lines of slope
    ``m = cFP (1 - pi) / (cFN pi)``.  The solid line is the highest that
    still touches the curve, at the cheapest operating point; the dotted
    parallels below it are worse operating costs.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
        Draw on an existing ROC plot, or on a new one with the curve.
    false_positive_cost, false_negative_cost : float
    pos_label, sample_weight : optional
    n_lines : int, default 3
        Number of dotted parallels.
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> costs = dict(false_positive_cost=1, false_negative_cost=10)
    >>> fig = plot_iso_cost_lines(units.y_true, units.y_score, **costs)
    >>> fig.axes[0].get_xlabel()
    'False positive rate'
    """
    from ..costs import iso_cost_slope
    from ..curves import roc_curve

    curve = roc_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    if ax is None or not _has(ax, _ROC_GID):
        fig = plot_roc_curve(y_true, y_score, ax, pos_label=pos_label, sample_weight=sample_weight)
        ax = fig.axes[0] if ax is None else ax
    fig = ax.figure
    fpr, tpr = curve.false_positive_rate, curve.true_positive_rate
    prevalence = _prevalence(y_true, pos_label, sample_weight)
    slope = iso_cost_slope(prevalence, false_positive_cost=false_positive_cost,
                           false_negative_cost=false_negative_cost)
    intercepts = tpr - slope * fpr
    best = int(np.argmax(intercepts))
    grid = np.linspace(0, 1, 2)
    top = intercepts[best]
    ax.plot(grid, top + slope * grid, color=VERMILION, linewidth=1.2,
            label=f"iso-cost line, slope {slope:.4g}")
    for k in range(1, n_lines + 1):
        ax.plot(grid, top - 0.25 * k + slope * grid, color=VERMILION, linewidth=0.8, linestyle=":")
    ax.plot([fpr[best]], [tpr[best]], marker="o", markersize=9, color=VERMILION, linestyle="none",
            label=f"touches at ({fpr[best]:g}, {tpr[best]:g}), threshold {curve.thresholds[best]:g}")
    finish(ax, xlabel="False positive rate", ylabel="True positive rate", title=title, square=True,
           legend=False)
    place_legend(ax, ["lower right"])
    return fig


def _prevalence(y_true, pos_label, sample_weight):
    from .. import arrays

    is_positive = arrays.binary_labels(y_true, pos_label=pos_label)
    weights = arrays.sample_weights(sample_weight, len(is_positive))
    if weights is None:
        return float(np.mean(is_positive))
    return float(weights[is_positive].sum() / weights.sum())


# Error rates labelled on the normal-deviate axes of a DET plot.
_DET_TICKS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)


def plot_det_curve(y_true: ArrayLike, y_score: ArrayLike, ax: Axes | None = None, *, pos_label: Label | None = None,
                   sample_weight: ArrayLike | None = None, label: str | None = None, color: str | None = None,
                   binormal: tuple[float, float] | None = None, limits: tuple[float, float] = (0.001, 0.999),
                   title: str | None = None) -> Figure:
    """The DET curve: false negative against false positive rate, on normal-deviate axes.

    Each axis shows the normal quantile of its rate, labelled in percent,
    so small error rates are spread out and normally distributed scores
    give straight lines: with negatives N(0, 1) and positives
    N(mean, sd**2), ``Phi^-1(FNR) = -(mean + Phi^-1(FPR)) / sd``, a line of
    slope ``-1 / sd``.  Points whose rate is 0 or 1 lie at infinity and are
    left out.

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
    ax : matplotlib Axes, optional
        Draw here (another curve on the same axes gets the next colour).
    pos_label, sample_weight : optional
        As in :func:`evalmetrics.curves.det_curve`.
    label : str, optional
        Legend entry.
    color : colour, optional
    binormal : (mean, sd), optional
        Also draw the exact DET line of binormal scores, dashed in the same colour.
    limits : (float, float), default (0.001, 0.999)
        The smallest and largest error rates shown on both axes.
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_det_curve(units.y_true, units.y_score)
    >>> fig.axes[0].get_xlabel()
    'False positive rate (normal deviate scale)'
    """
    from .._kernels.normal import quantile
    from ..curves import det_curve

    deviate = np.vectorize(quantile, otypes=[float])
    fig, ax = new_axes(ax)
    colour = _next_colour(ax, "evalmetrics-det-curve", color)
    curve = det_curve(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
    inside = ((curve.false_positive_rate > 0) & (curve.false_positive_rate < 1)
              & (curve.false_negative_rate > 0) & (curve.false_negative_rate < 1))
    ax.plot(deviate(curve.false_positive_rate[inside]), deviate(curve.false_negative_rate[inside]),
            color=colour, linewidth=1.8, gid="evalmetrics-det-curve", label=label,
            marker="o" if np.count_nonzero(inside) <= 60 else None, markersize=3.5)
    low, high = deviate(limits[0]), deviate(limits[1])
    if binormal is not None:
        mean, sd = binormal
        x = np.linspace(low, high, 200)
        ax.plot(x, -(mean + x) / sd, color=colour, linestyle="--", linewidth=1.0,
                label=f"exact binormal, mean {mean:g}, sd {sd:g}")
    ticks = [t for t in _DET_TICKS if limits[0] <= t <= limits[1]]
    shown = [f"{100 * t:g}" for t in ticks]
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_ticks(deviate(ticks), shown)
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_aspect("equal")
    finish(ax, xlabel="False positive rate (normal deviate scale)",
           ylabel="False negative rate (normal deviate scale)", title=title, legend=False)
    if ax.get_legend_handles_labels()[0]:
        place_legend(ax, ["upper right", "lower left"])
    return fig
