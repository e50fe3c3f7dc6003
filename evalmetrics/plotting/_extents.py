"""What a drawn figure shows, in display coordinates: its texts and its marks.

The measuring half of the figure gate (:mod:`evalmetrics.plotting._layout` holds
the rules).  :func:`texts` lists every piece of text a reader reads, each with
its box (a legend entry is one row, handle and label); :func:`marks` every
plotted thing, as line segments, marker boxes and filled shapes; :func:`hits`
says whether a mark runs through a box.  A mark is what hides text or is hidden
by it: a visible line (reference lines too), a marker, a face at least
``SOLID_ALPHA`` opaque, the outline of a fainter one.  Translucent shading,
images and meshes are background.
"""

from __future__ import annotations

import dataclasses

import numpy as np

#: A face at least this opaque hides what lies under it: it is data, not shading.
SOLID_ALPHA = 0.3
#: Two boxes must share more than this many pixels each way to overlap:
#: extents that merely touch (a label's padding on a line) are not a fault.
TOLERANCE_PX = 1.0


@dataclasses.dataclass(frozen=True)
class TextBox:
    """A piece of text as the reader sees it (a legend entry: handle and label)."""

    name: str
    box: object  # matplotlib Bbox, display coordinates
    group: object  # texts of one group are laid out together (one legend, one axis' ticks)
    tick_axis: object = None


def visible(artist):
    """Drawn at all: visible and not fully transparent."""
    alpha = artist.get_alpha()
    return artist.get_visible() and (alpha is None or alpha > 0)


