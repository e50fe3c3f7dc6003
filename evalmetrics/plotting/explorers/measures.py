"""The prevalence explorer and the binning explorer: which measures a slider moves."""

from __future__ import annotations

import functools

import numpy as np

from .._style import BLUE
from . import _vegalite as vl
from ._vegalite import Explorer

__all__ = ["binning_explorer", "prevalence_explorer"]


def prevalence_explorer(y_true=None, y_pred=None, *, counts=None, prevalences=None, prevalence=None, pos_label=None):
    """The same classifier at a prevalence the reader chooses: which measures move.

    The classifier keeps its true and false positive rates; at prevalence pi
    its expected counts per example are ``TPR pi``, ``FPR (1 - pi)``, ... and
    every measure is computed from them.  A measure whose value changes
    anywhere on the slider is drawn in one colour, one that never moves in
    another; a tick marks each measure at the slider's position nearest
    the data's own prevalence.

    Parameters
    ----------
    y_true, y_pred : array_like of shape (n,), optional
        True and predicted labels.
    counts : BinaryCounts, optional
        The counts instead of the labels (a keyword of its own, as in the
        rate functions).
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
    from ...counts import BinaryCounts, binary_counts
    from ...rates import (
        accuracy,
        balanced_accuracy,
        cohen_kappa,
        f1,
        false_positive_rate,
        matthews_correlation,
        precision,
        recall,
        specificity,
    )

    if counts is not None:
        if y_true is not None or y_pred is not None:
            raise TypeError("prevalence_explorer takes either y_true and y_pred or counts=, not both")
        if not isinstance(counts, BinaryCounts):
            raise TypeError(f"counts must be a BinaryCounts, got {type(counts).__name__}")
    elif y_true is None or y_pred is None:
        raise TypeError("prevalence_explorer needs y_true and y_pred, or counts=")
    else:
        counts = binary_counts(y_true, y_pred, pos_label=pos_label)
    if counts.positives <= 0 or counts.negatives <= 0:
        raise ValueError("prevalence_explorer needs both classes: its rates are per class")
    tpr, fpr = recall(counts=counts), false_positive_rate(counts=counts)
    values = vl.positions(np.round(np.arange(1, 100) / 100, 2) if prevalences is None
                          else prevalences, "prevalences")
    if values[0] <= 0 or values[-1] >= 1:
        raise ValueError("prevalences must lie strictly between 0 and 1")
    own = counts.positives / counts.total
    first = (float(values[np.argmin(np.abs(values - own))]) if prevalence is None
             else vl.default_position(values, prevalence, "prevalence"))
    measures = (("accuracy", accuracy), ("balanced accuracy", balanced_accuracy),
                ("recall (TPR)", recall), ("specificity", specificity),
                ("precision", functools.partial(precision, zero_division=np.nan)), ("F1", f1),
                ("MCC", matthews_correlation), ("Cohen's kappa", cohen_kappa))

    def expected(pi):
        return BinaryCounts(tp=tpr * pi, fp=fpr * (1 - pi), fn=(1 - tpr) * pi, tn=(1 - fpr) * (1 - pi))

    table = {name: np.array([measure(counts=expected(pi)) for pi in values]) for name, measure in measures}
    table["accuracy, flagging nothing"] = np.array(
        [accuracy(counts=BinaryCounts(tp=0.0, fp=0.0, fn=pi, tn=1 - pi)) for pi in values])
    nearest = int(np.argmin(np.abs(values - own)))
    fields = [(f"m{i}", name) for i, name in enumerate(table)]
    rows = [{"prevalence": vl.plain(pi),
             **{key: vl.rate(table[name][i]) for key, name in fields}}
            for i, pi in enumerate(values)]
    moving = ["moves with the prevalence" if np.nanmax(c) - np.nanmin(c) > 1e-12 else "does not move"
              for c in table.values()]
    measures_table = vl.lookup_table(fields, reference=[vl.rounded(c[nearest]) for c in table.values()],
                                     moves=moving)
    here = vl.where({"prevalence": values})
    y = {"field": "order", "type": "ordinal", "axis": None}
    low = min(0.0, float(np.nanmin([np.nanmin(c) for c in table.values()])))
    text = vl.readout(here, fields, width=250, title=None, name="measures")
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
    body = {"title": f"Measures at the chosen prevalence (ticks at {values[nearest]:g}, "
                     f"nearest the data's {own:.4g})",
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
    from ...calibration import binned_brier_decomposition, brier_decomposition, reliability_curve

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
        terms.append({"bins": int(k), **{key: vl.rate(getattr(b, key)) for key, _ in BINNED}})
    exact_row = {key: vl.rate(getattr(exact, key)) for key, _ in EXACT}
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
                                           "title": "rows in the bin",
                                           # whole rows: no 0.5 among the legend's sizes
                                           "legend": {"orient": "bottom", "format": "d", "tickMinStep": 1}}}}
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
