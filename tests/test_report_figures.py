"""The report's figures with the column names users actually write (evalmetrics/report/figures.py).

* A Chinese and a 300-character column name: the command writes nothing on
  stderr, and every axes of every figure keeps the size it has with short
  names (a long legend or title no longer squeezes the plot).
* ``figure_label`` on generated names (any Unicode, line breaks, ``$``):
  one line, at most ``LABEL_LENGTH`` characters, drawn without a warning --
  in a fallback font when one has the characters (DejaVu Serif has some that
  DejaVu Sans lacks), else replaced by the column's number.
* The text and report.json keep the full names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("matplotlib")  # the plot extra is installed with the tests; this keeps the import local

from evalmetrics.report import (  # noqa: E402
    build_report,
    dataset_from_arrays,
    figures,  # noqa: E402
)

LONG = ("score_of_the_gradient_boosted_model_" * 10)[:300]
CHINESE = "模型分数"


def scores(seed, n=200):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    return y, np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 3), np.round(rng.random(n), 3)


def axes_of(fig):
    """Position and size of every axes in figure coordinates, after the layout ran."""
    fig.canvas.draw()
    return np.array([ax.get_position().bounds for ax in fig.axes])


@pytest.fixture(scope="module")
def reports():
    y, a, b = scores(0)
    costs = dict(false_positive_cost=1.0, false_negative_cost=3.0, resamples=20, seed=1)
    plain = build_report(dataset_from_arrays(y, {"a": a, "b": b}), **costs)
    odd = build_report(dataset_from_arrays(y, {CHINESE: a, LONG: b}), **costs)
    return plain, odd


@pytest.mark.parametrize("draw", ["_roc_and_pr", "_reliability", "_costs"])
def test_odd_names_leave_every_axes_its_size_and_warn_of_nothing(reports, draw):
    from matplotlib import pyplot

    plain, odd = reports
    sizes = []
    for report in (plain, odd):
        names = [figures.figure_label(n, k) for k, n in enumerate(report.data.score_names, start=1)]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with figures._drawable(names):
                fig = getattr(figures, draw)(report)
                sizes.append(axes_of(fig))
                fig.savefig(os.devnull, format="png")
        pyplot.close(fig)
    plain_axes, odd_axes = sizes
    assert plain_axes.shape == odd_axes.shape
    # Tick labels may move an axes by a pixel; a squeezed one loses a third of its width or more.
    # (A square ROC panel may grow when a wide legend under it widens its column.)
    assert np.all(odd_axes[:, 2:] >= plain_axes[:, 2:] - 0.01), (odd_axes, plain_axes)


def test_the_command_says_nothing_on_stderr_and_keeps_the_full_names(tmp_path):
    y, a, b = scores(2)
    csv = tmp_path / "odd.csv"
    csv.write_text(f"y,{CHINESE},{LONG}\n" + "".join(f"{int(t)},{p},{q}\n" for t, p, q in zip(y, a, b)),
                   encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "evalmetrics", "report", str(csv), "--label", "y",
                           "--score", CHINESE, "--score", LONG, "--false-positive-cost", "1",
                           "--false-negative-cost", "3", "--resamples", "20", "--out", str(tmp_path / "out"),
                           "--no-progress"], capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, MPLBACKEND="Agg"))
    assert done.returncode == 0 and done.stderr == ""
    out = tmp_path / "out"
    assert sorted(p.name for p in out.glob("*.png")) == ["costs.png", "curves.png", "reliability.png"]
    numbers = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert numbers["source"]["scores"] == [CHINESE, LONG]
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert CHINESE in markdown and LONG in markdown
    if figures._fonts_for(CHINESE) is None:  # the captions say which column a number stands for
        assert f"No installed font has the characters of some names: column 1 is '{CHINESE}'." in markdown


NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=60)


@settings(max_examples=40, deadline=None)
@given(name=NAMES, number=st.integers(1, 50))
def test_a_figure_label_is_short_one_line_and_drawn_without_a_warning(name, number):
    from matplotlib import pyplot

    label = figures.figure_label(name, number)
    assert 0 < len(label.replace("\\$", "$")) <= figures.LABEL_LENGTH
    assert "\n" not in label and "\r" not in label
    assert label.count("$") == label.count("\\$")  # no mathematics
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with figures._drawable([label]):
            fig, ax = pyplot.subplots(figsize=(3, 2))
            ax.plot([0, 1], [0, 1], label=label)
            ax.legend()
            ax.set_title(label)
            fig.savefig(os.devnull, format="png")
    pyplot.close(fig)


def test_a_font_that_has_the_characters_is_used_and_none_is_replaced():
    # DejaVu Serif, which matplotlib ships, has U+1D15 (LATIN LETTER SMALL CAPITAL OU); DejaVu Sans lacks it.
    assert figures.figure_label("ᴕ-score", 1) == "ᴕ-score"
    assert figures._fonts_for("ᴕ-score") == ["DejaVu Serif"]
    assert figures._fonts_for("plain") == []
    # No font here has Chinese, so the figure names the column by its number.
    families = figures._fonts_for(CHINESE)
    assert figures.figure_label(CHINESE, 4) == (CHINESE if families else "column 4")


def test_long_names_are_cut_with_an_ellipsis_and_dollars_escaped():
    assert figures.figure_label(LONG, 2) == LONG[:figures.LABEL_LENGTH - 1] + "…"
    assert figures.figure_label("cost in $ and $", 1) == "cost in \\$ and \\$"
    assert figures.figure_label("two\nlines\t here", 1) == "two lines here"
    assert figures.figure_label("   ", 3) == "column 3"
    assert figures.figure_label("_", 1) == "column 1: _"  # else missing from the legend
