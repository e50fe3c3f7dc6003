"""The screening project as a report: ``evalmetrics report --demo breast-cancer``.

:func:`breast_cancer_report` runs :func:`~evalmetrics.handbook.run_screening`
and renders it, nothing recomputed: every number is read from the
:class:`~evalmetrics.handbook.ScreeningResult` that the handbook's "In
practice" chapter glues into its text, so the command line and the book
cannot disagree, and the three figures are the chapter's own plotting
functions.

The library never imports this module.  It is registered as the demo
``breast-cancer`` in the entry-point group ``evalmetrics.report_demos``
(``pyproject.toml``), the public hook through which
:func:`evalmetrics.report.demo_report` finds a demo; it uses only public
names of the library (``tests/test_layers.py`` checks both).
"""

from __future__ import annotations

from ..report.commands import check_targets, to_json, write_report
from ..report.content import provenance, text_table
from ..report.data import ReportError
from ..report.document import Bullets, Document, Figure, Paragraph, Section, Table
from ..report.figures import figure_png, matplotlib_available
from ..report.progress import ProgressBar
from .plotting.studies import plot_screening_bootstrap, plot_screening_costs, plot_screening_reliability
from .screening import run_screening

__all__ = ["breast_cancer_report", "demo_document", "demo_figures", "demo_summary"]

_RULES = {"default": "default 0.5", "chosen": "chosen on the development set", "bayes": "Bayes cFP / (cFP + cFN)"}


def _interval(boot, spec=".4f"):
    low, high = boot.interval
    return f"{format(low, spec)} to {format(high, spec)}"


def _pm(boot, spec=".4f"):
    return f"{format(boot.estimate, spec)} ({_interval(boot, spec)})"


def _setup_line(result):
    return (f"seed {result.seed}, {result.folds} folds, penalty {result.penalty:g}, cost of a false alarm "
            f"{result.false_positive_cost:g}, of a missed malignant tumour {result.false_negative_cost:g}, "
            f"{result.resamples} bootstrap resamples")


def _development_rows(result):
    fields = ("accuracy", "precision", "recall", "f1", "mcc", "auc", "average_precision", "brier", "ece")
    return [(m.name,) + tuple(f"{getattr(m.development, f):.4f}" for f in fields) for m in result.models]


_DEVELOPMENT_HEADER = ("model", "accuracy", "precision", "recall", "F1", "MCC", "AUC", "AP", "Brier", "ECE")


def _cost(point):
    return f"{point.cost:g} (FN {point.missed}, FP {point.false_alarms})"


def demo_summary(result, *, written=None):
    """The first screen of the demo: setup, out-of-fold metrics, test costs and intervals.

    Parameters
    ----------
    result : ScreeningResult
    written : str, optional
        A last line saying where the files went.

    Returns
    -------
    str

    Examples
    --------
    >>> from evalmetrics.handbook import run_screening
    >>> print(demo_summary(run_screening(resamples=20)).splitlines()[2])
    seed 0, 5 folds, penalty 1, cost of a false alarm 1, of a missed malignant tumour 20, 20 bootstrap resamples
    """
    logistic, naive = result.models[0], result.models[1]
    lines = [
        "Breast-cancer screening (the handbook's In practice chapter)",
        f"{result.n_tumours} tumours, {result.n_features} features, {result.n_malignant} malignant "
        f"({100 * result.prevalence:.1f} %); test set locked first: {result.n_test} tumours, "
        f"{result.n_test_malignant} malignant",
        _setup_line(result),
        "",
        f"Out of fold on the {result.n_development} development tumours, threshold 0.5",
        text_table(_DEVELOPMENT_HEADER, _development_rows(result), "l" + "r" * 9),
        "",
        f"Test cost of each threshold (Bayes threshold {result.bayes_threshold:.4f})",
        text_table(("model", "default 0.5", "chosen on development", "Bayes"),
                   [(m.name, _cost(m.point("default")),
                     f"{m.chosen_threshold:.4g}: {_cost(m.point('chosen'))}", _cost(m.point("bayes")))
                    for m in result.models], "lrrr"),
        "",
        "Test set, 95 % percentile bootstrap intervals",
        text_table(("model", "AUC", "AP", "Brier score"),
                   [(m.name, _pm(m.test_auc), _pm(m.test_average_precision), _pm(m.test_brier))
                    for m in result.models], "lrrr"),
        "",
        f"Paired bootstrap, {logistic.name} minus {naive.name}:",
        f"  AUC {_pm(result.auc_difference, '+.4f')}, Brier score {_pm(result.brier_difference, '+.4f')}",
    ]
    if written:
        lines += ["", written]
    return "\n".join(lines)


