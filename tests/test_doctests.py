"""The docstrings' examples run, with the suite: what
``python -m pytest --doctest-modules evalmetrics`` runs, module by module."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

import evalmetrics

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))

import evalmetrics_api  # noqa: E402


def _package_modules():
    for info in pkgutil.walk_packages(evalmetrics.__path__, "evalmetrics."):
        if not info.name.endswith("__main__"):  # running it would start the command line
            yield info.name


@pytest.mark.parametrize("module_name", sorted(_package_modules()))
def test_examples_run_as_doctests(module_name):
    # What `python -m pytest --doctest-modules evalmetrics` runs, module by module,
    # so that the examples are part of the test suite (CONTRIBUTING promises they run).
    module = importlib.import_module(module_name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(verbose=False)
    report = []
    for test in finder.find(module, module_name):
        runner.run(test, out=report.append)
    # The plotting examples open figures: close them so they do not pile up.
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} examples failed:\n" + "".join(report)


def test_every_public_function_has_a_doctest_example():
    # The test above would pass on a module without examples: this says they exist
    # (for the public API: every function, its own).
    finder = doctest.DocTestFinder()
    empty = [name for name, obj in evalmetrics_api.public_objects()
             if inspect.isfunction(obj) and "." not in obj.__qualname__
             and not any(test.examples for test in finder.find(obj, name))]
    assert empty == []
