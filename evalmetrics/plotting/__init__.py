"""Figures of the handbook, in one four-colour, colour-blind-safe palette.

matplotlib is imported only when a plotting function is called, so the rest
of the package works without it.  Each submodule draws the figures of one
idea; they are all re-exported here.  The figures of the book's companion
code (pitfalls, studies, the screening run) are in
:mod:`evalmetrics.handbook.plotting`.
"""

from ._style import BLUE, GREEN, ORANGE, PALETTE, VERMILION  # noqa: F401
from .overview import *  # noqa: F401,F403
from .calibration import *  # noqa: F401,F403
from .counts import *  # noqa: F401,F403
from .regression import *  # noqa: F401,F403
from .validation import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .explorers import *  # noqa: F401,F403
