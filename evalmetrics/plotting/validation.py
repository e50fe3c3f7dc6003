"""Figures of validation and uncertainty: splitters, nested scores, bootstrap distributions, intervals.

Used by the chapters cross-validation and intervals.  Every function draws
on ``ax`` (or a new figure), labels its axes and returns the figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._typing import ArrayLike
from ..cross_validation import Fold, NestedScore
from ._style import BLUE, GREY, MAX_WIDTH_IN, ORANGE, PALETTE, SMALL_TEXT, VERMILION, finish, new_axes, pyplot

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_bootstrap_distributions",
    "plot_coverage_intervals",
    "plot_exact_coverage",
    "plot_interval_comparison",
    "plot_nested_scores",
    "plot_splitters",
]

_UNUSED = "#EFEFEF"  # rows a split neither trains nor tests on (time-series splits)


def _split_panel(ax, name, folds, is_positive, groups):
    """One splitter: a row of cells per split, then strips for class and group."""
    from matplotlib.colors import ListedColormap

    n = len(is_positive)
    k = len(folds)
    # Codes: 0 unused, 1 train, 2 test, 3 working unit, 4 positive, 5/6 alternating groups.
    grid = np.zeros((k + 2 if groups is not None else k + 1, n), dtype=int)
    for row, (train, test) in enumerate(folds):
        grid[row, train] = 1
        grid[row, test] = 2
    grid[k] = np.where(is_positive, 4, 3)
    if groups is not None:
        _, codes = np.unique(groups, return_inverse=True)
        grid[k + 1] = 5 + codes.ravel() % 2
    colours = ListedColormap([_UNUSED, BLUE, ORANGE, "#FFFFFF", VERMILION, "#BDBDBD", "#8C8C8C"])
    ax.pcolormesh(np.arange(n + 1) - 0.5, np.arange(len(grid) + 1) - 0.5, grid, cmap=colours,
                  vmin=-0.5, vmax=6.5, edgecolors="white", linewidth=0.8)
    for row, (_, test) in enumerate(folds):
        # The count that matters for per-fold recall: positives in the test block.
        ax.text(n - 0.2, row, f" {int(np.sum(is_positive[test]))} pos.", va="center", ha="left", fontsize=SMALL_TEXT)
    if groups is not None:
        for g in np.unique(codes):
            members = np.flatnonzero(codes.ravel() == g)
            ax.text(members.mean(), k + 1, str(g + 1), ha="center", va="center", fontsize=SMALL_TEXT, color="black")
    labels = [f"split {i + 1}" for i in range(k)] + ["class"] + (["group"] if groups is not None else [])
    ax.set_yticks(range(len(grid)), labels)
    ax.set_ylim(len(grid) - 0.5, -0.5)
    ax.set_xlim(-0.5, n + 2.0)
    ax.set_xticks(range(0, n, 4), [str(i + 1) for i in range(0, n, 4)])
    ax.set_xlabel("Row")
    ax.set_title(name)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)


def plot_splitters(splits: Mapping[str, Sequence[Fold]], y_true: ArrayLike, *, groups: ArrayLike | None = None,
                   ncols: int = 2) -> Figure:
    """Which rows each splitter trains and tests on, one panel per splitter.

    Each panel has one line of cells per split (blue: train, orange: test,
    light grey: unused), a line marking the positive rows (vermilion), and,
    when ``groups`` is given, a line showing the groups.  The number of
    positives in each test block is written at the end of its line.

    Parameters
    ----------
    splits : mapping of str to sequence of Fold
        Panel title -> folds, e.g. ``{"k-fold": k_fold(24, n_splits=4), ...}``.
    y_true : array_like of shape (n,)
        Binary labels (1 = positive).
    groups : array_like of shape (n,), optional
    ncols : int, default 2

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> from evalmetrics import k_fold, stratified_k_fold
    >>> splits = {'k-fold': k_fold(12, n_splits=3),
    ...           'stratified': stratified_k_fold(units.y_true, n_splits=3)}
    >>> fig = plot_splitters(splits, units.y_true)
    >>> len(fig.axes)
    2
    """
    from matplotlib.patches import Patch

    plt = pyplot()
    is_positive = np.asarray(y_true) == 1
    items = list(splits.items())
    if not items:
        raise ValueError("splits is empty")
    nrows = int(np.ceil(len(items) / ncols))
    width = min(5.2 * ncols, MAX_WIDTH_IN)  # wider, its text would be shrunk below legible
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 2.6 * nrows + 0.6), layout="constrained",
                             squeeze=False)
    for ax, (name, folds) in zip(axes.flat, items):
        _split_panel(ax, name, folds, is_positive, groups)
    for ax in list(axes.flat)[len(items):]:
        ax.set_visible(False)
    handles = [Patch(color=BLUE, label="train"), Patch(color=ORANGE, label="test"),
               Patch(facecolor=_UNUSED, edgecolor=GREY, label="unused"), Patch(color=VERMILION, label="positive")]
    fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    return fig


def plot_bootstrap_distributions(distributions: Mapping[str, ArrayLike], ax: Axes | None = None, *, bins: int = 40,
                                 estimate: float | None = None, xlabel: str = "Metric",
                                 title: str | None = None) -> Figure:
    """Several bootstrap (or sampling) distributions of one metric, overlaid.

    Parameters
    ----------
    distributions : mapping of str to array_like
        Label -> replicates, drawn in the palette's order (blue, orange,
        green, vermilion) as filled, semi-transparent density histograms.
    ax : matplotlib Axes, optional
    bins : int, default 40
        Number of common bins spanning all distributions.
    estimate : float, optional
        The metric on the original data, drawn as a grey vertical line.
    xlabel, title : str

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> from evalmetrics import bootstrap_interval, roc_auc
    >>> y, s = units.y_true, units.y_score
    >>> result = bootstrap_interval(roc_auc, y, s, n_resamples=200, seed=0)
    >>> fig = plot_bootstrap_distributions({'AUC': result.distribution},
    ...                                    estimate=result.estimate)
    >>> fig.axes[0].get_xlabel()
    'Metric'
    """
    items = [(label, np.asarray(values, dtype=float)) for label, values in distributions.items()]
    if not items:
        raise ValueError("distributions is empty")
    if len(items) > len(PALETTE):
        raise ValueError(f"at most {len(PALETTE)} distributions fit the palette, got {len(items)}")
    fig, ax = new_axes(ax, figsize=(6.0, 3.6))
    low = min(v.min() for _, v in items)
    high = max(v.max() for _, v in items)
    edges = np.linspace(low, high, bins + 1)
    for (label, values), colour in zip(items, PALETTE):
        ax.hist(values, bins=edges, density=True, color=colour, alpha=0.45, label=label)
        ax.hist(values, bins=edges, density=True, histtype="step", color=colour, linewidth=1.2)
    if estimate is not None:
        ax.axvline(estimate, color=GREY, linestyle="--", linewidth=1.0, label="estimate")
    finish(ax, xlabel=xlabel, ylabel="Density", title=title)
    return fig


def plot_interval_comparison(x: ArrayLike, intervals: Mapping[str, Sequence[tuple[float, float]]],
                             ax: Axes | None = None, *, xlabel: str, ylabel: str, title: str | None = None,
                             bounds: tuple[float, float] | None = (0.0, 1.0)) -> Figure:
    """Interval methods side by side at each x (e.g. successes out of n).

    Parameters
    ----------
    x : array_like of shape (m,)
        Positions, e.g. the number of successes.
    intervals : mapping of str to sequence of (low, high)
        Method name -> one interval per x; methods are drawn slightly
        offset so their bars do not overlap.
    ax : matplotlib Axes, optional
    xlabel, ylabel, title : str
    bounds : (float, float) or None
        Range the quantity cannot leave, shaded outside (default [0, 1]).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics import wald_interval, wilson_interval
    >>> successes = [0, 3, 6]
    >>> intervals = {'Wald': [wald_interval(k, 12) for k in successes],
    ...              'Wilson': [wilson_interval(k, 12) for k in successes]}
    >>> fig = plot_interval_comparison(successes, intervals,
    ...                                xlabel='Successes out of 12',
    ...                                ylabel='Proportion')
    >>> fig.axes[0].get_xlabel()
    'Successes out of 12'
    """
    x = np.asarray(x, dtype=float)
    items = list(intervals.items())
    if not items:
        raise ValueError("intervals is empty")
    fig, ax = new_axes(ax, figsize=(6.0, 3.6))
    step = np.min(np.diff(x)) if len(x) > 1 else 1.0
    offsets = (np.arange(len(items)) - (len(items) - 1) / 2) * step * 0.25
    for (label, pairs), colour, offset in zip(items, PALETTE, offsets):
        pairs = np.asarray(pairs, dtype=float)
        ax.vlines(x + offset, pairs[:, 0], pairs[:, 1], color=colour, linewidth=2.2, label=label)
        # End ticks keep a zero-width interval (Wald at 0 or n successes) visible.
        ax.plot(np.r_[x, x] + offset, np.r_[pairs[:, 0], pairs[:, 1]], "_", color=colour, markersize=7)
    if bounds is not None:
        ax.axhspan(bounds[0] - 1.0, bounds[0], color=GREY, alpha=0.15, linewidth=0)
        ax.axhspan(bounds[1], bounds[1] + 1.0, color=GREY, alpha=0.15, linewidth=0)
        lowest = min(np.min(np.asarray(p, dtype=float)) for _, p in items)
        highest = max(np.max(np.asarray(p, dtype=float)) for _, p in items)
        ax.set_ylim(min(bounds[0], lowest) - 0.05, max(bounds[1], highest) + 0.05)
    finish(ax, xlabel=xlabel, ylabel=ylabel, title=title)
    return fig


def plot_coverage_intervals(intervals: Sequence[tuple[float, float]], truth: float, ax: Axes | None = None, *,
                            xlabel: str = "Test set", ylabel: str = "Interval", title: str | None = None) -> Figure:
    """One vertical bar per simulated interval; the misses stand out.

    Intervals containing ``truth`` are blue, the others vermilion; the
    truth is a grey horizontal line.

    Parameters
    ----------
    intervals : sequence of (low, high)
    truth : float
    ax : matplotlib Axes, optional
    xlabel, ylabel, title : str

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> intervals = [(0.6, 0.9), (0.7, 0.95), (0.82, 0.99)]
    >>> fig = plot_coverage_intervals(intervals, 0.8)
    >>> fig.axes[0].get_xlabel()
    'Test set'
    """
    pairs = np.asarray(intervals, dtype=float)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"intervals must be a sequence of (low, high) pairs, got shape {pairs.shape}")
    fig, ax = new_axes(ax, figsize=(7.0, 3.2))
    covers = (pairs[:, 0] <= truth) & (truth <= pairs[:, 1])
    position = np.arange(1, len(pairs) + 1)
    ax.vlines(position[covers], pairs[covers, 0], pairs[covers, 1], color=BLUE, linewidth=1.0,
              label=f"covers the truth ({int(covers.sum())})")
    ax.vlines(position[~covers], pairs[~covers, 0], pairs[~covers, 1], color=VERMILION, linewidth=1.6,
              label=f"misses it ({int((~covers).sum())})")
    ax.axhline(truth, color=GREY, linewidth=1.0, linestyle="--", label="true value")
    finish(ax, xlabel=xlabel, ylabel=ylabel, title=title, legend=False)
    # Below the axes: inside, the legend would hide some of the intervals.
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3, fontsize=SMALL_TEXT)
    return fig



def plot_exact_coverage(p: ArrayLike, coverage: Mapping[str, ArrayLike], *, confidence: float = 0.95,
                        xlabel: str = "True proportion", ylabel: str = "Coverage", low: float = 0.5) -> Figure:
    """The coverage each interval method delivers against the true proportion, one panel each.

    Each panel draws one method's coverage (from
    :func:`~evalmetrics.coverage_probability`) with the nominal level as a
    grey line, and writes its mean over ``p`` and its lowest value; the
    y axis runs from ``low`` to 1 in every panel, and a curve that falls
    below ``low`` is cut off there (its lowest value stays written).

    Parameters
    ----------
    p : array_like of shape (m,)
        True proportions, increasing.
    coverage : mapping of str to array_like of shape (m,)
        Method name -> coverage at each ``p``; one to four methods.
    confidence : float, default 0.95
        The nominal level, drawn as a line.
    xlabel, ylabel : str
    low : float, default 0.5
        Bottom of the y axes.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> import numpy as np
    >>> from evalmetrics import coverage_probability
    >>> from evalmetrics import wald_interval, wilson_interval
    >>> p = np.linspace(0.05, 0.95, 19)
    >>> coverage = {
    ...     "Wald": coverage_probability(wald_interval, 12, p),
    ...     "Wilson": coverage_probability(wilson_interval, 12, p)}
    >>> fig = plot_exact_coverage(p, coverage)
    >>> len(fig.axes), fig.axes[0].get_xlabel()
    (2, 'True proportion')
    """
    p = np.asarray(p, dtype=float)
    items = [(name, np.asarray(values, dtype=float)) for name, values in coverage.items()]
    if not 1 <= len(items) <= 4:
        raise ValueError(f"coverage must hold one to four methods, got {len(items)}")
    for name, values in items:
        if values.shape != p.shape:
            raise ValueError(f"coverage[{name!r}] has shape {values.shape}, p has {p.shape}")
    columns = min(2, len(items))
    rows = (len(items) + 1) // 2
    plt = pyplot()
    fig, axes = plt.subplots(rows, columns, figsize=(3.6 * columns, 2.6 * rows + 0.4), sharex=True, sharey=True,
                             layout="constrained", squeeze=False)
    for ax, (name, values), colour in zip(axes.ravel(), items, PALETTE):
        ax.plot(p, values, color=colour, linewidth=1.2)
        ax.axhline(confidence, color=GREY, linestyle="--", linewidth=1.0)
        ax.set_ylim(low, 1.005)
        ax.text(0.5, 0.05, f"mean {np.mean(values):.3f}, lowest {np.min(values):.3f}", transform=ax.transAxes,
                ha="center", va="bottom", fontsize=SMALL_TEXT)
        finish(ax, xlabel=xlabel if ax in axes[-1] else "", ylabel=ylabel if ax in axes[:, 0] else "",
               title=name, legend=False)
    for ax in axes.ravel()[len(items):]:
        ax.set_visible(False)
    return fig


def plot_nested_scores(results: Sequence[NestedScore], ax: Axes | None = None, *, metric: str = "score",
                       greater_is_better: bool = True, figsize: tuple[float, float] = (4.6, 4.2)) -> Figure:
    """Each repetition's non-nested score against its nested one, with the diagonal.

    One point per result of :func:`evalmetrics.nested_cross_validation`
    (one data set, or one subsample): on the diagonal the two estimates
    agree; on the flattering side of it (above for a score, below for a
    loss) the non-nested estimate reports more than the procedure delivers.

    Parameters
    ----------
    results : sequence of NestedScore
    ax : matplotlib Axes, optional
    metric : str, default "score"
        The metric's name, for the axis labels.
    greater_is_better : bool, default True
        False for a loss: then the flattering side is below the diagonal.
    figsize : (float, float)
        Size in inches of the new figure (when no axes are given).

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics import LogisticRegression, brier_score, twelve_units
    >>> from evalmetrics import nested_cross_validation, stratified_k_fold
    >>> units = twelve_units()
    >>> X = units.y_score.reshape(-1, 1)
    >>> models = [LogisticRegression(penalty=p) for p in (0.1, 1.0, 10.0)]
    >>> folds = stratified_k_fold(units.y_true, n_splits=2)
    >>> result = nested_cross_validation(
    ...     models, X, units.y_true, metric=brier_score,
    ...     greater_is_better=False, folds=folds, inner_splits=2)
    >>> fig = plot_nested_scores([result], metric="Brier score",
    ...                          greater_is_better=False)
    >>> fig.axes[0].get_xlabel()
    'nested Brier score'
    """
    nested = np.array([result.nested for result in results], dtype=float)
    non_nested = np.array([result.non_nested for result in results], dtype=float)
    fig, ax = new_axes(ax, figsize=figsize)
    low = float(min(nested.min(), non_nested.min()))
    high = float(max(nested.max(), non_nested.max()))
    pad = 0.05 * (high - low) if high > low else 0.01
    span = [low - pad, high + pad]
    ax.plot(span, span, color=GREY, linestyle="--", linewidth=1, label="both estimates equal")
    flattering = non_nested > nested if greater_is_better else non_nested < nested
    ax.scatter(nested[flattering], non_nested[flattering], color=VERMILION, s=28, zorder=3,
               label="non-nested flatters")
    ax.scatter(nested[~flattering], non_nested[~flattering], color=BLUE, s=28, zorder=3,
               label="non-nested does not")
    ax.set_xlim(span)
    ax.set_ylim(span)
    ax.set_aspect("equal")
    finish(ax, xlabel=f"nested {metric}", ylabel=f"non-nested {metric}")
    return fig
