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

from __future__ import annotations

import dataclasses
import html
import json

import numpy as np

from . import _vegalite as vl
from ._style import BLUE, GREEN

__all__ = [
    "Explorer",
    "binning_explorer",
    "prevalence_explorer",
    "threshold_explorer",
    "threshold_explorer_grid",
]


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
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> explorer = threshold_explorer(units.y_true, units.y_score)
    >>> [p["name"] for p in explorer.spec["params"]]
    ['threshold']
    """

    spec: dict
    description: str

    def _repr_mimebundle_(self, include=None, exclude=None):
        return ({vl.MIME_TYPE: self.spec, "text/plain": self.description},
                {vl.MIME_TYPE: {"embed_options": dict(vl.EMBED_OPTIONS)}})

    def to_json(self) -> str:
        """The specification as JSON text.

        Returns
        -------
        str

        Examples
        --------
        >>> import json
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
        >>> from evalmetrics.worked_example import twelve_units
        >>> units = twelve_units()
        >>> threshold_explorer(units.y_true, units.y_score).to_html()[:38]
        '<div class="evalmetrics-explorer" role'
        """
        # "</" never occurs inside the script element, whatever the labels say.
        data = self.to_json().replace("</", "<\\/")
        options = html.escape(json.dumps(vl.EMBED_OPTIONS, separators=(",", ":")))
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


# --------------------------------------------------------------------- threshold


def threshold_explorer(y_true, y_score, *, thresholds=None, threshold=None, costs=None,
                       cost_range=range(1, 11), pos_label=None, class_names=("positive", "negative")):
    """Move the threshold and watch the counts, the rates and the curves' points follow.

    The scores of the two classes are drawn with the threshold; beside them the
    four counts, accuracy, precision, recall, specificity and F1 at that
    threshold, and the current point on the ROC and precision-recall curves,
    which join the points of every position.  With ``costs`` two more sliders
    set the cost of a false positive and of a false negative, and a third
    panel shows the total cost at every position with the Bayes threshold.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; {0, 1}, {-1, 1} and booleans need no ``pos_label``.
    y_score : array_like of shape (n,)
        Finite scores, larger meaning more likely positive.
    thresholds : array_like, optional
        The slider's positions, increasing and evenly spaced; an example is
        flagged when its score is at least the threshold.  Default: 0 to 1 in
        steps of 0.05 when every score is in [0, 1], else 41 positions from the
        lowest score to the highest.
    threshold : float, optional
        The position shown first (and in a still picture): default the one
        nearest 0.5, or the middle one.
    costs : (float, float), optional
        The costs of a false positive and a false negative shown first; their
        sliders run over ``cost_range``.
    cost_range : array_like, default 1 to 10
        The positions of both cost sliders.
    pos_label : label, optional
        The positive class.
    class_names : (str, str), default ("positive", "negative")
        Names of the positive and the negative class in the chart.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> explorer = threshold_explorer(units.y_true, units.y_score,
    ...                               class_names=("faulty", "working"))
    >>> explorer.spec["params"][0]["value"], len(explorer.spec["datasets"]["states"])
    (0.5, 21)
    """
    from .. import arrays

    is_positive, scores, _ = arrays.binary_scores(y_true, y_score, pos_label=pos_label)
    if thresholds is None:
        if scores.min() >= 0 and scores.max() <= 1:
            thresholds = np.round(np.linspace(0, 1, 21), 2)
        else:
            thresholds = np.linspace(scores.min(), scores.max(), 41)
    grid = _Grid({}, {})
    return _threshold(grid, lambda: (is_positive, scores), thresholds, threshold, costs,
                      cost_range, class_names)


def threshold_explorer_grid(sample, grid, *, thresholds, setting=None, threshold=None,
                            class_names=("positive", "negative")):
    """The threshold explorer over a grid of data sets, one slider per axis of the grid.

    ``sample(**point)`` returns ``(y_true, y_score)`` for each point of the
    grid (labels {0, 1}, {-1, 1} or booleans); every combination is computed
    once, here.  The scores are drawn as histograms whose bins run between the
    threshold positions.

    Parameters
    ----------
    sample : callable
        ``sample(**point) -> (y_true, y_score)``.
    grid : dict of str to array_like
        The positions of each slider (increasing, evenly spaced), by the name
        ``sample`` takes; the slider's label is the name with spaces for
        underscores.
    thresholds : array_like
        The threshold slider's positions.
    setting : dict of str to float, optional
        The position of each slider shown first; default the middle one.
    threshold : float, optional
        As in :func:`threshold_explorer`.
    class_names : (str, str), default ("positive", "negative")
        As in :func:`threshold_explorer`.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> from evalmetrics.datasets import binormal_scores
    >>> def sample(separation):
    ...     return binormal_scores(40, 20, mean=separation, seed=0)
    >>> explorer = threshold_explorer_grid(sample, {"separation": [1, 2, 3]},
    ...                                    thresholds=[-1, 0, 1, 2])
    >>> [p["name"] for p in explorer.spec["params"]]
    ['separation', 'threshold']
    """
    if not callable(sample):
        raise TypeError(f"sample must be a callable returning (y_true, y_score), got {sample!r}")
    if not isinstance(grid, dict) or not grid:
        raise TypeError("grid must be a non-empty dict of slider name to positions")
    axes = {str(name): vl.positions(values, f"grid[{name!r}]") for name, values in grid.items()}
    for name in axes:
        if not name.isidentifier() or name in ("threshold", "cost_fp", "cost_fn"):
            raise ValueError(f"grid: {name!r} cannot name a slider")
    setting = dict(setting or {})
    unknown = set(setting) - set(axes)
    if unknown:
        raise ValueError(f"setting names no axis of the grid: {sorted(unknown)}")
    defaults = {name: vl.default_position(values, setting.get(name, values[len(values) // 2]),
                                          f"setting[{name!r}]") for name, values in axes.items()}
    from .. import arrays

    def draw(**point):
        y_true, y_score = sample(**point)
        is_positive, scores, _ = arrays.binary_scores(y_true, y_score)
        return is_positive, scores

    return _threshold(_Grid(axes, defaults), draw, thresholds, threshold, None, (), class_names)


@dataclasses.dataclass
class _Grid:
    axes: dict  # name -> positions
    defaults: dict  # name -> default position

    def points(self):
        names = list(self.axes)
        for values in np.array(np.meshgrid(*self.axes.values(), indexing="ij")).reshape(
                len(names), -1).T if names else [()]:
            yield {name: float(v) for name, v in zip(names, values)}


# The readout of the threshold explorer: (field, label), and the confusion matrix's cells.
READOUT = (("n", "flagged"), ("acc", "accuracy"), ("ppv", "precision"), ("tpr", "recall"),
           ("tnr", "specificity"), ("f1", "F1"))
CELLS = (("TP", 0, "flagged"), ("FN", 0, "not flagged"), ("FP", 1, "flagged"),
         ("TN", 1, "not flagged"))


def _threshold(grid, draw, thresholds, threshold, costs, cost_range, class_names):
    from ..costs import bayes_threshold, cost_at_threshold
    from ..counts import counts_at_threshold
    from ..rates import accuracy, f1, false_positive_rate, precision, recall, specificity

    thresholds = vl.positions(thresholds, "thresholds")
    wanted = threshold if threshold is not None else (
        0.5 if thresholds[0] <= 0.5 <= thresholds[-1] else thresholds[len(thresholds) // 2])
    first = vl.default_position(thresholds, wanted, "threshold")
    class_names = tuple(str(name) for name in class_names)
    params = [vl.slider(name, name.replace("_", " "), values, grid.defaults[name])
              for name, values in grid.axes.items()]
    params.append(vl.slider("threshold", "threshold", thresholds, first))
    cost_values = ()
    if costs is not None:
        cost_values = vl.positions(cost_range, "cost_range")
        if np.any(cost_values < 0) or np.any(cost_values != np.round(cost_values)):
            raise ValueError("cost_range must hold whole, non-negative costs")
        cost_values = cost_values.astype(int)
        params += [vl.slider("cost_fp", "cost of a false positive", cost_values,
                             vl.default_position(cost_values, costs[0], "costs[0]")),
                   vl.slider("cost_fn", "cost of a false negative", cost_values,
                             vl.default_position(cost_values, costs[1], "costs[1]"))]
    states, dots, bars = [], [], []
    small = None
    for point in grid.points():
        is_positive, scores = draw(**point)
        small = len(scores) <= 60 if small is None else small
        keyed = {name: vl.plain(value) for name, value in point.items()}
        if small:
            dots += [{**keyed, "score": vl.plain(s), "class": class_names[0 if p else 1]}
                     for s, p in zip(scores, is_positive)]
        else:
            bars += _histogram(keyed, scores, is_positive, thresholds, class_names)
        for t in thresholds:
            c = counts_at_threshold(is_positive, scores, float(t))
            row = {**keyed, "threshold": vl.plain(t),
                   "fpr": vl.rounded(false_positive_rate(c, zero_division=np.nan))}
            for key, value in zip((key for key, _ in READOUT), (
                    c.tp + c.fp, accuracy(c), precision(c, zero_division=np.nan),
                    recall(c, zero_division=np.nan), specificity(c, zero_division=np.nan),
                    f1(c, zero_division=np.nan))):
                row[key] = vl.number(value)
            for key, _, _ in CELLS:
                row[key] = vl.number(getattr(c, key.lower()))
            # The total cost of every pair of costs, by key "c<cFP>_<cFN>" (the sliders' values).
            for cfp in cost_values:
                for cfn in cost_values:
                    row[f"c{cfp}_{cfn}"] = vl.number(cost_at_threshold(
                        is_positive, scores, float(t), false_positive_cost=float(cfp),
                        false_negative_cost=float(cfn)))
            states.append(row)
    datasets = {"states": states}
    sliders = {**grid.axes, "threshold": thresholds}
    here = vl.where(sliders)
    sample_only = vl.where(grid.axes) if grid.axes else "true"
    top = _scores_view(dots, bars, datasets, sample_only, thresholds, class_names)
    panels = [_matrix_view(here, class_names),
              vl.readout(here, READOUT, width=150, title="At this threshold", data="states"),
              _curve_view(sample_only, here, "roc"), _curve_view(sample_only, here, "pr")]
    rows = [top, {"hconcat": panels[:2], "spacing": 24}, {"hconcat": panels[2:], "spacing": 40}]
    if len(cost_values):
        datasets["bayes"] = [
            {"cost_fp": int(cfp), "cost_fn": int(cfn),
             "bayes": vl.rounded(bayes_threshold(false_positive_cost=float(cfp),
                                                 false_negative_cost=float(cfn))
                                 if cfp + cfn > 0 else np.nan),
             "text": vl.number(bayes_threshold(false_positive_cost=float(cfp),
                                               false_negative_cost=float(cfn))
                               if cfp + cfn > 0 else np.nan)}
            for cfp in cost_values for cfn in cost_values]
        rows.append(_cost_view(thresholds, sample_only, here))
    description = ("The scores of the two classes with a movable threshold, the counts and "
                   "rates at that threshold, and its point on the ROC and precision-recall "
                   "curves" + (", with the total cost for the chosen costs"
                               if len(cost_values) else "") + ".")
    return Explorer(vl.spec(description, params, datasets, {"vconcat": rows, "spacing": 24}),
                    description)


def _histogram(keyed, scores, is_positive, thresholds, class_names):
    # Bins between neighbouring thresholds, so a bar is wholly flagged or not; a
    # score beyond the last position counts in the last bin, one below the first
    # in the first.
    edges = np.append(thresholds, thresholds[-1] + (thresholds[1] - thresholds[0]))
    rows = []
    for name, mask, sign in ((class_names[0], is_positive, 1), (class_names[1], ~is_positive, -1)):
        index = np.clip(np.searchsorted(edges, scores[mask], side="right") - 1, 0, len(thresholds) - 1)
        counts = np.bincount(index, minlength=len(thresholds))
        rows += [{**keyed, "class": name, "low": vl.plain(edges[i]), "height": int(sign * counts[i])}
                 for i in range(len(thresholds)) if counts[i]]
    return rows


def _scores_view(dots, bars, datasets, sample_only, thresholds, class_names):
    span = [thresholds[0], thresholds[-1] + (0 if dots else thresholds[1] - thresholds[0])]
    x_title = "score (flagged at or above the threshold)"
    flagged = {"data": {"values": [{}]}, "transform": [{"calculate": "threshold", "as": "t"}],
               "mark": {"type": "rule", "color": vl.CURRENT, "strokeWidth": 2},
               "encoding": {"x": {"field": "t", "type": "quantitative"}}}
    if dots:
        datasets["scores"] = dots
        marks = {"data": {"name": "scores"}, "transform": [{"filter": sample_only}],
                 "mark": {"type": "point", "filled": True, "size": 90, "opacity": 0.85},
                 "encoding": {"x": vl.linear("score", x_title, span),
                              "y": {"field": "class", "type": "nominal", "title": None,
                                    "sort": list(class_names)},
                              "color": vl.class_colour("class", class_names)}}
        height = 70
    else:
        datasets["bars"] = bars
        marks = {"data": {"name": "bars"},
                 "mark": {"type": "rect", "opacity": 0.85},
                 "transform": [{"filter": sample_only},
                               {"calculate": f"datum.low + {vl.plain(thresholds[1] - thresholds[0])}",
                                "as": "high"}],
                 "encoding": {"x": vl.linear("low", x_title, span), "x2": {"field": "high"},
                              "y": {"field": "height", "type": "quantitative",
                                    "title": "count (negatives below)",
                                    "axis": {"labelExpr": "abs(datum.value)"}},
                              "y2": {"datum": 0},
                              "color": vl.class_colour("class", class_names)}}
        height = 140
    return {"title": "Scores", "width": vl.WIDTH - 60, "height": height,
            "layer": [marks, flagged]}


def _matrix_view(here, class_names):
    axis = {"orient": "top", "labelAngle": 0, "title": None, "domain": False, "ticks": False}
    cells = [{"key": key, "actual": class_names[row], "decision": decision}
             for key, row, decision in CELLS]
    return {"title": "Counts", "width": 190, "height": 90, "data": {"name": "states"},
            "transform": [{"filter": here}, {"fold": [key for key, _, _ in CELLS],
                                             "as": ["key", "count"]},
                          {"lookup": "key", "from": {"data": {"values": cells}, "key": "key",
                                                     "fields": ["actual", "decision"]}},
                          {"calculate": "datum.key + ' ' + datum.count", "as": "text"}],
            "encoding": {"x": {"field": "decision", "type": "nominal",
                               "sort": ["flagged", "not flagged"], "axis": axis},
                         "y": {"field": "actual", "type": "nominal", "sort": list(class_names),
                               "axis": {**axis, "orient": "left"}}},
            "layer": [{"mark": {"type": "rect", "fill": "#F2F2F2", "stroke": "#FFFFFF",
                                "strokeWidth": 3}},
                      {"name": "matrix_text", "mark": {"type": "text"},
                       "encoding": {"text": {"field": "text"}}}]}


def _curve_view(sample_only, here, kind):
    # Positions from the printed recall and precision (a parse, no arithmetic).
    x, y = ("fpr", "y_tpr") if kind == "roc" else ("y_tpr", "y_ppv")
    titles = (("false positive rate", "true positive rate") if kind == "roc"
              else ("recall", "precision"))
    encoding = {"x": vl.linear(x, titles[0], (0, 1)), "y": vl.linear(y, titles[1], (0, 1)),
                "order": {"field": "threshold", "type": "quantitative", "sort": "descending"}}
    parse = [{"calculate": "toNumber(datum.tpr)", "as": "y_tpr"},
             {"calculate": "toNumber(datum.ppv)", "as": "y_ppv"}, {"filter": f"isFinite(datum.{y})"}]
    layers = [{"transform": [{"filter": sample_only}, *parse],
               "mark": {"type": "line", "color": BLUE, "point": {"size": 20, "color": BLUE}},
               "encoding": encoding},
              {"transform": [{"filter": here}, *parse],
               "mark": {"type": "point", "filled": True, "size": 160, "color": vl.CURRENT,
                        "stroke": "#000000", "strokeWidth": 1, "opacity": 1},
               "encoding": {"x": {"field": x, "type": "quantitative"},
                            "y": {"field": y, "type": "quantitative"}}}]
    if kind == "roc":
        layers.insert(0, {"data": {"values": [{"a": 0}, {"a": 1}]},
                          "mark": {"type": "line", "color": vl.REFERENCE, "strokeDash": [4, 4]},
                          "encoding": {"x": {"field": "a", "type": "quantitative"},
                                       "y": {"field": "a", "type": "quantitative"}}})
    return {"title": "ROC curve" if kind == "roc" else "Precision-recall curve",
            "width": 200, "height": 200, "data": {"name": "states"}, "layer": layers}


def _cost_view(thresholds, sample_only, here):
    # The total cost of the sliders' costs: the row's field named by their values.
    pick = [{"calculate": "datum['c' + cost_fp + '_' + cost_fn]", "as": "text"},
            {"calculate": "toNumber(datum.text)", "as": "cost"}]
    costs_only = "cost_fp == datum.cost_fp && cost_fn == datum.cost_fn"
    line = {"transform": [{"filter": sample_only}, *pick],
            "mark": {"type": "line", "color": GREEN, "point": {"size": 20, "color": GREEN}},
            "encoding": {"x": vl.linear("threshold", "threshold", (thresholds[0], thresholds[-1]),
                                        tickCount=5),
                         "y": vl.linear("cost", "total cost")}}
    point = {"transform": [{"filter": here}, *pick],
             "mark": {"type": "point", "filled": True, "size": 160, "color": vl.CURRENT,
                      "stroke": "#000000", "strokeWidth": 1, "opacity": 1},
             "encoding": {"x": {"field": "threshold", "type": "quantitative"},
                          "y": {"field": "cost", "type": "quantitative"}}}
    bayes = {"data": {"name": "bayes"}, "transform": [{"filter": costs_only}],
             "mark": {"type": "rule", "color": vl.REFERENCE, "strokeDash": [6, 3], "strokeWidth": 2},
             "encoding": {"x": {"field": "bayes", "type": "quantitative"}}}
    chart = {"title": "Total cost (dashed: the Bayes threshold)", "width": 330, "height": 160,
             "data": {"name": "states"}, "layer": [line, point, bayes]}
    cost_text = {**vl.readout(here, (("text", "total cost"),), width=160, title="At these costs",
                              name="cost", data="states")}
    cost_text["transform"] = [cost_text["transform"][0], pick[0], *cost_text["transform"][1:]]
    bayes_text = vl.readout(costs_only, (("text", "Bayes threshold"),), width=160, title=None,
                            name="bayes", data="bayes")
    return {"hconcat": [chart, {"vconcat": [cost_text, bayes_text], "spacing": 4}], "spacing": 30}


# -------------------------------------------------------------------- prevalence


def prevalence_explorer(y_true, y_pred=None, *, prevalences=None, prevalence=None, pos_label=None):
    """The same classifier at a prevalence the reader chooses: which measures move.

    The classifier keeps its true and false positive rates; at prevalence pi
    its expected counts per example are ``TPR pi``, ``FPR (1 - pi)``, ... and
    every measure is computed from them.  A measure whose value changes
    anywhere on the slider is drawn in one colour, one that never moves in
    another; a tick marks each measure at the data's own prevalence.

    Parameters
    ----------
    y_true : array_like of shape (n,) or BinaryCounts
        True labels, or the counts alone (then omit ``y_pred``).
    y_pred : array_like of shape (n,), optional
        Predicted labels.
    prevalences : array_like, optional
        The slider's positions, evenly spaced in (0, 1); default 0.01 to 0.99
        in steps of 0.01.
    prevalence : float, optional
        The position shown first; default the one nearest the data's own.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> explorer = prevalence_explorer(units.y_true, units.y_score >= 0.5)
    >>> explorer.spec["params"][0]["value"]
    0.33
    """
    from ..counts import BinaryCounts, binary_counts
    from ..rates import (accuracy, balanced_accuracy, cohen_kappa, f1, false_positive_rate,
                         matthews_correlation, precision, recall, specificity)

    if y_pred is None:
        if not isinstance(y_true, BinaryCounts):
            raise TypeError("prevalence_explorer needs y_pred, or counts alone as a BinaryCounts")
        counts = y_true
    else:
        counts = binary_counts(y_true, y_pred, pos_label=pos_label)
    if counts.positives <= 0 or counts.negatives <= 0:
        raise ValueError("prevalence_explorer needs both classes: its rates are per class")
    tpr, fpr = recall(counts), false_positive_rate(counts)
    values = vl.positions(np.round(np.arange(1, 100) / 100, 2) if prevalences is None
                          else prevalences, "prevalences")
    if values[0] <= 0 or values[-1] >= 1:
        raise ValueError("prevalences must lie strictly between 0 and 1")
    own = counts.positives / counts.total
    first = (float(values[np.argmin(np.abs(values - own))]) if prevalence is None
             else vl.default_position(values, prevalence, "prevalence"))
    measures = (("accuracy", accuracy), ("balanced accuracy", balanced_accuracy),
                ("recall (TPR)", recall), ("specificity", specificity),
                ("precision", lambda c: precision(c, zero_division=np.nan)), ("F1", f1),
                ("MCC", matthews_correlation), ("Cohen's kappa", cohen_kappa))

    def expected(pi):
        return BinaryCounts(tp=tpr * pi, fp=fpr * (1 - pi), fn=(1 - tpr) * pi, tn=(1 - fpr) * (1 - pi))

    table = {name: np.array([measure(expected(pi)) for pi in values]) for name, measure in measures}
    table["accuracy, flagging nothing"] = np.array(
        [accuracy(BinaryCounts(tp=0.0, fp=0.0, fn=pi, tn=1 - pi)) for pi in values])
    nearest = int(np.argmin(np.abs(values - own)))
    fields = [(f"m{i}", name) for i, name in enumerate(table)]
    rows = [{"prevalence": vl.plain(pi),
             **{key: vl.number(table[name][i]) for key, name in fields}}
            for i, pi in enumerate(values)]
    moving = ["moves with the prevalence" if np.nanmax(c) - np.nanmin(c) > 1e-12 else "does not move"
              for c in table.values()]
    measures_table = vl.lookup_table(fields, reference=[vl.rounded(c[nearest]) for c in table.values()],
                                     moves=moving)
    here = vl.where({"prevalence": values})
    y = {"field": "order", "type": "ordinal", "axis": None}
    low = min(0.0, float(np.nanmin([np.nanmin(c) for c in table.values()])))
    text = vl.readout(here, fields, width=200, title=None, name="measures")
    transform = text.pop("transform")
    transform[-1]["from"]["fields"] += ["reference", "moves"]
    transform[-1]["from"]["data"]["values"] = measures_table
    bars = {"mark": {"type": "bar", "height": 12},
            "transform": [{"calculate": "toNumber(datum.text)", "as": "value"}],
            "encoding": {"y": y, "x": vl.linear("value", "value at the chosen prevalence", (low, 1)),
                         "color": {"field": "moves", "type": "nominal", "title": None,
                                   "scale": {"domain": ["moves with the prevalence", "does not move"],
                                             "range": list(vl.CLASS_COLOURS)},
                                   "legend": {"orient": "top", "direction": "vertical",
                                              "labelLimit": 0}}}}
    ticks = {"mark": {"type": "tick", "color": "#000000", "thickness": 2, "size": 16},
             "encoding": {"y": y, "x": {"field": "reference", "type": "quantitative"}}}
    chart = {"width": 260, "height": text["height"], "layer": [bars, ticks]}
    description = ("Expected measures of one classifier at a prevalence set with a slider, "
                   "coloured by whether they move with the prevalence.")
    body = {"title": f"Measures at the chosen prevalence (tick: at the data's own, {own:.4g})",
            "data": {"name": "rates"}, "transform": transform, "hconcat": [text, chart],
            "spacing": 16}
    params = [vl.slider("prevalence", "prevalence", values, first)]
    return Explorer(vl.spec(description, params, {"rates": rows}, body), description)


# ----------------------------------------------------------------------- binning


# The binned and the exact decomposition: (attribute, label).
BINNED = (("reliability", "reliability"), ("resolution", "resolution"),
          ("uncertainty", "uncertainty"), ("binned_brier_score", "Brier score of the bin means"),
          ("within_bin_variance", "within-bin variance"),
          ("within_bin_covariance", "within-bin covariance"),
          ("brier_score", "Brier score (original)"))
EXACT = (("reliability", "reliability"), ("resolution", "resolution"),
         ("uncertainty", "uncertainty"), ("brier_score", "Brier score"))


def binning_explorer(y_true, y_prob, *, bins=range(1, 21), n_bins=10, strategy="uniform",
                     pos_label=None):
    """The number of bins of a reliability diagram and of the binned Brier decomposition.

    The reliability diagram of the chosen number of bins, beside the binned
    decomposition (reliability, resolution and uncertainty of the forecaster
    that reports bin means, its Brier score and the two extra terms that
    separate it from the original score) and the exact decomposition over
    distinct forecasts, which no slider changes.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels.
    y_prob : array_like of shape (n,)
        Forecast probabilities of the positive class.
    bins : array_like of int, default 1 to 20
        The slider's positions.
    n_bins : int, default 10
        The position shown first.
    strategy : {"uniform", "quantile"}, default "uniform"
        As in :func:`evalmetrics.calibration.binned_brier_decomposition`.
    pos_label : label, optional
        The positive class.

    Returns
    -------
    Explorer

    Examples
    --------
    >>> from evalmetrics.worked_example import twelve_units
    >>> units = twelve_units()
    >>> explorer = binning_explorer(units.y_true, units.y_score, n_bins=2)
    >>> explorer.spec["params"][0]["bind"]["max"]
    20
    """
    from ..calibration import binned_brier_decomposition, brier_decomposition, reliability_curve

    positions = vl.positions(bins, "bins")
    if np.any(positions != np.round(positions)) or positions[0] < 1:
        raise ValueError("bins must be whole numbers of bins, at least 1")
    first = vl.default_position(positions, n_bins, "n_bins")
    exact = brier_decomposition(y_true, y_prob, pos_label=pos_label)
    diagram, terms = [], []
    for k in positions.astype(int):
        curve = reliability_curve(y_true, y_prob, n_bins=int(k), strategy=strategy, pos_label=pos_label)
        diagram += [{"bins": int(k), "mean_predicted": vl.rounded(x),
                     "fraction_positive": vl.rounded(y), "count": int(n)} for x, y, n in zip(*curve)]
        b = binned_brier_decomposition(y_true, y_prob, n_bins=int(k), strategy=strategy,
                                       pos_label=pos_label)
        terms.append({"bins": int(k), **{key: vl.number(getattr(b, key)) for key, _ in BINNED}})
    exact_row = {key: vl.number(getattr(exact, key)) for key, _ in EXACT}
    here = vl.where({"bins": positions})
    axes = {"x": vl.linear("mean_predicted", "mean forecast in the bin", (0, 1)),
            "y": vl.linear("fraction_positive", "observed share of positives", (0, 1))}
    diagonal = {"data": {"values": [{"a": 0}, {"a": 1}]},
                "mark": {"type": "line", "color": vl.REFERENCE, "strokeDash": [4, 4]},
                "encoding": {"x": {"field": "a", "type": "quantitative"},
                             "y": {"field": "a", "type": "quantitative"}}}
    points = {"data": {"name": "diagram"}, "transform": [{"filter": here}],
              "mark": {"type": "line", "color": BLUE, "point": {"filled": True, "color": BLUE}},
              "encoding": axes}
    sizes = {"data": {"name": "diagram"}, "transform": [{"filter": here}],
             "mark": {"type": "circle", "color": BLUE, "opacity": 0.35},
             "encoding": {**axes, "size": {"field": "count", "type": "quantitative",
                                           "title": "rows in the bin", "legend": {"orient": "bottom"}}}}
    chart = {"title": "Reliability diagram", "width": 230, "height": 230,
             "layer": [diagonal, sizes, points]}
    binned = vl.readout(here, BINNED, width=260, title="Binned decomposition", name="binned",
                        data="terms")
    exact_view = vl.readout("true", EXACT, width=260, title="Exact decomposition (no bins)",
                            name="exact", data="exact")
    description = ("A reliability diagram and the binned Brier decomposition for a number of "
                   "bins set with a slider, beside the exact decomposition.")
    params = [vl.slider("bins", "number of bins", positions, first)]
    body = {"hconcat": [chart, {"vconcat": [binned, exact_view], "spacing": 20}], "spacing": 30}
    return Explorer(vl.spec(description, params,
                            {"diagram": diagram, "terms": terms, "exact": [exact_row]}, body),
                    description)
