"""Figures of the handbook's companion code, in the palette of :mod:`evalmetrics.plotting`.

=============  ==========================================================
``pitfalls``   tie staircases and two areas in precision-recall space
``studies``    the imbalance study, the A/B comparison, the screening run
``explorers``  the binormal threshold explorer
=============  ==========================================================

matplotlib is imported only when a plotting function is called (the explorer needs none).
"""

from __future__ import annotations

from . import explorers, pitfalls, studies
from .explorers import *  # noqa: F401,F403
from .pitfalls import *  # noqa: F401,F403
from .studies import *  # noqa: F401,F403

__all__ = sorted(explorers.__all__ + pitfalls.__all__ + studies.__all__)
