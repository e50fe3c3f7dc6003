"""Helpers shared by the test files: comparing results with a tolerance, reading a
figure's layout, watching the bootstrap's fast path, running the command line.

The test files import it by name (``from helpers import assert_close``):
pytest puts ``tests/`` on ``sys.path`` for the files in it.
"""

from __future__ import annotations

import numpy as np

# Metrics are sums and ratios of the same counts as scikit-learn's, so they
# agree to rounding; 1e-12 leaves room for a different order of summation.
TOL = 1e-12


def flat(value):
    """Any result (number, array, tuple or list of either) as one flat float array."""
    if isinstance(value, (tuple, list)):
        return np.concatenate([flat(v) for v in value]) if value else np.array([])
    return np.atleast_1d(np.asarray(value, dtype=float)).ravel()


def assert_close(actual, expected, *, tol=TOL, relative=False):
    """Assert two results equal up to ``tol``: same shape, NaN where the other is NaN.

    Arrays keep their shape (a transposed matrix fails); a tuple or list
    (a named-tuple result, several arrays) is compared flattened, so a
    missing or extra element fails too.  The difference is absolute; with
    ``relative=True`` it may also be ``tol`` times the expected value (for
    large counts and sums).
    """
    if isinstance(actual, (tuple, list)) or isinstance(expected, (tuple, list)):
        a, b = flat(actual), flat(expected)
    else:
        a, b = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert a.shape == b.shape, f"shapes differ: {a.shape} against {b.shape}"
    np.testing.assert_allclose(a, b, rtol=tol if relative else 0.0, atol=tol, equal_nan=True)


def assert_readable(fig):
    """Assert that a drawn figure can be read: no text on data or text, no bar left
    undrawn (``evalmetrics.plotting._layout.layout_faults`` says what it measures)."""
    from evalmetrics.plotting._layout import layout_faults

    faults = layout_faults(fig)
    assert not faults, "the figure has layout faults:\n" + "\n".join(map(str, faults))


def spy_on_engine(monkeypatch) -> list:
    """A list that records every run of the AUC bootstrap engine from now on (one entry
    per bootstrap whose replicates it computed): the proof that a run took the fast
    path (an empty list: it did not, even if an engine was built and then failed the
    bootstrap's check)."""
    from evalmetrics._kernels import bootstrap_auc

    calls = []
    real = bootstrap_auc.AucEngine.replicates

    def spy(self, *args, **kwargs):
        calls.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(bootstrap_auc.AucEngine, "replicates", spy)
    return calls


def run_cli(argv, capsys):
    """``(exit status, stdout, stderr)`` of ``evalmetrics`` with ``argv``; argparse's
    own exits included."""
    from evalmetrics.__main__ import main

    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def score_matrix_case(seed, n=300, k=3, strings=False, weighted=False, tenths=True, names=None):
    """Labels, a score matrix and weights of ``k`` classes (every class present).

    Each row is probabilities leaning towards the row's class and summing to
    1, as scikit-learn's multiclass AUC demands; with ``tenths`` they are
    whole tenths, so ties are everywhere.  Labels are ``names`` (default:
    letters if ``strings``, else 0, 10, 20, ...); weights are rounded to one
    decimal.
    """
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, k, n)
    codes[:k] = np.arange(k)
    lean = rng.dirichlet(np.ones(k), n) + np.eye(k)[codes] * rng.random((n, 1))
    scores = lean / lean.sum(axis=1, keepdims=True)
    if tenths:
        scores = np.array([rng.multinomial(10, row) for row in scores]) / 10.0
    if names is None:
        names = np.array(list("pqrstuvw"[:k])) if strings else np.arange(k) * 10
    weights = np.round(rng.uniform(0, 3, n), 1) if weighted else None
    return np.asarray(names)[codes], scores, weights
