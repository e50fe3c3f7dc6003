"""The chart of an explorer (:class:`Explorer`) and the pieces of its Vega-Lite 5
specification.

The specifications are plain JSON: version 5, the version JupyterLab 4 and
Notebook 7 render with their built-in renderer (its Vega-Lite is 5.6, so
nothing newer than 5.6 is used here).  A view never computes a metric: it
filters the rows the package computed down to the sliders' current values
(:func:`where`) and draws or prints them.  Numbers are printed as the
package formatted them (:func:`number`), so that the page shows exactly the
text the tests compute.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math

import numpy as np

from .._style import BLUE, GREY, ORANGE, VERMILION

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"
MIME_TYPE = "application/vnd.vegalite.v5+json"
# SVG, so that every number is text a reader can select and a screen reader can read.
EMBED_OPTIONS = {"renderer": "svg", "actions": False}
# Sizes in CSS pixels.  A chart at most WIDTH wide is shown at its natural size
# in the website's column (660 px) and printed at most 6.27 in wide in the PDF,
# where 12 px text is at least 8 pt.
WIDTH = 600
FONT_PX = 12
ROW_PX = 18
CONFIG = {
    "font": "DejaVu Sans, Verdana, sans-serif",
    "axis": {"labelFontSize": FONT_PX, "titleFontSize": FONT_PX, "titleFontWeight": "normal",
             "grid": False},
    "legend": {"labelFontSize": FONT_PX, "titleFontSize": FONT_PX},
    "title": {"fontSize": FONT_PX + 1, "fontWeight": "bold", "anchor": "start"},
    "text": {"fontSize": FONT_PX},
    "view": {"stroke": None},
    "concat": {"spacing": 28},
}
CLASS_COLOURS = (VERMILION, BLUE)  # positive, negative
CURRENT = ORANGE
REFERENCE = GREY


def number(value, places: int = 4) -> str:
    """A count or a total as the explorers print it: a whole number as an integer,
    another to ``places`` decimals, NaN as "undefined"."""
    value = float(value)
    if math.isnan(value):
        return "undefined"
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return f"{value:.{places}f}"


def rate(value, places: int = 4) -> str:
    """A rate or a score as the explorers print it: to ``places`` decimals, an
    undefined ratio (NaN) as "undefined"."""
    value = float(value)
    return "undefined" if math.isnan(value) else f"{value:.{places}f}"


def positions(values, name: str) -> np.ndarray:
    """The positions of a slider: finite, increasing and evenly spaced (a range
    input has one step), as float64."""
    array = np.asarray(values, dtype=float).ravel()
    if array.size < 2:
        raise ValueError(f"{name} needs at least two positions, got {array.size}")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite numbers")
    steps = np.diff(array)
    if np.any(steps <= 0) or np.ptp(steps) > 1e-9 * max(1.0, abs(steps[0])):
        raise ValueError(f"{name} must be increasing and evenly spaced (one slider step), "
                         f"got steps from {steps.min():g} to {steps.max():g}")
    return array


def slider(name: str, label: str, values: np.ndarray, default: float) -> dict:
    """A top-level parameter bound to a labelled range input over ``values``."""
    step = float(values[1] - values[0])
    return {"name": name, "value": _whole(default),
            "bind": {"input": "range", "min": _whole(values[0]), "max": _whole(values[-1]),
                     "step": _whole(step), "name": f"{label} "}}


def _whole(value):
    # A whole number as an integer: the slider shows "2", not "2.0".
    value = _plain(value)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def default_position(values: np.ndarray, wanted, name: str) -> float:
    """The position of ``values`` equal to ``wanted`` (up to rounding); an error if
    there is none."""
    index = int(np.argmin(np.abs(values - wanted)))
    if abs(values[index] - wanted) > 1e-9 * (values[1] - values[0]):
        raise ValueError(f"{name}={wanted!r} is not one of the slider's positions "
                         f"({values[0]:g} to {values[-1]:g})")
    return float(values[index])


def where(sliders: dict[str, np.ndarray]) -> str:
    """A filter keeping the rows of the sliders' current values.  A slider's value
    and a row's field are compared within half a step: a range input's value is a
    decimal string, whose number may differ from the row's in the last bit."""
    return " && ".join(f"abs(datum['{name}'] - {name}) < {_plain((v[1] - v[0]) / 2)}"
                       for name, v in sliders.items())


def readout(condition: str, fields, *, width: int, title, name: str = "readout",
            data: str | None = None) -> dict:
    """A two-column text table of the row the sliders select: for each ``(key,
    label)`` of ``fields`` the label left and the row's text ``key`` right (fold
    and lookup: a reshaping, no arithmetic); marks named ``<name>_label`` and
    ``<name>_value``."""
    labels = [{"key": key, "label": label, "order": i} for i, (key, label) in enumerate(fields)]
    y = {"field": "order", "type": "ordinal", "axis": None}
    view = {
        "width": width, "height": len(labels) * ROW_PX,
        "transform": [{"filter": condition},
                      {"fold": [key for key, _ in fields], "as": ["key", "text"]},
                      {"lookup": "key", "from": {"data": {"values": labels}, "key": "key",
                                                 "fields": ["label", "order"]}}],
        "layer": [
            {"name": f"{name}_label", "mark": {"type": "text", "align": "left"},
             "encoding": {"y": y, "x": {"value": 0}, "text": {"field": "label"}}},
            {"name": f"{name}_value", "mark": {"type": "text", "align": "right"},
             "encoding": {"y": y, "x": {"value": width}, "text": {"field": "text"}}},
        ],
    }
    if title:
        view["title"] = title
    if data:
        view["data"] = {"name": data}
    return view


