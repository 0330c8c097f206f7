"""Build an older commit beside this checkout: a detached git worktree and its own virtualenv.

Both live in ``.cache/ab/<full sha>/`` of this checkout (git-ignored): ``src/`` is the
worktree, ``venv/`` the virtualenv with that tree's package installed (a regular, not an
editable, install, so the compiled core is built once). A finished build leaves a ``built``
marker; a later run for the same sha reuses it. A half-made build (no marker) is removed and
made again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "ab"
MARKER = "built"


class BuildError(Exception):
    """A revision that cannot be resolved or built; the message is one line for the user."""


@dataclass(frozen=True)
class Build:
    """An installed build: its commit and the python that imports it."""

    sha: str
    python: Path
    reused: bool


def resolve(rev: str, repo: Path = REPO) -> str:
    """The full sha of ``rev`` (a commit-ish), or :class:`BuildError`."""
    if not rev or rev.startswith("-"):
        raise BuildError(f"not a revision: {rev!r}")
    out = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0 or not out.stdout.strip():
        raise BuildError(f"unknown revision {rev!r} in {repo}")
    return out.stdout.strip()


def _run(cmd: list[str], what: str, log: Path) -> None:
    """Run ``cmd``, its output appended to ``log``; :class:`BuildError` if it fails."""
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        done = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise BuildError(f"{what} failed (exit {done.returncode}); see {log}")


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def _remove_worktree(repo: Path, tree: Path) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
        capture_output=True,
    )
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)


def build(sha: str, repo: Path = REPO, cache: Path = CACHE) -> Build:
    """The build of ``sha``, made now (minutes: the compiled core) or reused."""
    home = cache / sha
    tree, venv = home / "src", home / "venv"
    python = _venv_python(venv)
    if (home / MARKER).is_file() and python.is_file():
        print(f"reusing the build of {sha[:12]} in {home}", file=sys.stderr, flush=True)
        return Build(sha, python, reused=True)
    if home.exists():
        print(f"removing an unfinished build in {home}", file=sys.stderr, flush=True)
        _remove_worktree(repo, tree)
        shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    # a worktree whose directory was deleted by hand stays registered until pruned
    subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)
    log = home / "build.log"
    print(f"building {sha[:12]} in {home} (log: {log})", file=sys.stderr, flush=True)
    print("  git worktree add --detach", file=sys.stderr, flush=True)
    _run(
        ["git", "-C", str(repo), "worktree", "add", "--detach", str(tree), sha],
        "git worktree add",
        log,
    )
    print(f"  virtualenv with {sys.version.split()[0]}", file=sys.stderr, flush=True)
    _run([sys.executable, "-m", "venv", str(venv)], "creating the virtualenv", log)
    _run([str(python), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], "pip upgrade", log)
    print(
        "  pip install of that tree (compiles the core: a few minutes)", file=sys.stderr, flush=True
    )
    _run([str(python), "-m", "pip", "install", "--quiet", str(tree)], "pip install", log)
    check = subprocess.run([str(python), "-c", "import tessera._core"], capture_output=True)
    if check.returncode != 0:
        raise BuildError(f"the build of {sha[:12]} has no compiled core; see {log}")
    (home / MARKER).write_text(sha + "\n", encoding="utf-8")
    print(f"  built {sha[:12]}", file=sys.stderr, flush=True)
    return Build(sha, python, reused=False)
