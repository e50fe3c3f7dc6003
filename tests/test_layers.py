"""The layers of the package, as ``pyproject.toml`` states them, kept true.

* import-linter's contracts hold (the same check as ``lint-imports``): the
  command line, the report and the plotting functions sit above the metrics,
  which sit above the kernels, which sit above validation; no library module
  imports the book's companion (``evalmetrics.handbook``), not even inside a
  function; the companion imports no private module of the library.
* The contracts can fail: a copy of the package with one forbidden import
  added (a layer upside down, the library importing the companion, the
  companion importing a kernel) breaks the contract that forbids it.
* The companion uses public names only: no name it imports from the library,
  and no attribute it reads from a library module, starts with an
  underscore (import-linter sees modules, not names).
* ``evalmetrics report --demo`` reaches the companion through the documented
  hook only: the entry point ``evalmetrics.report_demos``.
"""

from __future__ import annotations

import ast
import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "evalmetrics"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(folder):
    """(exit status, output) of ``lint-imports`` on the package under ``folder``, without a cache."""
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
                          cwd=folder, capture_output=True, text=True,
                          env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"})
    return done.returncode, done.stdout + done.stderr


def test_the_import_contracts_hold():
    status, output = lint_imports(ROOT)
    assert status == 0, output
    assert "3 kept, 0 broken" in output


VIOLATIONS = {
    # module of the copy, line added at its top, contract that must break
    "arrays.py": ("from evalmetrics import curves  # noqa", "Layers"),
    "_kernels/auc.py": ("from evalmetrics import intervals  # noqa", "Layers"),
    "curves.py": ("def _drawn():\n    from evalmetrics.plotting import curves  # noqa\n", "Layers"),
    "plotting/curves.py": ("def _study():\n    from evalmetrics.handbook import studies  # noqa\n",
                           "never imports the book's companion"),
    "report/commands.py": ("import evalmetrics.handbook.screening_report  # noqa",
                           "never imports the book's companion"),
    "handbook/studies/_common.py": ("from evalmetrics._kernels import normal as _normal  # noqa",
                                    "no private module of the library"),
}


@pytest.mark.parametrize("module", sorted(VIOLATIONS))
def test_a_forbidden_import_breaks_its_contract(tmp_path, module):
    shutil.copytree(PACKAGE, tmp_path / "evalmetrics", ignore=shutil.ignore_patterns("__pycache__"))
    line, contract = VIOLATIONS[module]
    target = tmp_path / "evalmetrics" / module
    text = target.read_text(encoding="utf-8")
    # After the docstring and the __future__ import, where an import may stand.
    anchor = "from __future__ import annotations\n"
    assert anchor in text
    target.write_text(text.replace(anchor, anchor + line + "\n", 1), encoding="utf-8")
    status, output = lint_imports(tmp_path)
    assert status != 0, output
    broken = [block for block in output.split("\n\n") if "BROKEN" in block]
    assert any(contract in " ".join(block.split()) for block in broken), output


# ---------------------------------------------------------------------------
# names: the companion reads only public names of the library
# ---------------------------------------------------------------------------

def _imported(path, node):
    """The absolute module name of a ``from ... import`` statement."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1]
    if node.level == 0:
        return node.module or ""
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _library(module):
    return module.split(".")[0] == "evalmetrics" and not module.startswith("evalmetrics.handbook")


def _is_module(name):
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def private_uses(path):
    """``(line, dotted name)`` of every private library name the file imports or reads."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules, found = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _library(alias.name):
                    modules[alias.asname or alias.name.split(".")[0]] = alias.name
                    found.append((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom):
            module = _imported(path, node)
            if not _library(module):
                continue
            for alias in node.names:
                name = f"{module}.{alias.name}"
                found.append((node.lineno, name))
                if _is_module(name):
                    modules[alias.asname or alias.name] = name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
            found.append((node.lineno, f"{modules[node.value.id]}.{node.attr}"))
    return [(line, name) for line, name in found if any(part.startswith("_") for part in name.split("."))]


def test_the_companion_uses_only_public_names_of_the_library():
    files = sorted((PACKAGE / "handbook").rglob("*.py"))
    assert len(files) > 20
    private = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in files for line, name in private_uses(path)]
    assert private == []


def test_the_name_check_sees_every_kind_of_private_use(tmp_path):
    handbook = tmp_path / "evalmetrics" / "handbook"
    handbook.mkdir(parents=True)
    source = handbook / "probe.py"
    source.write_text(
        "from ..counts import _matrix_from_codes\n"
        "from .._kernels.brier import brier\n"
        "from .. import arrays, counts\n"
        "import evalmetrics._kernels.normal\n"
        "from ..plotting import _style\n"
        "from ..curves import roc_auc\n"
        "x = counts._binary_counts_from_masks\n"
        "y = arrays.seed\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        names = sorted(name for _, name in private_uses(source))
    finally:
        ROOT = saved
    assert names == ["evalmetrics._kernels.brier.brier", "evalmetrics._kernels.normal",
                     "evalmetrics.counts._binary_counts_from_masks", "evalmetrics.counts._matrix_from_codes",
                     "evalmetrics.plotting._style"]


# ---------------------------------------------------------------------------
# the demo's hook
# ---------------------------------------------------------------------------

def test_the_demo_is_reached_through_its_entry_point_only():
    from evalmetrics.report import report_demos
    from evalmetrics.report.commands import DEMO_GROUP

    demos = report_demos()
    assert sorted(demos) == ["breast-cancer"] and DEMO_GROUP == "evalmetrics.report_demos"
    assert demos["breast-cancer"].value == "evalmetrics.handbook.screening_report:breast_cancer_report"
    # Importing the command line and the report loads no companion module.
    code = ("import sys, evalmetrics.__main__, evalmetrics.report; "
            "evalmetrics.__main__.build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith('evalmetrics.handbook')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_unknown_demo_is_named_in_the_error(tmp_path):
    from evalmetrics.report import ReportError, demo_report

    with pytest.raises(ReportError, match="unknown demo 'iris'; the demos are 'breast-cancer'"):
        demo_report("iris", command="(test)", out=str(tmp_path / "out"))
