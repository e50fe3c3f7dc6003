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

In the book a failed check stops the build.  A downloaded notebook gathers the
page's hidden cells into one checks cell, each cell a block of :class:`Checks`:
there a failure is recorded and the cell goes on, and ``Checks.report`` prints
one short list of what failed (a reader who changed a seed expects failures, not
a traceback from a cell they never saw).
"""

from __future__ import annotations

import contextlib
import linecache
import numbers
import sys

__all__ = ["Checks", "glue_number", "keep", "keep_fraction", "markdown_table"]

# Exact values are fractions; two float computations of one agree to rounding.
EXACT_TOLERANCE = 1e-12

# The Checks whose block is running, if any: keep and keep_fraction report to it
# instead of raising.
_collector = None


def _fail(message):
    if _collector is None:
        raise AssertionError(message)
    _collector._record(message)


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
    failed = False
    if near is not None:
        target, tolerance = near
        if not abs(value - target) <= tolerance:
            failed = True
            _fail(f"glue key {name!r}: computed {value!r}, expected {target!r} "
                  f"within {tolerance!r}")
    if not failed and printed is not None and round(value, places) != printed:
        failed = True
        _fail(f"glue key {name!r}: computed {value!r}, rounds to {round(value, places)!r} "
              f"at {places} places, expected {printed!r}")
    if not failed and exact is not None and not abs(value - float(exact)) < EXACT_TOLERANCE:
        failed = True
        _fail(f"glue key {name!r}: computed {value!r}, expected exactly {exact}")
    if failed:
        return value  # (in a block of Checks: recorded, nothing glued)
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
        _fail(f"glue key {name!r}: computed {value!r}, expected exactly {exact}")
        return exact  # (in a block of Checks: recorded, nothing glued)
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


class Checks:
    """The checks of a downloaded notebook, run block by block, failures collected.

    The notebook's checks cell runs each hidden cell of the book as one block,
    ``with checks.block(3, reads="y, s"):``.  Inside a block, :func:`keep` and
    :func:`keep_fraction` record a failure and go on; any other exception (a
    failed ``assert``) ends its block and is recorded with the line that raised
    it.  :meth:`report` then prints one line per failure, or that every check
    holds.  Outside a block, :func:`keep` raises as in the book's build.

    Examples
    --------
    >>> checks = Checks()
    >>> with checks.block(1):
    ...     keep("auc", 0.796875, printed=0.7969)
    0.796875
    >>> with checks.block(2, reads="y, s"):
    ...     keep("auc", 0.75, printed=0.7969)
    ...     keep("n", 12, exact=12)
    0.75
    12
    >>> with checks.block(3, reads="s"):
    ...     found = [keep(f"k{k}", k, exact=7) for k in range(5)]
    >>> checks.report()
    2 of 3 checks failed: the text's numbers no longer hold there.
      check 2 (reads y, s): glue key 'auc': computed 0.75, rounds to 0.75 at 4 places, expected 0.7969
      check 3 (reads s): 5 failures
        glue key 'k0': computed 0, expected exactly 7
        glue key 'k1': computed 1, expected exactly 7
        glue key 'k2': computed 2, expected exactly 7
        ... and 2 more
    """

    SHOWN = 3  # failures listed per check; the rest are counted

    def __init__(self):
        self.failures = []  # (block number, what it reads, message)
        self.blocks = []  # numbers of the blocks that ran
        self._current = None

    def _record(self, message):
        number, reads = self._current
        self.failures.append((number, reads, message))

    @contextlib.contextmanager
    def block(self, number, *, reads=""):
        """Run one block: a failure inside it is recorded, not raised.

        Parameters
        ----------
        number : int
            The block's number, as the report names it.
        reads : str, default ""
            The names of the reader's cells the block reads ("" for a block that
            computes from the book's own data).

        Returns
        -------
        contextlib.AbstractContextManager
            For a ``with`` statement.
        """
        global _collector
        outer, self._current = _collector, (number, reads)
        self.blocks.append(number)
        _collector = self
        try:
            yield self
        except Exception as error:  # noqa: BLE001  (every failure goes to the report)
            self._record(_describe(error))
        finally:
            _collector = outer
            self._current = None

    def report(self, file=None):
        """Print the failures, one line each, or that every check holds.

        Parameters
        ----------
        file : file-like, optional
            Where to print; default ``sys.stdout``.

        Returns
        -------
        None
            (The failures stay in ``failures``: ``(block, reads, message)`` each.)
        """
        out = sys.stdout if file is None else file
        total = len(self.blocks)
        if not self.failures:
            print(f"All {total} checks hold: the text's numbers are the ones computed above.",
                  file=out)
            return
        by_check = {}
        for number, reads, message in self.failures:
            by_check.setdefault((number, reads), []).append(message)
        print(f"{len(by_check)} of {total} checks failed: the text's numbers no longer hold "
              "there.", file=out)
        for (number, reads), messages in by_check.items():
            where = f"check {number}" + (f" (reads {reads})" if reads else "")
            if len(messages) == 1:
                print(f"  {where}: {messages[0]}", file=out)
                continue
            print(f"  {where}: {len(messages)} failures", file=out)
            for message in messages[:self.SHOWN]:
                print(f"    {message}", file=out)
            if len(messages) > self.SHOWN:
                print(f"    ... and {len(messages) - self.SHOWN} more", file=out)


def _describe(error):
    """A failure in one line: its message, or the line of the check that raised it."""
    here = (__file__, contextlib.__file__)
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename in here:
        tb = tb.tb_next  # (this module and contextlib: how the error reached the block)
    while tb is not None and tb.tb_next is not None and \
            tb.tb_next.tb_frame.f_code.co_filename == tb.tb_frame.f_code.co_filename:
        tb = tb.tb_next  # the innermost line of the checks cell itself, not of a library
    line = ""
    if tb is not None:
        line = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno).strip()
    lines = str(error).strip().splitlines()
    text = lines[0] if lines else ""
    if isinstance(error, AssertionError):
        return text or (f"failed: {line}" if line else "an assert failed")
    return f"{type(error).__name__}: {text}" + (f" (at: {line})" if line else "")
