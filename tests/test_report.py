"""Tests of evalmetrics.report: CSV reading, the report's numbers, DeLong, rendering, output.

The command line itself (exit codes, files, the demo) is tested in
tests/test_cli.py.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
from html.parser import HTMLParser

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn import metrics as skm

import evalmetrics as em
from evalmetrics.report import (
    Estimate,
    ReportError,
    build_report,
    dataset_from_arrays,
    read_dataset,
    render_html,
    render_markdown,
)
from evalmetrics.report.checks import FEW_CASES, HEAVY_TIES
from evalmetrics.report.commands import to_json
from evalmetrics.report.content import report_document, report_summary, text_table
from evalmetrics.report.document import Bullets, Document, Figure, Paragraph, Section, Table
from evalmetrics.report.figures import report_figures
from evalmetrics.report.progress import ProgressBar
from evalmetrics.worked_example import twelve_units

TOL = 1e-12


def tied_data(seed, n=240, decimals=1):
    """Labels 'yes'/'no' and two correlated score columns with heavy ties."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    a = np.round(1 / (1 + np.exp(-(1.4 * y - 0.6 + rng.normal(0, 1, n)))), decimals)
    b = np.round(1 / (1 + np.exp(-(0.9 * y - 0.5 + rng.normal(0, 1, n)))), decimals)
    labels = np.where(y, "yes", "no")
    return y, labels, a, b


