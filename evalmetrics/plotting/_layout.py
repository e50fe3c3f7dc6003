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

What counts as data: every visible line (reference lines too: a diagonal
through a legend strikes its text as much as a curve does), every marker,
every patch or collection whose face is opaque enough to hide text
(``SOLID_ALPHA``), the outline of the others.  A translucent shade (the area
under a curve, a band outside the possible range) is background and may carry
text; so may images and meshes (a confusion matrix's counts sit on its cells)
and any patch that holds a text entirely (a bar's value inside the bar, a box's
caption).  Grid lines and spines are not data.

The book's kernels run it on every figure a page draws (``tools/ipython_startup.py``,
a fault fails the build); ``tests/test_figure_layout.py`` on every figure of
:mod:`evalmetrics.plotting` and :mod:`evalmetrics.handbook.plotting`, the
report's tests on the report's figures.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

__all__ = ["LayoutFault", "clear_location", "layout_faults"]

#: A face at least this opaque hides what lies under it: it is data, not shading.
SOLID_ALPHA = 0.3
#: Two boxes must share more than this many pixels each way to overlap:
#: extents that merely touch (a label's padding on a line) are not a fault.
TOLERANCE_PX = 1.0
#: A bar less tall than this is not seen: it needs a mark (a tick, its value).
UNSEEN_BAR_PX = 1.0
#: A mark of a zero bar is within this many font sizes of its baseline.
ZERO_MARK_REACH = 1.5


@dataclasses.dataclass(frozen=True)
class LayoutFault:
    """One fault: its kind (``"overlap"``, ``"zero bar"``, ``"tick labels collide"``) and a sentence."""

    kind: str
    message: str

    def __str__(self):
        return self.message


# ---------------------------------------------------------------- what is drawn


@dataclasses.dataclass
class _Text:
    """A piece of text (or a legend handle) as the reader sees it."""

    name: str
    box: object  # matplotlib Bbox, display coordinates
    group: object  # texts of one group are laid out together (one legend, one axis' ticks)
    tick_axis: object = None


def _visible(artist):
    alpha = artist.get_alpha()
    return artist.get_visible() and (alpha is None or alpha > 0)


