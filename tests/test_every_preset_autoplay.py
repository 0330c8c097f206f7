"""Issue 13 acceptance: every two-player preset plays a computer-vs-computer game to its end
through ``tessera autoplay``, and the GCG file it writes passes ``tessera gcg verify``.

The installed ``tessera`` command runs in a child process, as a person would run it. The
shipped word list (``enable``, English) serves every preset: their tile sets are all English
ones. ``duplicate`` is not a two-player game (it is a DuplicateGame, French tiles), so it is
left out here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from support.presets import TWO_PLAYER
from support.terminal import COMMAND
from tessera.formats.gcg import load, replay
from tessera.rules import PRESETS

pytest.importorskip("tessera.engine", reason="the computer players are the engine's")

OK_LINE = re.compile(r"^OK (.+) \((\d+) events, final (-?\d+)–(-?\d+)\)$")


def tessera(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_every_preset_but_duplicate_is_covered() -> None:
    assert set(PRESETS) - set(TWO_PLAYER) == {"duplicate"}


@pytest.mark.parametrize("preset", TWO_PLAYER)
def test_autoplay_game_to_its_end_verifies(preset: str, tmp_path: Path) -> None:
    out = tmp_path / "games"
    out.mkdir()
    played = tessera(
        "autoplay", "-r", preset, "-n", "1", "-p", "static,static", "--gcg", str(out),
        "-q", "--seed", "13", "-w", "1",
    )
    assert played.returncode == 0, played.stderr + played.stdout
    files = sorted(out.glob("*.gcg"))
    assert len(files) == 1, files

    verified = tessera("gcg", "verify", "--rules", preset, "--lexicon", "enable", *map(str, files))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    match = OK_LINE.match(verified.stdout.strip())
    assert match, verified.stdout
    assert int(match.group(2)) > 2  # more than a couple of events: a real game was played

    game = replay(load(files[0]), preset, "enable", check_words=True)
    assert game.is_over, f"{preset}: the recorded game stops before its end"
    assert game.rules.name == preset
    assert sorted(game.scores) == sorted(int(match.group(k)) for k in (3, 4))
