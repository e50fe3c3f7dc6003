"""What a CSV report says, in what order: :class:`Report` to :class:`Document` and terminal text.

The warnings come first, straight after the facts of how the report was
made, because they change how every number below them should be read.
"""

from __future__ import annotations

import math
import platform
import textwrap
from datetime import datetime, timezone

import numpy as np

from .document import Bullets, Document, Paragraph, Section, Table

__all__ = ["format_interval", "format_value", "provenance", "report_document", "report_summary", "text_table"]


def format_value(x, spec=".4f"):
    """A number for the report: "undefined" for NaN.

    Examples
    --------
    >>> format_value(0.796875), format_value(float("nan"))
    ('0.7969', 'undefined')
    """
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "undefined"
    return format(x, spec)


def format_interval(estimate, spec=".4f"):
    """``"low to high"`` of an :class:`~evalmetrics.report.Estimate`.

    Examples
    --------
    >>> from evalmetrics.report import Estimate
    >>> format_interval(Estimate(0.8, 0.61234, 0.9, "Wilson"))
    '0.6123 to 0.9000'
    """
    if math.isnan(estimate.low):
        return "undefined"
    return f"{format(estimate.low, spec)} to {format(estimate.high, spec)}"


def _with_interval(estimate, spec=".4f"):
    if estimate is None:
        return "-"
    if math.isnan(estimate.value):
        return "undefined"
    return f"{format(estimate.value, spec)} ({format_interval(estimate, spec)})"


def _percent(share, spec="g"):
    """0.95 as "95 %", the handbook's spelling."""
    return f"{format(100 * share, spec)} %"


def _threshold(t):
    return "inf (flags nothing)" if math.isinf(t) else format(t, ".4g")


def provenance(command):
    """The facts every report starts with: the command, the version, the time.

    Examples
    --------
    >>> [name for name, _ in provenance("evalmetrics report --demo breast-cancer")]
    ['command', 'produced by']
    """
    from .. import __version__

    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (("command", f"`{command}`"),
            ("produced by", f"evalmetrics {__version__} on {when} (Python {platform.python_version()}, "
                            f"NumPy {np.__version__})"))


def _facts(report, command):
    data, setup = report.data, report.setup
    negatives = (f"{data.negatives[0]!r}" if len(data.negatives) == 1
                 else "all other values: " + ", ".join(repr(v) for v in data.negatives))
    if setup.threshold is not None:
        threshold = f"{setup.threshold:g}, given with --threshold"
    elif setup.costs and setup.validation is not None:
        threshold = (f"chosen per column to minimize the total cost on the validation data `{setup.validation}` "
                     f"({setup.validation_rows} rows)")
    elif setup.costs:
        threshold = "chosen per column to minimize the total cost on these same rows (optimistic)"
    else:
        threshold = "0.5, the default"
    resampled = "whole groups" if data.groups is not None else "rows"
    facts = list(provenance(command)) + [
        ("data", f"`{data.path}`: {data.n_rows} rows" + (f", SHA-256 {data.sha256[:16]}..." if data.sha256 else "")),
        ("label", f"column `{data.label}`: positive {data.positive!r}, negative {negatives}"),
        ("score columns", ", ".join(f"`{name}`" for name in data.score_names)),
        ("groups", f"column `{data.group}`, {report.n_groups} groups" if data.group
         else "none: rows treated as independent"),
        ("threshold", f"{threshold}; a row is flagged when its score is at least the threshold"),
        ("costs", f"false positive {setup.false_positive_cost:g}, false negative {setup.false_negative_cost:g}"
         if setup.costs else "not given"),
        ("intervals", f"{_percent(setup.confidence)}: Wilson for proportions" +
         (" (replaced by the group bootstrap)" if data.groups is not None else "") +
         f", percentile bootstrap of {resampled} otherwise ({setup.resamples} resamples, seed {setup.seed}), "
         "DeLong on the logit scale for the AUC"),
        ("calibration", f"ECE and the Brier score's decomposition over {setup.n_bins} uniform bins"),
    ]
    return tuple(facts)


def _data_section(report):
    rows = [("rows", str(report.n)),
            ("positive", f"{report.positives} ({_percent(report.prevalence, '.2f')})"),
            ("negative", f"{report.negatives} ({_percent(1 - report.prevalence, '.2f')})"),
            ("majority-class baseline",
             f"accuracy {report.baseline_accuracy:.4f}, always predicting {report.majority!r}")]
    if report.n_groups is not None:
        rows.append(("groups", str(report.n_groups)))
    return Section("Data", (
        Table(("quantity", "value"), tuple(rows), ("l", "r")),
        Paragraph(f"The prevalence {report.prevalence:.4f} is the precision of flagging at random, and "
                  f"{report.baseline_accuracy:.4f} the accuracy of a model that always predicts the majority "
                  "class: the two numbers to beat."),
    ))


