"""Tests of the command line ``evalmetrics report`` (evalmetrics/__main__.py).

* Bad input: one test per case -- exit status 2, a one-line message on
  stderr naming the problem, and no report folder (nor a temporary one)
  left behind.
* The CSV path end to end on a generated file: the numbers in report.json
  and report.md against scikit-learn's, and the files themselves.
* The demo: its numbers are those of ``run_screening``, the function the
  book's screening page glues from.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from sklearn import calibration as skc
from sklearn import metrics as skm

import evalmetrics as em
from evalmetrics.report.output import MARKER
from helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
TOL = 1e-12


def generated(seed=0, n=300, n_groups=30):
    """Labels 'malignant'/'benign', two probability columns with ties, and groups of rows."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, n_groups, n)
    shift = rng.normal(0, 0.6, n_groups)[group]
    y = rng.random(n) < 1 / (1 + np.exp(-(-0.7 + shift)))
    a = np.round(1 / (1 + np.exp(-(-0.8 + shift + 1.8 * (y - 0.4) + rng.normal(0, 1, n)))), 2)
    b = np.round(1 / (1 + np.exp(-(-0.5 + 2.0 * (y - 0.4) + rng.normal(0, 1.5, n)))), 1)
    return y, group, a, b


def write(path, y, group, a, b):
    lines = ["patient,diagnosis,model_a,model_b"]
    lines += [f"p{g:03d},{'malignant' if t else 'benign'},{s:.2f},{r:.1f}" for g, t, s, r in zip(group, y, a, b)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # main() defaults MPLBACKEND to Agg; monkeypatch restores the variable afterwards.
    monkeypatch.setenv("MPLBACKEND", os.environ.get("MPLBACKEND", "Agg"))
    return tmp_path


@pytest.fixture
def good_csv(folder):
    return write(folder / "scores.csv", *generated())


# ---------------------------------------------------------------------------
# bad input: exit 2, one line, nothing written
# ---------------------------------------------------------------------------

def small_csv(folder, text):
    path = folder / "bad.csv"
    path.write_text(text, encoding="utf-8")
    return path


def rows(n=12, label=lambda i: i % 2, score=lambda i: f"{i / 20:.2f}", group=lambda i: f"g{i % 3}"):
    return "y,p,g\n" + "".join(f"{label(i)},{score(i)},{group(i)}\n" for i in range(n))


BAD_INPUT = {
    "missing file": (None, ["report", "nope.csv", "--label", "y", "--score", "p"], "nope.csv: no such file"),
    "missing label column": (rows(), ["--label", "z", "--score", "p"], "column 'z' (--label) not found"),
    "missing score column": (rows(), ["--label", "y", "--score", "q"], "column 'q' (--score) not found"),
    "missing group column": (rows(), ["--label", "y", "--score", "p", "--group", "h"],
                             "column 'h' (--group) not found"),
    "non-numeric score": (rows(score=lambda i: "high" if i == 4 else "0.5"), ["--label", "y", "--score", "p"],
                          "line 6: score column 'p' has the non-numeric value 'high'"),
    "score with an underscore": (rows(score=lambda i: "1_0" if i == 2 else "0.5"), ["--label", "y", "--score", "p"],
                                 "line 4: score column 'p' has the non-numeric value '1_0'"),
    "missing score value": (rows(score=lambda i: "" if i in (3, 8) else "0.5"), ["--label", "y", "--score", "p"],
                            "score column 'p' has 2 missing value(s), the first on line 5"),
    "NA score": (rows(score=lambda i: "NA" if i == 9 else "0.5"), ["--label", "y", "--score", "p"],
                 "score column 'p' has 1 missing value(s), the first on line 11"),
    "infinite score": (rows(score=lambda i: "inf" if i == 2 else "0.5"), ["--label", "y", "--score", "p"],
                       "line 4: score column 'p' has the infinite value 'inf'"),
    "three labels without pos-label": (rows(label=lambda i: "abc"[i % 3]), ["--label", "y", "--score", "p"],
                                       "label column 'y' has 3 values ('a', 'b', 'c'); pass --pos-label"),
    "two labels without pos-label": (rows(label=lambda i: "BM"[i % 2]), ["--label", "y", "--score", "p"],
                                     "label column 'y' has the values 'B', 'M'; pass --pos-label"),
    "pos-label absent": (rows(), ["--label", "y", "--score", "p", "--pos-label", "yes"],
                         "--pos-label 'yes' does not occur in label column 'y'"),
    "single class": (rows(label=lambda i: 1), ["--label", "y", "--score", "p"],
                     "label column 'y' has a single class ('1')"),
    "missing label value": (rows(label=lambda i: "" if i == 0 else i % 2), ["--label", "y", "--score", "p"],
                            "label column 'y' has 1 missing value(s), the first on line 2"),
    "fewer than ten rows": (rows(n=7), ["--label", "y", "--score", "p"],
                            "has 7 data row(s); the report needs at least 10"),
    "group values missing": (rows(group=lambda i: "" if i == 5 else "g1"),
                             ["--label", "y", "--score", "p", "--group", "g"],
                             "group column 'g' has 1 missing value(s), the first on line 7"),
    "single group": (rows(group=lambda i: "g1"), ["--label", "y", "--score", "p", "--group", "g"],
                     "group column 'g' has a single group ('g1')"),
    "row with too few fields": (rows().replace("1,0.15,g0\n", "1,0.15\n"), ["--label", "y", "--score", "p"],
                                "line 5: 2 field(s), but the header has 3"),
    "empty file": ("", ["--label", "y", "--score", "p"], "is empty: expected a header line"),
    "duplicate header": ("y,p,p\n" + "1,0.5,0.5\n" * 12, ["--label", "y", "--score", "p"],
                         "column 'p' appears twice in the header"),
    "same column twice": (rows(), ["--label", "y", "--score", "y"], "column 'y' is named twice (--label and --score)"),
}


@pytest.mark.parametrize("case", BAD_INPUT, ids=list(BAD_INPUT))
def test_bad_input_exits_2_with_one_line_and_writes_nothing(case, folder, capsys):
    content, arguments, message = BAD_INPUT[case]
    if content is not None:
        arguments = ["report", str(small_csv(folder, content))] + arguments
    status, out, err = run_cli(arguments + ["--out", "out", "--resamples", "20"], capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("evalmetrics report: error: ")
    assert message in err
    assert sorted(p.name for p in folder.iterdir()) == ([] if content is None else ["bad.csv"])


def test_non_utf8_file(folder, capsys):
    (folder / "latin.csv").write_bytes(b"y,p\n" + "".join(f"{i % 2},{i}\n" for i in range(11)).encode()
                                      + "caf\xe9,1\n".encode("latin-1"))
    status, _, err = run_cli(["report", "latin.csv", "--label", "y", "--score", "p", "--out", "out"], capsys)
    assert status == 2 and "is not UTF-8 text" in err and err.count("\n") == 1
    assert not (folder / "out").exists()


def test_validation_file_without_the_score_column(good_csv, folder, capsys):
    (folder / "validation.csv").write_text("diagnosis,other\n" + "malignant,0.5\nbenign,0.1\n" * 6)
    status, _, err = run_cli(["report", "scores.csv", "--label", "diagnosis", "--pos-label", "malignant",
                          "--score", "model_a", "--false-negative-cost", "5", "--validation", "validation.csv",
                          "--out", "out"], capsys)
    assert status == 2 and "validation.csv: column 'model_a' (--score) not found" in err
    assert not (folder / "out").exists()


def test_out_is_an_existing_file(good_csv, folder, capsys):
    (folder / "out").write_text("not a folder")
    status, _, err = run_cli(["report", "scores.csv", "--label", "diagnosis", "--pos-label", "malignant",
                          "--score", "model_a", "--out", "out"], capsys)
    assert status == 2 and "--out out: exists and is not a folder" in err
    assert (folder / "out").read_text() == "not a folder"


@pytest.mark.parametrize("arguments, message", [
    (["report"], "give a CSV file"),
    (["report", "x.csv", "--demo", "breast-cancer"], "either DATA.csv or --demo"),
    (["report", "--demo", "breast-cancer", "--label", "y"], "options for a CSV file, not for --demo: --label"),
    (["report", "x.csv", "--label", "y", "--score", "p", "--folds", "3"], "options for --demo only: --folds"),
    (["report", "x.csv", "--score", "p"], "--label COLUMN is required"),
    (["report", "x.csv", "--label", "y"], "at least one --score"),
    (["report", "--demo", "breast-cancer", "--resamples", "0"], "an integer from 10 (fewer make no interval)"),
    (["report", "--demo", "breast-cancer", "--resamples", "1"], "an integer from 10 (fewer make no interval)"),
    (["report", "--demo", "breast-cancer", "--resamples", "1_0"], "got '1_0'"),
    (["report", "--demo", "breast-cancer", "--resamples", str(10 ** 12)], "to 100,000 (more only take longer)"),
    (["report", "--demo", "breast-cancer", "--resamples", "2.5"], "got '2.5'"),
    (["report", "--demo", "breast-cancer", "--false-negative-cost", "-1"], "a number from 0 to 1e+12"),
    (["report", "--demo", "breast-cancer", "--false-negative-cost", "1e308"], "only the ratio of the two costs"),
    (["report", "--demo", "breast-cancer", "--false-negative-cost", "1_0"], "got '1_0'"),
    (["report", "--demo", "breast-cancer", "--false-negative-cost", "nan"], "got 'nan'"),
    (["report", "--demo", "breast-cancer", "--seed", "-1"], "a non-negative integer"),
    (["report", "--demo", "breast-cancer", "--bins", "100000"], "an integer from 1 to 1000"),
    (["report", "--demo", "breast-cancer", "--folds", "500"], "an integer from 2 to 20"),
    (["report", "--demo", "breast-cancer", "--no-such-option"], "unrecognized arguments: --no-such-option"),
    (["report", "x.csv", "--label", "y", "--threshold", "1_0", "--score", "p"], "got '1_0'"),
    (["report", "x.csv", "--label", "y"] + ["--score", "p"] * 51, "51 --score columns; at most 50"),
    (["report", "--demo", "breast-cancer", "--false-positive-cost", "0", "--false-negative-cost", "0"],
     "cannot both be 0"),
    (["report", "--demo", "lung-cancer"], "invalid choice"),
    (["report", "x.csv", "--label", "y", "--score", "p", "--validation", "v.csv"], "--validation chooses"),
    (["report", "x.csv", "--label", "y", "--score", "p", "--validation", "v.csv", "--threshold", "0.2",
      "--false-negative-cost", "2"], "no use with --threshold"),
])
def test_usage_errors_exit_2(arguments, message, folder, capsys):
    status, out, err = run_cli(arguments, capsys)
    assert status == 2 and out == "" and message in err
    assert err.count("\n") == 1 and "usage:" not in err  # one line, not argparse's usage block
    assert list(folder.iterdir()) == []


def test_no_command_prints_help_and_exits_2(capsys):
    status, _, err = run_cli([], capsys)
    assert status == 2 and "report" in err


# ---------------------------------------------------------------------------
# the CSV path end to end
# ---------------------------------------------------------------------------

def sk_ece(y, p, n_bins=10):
    prob_true, prob_pred = skc.calibration_curve(y, p, n_bins=n_bins)
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], p), minlength=n_bins)
    return float(np.sum(counts[counts > 0] * np.abs(prob_pred - prob_true)) / len(p))


