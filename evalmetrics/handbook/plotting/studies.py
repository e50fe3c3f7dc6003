"""Figures of the chapter "In practice": the imbalance study, the A/B comparison
and the breast-cancer screening run.

Every function takes the result object of :mod:`evalmetrics.handbook.studies` or
:mod:`evalmetrics.handbook.screening`, draws on the axes it is given (or a new
figure), labels its axes and returns the figure.
"""

from __future__ import annotations

import numpy as np

from ... import arrays, costs, curves
from ...datasets import binormal_curve
from ...plotting import BLUE, GREEN, GREY, ORANGE, PALETTE, SMALL_TEXT, VERMILION, finish, place_legend, pyplot
from ...plotting.calibration import plot_reliability_diagram
from ...plotting.validation import plot_bootstrap_distributions

__all__ = [
    "plot_ab_comparison",
    "plot_imbalance_curves",
    "plot_screening_bootstrap",
    "plot_screening_costs",
    "plot_screening_reliability",
]


def _panels(axes, n, figsize):
    if axes is not None:
        axes = list(np.ravel(axes))
        if len(axes) != n:
            raise ValueError(f"axes must hold {n} Axes, got {len(axes)}")
        return axes[0].figure, axes
    plt = pyplot()
    fig, axes = plt.subplots(1, n, figsize=figsize, layout="constrained")
    return fig, list(np.ravel(axes))


def _percent(value):
    return f"{100 * value:g} %"


def plot_imbalance_curves(study, *, axes=None, exact=True, figsize=(8.8, 4.8)):
    """ROC and precision-recall curves of :func:`~evalmetrics.handbook.studies.imbalance_study`.

    One colour per prevalence.  The dotted curves are the exact binormal
    curves: a single ROC curve for every prevalence, and one
    precision-recall curve per prevalence from Bayes' rule.

    Parameters
    ----------
    study : ImbalanceStudy
    axes : pair of matplotlib Axes, optional
        (ROC, precision-recall); a new figure is created when omitted.
    exact : bool, default True
        Draw the exact curves.

    Returns
    -------
    matplotlib Figure
    """
    exact = arrays.boolean(exact, "exact")
    fig, (roc_ax, pr_ax) = _panels(axes, 2, figsize)
    roc_ax.plot([0, 1], [0, 1], color=GREY, linewidth=0.8, linestyle="--")
    if exact:
        theory = binormal_curve(mean=study.mean, sd=study.sd)
        roc_ax.plot(theory.false_positive_rate, theory.true_positive_rate, color="black", linewidth=1.0,
                    linestyle=":", label=f"exact (AUC {study.theoretical_auc:.4f})")
    for run, colour in zip(study.runs, PALETTE):
        label = f"{_percent(run.target_prevalence)} positives"
        roc = curves.roc_curve(run.y_true, run.y_score)
        roc_ax.plot(roc.false_positive_rate, roc.true_positive_rate, color=colour, linewidth=1.3,
                    label=f"{label} (AUC {run.auc:.4f})")
        pr = curves.precision_recall_curve(run.y_true, run.y_score)
        pr_ax.plot(pr.recall, pr.precision, color=colour, linewidth=1.3,
                   label=f"{label} (AP {run.average_precision:.4f})")
        pr_ax.axhline(run.prevalence, color=colour, linewidth=0.7, linestyle="--", alpha=0.7)
        if exact:
            theory = binormal_curve(mean=study.mean, sd=study.sd, prevalence=run.prevalence)
            keep = theory.true_positive_rate > 1e-3  # precision is 0/0-like at the far top
            pr_ax.plot(theory.true_positive_rate[keep], theory.precision[keep], color=colour,
                       linewidth=1.0, linestyle=":")
    finish(roc_ax, xlabel="false positive rate", ylabel="true positive rate (recall)",
           title="ROC: the three curves coincide", square=True, legend=False)
    finish(pr_ax, xlabel="recall", ylabel="precision", title="Precision-recall: they separate",
           square=True, legend=False)
    # Below the axes: every corner of the panel holds one of the curves.
    pr_ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=SMALL_TEXT)
    # Placed last, once the layout has made room for the other legend.
    place_legend(roc_ax, ["lower right"])
    return fig


