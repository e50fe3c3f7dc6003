"""Docstrings: complete numpydoc sections on the library's public API (the objects
the book's reference documents), and a package that works without its docstrings
(``python -OO``).  The examples run in ``test_doctests.py``."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
from numpydoc.docscrape import ClassDoc
from numpydoc.validate import validate

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "_ext"))

import evalmetrics_api  # noqa: E402

PUBLIC = dict(evalmetrics_api.public_objects())

# The numpydoc checks every public function, method and class must pass, and why.
CHECKS = {
    "GL08",  # a docstring at all
    "GL01", "GL02", "GL03",  # no blank-line noise around the text (renders badly)
    "SS01", "SS02", "SS03", "SS04", "SS06",  # a one-line summary, capitalised, full stop:
    # the reference's tables and the tooltips show only that line
    "SS05",  # no third-person verb ("Returns ..."): summaries are noun phrases or
    # imperatives.  The check looks at a final "s", so a summary starting with a name
    # (Matthews, Cohen's) is phrased around it.
    "PR01", "PR02",  # every parameter documented, and none that does not exist
    "PR03",  # in the order of the signature, the order a reader calls it in
    "PR05", "PR06", "PR08", "PR09", "PR10",  # readable parameter types and descriptions
    "RT01",  # what comes back (the results are named types: say which)
    "EX01",  # an example, which test_doctests.py runs (functions only: see below)
}
# Left out, deliberately:
# * SA01 (See Also) and ES01 (extended summary): a small function whose summary says
#   everything needs neither, and the chapters are the See Also.
# * PR04 / PR07 / RT03 (a type and a description for each parameter and return value):
#   grouped entries ("y_true, y_pred, pos_label -- As in :func:`precision`") point to
#   the one place a shared parameter is described, and a return type such as
#   ``RocCurve`` or ``float`` often says all; a sentence under each (about 170 are
#   missing) would mostly repeat the name.  PR01 still requires every parameter to
#   be there.
# * EX01 for classes and methods: result classes are built by the function whose
#   example shows them, and each estimator's class example shows its methods.
#   Every public *function* has its own example.
# * PR01 / PR02 / PR03 for dataclasses and named tuples: their constructor arguments
#   are their fields, documented under Parameters (options) or Attributes (results,
#   fitted values); test_records_document_every_field checks that each one is.


def _is_record(obj) -> bool:
    return inspect.isclass(obj) and (dataclasses.is_dataclass(obj) or hasattr(obj, "_fields"))


def _fields(cls) -> list[str]:
    if dataclasses.is_dataclass(cls):
        return [field.name for field in dataclasses.fields(cls)]
    return list(cls._fields)


def _checks_for(obj) -> set[str]:
    checks = set(CHECKS)
    if not inspect.isfunction(obj) or "." in obj.__qualname__:
        checks.discard("EX01")  # classes and methods: see above
    if _is_record(obj):
        checks -= {"PR01", "PR02", "PR03"}
    return checks


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_numpydoc_sections_are_complete(name):
    obj = PUBLIC[name]
    # numpydoc imports by the defining module's path; the documented name may be a re-export.
    path = f"{obj.__module__}.{obj.__qualname__}"
    errors = [f"{code}: {message}" for code, message in validate(path)["errors"]
              if code in _checks_for(obj)]
    assert errors == []


@pytest.mark.parametrize("name", sorted(n for n, obj in PUBLIC.items() if _is_record(obj)))
def test_records_document_every_field(name):
    # A record's fields are its constructor's arguments (options, under Parameters) or
    # what it holds (results and fitted values, under Attributes): each is in one of them.
    cls = PUBLIC[name]
    doc = ClassDoc(cls, config={"show_class_members": False})
    documented = [name.strip() for section in ("Parameters", "Attributes")
                  for item in doc[section] for name in item.name.split(",")]
    assert sorted(documented) == sorted(_fields(cls))


def test_the_public_api_is_what_the_package_re_exports():
    # Every name of a listed module is importable from the package above it, and every
    # library module the package re-exports is listed (the companions are not library).
    companions = {"pitfalls", "studies", "screening", "comparisons", "handbook"}
    for module_name in evalmetrics_api.LIBRARY_MODULES + evalmetrics_api.PLOTTING_MODULES:
        module = importlib.import_module(module_name)
        package = importlib.import_module(evalmetrics_api.public_package(module_name))
        assert [getattr(package, name) for name in module.__all__] == \
            [getattr(module, name) for name in module.__all__]
    init = (ROOT / "evalmetrics" / "__init__.py").read_text(encoding="utf-8")
    re_exported = {f"evalmetrics.{name}" for name in re.findall(r"^from \.(\w+) import \*", init, re.MULTILINE)
                   if name not in companions}
    assert re_exported == set(evalmetrics_api.LIBRARY_MODULES)


def test_every_listed_module_has_its_reference_entry_once():
    pages = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "book").glob("api*.md"))
    used = re.findall(r"^\.\. api-module:: (\S+)$", pages, re.MULTILINE)
    assert sorted(used) == sorted(evalmetrics_api.LIBRARY_MODULES + evalmetrics_api.PLOTTING_MODULES)


# ------------------------------------------------------------------ python -OO

@pytest.mark.parametrize(("code", "expected"), [
    ("import evalmetrics, pkgutil, importlib\n"
     "for info in pkgutil.walk_packages(evalmetrics.__path__, 'evalmetrics.'):\n"
     "    if not info.name.endswith('__main__'):\n"
     "        importlib.import_module(info.name)\n"
     "assert evalmetrics.roc_auc.__doc__ is None\n"
     "units = evalmetrics.twelve_units()\n"
     "print(evalmetrics.roc_auc(units.y_true, units.y_score))",
     "0.796875"),  # the handbook's AUC of the twelve units, 25.5 / 32
    ("import evalmetrics.plotting; print(evalmetrics.plotting.PALETTE[0])", "#0072B2"),
])
def test_the_package_imports_and_runs_without_docstrings(code, expected):
    # python -OO strips every docstring: nothing may read or edit one at import time.
    result = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_the_command_line_help_works_without_docstrings():
    result = subprocess.run([sys.executable, "-OO", "-m", "evalmetrics", "report", "--help"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "--out" in result.stdout
