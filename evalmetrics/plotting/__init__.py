"""Figures of the handbook, in one four-colour, colour-blind-safe palette.

matplotlib is imported only when a plotting function is called, so the rest
of the package works without it.  Each submodule draws the figures of one
idea; they are all re-exported here.  The figures of the book's companion
code (pitfalls, studies, the screening run) are in
:mod:`evalmetrics.handbook.plotting`; they share this style through the
public names below, never the private module behind them:

* the colours ``BLUE``, ``ORANGE``, ``GREEN``, ``VERMILION`` (``PALETTE``, in
  that order) and ``GREY`` for reference lines;
* ``SMALL_TEXT`` (the points of annotations and legends) and
  ``MAX_WIDTH_IN`` (the widest figure whose text stays legible in print);
* ``pyplot()`` (matplotlib's pyplot, imported on first use),
  ``new_axes(ax=None, *, figsize)`` (a new figure and axes in the style,
  or the given axes and their figure) and ``finish(ax, *, xlabel, ylabel,
  title=None, legend=True, square=False)`` (labels, grid and legend) and
  ``place_legend(ax, locations, *, below=None)`` (a legend where it hides no
  data, else under the axes).
"""

from ._style import (  # noqa: F401
    BLUE,
    GREEN,
    GREY,
    MAX_WIDTH_IN,
    ORANGE,
    PALETTE,
    SMALL_TEXT,
    VERMILION,
    finish,
    new_axes,
    place_legend,
    pyplot,
)
from .budgets import *  # noqa: F401,F403
from .calibration import *  # noqa: F401,F403
from .counts import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .explorers import *  # noqa: F401,F403
from .overview import *  # noqa: F401,F403
from .regression import *  # noqa: F401,F403
from .validation import *  # noqa: F401,F403
