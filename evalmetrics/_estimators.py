"""Models the caller passes in: copied before fitting, read by the positive class.

The functions that fit a caller's model (``PlattCalibrated``,
``out_of_fold_probabilities``) never fit the object they were given, as
scikit-learn's meta-estimators never do: a scikit-learn model fits in place,
so a second wrapper around the same object would change the first one's
predictions.  And a scikit-learn classifier's ``predict_proba`` has one
column per class, in the order of its ``classes_``: the positive class's
column is taken by that order, never by position.
"""

from __future__ import annotations

import copy
import dataclasses
import numbers

import numpy as np


def unfitted_copy(estimator, name="estimator"):
    """A copy of ``estimator`` with its options and none of its fitted state.

    scikit-learn estimators (anything with ``get_params``) go through
    ``sklearn.base.clone``; the package's own models (frozen dataclasses,
    whose fitted fields are the ones left out of comparisons) are replaced
    with those fields reset; any other object is deep-copied, as
    ``clone(..., safe=False)`` does.
    """
    if hasattr(estimator, "get_params") and hasattr(estimator, "set_params"):
        from sklearn.base import clone

        return clone(estimator)
    if dataclasses.is_dataclass(estimator) and not isinstance(estimator, type):
        fitted = {f.name: f.default for f in dataclasses.fields(estimator) if f.init and not f.compare}
        return dataclasses.replace(estimator, **fitted)
    try:
        return copy.deepcopy(estimator)
    except Exception as error:  # noqa: BLE001 - any failure to copy is reported the same way
        raise TypeError(
            f"{name} ({type(estimator).__name__}) could not be copied before fitting ({error}); "
            "give it scikit-learn's get_params and set_params, or make it copyable"
        ) from None


def _default_positive(classes):
    """1 (or True) for the classes {0, 1}, {-1, 1} or booleans, else None."""
    values = set(np.asarray(classes).tolist())
    if values and all(isinstance(v, (bool, numbers.Integral)) for v in values) and (
            values <= {0, 1} or values <= {-1, 1}):
        return True if all(isinstance(v, bool) for v in values) else 1
    return None


def positive_probabilities(probabilities, model, pos_label, name="model"):
    """The positive class's probabilities from ``model.predict_proba``'s output.

    One column (the package's models) is taken as it is; a (n, K) array
    (scikit-learn) needs ``model.classes_`` and picks the column of
    ``pos_label``, or of 1 (True) when the classes are {0, 1}, {-1, 1} or
    booleans.
    """
    probabilities = np.asarray(probabilities, dtype=float)
    if probabilities.ndim == 1:
        return probabilities
    if probabilities.ndim != 2:
        raise ValueError(f"{name}.predict_proba must return one column or one column per class, "
                         f"got shape {probabilities.shape}")
    classes = getattr(model, "classes_", None)
    if classes is None:
        raise TypeError(f"{name}.predict_proba returned {probabilities.shape[1]} columns, but {name} has no "
                        "classes_ to say which one is the positive class")
    classes = np.asarray(classes)
    if len(classes) != probabilities.shape[1]:
        raise ValueError(f"{name}.predict_proba returned {probabilities.shape[1]} columns for "
                         f"{len(classes)} classes_")
    positive = _default_positive(classes) if pos_label is None else pos_label
    if positive is None:
        raise ValueError(f"{name}.classes_ are {classes.tolist()}: pass pos_label to say which is positive")
    column = np.flatnonzero(classes == positive)
    if len(column) != 1:
        raise ValueError(f"pos_label={positive!r} is not one of {name}.classes_ {classes.tolist()}")
    return probabilities[:, column[0]]