def demo_figures(result):
    """The three figures of the screening run, as :class:`Figure` blocks.

    Parameters
    ----------
    result : ScreeningResult

    Returns
    -------
    list of Figure

    Examples
    --------
    >>> from evalmetrics.handbook import run_screening
    >>> [figure.name for figure in demo_figures(run_screening(resamples=20))]
    ['screening-reliability.png', 'screening-costs.png', 'screening-bootstrap.png']
    """
    return [
        Figure("screening-reliability.png", "Reliability diagrams of the out-of-fold probabilities on the "
               "development set, with the tumours per bin below.",
               figure_png(plot_screening_reliability(result, which="development"))),
        Figure("screening-costs.png", "Total cost on the development set against the threshold; vertical lines "
               "mark the chosen threshold, the Bayes threshold and the default 0.5.",
               figure_png(plot_screening_costs(result))),
        Figure("screening-bootstrap.png", "Bootstrap distributions of the test AUC and Brier score, separately "
               "and paired (logistic regression minus naive Bayes).",
               figure_png(plot_screening_bootstrap(result))),
    ]


def demo_document(result, *, command, figures=()):
    """The screening demo as a :class:`Document`.

    Parameters
    ----------
    result : ScreeningResult
    command : str
    figures : sequence of Figure

    Returns
    -------
    Document

    Examples
    --------
    >>> from evalmetrics.handbook import run_screening
    >>> document = demo_document(run_screening(resamples=20), command="(doctest)")
    >>> [section.title for section in document.sections][-3:]
    ['Thresholds and test costs', 'Test set', 'Paired differences']
    """
    facts = provenance(command) + (
        ("data", "Breast Cancer Wisconsin (Diagnostic), W. Wolberg, W. Street and O. Mangasarian, UCI Machine "
                 f"Learning Repository, CC BY 4.0, shipped with scikit-learn: {result.n_tumours} tumours, "
                 f"{result.n_features} features"),
        ("positive class", f"malignant: {result.n_malignant} ({100 * result.prevalence:.1f} %)"),
        ("setup", _setup_line(result)),
        ("intervals", "95 % percentile bootstrap of the test tumours; paired bootstrap for the differences"),
    )
    protocol = Bullets((
        f"**Test set locked first**: the first fold of a shuffled, stratified four-fold split, {result.n_test} "
        f"tumours ({result.n_test_malignant} malignant).",
        f"**Development set**, {result.n_development} tumours: stratified {result.folds}-fold cross-validation "
        "gives out-of-fold probabilities of logistic regression, Gaussian naive Bayes, and naive Bayes with "
        "Platt scaling fitted on inner three-fold scores.",
        "**Every choice on those probabilities**, the threshold included: the one with the smallest total cost.",
        "**Refit on the whole development set and score the test set once**, with bootstrap intervals and a "
        "paired comparison.",
    ))
    test_rows = [(m.name, _pm(m.test_auc), _pm(m.test_average_precision), _pm(m.test_brier)) for m in result.models]
    cost_rows = []
    for m in result.models:
        for point in m.operating_points:
            cost_rows.append((m.name, _RULES[point.rule], f"{point.threshold:.4g}", str(point.missed),
                              str(point.false_alarms), f"{point.cost:g}"))
    decomposition_rows = [(m.name,) + tuple(format(x, ".4f") for x in (
        m.binned_brier_decomposition.brier_score, m.binned_brier_decomposition.reliability,
        m.binned_brier_decomposition.resolution, m.binned_brier_decomposition.uncertainty))
        + (format(m.binned_brier_decomposition.difference, "+.4f"),) for m in result.models]
    logistic, naive = result.models[0], result.models[1]
    difference_rows = [(f"{logistic.name} - {naive.name}", name, f"{d.estimate:+.4f}",
                        _interval(d, "+.4f"))
                       for name, d in (("AUC", result.auc_difference), ("Brier score", result.brier_difference))]
    sections = [
        Section("Protocol", (protocol,)),
        Section("Out-of-fold metrics on the development set", (
            Paragraph("Decisions at threshold 0.5 (accuracy to MCC), the ranking (AUC, AP) and the probabilities "
                      "(Brier score, ECE with ten uniform bins)."),
            Table(_DEVELOPMENT_HEADER, tuple(_development_rows(result)), ("l",) + ("r",) * 9))),
        Section("Thresholds and test costs", (
            Paragraph(f"A missed malignant tumour costs {result.false_negative_cost:g}, a false alarm "
                      f"{result.false_positive_cost:g}; the Bayes threshold is {result.bayes_threshold:.4f}."),
            Table(("model", "rule", "threshold", "missed (FN)", "false alarms (FP)", "test cost"),
                  tuple(cost_rows), ("l", "l", "r", "r", "r", "r")))),
        Section("Test set", (
            Table(("model", "AUC", "AP", "Brier score"), tuple(test_rows), ("l", "r", "r", "r"),
                  caption=f"95 % percentile intervals from {result.resamples} bootstrap resamples"),
            Table(("model", "Brier score", "reliability", "resolution", "uncertainty", "within bins"),
                  tuple(decomposition_rows), ("l", "r", "r", "r", "r", "r"),
                  caption="Brier score = reliability - resolution + uncertainty + within bins (ten uniform bins)"),
        )),
        Section("Paired differences", (
            Paragraph("The same resampled test tumours score both models in every replicate, which keeps the "
                      "correlation between their errors."),
            Table(("difference", "metric", "value", "95 % interval"), tuple(difference_rows),
                  ("l", "l", "r", "r")))),
    ]
    if figures:
        sections.append(Section("Figures", tuple(figures)))
    return Document("Screening report: breast cancer (demo)", facts, tuple(sections),
                    "The handbook's screening project, from the command line.")


