"""The public API is typed: it ships py.typed and passes ``mypy --strict`` (the modules and the
reasons for those left out are in pyproject.toml's [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_says_it_is_typed() -> None:
    assert (resources.files("tessera") / "py.typed").is_file()


def test_the_public_modules_pass_mypy_strict() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found" in run.stdout
