"""report.md is inert: every user string is text, whatever it holds.

User strings -- column names, labels, the file name, group names, the
command line -- are generated hostile: HTML tags with event handlers,
``javascript:`` links and images, autolinks, entities, emphasis and code
marks, table pipes.  The Markdown is rendered by a CommonMark renderer with
raw HTML allowed (markdown-it-py, the parser of the book's MyST stack) and
the result must hold only the tags the report itself writes, no link, no
event handler, no image but the report's figures -- and every hostile
string, shown literally as text.
"""

from __future__ import annotations

import html
import itertools
from html.parser import HTMLParser

import numpy as np
import pytest
from markdown_it import MarkdownIt

from evalmetrics.report import Dataset, build_report, render_html, render_markdown, report_document
from evalmetrics.report.document import Bullets, Document, Figure, Paragraph, Section, Table

PIECES = [
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "![pic](javascript:alert(2))",
    "<javascript:alert(3)>",
    "<script>alert(4)</script>",
    "&lt;b&gt; &amp;",
    "**not bold** _nor this_ ~~nor this~~",
    "a|b",
    "back\\slash",
    "`tick`",
    "# heading",
    "<a href='javascript:alert(5)'>x</a>",
]


def hostile(seed, n):
    """``n`` distinct hostile strings, each a mix of two pieces around plain text."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        first, second = rng.choice(len(PIECES), 2, replace=False)
        out.append(f"{PIECES[first]} c{k} {PIECES[second]}")
    return out


class Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(tag, name, value) for name, value in attrs]

    def handle_data(self, data):
        self.text.append(data)


def rendered(markdown):
    page = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    collector = Collector()
    collector.feed(page)
    return collector


ALLOWED_TAGS = {"h1", "h2", "p", "table", "thead", "tbody", "tr", "th", "td", "em", "strong", "code", "ul",
                "li", "img"}


def assert_inert(markdown, strings, figures=()):
    page = rendered(markdown)
    assert set(page.tags) <= ALLOWED_TAGS, set(page.tags) - ALLOWED_TAGS
    for tag, name, value in page.attributes:
        assert not name.startswith("on") and name != "href", (tag, name, value)
        if tag == "img" and name == "src":
            assert value in figures, value
    def plain(text):
        # The document's own two marks (`code`, **bold**) act in user strings as in the HTML,
        # harmlessly; every other character must read as written.
        return " ".join(text.replace("`", "").replace("**", "").split())

    shown = plain("".join(page.text))
    for string in strings:
        assert plain(string) in shown, string


@pytest.fixture(scope="module")
def hostile_report():
    names = hostile(1, 6)
    rng = np.random.default_rng(5)
    n = 80
    y = rng.random(n) < 0.4
    scores = tuple(np.round(np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1), 2) for _ in range(2))
    groups = np.array([names[5] + f" {i % 8}" for i in range(n)])
    data = Dataset(path=names[0], sha256="", label=names[1], positive=names[2], negatives=(names[3],),
                   y_true=y, score_names=(names[3] + " a", names[4]), score_values=scores,
                   group=names[5], groups=groups)
    report = build_report(data, resamples=20, false_positive_cost=1, false_negative_cost=3)
    return names, data, report


def test_report_markdown_is_inert_with_hostile_names(hostile_report):
    names, data, report = hostile_report
    command = "evalmetrics report " + " ".join(hostile(2, 3))
    figures = (Figure("curves.png", "ROC curves", b"png"),)
    document = report_document(report, command=command, figures=figures)
    markdown = render_markdown(document)
    assert_inert(markdown, [*names, *data.score_names], figures=("curves.png",))
    # The HTML rendering shows the same strings, escaped once.
    page = render_html(document)
    assert "<img src=x" not in page and "<script>" not in page


@pytest.mark.parametrize("where", ["title", "intro", "fact", "section", "paragraph", "cell", "caption",
                                   "bullet", "warning", "figure caption"])
def test_every_block_of_a_document_escapes_its_text(where):
    strings = hostile(3, 4)
    text = " / ".join(strings)
    blocks = {
        "paragraph": Paragraph(text), "cell": Table(("h", text), ((text, "1"),)),
        "caption": Table(("h",), (("1",),), caption=text), "bullet": Bullets((text,)),
        "warning": Bullets((text,), warning=True), "figure caption": Figure("f.png", text, b"png"),
    }
    document = Document(
        title=text if where == "title" else "Report", intro=text if where == "intro" else "",
        facts=((text, text),) if where == "fact" else (),
        sections=(Section(text if where == "section" else "Section", (blocks.get(where, Paragraph("plain")),)),))
    assert_inert(render_markdown(document), strings, figures=("f.png",))


def test_figure_paths_are_encoded():
    document = Document("Report", (), (Section("Figures", (Figure("f.png", "a figure", b"png"),)),))
    for folder in ("javascript:alert(1)", "a folder (x)", "<img onerror=y>"):
        markdown = render_markdown(document, figure_path=lambda name: f"../{folder}/{name}")
        page = rendered(markdown)
        sources = [value for tag, name, value in page.attributes if name == "src"]
        assert len(sources) == 1 and not sources[0].startswith("javascript")
        assert html.unescape(sources[0]).startswith("../") and sources[0].endswith("/f.png")


def test_the_two_marks_still_work():
    markdown = render_markdown(Document("R", (), (Section("S", (Paragraph("**bold** and `code|x`"),
                                                             Table(("a",), (("`p|q`",),)))),)))
    page = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<strong>bold</strong>" in page and "<code>code|x</code>" in page and "<code>p|q</code>" in page


def test_a_csv_report_with_hostile_file_and_column_names(tmp_path, monkeypatch, capsys):
    from evalmetrics.__main__ import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    names = [name.replace('"', "'") for name in hostile(4, 3)]
    file_name = "x <img src=y onerror=z>.csv"
    rows = [f"{i % 2},{(i * 7 % 20) / 20:.2f},{(i * 3 % 20) / 20:.2f}" for i in range(30)]
    header = ",".join('"' + n + '"' for n in names)
    (tmp_path / file_name).write_text(header + "\n" + "\n".join(rows) + "\n")
    status = main(["report", file_name, "--label", names[0], "--score", names[1], "--score", names[2],
                   "--resamples", "20", "--out", "out"])
    assert status == 0, capsys.readouterr().err
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert_inert(markdown, [file_name, *names], figures=("curves.png", "reliability.png"))


def test_hostile_pieces_cover_every_pair():
    # The generator mixes pieces; over a few seeds every piece shows up.
    seen = set(itertools.chain.from_iterable(hostile(seed, 6) for seed in range(5)))
    assert all(any(piece in s for s in seen) for piece in PIECES)