def write_csv(path, header, rows):
    path.write_text("\n".join([",".join(header)] + [",".join(map(str, r)) for r in rows]) + "\n",
                    encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# DeLong in the report (the method itself is tested with evalmetrics.delong)
# ---------------------------------------------------------------------------

def brute_placements(y, s):
    """Placement values by explicit pairs (DeLong, DeLong and Clarke-Pearson 1988), ties one half."""
    pos, neg = s[y], s[~y]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(axis=1), psi.mean(axis=0)


def brute_covariance(y, a, b):
    (a10, a01), (b10, b01) = brute_placements(y, a), brute_placements(y, b)
    s10 = np.cov(np.stack([a10, b10]), ddof=1)
    s01 = np.cov(np.stack([a01, b01]), ddof=1)
    return s10 / len(a10) + s01 / len(a01)


@pytest.mark.parametrize("seed", range(3))
def test_report_delong_matches_brute_force_with_ties(seed):
    y, labels, a, b = tied_data(seed, n=150)
    report = build_report(dataset_from_arrays(labels, {"a": a, "b": b}, pos_label="yes"), resamples=20)
    covariance = brute_covariance(y, a, b)
    z = stats.norm.ppf(0.975)
    column = report.column("a")
    auc, se = skm.roc_auc_score(y, a), math.sqrt(covariance[0, 0])
    assert column.auc_delong.method == "DeLong, logit scale"
    assert abs(column.auc_delong.value - auc) <= TOL
    # The interval is built on the logit scale and mapped back (the delta method).
    logit, half = math.log(auc / (1 - auc)), z * se / (auc * (1 - auc))
    assert abs(column.auc_delong.low - 1 / (1 + math.exp(-(logit - half)))) <= TOL
    assert abs(column.auc_delong.high - 1 / (1 + math.exp(-(logit + half)))) <= TOL
    paired = next(d for d in report.differences if d.metric == "AUC")
    se = math.sqrt(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    difference = skm.roc_auc_score(y, a) - skm.roc_auc_score(y, b)
    assert abs(paired.delong.value - difference) <= TOL
    assert abs(paired.delong.low - (difference - z * se)) <= TOL
    assert abs(paired.p_value - 2 * stats.norm.sf(abs(difference) / se)) <= TOL


def test_report_delong_with_one_positive_is_undefined_but_silent(recwarn):
    y = np.zeros(20, dtype=int)
    y[3] = 1
    report = build_report(dataset_from_arrays(y, {"s": np.linspace(0, 1, 20)}), resamples=20)
    assert math.isnan(report.column("s").auc_delong.low)
    assert not [w for w in recwarn if issubclass(w.category, em.UndefinedMetricWarning)]
    assert "Only 1 positive row (" in report.warnings[0]


# ---------------------------------------------------------------------------
# reading CSV files
# ---------------------------------------------------------------------------

def test_read_dataset_canonical_numeric_labels(tmp_path):
    rows = [(f"{i % 2}.0", i / 20) for i in range(12)]
    data = read_dataset(write_csv(tmp_path / "d.csv", ("y", "p"), rows), label="y", scores=["p"])
    assert data.positive == "1" and data.negatives == ("0",)
    assert data.y_true.sum() == 6
    np.testing.assert_array_equal(data.score("p"), [i / 20 for i in range(12)])


def test_read_dataset_numeric_pos_label_matches_by_value(tmp_path):
    rows = [(("1.0", "2", "3")[i % 3], i / 20) for i in range(12)]
    data = read_dataset(write_csv(tmp_path / "d.csv", ("y", "p"), rows), label="y", scores=["p"], pos_label="1")
    assert data.positive == "1" and data.negatives == ("2", "3")
    assert data.y_true.sum() == 4


def test_read_dataset_true_false_labels(tmp_path):
    rows = [(("True", "False")[i % 2], i / 20) for i in range(12)]
    data = read_dataset(write_csv(tmp_path / "d.csv", ("y", "p"), rows), label="y", scores=["p"])
    assert data.positive == "True" and data.y_true.sum() == 6


def test_read_dataset_bom_semicolons_blank_lines_and_quotes(tmp_path):
    lines = ["\ufeffy;p;note"] + [f'{i % 2};{i / 20};"a; b"' for i in range(12)]
    lines.insert(5, "")
    path = tmp_path / "d.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = read_dataset(path, label="y", scores=["p"], delimiter=";")
    assert data.n_rows == 12 and data.label == "y"


def test_read_dataset_reports_the_physical_line(tmp_path):
    rows = [(i % 2, i / 20) for i in range(12)]
    rows[7] = (1, "oops")
    path = write_csv(tmp_path / "d.csv", ("y", "p"), rows)
    with pytest.raises(ReportError, match=r"line 9: score column 'p' has the non-numeric value 'oops'"):
        read_dataset(path, label="y", scores=["p"])


def test_read_dataset_suggests_a_close_column(tmp_path):
    path = write_csv(tmp_path / "d.csv", ("label", "score"), [(i % 2, i) for i in range(12)])
    with pytest.raises(ReportError, match="did you mean 'score'"):
        read_dataset(path, label="label", scores=["scroe"])


def test_read_dataset_refuses_a_column_named_twice(tmp_path):
    path = write_csv(tmp_path / "d.csv", ("y", "p"), [(i % 2, i) for i in range(12)])
    with pytest.raises(ReportError, match="named twice"):
        read_dataset(path, label="y", scores=["p", "p"])


def test_read_dataset_digest_names_the_bytes(tmp_path):
    import hashlib

    path = write_csv(tmp_path / "d.csv", ("y", "p"), [(i % 2, i) for i in range(12)])
    data = read_dataset(path, label="y", scores=["p"])
    assert data.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.floats(allow_nan=False, allow_infinity=False)), min_size=10,
                max_size=30).filter(lambda rows: 0 < sum(r[0] for r in rows) < len(rows)))
def test_csv_round_trip_is_exact(tmp_path_factory, rows):
    # repr() of a float reads back to the same float: nothing is lost between a model and the report.
    path = tmp_path_factory.mktemp("round-trip") / "d.csv"
    write_csv(path, ("y", "s"), [(int(label), repr(score)) for label, score in rows])
    data = read_dataset(path, label="y", scores=["s"])
    np.testing.assert_array_equal(data.y_true, [label for label, _ in rows])
    np.testing.assert_array_equal(data.score("s"), [score for _, score in rows])