def lookup_table(fields, **columns) -> list[dict]:
    """Rows ``{key, label, order, **columns}`` for a lookup by key."""
    return [{"key": key, "label": label, "order": i, **{c: v[i] for c, v in columns.items()}}
            for i, (key, label) in enumerate(fields)]


def linear(field: str, title: str, domain=None, **axis) -> dict:
    """A quantitative position channel with a title and an optional fixed domain."""
    channel = {"field": field, "type": "quantitative", "title": title}
    if domain is not None:
        channel["scale"] = {"domain": [_plain(d) for d in domain], "nice": False}
    if axis:
        channel["axis"] = axis
    return channel


def class_colour(field: str, names) -> dict:
    return {"field": field, "type": "nominal", "title": None,
            "scale": {"domain": list(names), "range": list(CLASS_COLOURS)},
            "legend": {"orient": "top", "direction": "horizontal"}}


def plain(value):
    """A value JSON can carry: Python numbers, None for NaN."""
    return _plain(value)


def _plain(value):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return None
        # The shortest decimal that reads back as the same number: 0.35, not 0.35000000000000003.
        return round(value, 12) if value != 0 else 0.0
    return value


def rounded(value, places: int = 4):
    """A position to draw (not to print), to ``places`` decimals: shorter data."""
    value = _plain(value)
    return value if value is None or isinstance(value, int) else round(value, places)


def spec(description: str, sliders: list[dict], datasets: dict, body: dict) -> dict:
    """A complete top-level specification."""
    return {"$schema": SCHEMA, "description": description, "config": CONFIG,
            "params": sliders, "datasets": datasets, **body}


@dataclasses.dataclass(frozen=True, eq=False)
class Explorer:
    """An interactive chart: a Vega-Lite 5 specification with its data.

    Attributes
    ----------
    spec : dict
        The specification (JSON-ready), data included.
    description : str
        What the chart shows, one sentence: its text form and its alt text.

    Examples
    --------
    >>> from evalmetrics.plotting.explorers import threshold_explorer
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> explorer = threshold_explorer(units.y_true, units.y_score)
    >>> [p["name"] for p in explorer.spec["params"]]
    ['threshold']
    """

    spec: dict
    description: str

    def _repr_mimebundle_(self, include=None, exclude=None):
        return ({MIME_TYPE: self.spec, "text/plain": self.description},
                {MIME_TYPE: {"embed_options": dict(EMBED_OPTIONS)}})

    def to_json(self) -> str:
        """The specification as JSON text.

        Returns
        -------
        str

        Examples
        --------
        >>> import json
        >>> from evalmetrics.plotting.explorers import threshold_explorer
        >>> from evalmetrics.worked_example import twelve_units
        >>> units = twelve_units()
        >>> text = threshold_explorer(units.y_true, units.y_score).to_json()
        >>> json.loads(text)["$schema"].endswith("vega-lite/v5.json")
        True
        """
        return json.dumps(self.spec, separators=(",", ":"), allow_nan=False)

    def to_html(self) -> str:
        """The element a web page embeds, drawn there by the page's own Vega-Embed.

        A ``div.evalmetrics-explorer`` holding the specification as JSON and the
        options of Vega-Embed.

        Returns
        -------
        str

        Examples
        --------
        >>> from evalmetrics.plotting.explorers import threshold_explorer
        >>> from evalmetrics.worked_example import twelve_units
        >>> units = twelve_units()
        >>> threshold_explorer(units.y_true, units.y_score).to_html()[:38]
        '<div class="evalmetrics-explorer" role'
        """
        # "</" never occurs inside the script element, whatever the labels say.
        data = self.to_json().replace("</", "<\\/")
        options = html.escape(json.dumps(EMBED_OPTIONS, separators=(",", ":")))
        return (f'<div class="evalmetrics-explorer" role="figure" '
                f'aria-label="{html.escape(self.description)}" data-embed-options="{options}">'
                f'<div class="evalmetrics-explorer-view"></div>'
                f'<script type="application/json">{data}</script></div>')

    def to_png(self, *, scale: float = 2.0) -> bytes:
        """A PNG of the chart at the sliders' default positions (vl-convert-python).

        Parameters
        ----------
        scale : float, default 2.0
            Pixels per CSS pixel.

        Returns
        -------
        bytes
        """
        return _vl_convert().vegalite_to_png(self.spec, scale=float(scale), vl_version="5.8")

    def to_pdf(self) -> bytes:
        """A vector PDF of the chart at the sliders' default positions (vl-convert-python).

        Returns
        -------
        bytes
        """
        return _vl_convert().vegalite_to_pdf(self.spec, vl_version="5.8")


def _vl_convert():
    try:
        import vl_convert
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError("a still picture of an explorer needs vl-convert-python: "
                          "pip install 'evalmetrics[interactive]'") from error
    return vl_convert


