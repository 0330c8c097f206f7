"""The wheel installs into a fresh virtualenv outside the checkout, and works there: the shipped
word list, leaves and web assets come with it (issue 15, item 6).

Marked ``packaging``: ``make test`` runs it on its own after the rest of the suite, since
building the wheel compiles the core and would compete with the timing tests for the cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from support.ports import free_port

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[2]

BOT_MOVE = """
from tessera import Game
from tessera.engine import get_player
from tessera.lexicon import Lexicon
lexicon = Lexicon.load("enable")
game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, lexicon=lexicon, first=0)
game.set_rack("Ann", "QUITEAB")
move = get_player("static", lexicon).choose(game.view("Ann"))
game.play(move)
print(move, game.scores[0])
"""


def run(args: list[str | Path], cwd: Path, env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{args[:3]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def test_the_wheel_installs_into_a_fresh_virtualenv_and_plays(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, ROOT],
        cwd=ROOT, env={**env, "HOME": os.environ.get("HOME", str(home))}, timeout=1200)
    (wheel,) = dist.glob("tessera-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for shipped in ("tessera/data/lexicons/enable2k.txt.gz", "tessera/data/leaves/enable.klv2",
                    "tessera/py.typed"):
        assert shipped in names
    assert any(n.startswith("tessera/_core") and n.endswith(".so") for n in names)
    assert any("/static/" in n and n.endswith(".js") for n in names)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv], cwd=tmp_path, env=env, timeout=120)
    pip_env = {**env, "HOME": os.environ.get("HOME", str(home))}  # the user's pip cache
    run([venv / "bin" / "python", "-m", "pip", "install", "-q", wheel],
        cwd=tmp_path, env=pip_env, timeout=900)
    outside = tmp_path / "elsewhere"  # no source tree anywhere near
    outside.mkdir()
    where = run([venv / "bin" / "python", "-c", "import tessera; print(tessera.__file__)"],
                cwd=outside, env=env, timeout=60)
    assert str(venv) in where and str(ROOT) not in where

    checked = run([venv / "bin" / "tessera", "words", "check", "QUITE"],
                  cwd=outside, env=env, timeout=300)
    assert "QUITE" in checked
    moved = run([venv / "bin" / "python", "-c", BOT_MOVE], cwd=outside, env=env, timeout=300)
    assert moved.split()[-1] == "48", moved

    port = free_port()
    server = subprocess.Popen(
        [str(venv / "bin" / "tessera"), "serve", "--port", str(port),
         "--database", f"sqlite:///{tmp_path / 'games.db'}"],
        cwd=outside, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    body = page.read().decode()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read().decode() if server.stdout else ""
                assert time.monotonic() < deadline, "the installed server did not answer"
                time.sleep(0.3)
        assert "Tessera" in body
    finally:
        server.terminate()
        server.wait(timeout=30)
