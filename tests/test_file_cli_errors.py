"""Issue 9: every bad invocation of a command that reads GCG, CGP, KWG or KLV2 files ends
with one clear line and a non-zero exit status — never a traceback, never a usage screen for
a file whose content is wrong."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.lexicon.kwg import END_BIT, build_bytes, make_node

LEAVES = Path(__file__).parents[1] / "src" / "tessera" / "data" / "leaves" / "enable.klv2"
EMPTY = "/".join(["15"] * 15)


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("TESSERA_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TESSERA_LEXICON_DIR", str(tmp_path / "lexicons"))
    out = {
        "program": tmp_path / "words.txt",
        "leaves": tmp_path / "leaves.klv2",
        "kwg": tmp_path / "words.kwg",
        "bomb": tmp_path / "bomb.kwg",
        "huge": tmp_path / "huge.gcg",
        "junk": tmp_path / "junk.gcg",
        "empty": tmp_path / "empty.txt",
    }
    out["program"].write_bytes(Path(sys.executable).read_bytes()[:100_000])
    out["leaves"].write_bytes(LEAVES.read_bytes())
    out["kwg"].write_bytes(build_bytes([b"\x11\x09"]))  # QI
    nodes = [END_BIT | 2, END_BIT]
    for level in range(40):  # 2^40 paths in 82 nodes
        child = len(nodes) + 2 if level < 39 else 0
        nodes += [make_node(1, child, accepting=False, end=False),
                  make_node(2, child, accepting=level == 39, end=True)]
    out["bomb"].write_bytes(struct.pack(f"<{len(nodes)}I", *nodes))
    with open(out["huge"], "wb") as f:
        f.write(b"#player1 a A\n#player2 b B\n")
        f.truncate(42 << 20)
    out["junk"].write_bytes(b"\x7fELF\x00\x01\x02 not a game\n")
    out["empty"].write_bytes(b"")
    return out


def one_clear_line(args: list[str]) -> str:
    result = CliRunner().invoke(main, args)
    assert result.exit_code not in (0, None), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output and "Usage:" not in result.output
    return lines[0]


def test_gcg_verify_and_show(files: dict[str, Path]) -> None:
    huge, junk = str(files["huge"]), str(files["junk"])
    size = f"{42 << 20:,}"
    assert one_clear_line(["gcg", "verify", huge]) == (
        f"{huge}: the file has {size} bytes; a GCG record may have at most 2,097,152"
    )
    assert one_clear_line(["gcg", "show", huge]).startswith(
        f"tessera gcg show: error: {huge}: the file has {size}"
    )
    assert one_clear_line(["gcg", "verify", junk]).startswith(f"{junk}:1: not a pragma")
    assert one_clear_line(["gcg", "show", junk]).startswith(
        f"tessera gcg show: error: {junk}:1: not a pragma"
    )
    for lexicon in ("leaves", "program", "bomb", "empty"):
        line = one_clear_line(["gcg", "verify", "--lexicon", str(files[lexicon]), junk])
        assert line.startswith(f"tessera gcg verify: error: --lexicon: {files[lexicon]}")


@pytest.mark.parametrize(
    ("cgp", "fragment"),
    [
        (f"300000000/{'/'.join(['15'] * 14)} AB/CD 0/0 0", "--cgp: board row 1: a run of"),
        (f"{EMPTY} AB/CD {'9' * 5000}/0 0", "--cgp: score 1 9999"),
        (f"{EMPTY} AB/CD 0/0 0 tr naspa {'[' * 8000};", "--cgp: tr: rule overrides are"),
        (f"{EMPTY} AB/CD 0/0 0 lex NSF23;", "--cgp: lex: NSF23 is a Norwegian lexicon"),
        ("nonsense", "--cgp: CGP needs four fields"),
    ],
)
def test_moves_cgp(files: dict[str, Path], cgp: str, fragment: str) -> None:
    assert one_clear_line(["moves", "--cgp", cgp]).startswith(f"tessera moves: error: {fragment}")


def test_moves_lexicon_and_leaves(files: dict[str, Path]) -> None:
    cgp = f"{EMPTY} QI/ 0/0 0"
    for lexicon, what in (("leaves", "a KLV2 leave-value table"), ("program", "a program"),
                          ("bomb", "the DAWG spells more than")):
        line = one_clear_line(["moves", "--cgp", cgp, "--lexicon", str(files[lexicon])])
        assert line.startswith(f"tessera moves: error: --lexicon: {files[lexicon]}")
        assert what in line
    for leaves, what in (("kwg", "a KWG word graph, not a KLV2"),
                         ("program", "a program (ELF executable), not a KLV2")):
        line = one_clear_line(["moves", "--cgp", cgp, "--lexicon", str(files["kwg"]),
                               "--leaves", str(files[leaves])])
        assert line.startswith("tessera moves: error: --leaves: ") and what in line


def test_lexicon_info_build_and_words(files: dict[str, Path]) -> None:
    for name, what in (("leaves", "a KLV2 leave-value table, not a word list"),
                       ("program", "not a word list or word graph: a program"),
                       ("bomb", "the DAWG spells more than 268435456 paths"),
                       ("empty", "an empty file, not a word list")):
        for args in (["lexicon", "info", str(files[name])],
                     ["words", "check", "QI", "--lexicon", str(files[name])]):
            line = one_clear_line(args)
            command = " ".join(["tessera", *args[:2]])
            assert line.startswith(f"{command}: error: {files[name]}: ") and what in line
    for name, what in (("leaves", "a KLV2 leave-value table"), ("program", "a program"),
                       ("kwg", "already a KWG word graph")):
        line = one_clear_line(["lexicon", "build", str(files[name]), "-o",
                               str(files[name].with_suffix(".out.kwg"))])
        assert line.startswith(f"tessera lexicon build: error: {files[name]}: ") and what in line
    assert not (files["leaves"].parent / "cache").exists()  # nothing refused was cached
