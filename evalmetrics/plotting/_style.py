"""One palette, one style and one text-size rule for every figure of the handbook.

Four colours from the Okabe-Ito palette, which stays distinguishable for
the common forms of colour blindness and in grey-scale print.

Figure text must be legible where it is read: at least ``MIN_WEB_TEXT_PX``
CSS pixels on the website at 1280 px, where a figure is shown at its own
width or the content column's (``WEB_COLUMN_PX``), whichever is smaller, and
at least ``MIN_PRINT_TEXT_PT`` points in the PDF, where a figure is printed at
its own width or the text width's (``PRINT_WIDTH_IN``).  :data:`RC` holds the
font sizes (and TrueType fonts for the PDF); :func:`text_sizes` measures a
drawn figure against both rules.  The book's kernels apply :data:`RC` and run
the check on every figure they draw (``tools/ipython_startup.py``); the
browser test confirms the column width the rule assumes.
"""

from __future__ import annotations

import dataclasses
import weakref

BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILION = "#D55E00"
GREY = "#7F7F7F"  # reference lines (diagonals, baselines), never data

PALETTE = (BLUE, ORANGE, GREEN, VERMILION)

# Where figure text is read, and how small it may be there.
MIN_WEB_TEXT_PX = 9.0  # CSS pixels, website at 1280 px
MIN_PRINT_TEXT_PT = 7.0  # points, PDF
WEB_COLUMN_PX = 660  # a figure at 1280 px gets at least this width (tests/browser: 672)
PRINT_WIDTH_IN = 6.27  # LaTeX text width: A4 with Sphinx's 1 in margins (letter is wider)

# Font sizes of every figure (points; the smallest, 10 pt, is the tick labels and
# legends), and TrueType (Type 42) fonts in PDF and PostScript output: a PDF with
# Type 3 fonts renders blurred in some viewers and its text cannot be searched.
SMALL_TEXT = 10  # points: annotations, legends, numbers drawn on a figure
# The widest figure whose SMALL_TEXT is legible on both: 8.96 in (the PDF decides).
MAX_WIDTH_IN = min(SMALL_TEXT * PRINT_WIDTH_IN / MIN_PRINT_TEXT_PT,
                   SMALL_TEXT / 72 * WEB_COLUMN_PX / MIN_WEB_TEXT_PX)

RC = {
    "font.size": 11,
    "axes.titlesize": 11,
    "axes.labelsize": 11,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "legend.title_fontsize": 10,
    "figure.titlesize": 12,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
}


