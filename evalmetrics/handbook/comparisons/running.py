"""Running the registry: :func:`compare_all` and :func:`format_table`.

:func:`compare_all` runs the checks of :data:`~evalmetrics.handbook.comparisons.REGISTRY`,
each on its own random stream, and :func:`format_table` turns the result
into the Markdown table of ``book/checked-against-scikit-learn.md``.
"""

from __future__ import annotations

import math

import numpy as np

from ... import arrays
from ._core import REGISTRY, Comparison

__all__ = ["compare_all", "format_table"]


# ---------------------------------------------------------------------------
# running the registry
# ---------------------------------------------------------------------------

def compare_all(*, seed=0, n=200, functions=None):
    """Run the checks of :data:`REGISTRY` on fresh random data.

    Parameters
    ----------
    seed : int, numpy.random.Generator or None, default 0
        Check ``i`` draws from ``numpy.random.default_rng([seed, i])``, so
        no check depends on another (a generator gives one integer seed).
    n : int, default 200
        Rows of each random data set, at least 30.
    functions : collection of str, optional
        Run only the checks with these ``function`` names (default: all).

    Returns
    -------
    list of Comparison
        One per check run, in registry order.

    Examples
    --------
    >>> rows = compare_all(functions={"roc_auc", "k_fold"})
    >>> [(row.function, row.agrees) for row in rows]
    [('roc_auc', True), ('k_fold', True)]
    """
    n = arrays.positive_int(n, "n", minimum=30)
    seed = arrays.seed(seed, concrete=True)
    if functions is not None:
        unknown = set(functions) - {check.function for check in REGISTRY}
        if unknown:
            raise ValueError(f"functions not in the registry: {sorted(unknown)}")
    return [Comparison(check.function, check.counterpart, check.run(np.random.default_rng([seed, i]), n), check.data,
                       check.tolerance, check.kind)
            for i, check in enumerate(REGISTRY) if functions is None or check.function in functions]


def _number(value):
    if value == 0:
        return "0"
    return "inf" if math.isinf(value) else f"{value:.1e}"


def format_table(rows):
    """A Markdown table of comparisons, one line per row.

    Examples
    --------
    >>> print(format_table([Comparison("roc_auc", "sklearn.metrics.roc_auc_score", 2.2e-16, "ties")]))
    | Function | Kind | Counterpart | Largest difference | Tolerance | Data |
    |---|---|---|---|---|---|
    | `roc_auc` | metric | `sklearn.metrics.roc_auc_score` | 2.2e-16 | 1.0e-12 | ties |
    """
    lines = ["| Function | Kind | Counterpart | Largest difference | Tolerance | Data |", "|---|---|---|---|---|---|"]
    for row in rows:
        cells = (f"`{row.function}`", row.kind, f"`{row.counterpart}`", _number(row.max_abs_difference),
                 _number(row.tolerance) if row.tolerance else "exact", row.data)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)
