"""The types the public signatures name (annotations only; private).

``ArrayLike`` is NumPy's: anything ``np.asarray`` reads (lists, tuples,
arrays, pandas Series).  The other names say what the package's rules
accept (``arrays.positive_mask``, ``arrays.ratio``, ``arrays.seed``).
The modules use them under ``from __future__ import annotations``, so the
signatures cost nothing at run time, and the API reference (autodoc with
``autodoc_typehints: none``) shows the plain signatures.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["ArrayLike", "Label", "Seed", "ZeroDivision"]

#: A class label: a number, a string or a bool (a NumPy scalar too).
Label = int | float | str | bool | np.generic

#: The value of an undefined ratio: "warn" (0 and a warning), 0, 1 or NaN.
ZeroDivision = Literal["warn"] | float

#: A source of randomness: None (fresh entropy), an integer or a NumPy Generator.
Seed = int | np.random.Generator | None
