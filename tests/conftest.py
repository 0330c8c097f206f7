"""Suite-wide settings. Hypothesis looks for new examples on every local run; CI (`.ci/run`
sets HYPOTHESIS_PROFILE=ci) runs a fixed, derandomized set, so whether a submission lands does
not depend on which examples a run happened to draw. Every test runs in English (see
``_english_interface``)."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _english_interface(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts in English, whatever the developer's locale: the environment the
    terminal game reads its language from (and that child processes inherit) says C.UTF-8,
    and the in-process terminal game speaks English (a test that switched it, e.g. through
    ``tessera play --lang hu`` in a CliRunner, does not leak into the next)."""
    from tessera.i18n import LOCALE_VARIABLES
    from tessera.tui.lang import speaking

    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with speaking("en"):
        yield
