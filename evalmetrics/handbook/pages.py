"""Helpers of the book's pages: glue a number after asserting it, and Markdown tables.

Every number in the prose of a page is computed in a hidden cell, glued with
:func:`keep` (which asserts it against the value the text was written for)
and read back with ``{glue:text}``.  The pattern, in a page's hidden cell::

    from evalmetrics.handbook.pages import keep

    auc = keep("roc-auc", roc_auc(y, s), printed=0.7969, exact=Fraction(51, 64))

``printed`` is the value as the text prints it (rounded to ``places``),
``exact`` the exact value (a fraction, to 1e-12), ``near`` a
``(target, tolerance)`` pair for a simulated estimate.  A number that the
page only reports (a simulation whose conclusions it asserts separately) is
glued with :func:`glue_number`.  Tables built from computed cells are
glued as :func:`markdown_table` and shown with ``{glue:md}``.  An exact
fraction that the text writes as a fraction (a solution's ``19/24``) is
glued by :func:`keep_fraction` and shown with ``{glue:md}`` too.

``myst_nb`` and IPython are imported when a helper is called, so the
module imports without the book's dependencies; without ``myst_nb`` (a page
downloaded as a notebook) :func:`keep` still asserts and nothing is glued.
"""

from __future__ import annotations

import numbers

__all__ = ["glue_number", "keep", "keep_fraction", "markdown_table"]

# Exact values are fractions; two float computations of one agree to rounding.
EXACT_TOLERANCE = 1e-12


def _plain(value):
    # glue stores the repr: plain int and float read as 3 and 0.5, not np.int64(3).
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def glue_number(name, value):
    """Glue a number for the prose as a plain ``int`` or ``float``, and return it.

    Parameters
    ----------
    name : str
        The glue key, read in the text with ``{glue:text}`name```.
    value : int, float or numpy scalar

    Returns
    -------
    int or float
        ``value`` as a plain Python number (integers stay integers).
    """
    value = _plain(value)
    try:
        from myst_nb import glue
    except ImportError:
        # A page downloaded as a notebook runs where only evalmetrics is installed:
        # its numbers are still computed (and asserted by keep), with nothing to glue into.
        return value
    glue(name, value, display=False)
    return value


def keep(name, value, *, printed=None, exact=None, near=None, places=4):
    """Assert a computed number against the value the text gives, then glue it.

    At least one expectation is required; every one given must hold.  A
    failure raises ``AssertionError`` naming the glue key, the computed and
    the expected value, and nothing is glued.

    Parameters
    ----------
    name : str
        The glue key.
    value : int, float or numpy scalar
        The computed number.
    printed : float, optional
        The value as printed in the text: ``round(value, places)`` must equal it.
    exact : int, float or fractions.Fraction, optional
        The exact value: ``value`` must be within 1e-12 of it.
    near : tuple of (float, float), optional
        ``(target, tolerance)`` for a simulated estimate:
        ``abs(value - target) <= tolerance``.
    places : int, default 4
        The decimals of ``printed``.

    Returns
    -------
    int or float
        ``value`` as a plain Python number, as glued.

    Examples
    --------
    >>> keep("auc", 0.796875, printed=0.7969, exact=0.797)
    Traceback (most recent call last):
    ...
    AssertionError: glue key 'auc': computed 0.796875, expected exactly 0.797
    """
    if printed is None and exact is None and near is None:
        raise TypeError(f"keep({name!r}): give the expected value as printed=, exact= or near=")
    value = _plain(value)
    if near is not None:
        target, tolerance = near
        if not abs(value - target) <= tolerance:
            raise AssertionError(f"glue key {name!r}: computed {value!r}, expected {target!r} "
                                 f"within {tolerance!r}")
    if printed is not None and round(value, places) != printed:
        raise AssertionError(f"glue key {name!r}: computed {value!r}, rounds to {round(value, places)!r} "
                             f"at {places} places, expected {printed!r}")
    if exact is not None and not abs(value - float(exact)) < EXACT_TOLERANCE:
        raise AssertionError(f"glue key {name!r}: computed {value!r}, expected exactly {exact}")
    if isinstance(exact, numbers.Integral):
        # A count computed in floating point (a cost of 82.0) reads as 82 in the prose.
        value = int(exact)
    return glue_number(name, value)


def keep_fraction(name, value, exact, *, denominator=None):
    """Assert a computed number equals an exact fraction, then glue the fraction.

    The text shows the fraction, not a decimal: it is glued as Markdown
    (``19/24``) and read with ``{glue:md}`name```.  A failure raises
    ``AssertionError`` naming the glue key, the computed and the expected
    value, and nothing is glued.

    Parameters
    ----------
    name : str
        The glue key.
    value : int, float or numpy scalar
        The computed number.
    exact : fractions.Fraction or int
        The exact value: ``value`` must be within 1e-12 of it.
    denominator : int, optional
        Show the fraction over this denominator rather than in lowest terms
        (``26/32`` next to ``25/32``); it must give an integer numerator.

    Returns
    -------
    fractions.Fraction
        ``exact``, as a fraction in lowest terms.

    Examples
    --------
    >>> from fractions import Fraction
    >>> keep_fraction("auc", 19 / 24, Fraction(38, 48))
    Fraction(19, 24)
    >>> keep_fraction("area", 0.8125, Fraction(13, 16), denominator=32)
    Fraction(13, 16)
    >>> keep_fraction("auc", 0.79, Fraction(19, 24))
    Traceback (most recent call last):
    ...
    AssertionError: glue key 'auc': computed 0.79, expected exactly 19/24
    """
    from fractions import Fraction

    exact = Fraction(exact)
    value = _plain(value)
    if not abs(value - float(exact)) < EXACT_TOLERANCE:
        raise AssertionError(f"glue key {name!r}: computed {value!r}, expected exactly {exact}")
    shown = str(exact)
    if denominator is not None:
        numerator = exact * denominator
        if numerator.denominator != 1:
            raise ValueError(f"keep_fraction({name!r}): {exact} is not a whole number of 1/{denominator}")
        shown = f"{numerator}/{denominator}"
    try:
        from IPython.display import Markdown
        from myst_nb import glue
    except ImportError:
        # as in glue_number: a downloaded notebook asserts, with nothing to glue into
        return exact
    glue(name, Markdown(shown), display=False)
    return exact


def markdown_table(header, rows, *, align=None):
    """A pipe table from a header and rows of cells already formatted.

    The page glues it and shows it with ``{glue:md}`` inside a ``{table}``
    directive that gives the caption and the label.

    Parameters
    ----------
    header : sequence of str
    rows : iterable of sequences
        Each row has one cell per column; cells are written with ``str``.
    align : str or sequence of str, optional
        The separator cell of each column (``"---"``, ``"---:"``,
        ``":---"``), or one for every column.  Default ``"---"``.

    Returns
    -------
    IPython.display.Markdown

    Examples
    --------
    >>> print(markdown_table(["model", "AUC"], [["a", "0.7969"]], align=[":---", "---:"]).data)
    | model | AUC |
    |:---|---:|
    | a | 0.7969 |
    """
    from IPython.display import Markdown

    header = list(header)
    if align is None:
        align = "---"
    if isinstance(align, str):
        align = [align] * len(header)
    if len(align) != len(header):
        raise ValueError(f"align must give one separator per column ({len(header)}), got {len(align)}")
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for row in rows:
        row = [str(cell) for cell in row]
        if len(row) != len(header):
            raise ValueError(f"every row must have {len(header)} cells, got {len(row)}: {row}")
        lines.append("| " + " | ".join(row) + " |")
    return Markdown("\n".join(lines))
