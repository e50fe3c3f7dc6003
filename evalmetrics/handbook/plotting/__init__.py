"""Figures of the handbook's companion code, in the palette of :mod:`evalmetrics.plotting`.

=============  ==========================================================
``pitfalls``   tie staircases and two areas in precision-recall space
``studies``    the imbalance study, the A/B comparison, the screening run
=============  ==========================================================

matplotlib is imported only when a plotting function is called.
"""

from __future__ import annotations

from . import pitfalls, studies
from .pitfalls import *  # noqa: F401,F403
from .studies import *  # noqa: F401,F403

__all__ = sorted(pitfalls.__all__ + studies.__all__)
