"""``tessera gcg verify`` and ``tessera gcg show``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main

DATA = Path(__file__).parent / "data" / "gcg"
FILES = sorted(DATA.glob("*.gcg"))
REFERENCE = DATA / "reference_game.gcg"
WORDS = ["QUITE", "MESQUITE", "INFANCY", "QI", "UN", "IF", "TA", "EN", "RECOUNTS"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["gcg", *args])
    return result.exit_code, result.output


def test_verify_good_files() -> None:
    code, out = run("verify", *map(str, FILES))
    assert code == 0, out
    lines = out.splitlines()
    assert len(lines) == len(FILES)
    assert f"OK {REFERENCE} (4 events, final 136–97)" in lines
    assert f"OK {DATA / 'rules_example.gcg'} (15 events, final 15–19)" in lines
    assert f"OK {DATA / 'three_players.gcg'} (4 events, final 26–10–9)" in lines


def test_verify_reports_the_first_mismatch(tmp_path: Path) -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    bad_score = tmp_path / "score.gcg"
    bad_score.write_text(text.replace("+88 136", "+89 137"), encoding="utf-8")
    bad_total = tmp_path / "total.gcg"
    bad_total.write_text(text.replace("+40 97", "+40 96").replace("+57 57", "+57 58"), "utf-8")
    code, out = run("verify", str(REFERENCE), str(bad_score), str(bad_total))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"OK {REFERENCE}")
    assert lines[1] == f"{bad_score}:10: 9D INFaNCY scores +88, not +89 as recorded"
    assert lines[2] == f"{bad_total}:8: bob's total is 57, not 58 as recorded"


def test_verify_reports_unreadable_gcg(tmp_path: Path) -> None:
    path = tmp_path / "junk.gcg"
    path.write_bytes(b"#player1 a A\n#player2 b B\nhello\n")
    code, out = run("verify", str(path))
    assert code == 1 and out == f"{path}:3: not a pragma (#…) or an event (>…): 'hello'\n"


def test_verify_rules_option_overrides_the_inferred_rules() -> None:
    path = DATA / "single_challenge.gcg"
    assert run("verify", str(path))[0] == 0
    code, out = run("verify", "--rules", "naspa", str(path))
    assert code == 1
    assert out.startswith(f"{path}:7: a (challenge) bonus line needs a point-penalty")


def test_verify_lexicon_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TESSERA_CACHE_DIR", str(tmp_path / "cache"))
    good = tmp_path / "good.txt"
    good.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    short = tmp_path / "short.txt"
    short.write_text("\n".join(w for w in WORDS if w != "UN") + "\n", encoding="utf-8")
    code, out = run("verify", "--lexicon", str(good), str(REFERENCE))
    assert code == 0 and out.startswith("OK ")
    code, out = run("verify", "--lexicon", str(short), str(REFERENCE))
    assert code == 1
    assert out == f"{REFERENCE}:10: UN is not in the word list (formed by 9D INFaNCY)\n"


@pytest.mark.parametrize(
    "args",
    [
        ("verify",),
        ("verify", "--rules", "nonesuch", str(REFERENCE)),
        ("verify", str(DATA / "no_such_file.gcg")),
        ("verify", "--lexicon", "/no/such/list.txt", str(REFERENCE)),
        ("show",),
        ("show", "--turn", "5", str(REFERENCE)),
        ("show", "--turn", "-1", str(REFERENCE)),
        ("show", "--rules", "nonesuch", str(REFERENCE)),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    code, out = run(*args)
    assert code == 2, out
    assert out.startswith(f"tessera gcg {args[0]}: error: ") and out.count("\n") == 1, out


def board_rows(out: str) -> dict[int, str]:
    rows = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+) (.*)\s+\1$", line)
        if m:
            rows[int(m.group(1))] = m.group(2)
    return rows


def test_show_final_board() -> None:
    code, out = run("show", "--no-color", str(REFERENCE))
    assert code == 0, out
    assert out.splitlines()[0] == "Tessera reference game (RULES.md R3.8.0) — after turn 4 of 4"
    rows = board_rows(out)
    assert len(rows) == 15
    assert rows[8].split() == [
        "M",
        "E",
        "S",
        "Q",
        "U",
        "I",
        "T",
        "E",
        ".",
        ".",
        ".",
        "2L",
        ".",
        ".",
        "3W",
    ]
    assert rows[9].split()[3:10] == ["I", "N", "F", "a", "N", "C", "Y"]
    assert rows[4].split()[4] == "R" and rows[11].split()[4] == "S"
    assert re.search(r"^> ann\s+136  \S+$", out, re.M)
    assert re.search(r"^  bob\s+97  \S+$", out, re.M)
    assert "\x1b[" not in out


def test_show_after_a_turn() -> None:
    code, out = run("show", "--turn", "1", "--no-color", str(REFERENCE))
    assert code == 0
    rows = board_rows(out)
    assert rows[8].split()[3:8] == ["Q", "U", "I", "T", "E"]
    assert rows[9].split()[2:4] == ["2L", "."] and rows[4].split()[4] == "."
    assert re.search(r"^  ann\s+48  ", out, re.M) and re.search(r"^> bob\s+0  AEMORST$", out, re.M)
    code, out = run("show", "--turn", "0", str(REFERENCE))
    assert code == 0 and board_rows(out)[8].split()[7] == "*"


def test_show_super_board_and_colour() -> None:
    code, out = run("show", "--color", str(DATA / "super.gcg"))
    assert code == 0
    assert "\x1b[" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    header = plain.splitlines()[1].split()
    assert header[0] == "A" and header[-1] == "U" and len(header) == 21
    assert board_rows(plain)[11].split()[10:17] == list("QUIXOTE")


def test_show_game_over_and_bad_file(tmp_path: Path) -> None:
    code, out = run("show", str(DATA / "rules_example.gcg"))
    assert code == 0 and "(game over)" in out.splitlines()[0]
    bad = tmp_path / "bad.gcg"
    bad.write_text(REFERENCE.read_text(encoding="utf-8").replace("+48 48", "+47 47"), "utf-8")
    code, out = run("show", str(bad))
    assert code == 2 and out.startswith(
        f"tessera gcg show: error: {bad}:6: 8D QUITE scores +48, not +47"
    )


def test_installed_command() -> None:
    exe = Path(sys.executable).with_name("tessera")
    if not exe.exists():
        pytest.skip("the tessera command is not installed next to this Python")
    proc = subprocess.run(
        [str(exe), "gcg", "verify", str(REFERENCE)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and proc.stdout == f"OK {REFERENCE} (4 events, final 136–97)\n"