def text_colour_on(rgb):
    """``"black"`` or ``"white"``, whichever contrasts more with the background ``rgb``.

    WCAG's contrast ratio of the two relative luminances; white on a light tint
    (a pale orange cell, a light grey band) is what this replaces.

    Examples
    --------
    >>> text_colour_on((0.9, 0.62, 0.0)), text_colour_on((0.0, 0.45, 0.7))
    ('black', 'white')
    """
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgb[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    # Contrast with black: (L + 0.05) / 0.05; with white: 1.05 / (L + 0.05).
    return "black" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "white"


@dataclasses.dataclass(frozen=True)
class TextSizes:
    """The smallest text of a figure, as drawn and as read on the website and in the PDF."""

    text: str
    points: float
    web_px: float
    print_pt: float

    @property
    def legible(self) -> bool:
        return self.web_px >= MIN_WEB_TEXT_PX and self.print_pt >= MIN_PRINT_TEXT_PT


def text_sizes(fig, *, dpi=None):
    """Measure the smallest visible text of a drawn figure where it is read.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure that has been drawn (saved or shown), so that its tick labels exist.
    dpi : float, optional
        Pixels per inch of the website's image; the figure's own by default.

    Returns
    -------
    TextSizes or None
        None for a figure without text.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> _ = ax.set_xlabel("false positive rate", fontsize=10)
    >>> fig.canvas.draw()
    >>> round(text_sizes(fig).print_pt, 1)
    10.0
    >>> plt.close(fig)
    """
    from matplotlib.text import Text

    # Every tick of an axis has the same size, drawn or not: no need to tell them apart.
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    if not texts:
        return None
    smallest = min(texts, key=lambda t: t.get_fontsize())
    points = smallest.get_fontsize()
    width_in = fig.get_figwidth()
    dpi = fig.dpi if dpi is None else dpi
    # A figure wider than its column is scaled down to it; a narrower one is shown as is.
    web_px = points / 72 * dpi * min(1.0, WEB_COLUMN_PX / (width_in * dpi))
    print_pt = points * min(1.0, PRINT_WIDTH_IN / width_in)
    return TextSizes(smallest.get_text(), float(points), float(web_px), float(print_pt))



def pyplot():
    """Import matplotlib lazily: it is an optional dependency (extra ``plot``)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError(
            "plotting needs matplotlib: pip install 'evalmetrics[plot]'"
        ) from error
    return plt


def new_axes(ax=None, *, figsize=(4.2, 4.0)):
    """Return ``(fig, ax)``, creating a figure only when ``ax`` is None."""
    plt = pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    else:
        fig = ax.figure
    return fig, ax


def mark_small_bars(ax, bars, *, fmt="{:g}", share=0.01):
    """Mark the bars too short to be seen: a tick in the bar's colour and its value above.

    A bar of height zero is not drawn at all, and a count of 1 among hundreds
    is under a pixel tall: without a mark a reader cannot tell such a bar from
    a missing one.

    Parameters
    ----------
    ax : matplotlib Axes
    bars : matplotlib BarContainer
        The bars, as ``ax.bar`` returns them (vertical).
    fmt : str, default "{:g}"
        Format of the value written above a marked bar.
    share : float, default 0.01
        A bar shorter than this share of the y-axis' span is marked.

    Returns
    -------
    list of int
        The positions in ``bars`` of the bars marked.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> mark_small_bars(ax, ax.bar([0, 1, 2], [0.5, 0.0, 0.3]))
    [1]
    >>> plt.close(fig)
    """
    low, high = ax.get_ylim()
    marked = []
    for i, (bar, value) in enumerate(zip(bars.patches, bars.datavalues)):
        if abs(bar.get_height()) >= share * abs(high - low):
            continue
        left, base = bar.get_x(), bar.get_y() + bar.get_height()
        # Unclipped: at the axis' lower limit a clipped tick would lose half its width.
        ax.plot([left, left + bar.get_width()], [base, base], color=bar.get_facecolor(),
                linewidth=2.5, solid_capstyle="butt", clip_on=False)
        ax.annotate(fmt.format(value), (left + bar.get_width() / 2, base), xytext=(0, 2),
                    textcoords="offset points", ha="center", va="bottom", fontsize=SMALL_TEXT,
                    color="black")
        marked.append(i)
    return marked


def legend_below(ax, **kwargs):
    """A legend under the x label of ``ax``, where it hides none of the data.

    The gap is measured on the drawn axis (tick labels and label), not
    guessed as a fraction of the axes' height, so the legend clears the label
    at every figure size; constrained layout then makes room for it.
    """
    from matplotlib.transforms import ScaledTranslation

    fig = ax.figure
    # Points from the axes' bottom edge to the bottom of its label (none: a shared axis
    # drawn only on the panel below).
    drawn = ax.xaxis.get_tightbbox()
    depth = 0.0 if drawn is None else (ax.bbox.y0 - drawn.y0) * 72 / fig.dpi
    anchor = ax.transAxes + ScaledTranslation(0.0, -(depth + 2.0) / 72, fig.dpi_scale_trans)
    options = dict(frameon=False, fontsize=SMALL_TEXT, loc="upper center")
    return ax.legend(bbox_to_anchor=(0.5, 0.0), bbox_transform=anchor, **{**options, **kwargs})


def place_legend(ax, locations, *, below=None, **kwargs):
    """A legend inside the axes where it lies on no data and no text, else under them.

    The places of ``locations`` are tried in turn on the drawn figure
    (:func:`evalmetrics.plotting._layout.clear_location`); the first that
    hides nothing wins.  When none does (a reference line or a curve crosses
    every one), the legend goes under the x label (:func:`legend_below`).

    Parameters
    ----------
    ax : matplotlib Axes
    locations : sequence of str
        Matplotlib's legend locations, in order of preference.
    below : dict, optional
        Options of the legend under the axes (``ncol``, say).
    **kwargs
        Options of the legend wherever it goes.

    Returns
    -------
    matplotlib Legend

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> _ = ax.plot([0, 1], [0, 1], label="diagonal")
    >>> place_legend(ax, ["center", "upper left"])._loc  # matplotlib's code of "upper left"
    2
    >>> plt.close(fig)
    """
    from ._layout import clear_location

    options = dict(frameon=False, fontsize=SMALL_TEXT, **kwargs)
    legend = ax.legend(**options)
    if clear_location(legend, locations) is not None:
        return legend
    legend.remove()
    legend = legend_below(ax, **{**options, **(below or {})})
    _make_room(ax, legend)
    return legend


# Inches a figure has grown for the legends under its axes: the tallest one (panels
# side by side share the room; a second curve on an axes replaces its legend).
_ROOM = weakref.WeakKeyDictionary()


def _make_room(ax, legend):
    """Grow the figure by the legend's height, so that the axes keep their size."""
    fig = ax.figure
    if fig.get_layout_engine() is None:
        return  # without a layout engine nothing makes room in the figure anyway
    height = legend.get_window_extent(fig.canvas.get_renderer()).height / fig.dpi
    grow = height - _ROOM.get(fig, 0.0)
    if grow > 0:
        fig.set_figheight(fig.get_figheight() + grow)
        _ROOM[fig] = height


def finish(ax, *, xlabel, ylabel, title=None, legend=True, square=False):
    """Label the axes (always), add a legend if there is something to show (:func:`place_legend`)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if square:
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
    ax.grid(True, color="#e6e6e6", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if legend and ax.get_legend_handles_labels()[0]:
        # Matplotlib's best place, if it hides nothing; else under the axes.
        place_legend(ax, ["best"])
    return ax