def plot_ab_comparison(comparison, *, axes=None, exact=True, figsize=(8.8, 4.2)):
    """ROC and precision-recall curves of the two models of :func:`~evalmetrics.handbook.studies.ab_comparison`.

    The ROC panel marks the false positive rate of the recall comparison,
    the precision-recall panel the recall of the precision comparison, with
    each model's operating point there.  Dotted curves are exact.

    Parameters
    ----------
    comparison : ABComparison
    axes : pair of matplotlib Axes, optional
    exact : bool, default True

    Returns
    -------
    matplotlib Figure
    """
    exact = arrays.boolean(exact, "exact")
    fig, (roc_ax, pr_ax) = _panels(axes, 2, figsize)
    roc_ax.plot([0, 1], [0, 1], color=GREY, linewidth=0.8, linestyle="--")
    roc_ax.axvline(comparison.false_positive_rate, color=GREY, linewidth=0.8)
    pr_ax.axvline(comparison.recall, color=GREY, linewidth=0.8)
    pr_ax.axhline(comparison.prevalence, color=GREY, linewidth=0.7, linestyle="--")
    for model, colour in zip((comparison.a, comparison.b), (BLUE, VERMILION)):
        roc = curves.roc_curve(model.y_true, model.y_score)
        roc_ax.plot(roc.false_positive_rate, roc.true_positive_rate, color=colour, linewidth=1.3,
                    label=f"{model.name}: AUC {model.auc:.4f}")
        roc_ax.plot([comparison.false_positive_rate], [model.recall_at_fpr], "o", color=colour)
        pr = curves.precision_recall_curve(model.y_true, model.y_score)
        pr_ax.plot(pr.recall, pr.precision, color=colour, linewidth=1.3,
                   label=f"{model.name}: AP {model.average_precision:.4f}")
        pr_ax.plot([comparison.recall], [model.precision_at_recall], "o", color=colour)
        if exact:
            theory = binormal_curve(mean=model.mean, sd=model.sd, prevalence=comparison.prevalence)
            roc_ax.plot(theory.false_positive_rate, theory.true_positive_rate, color=colour,
                        linewidth=1.0, linestyle=":")
            keep = theory.true_positive_rate > 1e-3
            pr_ax.plot(theory.true_positive_rate[keep], theory.precision[keep], color=colour,
                       linewidth=1.0, linestyle=":")
    finish(roc_ax, xlabel="false positive rate", ylabel="true positive rate (recall)",
           title="ROC: A looks better", square=True, legend=False)
    _zoom(roc_ax, comparison)
    # The inset takes the lower right; above it the diagonal crossed the legend.
    place_legend(roc_ax, ["center right"])
    finish(pr_ax, xlabel="recall", ylabel="precision", title="Precision-recall: B is better",
           square=True, legend=False)
    place_legend(pr_ax, ["upper right"])
    return fig


def _zoom(roc_ax, comparison):
    """Inset of the ROC panel: the false positive rates a rare-positive application can afford."""
    width = 5 * comparison.false_positive_rate
    # Low and to the right, with a short title: higher, the diagonal crossed its title and ticks.
    inset = roc_ax.inset_axes([0.56, 0.08, 0.42, 0.3])
    for model, colour in zip((comparison.a, comparison.b), (BLUE, VERMILION)):
        roc = curves.roc_curve(model.y_true, model.y_score)
        inset.plot(roc.false_positive_rate, roc.true_positive_rate, color=colour, linewidth=1.2)
        inset.plot([comparison.false_positive_rate], [model.recall_at_fpr], "o", color=colour, markersize=4)
    inset.axvline(comparison.false_positive_rate, color=GREY, linewidth=0.8)
    inset.set_xlim(0.0, width)
    inset.set_ylim(0.0, 1.0)
    inset.set_title(f"zoom: FPR below {width:g}", fontsize=SMALL_TEXT)
    inset.tick_params(labelsize=SMALL_TEXT)