def test_dataset_from_arrays_refuses_one_class():
    with pytest.raises(ReportError, match="single class"):
        dataset_from_arrays(np.ones(12), {"s": np.arange(12.0)})


# ---------------------------------------------------------------------------
# the report's numbers against scikit-learn and SciPy
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tied_report():
    y, labels, a, b = tied_data(11)
    data = dataset_from_arrays(labels, {"a": a, "b": b}, pos_label="yes")
    return y, a, b, build_report(data, threshold=0.4, resamples=300, seed=5)


def test_numbers_match_sklearn(tied_report):
    y, a, b, report = tied_report
    for name, s in (("a", a), ("b", b)):
        c = report.column(name)
        pred = s >= 0.4
        tn, fp, fn, tp = skm.confusion_matrix(y, pred).ravel()
        assert (c.counts.tp, c.counts.fp, c.counts.fn, c.counts.tn) == (tp, fp, fn, tn)
        for mine, theirs in (
            (c.accuracy.value, skm.accuracy_score(y, pred)),
            (c.precision.value, skm.precision_score(y, pred)),
            (c.recall.value, skm.recall_score(y, pred)),
            (c.specificity.value, skm.recall_score(y, pred, pos_label=False)),
            (c.f1.value, skm.f1_score(y, pred)),
            (c.balanced_accuracy.value, skm.balanced_accuracy_score(y, pred)),
            (c.mcc.value, skm.matthews_corrcoef(y, pred)),
            (c.auc.value, skm.roc_auc_score(y, s)),
            (c.auc_delong.value, skm.roc_auc_score(y, s)),
            (c.average_precision.value, skm.average_precision_score(y, s)),
            (c.brier.value, skm.brier_score_loss(y, s)),
        ):
            assert abs(mine - theirs) <= TOL


def test_ece_matches_sklearn_calibration_curve(tied_report):
    y, a, _, report = tied_report
    prob_true, prob_pred = __import__("sklearn.calibration", fromlist=["x"]).calibration_curve(y, a, n_bins=10)
    # calibration_curve drops empty bins without returning counts: count with its own binning rule.
    ids = np.searchsorted(np.linspace(0, 1, 11)[1:-1], a)
    counts = np.bincount(ids, minlength=10)
    counts = counts[counts > 0]
    expected = np.sum(counts * np.abs(prob_pred - prob_true)) / len(a)
    assert abs(report.column("a").ece - expected) <= TOL


def test_brier_decomposition_adds_up(tied_report):
    _, _, _, report = tied_report
    d = report.column("a").brier_decomposition
    binned = em.binned_brier_decomposition(*tied_report[:2], n_bins=10)
    assert d == binned
    assert abs(d.reliability - d.resolution + d.uncertainty + d.difference - report.column("a").brier.value) <= TOL


def test_proportions_get_wilson_intervals(tied_report):
    y, a, _, report = tied_report
    c = report.column("a")
    for estimate, (k, n) in ((c.accuracy, (c.counts.tp + c.counts.tn, c.counts.total)),
                             (c.precision, (c.counts.tp, c.counts.flagged)),
                             (c.recall, (c.counts.tp, c.counts.positives)),
                             (c.specificity, (c.counts.tn, c.counts.negatives))):
        low, high = stats.binomtest(int(k), int(n)).proportion_ci(method="wilson")
        assert estimate.method == "Wilson"
        assert abs(estimate.low - low) <= TOL and abs(estimate.high - high) <= TOL