def quote(text):
    """A text on one line, shortened, for a message."""
    text = " ".join(text.split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def axes_name(ax):
    """An axes as a message names it: by its title, else by an axis label."""
    for text in (ax.get_title(), ax.get_title("left"), ax.get_xlabel(), ax.get_ylabel()):
        if text.strip():
            return quote(text)
    return "untitled"


def all_axes(fig):
    """Every axes of the figure, insets (child axes) included."""
    pending = list(fig.axes)
    while pending:
        ax = pending.pop(0)
        yield ax
        pending.extend(ax.child_axes)


def tick_labels(axis):
    # The ticks a draw shows (those inside the view): the others keep stale positions.
    for tick in axis._update_ticks():
        for label in (tick.label1, tick.label2):
            if visible(label) and label.get_text().strip():
                yield label


def texts(fig, renderer):
    """Every piece of text the figure shows, as a list of :class:`TextBox`."""
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox

    found = []

    def add(artist, name, group, tick_axis=None):
        if not visible(artist):
            return
        if isinstance(artist, Text):
            if not artist.get_text().strip():
                return
            # An annotation's extent includes its arrow; the reader reads the text.
            box = Text.get_window_extent(artist, renderer)
        else:
            box = artist.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            found.append(TextBox(name, box, group, tick_axis))

    def add_legend(legend, where):
        if legend is None or not visible(legend):
            return
        for text, handle in zip(legend.get_texts(), legend.legend_handles):
            if not (visible(text) and text.get_text().strip()):
                continue
            # An entry is read as one row: its handle (a line has no height) and its label.
            box = text.get_window_extent(renderer)
            if handle is not None and visible(handle):
                left = min(box.x0, handle.get_window_extent(renderer).x0)
                box = Bbox.from_extents(left, box.y0, box.x1, box.y1)
            found.append(TextBox(f"legend entry {quote(text.get_text())} {where}", box, legend))
        add(legend.get_title(), f"legend title {quote(legend.get_title().get_text())} {where}", legend)

    for ax in all_axes(fig):
        if not visible(ax):
            continue
        where = f"(axes {axes_name(ax)})"
        for child in ax.get_children():
            if isinstance(child, Text):  # titles, texts, annotations
                add(child, f"text {quote(child.get_text())} {where}", child)
        for axis, letter in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            add(axis.label, f"{letter} label {quote(axis.label.get_text())} {where}", axis.label)
            for label in tick_labels(axis):
                add(label, f"{letter} tick label {quote(label.get_text())} {where}", axis, axis)
        add_legend(ax.get_legend(), where)
    for legend in fig.legends:
        add_legend(legend, "(figure legend)")
    for text in fig.texts:
        add(text, f"figure text {quote(text.get_text())}", text)
    if getattr(fig, "_suptitle", None) is not None:
        add(fig._suptitle, f"figure title {quote(fig._suptitle.get_text())}", fig._suptitle)
    return found


@dataclasses.dataclass
class Marks:
    """A plotted thing in display coordinates: segments, marker boxes and filled shapes."""

    name: str
    ax: object
    clip: object  # Bbox or None
    segments: list = dataclasses.field(default_factory=list)  # (array (n, 2), half width)
    markers: list = dataclasses.field(default_factory=list)  # (array (n, 2), half size)
    solids: list = dataclasses.field(default_factory=list)  # matplotlib Path, display coordinates
    _extent: tuple = dataclasses.field(default=(), init=False, repr=False, compare=False)

    def extent(self):
        """(x0, y0, x1, y1) holding every segment (widened), marker and shape, or None
        when not known (NaN in a shape): a box outside it meets nothing of the thing."""
        key = (len(self.segments), len(self.markers), len(self.solids))
        if not self._extent or self._extent[0] != key:
            self._extent = (key, _extent_of(self))
        return self._extent[1]


def _extent_of(data):
    lows, highs = [], []
    for points, half in [*data.segments, *data.markers]:
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        xy = xy[np.isfinite(xy).all(axis=1)]  # a non-finite point is drawn nowhere
        if len(xy):
            lows.append(xy.min(axis=0) - half)
            highs.append(xy.max(axis=0) + half)
    for path in data.solids:
        box = path.get_extents()
        lows.append(np.array([box.x0, box.y0]))
        highs.append(np.array([box.x1, box.y1]))
    if not lows:
        return (np.inf, np.inf, -np.inf, -np.inf)  # nothing drawn: nothing to meet
    low, high = np.min(lows, axis=0), np.max(highs, axis=0)
    if not (np.isfinite(low).all() and np.isfinite(high).all()):
        return None
    return (float(low[0]), float(low[1]), float(high[0]), float(high[1]))


def pixels_per_point(dpi):
    """Display pixels per typographic point at ``dpi``."""
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
    return float(widths.max()) * pixels_per_point(dpi)


def _colour(colour):
    from matplotlib.colors import to_hex

    try:
        return to_hex(colour)
    except ValueError:
        return "several colours"


def _line_data(line, ax, dpi):
    from matplotlib.path import Path

    name = line.get_label()
    name = f"line {quote(name)}" if name and not name.startswith("_") else \
        f"a line ({_colour(line.get_color())})"
    data = Marks(name, ax, line.get_clip_box() if line.get_clip_on() else None)
    transform = line.get_transform()
    if line.get_linestyle() not in ("None", "none", "", " ") and line.get_linewidth() > 0:
        path = line.get_path()
        if len(path.vertices) > 1 << 16:
            # The line as Agg draws it: simplified in display space (matplotlib's
            # path.simplify), not millions of vertices kept for the check.
            cleaned = path.cleaned(transform=transform, simplify=True)
            # (cleaned() ends with a STOP code at (0, 0), which is not a point of the line.)
            vertices = cleaned.vertices[cleaned.codes != Path.STOP]
        else:
            vertices = transform.transform_path(path).vertices
        data.segments.append((vertices, line.get_linewidth() * pixels_per_point(dpi) / 2))
    if line.get_marker() not in (None, "None", "none", "", " ") and line.get_markersize() > 0:
        xy = transform.transform(line.get_xydata())
        size = (line.get_markersize() + line.get_markeredgewidth()) * pixels_per_point(dpi) / 2
        data.markers.append((xy, size))
    return data


def _patch_data(patch, ax, dpi, name):
    data = Marks(name, ax, patch.get_clip_box() if patch.get_clip_on() else None)
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
    name = f"{quote(name)}" if name and not name.startswith("_") else "a collection"
    data = Marks(name, ax, collection.get_clip_box() if collection.get_clip_on() else None)
    transform = collection.get_transform()
    if isinstance(collection, LineCollection):
        half = _edge_width(collection, dpi) / 2
        for segment in collection.get_segments():
            data.segments.append((transform.transform(segment), half))
    elif isinstance(collection, PathCollection):  # scatter: markers at the offsets
        xy = collection.get_offset_transform().transform(collection.get_offsets())
        sizes = collection.get_sizes()
        half = np.sqrt(sizes.max() if sizes.size else 0.0) * pixels_per_point(dpi) / 2
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


def marks(fig):
    """Every plotted thing of the figure that text must not lie on, as a list of :class:`Marks`."""
    from matplotlib.collections import Collection
    from matplotlib.colors import to_rgba
    from matplotlib.container import BarContainer
    from matplotlib.patches import Patch

    dpi = fig.dpi
    found = []
    for ax in all_axes(fig):
        if not visible(ax):
            continue
        where = f"(axes {axes_name(ax)})"
        bars = {id(bar): container.get_label() for container in ax.containers
                if isinstance(container, BarContainer) for bar in container.patches}
        for line in ax.get_lines():
            if visible(line) and to_rgba(line.get_color(), line.get_alpha())[3] >= SOLID_ALPHA:
                data = _line_data(line, ax, dpi)
                data.name += f" {where}"
                found.append(data)
        for patch in ax.patches:
            if visible(patch) and isinstance(patch, Patch):
                kind = "bar" if id(patch) in bars else "patch"
                label = bars.get(id(patch), patch.get_label())
                name = f"{kind} {quote(label)}" if label and not label.startswith("_") else f"a {kind}"
                found.append(_patch_data(patch, ax, dpi, f"{name} {where}"))
        for collection in ax.collections:
            if visible(collection) and isinstance(collection, Collection):
                data = _collection_data(collection, ax, dpi)
                data.name = f"{data.name} {where}"
                found.append(data)
    return found


# ---------------------------------------------------------------- geometry


def shrunk(box, by):
    """``box`` with ``by`` pixels taken off each side (added, for ``by`` < 0)."""
    from matplotlib.transforms import Bbox

    return Bbox.from_extents(box.x0 + by, box.y0 + by, box.x1 - by, box.y1 - by)


def _intersection(box, clip):
    from matplotlib.transforms import Bbox

    if clip is None:
        return box
    return Bbox.intersection(box, clip)


def boxes_overlap(a, b, tolerance=TOLERANCE_PX):
    """Whether two boxes share more than ``tolerance`` pixels each way."""
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
    # A few thousand segments at a time: a curve of millions of points (the report's ROC
    # curve of a large file) then needs no temporaries as long as itself.
    step = 1 << 15
    return any(_chunk_hits(v[start:start + step + 1], (x0, y0, x1, y1))
               for start in range(0, len(v) - 1, step))


def _chunk_hits(v, widened):
    x0, y0, x1, y1 = widened
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


def hits(data, box):
    """Whether a plotted thing runs through ``box`` (inside the thing's clip box)."""
    # Most (text, thing) pairs of a figure are far apart: their boxes say so at once.
    extent = data.extent()
    if extent is not None:
        x0, y0, x1, y1 = (box.x0 + TOLERANCE_PX, box.y0 + TOLERANCE_PX,
                          box.x1 - TOLERANCE_PX, box.y1 - TOLERANCE_PX)
        if extent[2] < x0 or extent[0] > x1 or extent[3] < y0 or extent[1] > y1:
            return False
    box = _intersection(shrunk(box, TOLERANCE_PX), data.clip)
    if box is None or box.width <= 0 or box.height <= 0:
        return False
    return (any(_segments_hit(v, w, box) for v, w in data.segments)
            or any(_markers_hit(xy, half, box) for xy, half in data.markers)
            or any(_solid_hit(path, box) for path in data.solids))