def _summary_section(report):
    header = ("score column", "threshold", "accuracy", "balanced accuracy", "F1", "MCC", "AUC", "AP", "Brier")
    rows = []
    for c in report.columns:
        rows.append((f"`{c.name}`", _threshold(c.threshold)) + tuple(
            format_value(e.value) for e in (c.accuracy, c.balanced_accuracy, c.f1, c.mcc, c.auc,
                                            c.average_precision))
            + (format_value(c.brier.value) if c.brier else "-",))
    return Section("Summary", (Table(header, tuple(rows), ("l",) + ("r",) * 8),))


def _metric_rows(estimates):
    return tuple((name, format_value(e.value), format_interval(e), e.method) for name, e in estimates)


def _column_section(report, c):
    counts = c.counts
    blocks = [
        Paragraph(f"Scores from {c.minimum:g} to {c.maximum:g}, {c.n_distinct} distinct values. Operating "
                  f"threshold **{_threshold(c.threshold)}**: {c.threshold_rule}."),
        Table(("", "predicted negative", "predicted positive", "total"),
              (("actual negative", f"TN {counts.tn}", f"FP {counts.fp}", str(counts.negatives)),
               ("actual positive", f"FN {counts.fn}", f"TP {counts.tp}", str(counts.positives)),
               ("total", str(counts.unflagged), str(counts.flagged), str(counts.total))),
              ("l", "r", "r", "r"), caption="Confusion matrix at the operating threshold"),
        Table(("metric", "value", f"{_percent(report.setup.confidence)} interval", "method"), _metric_rows(
            (("accuracy", c.accuracy), ("precision", c.precision), ("recall (sensitivity)", c.recall),
             ("specificity", c.specificity), ("F1", c.f1), ("balanced accuracy", c.balanced_accuracy),
             ("MCC", c.mcc))), ("l", "r", "r", "l"), caption="At the operating threshold"),
        Table(("metric", "value", f"{_percent(report.setup.confidence)} interval", "method"), _metric_rows(
            (("ROC AUC", c.auc), ("ROC AUC", c.auc_delong), ("average precision", c.average_precision))),
            ("l", "r", "r", "l"),
            caption=f"Ranking (chance: AUC 0.5, average precision {report.prevalence:.4f})"),
    ]
    if c.brier is not None:
        d = c.brier_decomposition
        blocks.append(Table(("measure", "value", f"{_percent(report.setup.confidence)} interval", "note"), (
            ("Brier score", format_value(c.brier.value), format_interval(c.brier), c.brier.method),
            ("reliability", format_value(d.reliability), "", "calibration error of the bins, 0 is perfect"),
            ("resolution", format_value(d.resolution), "", "separation of the bins' outcome rates, larger is better"),
            ("uncertainty", format_value(d.uncertainty), "", "Brier score of always forecasting the prevalence"),
            ("within bins", format_value(d.difference, "+.4f"), "", "what binning the forecasts hides"),
            (f"ECE ({report.setup.n_bins} bins)", format_value(c.ece), "", "mean gap of the reliability diagram"),
        ), ("l", "r", "r", "l"),
            caption=f"Probabilities: Brier score = reliability - resolution + uncertainty + within bins "
                    f"({report.setup.n_bins} uniform bins)"))
    else:
        blocks.append(Paragraph("Calibration is not evaluated: these scores are not probabilities."))
    if c.costs:
        blocks.append(Table(("rule", "threshold", "false positives", "false negatives", "total cost"), tuple(
            (p.rule, _threshold(p.threshold), str(p.counts.fp), str(p.counts.fn), format(p.cost, "g"))
            for p in c.costs), ("l", "r", "r", "r", "r"), caption="Costs"))
    return Section(f"Score column `{c.name}`", tuple(blocks))


