"""Reading a CSV file in bounded pieces (evalmetrics/report/reading.py).

* Where the chunks and batches end changes nothing: on generated files (line
  ends \\n, \\r\\n and \\r, blank lines, quoted fields with delimiters and line
  breaks, multi-byte characters, a byte-order mark, missing, non-numeric and
  infinite scores, labels written as 1 and 1.0, groups, bytes that are not
  UTF-8), reading with chunks of a few bytes and batches of a few rows gives
  the very dataset, or the very message, that the default reading gives.
* Whatever is not a table is refused at once, in one line: ``/dev/zero``, a
  binary file, a line longer than ``MAX_LINE``; the bytes read stay bounded.
* Memory follows the columns used: unused columns cost nothing.
"""

from __future__ import annotations

import hashlib
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalmetrics.report import ReportError, read_dataset, reading

# ---------------------------------------------------------------------------
# generated files: the same result whatever the chunk and batch sizes
# ---------------------------------------------------------------------------

LABELS = st.sampled_from(["0", "1", "1.0", "0.0", " 1", ""])
SCORES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr),
    st.sampled_from(["0.5", " 0.25 ", "NA", "", "oops", "inf", "1_0", "1e-3", "-0"]),
)
NOTES = st.text(alphabet=st.sampled_from(list('ab,;"\n\r é中€')), max_size=6)
GROUPS = st.sampled_from(["g1", "g2", "組", "NA", ""])
BAD_BYTE = b"\xff"  # never valid in UTF-8


def quoted(text):
    return '"' + text.replace('"', '""') + '"'


@st.composite
def csv_files(draw):
    """(bytes of a CSV file, whether it has a group column)."""
    with_groups = draw(st.booleans())
    rows = draw(st.lists(st.tuples(LABELS, SCORES, NOTES, GROUPS), min_size=0, max_size=40))
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    header = ["y", "p", "note"] + (["g"] if with_groups else [])
    lines = [",".join(header)]
    for label, score, note, group in rows:
        cells = [label, score, quoted(note)] + ([group] if with_groups else [])
        lines.append(",".join(cells))
        if draw(st.integers(0, 9)) == 0:
            lines.append("")  # a blank line, skipped
    text = end.join(lines) + draw(st.sampled_from(["", end]))
    data = ("\ufeff" if draw(st.booleans()) else "") + text
    raw = data.encode("utf-8")
    if draw(st.integers(0, 9)) == 0 and raw:
        spot = draw(st.integers(0, len(raw) - 1))
        raw = raw[:spot] + BAD_BYTE + raw[spot:]
    return raw, with_groups


def outcome(path, with_groups):
    """The dataset's fields, or the message of the error."""
    try:
        data = read_dataset(path, label="y", scores=["p"], group="g" if with_groups else None)
    except ReportError as error:
        return str(error)
    return (data.sha256, data.positive, data.negatives, data.y_true.tolist(), data.score("p").tolist(),
            None if data.groups is None else data.groups.tolist())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=csv_files(), chunk=st.integers(1, 40), batch=st.integers(1, 7))
def test_where_chunks_and_batches_end_changes_nothing(tmp_path, monkeypatch, case, chunk, batch):
    raw, with_groups = case
    path = tmp_path / "generated.csv"
    path.write_bytes(raw)
    expected = outcome(path, with_groups)
    with monkeypatch.context() as patch:
        patch.setattr(reading, "CHUNK_BYTES", chunk)
        patch.setattr(reading, "BATCH_ROWS", batch)
        assert outcome(path, with_groups) == expected
    if isinstance(expected, tuple):
        assert expected[0] == hashlib.sha256(raw).hexdigest()  # the digest names every byte read
    elif "not UTF-8" in expected:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:  # the byte Python's own decoder names, counted from the file's start
            assert f"(byte {error.start})" in expected


