"""Issue 13 acceptance: every two-player preset plays a computer-vs-computer game to its end
through ``tessera autoplay``, and the GCG file it writes passes ``tessera gcg verify``.

The installed ``tessera`` command runs in a child process, as a person would run it. The
shipped word list (``enable``, English) serves every preset: their tile sets are all English
ones, or (``duplicate``'s French tiles) the same letters. Under ``duplicate`` autoplay plays
a duplicate game between two computers (R8.4), and verify rebuilds it round by round.
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
DUPLICATE_OK = re.compile(r"^OK (.+) \(duplicate, (\d+) rounds, final (\d+)–(\d+), tops (\d+)\)$")


def tessera(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_every_preset_is_covered() -> None:
    assert set(PRESETS) == {*TWO_PLAYER, "duplicate"}


def test_autoplay_duplicate_game_to_its_end_verifies(tmp_path: Path) -> None:
    out = tmp_path / "records"  # a new folder, made as for every other preset (issue 36, 21)
    played = tessera(
        "autoplay", "-r", "duplicate", "-n", "1", "-p", "static,level3", "--gcg", str(out),
        "-q", "--seed", "13",
    )
    assert played.returncode == 0, played.stderr + played.stdout
    files = sorted(out.glob("*.gcg"))
    assert len(files) == 1, files
    verified = tessera("gcg", "verify", "--lexicon", "enable", str(files[0]))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    match = DUPLICATE_OK.match(verified.stdout.strip())
    assert match, verified.stdout
    rounds, a, b, tops = (int(match.group(k)) for k in (2, 3, 4, 5))
    assert rounds > 10 and a == tops > b  # static hands in a top every round; level3 not


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
