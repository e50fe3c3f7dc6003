"""The book build's failure summary: one line per failing page, printed last.

A page asserts each number it glues in a hidden cell.  When one is wrong,
the build fails (``raise_on_error``), but the cause is buried in the
tracebacks, and myst-nb details only the first failing page.  The
pre-execution (``tools/preexecute.py``) has run every page by then, so the
extension collects each failed page's first error with :func:`describe` and
prints :func:`summary` when the build process exits, after every traceback:

    book build: 2 page(s) failed
      roc-auc: glue key 'auc_twelve': computed 0.7969, expected 0.797
      costs: NameError: name 'x' is not defined

A page helper reports a wrong glued number by raising ``AssertionError``
with :func:`glue_failure_message`: the fixed prefix :data:`PREFIX` followed
by a JSON object with ``key``, ``computed`` and ``expected``.  The helper
pasted into the current pages, which asserts with the tuple ``(name, value,
expected)``, is read as well.
"""

from __future__ import annotations

import ast
import json
import math
import re

PREFIX = "glue check failed: "
_LEGACY = re.compile(r"^\((?P<key>'[^'\\]*'), (?P<computed>[^,]+), (?P<expected>.+)\)$")


def _json_number(value):
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def glue_failure_message(key, computed, expected):
    """The AssertionError message of a glued number that is not the expected one.

    >>> glue_failure_message("auc", 0.7969, 0.797)
    'glue check failed: {"key": "auc", "computed": 0.7969, "expected": 0.797}'
    """
    payload = {"key": str(key), "computed": _json_number(computed), "expected": _json_number(expected)}
    return PREFIX + json.dumps(payload, default=str)


def _glue_check(evalue):
    """(key, computed, expected) from an AssertionError message, or None."""
    text = evalue.strip()
    if text.startswith(PREFIX):
        try:
            payload = json.loads(text[len(PREFIX):])
            return payload["key"], payload["computed"], payload["expected"]
        except (ValueError, KeyError, TypeError):
            return None
    # The pasted helper's tuple: the computed value is a plain number (no comma),
    # the expected one may be a Fraction(1, 11).
    legacy = _LEGACY.match(text)
    if legacy is None:
        return None
    return ast.literal_eval(legacy["key"]), legacy["computed"], legacy["expected"]


def first_error(notebook):
    """(cell number, ename, evalue) of the first error output of an executed notebook, or None."""
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            if output.get("output_type") == "error":
                return number, output.get("ename", "Error"), output.get("evalue", "")
    return None


def describe(docname, notebook, fallback=""):
    """One line naming the failing page and why it failed.

    >>> cell = {"cell_type": "code", "outputs": [{"output_type": "error", "ename": "AssertionError",
    ...         "evalue": glue_failure_message("auc", 0.7969, 0.797)}]}
    >>> describe("roc-auc", {"cells": [cell]})
    "roc-auc: glue key 'auc': computed 0.7969, expected 0.797"
    """
    error = first_error(notebook)
    if error is None:
        return f"{docname}: {fallback or 'failed without an error output (the kernel died?)'}"
    number, ename, evalue = error
    check = _glue_check(evalue) if ename == "AssertionError" else None
    if check is not None:
        key, computed, expected = check
        return f"{docname}: glue key {key!r}: computed {computed}, expected {expected}"
    first_line = evalue.strip().splitlines()[0] if evalue.strip() else ""
    if ename == "AssertionError" and first_line.startswith("glue key "):
        # evalmetrics.handbook.pages.keep: "glue key 'k': computed x, expected y" already.
        return f"{docname}: {first_line}"
    return f"{docname}: {ename}: {first_line} (cell {number})" if first_line else f"{docname}: {ename} (cell {number})"


def summary(lines):
    """The lines printed at the end of a failed build (nothing when no page failed)."""
    if not lines:
        return []
    return [f"book build: {len(lines)} page(s) failed"] + [f"  {line}" for line in lines]