def test_bootstrap_intervals_are_the_package_bootstrap(tied_report):
    y, a, b, report = tied_report
    c = report.column("a")
    options = dict(n_resamples=300, seed=5)
    for estimate, metric in ((c.auc, em.roc_auc), (c.average_precision, em.average_precision),
                             (c.brier, em.brier_score),
                             (c.mcc, lambda yy, ss: em.matthews_correlation(yy, ss >= 0.4))):
        expected = em.bootstrap_interval(metric, y, a, **options)
        assert estimate.method == "bootstrap"
        assert abs(estimate.low - expected.interval.low) <= TOL
        assert abs(estimate.high - expected.interval.high) <= TOL
    difference = next(d for d in report.differences if d.metric == "AUC")
    expected = em.bootstrap_difference(em.roc_auc, y, a, b, **options)
    assert abs(difference.bootstrap.low - expected.interval.low) <= TOL
    assert abs(difference.delong.value - (skm.roc_auc_score(y, a) - skm.roc_auc_score(y, b))) <= TOL


def test_group_bootstrap_resamples_groups():
    y, labels, a, b = tied_data(12)
    groups = np.repeat(np.arange(40), 6)
    data = dataset_from_arrays(labels, {"a": a}, pos_label="yes", groups=groups)
    report = build_report(data, resamples=200, seed=1)
    c = report.column("a")
    assert c.accuracy.method == "group bootstrap"
    expected = em.bootstrap_interval(em.roc_auc, y, a, n_resamples=200, seed=1, groups=groups.astype(str))
    assert abs(c.auc.low - expected.interval.low) <= TOL
    assert any("DeLong intervals assume independent rows" in w for w in report.warnings)


# ---------------------------------------------------------------------------
# thresholds, costs and warnings
# ---------------------------------------------------------------------------

def test_cost_threshold_on_validation_data():
    y, labels, a, _ = tied_data(13)
    yv, labels_v, av, _ = tied_data(14)
    data = dataset_from_arrays(labels, {"a": a}, pos_label="yes")
    validation = dataset_from_arrays(labels_v, {"a": av}, pos_label="yes")
    report = build_report(data, validation=validation, false_positive_cost=1, false_negative_cost=4,
                          resamples=50)
    c = report.column("a")
    best = em.best_threshold(yv, av, false_positive_cost=1, false_negative_cost=4)
    assert c.threshold == best.threshold and "validation" in c.threshold_rule
    assert not any("optimistic" in w for w in report.warnings)
    point = c.costs[0]
    assert point.cost == em.cost_at_threshold(y, a, best.threshold, false_positive_cost=1, false_negative_cost=4)
    bayes = next(p for p in c.costs if p.rule.startswith("Bayes"))
    assert bayes.threshold == pytest.approx(0.2, abs=1e-15)  # 1 / (1 + 4)


def test_cost_threshold_on_the_same_data_warns():
    _, labels, a, _ = tied_data(15)
    report = build_report(dataset_from_arrays(labels, {"a": a}, pos_label="yes"), false_negative_cost=5,
                          resamples=50)
    assert report.setup.false_positive_cost == 1.0  # the omitted cost defaults to 1
    assert any("optimistic" in w for w in report.warnings)


def test_scores_outside_the_unit_interval_skip_calibration():
    y, labels, a, _ = tied_data(16)
    logits = np.log(np.clip(a, 0.01, 0.99) / (1 - np.clip(a, 0.01, 0.99))) * 3
    report = build_report(dataset_from_arrays(labels, {"logit": logits}, pos_label="yes"), resamples=50)
    c = report.column("logit")
    assert c.brier is None and c.ece is None and not c.probabilities
    assert any("not probabilities" in w and "skipped" in w for w in report.warnings)
    assert any("default threshold 0.5" in w for w in report.warnings)
    assert [f.name for f in report_figures(report)] == ["curves.png"]


