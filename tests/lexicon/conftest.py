"""Lexicon tests never touch the user's cache or lexicon directory: both point at temporary
folders for the whole session (ENABLE is then built once per test process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tessera.lexicon import Lexicon


@pytest.fixture(scope="session", autouse=True)
def _lexicon_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("lexicon-env")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_CACHE_DIR", str(root / "cache"))
        mp.setenv("TESSERA_LEXICON_DIR", str(root / "lexicons"))
        yield root


@pytest.fixture
def lexicon_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty lexicon directory for one test."""
    folder = tmp_path / "lexicons"
    folder.mkdir()
    monkeypatch.setenv("TESSERA_LEXICON_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def enable(_lexicon_dirs: Path) -> Lexicon:
    return Lexicon.load("enable")