def _differences_section(report):
    rows = []
    for d in report.differences:
        pair = f"`{d.first}` - `{d.second}`"
        rows.append((pair, d.metric, format_value(d.bootstrap.value, "+.4f"), format_interval(d.bootstrap, "+.4f"),
                     d.bootstrap.method, ""))
        if d.delong is not None:
            rows.append((pair, d.metric, format_value(d.delong.value, "+.4f"), format_interval(d.delong, "+.4f"),
                         d.delong.method, format_value(d.p_value, ".4g")))
    return Section("Paired differences", (
        Paragraph("Both columns are scored on the same resampled rows, which keeps the correlation between "
                  "their errors; an interval that excludes 0 separates the two, an interval around 0 does not."),
        Table(("difference", "metric", "value", f"{_percent(report.setup.confidence)} interval", "method", "p-value"),
              tuple(rows), ("l", "l", "r", "r", "l", "r")),
    ))


def report_document(report, *, command, figures=()):
    """The :class:`Document` of a CSV report.

    Parameters
    ----------
    report : Report
    command : str
        The command line that produced it.
    figures : sequence of Figure

    Returns
    -------
    Document

    Examples
    --------
    >>> from evalmetrics.report import build_report, dataset_from_arrays
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> report = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=50)
    >>> [s.title for s in report_document(report, command="(doctest)").sections]
    ['Warnings', 'Data', 'Summary', 'Score column `model`']
    """
    sections = []
    if report.warnings:
        sections.append(Section("Warnings", (Bullets(report.warnings, warning=True),)))
    sections += [_data_section(report), _summary_section(report)]
    sections += [_column_section(report, c) for c in report.columns]
    if report.differences:
        sections.append(_differences_section(report))
    if figures:
        sections.append(Section("Figures", tuple(figures)))
    data = report.data
    intro = (f"{len(data.score_names)} score column(s) of `{data.path}` evaluated against the labels in "
             f"`{data.label}` (positive class {data.positive!r}).")
    return Document(f"Evaluation report: {data.path}", _facts(report, command), tuple(sections), intro)


def text_table(header, rows, align=None):
    """Rows of strings as aligned plain-text columns.

    Examples
    --------
    >>> print(text_table(("a", "bb"), [("1", "2"), ("333", "4")], align="lr"))
    a    bb
    1     2
    333   4
    """
    align = align or "l" * len(header)
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    lines = []
    for row in (header, *rows):
        cells = [str(x).rjust(w) if a == "r" else str(x).ljust(w) for x, w, a in zip(row, widths, align)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def report_summary(report, *, written=None):
    """The first screen of a CSV report, for the terminal.

    Parameters
    ----------
    report : Report
    written : str, optional
        A last line saying where the files went.

    Returns
    -------
    str

    Examples
    --------
    >>> from evalmetrics.report import build_report, dataset_from_arrays
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> report = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=50)
    >>> print(report_summary(report).splitlines()[0])
    arrays: 12 rows, 4 positive (y_true = '1'), prevalence 0.3333, majority-class accuracy 0.6667
    """
    data, setup = report.data, report.setup
    lines = [f"{data.path}: {report.n} rows, {report.positives} positive ({data.label} = {data.positive!r}), "
             f"prevalence {report.prevalence:.4f}, majority-class accuracy {report.baseline_accuracy:.4f}"]
    if report.n_groups is not None:
        lines.append(f"{report.n_groups} groups in {data.group!r}: intervals from the bootstrap of whole groups")
    lines.append(f"{_percent(setup.confidence)} intervals, {setup.resamples} bootstrap resamples, seed {setup.seed}")
    lines.append("")
    lines.append(text_table(
        ("column", "threshold", "TP", "FP", "FN", "TN", "precision", "recall", "F1", "MCC"),
        [(c.name, _threshold(c.threshold), c.counts.tp, c.counts.fp, c.counts.fn, c.counts.tn,
          format_value(c.precision.value), format_value(c.recall.value), format_value(c.f1.value),
          format_value(c.mcc.value)) for c in report.columns], "lrrrrrrrrr"))
    lines.append("")
    lines.append(text_table(
        ("column", "AUC", "AP", "Brier"),
        [(c.name, _with_interval(c.auc), _with_interval(c.average_precision), _with_interval(c.brier))
         for c in report.columns], "lrrr"))
    if report.differences:
        lines.append("")
        lines.append(text_table(
            ("difference", "metric", "value (interval)"),
            [(f"{d.first} - {d.second}", d.metric, _with_interval(d.bootstrap, "+.4f"))
             for d in report.differences], "llr"))
    if report.warnings:
        lines.append("")
        for warning in report.warnings:
            lines.append(textwrap.fill(warning, width=100, initial_indent="! ", subsequent_indent="  ",
                                       break_on_hyphens=False))
    if written:
        lines += ["", written]
    return "\n".join(lines)
