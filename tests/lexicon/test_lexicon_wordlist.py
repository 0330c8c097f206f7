"""Reading users' lists: every rejected line reported with its reason; the lexicon
directory; ``tessera lexicon build/info/list``."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.lexicon import Kwg, Lexicon, LexiconError, available, cache_dir, parse_words
from tessera.lexicon.wordlist import BAD_LENGTH, NOT_UTF8, OUTSIDE_ALPHABET
from tessera.tiles import tileset

ENGLISH = tileset("english").alphabet

JUNK = (
    "cat\n"
    "\n"
    "Dog  a domestic animal\n"
    "caf\xe9\n"
    "x\n"
    "q2\n"
    "supercalifragilistic\n"
    "CAT\n"
    "o'er\n"
).encode() + b"\xff\xfeoops\nzebra\n"


def test_every_rejected_line_has_a_reason() -> None:
    found = parse_words(JUNK.splitlines(), ENGLISH)
    assert sorted(ENGLISH.format(w) for w in found.words) == ["CAT", "DOG", "ZEBRA"]
    rejected = {r.line: (r.text, r.kind) for r in found.rejected}
    assert rejected == {
        4: ("café", OUTSIDE_ALPHABET),
        5: ("x", BAD_LENGTH),
        6: ("q2", OUTSIDE_ALPHABET),
        7: ("supercalifragilistic", BAD_LENGTH),
        9: ("o'er", OUTSIDE_ALPHABET),
        10: ("\ufffd\ufffdoops", NOT_UTF8),
    }
    reasons = {r.line: r.reason for r in found.rejected}
    assert reasons[4] == "character 'É' (position 4) is not in the english alphabet"
    assert reasons[5] == "length 1 is outside 2–15 tiles"
    assert reasons[7] == "length 20 is outside 2–15 tiles"
    assert found.duplicates == 1 and found.blank_lines == 1 and found.lines == 11
    # every line is accounted for: words + rejected + duplicates + blank
    assert found.entries + len(found.rejected) + found.duplicates + found.blank_lines == 11
    assert "3 words" in found.summary() and "6 rejected lines" in found.summary()


def test_custom_length_limits() -> None:
    found = parse_words(["ab", "abc", "abcdefghijklmnopqrstu"], ENGLISH, max_length=21)
    assert len(found.words) == 3
    with pytest.raises(LexiconError, match="bad length limits"):
        parse_words([], ENGLISH, min_length=5, max_length=3)


def test_lists_in_the_lexicon_directory_load_by_name(lexicon_dir: Path) -> None:
    (lexicon_dir / "MyList.txt").write_text("ZA\nQI\nCAT\n", encoding="utf-8")
    with gzip.open(lexicon_dir / "packed.txt.gz", "wt") as f:
        f.write("ox\nax\n")
    lex = Lexicon.load("mylist")
    assert lex.name == "MyList" and "QI" in lex and "za" in lex and len(lex) == 3
    assert {lex.format(w) for w in Lexicon.load("packed").words()} == {"OX", "AX"}
    names = {a.name for a in available()}
    assert {"enable", "MyList", "packed"} <= names
    with pytest.raises(LexiconError, match="no lexicon named 'nothing'"):
        Lexicon.load("nothing")
    with pytest.raises(LexiconError, match="no lexicon file"):
        Lexicon.load(lexicon_dir / "absent.kwg")


def test_text_lists_are_cached_by_content(lexicon_dir: Path) -> None:
    path = lexicon_dir / "small.txt"
    path.write_text("cat\ndog\n", encoding="utf-8")
    first = Lexicon.load("small")
    assert first.report is not None  # built now
    second = Lexicon.load("small")
    assert second.report is None and second.kwg._mmap is not None  # from the cache
    path.write_text("cat\ndog\nemu\n", encoding="utf-8")
    third = Lexicon.load("small")
    assert third.report is not None and "EMU" in third


def test_damaged_cache_entries_are_rebuilt(lexicon_dir: Path) -> None:
    (lexicon_dir / "tiny.txt").write_text("cat\n", encoding="utf-8")
    lex = Lexicon.load("tiny")
    entry = cache_dir() / "lexicons" / f"{lex._key}.kwg"
    assert entry.is_file()
    good = entry.read_bytes()
    for damage in (b"\x00" * 8, good[:-4] + b"\xff\xff\xff\xff"):
        entry.write_bytes(damage)  # wrong size, or wrong content of the right size
        again = Lexicon.load("tiny")
        assert again.report is not None and "CAT" in again
        assert entry.read_bytes() == good


def test_cli_build_reports_every_rejected_line(tmp_path: Path) -> None:
    src = tmp_path / "words.txt"
    src.write_bytes(JUNK)
    out = tmp_path / "X.kwg"
    result = CliRunner().invoke(main, ["lexicon", "build", str(src), "-o", str(out),
                                       "--alphabet", "english"])
    assert result.exit_code == 0, result.output
    for line, text in ((4, "café"), (5, "x"), (6, "q2"), (7, "supercalifragilistic"),
                       (9, "o'er")):
        assert f"words.txt:{line}: rejected {text!r}" in result.stderr
    assert "not valid UTF-8" in result.stderr
    assert "3 words, 6 rejected lines, 1 duplicates, 1 blank lines" in result.stdout
    meta = json.loads((tmp_path / "X.json").read_text(encoding="utf-8"))
    assert meta["alphabet"] == "english" and meta["name"] == "words"
    assert {Lexicon.load(out).format(w) for w in Kwg.load(out).words()} == {"CAT", "DOG", "ZEBRA"}

    info = CliRunner().invoke(main, ["lexicon", "info", str(out)])
    assert info.exit_code == 0, info.output
    assert "words     3" in info.stdout and "english" in info.stdout
    assert "lengths   3:2, 5:1" in info.stdout


def test_cli_build_into_the_lexicon_directory_then_use_by_name(
    tmp_path: Path, lexicon_dir: Path
) -> None:
    src = tmp_path / "house.txt"
    src.write_text("qi\nza\nzax\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["lexicon", "build", str(src), "--name", "HOUSE"])
    assert result.exit_code == 0, result.output
    assert (lexicon_dir / "HOUSE.kwg").is_file()
    check = runner.invoke(main, ["words", "check", "--lexicon", "house", "QI", "ZAX"])
    assert check.exit_code == 0, check.output
    listing = runner.invoke(main, ["lexicon", "list"])
    assert "HOUSE" in listing.stdout and "[english]" in listing.stdout


def test_cli_build_explains_a_bad_alphabet(tmp_path: Path) -> None:
    src = tmp_path / "w.txt"
    src.write_text("cat\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lexicon", "build", str(src), "--alphabet", "klingon",
                                       "-o", str(tmp_path / "w.kwg")])
    assert result.exit_code != 0 and "klingon" in result.stderr


def test_damaged_gzip_list_is_reported(lexicon_dir: Path) -> None:
    (lexicon_dir / "broken.txt.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(LexiconError, match="damaged gzip"):
        Lexicon.load("broken")