def _quote(text):
    text = " ".join(text.split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _axes_name(ax):
    for text in (ax.get_title(), ax.get_title("left"), ax.get_xlabel(), ax.get_ylabel()):
        if text.strip():
            return _quote(text)
    return "untitled"


def _all_axes(fig):
    """Every axes of the figure, insets (child axes) included."""
    pending = list(fig.axes)
    while pending:
        ax = pending.pop(0)
        yield ax
        pending.extend(ax.child_axes)


def _tick_labels(axis):
    # The ticks a draw shows (those inside the view): the others keep stale positions.
    for tick in axis._update_ticks():
        for label in (tick.label1, tick.label2):
            if _visible(label) and label.get_text().strip():
                yield label


def _texts(fig, renderer):
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox

    found = []

    def add(artist, name, group, tick_axis=None):
        if not _visible(artist):
            return
        if isinstance(artist, Text):
            if not artist.get_text().strip():
                return
            # An annotation's extent includes its arrow; the reader reads the text.
            box = Text.get_window_extent(artist, renderer)
        else:
            box = artist.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            found.append(_Text(name, box, group, tick_axis))

    def add_legend(legend, where):
        if legend is None or not _visible(legend):
            return
        for text, handle in zip(legend.get_texts(), legend.legend_handles):
            if not (_visible(text) and text.get_text().strip()):
                continue
            # An entry is read as one row: its handle (a line has no height) and its label.
            box = text.get_window_extent(renderer)
            if handle is not None and _visible(handle):
                left = min(box.x0, handle.get_window_extent(renderer).x0)
                box = Bbox.from_extents(left, box.y0, box.x1, box.y1)
            found.append(_Text(f"legend entry {_quote(text.get_text())} {where}", box, legend))
        add(legend.get_title(), f"legend title {_quote(legend.get_title().get_text())} {where}", legend)

    for ax in _all_axes(fig):
        if not _visible(ax):
            continue
        where = f"(axes {_axes_name(ax)})"
        for child in ax.get_children():
            if isinstance(child, Text):  # titles, texts, annotations
                add(child, f"text {_quote(child.get_text())} {where}", child)
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            add(axis.label, f"{letter} label {_quote(axis.label.get_text())} {where}", axis.label)
            for label in _tick_labels(axis):
                add(label, f"{letter} tick label {_quote(label.get_text())} {where}", axis, axis)
        add_legend(ax.get_legend(), where)
    for legend in fig.legends:
        add_legend(legend, "(figure legend)")
    for text in fig.texts:
        add(text, f"figure text {_quote(text.get_text())}", text)
    if getattr(fig, "_suptitle", None) is not None:
        add(fig._suptitle, f"figure title {_quote(fig._suptitle.get_text())}", fig._suptitle)
    return found


@dataclasses.dataclass
class _Data:
    """A plotted thing in display coordinates: segments, marker boxes and filled shapes."""

    name: str
    ax: object
    clip: object  # Bbox or None
    segments: list = dataclasses.field(default_factory=list)  # (array (n, 2), half width)
    markers: list = dataclasses.field(default_factory=list)  # (array (n, 2), half size)
    solids: list = dataclasses.field(default_factory=list)  # matplotlib Path, display coordinates


def _points(dpi):
    return dpi / 72.0


def _face_alpha(artist):
    # Matplotlib's face colours carry the artist's alpha already.
    colours = np.atleast_2d(artist.get_facecolor())
    return float(colours[:, 3].max()) if colours.size else 0.0


def _edge_width(artist, dpi):
    """Width of a visible outline in pixels (0 for none, or one too faint to hide text)."""
    widths = np.atleast_1d(artist.get_linewidth())
    colours = np.atleast_2d(artist.get_edgecolor())
    if not widths.size or not colours.size or colours[:, 3].max() < SOLID_ALPHA:
        return 0.0
    return float(widths.max()) * _points(dpi)


def _colour(colour):
    from matplotlib.colors import to_hex

    try:
        return to_hex(colour)
    except ValueError:
        return "several colours"


def _line_data(line, ax, dpi):
    name = line.get_label()
    name = f"line {_quote(name)}" if name and not name.startswith("_") else \
        f"a line ({_colour(line.get_color())})"
    data = _Data(name, ax, line.get_clip_box() if line.get_clip_on() else None)
    transform = line.get_transform()
    if line.get_linestyle() not in ("None", "none", "", " ") and line.get_linewidth() > 0:
        path = transform.transform_path(line.get_path())
        data.segments.append((path.vertices, line.get_linewidth() * _points(dpi) / 2))
    if line.get_marker() not in (None, "None", "none", "", " ") and line.get_markersize() > 0:
        xy = transform.transform(line.get_xydata())
        size = (line.get_markersize() + line.get_markeredgewidth()) * _points(dpi) / 2
        data.markers.append((xy, size))
    return data


def _patch_data(patch, ax, dpi, name):
    data = _Data(name, ax, patch.get_clip_box() if patch.get_clip_on() else None)
    path = patch.get_transform().transform_path(patch.get_path())
    if patch.get_fill() and _face_alpha(patch) >= SOLID_ALPHA:
        data.solids.append(path)
    elif _edge_width(patch, dpi) > 0:
        for polygon in path.to_polygons(closed_only=False):
            data.segments.append((polygon, _edge_width(patch, dpi) / 2))
    return data


def _collection_data(collection, ax, dpi):
    from matplotlib.collections import LineCollection, PathCollection, PolyCollection

    name = collection.get_label()
    name = f"{_quote(name)}" if name and not name.startswith("_") else "a collection"
    data = _Data(name, ax, collection.get_clip_box() if collection.get_clip_on() else None)
    transform = collection.get_transform()
    if isinstance(collection, LineCollection):
        half = _edge_width(collection, dpi) / 2
        for segment in collection.get_segments():
            data.segments.append((transform.transform(segment), half))
    elif isinstance(collection, PathCollection):  # scatter: markers at the offsets
        xy = collection.get_offset_transform().transform(collection.get_offsets())
        sizes = collection.get_sizes()
        half = np.sqrt(sizes.max() if sizes.size else 0.0) * _points(dpi) / 2
        data.markers.append((xy, half))
    elif isinstance(collection, PolyCollection):  # fill_between, stacked areas
        solid = _face_alpha(collection) >= SOLID_ALPHA
        for path in collection.get_paths():
            shown = transform.transform_path(path)
            if solid:
                data.solids.append(shown)
            elif _edge_width(collection, dpi) > 0:
                for polygon in shown.to_polygons(closed_only=False):
                    data.segments.append((polygon, _edge_width(collection, dpi) / 2))
    # Images and meshes (QuadMesh) are backgrounds: their cells carry text by design.
    return data


def _data(fig):
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Patch

    from matplotlib.container import BarContainer

    dpi = fig.dpi
    found = []
    for ax in _all_axes(fig):
        if not _visible(ax):
            continue
        where = f"(axes {_axes_name(ax)})"
        bars = {id(bar): container.get_label() for container in ax.containers
                if isinstance(container, BarContainer) for bar in container.patches}
        for line in ax.get_lines():
            if _visible(line) and to_rgba(line.get_color(), line.get_alpha())[3] >= SOLID_ALPHA:
                data = _line_data(line, ax, dpi)
                data.name += f" {where}"
                found.append(data)
        for patch in ax.patches:
            if _visible(patch) and isinstance(patch, Patch):
                label = bars.get(id(patch), patch.get_label())
                name = f"bar {_quote(label)}" if id(patch) in bars and not label.startswith("_") else \
                    f"patch {_quote(label)}" if label and not label.startswith("_") else "a bar or patch"
                found.append(_patch_data(patch, ax, dpi, f"{name} {where}"))
        for collection in ax.collections:
            if _visible(collection) and isinstance(collection, Collection):
                data = _collection_data(collection, ax, dpi)
                data.name = f"{data.name} {where}"
                found.append(data)
    return found


# ---------------------------------------------------------------- geometry


def _shrunk(box, by):
    from matplotlib.transforms import Bbox

    return Bbox.from_extents(box.x0 + by, box.y0 + by, box.x1 - by, box.y1 - by)


def _intersection(box, clip):
    from matplotlib.transforms import Bbox

    if clip is None:
        return box
    return Bbox.intersection(box, clip)


def _boxes_overlap(a, b, tolerance=TOLERANCE_PX):
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > tolerance
            and min(a.y1, b.y1) - max(a.y0, b.y0) > tolerance)