def breast_cancer_report(*, command, out, figures_dir=None, progress=True, seed=0, folds=5, penalty=1.0,
                         false_positive_cost=1.0, false_negative_cost=20.0, resamples=2000):
    """Run the handbook's screening project and write its report (the demo ``breast-cancer``).

    Parameters
    ----------
    command, out, figures_dir, progress
        As in :func:`evalmetrics.report.demo_report`, which calls this function.
    seed, folds, penalty, false_positive_cost, false_negative_cost, resamples
        As in :func:`evalmetrics.handbook.run_screening`.

    Returns
    -------
    str
        The text to print.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     text = breast_cancer_report(command="(doctest)", out=folder, resamples=20, progress=False)
    >>> print(text.splitlines()[1])
    569 tumours, 30 features, 212 malignant (37.3 %); test set locked first: 143 tumours, 53 malignant
    """
    existed = check_targets(out, figures_dir)
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise ReportError("the breast-cancer demo needs scikit-learn for its data: "
                          "pip install 'evalmetrics[ml]'") from None
    steps = 11  # the messages run_screening sends: data, 3 per model, the paired bootstrap
    bar = ProgressBar(steps + 1) if progress else None

    def say(message):
        if bar is not None:
            bar.describe(message)
            bar.update(1)

    try:
        result = run_screening(seed=seed, folds=folds, penalty=penalty, false_positive_cost=false_positive_cost,
                               false_negative_cost=false_negative_cost, resamples=resamples, progress=say)
        say("figures")
        figures = demo_figures(result) if matplotlib_available() else []
    finally:
        if bar is not None:
            bar.close()
    document = demo_document(result, command=command, figures=figures)
    return demo_summary(result, written=write_report(document, to_json(result), out=out, figures_dir=figures_dir,
                                                     existed=existed))
