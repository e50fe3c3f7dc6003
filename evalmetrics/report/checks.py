"""Plain-language warnings about a report's data and numbers.

Each check looks for one way an evaluation misleads a reader who only sees
the headline numbers -- too few positives, scores that are not
probabilities, heavy ties, accuracy below the do-nothing baseline, a
threshold chosen on the evaluated data -- and says what it means in one or
two sentences.  The limits are conventions, named here once.
"""

from __future__ import annotations

__all__ = ["FEW_CASES", "FEW_GROUPS", "HEAVY_TIES", "report_warnings"]

#: Fewer positives (or negatives) than this and every interval is wide.
FEW_CASES = 30
#: Fewer groups than this and a group bootstrap has too few units to resample.
FEW_GROUPS = 10
#: Share of (positive, negative) pairs with tied scores from which ties matter: breaking
#: them one way or the other could move the AUC by half of it, here 0.025.
HEAVY_TIES = 0.05


def _rows(count, kind):
    return f"{count} {kind} row" + ("" if count == 1 else "s")


def _data_warnings(report):
    data = report.data
    out = []
    if report.positives < FEW_CASES:
        out.append(f"Only {_rows(report.positives, 'positive')} ({data.label} = {data.positive!r}): every interval "
                   "is wide, and the AUC and average precision rest on few cases.")
    if report.negatives < FEW_CASES:
        out.append(f"Only {_rows(report.negatives, 'negative')}: every interval is wide, and the specificity "
                   "and the AUC rest on few cases.")
    if report.n_groups is not None:
        if report.n_groups < FEW_GROUPS:
            out.append(f"Only {report.n_groups} groups in {data.group!r}: the bootstrap resamples whole "
                       "groups, and with so few its intervals are rough.")
        out.append("The DeLong intervals assume independent rows; these rows come in groups, so trust "
                   "the group-bootstrap intervals instead.")
    return out


def _column_warnings(report, column):
    setup = report.setup
    name, t = column.name, column.threshold
    out = []
    if not column.probabilities:
        out.append(f"The scores of {name!r} run from {column.minimum:g} to {column.maximum:g}, outside [0, 1], "
                   "so they are not probabilities: the calibration section (Brier score, reliability "
                   "diagram, ECE) is skipped for this column.")
        if column.threshold_rule.startswith("default"):
            out.append(f"{name!r} was cut at the default threshold 0.5, which means nothing for scores "
                       "that are not probabilities; pass --threshold, or the two costs.")
    if column.n_distinct <= 2:
        out.append(f"{name!r} has only {column.n_distinct} distinct value(s): these look like hard decisions, "
                   "not scores. Its ROC curve has a single operating point, so its AUC is just the "
                   "balanced accuracy of that point.")
    elif column.tied_pairs >= HEAVY_TIES:
        out.append(f"{100 * column.tied_pairs:.1f} % of the (positive, negative) pairs have the same score in "
                   f"{name!r}: "
                   "no threshold can separate them, the ROC curve crosses them diagonally, and the AUC counts "
                   f"each as one half, so breaking the ties could move it by up to {column.tied_pairs / 2:.4f}.")
    if column.counts.flagged == 0:
        out.append(f"At threshold {t:.4g}, {name!r} flags no row: precision is undefined and recall is 0.")
    elif column.counts.unflagged == 0:
        out.append(f"At threshold {t:.4g}, {name!r} flags every row: specificity is 0.")
    if column.accuracy.value < report.baseline_accuracy:
        out.append(f"At threshold {t:.4g}, {name!r} has accuracy {column.accuracy.value:.4f}, below the "
                   f"{report.baseline_accuracy:.4f} of always predicting the majority class "
                   f"({report.majority!r}). Accuracy rewards doing nothing when one class dominates; "
                   "read the balanced accuracy and the MCC.")
    if column.skipped:
        out.append(f"{column.skipped} of {setup.resamples} bootstrap resamples of {name!r} lacked a class or "
                   "flagged nothing, and were left out of its intervals.")
    return out


def report_warnings(report):
    """The warnings of a :class:`~evalmetrics.report.Report`, one sentence or two each.

    Parameters
    ----------
    report : Report

    Returns
    -------
    list of str

    Examples
    --------
    >>> from evalmetrics.report import build_report, dataset_from_arrays
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> report = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=50)
    >>> report_warnings(report)[0]
    "Only 4 positive rows (y_true = '1'): every interval is wide, and the AUC and average precision rest on few cases."
    """
    out = _data_warnings(report)
    for column in report.columns:
        out.extend(_column_warnings(report, column))
    if any("optimistic" in column.threshold_rule for column in report.columns):
        out.append("The threshold of each score column was chosen to minimize the cost on the very rows it "
                   "is evaluated on, so the costs and the metrics at the threshold are optimistic; pass "
                   "--validation with other data to choose it there.")
    return out
