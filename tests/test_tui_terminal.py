"""Issue 6 acceptance: ``tessera play`` in a real pseudo-terminal plays a full game against the
bot. The person at the keyboard asks for a ``hint``, plays the top suggestion (or passes when
there is none) until the game ends, and the final summary is checked.

The command runs in a child process (``pexpect``), coloured output and all. The computer
player is the real one (``tessera.engine.get_player``); while that package is not yet
installed, the child uses a stand-in that plays the move generator's best play, so the
terminal itself is still tested end to end.
"""

from __future__ import annotations

import os
import re
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("tessera.movegen", reason="hints and the stand-in bot need the generator")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
HINT = re.compile(r"^\s*1\.\s+(\S+ \S+)\s+(-?\d+)\s*$", re.MULTILINE)
PROMPT = "Tester> "

# The child: `tessera play`, with stand-ins only for parts that have not landed yet.
CHILD = r"""
import functools
import sys

import tessera._core
import tessera.movegen
from tessera.tui import app

if not hasattr(tessera._core, "MoveGenerator"):  # compiled generator not built yet
    tessera.movegen.generate_moves = functools.partial(
        tessera.movegen.generate_moves, reference=True
    )

try:
    from tessera.engine import get_player  # noqa: F401
except ImportError:
    from tessera.move import Pass

    class TopPlay:
        def __init__(self, lexicon):
            self.lexicon = lexicon

        def choose(self, view):
            moves = tessera.movegen.generate_moves(
                view.board, list(view.rack), self.lexicon, view.rules, top=2
            )
            return moves[0] if len(moves) else Pass()

    def stand_in(spec, lexicon, seed):
        return TopPlay(lexicon)

    app.engine_bot = stand_in

from tessera.cli import main
main(sys.argv[1:], prog_name="tessera")
"""


def plain(text: str) -> str:
    return ANSI.sub("", text)


def test_full_game_against_the_bot(tmp_path):
    child = spawn(tmp_path, "--players", "Tester,level1", "--seed", "11")
    transcript: list[str] = []
    started = time.monotonic()
    try:
        child.expect_exact(PROMPT)
        transcript.append(plain(child.before))
        plays = passes = 0
        over = False
        for _turn in range(60):
            child.sendline("hint")
            child.expect_exact(PROMPT)
            hint_text = plain(child.before)
            transcript.append(hint_text)
            match = HINT.search(hint_text)
            if match:
                move = match.group(1)
                plays += 1
            else:
                assert "No play is possible" in hint_text, hint_text
                move = "pass"
                passes += 1
            child.sendline(move)
            index = child.expect_exact([PROMPT, "Game over", "Not allowed"])
            transcript.append(plain(child.before))
            assert index != 2, f"the hinted move {move!r} was refused:\n{plain(child.before)}"
            if index == 1:
                over = True
                break
        assert over, "the game did not end within 60 turns"
        child.expect_exact("Save the game?")
        summary = plain("Game over" + child.before)
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    elapsed = time.monotonic() - started
    full = "\n".join(transcript)
    assert child.exitstatus == 0, full[-2000:]
    assert plays >= 3, f"only {plays} plays were made"
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
    assert elapsed < 60, f"the game took {elapsed:.0f} s"


def spawn(tmp_path, *args: str):
    return pexpect.spawn(
        sys.executable,
        ["-c", CHILD, "play", *args],
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 160),
        env={**os.environ, "TERM": "xterm-256color", "COLUMNS": "160", "LINES": "60"},
    )


def test_ctrl_d_offers_to_save_then_leaves(tmp_path):
    pytest.importorskip("tessera.formats.gcg")
    child = spawn(tmp_path, "--players", "Tester,level1", "--seed", "11")
    try:
        child.expect_exact(PROMPT)
        child.sendline("pass")
        child.expect_exact(PROMPT)
        assert "Tester passed" in plain(child.before)
        child.sendeof()  # Ctrl-D at the prompt
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
