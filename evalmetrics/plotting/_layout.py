"""What a reader of a drawn figure cannot read: text over data, text over text, bars not drawn.

:func:`layout_faults` measures a drawn figure in display coordinates, from
matplotlib's own extents, and lists every fault of four kinds:

* **overlap**: a piece of text (a legend entry, read as one row of handle and
  label; an annotation; a text drawn on the axes; an axis label; a title; a
  tick label) lies on a plotted line, a marker, a bar, or another piece of
  text; or an inset axes lies on its parent's data.
* **zero bar**: a bar drawn less than ``UNSEEN_BAR_PX`` tall (a zero, or a
  count too small for its scale) with nothing at its place, no text and no
  line: a reader cannot tell it from a bar that is missing.
* **tick labels collide**: two tick labels of one axis touch.
* **label reads as a tick label**: an axis label set closer to a word tick
  label of its axis than one line of text to the next, so that the two read as
  one label ("Predicted" over the middle class of a confusion matrix read as
  "Predicted rework").

What counts as data and what as background (a translucent shade, an image, a
mesh, a patch that holds a text entirely) is :mod:`evalmetrics.plotting._extents`'
business, which measures the figure.

The book's kernels run it on every figure a page draws (``tools/ipython_startup.py``,
a fault fails the build); ``tests/test_figure_layout.py`` on every figure of
:mod:`evalmetrics.plotting` and :mod:`evalmetrics.handbook.plotting`, the
report's tests on the report's figures.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from . import _extents as drawn

__all__ = ["LayoutFault", "clear_location", "layout_faults"]

#: A bar less tall than this is not seen: it needs a mark (a tick, its value).
UNSEEN_BAR_PX = 1.0
#: A zero bar's mark (its value written) starts within this many points of its baseline.
ZERO_MARK_REACH_PT = 15.0


@dataclasses.dataclass(frozen=True)
class LayoutFault:
    """One fault: its kind (``"overlap"``, ``"zero bar"``, ``"tick labels collide"``,
    ``"label reads as a tick label"``) and a sentence that names what, where."""

    kind: str
    message: str

    def __str__(self):
        return self.message


# ---------------------------------------------------------------- the checks


def _text_on_data(texts, data):
    for text, thing in itertools.product(texts, data):
        if text.tick_axis is not None and thing.ax is text.tick_axis.axes:
            continue  # an axis' tick labels sit outside its own data
        if drawn.hits(thing, text.box):
            yield LayoutFault("overlap", f"{text.name} lies on {thing.name}")


def _text_on_text(texts):
    for a, b in itertools.combinations(texts, 2):
        if a.group is b.group and a.tick_axis is None:
            continue  # one legend's entries, one text: laid out together
        if drawn.boxes_overlap(a.box, b.box):
            if a.tick_axis is not None and a.tick_axis is b.tick_axis:
                yield LayoutFault("tick labels collide", f"{a.name} and {b.name} collide")
            else:
                yield LayoutFault("overlap", f"{a.name} lies on {b.name}")


def _insets_on_data(fig, data):
    for inset in drawn.all_axes(fig):
        parents = [ax for ax in drawn.all_axes(fig) if ax is not inset and ax.get_visible()
                   and inset.get_visible() and ax.bbox.contains(inset.bbox.x0 + 1, inset.bbox.y0 + 1)
                   and ax.bbox.contains(inset.bbox.x1 - 1, inset.bbox.y1 - 1)]
        for thing in data:
            if thing.ax in parents and drawn.hits(thing, inset.bbox):
                yield LayoutFault("overlap", f"the inset axes {drawn.axes_name(inset)} lies on {thing.name}")


def _zero_bars(fig, renderer, texts, data):
    from matplotlib.container import BarContainer

    for ax in drawn.all_axes(fig):
        if not drawn.visible(ax):
            continue
        for container in ax.containers:
            if not isinstance(container, BarContainer):
                continue
            vertical = getattr(container, "orientation", "vertical") != "horizontal"
            if _is_histogram(container, vertical):
                continue  # an empty bin is a gap on a continuous axis, not a missing bar
            for bar, value in zip(container.patches, container.datavalues):
                box = bar.get_window_extent(renderer)
                if (box.height if vertical else box.width) >= UNSEEN_BAR_PX:
                    continue
                if not _zero_bar_marked(ax, box, vertical, texts, data):
                    label = container.get_label()
                    name = f"bar of {drawn.quote(label)}" if label and not label.startswith("_") else "bar"
                    at = bar.get_x() + bar.get_width() / 2 if vertical else bar.get_y() + bar.get_height() / 2
                    yield LayoutFault("zero bar", f"a {name} of value {value:.4g} is not drawn (under "
                                      f"{UNSEEN_BAR_PX:g} px) and nothing marks it (axes {drawn.axes_name(ax)}, "
                                      f"at {at:.4g})")


def _is_histogram(container, vertical):
    """Bars that tile their axis edge to edge: the bins of a histogram."""
    patches = container.patches
    if len(patches) < 2:
        return False
    if vertical:
        starts = np.array([p.get_x() for p in patches])
        ends = starts + np.array([p.get_width() for p in patches])
    else:
        starts = np.array([p.get_y() for p in patches])
        ends = starts + np.array([p.get_height() for p in patches])
    return bool(np.allclose(ends[:-1], starts[1:], rtol=0, atol=1e-9 * (np.ptp(ends) or 1.0)))


def _zero_bar_marked(ax, box, vertical, texts, data):
    from matplotlib.transforms import Bbox

    reach = ZERO_MARK_REACH_PT * drawn.pixels_per_point(ax.figure.dpi)
    if vertical:
        place = Bbox.from_extents(box.x0, box.y0 - 1, box.x1, box.y1 + reach)
    else:
        place = Bbox.from_extents(box.x0 - 1, box.y0, box.x1 + reach, box.y1)
    for text in texts:
        if text.tick_axis is None and drawn.boxes_overlap(text.box, place, tolerance=0.0):
            return True
    mark = Bbox.from_extents(box.x0, box.y0 - 1, box.x1, box.y1 + 1) if vertical else \
        Bbox.from_extents(box.x0 - 1, box.y0, box.x1 + 1, box.y1)
    mark = drawn.shrunk(mark, -drawn.TOLERANCE_PX)  # widened: hits() shrinks it back
    return any(thing.ax is ax and thing.segments and drawn.hits(thing, mark) for thing in data)


def _has_words(text):
    """Letters outside TeX commands: "rework" has words, "$\\mathdefault{10^{-2}}$" has none."""
    import re

    return any(c.isalpha() for c in re.sub(r"\\[A-Za-z]+", "", text))


def _labels_joining_ticks(fig, renderer):
    """An axis label set as close to a word tick label as one line to the next reads as part of it
    ("Predicted" over the middle class name read "Predicted rework")."""
    for ax in drawn.all_axes(fig):
        if not drawn.visible(ax):
            continue
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            label = axis.label
            if not (drawn.visible(label) and label.get_text().strip()):
                continue
            box = label.get_window_extent(renderer)
            line = label.get_fontsize() * drawn.pixels_per_point(fig.dpi)
            for tick in drawn.tick_labels(axis):
                if not _has_words(tick.get_text()) or tick.get_rotation() != label.get_rotation():
                    continue  # numbers, or text at another angle, never read on
                other = tick.get_window_extent(renderer)
                if letter == "x":
                    side = min(box.x1, other.x1) - max(box.x0, other.x0) > 0
                    gap = max(box.y0 - other.y1, other.y0 - box.y1)
                else:
                    side = min(box.y1, other.y1) - max(box.y0, other.y0) > 0
                    gap = max(box.x0 - other.x1, other.x0 - box.x1)
                if side and gap < line:
                    yield LayoutFault(
                        "label reads as a tick label",
                        f"{letter} label {drawn.quote(label.get_text())} (axes {drawn.axes_name(ax)}) is "
                        f"{gap:.0f} px from the tick label {drawn.quote(tick.get_text())}, less than a "
                        f"line ({line:.0f} px): it reads as part of it")


def layout_faults(fig):
    """The faults of a figure as drawn: text over data or text, unmarked zero bars, colliding ticks.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        Drawn at its final size (the function draws it once more, so that
        constrained layout has settled).

    Returns
    -------
    list of LayoutFault
        Empty for a figure a reader can read entirely.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> _ = ax.plot([0, 1], [0, 1], label="diagonal")
    >>> _ = ax.legend(loc="center")
    >>> [str(fault) for fault in layout_faults(fig)]
    ["legend entry 'diagonal' (axes untitled) lies on line 'diagonal' (axes untitled)"]
    >>> plt.close(fig)
    """
    renderer, texts, data = _measure(fig)
    faults = list(_text_on_data(texts, data))
    faults += _text_on_text(texts)
    faults += _insets_on_data(fig, data)
    faults += _zero_bars(fig, renderer, texts, data)
    faults += _labels_joining_ticks(fig, renderer)
    return faults


def clear_location(legend, locations):
    """The first of ``locations`` where a legend lies on no data and no other text.

    The figure is drawn once, with the legend at the first place; at the others
    the legend's entries are moved with its box (its content does not change),
    so trying a place costs no further drawing.  What
    :func:`evalmetrics.plotting._style.place_legend` asks.

    Parameters
    ----------
    legend : matplotlib.legend.Legend
        A legend inside its axes (a legend outside moves the layout).
    locations : sequence of str
        Matplotlib's legend locations, in order of preference.

    Returns
    -------
    str or None
        None when the legend hides something at every place; the legend is
        left at the place returned, or at the last one tried.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 3))
    >>> _ = ax.plot([0, 1], [0, 1], label="diagonal")
    >>> legend = ax.legend()
    >>> clear_location(legend, ["center", "lower right", "upper left"])
    'lower right'
    >>> print(clear_location(legend, ["center"]))
    None
    >>> plt.close(fig)
    """
    legend.set_loc(locations[0])
    renderer, texts, data = _measure(legend.get_figure(root=True))
    own = [text for text in texts if text.group is legend]
    others = [text for text in texts if text.group is not legend]
    start = legend.get_window_extent(renderer)
    for location in locations:
        legend.set_loc(location)
        box = legend.get_window_extent(renderer)
        moved = [dataclasses.replace(text, box=text.box.translated(box.x0 - start.x0, box.y0 - start.y0))
                 for text in own]
        if not any(_text_on_data(moved, data)) and \
                not any(drawn.boxes_overlap(a.box, b.box) for a in moved for b in others):
            return location
    return None


def _measure(fig):
    """Draw the figure (constrained layout settles) and collect its texts and data."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return renderer, drawn.texts(fig, renderer), drawn.marks(fig)