def _segments_hit(vertices, half_width, box):
    """Whether a polyline (NaN breaks it) passes through ``box`` widened by ``half_width``."""
    v = np.asarray(vertices, dtype=float)
    if len(v) == 0:
        return False
    x0, y0, x1, y1 = box.x0 - half_width, box.y0 - half_width, box.x1 + half_width, box.y1 + half_width
    if len(v) == 1:
        return bool(x0 <= v[0, 0] <= x1 and y0 <= v[0, 1] <= y1)
    a, b = v[:-1], v[1:]
    ok = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    a, b = a[ok], b[ok]
    # The segment's own box must meet the rectangle ...
    meets = ((np.minimum(a[:, 0], b[:, 0]) <= x1) & (np.maximum(a[:, 0], b[:, 0]) >= x0)
             & (np.minimum(a[:, 1], b[:, 1]) <= y1) & (np.maximum(a[:, 1], b[:, 1]) >= y0))
    if not meets.any():
        return False
    a, b = a[meets], b[meets]
    # ... and the rectangle's corners must not all lie on one side of its line.
    d = b - a
    sides = [d[:, 0] * (cy - a[:, 1]) - d[:, 1] * (cx - a[:, 0])
             for cx, cy in ((x0, y0), (x0, y1), (x1, y0), (x1, y1))]
    sides = np.stack(sides)
    return bool(np.any((sides.min(axis=0) <= 0) & (sides.max(axis=0) >= 0)))


def _markers_hit(xy, half, box):
    xy = np.asarray(xy, dtype=float)
    xy = xy[np.isfinite(xy).all(axis=1)]
    return bool(np.any((xy[:, 0] + half > box.x0) & (xy[:, 0] - half < box.x1)
                       & (xy[:, 1] + half > box.y0) & (xy[:, 1] - half < box.y1)))


def _solid_hit(path, box):
    """A filled shape hides part of the box, but does not hold all of it."""
    if not path.intersects_bbox(box, filled=True):
        return False
    corners = [(box.x0, box.y0), (box.x0, box.y1), (box.x1, box.y0), (box.x1, box.y1)]
    return not path.contains_points(corners).all()


