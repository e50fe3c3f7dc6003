"""``evalmetrics-notebooks.zip``: every chapter's notebook, ready to run without a clone.

The website offers one archive (``_build/html/evalmetrics-notebooks.zip``) with

* every page's notebook and, for a chapter with exercises, its solutions
  notebook (both as ``tools/notebooks.py`` wrote them to ``_sources/book/``);
* a wheel of the package built from the same sources (``pip wheel --no-deps``),
  the file each notebook's install cell installs;
* ``constraints.txt``: the exact versions (from the repository's lock) of what the
  wheel's ``[ml,plot]`` extras install;
* a short README: how to set up an environment and open the notebooks.

Everything sits in one folder, ``evalmetrics-notebooks/``, so the notebooks'
links to each other and their install cell (a relative path to the wheel) work
where the archive is unpacked.  ``_ext/evalmetrics_book.py`` calls
:func:`write_zip` at the end of every HTML build; the wheel is built again only
when the package's sources change (it is kept under ``_build/wheel/``).
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ZIP_NAME = "evalmetrics-notebooks.zip"
FOLDER = "evalmetrics-notebooks"
# A fixed time stamp: the same notebooks and wheel give the same archive.
_STAMP = (2020, 1, 1, 0, 0, 0)

README = """\
# The evalmetrics handbook: notebooks (version {version})

Every chapter of the handbook as a Jupyter notebook, with the worked solutions of
its exercises in `<chapter>-solutions.ipynb`, and `{wheel}`, the package the
notebooks run, built from the same sources as the website.

To run them, in this folder:

    python -m venv .venv
    .venv/bin/python -m pip install --constraint constraints.txt "{wheel}[ml,plot]" jupyterlab
    .venv/bin/jupyter lab

`constraints.txt` holds the exact versions of NumPy, SciPy, scikit-learn, matplotlib and
what they need, the versions the website's numbers and figures were computed with, so
the notebooks print the same numbers in week 1 and in week 12 of a course (leave out
`--constraint constraints.txt` to take the newest releases instead).

(on Windows: `.venv\\Scripts\\python` and `.venv\\Scripts\\jupyter`).  The first code
cell of every notebook installs the wheel too, where `evalmetrics` is missing (for
example in Colab: upload the wheel beside the notebook).  Python 3.10 or later.

The chapters' explorers (figures with sliders) are Vega-Lite, which JupyterLab
and Jupyter Notebook 7 draw themselves: they need nothing more.

The chapters (the reference's pages, `api-*.ipynb`, are here too, for the links
between notebooks):

{chapters}
"""


def package_fingerprint(root: Path) -> str:
    """What the wheel is made of: ``pyproject.toml`` and the package's files."""
    digest = hashlib.sha256((root / "pyproject.toml").read_bytes())
    for path in sorted((root / "evalmetrics").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def start_wheel(root: Path, cache: Path, version: str):
    """Start building the wheel of the package at ``root`` (once per state of its
    sources) and return a function that waits for it and returns its path.

    ``pip wheel`` takes about 3 s, in a process of its own: the book's build starts it
    when its kernels are done and takes the wheel when it writes the zip, so that the
    build, on one core by then, does not wait for it.
    """
    folder = cache / package_fingerprint(root)
    wheel = folder / f"evalmetrics-{version}-py3-none-any.whl"
    if wheel.is_file():
        return lambda: wheel
    if cache.exists():
        shutil.rmtree(cache)  # wheels of older sources
    folder.mkdir(parents=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir",
         str(folder), str(root)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait() -> Path:
        _, stderr = process.communicate()
        if process.returncode != 0 or not wheel.is_file():
            raise RuntimeError(f"pip wheel failed:\n{(stderr or '')[-3000:]}")
        return wheel

    return wait


def _name(requirement: str) -> str:
    """A distribution's name as pip compares names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"\s*([A-Za-z0-9_.\-]+)", requirement)[1]).lower()


def wheel_constraints(root: Path, extras: tuple[str, ...] = ("ml", "plot")) -> str:
    """The lines of ``constraints.txt`` (the lock) for what ``evalmetrics[ml,plot]``
    installs: the package's dependencies and theirs, as this environment has them."""
    from importlib import metadata

    import tomllib
    from packaging.requirements import Requirement

    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    needed: set[str] = set()
    while wanted:
        requirement = Requirement(wanted.pop())
        name = _name(requirement.name)
        if name in needed or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        needed.add(name)
        wanted += metadata.requires(requirement.name) or []
    lines = [line for line in (root / "constraints.txt").read_text(encoding="utf-8").splitlines()
             if line and not line.startswith("#") and _name(line) in needed]
    header = ("# Exact versions of what evalmetrics[ml,plot] installs, from the handbook's lock:\n"
              "#   pip install --constraint constraints.txt \"<the wheel>[ml,plot]\"\n")
    return header + "\n".join(lines) + "\n"


def readme(version: str, wheel: str, chapters: list[tuple[str, str, str]]) -> str:
    """The archive's README; ``chapters`` are ``(number, title, notebook file)``, the
    number "" for a chapter the book does not number (the bibliography)."""
    lines = [f"{number}. {title}: `{name}`" for number, title, name in chapters if number]
    back = [f"* {title}: `{name}`" for number, title, name in chapters if not number]
    return README.format(version=version, wheel=wheel,
                         chapters="\n".join(lines + ([""] if lines and back else []) + back))


def write_zip(target: Path, notebooks: list[Path], wheel: Path, readme_text: str,
              constraints: str) -> Path:
    """Write the archive: the notebooks, the wheel, its constraints and the README in one
    folder."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".zip.part")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        def add(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(f"{FOLDER}/{name}", date_time=_STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)

        add("README.md", readme_text.encode("utf-8"))
        add("constraints.txt", constraints.encode("utf-8"))
        for path in notebooks:
            add(path.name, path.read_bytes())
        add(wheel.name, wheel.read_bytes())
    partial.replace(target)  # never a half-written archive on the website
    return target
