"""Issue 13: ``tessera play`` in Japanese and Hungarian, in a real 80 × 24 pseudo-terminal
(``pexpect``, read back through the ``pyte`` terminal emulator): the language comes from
``--lang`` or from the environment (LANG), the screen says the catalogue's words, and
double-width Japanese leaves the board whole and in its columns, the panel beside it."""

from __future__ import annotations

import re

import pytest

from support.terminal import plain, spawn_play

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")
pytest.importorskip("tessera.engine", reason="the bot and the hints are the engine's")

PROMPT = "Tester> "
HINT = re.compile(r"^\s*1\.\s+(.+?)\s+(-?\d+)\s+(-?\d+\.\d)\s*$", re.MULTILINE)
COLUMNS = "    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O"
RIGHT_LABEL = 49  # the column of a board row's number on the right (3 + 15 squares × 3 + 1)
PANEL = 53  # the side panel's first column: the board's 51 and a gap of 2


class Terminal:
    """An 80 × 24 screen fed with what the child writes."""

    def __init__(self, child) -> None:
        self.child = child
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)

    def expect(self, text: str) -> str:
        """Wait for ``text``; returns what came before it, without colours."""
        self.child.expect_exact(text)
        self.stream.feed(self.child.before + self.child.after)
        return plain(self.child.before)

    def cells(self, y: int, x0: int, x1: int) -> str:
        return "".join(self.screen.buffer[y][x].data for x in range(x0, x1))

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)


def assert_the_board_is_whole_and_aligned(term: Terminal, rack_label: str) -> None:
    """All 15 rows between the two lines of column letters, each row's number at both of
    its ends in its own cells, nothing of the panel in the board's columns, the rack's label
    in the panel's first column, and the prompt on the last line."""
    lines = term.screen.display
    text = term.text
    letters = [y for y, line in enumerate(lines) if line.startswith(COLUMNS)]
    assert len(letters) == 2 and letters[1] - letters[0] == 16, text
    for row in range(1, 16):
        y = letters[0] + row
        assert term.cells(y, 0, 2).strip() == str(row), text
        assert term.cells(y, RIGHT_LABEL, RIGHT_LABEL + 2).strip() == str(row), text
        assert term.cells(y, RIGHT_LABEL + 2, PANEL).strip() == "", text
    racks = [y for y, line in enumerate(lines) if rack_label in line]
    assert racks, text
    assert term.cells(racks[0], PANEL, PANEL + len("Tester")) == "Tester", text
    filled = [line for line in lines if line.strip()]
    assert filled[-1].rstrip() == PROMPT.rstrip(), text


def last_line(term: Terminal) -> str:
    """The last line with text: a prompt asked there is whole on one line of 80 columns."""
    return [line for line in term.screen.display if line.strip()][-1]


def test_japanese_by_option_at_80_by_24(tmp_path) -> None:
    child = spawn_play(tmp_path, "--players", "Tester,level1", "--seed", "11", "--lang", "ja",
                       rows=24, cols=80)
    term = Terminal(child)
    try:
        opening = term.expect(PROMPT)
        assert "コマンドの一覧は「help」" in opening
        assert "袋: 86枚" in term.text and "未見 (93):" in term.text
        assert_the_board_is_whole_and_aligned(term, "Tester のラック:")
        child.sendline("hint")
        hints = term.expect(PROMPT)
        assert "最善手:" in hints and "エクイティ" in hints
        move = HINT.search(hints)
        assert move, hints
        child.sendline(move.group(1))
        turn = term.expect(PROMPT)
        assert "level1 が考えています…" in turn
        assert "直近の手:" in term.text
        assert_the_board_is_whole_and_aligned(term, "Tester のラック:")
        child.sendline("xyzzy")
        refused = term.expect(PROMPT)
        assert "不明なコマンド 'xyzzy'。コマンドの一覧は「help」と入力してください。" in refused
        child.sendline("quit")
        term.expect("終了前に保存しますか？")
        term.expect("か n: ")
        assert last_line(term).startswith("終了前に保存しますか？ ファイル名、y（tessera-")
        child.sendline("n")
        term.expect("さようなら。")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert list(tmp_path.iterdir()) == []


def test_hungarian_from_the_environment(tmp_path) -> None:
    child = spawn_play(tmp_path, "--players", "Tester,level1", "--seed", "11", rows=24, cols=80,
                       env={"LANG": "hu_HU.UTF-8"})
    term = Terminal(child)
    try:
        opening = term.expect(PROMPT)
        assert "A parancsokért írd be: 'help'." in opening
        assert "Zsák: 86 lapka" in term.text
        assert_the_board_is_whole_and_aligned(term, "Tester betűtartója:")
        child.sendline("pass")
        assert "Tester passzolt" in term.expect(PROMPT)
        child.sendline("8A AA")  # the board is still empty: it misses the start square
        refused = term.expect(PROMPT)
        assert "Nem megengedett: az első lépésnek le kell fednie a kezdőmezőt" in refused
        child.sendline("quit")
        term.expect("Mentsem kilépés előtt?")
        term.expect("vagy n: ")
        assert last_line(term).startswith("Mentsem kilépés előtt? Fájlnév, y (tessera-")
        child.sendline("n")
        term.expect("Viszlát!")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0


def test_the_option_wins_over_the_environment_in_duplicate(tmp_path) -> None:
    child = spawn_play(tmp_path, "--rules", "duplicate", "--players", "me", "--seed", "5",
                       "--lang", "hu", rows=24, cols=80, env={"LANG": "ja_JP.UTF-8"})
    term = Terminal(child)
    try:
        opening = term.expect("me> ")
        assert "Mindenki ugyanazzal a betűtartóval játszik" in opening
        assert "1. forduló" in opening
        child.sendline("skip")
        closed = term.expect("me> ")
        assert "me nem ad be semmit." in closed
        assert "1. forduló: a legjobb lépés" in closed
        child.sendline("quit")
        term.expect("Viszlát!")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
