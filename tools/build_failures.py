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

A wrong glued number is an ``AssertionError`` raised by the page helper
``evalmetrics.handbook.pages.keep``, whose message is already that line
("glue key 'k': computed x, expected y"); any other error is named with its
first line and its cell.
"""

from __future__ import annotations


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
    ...         "evalue": "glue key 'auc': computed 0.7969, expected exactly 0.797"}]}
    >>> describe("roc-auc", {"cells": [cell]})
    "roc-auc: glue key 'auc': computed 0.7969, expected exactly 0.797"
    """
    error = first_error(notebook)
    if error is None:
        return f"{docname}: {fallback or 'failed without an error output (the kernel died?)'}"
    number, ename, evalue = error
    first_line = evalue.strip().splitlines()[0] if evalue.strip() else ""
    if ename == "AssertionError" and first_line.startswith("glue key "):
        # The page helper's message names the key, the computed and the expected value.
        return f"{docname}: {first_line}"
    return f"{docname}: {ename}: {first_line} (cell {number})" if first_line else f"{docname}: {ename} (cell {number})"


def summary(lines):
    """The lines printed at the end of a failed build (nothing when no page failed)."""
    if not lines:
        return []
    return [f"book build: {len(lines)} page(s) failed"] + [f"  {line}" for line in lines]