def plot_screening_reliability(result, *, which="development", n_bins=10, figsize=(8.8, 5.0)):
    """Reliability diagrams with bin counts for the three screening models.

    One legend above the panels names the diagonal and the models' colours.

    Parameters
    ----------
    result : ScreeningResult
    which : {"development", "test"}, default "development"
        The out-of-fold probabilities of the development set, or the test
        probabilities.
    n_bins : int, default 10
        Uniform bins.

    Returns
    -------
    matplotlib Figure
    """
    if which not in ("development", "test"):
        raise ValueError(f'which must be "development" or "test", got {which!r}')
    plt = pyplot()
    fig, grid = plt.subplots(2, len(result.models), figsize=figsize, sharex=True, layout="constrained",
                             gridspec_kw={"height_ratios": [3, 1]})
    y = result.y_development if which == "development" else result.y_test
    for column, (evaluation, colour) in enumerate(zip(result.models, (BLUE, ORANGE, GREEN))):
        p = evaluation.oof_probabilities if which == "development" else evaluation.test_probabilities
        plot_reliability_diagram(y, {evaluation.name: p}, n_bins=n_bins,
                                 axes=(grid[0, column], grid[1, column]), title=evaluation.name)
        # One colour per model across the chapter's figures (the diagram draws
        # a single model in the palette's first colour).
        for line in grid[0, column].get_lines()[1:]:
            line.set_color(colour)
        for patch in grid[1, column].patches:
            patch.set_color(colour)
        for mark in grid[1, column].get_lines():  # the ticks that mark bins of a row or two
            mark.set_color(colour)
        grid[0, column].get_legend().remove()
        if column:
            grid[0, column].set_ylabel("")
            grid[1, column].set_ylabel("")
    # One legend above the panels: inside, a badly calibrated model's points
    # reach every corner of its diagram.
    handles = [grid[0, 0].get_lines()[0]] + [grid[0, c].get_lines()[1] for c in range(len(result.models))]
    fig.legend(handles=handles, labels=[h.get_label() for h in handles], loc="outside upper center",
               ncol=len(handles), frameon=False, fontsize=SMALL_TEXT)
    return fig


def _cost_steps(y, p, false_positive_cost, false_negative_cost):
    """(thresholds ascending, cost of flagging p >= each) plus the "flag nothing" level."""
    curve = costs.cost_curve(y, p, false_positive_cost=false_positive_cost,
                             false_negative_cost=false_negative_cost)
    # Row 0 is the threshold +inf (nothing flagged); the rest are the distinct scores.
    return curve.thresholds[:0:-1], curve.total_cost[:0:-1], curve.total_cost[0]


def plot_screening_costs(result, *, axes=None, floor=1e-10, figsize=(8.8, 3.8)):
    """Total cost on the development set against the threshold, one panel per model.

    Each staircase is ``cFP FP(t) + cFN FN(t)`` over the out-of-fold
    probabilities, on a logarithmic threshold axis.  Vertical lines mark the
    chosen threshold (vermilion, the curve's minimum), the Bayes threshold
    (black, dashed) and the default 0.5 (grey, dotted), named by one legend
    under the panels; each panel's title gives its chosen threshold.  The
    staircases take the models' colours of the other figures.

    Parameters
    ----------
    result : ScreeningResult
    axes : sequence of matplotlib Axes, optional
        One per model.
    floor : float, default 1e-10
        Left end of the threshold axis; smaller probabilities are drawn there.

    Returns
    -------
    matplotlib Figure
    """
    fig, axes = _panels(axes, len(result.models), figsize)
    c_fp, c_fn = result.false_positive_cost, result.false_negative_cost
    # Flagging nothing costs cFN P, far above every interesting step; a common
    # ceiling a little above the dearest default-threshold cost keeps the minima visible.
    ceiling = 1.5 * max(
        c_fp * np.sum((e.oof_probabilities >= 0.5) & (result.y_development == 0))
        + c_fn * np.sum((e.oof_probabilities < 0.5) & (result.y_development == 1))
        for e in result.models
    )
    for ax, evaluation, colour in zip(axes, result.models, (BLUE, ORANGE, GREEN)):
        thresholds, cost, nothing = _cost_steps(result.y_development, evaluation.oof_probabilities,
                                                c_fp, c_fn)
        x = np.r_[floor, np.clip(thresholds, floor, None), 1.0]
        # Cost of the lowest threshold extends to the floor; above the top score nothing is flagged.
        y = np.r_[cost[0], cost, nothing]
        ax.step(x, y, where="pre", color=colour, linewidth=1.3)
        ax.axvline(max(evaluation.chosen_threshold, floor), color=VERMILION, linewidth=1.6,
                   label="chosen threshold (the lowest step)")
        ax.axvline(result.bayes_threshold, color="black", linewidth=1.2, linestyle="--",
                   label=f"Bayes threshold {result.bayes_threshold:.4f}")
        ax.axvline(0.5, color=GREY, linewidth=1.0, linestyle=":", label="default 0.5")
        ax.set_xscale("log")
        ax.set_xlim(floor, 1.0)
        if ceiling > 0:
            ax.set_ylim(0.0, ceiling)
        finish(ax, xlabel="threshold (log scale)", ylabel="cost on development set" if ax is axes[0] else "",
               title=f"{evaluation.name}\nchosen {evaluation.chosen_threshold:.4g}", legend=False)
    # One legend under the panels: inside, a chosen threshold far to the left (naive
    # Bayes) ran through every entry.
    handles, labels = axes[0].get_legend_handles_labels()
    below = "outside lower center" if fig.get_layout_engine() is not None else "lower center"
    fig.legend(handles, labels, loc=below, ncol=len(handles), frameon=False, fontsize=SMALL_TEXT)
    return fig


