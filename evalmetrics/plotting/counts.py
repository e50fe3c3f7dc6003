"""Figures of decisions at one threshold: confusion matrices, F scores, averages, imbalance.

Used by the chapters confusion-matrix, f-scores, averaging and imbalance.
Every function draws on ``ax`` (or a new figure), labels its axes and
returns the figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np

from .._typing import ArrayLike, Label
from ..averaging import ClassScores
from ._style import (
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    SMALL_TEXT,
    VERMILION,
    finish,
    mark_small_bars,
    new_axes,
    place_legend,
    text_colour_on,
)

if TYPE_CHECKING:  # matplotlib is imported when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "plot_class_scores",
    "plot_confusion_matrix",
    "plot_f_beta_vs_threshold",
    "plot_mean_pull",
    "plot_metrics_vs_prevalence",
    "plot_precision_vs_prevalence",
]

_BINARY_CELL_NAMES = (("TN", "FP"), ("FN", "TP"))


def plot_confusion_matrix(matrix: ArrayLike, labels: ArrayLike | None = None, ax: Axes | None = None, *,
                          cell_names: ArrayLike | None = None, title: str | None = None,
                          scale: Literal["shared", "separate"] = "shared") -> Figure:
    """Heatmap of a confusion matrix: rows actual, columns predicted.

    Correct decisions (the diagonal) are green, errors orange; the shade
    grows with the count, and every cell shows its count.  With
    ``scale="separate"`` the errors are shaded against the largest error
    rather than the largest count, so that they can be told apart when the
    diagonal dwarfs them.

    Parameters
    ----------
    matrix : array_like of shape (K, K)
        Counts, rows actual and columns predicted.
    labels : sequence of str, optional
        Class names in matrix order (default 0 .. K-1).
    ax : matplotlib Axes, optional
    cell_names : bool, optional
        Write TN, FP, FN, TP in the cells of a 2 x 2 matrix (default: True for 2 x 2).
    title : str, optional
    scale : {"shared", "separate"}, default "shared"
        Shade every cell against the largest count, or the diagonal against
        the largest correct count and the errors against the largest error.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> labels = ['working', 'faulty']
    >>> fig = plot_confusion_matrix([[5, 3], [1, 3]], labels=labels)
    >>> fig.axes[0].get_xlabel()
    'Predicted'
    """
    from matplotlib.colors import to_rgb

    matrix = np.asarray(matrix)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"matrix must be square K x K, got shape {matrix.shape}")
    k = len(matrix)
    labels = [str(x) for x in (range(k) if labels is None else labels)]
    if len(labels) != k:
        raise ValueError(f"labels has {len(labels)} names for a {k} x {k} matrix")
    if scale not in ("shared", "separate"):
        raise ValueError(f"scale must be 'shared' or 'separate', got {scale!r}")
    if cell_names is None:
        cell_names = k == 2
    fig, ax = new_axes(ax, figsize=(1.3 * k + 1.8, 1.2 * k + 1.4))
    correct = np.eye(k, dtype=bool)
    if scale == "separate":
        # Errors are usually far fewer than correct decisions: on one scale they all look pale.
        largest_correct = float(matrix[correct].max()) or 1.0
        largest_error = (float(matrix[~correct].max()) if k > 1 else 0.0) or 1.0
    else:
        largest_correct = largest_error = float(matrix.max()) or 1.0
    image = np.ones((k, k, 3))
    for j in range(k):
        for i in range(k):
            # Blend from white towards the colour: the shade encodes the count.
            colour = np.array(to_rgb(GREEN if i == j else ORANGE))
            strength = 0.15 + 0.85 * matrix[j, i] / (largest_correct if i == j else largest_error)
            image[j, i] = 1.0 - strength * (1.0 - colour)
            text = f"{matrix[j, i]:g}"
            if cell_names and k == 2:
                text = f"{_BINARY_CELL_NAMES[j][i]}\n{text}"
            ax.text(i, j, text, ha="center", va="center", fontsize=11,
                    color=text_colour_on(image[j, i]))
    ax.imshow(image, interpolation="nearest")
    ax.set_xticks(range(k), labels)
    ax.set_yticks(range(k), labels)
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    # A line's space between "Predicted" and the class names: closer, it read as part of
    # the class name under it ("Predicted rework").
    ax.set_xlabel("Predicted", labelpad=14)
    ax.set_ylabel("Actual")
    if title:
        ax.set_title(title, pad=12)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="both", length=0)
    return fig


def plot_mean_pull(precision: float = 1.0, ax: Axes | None = None, *, betas: Sequence[float] = (0.5, 1.0, 2.0),
                   mark: float | None = 0.01) -> Figure:
    """F-beta and the arithmetic mean of precision and recall, as recall varies.

    With precision fixed (1 by default), the arithmetic mean never falls
    below precision / 2; F1 (the harmonic mean) never exceeds it, F-beta with
    beta < 1 can.

    Parameters
    ----------
    precision : float, default 1.0
    ax : matplotlib Axes, optional
    betas : sequence of float
        F-beta curves to draw.
    mark : float or None
        A recall at which both means are marked.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> fig = plot_mean_pull(precision=1.0)
    >>> fig.axes[0].get_xlabel()
    'Recall (precision fixed at 1)'
    """
    fig, ax = new_axes(ax, figsize=(5.2, 3.8))
    recall = np.linspace(0.0, 1.0, 401)
    ax.plot(recall, (precision + recall) / 2, color=GREY, linestyle="--", label="arithmetic mean")
    colours = (ORANGE, BLUE, GREEN, VERMILION)
    for beta, colour in zip(betas, colours):
        b2 = beta * beta
        f = (1 + b2) * precision * recall / (b2 * precision + recall)
        ax.plot(recall, f, color=colour, label=f"$F_{{{beta:g}}}$")
    if mark is not None:
        f1 = 2 * precision * mark / (precision + mark)
        mean = (precision + mark) / 2
        ax.plot([mark, mark], [f1, mean], color=GREY, linewidth=0.8)
        ax.plot([mark], [mean], "o", color=GREY)
        ax.plot([mark], [f1], "o", color=BLUE)
        # Written where no curve runs (above the curves at the left, under them at
        # the bottom), with an arrow: beside the points the steep curves struck them.
        arrow = dict(arrowstyle="-", color=GREY, linewidth=0.6, shrinkA=1, shrinkB=4, relpos=(0.0, 0.0))
        ax.annotate(f"arithmetic mean {mean:.3f} at recall {mark:g}", (mark, mean), xytext=(0.04, 0.9),
                    textcoords="axes fraction", fontsize=SMALL_TEXT, arrowprops=arrow)
        ax.annotate(f"$F_1$ {f1:.4f} at recall {mark:g}", (mark, f1), xytext=(0.12, 0.06),
                    textcoords="axes fraction", fontsize=SMALL_TEXT, arrowprops=arrow)
    ax.set_ylim(0, 1.02)
    finish(ax, xlabel=f"Recall (precision fixed at {precision:g})", ylabel="Combined score")
    return fig


def plot_class_scores(scores: ClassScores, ax: Axes | None = None, *, title: str | None = None) -> Figure:
    """Per-class precision, recall and F score as bars, then their three averages.

    Parameters
    ----------
    scores : ClassScores
        From :func:`evalmetrics.per_class_scores` (single-label data).
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> from evalmetrics import per_class_scores
    >>> y_pred = (units.y_score >= 0.5).astype(int)
    >>> scores = per_class_scores(units.y_true, y_pred)
    >>> fig = plot_class_scores(scores)
    >>> fig.axes[0].get_xlabel()
    'Class, then average over classes'
    """
    fig, ax = new_axes(ax, figsize=(6.4, 3.9))
    support = np.asarray(scores.support, dtype=float)
    columns = [np.nan_to_num(np.asarray(v, dtype=float)) for v in (scores.precision, scores.recall, scores.f_score)]
    macro = [float(np.mean(v)) for v in columns]
    weighted = [float(np.average(v, weights=support)) for v in columns]
    # Micro precision, recall and F all equal accuracy = the support-weighted recall.
    micro = [weighted[1]] * 3
    # "n = 50" under the class: "(support 50)" ran into its neighbour at three classes.
    names = [f"{label}\nn = {s:g}" for label, s in zip(scores.labels, support)]
    names += ["macro", "weighted", "micro"]
    k = len(scores.labels)
    x = np.r_[np.arange(k), k + 0.6 + np.arange(3)]
    width = 0.26
    ax.set_ylim(0, 1.12)
    for i, (colour, name) in enumerate(((BLUE, "precision"), (ORANGE, "recall"), (GREEN, "F score"))):
        heights = np.r_[columns[i], macro[i], weighted[i], micro[i]]
        # A score of 0 is a bar of height 0: marked, or a reader looks for a bar not drawn.
        mark_small_bars(ax, ax.bar(x + (i - 1) * width, heights, width, color=colour, label=name))
    for position, group in zip(x[k:], (macro, weighted, micro)):
        # Centred over its own group, above its tallest bar: over the F bar it
        # ran into the next group's bars.
        ax.text(position, max(group) + 0.02, f"F {group[2]:.4f}", ha="center", fontsize=SMALL_TEXT, color=GREEN)
    ax.axvline(k - 0.2, color=GREY, linewidth=0.8)
    ax.set_xticks(x, names, fontsize=SMALL_TEXT)
    finish(ax, xlabel="Class, then average over classes", ylabel="Score", legend=False)
    # A line's space under the class names, so that the label does not read as a third line of them.
    ax.xaxis.labelpad = 12
    # Above the axes: inside, a class scored near 1 would reach the legend.
    legend = ax.legend(frameon=False, fontsize=SMALL_TEXT, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                       ncol=3)
    if title:
        # The title goes above the legend (measured, in points), not through it.
        top = (legend.get_window_extent().y1 - ax.bbox.y1) * 72 / fig.dpi
        ax.set_title(title, pad=top + 6.0)
    return fig


def plot_precision_vs_prevalence(tpr: ArrayLike, fpr: ArrayLike, ax: Axes | None = None, *,
                                 marks: Sequence[float] = (0.5, 0.1, 0.01)) -> Figure:
    """Precision of a fixed classifier against the prevalence (log scale), by Bayes' rule.

    Parameters
    ----------
    tpr, fpr : float
        True and false positive rates of the classifier.
    ax : matplotlib Axes, optional
    marks : sequence of float
        Prevalences at which the precision is marked and written.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> fig = plot_precision_vs_prevalence(0.75, 0.375)
    >>> fig.axes[0].get_xlabel()
    'Prevalence (share of positives, log scale)'
    """
    from ..rates import precision_at_prevalence

    fig, ax = new_axes(ax, figsize=(5.2, 3.8))
    prevalence = np.logspace(-3, 0, 400)[:-1]
    ax.plot(prevalence, precision_at_prevalence(tpr, fpr, prevalence), color=BLUE,
            label=f"precision (TPR {tpr:.4f}, FPR {fpr:.4f})")
    ax.plot(prevalence, prevalence, color=GREY, linestyle="--", label="random flagging (precision = prevalence)")
    for pi in marks:
        value = precision_at_prevalence(tpr, fpr, pi)
        ax.plot([pi], [value], "o", color=VERMILION)
        # Above and to the left: the curve rises from the left, so nothing is drawn there
        # (to the right, the curve ran through the numbers).
        ax.annotate(f"{value:.4f}", (pi, value), xytext=(-5, 5), textcoords="offset points", ha="right",
                    fontsize=SMALL_TEXT)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    finish(ax, xlabel="Prevalence (share of positives, log scale)", ylabel="Precision", legend=False)
    place_legend(ax, ["upper left"])
    return fig


def plot_metrics_vs_prevalence(tpr: ArrayLike, fpr: ArrayLike, ax: Axes | None = None, *,
                               marks: Sequence[float] = (0.5, 0.1, 0.01)) -> Figure:
    """Expected metrics of a fixed classifier and of a silent one as the prevalence falls.

    The classifier keeps its rates ``tpr`` and ``fpr``; the silent classifier
    never flags anything.  The counts are expectations per example.

    Parameters
    ----------
    tpr, fpr : float
        True and false positive rates of the classifier.
    ax : matplotlib Axes, optional
    marks : sequence of float
        Prevalences marked by dotted vertical lines.

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> fig = plot_metrics_vs_prevalence(0.75, 0.375)
    >>> fig.axes[0].get_xlabel()
    'Prevalence (share of positives, log scale)'
    """
    from ..counts import BinaryCounts
    from ..rates import accuracy, balanced_accuracy, cohen_kappa, f1, matthews_correlation

    fig, ax = new_axes(ax, figsize=(5.6, 5.0))
    pi = np.logspace(-3, np.log10(0.5), 300)
    model = BinaryCounts(tp=tpr * pi, fp=fpr * (1 - pi), fn=(1 - tpr) * pi, tn=(1 - fpr) * (1 - pi))
    ax.plot(pi, 1 - pi, color=VERMILION, linewidth=2, label="silent classifier: accuracy")
    ax.plot(pi, np.full_like(pi, 0.5), color=VERMILION, linestyle=":", label="silent classifier: balanced accuracy")
    if np.isclose(tpr, 1.0 - fpr):
        # Equal class-wise rates: accuracy and balanced accuracy are the same line.
        ax.plot(pi, accuracy(counts=model), color=BLUE, linewidth=2, label="model: accuracy = balanced accuracy")
    else:
        ax.plot(pi, accuracy(counts=model), color=BLUE, linewidth=2, label="model: accuracy")
        ax.plot(pi, balanced_accuracy(counts=model), color=BLUE, linestyle=":", label="model: balanced accuracy")
    ax.plot(pi, f1(counts=model), color=GREEN, label="model: F1")
    ax.plot(pi, matthews_correlation(counts=model), color=ORANGE, label="model: MCC")
    ax.plot(pi, cohen_kappa(counts=model), color=ORANGE, linestyle="--", label="model: kappa")
    for mark in marks:
        ax.axvline(mark, color=GREY, linewidth=0.6, linestyle=":")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    finish(ax, xlabel="Prevalence (share of positives, log scale)", ylabel="Expected value")
    # Below the axes: every corner of the plot carries a curve.
    ax.legend(frameon=False, fontsize=SMALL_TEXT, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)
    return fig


def plot_f_beta_vs_threshold(y_true: ArrayLike, y_prob: ArrayLike, ax: Axes | None = None, *, beta: float = 1.0,
                             pos_label: Label | None = None,
                             sample_weight: ArrayLike | None = None) -> Figure:
    """F-beta against the threshold on probabilities, with the best score and its bar marked.

    The score of flagging every probability at least ``t`` is drawn as a
    step function of ``t``.  Marked: the best score ``F*`` (a dotted
    line), the bar ``F* / (1 + beta^2)`` below which a calibrated
    probability no longer raises the score (a dashed line), and
    ``1 / (1 + beta^2)``, the Bayes threshold of a miss that costs
    ``beta^2`` false alarms (a dash-dotted line).

    Parameters
    ----------
    y_true : array_like of shape (n,)
        True labels.
    y_prob : array_like of shape (n,)
        Probabilities of the positive class.
    ax : matplotlib Axes, optional
    beta : float, default 1.0
    pos_label : label, optional
    sample_weight : array_like of shape (n,), optional

    Returns
    -------
    matplotlib Figure

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> fig = plot_f_beta_vs_threshold(units.y_true, units.y_score)
    >>> fig.axes[0].get_ylabel()
    'F1'
    """
    from .. import arrays
    from ..curves import threshold_table

    beta = arrays.non_negative(beta, "beta")
    arrays.probabilities(y_prob, "y_prob")
    table = threshold_table(y_true, y_prob, pos_label=pos_label, sample_weight=sample_weight)
    if table.positives == 0:
        raise ValueError("y_true has no positives: F-beta is 0 at every threshold")
    # The count form of F-beta, (1 + b^2) TP / (b^2 P + flagged), at every row of the table.
    tp = np.asarray(table.true_positives, dtype=float)
    flagged = tp + np.asarray(table.false_positives, dtype=float)
    scores = (1 + beta * beta) * tp / (beta * beta * table.positives + flagged)
    best = float(np.max(scores))
    name = "F1" if beta == 1 else f"F{beta:g}"
    fig, ax = new_axes(ax, figsize=(6.0, 3.8))
    # Thresholds ascending: a score holds from just above the next lower probability up to its own.
    order = np.argsort(table.thresholds)
    ax.step(np.r_[0.0, np.asarray(table.thresholds, dtype=float)[order]], np.r_[scores[order][0], scores[order]],
            where="pre", color=BLUE, linewidth=1.4, label=f"{name} of flagging every probability ≥ t")
    ax.axhline(best, color=GREY, linestyle=":", linewidth=1.0, label=f"best {name} = {best:.4f}")
    bar = best / (1 + beta * beta)
    ax.axvline(bar, color=VERMILION, linestyle="--", linewidth=1.2,
               label=f"best {name} / (1 + β²) = {best:.4f} / {1 + beta * beta:g} = {bar:.4f}")
    ax.axvline(1 / (1 + beta * beta), color=GREY, linestyle="-.", linewidth=1.0,
               label=f"1 / (1 + β²) = {1 / (1 + beta * beta):.4f}, the Bayes threshold of cost β²")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, min(1.02, best + 0.25))
    finish(ax, xlabel="Threshold t on the probability", ylabel=name, legend=False)
    ax.legend(frameon=False, fontsize=SMALL_TEXT, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
    return fig

