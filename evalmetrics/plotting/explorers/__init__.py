"""Interactive explorers: move a threshold, a prevalence or a number of bins with a
slider and watch the package's numbers change.

An explorer is a Vega-Lite chart whose data are tables this package computed
for every position of its sliders; the chart only keeps the rows of the
sliders' current values, it computes no metric.  In Jupyter it is shown as
Vega-Lite (the MIME type ``application/vnd.vegalite.v5+json``), which
JupyterLab 4 and Notebook 7 render themselves: no extension, no widget
kernel, and a saved notebook keeps working sliders.  The sliders are labelled
range inputs (keyboard: arrow keys, Home, End) and the numbers SVG text.

:meth:`Explorer.to_html` gives the element the handbook's website embeds (the
website serves Vega's scripts itself); :meth:`Explorer.to_png` and
:meth:`Explorer.to_pdf` a still picture at the default setting, for paper.
Those two need ``vl-convert-python`` (the extra ``interactive``), imported only
when they are called; nothing else here needs more than NumPy.
"""

from ._vegalite import Explorer
from .measures import binning_explorer, prevalence_explorer
from .threshold import threshold_explorer, threshold_explorer_grid

__all__ = [
    "Explorer",
    "binning_explorer",
    "prevalence_explorer",
    "threshold_explorer",
    "threshold_explorer_grid",
]