def _hits(data, box):
    box = _intersection(_shrunk(box, TOLERANCE_PX), data.clip)
    if box is None or box.width <= 0 or box.height <= 0:
        return False
    return (any(_segments_hit(v, w, box) for v, w in data.segments)
            or any(_markers_hit(xy, half, box) for xy, half in data.markers)
            or any(_solid_hit(path, box) for path in data.solids))


# ---------------------------------------------------------------- the checks


def _text_on_data(texts, data):
    for text, thing in itertools.product(texts, data):
        if text.tick_axis is not None and thing.ax in (text.tick_axis.axes,):
            continue  # an axis' tick labels sit outside its own data
        if _hits(thing, text.box):
            yield LayoutFault("overlap", f"{text.name} lies on {thing.name}")


def _text_on_text(texts):
    for a, b in itertools.combinations(texts, 2):
        if a.group is b.group and a.tick_axis is None:
            continue  # one legend's entries, one text: laid out together
        if _boxes_overlap(a.box, b.box):
            if a.tick_axis is not None and a.tick_axis is b.tick_axis:
                yield LayoutFault("tick labels collide", f"{a.name} and {b.name} collide")
            else:
                yield LayoutFault("overlap", f"{a.name} lies on {b.name}")


def _insets_on_data(fig, data):
    for inset in _all_axes(fig):
        parents = [ax for ax in _all_axes(fig) if ax is not inset and ax.get_visible()
                   and inset.get_visible() and ax.bbox.contains(inset.bbox.x0 + 1, inset.bbox.y0 + 1)
                   and ax.bbox.contains(inset.bbox.x1 - 1, inset.bbox.y1 - 1)]
        for thing in data:
            if thing.ax in parents and _hits(thing, inset.bbox):
                yield LayoutFault("overlap", f"the inset axes {_axes_name(inset)} lies on {thing.name}")


def _zero_bars(fig, renderer, texts, data):
    from matplotlib.container import BarContainer

    for ax in _all_axes(fig):
        if not _visible(ax):
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
                    name = f"bar of {_quote(label)}" if label and not label.startswith("_") else "bar"
                    at = bar.get_x() + bar.get_width() / 2 if vertical else bar.get_y() + bar.get_height() / 2
                    yield LayoutFault("zero bar", f"a {name} of value {value:.4g} is not drawn (under "
                                      f"{UNSEEN_BAR_PX:g} px) and nothing marks it (axes {_axes_name(ax)}, "
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

    reach = ZERO_MARK_REACH * _points(ax.figure.dpi) * 10  # about one and a half lines of text
    if vertical:
        place = Bbox.from_extents(box.x0, box.y0 - 1, box.x1, box.y1 + reach)
    else:
        place = Bbox.from_extents(box.x0 - 1, box.y0, box.x1 + reach, box.y1)
    for text in texts:
        if text.tick_axis is None and _boxes_overlap(text.box, place, tolerance=0.0):
            return True
    mark = Bbox.from_extents(box.x0, box.y0 - 1, box.x1, box.y1 + 1) if vertical else \
        Bbox.from_extents(box.x0 - 1, box.y0, box.x1 + 1, box.y1)
    return any(thing.ax is ax and thing.segments and _hits(thing, _shrunk(mark, -TOLERANCE_PX))
               for thing in data)


def _has_words(text):
    """Letters outside TeX commands: "rework" has words, "$\\mathdefault{10^{-2}}$" has none."""
    import re

    return any(c.isalpha() for c in re.sub(r"\\[A-Za-z]+", "", text))


def _labels_joining_ticks(fig, renderer):
    """An axis label set as close to a word tick label as one line to the next reads as part of it
    ("Predicted" over the middle class name read "Predicted rework")."""
    for ax in _all_axes(fig):
        if not _visible(ax):
            continue
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            label = axis.label
            if not (_visible(label) and label.get_text().strip()):
                continue
            box = label.get_window_extent(renderer)
            line = label.get_fontsize() * _points(fig.dpi)
            for tick in _tick_labels(axis):
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
                        f"{letter} label {_quote(label.get_text())} (axes {_axes_name(ax)}) is "
                        f"{gap:.0f} px from the tick label {_quote(tick.get_text())}, less than a "
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
                not any(_boxes_overlap(a.box, b.box) for a in moved for b in others):
            return location
    return None


def _measure(fig):
    """Draw the figure (constrained layout settles) and collect its texts and data."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return renderer, _texts(fig, renderer), _data(fig)
