"""Loading a word list the server offers, by name: one place for the server process and its
analysis workers (:mod:`.analysis_jobs`), so neither imports the other."""

from __future__ import annotations

import logging
from typing import Any

from .errors import RequestError

log = logging.getLogger("tessera.server")


def load_lexicon(name: str) -> Any:
    from tessera.lexicon import Lexicon, LexiconError

    try:
        return Lexicon.load(name)
    except (LexiconError, OSError) as exc:
        log.error("the word list %r cannot load: %s", name, exc)
        raise RequestError(503, "bad_lexicon", f"the word list {name!r} cannot load") from None
