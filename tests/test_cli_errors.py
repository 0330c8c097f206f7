"""Issue 12, rough edge 8: every bad invocation of every ``tessera`` command ends with exactly
one line on stderr, ``tessera SUBCOMMAND: error: WHAT``, and exit status 2 — no traceback,
no usage screen, nothing claimed on stdout first.

Each row runs the real command in a child process (``python -m tessera``), the way a person
at a shell meets it.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tessera.cli import SUBCOMMANDS

DATA = Path(__file__).parent / "data" / "gcg"
GAME = DATA / "reference_game.gcg"  # four turns
EMPTY = "/".join(["15"] * 15)
OPENING = f"{EMPTY} QI/ 0/0 0"  # the bag is not empty: no endgame
MISSING = "/no/such/dir"

# (command line, a fragment the error line must contain); {game}, {junk}, {tmp} and {busy}
# stand for a good GCG file, a file that is no GCG, a writable directory and a busy port
BAD: list[tuple[str, ...]] = [
    # the top level
    ("", "name a command"),
    ("frob", "No such command 'frob'"),
    ("--frob", "No such option '--frob'"),
    # moves
    ("moves", "Missing option '--cgp'"),
    ("moves --cgp nonsense", "--cgp: CGP needs four fields"),
    (f"moves --cgp '{OPENING}' --lexicon nosuch", "no lexicon named 'nosuch'"),
    (f"moves --cgp '{OPENING}' --top 0", "'--top': 0 is not in the range"),
    (f"moves --cgp '{OPENING}' --leaves {MISSING}/x.klv2", "does not exist"),
    # gcg
    ("tournament standings {tmp}/none.db", "does not exist"),
    ("tournament result {junk} --division A --round 1 1 400 2 -5", "not read it as an event"),
    ("gcg", "name a command: show, verify"),
    ("gcg frob", "No such command 'frob'"),
    ("gcg verify", "Missing argument"),
    (f"gcg verify {MISSING}/x.gcg", "does not exist"),
    ("gcg verify --rules nosuch {game}", "no rules preset 'nosuch'"),
    ("gcg verify --lexicon nosuch {game}", "no lexicon named 'nosuch'"),
    ("gcg show {junk}", "not a pragma"),
    ("gcg show --turn 999 {game}", "has 4 turns, not 999"),
    ("gcg show --turn -1 {game}", "-1 is not in the range"),
    # words
    ("words", "name a command"),
    ("words check", "Missing argument 'WORD...'"),
    ("words check QI --lexicon nosuch", "no lexicon named 'nosuch'"),
    ("words lookup", "Missing argument 'WORD'"),
    ("words lookup C4T", "not spelled in letters of the english alphabet"),
    ("words anagram A1!", "not a tile of the english alphabet"),
    ("words anagram ABC --limit -1", "-1 is not in the range"),
    ("words anagram ABC --min-length x", "'x' is not a valid integer"),
    ("words pattern !!", "not spelled in the english alphabet"),
    ("words starts 1", "not spelled in the english alphabet"),
    # lexicon
    ("lexicon build", "Missing argument 'SOURCE'"),
    (f"lexicon build {MISSING}/words.txt", "does not exist"),
    (f"lexicon build {{game}} -o {MISSING}/x.kwg", f"no such directory: {MISSING}"),
    ("lexicon build {game} --alphabet klingon -o {tmp}/x.kwg", "no tile set named 'klingon'"),
    ("lexicon build {game} --min-length 0 -o {tmp}/x.kwg", "0 is not in the range"),
    ("lexicon info nosuch", "no lexicon named 'nosuch'"),
    ("lexicon install klingon", "no language 'klingon'"),
    # play
    ("play --rules nosuch", "'nosuch' is not one of"),
    ("play --lexicon nosuch", "no lexicon named 'nosuch'"),
    ("play --players me,level9", "no computer player 'level9'"),
    ("play --players me", "a game has 2 to 4 players, not 1"),
    (f"play --load {MISSING}/x.gcg", "does not exist"),
    ("play --load {junk}", "--load"),
    # serve
    ("serve --port 99999", "99999 is not in the range 1<=x<=65535"),
    ("serve --port 0", "0 is not in the range 1<=x<=65535"),
    ("serve --port {busy}", "Address already in use"),
    ("serve --host 192.0.2.1 --port {free}", "cannot listen on 192.0.2.1"),  # not this machine's
    ("serve --lexicon nosuch", "no lexicon named 'nosuch'"),
    ("serve --workers 2 --port {free}", "PostgreSQL"),
    ("serve --bot-delay nan", "'nan' is not a number"),
    # render
    ("render {game}", "Missing option '-o' / '--output'"),
    ("render {game} -o", "Option '-o' requires an argument"),
    (f"render {MISSING}/x.gcg -o x.svg", "does not exist"),
    (f"render {{game}} -o {MISSING}/x.svg", f"no such directory: {MISSING}"),
    ("render {game} -o {game}/x.svg", "not a directory"),
    ("render {game} -o {tmp}", "is a directory"),
    ("render {game} --turn 999 -o {tmp}/x.svg", "has 4 turns, not 999"),
    ("render {game} --turn -1 -o {tmp}/x.svg", "-1 is not in the range"),
    ("render {game} --format gif -o {tmp}/x.svg", "'gif' is not one of"),
    ("render {junk} -o {tmp}/x.svg", "not a pragma"),
    # autoplay, leaves train, winpct train
    ("autoplay --games 0", "0 is not in the range"),
    ("autoplay --players static,grandmaster", "unknown player 'grandmaster'"),
    ("autoplay --rules nosuch", "no rules preset 'nosuch'"),
    ("autoplay --lexicon nosuch", "no lexicon named 'nosuch'"),
    ("autoplay --gcg {game}", "is a file"),
    (f"autoplay --gcg {MISSING}/games", f"no such directory: {MISSING}"),
    ("autoplay --time 0", "0.0 is not in the range"),
    ("leaves train -o {tmp}/x.klv2", "Missing option '--games'"),
    ("leaves train --games 1 -o {tmp}/x.klv2", "1 is not in the range"),
    (f"leaves train --games 2 -o {MISSING}/x.klv2", f"no such directory: {MISSING}"),
    ("leaves train --games 2 --lexicon nosuch -o {tmp}/x.klv2", "no lexicon named 'nosuch'"),
    ("winpct train --games 2", "Missing option '-o' / '--output'"),
    (f"winpct train --games 2 -o {MISSING}/x.csv", f"no such directory: {MISSING}"),
    ("winpct train --games 2 --rules nosuch -o {tmp}/x.csv", "no rules preset 'nosuch'"),
    # analyze
    ("analyze", "Missing argument 'GCG_FILE'"),
    ("analyze {junk}", "not a pragma"),
    ("analyze {game} --lexicon nosuch", "no lexicon named 'nosuch'"),
    ("analyze {game} --rules nosuch", "no rules preset 'nosuch'"),
    ("analyze {game} --time 1", "go with --sim"),
    ("analyze {game} --sim --time nan", "'nan' is not a number"),
    # endgame, sim
    ("endgame", "Missing option '--cgp'"),
    (f"endgame --cgp '{OPENING}'", "an endgame needs an empty bag"),
    (f"endgame --cgp '{OPENING}' --threads 0", "0 is not in the range"),
    ("sim --cgp x", "--cgp: CGP needs four fields"),
    (f"sim --cgp '{OPENING}' --plies 999", "999 is not in the range"),
    (f"sim --cgp '{OPENING}' --lexicon nosuch", "no lexicon named 'nosuch'"),
]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Lexicon, cache and data folders of the tests' own (nothing in the home folder)."""
    root = tmp_path_factory.mktemp("home")
    return {
        **os.environ,
        "TESSERA_LEXICON_DIR": str(root / "lexicons"),
        "TESSERA_CACHE_DIR": str(root / "cache"),
        "TESSERA_DATA_DIR": str(root / "data"),
    }


