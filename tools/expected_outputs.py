"""Record the outputs nbval compares:  python tools/expected_outputs.py [PAGE...]

Runs each chapter (all chapters of ``_toc.yml`` by default) the way nbval does
(jupytext, a fresh kernel, the page's folder as working directory) and writes
the outputs of the cells tagged ``nbval-check-output`` to
``tests/book_outputs/<page>.json``.  A page that fails to run records nothing.
Review the diff of the JSON files like any other change of an expected value.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conftest import OUTPUTS, is_notebook, toc_chapters  # noqa: E402

# What nbval compares anyway (it skips images, metadata and counters).
KEEP = {"output_type", "name", "text", "data", "ename", "evalue"}
SKIP_DATA = {"image/png", "image/jpeg", "application/pdf"}


def marked(cell) -> bool:
    # The tag nbval reads; its comment marker would show on the page, so it is not used.
    return "nbval-check-output" in cell.metadata.get("tags", [])


def record(path: Path) -> list[dict] | None:
    import jupytext
    from nbclient import NotebookClient

    nb = jupytext.read(str(path), fmt="md:myst")
    if not any(c.cell_type == "code" and marked(c) for c in nb.cells):
        return None
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code" and marked(cell):
            outputs = []
            for out in cell.outputs:
                out = {k: v for k, v in out.items() if k in KEEP}
                if "data" in out:
                    out["data"] = {k: v for k, v in out["data"].items() if k not in SKIP_DATA}
                outputs.append(out)
            cells.append({"source": cell.source, "outputs": outputs})
    return cells


def main(argv: list[str]) -> int:
    pages = [p for p in toc_chapters() if is_notebook(p) and (not argv or p.stem in argv)]
    OUTPUTS.mkdir(parents=True, exist_ok=True)
    for path in pages:
        cells = record(path)
        target = OUTPUTS / f"{path.stem}.json"
        if cells is None:
            if target.exists():
                target.unlink()
            continue
        target.write_text(json.dumps({"page": f"book/{path.name}", "cells": cells},
                                     indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{target.relative_to(ROOT)}: {len(cells)} cell(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