def test_warnings_for_few_positives_ties_hard_decisions_and_baseline():
    rng = np.random.default_rng(3)
    y = np.zeros(200, dtype=int)
    y[:12] = 1  # 12 positives, fewer than FEW_CASES
    hard = (rng.random(200) < 0.5).astype(float)
    tied = np.round(rng.random(200) * 0.3 + 0.1 * y, 1)
    report = build_report(dataset_from_arrays(y, {"hard": hard, "tied": tied}), resamples=50)
    text = " ".join(report.warnings)
    assert report.positives < FEW_CASES and "Only 12 positive rows" in text
    assert "'hard' has only 2 distinct value(s)" in text
    assert report.column("tied").tied_pairs >= HEAVY_TIES
    assert "pairs have the same score in 'tied'" in text
    assert "below the 0.9400 of always predicting the majority class" in text  # 188 / 200 negatives


def test_nothing_flagged_makes_precision_undefined():
    units = twelve_units()
    report = build_report(dataset_from_arrays(units.y_true, {"s": units.y_score}), threshold=2.0, resamples=50)
    c = report.column("s")
    assert c.counts.flagged == 0 and math.isnan(c.precision.value) and c.precision.method == "undefined"
    assert any("flags no row" in w for w in report.warnings)
    assert "undefined" in render_markdown(report_document(report, command="test"))


def test_progress_bar_reaches_its_total():
    units = twelve_units()
    data = dataset_from_arrays(units.y_true, {"a": units.y_score, "b": units.y_score[::-1]})
    stream = io.StringIO()
    bar = ProgressBar(20, stream=stream, enabled=True, interval=0)
    build_report(data, resamples=20, progress=bar)
    assert bar.done == bar.total == 20  # one step per resample, every number of both columns at once
    assert "] 100%" in stream.getvalue() and "bootstrap [" in stream.getvalue()


class Pipe(io.StringIO):
    def isatty(self):
        return False


def test_progress_bar_is_silent_off_a_terminal_for_a_short_run():
    stream = Pipe()
    with ProgressBar(10, stream=stream, interval=0) as bar:
        bar.describe("working")
        bar.update(10)
    assert stream.getvalue() == ""


def test_progress_bar_writes_plain_lines_off_a_terminal():
    stream = Pipe()
    with ProgressBar(4, stream=stream, interval=0, line_interval=0) as bar:
        bar.describe("bootstrap")
        bar.update(1)
        bar.update(3)
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines[0] == "progress: bootstrap 0% (0 of 4), 0 s"
    assert lines[1].startswith("progress: bootstrap 25% (1 of 4)")
    assert lines[-1].startswith("progress: bootstrap 100% (4 of 4)") and len(lines) == 3


def test_progress_bar_draws_on_a_terminal_and_erases_itself():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    with ProgressBar(4, stream=stream, width=4, interval=0) as bar:
        bar.update(1)
    assert "[#...]  25%" in stream.getvalue() and "s left" in stream.getvalue()
    assert stream.getvalue().endswith("\r")


# ---------------------------------------------------------------------------
# rendering and output
# ---------------------------------------------------------------------------