@pytest.fixture(scope="module")
def busy_port() -> Iterator[int]:
    """A port something else listens on (all addresses, as a server on the machine would)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("0.0.0.0", 0))
        sock.listen()
        yield sock.getsockname()[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tessera", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )


def test_the_table_names_every_subcommand() -> None:
    named = {shlex.split(line)[0] for line, _ in BAD if line and not line.startswith("-")}
    assert set(SUBCOMMANDS) <= named, set(SUBCOMMANDS) - named


@pytest.mark.parametrize(("line", "fragment"), BAD, ids=[line or "(none)" for line, _ in BAD])
def test_a_bad_invocation_is_one_line_and_status_2(
    line: str,
    fragment: str,
    env: dict[str, str],
    busy_port: int,
    tmp_path: Path,
) -> None:
    junk = tmp_path / "junk.gcg"
    junk.write_bytes(b"\x7fELF\x00\x01 not a game\n")
    words = shlex.split(line)
    subs = {"game": str(GAME), "junk": str(junk), "tmp": str(tmp_path), "busy": str(busy_port)}
    subs["free"] = str(free_port())
    args = [w.format(**subs) if "{" in w else w for w in words]
    done = run(args, env, tmp_path)
    lines = done.stderr.splitlines()
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert len(lines) == 1, done.stderr
    command = ["tessera"]
    for word in words[:2]:  # the (sub)command path as the error names it
        if word.startswith("-") or word == "frob" or "{" in word:
            break
        command.append(word)
        if word not in ("gcg", "words", "lexicon", "leaves", "winpct", "tournament"):
            break
    assert lines[0].startswith(" ".join(command) + ": error: "), lines[0]
    assert fragment in lines[0], lines[0]
    assert done.stdout == "", done.stdout  # nothing claimed before the error ("Tessera is at")
    assert list(tmp_path.iterdir()) == [junk]  # nothing written


def test_serve_checks_the_port_before_it_says_where_it_is(
    env: dict[str, str], busy_port: int, tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    done = run(["serve", "--port", str(busy_port), "--database", database], env, tmp_path)
    assert done.returncode == 2 and "Tessera is at" not in done.stdout
    assert done.stderr.startswith(f"tessera serve: error: cannot listen on 127.0.0.1:{busy_port}")
    assert not (tmp_path / "games.db").exists()  # the port is checked before anything opens
