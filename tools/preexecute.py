"""Run the book's pages in parallel before Sphinx reads them, filling myst-nb's cache.

myst-nb (``execute_notebooks: cache``) executes each page when Sphinx reads it, one
page after another, each in a new kernel.  ``_ext/evalmetrics_book.py`` calls
:func:`preexecute` at ``env-before-read-docs`` with the pages Sphinx is about to
read; the ones myst-nb would have to execute run here, ``workers`` kernels at a
time, and go into the same jupyter-cache, exactly as myst-nb would have stored
them.  When Sphinx then reads a page, myst-nb finds it in the cache and renders
its stored outputs (stderr outputs included, so ``stderr_output: warn`` still
warns).

The notebook is the one myst-nb itself reads from the page (its reader, its
Markdown configuration, its kernel aliases and per-page ``mystnb`` overrides),
so the cache key (code cells, their metadata and the kernelspec) is the one
myst-nb looks up.  A page that fails here is *not* cached: myst-nb runs it
again while reading and fails the build exactly as without pre-execution
(``raise_on_error``).
"""

from __future__ import annotations

import dataclasses as dc
import json
import os
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext, suppress
from pathlib import Path, PurePosixPath
from tempfile import TemporaryDirectory

import nbformat


@dc.dataclass
class Page:
    docname: str
    path: str  # as Sphinx's env.doc2path gives it: the uri myst-nb records
    notebook: nbformat.NotebookNode
    nb_config: object  # myst_nb.core.config.NbParserConfig, with the page's overrides
    read_fmt: dict | None
    seconds: float | None = None
    error: str | None = None


def read_page(docname: str, path: str, md_config, nb_config) -> Page | None:
    """The notebook myst-nb's parser builds from the page (``None`` if not a notebook).

    Mirrors ``myst_nb.sphinx_.Parser.parse`` up to ``create_client``.
    """
    from myst_nb.core.nb_to_tokens import nb_node_to_dict
    from myst_nb.core.read import create_nb_reader

    text = Path(path).read_text(encoding="utf-8")
    reader = create_nb_reader(path, md_config, nb_config, text)
    if reader is None:
        return None
    notebook = reader.read(text)
    kernel_name = notebook.metadata.get("kernelspec", {}).get("name", None)
    if kernel_name is not None and nb_config.kernel_rgx_aliases:
        for rgx, alias in nb_config.kernel_rgx_aliases.items():
            if re.fullmatch(rgx, kernel_name):
                notebook.metadata["kernelspec"]["name"] = alias
                break
    if nb_config.metadata_key in notebook.metadata:
        overrides = nb_node_to_dict(notebook.metadata[nb_config.metadata_key])
        overrides.pop("output_folder", None)
        try:
            nb_config = nb_config.copy(**overrides)
        except Exception:  # myst-nb warns about it when it reads the page
            pass
    return Page(docname, path, notebook, nb_config, reader.read_fmt)


def needs_execution(page: Page, cache) -> bool:
    """True when myst-nb, reading this page, would execute it (cache mode, no match)."""
    config = page.nb_config
    if config.execution_mode != "cache":
        return False
    posix = PurePosixPath(Path(page.path).as_posix())
    if any(posix.match(pattern) for pattern in config.execution_excludepatterns):
        return False
    try:
        cache.match_cache_notebook(page.notebook)
    except KeyError:
        return True
    return False


def execute_page(page: Page) -> Page:
    """Execute the page's notebook in place, as myst-nb's cache client does."""
    from jupyter_cache.executors.utils import single_nb_execution

    config = page.nb_config
    cwd_context = (TemporaryDirectory() if config.execution_in_temp
                   else nullcontext(str(Path(page.path).parent)))
    start = time.perf_counter()
    try:
        with cwd_context as cwd:
            result = single_nb_execution(
                page.notebook, cwd=os.path.abspath(cwd),
                allow_errors=config.execution_allow_errors,
                timeout=config.execution_timeout, meta_override=True)
    except Exception as error:  # e.g. the kernel died or did not start
        page.seconds = time.perf_counter() - start
        page.error = f"{error.__class__.__name__}: {error}"
        return page
    page.seconds = result.time
    if result.err is not None:
        page.error = f"{result.err.__class__.__name__}"
    return page


def join_split_streams(notebook) -> int:
    """Join adjacent stream outputs of the same name (stdout, stderr) into one.

    The kernel sends what a cell prints in chunks, flushed on a timer: a busy
    machine (two kernels at once) can cut one ``print`` block into two outputs,
    which myst-nb renders as two boxes.  Joined, the outputs are those of an
    unhurried run; the text is unchanged.  Returns the number of joins.
    """
    joins = 0
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        outputs = []
        for output in cell.get("outputs", []):
            previous = outputs[-1] if outputs else None
            if (output.get("output_type") == "stream" and previous is not None
                    and previous.get("output_type") == "stream"
                    and previous.get("name") == output.get("name")):
                previous["text"] = previous["text"] + output["text"]
                joins += 1
            else:
                outputs.append(output)
        cell.outputs = outputs
    return joins


def store(page: Page, cache) -> None:
    """Put an executed page into the cache: the record myst-nb would write."""
    from jupyter_cache.base import CacheBundleIn
    from jupyter_cache.cache.db import NbProjectRecord

    if page.read_fmt is not None:
        record = cache.add_nb_to_project(page.path, read_data=page.read_fmt)
    else:
        record = cache.add_nb_to_project(page.path)
    NbProjectRecord.remove_tracebacks([record.pk], cache.db)
    cache.cache_notebook_bundle(
        CacheBundleIn(page.notebook, record.uri, data={"execution_seconds": page.seconds}),
        check_validity=False, overwrite=True)


def load_timings(path: Path) -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text()).items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def schedule(pages: list[Page], timings: dict[str, float]) -> list[Page]:
    """Longest first (seconds of the last run; else the amount of code), so that the
    last kernels to finish are short ones."""
    def code_size(page):
        return sum(len(cell.source) for cell in page.notebook.cells if cell.cell_type == "code")
    return sorted(pages, key=lambda page: (timings.get(page.docname, -1.0), code_size(page)),
                  reverse=True)


def preexecute(pages: Iterable[Page], cache, workers: int = 2,
               timings_file: Path | None = None,
               log: Callable[[str], None] = print) -> list[Page]:
    """Execute the pages the cache lacks, ``workers`` at a time; cache the successes.

    Returns the pages executed (``page.error`` set for the failed ones, which are
    left to myst-nb).
    """
    todo = [page for page in pages if needs_execution(page, cache)]
    if not todo:
        return []
    timings = load_timings(timings_file) if timings_file else {}
    todo = schedule(todo, timings)
    log(f"executing {len(todo)} notebook(s), {workers} at a time")
    start = time.perf_counter()
    done = []
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for page in pool.map(execute_page, todo):
            done.append(page)
            if page.error is None:
                join_split_streams(page.notebook)
                store(page, cache)
                log(f"Executing notebook {page.docname} (pre-execution): "
                    f"{page.seconds:.1f} s")
            else:
                log(f"Executing notebook {page.docname} (pre-execution) failed: "
                    f"{page.error}; myst-nb runs it again and reports it")
    log(f"{len(done)} notebook(s) executed in {time.perf_counter() - start:.1f} s")
    if timings_file:
        timings.update({page.docname: round(page.seconds, 2) for page in done
                        if page.seconds is not None})
        with suppress(OSError):
            timings_file.parent.mkdir(parents=True, exist_ok=True)
            timings_file.write_text(json.dumps(timings, indent=1, sort_keys=True) + "\n")
    return done
