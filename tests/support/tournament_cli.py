"""Running ``tessera tournament`` in tests through click's CliRunner: :func:`run` (exit code,
stdout, stderr), :func:`ok` (must succeed) and :func:`refused` (must be refused in one line,
the event file unchanged)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tessera.cli import main


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["tournament", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str | Path) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


def refused(event: Path, *args: str | Path) -> str:
    """Run a command that must be refused: exit 2, one line on stderr, the file unchanged."""
    before = event.read_bytes()
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("tessera tournament "), err
    assert event.read_bytes() == before
    return err.strip()
