"""The book build's failure summary (tools/build_failures.py): one line per failing page.

The end-to-end proof is a build with two pages whose glued numbers are
wrong (done by hand, not committed: the build takes minutes); here the
format the page helper raises and the lines the summary prints.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import build_failures  # noqa: E402


def notebook(*outputs_per_cell):
    return {"cells": [{"cell_type": "code", "outputs": list(outputs)} for outputs in outputs_per_cell]}


def error(ename, evalue):
    return {"output_type": "error", "ename": ename, "evalue": evalue, "traceback": []}


def test_other_errors_name_the_error_and_the_cell():
    line = build_failures.describe("book/x", notebook([], [], [error("NameError", "name 'y' is not defined")]))
    assert line == "book/x: NameError: name 'y' is not defined (cell 3)"
    line = build_failures.describe("book/x", notebook([error("AssertionError", "")]))
    assert line == "book/x: AssertionError (cell 1)"
    assert build_failures.describe("book/x", notebook([]), "DeadKernelError: died").endswith("DeadKernelError: died")


def test_the_summary_is_one_line_per_page_after_a_count():
    assert build_failures.summary([]) == []
    assert build_failures.summary(["a: x", "b: y"]) == ["book build: 2 page(s) failed", "  a: x", "  b: y"]


def test_the_page_helpers_failure_is_one_line_with_key_computed_and_expected():
    from evalmetrics.handbook.pages import keep

    with pytest.raises(AssertionError) as caught:
        keep("roc-auc", 0.796875, printed=0.7970)
    cell = {"cell_type": "code", "outputs": [{"output_type": "error", "ename": "AssertionError",
                                              "evalue": str(caught.value)}]}
    line = build_failures.describe("book/roc-auc", {"cells": [cell]})
    assert line == ("book/roc-auc: glue key 'roc-auc': computed 0.796875, rounds to 0.7969 "
                    "at 4 places, expected 0.797")