class _Resources(HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.sources += [value for name, value in attrs if name in ("src", "href")]


def test_html_is_self_contained_and_escaped():
    png = b"\x89PNG\r\n\x1a\nfake"
    doc = Document("Scores <x> & y", (("command", "`a | b`"),), (
        Section("S", (Paragraph("**bold** and `code <tag>`"), Table(("a|b", "c"), (("1", "<2>"),), ("l", "r")),
                      Bullets(("careful",), warning=True), Figure("f.png", "A figure", png))),))
    page = render_html(doc)
    parser = _Resources()
    parser.feed(page)
    assert parser.sources == ["data:image/png;base64," + base64.b64encode(png).decode()]
    assert "script" not in parser.tags and "link" not in parser.tags
    assert "<h1>Scores &lt;x&gt; &amp; y</h1>" in page
    assert "<strong>bold</strong> and <code>code &lt;tag&gt;</code>" in page
    markdown = render_markdown(doc)
    assert "| a\\|b | c |" in markdown and "![A figure](f.png)" in markdown
    assert "- **Warning:** careful" in markdown


def test_report_document_shows_the_numbers(tied_report):
    _, _, _, report = tied_report
    markdown = render_markdown(report_document(report, command="evalmetrics report x.csv"))
    c = report.column("b")
    for value in (c.auc.value, c.average_precision.value, c.brier.value, c.mcc.value, c.ece):
        assert f"{value:.4f}" in markdown
    assert f"{c.auc_delong.low:.4f} to {c.auc_delong.high:.4f}" in markdown
    summary = report_summary(report)
    assert f"{c.auc.value:.4f} ({c.auc.low:.4f} to {c.auc.high:.4f})" in summary


def test_text_table_aligns_columns():
    assert text_table(("x", "value"), [("long name", "1.5")], "lr").splitlines() == [
        "x          value", "long name    1.5"]


def test_to_json_keeps_numbers_and_drops_arrays(tied_report):
    _, _, _, report = tied_report
    numbers = json.loads(to_json(report))
    assert numbers["columns"][0]["auc"]["value"] == report.columns[0].auc.value
    assert "data" not in numbers
    assert json.loads(to_json(Estimate(math.nan, 0.0, math.inf, "x"))) == {
        "value": None, "low": 0.0, "high": "inf", "method": "x"}


def test_png_figures_are_pngs(tied_report):
    _, _, _, report = tied_report
    figures = report_figures(report)
    assert [f.name for f in figures] == ["curves.png", "reliability.png"]
    assert all(f.png.startswith(b"\x89PNG\r\n\x1a\n") for f in figures)


def readable_figures(monkeypatch):
    """The layout faults of every figure the report saves from now on, by figure name."""
    from evalmetrics.handbook import screening_report
    from evalmetrics.plotting._layout import layout_faults
    from evalmetrics.report import figures as report_figures_module

    found = []
    save = report_figures_module.figure_png

    def checked(fig):
        found.append([str(fault) for fault in layout_faults(fig)])
        return save(fig)

    monkeypatch.setattr(report_figures_module, "figure_png", checked)
    # The screening demo (the book's companion) saves its figures through the same function.
    monkeypatch.setattr(screening_report, "figure_png", checked)
    return found


def test_report_figures_are_readable(tied_report, monkeypatch):
    # Every figure of a report as the command line draws it (matplotlib's own style,
    # not the handbook's): no text on data or on text, no bar left undrawn.
    found = readable_figures(monkeypatch)
    units = twelve_units()
    small = build_report(dataset_from_arrays(units.y_true, {"model": units.y_score}), resamples=50,
                         false_negative_cost=10)
    _, labels, a, b = tied_data(21)
    costly = build_report(dataset_from_arrays(labels, {"a": a, "b": b}, pos_label="yes"), resamples=50,
                          false_negative_cost=5)
    names = [f.name for report in (tied_report[3], small, costly) for f in report_figures(report)]
    assert names.count("costs.png") == 2 and len(found) == len(names) == 8
    assert found == [[]] * len(names), dict(zip(names, found))


def test_demo_figures_are_readable(monkeypatch):
    from evalmetrics.handbook import run_screening
    from evalmetrics.handbook.screening_report import demo_figures

    found = readable_figures(monkeypatch)
    assert len(demo_figures(run_screening(resamples=20))) == len(found) == 3
    assert found == [[]] * 3, found


def test_module_sizes_stay_small():
    # House rule: modules under ~400 lines.
    import pathlib

    folder = pathlib.Path(em.__file__).parent / "report"
    sizes = {p.name: len(p.read_text().splitlines()) for p in folder.glob("*.py")}
    assert max(sizes.values()) <= 400, sizes


def test_every_report_function_has_an_example():
    import inspect

    import evalmetrics.report as report_package

    missing = [name for name in report_package.__all__
               if inspect.isfunction(getattr(report_package, name))
               and "Examples" not in (inspect.getdoc(getattr(report_package, name)) or "")]
    assert missing == []
    assert re.search(r">>> ", report_package.__doc__)
