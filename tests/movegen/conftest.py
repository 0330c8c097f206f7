"""The word lists and leaves the move generation tests share (session-wide: ENABLE loads once)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.movegen import HUNGARIAN_WORDS, SPANISH_WORDS, random_leaves
from tessera.lexicon import Leaves, Lexicon


@pytest.fixture(scope="session")
def enable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lexicon]:
    """ENABLE, compiled into a temporary cache (never the user's)."""
    root = tmp_path_factory.mktemp("movegen-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_CACHE_DIR", str(root))
        yield Lexicon.load("enable")


@pytest.fixture(scope="session")
def spanish() -> Lexicon:
    return Lexicon.from_words(SPANISH_WORDS, "spanish", name="es-test")


@pytest.fixture(scope="session")
def hungarian() -> Lexicon:
    return Lexicon.from_words(HUNGARIAN_WORDS, "hungarian", name="hu-test")


@pytest.fixture(scope="session")
def leaves_en() -> Leaves:
    return random_leaves(27, seed=11)