def test_the_groups_are_numbered_in_the_order_of_their_names(tmp_path):
    path = tmp_path / "g.csv"
    names = ["site-b", "site-a", "site-c", "site-a", "site-b", "site-c"] * 2
    path.write_text("y,p,g\n" + "".join(f"{i % 2},{i / 20},{g}\n" for i, g in enumerate(names)), encoding="utf-8")
    data = read_dataset(path, label="y", scores=["p"], group="g")
    assert data.groups.tolist() == [sorted(set(names)).index(g) for g in names]


# ---------------------------------------------------------------------------
# what is not a table
# ---------------------------------------------------------------------------

def test_dev_zero_is_refused_in_one_line_after_one_chunk(capsys):
    from helpers import run_cli

    tracemalloc.start()
    try:
        status, out, err = run_cli(["report", "/dev/zero", "--label", "y", "--score", "p", "--out", "never"],
                                   capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 2 and out == ""
    assert err == "evalmetrics report: error: /dev/zero is not a CSV table: it holds NUL bytes (a binary file?)\n"
    assert peak < 16 * reading.CHUNK_BYTES  # a few chunks' worth, not the endless file


@pytest.mark.parametrize("where", ["header", "row"])
def test_a_line_longer_than_the_limit_is_refused(tmp_path, monkeypatch, where):
    monkeypatch.setattr(reading, "MAX_LINE", 100)
    monkeypatch.setattr(reading, "CHUNK_BYTES", 16)
    long = "x" * 101
    path = tmp_path / "long.csv"
    lines = [long if where == "header" else "y,p", "1,0.5", "0,0.25" + long if where == "row" else "0,0.25"]
    path.write_text("\n".join(lines * 6), encoding="utf-8")
    line = 1 if where == "header" else 3
    with pytest.raises(ReportError, match=f"line {line} is longer than 100 characters: not a CSV table"):
        read_dataset(path, label="y", scores=["p"])


def test_a_binary_file_is_refused(tmp_path):
    path = tmp_path / "image.csv"
    path.write_bytes(b"y,p\n\x00\x01\x02" * 10)
    with pytest.raises(ReportError, match="is not a CSV table: it holds NUL bytes"):
        read_dataset(path, label="y", scores=["p"])


def test_a_label_column_of_scores_is_refused_early(tmp_path, monkeypatch):
    monkeypatch.setattr(reading, "MAX_LABEL_VALUES", 50)
    path = tmp_path / "swapped.csv"
    path.write_text("y,p\n" + "".join(f"{i / 997:.6f},{i % 2}\n" for i in range(200)), encoding="utf-8")
    with pytest.raises(ReportError, match="label column 'y' has more than 50 distinct values"):
        read_dataset(path, label="y", scores=["p"], pos_label="0.5")


# ---------------------------------------------------------------------------
# memory follows the columns used
# ---------------------------------------------------------------------------

def peak_of_reading(path):
    tracemalloc.start()
    try:
        data = read_dataset(path, label="y", scores=["p"])
        return tracemalloc.get_traced_memory()[1], data
    finally:
        tracemalloc.stop()


def test_unused_columns_cost_no_memory(tmp_path):
    n, unused = 60_000, 40
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, n), np.round(rng.random(n), 6)
    narrow, wide = tmp_path / "narrow.csv", tmp_path / "wide.csv"
    narrow.write_text("y,p\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p)), encoding="utf-8")
    filler = ",".join(["0.123456"] * unused)
    wide.write_text("y,p," + ",".join(f"x{k}" for k in range(unused)) + "\n"
                    + "".join(f"{a},{b},{filler}\n" for a, b in zip(y, p)), encoding="utf-8")
    assert wide.stat().st_size > 10 * narrow.stat().st_size
    narrow_peak, narrow_data = peak_of_reading(narrow)
    wide_peak, wide_data = peak_of_reading(wide)
    np.testing.assert_array_equal(narrow_data.score("p"), wide_data.score("p"))
    # The wide file's extra cells live one batch at a time: a few MB, not the file's 20 MB.
    assert wide_peak - narrow_peak < 4 << 20, (narrow_peak, wide_peak)
