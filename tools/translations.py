"""The translated editions:  python tools/translations.py {html,pdf,update} LANGUAGE [PAGE...]

* ``html zh_CN``: the Chinese edition of the website, built by Sphinx from the same
  pages as the English with ``language = zh_CN`` and the catalogues of ``locale/``,
  into ``_build/zh_CN/html`` (its own doctrees, beside the English ones), then copied
  to ``_build/html/zh_CN/``: one site, the Chinese under its own path.  Run after the
  English build (``make book``): the pages are read from the English build's
  execution cache (nothing runs a second time) and references to pages without a
  catalogue go to the English pages (the English build's ``objects.inv``).  Prints
  the coverage of each translated page and the seconds the edition took.
* ``pdf zh_CN``: the translated chapters as one PDF, ``_build/zh_CN/latex/evalmetrics-zh_CN.pdf``
  (xelatex with xeCJK and the Noto CJK fonts of Debian), through the overfull-box gate.
* ``update zh_CN [book/<page>...]``: the English pages' messages (Sphinx's gettext
  builder) merged by ``sphinx-intl update`` into the catalogues of the translated
  pages, and of the pages named, whose catalogues it creates: new paragraphs appear
  untranslated, changed ones fuzzy (a fuzzy entry is not used), so the coverage shows
  what is left to do.

``_ext/evalmetrics_i18n.py`` says what the translated build does besides Sphinx's own
internationalisation (glue in translated text, coverage, stubs, the language switch).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import latex_log  # noqa: E402  (tools/latex_log.py)

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
LOCALE = ROOT / "locale"
BIN = ROOT / ".venv" / "bin"
#: Per language: the book's title, and the LaTeX set-up of its script.
EDITIONS = {
    "zh_CN": {
        "title": "评估指标",
        "latex": {
            # xeCJK with Debian's Noto CJK (fonts-noto-cjk): Chinese text in the
            # same lines as the Latin of formulas and code.
            "fontpkg": "\\usepackage{xeCJK}\n"
                       "\\setCJKmainfont{Noto Serif CJK SC}\n"
                       "\\setCJKsansfont{Noto Sans CJK SC}\n"
                       "\\setCJKmonofont{Noto Sans Mono CJK SC}\n",
        },
    },
}


def translated_pages(language: str) -> list[str]:
    """The pages with a catalogue (``book/<page>``), in the order of ``_toc.yml``."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    order = [toc["root"]]

    def walk(node):
        for part in node.get("parts", []):
            walk(part)
        for entry in node.get("chapters", []) + node.get("sections", []):
            order.append(entry["file"])
            walk(entry)

    walk(toc)
    folder = LOCALE / language / "LC_MESSAGES"
    return [page for page in order if (folder / f"{page}.po").is_file()]


def overrides(language: str, builder: str) -> dict:
    """The translated edition's Sphinx configuration on top of ``_config.yml``."""
    edition = EDITIONS[language]
    config = {
        "language": language,
        "nitpicky": True,
        "latex_individualpages": False,
        # The English build's execution cache: the same code, so every page is a hit.
        "nb_execution_cache_path": str(BUILD / ".jupyter_cache"),
        "html_title": edition["title"],
        # A reference to a page without a catalogue goes to the English page.
        "intersphinx_mapping": {"en": ("../", str(BUILD / "html" / "objects.inv"))},
        "intersphinx_disabled_reftypes": ["std:doc"],
    }
    if builder == "latex":
        config["latex_elements"] = {"fontpkg": edition["latex"]["fontpkg"]}
    return config


def _build(language: str, builder: str, outdir: Path) -> int:
    from jupyter_book.sphinx import build_sphinx

    return build_sphinx(str(ROOT), str(outdir), noconfig=True,
                        path_config=str(ROOT / "_config.yml"),
                        doctreedir=str(BUILD / language / ".doctrees"),
                        confoverrides=overrides(language, builder), builder=builder,
                        warningiserror=True, keep_going=True,
                        # Read afresh every time: a few pages in full and stubs, seconds,
                        # and no environment kept from an older extension or catalogue.
                        freshenv=True)


def html(language: str) -> int:
    if not (BUILD / "html" / "objects.inv").is_file():
        print("build the English edition first (make book)", file=sys.stderr)
        return 2
    start = time.perf_counter()
    outdir = BUILD / language / "html"
    status = _build(language, "html", outdir)
    if status != 0:
        return 1 if isinstance(status, Exception) else int(status)
    target = BUILD / "html" / language
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(outdir, target, ignore=shutil.ignore_patterns(".doctrees", ".buildinfo"))
    print(f"{language} edition: {time.perf_counter() - start:.1f} s, in "
          f"{target.relative_to(ROOT)}/", flush=True)
    return 0


def update(language: str, new_pages: list[str]) -> int:
    """Merge the English messages into the catalogues of the translated pages and of
    ``new_pages`` (created)."""
    from jupyter_book.sphinx import build_sphinx

    pot = BUILD / "gettext"
    status = build_sphinx(str(ROOT), str(pot), noconfig=True, path_config=str(ROOT / "_config.yml"),
                          doctreedir=str(BUILD / "gettext" / ".doctrees"),
                          confoverrides={"latex_individualpages": False,
                                         "nb_execution_cache_path": str(BUILD / ".jupyter_cache")},
                          builder="gettext", keep_going=True, freshenv=True)
    if status != 0:
        return 1
    pages = translated_pages(language) + [p for p in new_pages if p not in translated_pages(language)]
    missing = [page for page in pages if not (pot / f"{page}.pot").is_file()]
    if missing:
        print(f"not pages of the book: {' '.join(missing)}", file=sys.stderr)
        return 2
    # Only these pages' templates: sphinx-intl would otherwise create a catalogue for
    # every page, and a page with a catalogue is built in full (not as a stub).
    chosen = BUILD / "gettext-chosen"
    if chosen.exists():
        shutil.rmtree(chosen)
    for page in pages:
        (chosen / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pot / f"{page}.pot", chosen / f"{page}.pot")
    return subprocess.run([str(BIN / "sphinx-intl"), "update", "-p", str(chosen), "-l", language,
                           "-d", str(LOCALE), "-w", "0", "-j", "1"], cwd=ROOT).returncode


def pdf(language: str) -> int:
    start = time.perf_counter()
    outdir = BUILD / language / "latex"
    status = _build(language, "latex", outdir)
    if status != 0:
        return 1
    tex = next(outdir.glob("*.tex"))
    result = subprocess.run(["latexmk", "-xelatex", "-interaction=nonstopmode", "-f",
                             tex.name], cwd=outdir, capture_output=True, text=True)
    pdf_file = tex.with_suffix(".pdf")
    if not pdf_file.is_file():
        print(result.stdout[-4000:], file=sys.stderr)
        return 1
    code = latex_log.main([str(tex.with_suffix(".log"))])
    print(f"{language} PDF: {pdf_file.relative_to(ROOT)} ({time.perf_counter() - start:.1f} s)")
    return code


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("html", "pdf", "update"))
    parser.add_argument("language", choices=sorted(EDITIONS))
    parser.add_argument("pages", nargs="*", help="update: pages to start translating (book/<page>)")
    args = parser.parse_args(argv)
    if args.command == "update":
        return update(args.language, args.pages)
    return {"html": html, "pdf": pdf}[args.command](args.language)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
