"""Issue 9, item 9: a GCG record is read within documented limits (file size, line length,
lines, events, digits), and reading stops at the first problem — a 42 MB file is refused
before it is read, not parsed into a gigabyte first."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from tessera.formats import gcg
from tessera.formats.gcg import (
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    MAX_LINES,
    GcgError,
)
from tessera.formats.gcg import read as gcg_read

HEADER = "#player1 ann Ann\n#player2 bob Bob\n"
OPENING = ">ann: EINQTUY 8D QUITE +48 48\n"


def peak_of(action) -> tuple[BaseException | None, int, float]:
    """(the exception raised, peak traced allocation, seconds)."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        action()
        error = None
    except Exception as exc:
        error = exc
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return error, peak, seconds


def test_limits_are_generous_for_any_real_game() -> None:
    # a long annotated game is ~20 KB, ~100 events, notes of a few hundred characters a line
    assert MAX_FILE_BYTES >= 1 << 20 and MAX_LINE_CHARS >= 16_384
    assert MAX_LINES >= 10_000 and MAX_EVENTS >= 1_000


def test_a_42_mb_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.gcg"
    with open(path, "wb") as f:  # the case: an error on line 18, then 42 MB more
        f.write((HEADER + OPENING + ">bob: ABC 8A BAD +99 99\n").encode())
        f.truncate(42 << 20)
    error, peak, seconds = peak_of(lambda: gcg.load(path))
    assert isinstance(error, GcgError)
    assert str(error) == f"the file has {42 << 20:,} bytes; a GCG record may have at most " \
        f"{MAX_FILE_BYTES:,}"
    assert peak < 1 << 20 and seconds < 5.0  # was 1.06 GB and 21.5 s


def test_oversized_text_and_bytes_are_refused_before_decoding() -> None:
    data = (HEADER + OPENING * 80_000).encode()
    assert len(data) > MAX_FILE_BYTES
    for given in (data, data.decode()):
        error, peak, _ = peak_of(lambda given=given: gcg.loads(given))
        assert isinstance(error, GcgError) and "a GCG record may have at most" in str(error)
        assert peak < 1 << 20


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (HEADER + "#note " + "x" * (MAX_LINE_CHARS + 1) + "\n", 3, "the line has 32,775"),
        (HEADER + "\n" * MAX_LINES + OPENING, MAX_LINES + 1, "more than 20,000 lines"),
        (HEADER + ">ann: AB - +0 0\n>bob: CD - +0 0\n" * (MAX_EVENTS // 2) + ">ann: AB - +0 0\n",
         MAX_EVENTS + 3, "more than 2,000 events"),
        (HEADER + ">ann: EINQTUY 8D QUITE +" + "4" * 5000 + " 48\n", 3,
         "(5,001 characters) has more than 9 digits"),
        (HEADER + ">ann: EINQTUY 8D QUITE +48 " + "4" * 40 + "\n", 3,
         "the cumulative score 444444444444444444444444… (40 characters) has more than 9"),
        (HEADER + ">ann: EINQTUY -" + "9" * 5000 + " +0 0\n", 3, "an exchange of 999"),
        ("#player" + "9" * 5000 + " ann Ann\n", 1, "players are numbered 1 to 4"),
        ("#tessera-seed " + "7" * 100 + "\n", 1, "#tessera-seed needs a whole number of at"),
        ("#tile-set tessera-rules naspa " + "[" * 8000 + "\n", 1, "not usable JSON"),
        ("#tessera-rules naspa {\"rack_size\":" + "9" * 5000 + "}\n", 1, "not usable JSON"),
    ],
)
def test_every_size_and_number_is_bounded(text: str, line: int, fragment: str) -> None:
    error, peak, seconds = peak_of(lambda: gcg.loads(text))
    assert isinstance(error, GcgError), error
    assert error.line == line and fragment in error.message
    assert len(error.message) < 200  # an excerpt, never the whole field
    assert peak < 8 * len(text) + (2 << 20) and seconds < 10.0  # generous: a shared machine


def test_reading_stops_at_the_first_bad_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # a bad line early, then the rest of the allowed size in (unparsed) junk events
    text = HEADER + OPENING + ">bob: A?B 8A %%% +0 0\n" + ">ann: ABC 1A XYZ +1 1\n" * 80_000
    text = text[: MAX_FILE_BYTES - 100]
    seen: list[int] = []
    read_line = gcg_read._Reader.line

    def counted(self: gcg_read._Reader, number: int, raw: str) -> None:
        seen.append(number)
        read_line(self, number, raw)

    monkeypatch.setattr(gcg_read._Reader, "line", counted)
    error, peak, _ = peak_of(lambda: gcg.loads(text))
    assert isinstance(error, GcgError) and error.line == 4
    assert seen == [1, 2, 3, 4]  # the remaining 80,000 lines were never looked at
    assert peak < 1 << 20  # nor split into a list


def test_a_wrong_score_is_reported_at_its_line_in_a_file_at_the_size_limit() -> None:
    lines = [HEADER, OPENING, ">bob: AEMORST 8A MES..... +56 56\n"]
    notes = "#note " + "n" * 1000 + "\n"
    text = "".join(lines) + notes * ((MAX_FILE_BYTES - 1000) // len(notes))
    error, peak, seconds = peak_of(lambda: gcg.replay(text))
    assert isinstance(error, GcgError) and error.line == 4
    assert "MES..... scores +57, not +56" in error.message
    assert seconds < 20.0 and peak < 64 << 20