@pytest.fixture
def grouped_run(good_csv, folder, capsys):
    status, out, err = run_cli(["report", "scores.csv", "--label", "diagnosis", "--pos-label", "malignant",
                            "--score", "model_a", "--score", "model_b", "--group", "patient",
                            "--false-positive-cost", "1", "--false-negative-cost", "4", "--resamples", "200",
                            "--seed", "7", "--out", "out"], capsys)
    numbers = json.loads((folder / "out" / "report.json").read_text())
    return status, out, err, numbers, folder / "out"


def test_csv_report_numbers_match_sklearn(grouped_run):
    status, _, err, numbers, _ = grouped_run
    assert status == 0 and err == ""  # no progress bar off a terminal, no warning
    y, group, a, b = generated()
    assert (numbers["n"], numbers["positives"]) == (len(y), int(y.sum()))
    assert abs(numbers["prevalence"] - y.mean()) <= TOL
    for column, s in zip(numbers["columns"], (a, b)):
        # The threshold is the cheapest on these data, as scikit-learn's counts confirm below.
        t = column["threshold"]
        assert t == em.best_threshold(y, s, false_positive_cost=1, false_negative_cost=4).threshold
        pred = s >= t
        tn, fp, fn, tp = skm.confusion_matrix(y, pred).ravel()
        assert column["counts"] == {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
        for key, theirs in (("accuracy", skm.accuracy_score(y, pred)), ("precision", skm.precision_score(y, pred)),
                            ("recall", skm.recall_score(y, pred)), ("f1", skm.f1_score(y, pred)),
                            ("balanced_accuracy", skm.balanced_accuracy_score(y, pred)),
                            ("mcc", skm.matthews_corrcoef(y, pred)), ("auc", skm.roc_auc_score(y, s)),
                            ("auc_delong", skm.roc_auc_score(y, s)),
                            ("average_precision", skm.average_precision_score(y, s)),
                            ("brier", skm.brier_score_loss(y, s))):
            assert abs(column[key]["value"] - theirs) <= TOL, key
        assert abs(column["ece"] - sk_ece(y, s)) <= TOL
        assert column["costs"][0]["cost"] == 1 * fp + 4 * fn


def test_csv_report_intervals_resample_whole_groups(grouped_run):
    _, _, _, numbers, _ = grouped_run
    y, group, a, b = generated()
    groups = np.array([f"p{g:03d}" for g in group])
    options = dict(n_resamples=200, seed=7, groups=groups)
    column = numbers["columns"][0]
    assert column["auc"]["method"] == "group bootstrap" and column["recall"]["method"] == "group bootstrap"
    expected = em.bootstrap_interval(em.roc_auc, y, a, **options)
    assert abs(column["auc"]["low"] - expected.interval.low) <= TOL
    assert abs(column["auc"]["high"] - expected.interval.high) <= TOL
    brier = next(d for d in numbers["differences"] if d["metric"] == "Brier score")
    expected = em.bootstrap_difference(em.brier_score, y, a, b, **options)
    assert abs(brier["bootstrap"]["value"] - (skm.brier_score_loss(y, a) - skm.brier_score_loss(y, b))) <= TOL
    assert abs(brier["bootstrap"]["low"] - expected.interval.low) <= TOL


def test_csv_report_files(grouped_run):
    _, out, _, numbers, where = grouped_run
    assert sorted(p.name for p in where.iterdir()) == [
        MARKER, "costs.png", "curves.png", "reliability.png", "report.html", "report.json", "report.md"]
    assert not [p for p in where.parent.iterdir() if p.name.startswith(".")]  # no temporary folder left
    markdown = (where / "report.md").read_text()
    page = (where / "report.html").read_text()
    for column in numbers["columns"]:
        for key in ("auc", "average_precision", "brier", "mcc", "f1"):
            assert f"{column[key]['value']:.4f}" in markdown
            assert f"{column[key]['value']:.4f}" in page
        assert f"{column['auc']['value']:.4f} ({column['auc']['low']:.4f} to {column['auc']['high']:.4f})" in out
    # Every figure is a PNG file beside the Markdown, and embedded in the page.
    for name in ("curves.png", "reliability.png", "costs.png"):
        png = (where / name).read_bytes()
        assert png.startswith(b"\x89PNG") and f"]({name})" in markdown
        assert base64.b64encode(png).decode() in page
    assert not re.search(r'(src|href)="(?!data:)', page)
    assert "--group patient" in markdown  # the command that produced it
    assert "optimistic" in out  # the threshold was chosen on the same data


def test_csv_report_with_validation_and_wilson_intervals(folder, capsys):
    y, group, a, b = generated(1)
    write(folder / "test.csv", y, group, a, b)
    yv, gv, av, bv = generated(2)
    write(folder / "validation.csv", yv, gv, av, bv)
    status, out, _ = run_cli(["report", "test.csv", "--label", "diagnosis", "--pos-label", "malignant",
                          "--score", "model_a", "--false-negative-cost", "3", "--validation", "validation.csv",
                          "--resamples", "100", "--out", "report", "--figures", "figs"], capsys)
    assert status == 0 and "optimistic" not in out
    column = json.loads((folder / "report" / "report.json").read_text())["columns"][0]
    threshold = em.best_threshold(yv, av, false_positive_cost=1, false_negative_cost=3).threshold
    assert column["threshold"] == threshold
    c = em.counts_at_threshold(y, a, threshold)
    low, high = stats.binomtest(c.tp, c.tp + c.fn).proportion_ci(method="wilson")
    assert column["recall"]["method"] == "Wilson"
    assert abs(column["recall"]["low"] - low) <= TOL and abs(column["recall"]["high"] - high) <= TOL
    assert sorted(p.name for p in (folder / "figs").iterdir()) == [MARKER, "costs.png", "curves.png", "reliability.png"]
    assert "](../figs/curves.png)" in (folder / "report" / "report.md").read_text()


def test_scores_that_are_not_probabilities(folder, capsys):
    y, group, a, b = generated(3)
    logits = np.log(np.clip(a, 0.01, 0.99) / (1 - np.clip(a, 0.01, 0.99)))
    lines = ["y,logit"] + [f"{int(t)},{s:.3f}" for t, s in zip(y, logits)]
    (folder / "logits.csv").write_text("\n".join(lines) + "\n")
    status, out, _ = run_cli(["report", "logits.csv", "--label", "y", "--score", "logit", "--threshold", "0",
                          "--resamples", "50"], capsys)
    assert status == 0 and "not probabilities" in out and "calibration section" in out
    assert sorted(p.name for p in (folder / "evalmetrics-report").iterdir()) == [
        MARKER, "curves.png", "report.html", "report.json", "report.md"]


def test_a_second_run_replaces_the_report(good_csv, folder, capsys):
    arguments = ["report", "scores.csv", "--label", "diagnosis", "--pos-label", "malignant", "--score",
                 "model_a", "--resamples", "30", "--out", "out"]
    assert run_cli(arguments, capsys)[0] == 0
    assert run_cli(arguments + ["--threshold", "0.3"], capsys)[0] == 0
    assert '"threshold": 0.3' in (folder / "out" / "report.json").read_text()
    assert sorted(p.name for p in folder.iterdir()) == ["out", "scores.csv"]  # no temporary folder left


def test_a_file_of_the_user_beside_a_report_stops_the_next_one(good_csv, folder, capsys):
    arguments = ["report", "scores.csv", "--label", "diagnosis", "--pos-label", "malignant", "--score",
                 "model_a", "--resamples", "30", "--out", "out"]
    assert run_cli(arguments, capsys)[0] == 0
    (folder / "out" / "keep.txt").write_text("mine")
    before = (folder / "out" / "report.json").read_bytes()
    status, out, err = run_cli(arguments + ["--threshold", "0.3"], capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "holds 'keep.txt', which no evalmetrics report wrote" in err
    assert (folder / "out" / "keep.txt").read_text() == "mine"
    assert (folder / "out" / "report.json").read_bytes() == before


# ---------------------------------------------------------------------------
# the demo and the module entry point
# ---------------------------------------------------------------------------

def test_demo_numbers_are_run_screenings(folder, capsys):
    status, out, err = run_cli(["report", "--demo", "breast-cancer", "--resamples", "200", "--out", "demo",
                            "--figures", "figures"], capsys)
    # Off a terminal the only thing on stderr may be a progress line every few seconds.
    assert status == 0 and all(line.startswith("progress: ") for line in err.splitlines())
    from evalmetrics.handbook import run_screening

    result = run_screening(seed=0, folds=5, penalty=1.0, false_positive_cost=1.0, false_negative_cost=20.0,
                           resamples=200)
    numbers = json.loads((folder / "demo" / "report.json").read_text())
    assert (numbers["n_tumours"], numbers["n_malignant"], numbers["bayes_threshold"]) == (
        result.n_tumours, result.n_malignant, result.bayes_threshold)
    for mine, model in zip(numbers["models"], result.models):
        assert mine["name"] == model.name
        assert mine["development"]["auc"] == model.development.auc
        assert mine["chosen_threshold"] == model.chosen_threshold
        assert [p["cost"] for p in mine["operating_points"]] == [p.cost for p in model.operating_points]
        for key in ("test_auc", "test_average_precision", "test_brier"):
            boot = getattr(model, key)
            assert mine[key]["estimate"] == boot.estimate
            assert mine[key]["interval"] == {"low": boot.interval.low, "high": boot.interval.high}
    assert numbers["auc_difference"]["interval"]["low"] == result.auc_difference.interval.low
    # The first screen shows the same numbers.
    logistic = result.model("logistic")
    assert f"{logistic.test_auc.estimate:.4f} ({logistic.test_auc.interval.low:.4f}" in out
    assert f"{logistic.chosen_threshold:.4g}: {logistic.point('chosen').cost:g}" in out
    assert sorted(p.name for p in (folder / "figures").iterdir()) == [
        MARKER, "screening-bootstrap.png", "screening-costs.png", "screening-reliability.png"]
    assert sorted(p.name for p in (folder / "demo").iterdir()) == [MARKER, "report.html", "report.json", "report.md"]


BLOCK_OPTIONAL = """
import sys

class Blocker:
    # Refuse the optional dependencies, as on a numpy-only install.
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("sklearn", "scipy", "matplotlib", "pandas"):
            raise ImportError(f"{name} is blocked for this test")
        return None

sys.meta_path.insert(0, Blocker())
from evalmetrics.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_numpy_only_install(good_csv, folder):
    csv_run = subprocess.run([sys.executable, "-c", BLOCK_OPTIONAL, "report", "scores.csv", "--label", "diagnosis",
                              "--pos-label", "malignant", "--score", "model_a", "--resamples", "50"],
                             capture_output=True, text=True)
    assert csv_run.returncode == 0, csv_run.stderr
    assert "No figures: matplotlib is not installed" in csv_run.stdout
    assert sorted(p.name for p in (folder / "evalmetrics-report").iterdir()) == [
        MARKER, "report.html", "report.json", "report.md"]
    demo_run = subprocess.run([sys.executable, "-c", BLOCK_OPTIONAL, "report", "--demo", "breast-cancer",
                               "--out", "demo"], capture_output=True, text=True)
    assert demo_run.returncode == 2
    assert demo_run.stderr == ("evalmetrics report: error: the breast-cancer demo needs scikit-learn for its data: "
                               "pip install 'evalmetrics[ml]'\n")
    assert not (folder / "demo").exists()


def test_python_dash_m_help():
    result = subprocess.run([sys.executable, "-m", "evalmetrics", "report", "--help"], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0
    for option in ("--demo", "--label", "--score", "--pos-label", "--threshold", "--false-positive-cost",
                   "--validation", "--group", "--resamples", "--seed", "--out", "--figures", "--folds", "--penalty"):
        assert option in result.stdout


def test_python_dash_m_bad_input_in_a_real_process(tmp_path):
    result = subprocess.run([sys.executable, "-m", "evalmetrics", "report", "missing.csv", "--label", "y",
                             "--score", "p"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "evalmetrics report: error: missing.csv: no such file\n"
    assert list(tmp_path.iterdir()) == []
