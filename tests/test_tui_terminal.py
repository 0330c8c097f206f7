"""Issue 6 acceptance: ``tessera play`` in a real pseudo-terminal plays a full game against the
bot. The person at the keyboard asks for a ``hint``, types the top suggestion (a play, an
exchange or a pass) until the game ends, and the final summary is checked.

The installed ``tessera`` command runs in a child process (``pexpect``), coloured output and
all, with the real computer player and hints (``tessera.engine``).
"""

from __future__ import annotations

import re
import time

import pytest

from support.terminal import plain, spawn_play

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("tessera.engine", reason="the bot and the hints are the engine's")

HINT = re.compile(r"^\s*1\.\s+(.+?)\s+(-?\d+)\s+(-?\d+\.\d)\s*$", re.MULTILINE)
PROMPT = "Tester> "


def test_full_game_against_the_bot(tmp_path):
    child = spawn_play(tmp_path, "--players", "Tester,level1", "--seed", "11")
    transcript: list[str] = []
    started = time.monotonic()
    try:
        child.expect_exact(PROMPT)
        transcript.append(plain(child.before))
        plays = others = 0
        over = False
        for _turn in range(60):
            child.sendline("hint")
            child.expect_exact(PROMPT)
            hint_text = plain(child.before)
            transcript.append(hint_text)
            match = HINT.search(hint_text)
            assert match, hint_text
            move = match.group(1)  # a play, an exchange (-ABC) or "pass", as typed
            if " " in move:
                plays += 1
            else:
                others += 1
            child.sendline(move)
            index = child.expect_exact([PROMPT, "Game over", "Not allowed"])
            transcript.append(plain(child.before))
            assert index != 2, f"the hinted move {move!r} was refused:\n{plain(child.before)}"
            if index == 1:
                over = True
                break
        assert over, "the game did not end within 60 turns"
        child.expect_exact("Review the game, turn by turn?")
        summary = plain("Game over" + child.before)
        child.sendline("y")  # the table `tessera analyze` prints, for the game just played
        child.expect_exact("Save the game?")
        review = plain(child.before)
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    elapsed = time.monotonic() - started
    full = "\n".join(transcript)
    assert child.exitstatus == 0, full[-2000:]
    assert plays >= 3, f"only {plays} plays were made ({others} exchanges or passes)"
    # the board showed the person's rack and the bot's moves, never the bot's rack
    assert "Tester's rack:" in full
    assert "level1's rack" not in full
    assert "level1 played" in full
    # the final summary: why it ended, both final scores, the winner (or a draw)
    assert "Final scores:" in summary
    scores = re.findall(r"^(Tester|level1)\s+(-?\d+)\s+rack", summary, re.MULTILINE)
    assert {name for name, _ in scores} == {"Tester", "level1"}, summary
    totals = {name: int(points) for name, points in scores}
    if totals["Tester"] == totals["level1"]:
        assert "Draw:" in summary or "Winner:" in summary
    else:
        best = max(totals, key=totals.__getitem__)
        assert f"Winner: {best}" in summary, summary
    assert "this game — static analysis" in review and "equity lost: " in review, review
    assert re.search(r"^│ +1 │ (Tester|level1) ", review, re.MULTILINE), review
    assert elapsed < 60, f"the game took {elapsed:.0f} s"


def assert_the_whole_turn_is_on_screen(lines: list[str]) -> None:
    """The 24 lines show the board from its column letters to its column letters (every
    row), the rack and the prompt: nothing of the turn has scrolled off."""
    text = "\n".join(lines)
    letters = [k for k, line in enumerate(lines) if line.startswith("    A  B  C  D  E")]
    assert len(letters) == 2, text
    top, bottom = letters
    rows = [re.match(r"^\s?(\d+) ", line) for line in lines[top + 1 : bottom]]
    assert [int(m.group(1)) for m in rows if m] == list(range(1, 16)), text
    assert "Tester's rack:" in text and "Bag:" in text
    filled = [line for line in lines if line.strip()]
    assert filled[-1].rstrip() == PROMPT.rstrip(), text  # the prompt is the last line


def test_an_80_by_24_terminal_shows_each_turn_whole_and_n_saves_nothing(tmp_path):
    pyte = pytest.importorskip("pyte")
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child = spawn_play(tmp_path, "--players", "Tester,level1", "--seed", "11", rows=24, cols=80)
    try:
        for _turn in range(4):
            child.expect_exact(PROMPT)
            stream.feed(child.before + child.after)
            assert_the_whole_turn_is_on_screen(screen.display)
            child.sendline("hint")
            child.expect_exact(PROMPT)
            stream.feed(child.before + child.after)
            match = HINT.search(plain(child.before))
            assert match, plain(child.before)
            child.sendline(match.group(1))
        child.expect_exact(PROMPT)
        stream.feed(child.before + child.after)
        assert_the_whole_turn_is_on_screen(screen.display)
        child.sendline("quit")
        child.expect_exact("Save the game before leaving?")
        child.expect_exact(" or n: ")
        child.sendline("n")
        child.expect_exact("Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert list(tmp_path.iterdir()) == []  # "n" means no: no file called n


def test_ctrl_d_offers_to_save_then_leaves(tmp_path):
    pytest.importorskip("tessera.formats.gcg")
    child = spawn_play(tmp_path, "--players", "Tester,level1", "--seed", "11")
    try:
        child.expect_exact(PROMPT)
        child.sendline("pass")
        child.expect_exact(PROMPT)
        assert "Tester passed" in plain(child.before)
        # Ctrl-D at the prompt; the pause lets readline take the terminal first (a ^D that
        # arrives while it switches modes is dropped by the terminal driver)
        time.sleep(1.0)
        child.sendeof()
        child.expect_exact("Save the game before leaving?")
        child.sendline("kept.gcg")
        child.expect_exact("Saved to kept.gcg.")
        child.expect_exact("Goodbye.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    saved = (tmp_path / "kept.gcg").read_text(encoding="utf-8")
    assert ">Tester: " in saved and " - +0 0" in saved