def plot_screening_bootstrap(result, *, figsize=(8.8, 4.4)):
    """Separate and paired bootstrap distributions of the screening run.

    Left and middle: the bootstrap distributions of the test AUC and Brier
    score of logistic regression and naive Bayes, drawn separately (they
    overlap).  Right: the paired distributions of the two differences,
    logistic regression minus naive Bayes, with zero marked.  One legend
    under the panels names the models and gives the intervals.

    Parameters
    ----------
    result : ScreeningResult

    Returns
    -------
    matplotlib Figure
    """
    plt = pyplot()
    fig, (auc_ax, brier_ax, diff_ax) = plt.subplots(1, 3, figsize=figsize, layout="constrained")
    logistic, naive = result.model("logistic"), result.model("naive_bayes")
    plot_bootstrap_distributions(
        {logistic.name: logistic.test_auc.distribution, naive.name: naive.test_auc.distribution},
        ax=auc_ax, xlabel="test AUC", title="Separately: AUC")
    plot_bootstrap_distributions(
        {logistic.name: logistic.test_brier.distribution, naive.name: naive.test_brier.distribution},
        ax=brier_ax, xlabel="test Brier score", title="Separately: Brier score")
    # Blue and orange stand for the two models in the other panels, so the
    # differences take the palette's other two colours.
    differences = (("AUC", result.auc_difference, GREEN), ("Brier score", result.brier_difference, VERMILION))
    low = min(d.distribution.min() for _, d, _ in differences)
    high = max(d.distribution.max() for _, d, _ in differences)
    edges = np.linspace(low, high, 61)
    for name, difference, colour in differences:
        interval = f"{difference.interval.low:+.4f} to {difference.interval.high:+.4f}"
        diff_ax.hist(difference.distribution, bins=edges, density=True, color=colour, alpha=0.45,
                     label=f"{name} difference, 95 % interval {interval}")
        diff_ax.hist(difference.distribution, bins=edges, density=True, histtype="step", color=colour,
                     linewidth=1.2)
        for bound in difference.interval:
            diff_ax.axvline(bound, color=colour, linewidth=1.0, linestyle="--")
    diff_ax.axvline(0.0, color="black", linewidth=1.2)
    finish(diff_ax, xlabel="logistic regression minus naive Bayes", ylabel="Density",
           title="Paired differences", legend=False)
    # One legend under the panels (the models left, the differences right):
    # the histograms fill the panels up to their tops.
    auc_ax.get_legend().remove()
    brier_ax.get_legend().remove()
    models, model_names = auc_ax.get_legend_handles_labels()
    pairs, pair_names = diff_ax.get_legend_handles_labels()
    fig.legend(models + pairs, model_names + pair_names, loc="outside lower center", ncol=2, frameon=False,
               fontsize=SMALL_TEXT)
    return fig
