"""The threshold explorer: of one data set, or of a grid of data sets."""

from __future__ import annotations

import dataclasses

import numpy as np

from .._style import BLUE, GREEN
from . import _vegalite as vl
from ._vegalite import Explorer

__all__ = ["threshold_explorer", "threshold_explorer_grid"]


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
    >>> states = explorer.spec["datasets"]["states"]
    >>> explorer.spec["params"][0]["value"], len(states)
    (0.5, 21)
    """
    from ... import arrays

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
    from ... import arrays

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
    from ...costs import bayes_threshold, cost_at_threshold
    from ...counts import counts_at_threshold
    from ...rates import accuracy, f1, false_positive_rate, precision, recall, specificity

    thresholds = vl.positions(thresholds, "thresholds")
    if threshold is None:  # the position nearest 0.5, or the middle one
        inside = thresholds[0] <= 0.5 <= thresholds[-1]
        first = float(thresholds[np.argmin(np.abs(thresholds - 0.5))] if inside
                      else thresholds[len(thresholds) // 2])
    else:
        first = vl.default_position(thresholds, threshold, "threshold")
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
                   "fpr": vl.rounded(false_positive_rate(counts=c, zero_division=np.nan))}
            for key, value in zip((key for key, _ in READOUT), (
                    c.tp + c.fp, accuracy(counts=c), precision(counts=c, zero_division=np.nan),
                    recall(counts=c, zero_division=np.nan), specificity(counts=c, zero_division=np.nan),
                    f1(counts=c, zero_division=np.nan))):
                row[key] = vl.number(value) if key == "n" else vl.rate(value)
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
             "text": vl.rate(bayes_threshold(false_positive_cost=float(cfp),
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


