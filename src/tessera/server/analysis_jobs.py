"""The work of the analysis pool's processes (:mod:`.pools`): game reviews, their turns'
simulations and the analysis board.

A job takes only what pickles (a record's text, a word list's name, a turn number, a
request's JSON) and loads the word lists it names once per process. A refusal comes back as
data, not as the :class:`RequestError` itself (which does not pickle): :func:`run` in the
worker, :func:`answer` in the server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tessera.formats import gcg

from .analysis import analyze, position_json
from .analysis_request import read_position, read_request
from .errors import RequestError
from .lexicons import load_lexicon
from .review import check_turns, read_turn, read_upload, review_record, simulate_turn

Job = Callable[..., dict[str, Any]]
Refusal = tuple[int, str, str]  # a RequestError's status, reason and message

_lexicons: dict[str, Any] = {}  # this process's word lists, by name


def lexicon(name: str) -> Any:
    """A word list the server offers (its name checked by the server), loaded once here."""
    if name not in _lexicons:
        _lexicons[name] = load_lexicon(name)
    return _lexicons[name]


def run(job: Job, *args: Any) -> tuple[dict[str, Any] | None, Refusal | None]:
    """``job(*args)`` in a worker: its answer, or the refusal it raised."""
    try:
        return job(*args), None
    except RequestError as exc:
        return None, (exc.status, exc.reason, exc.message)


def answer(outcome: tuple[dict[str, Any] | None, Refusal | None]) -> dict[str, Any]:
    """In the server: the job's answer, or its refusal raised again."""
    result, refusal = outcome
    if refusal is not None:
        raise RequestError(*refusal)
    assert result is not None
    return result


def review_upload(text: Any, name: str) -> dict[str, Any]:
    """An uploaded record's review (``POST /api/review``)."""
    return review_record(read_upload(text), lexicon(name), lexicon_name=name)


def simulate_upload(text: Any, name: str, turn: Any) -> dict[str, Any]:
    """One turn of an uploaded record simulated (``POST /api/review/simulate``)."""
    record = read_upload(text)
    return simulate_turn(record, lexicon(name), read_turn(turn, check_turns(record)))


def review_game(text: str, name: str, game_id: str) -> dict[str, Any]:
    """A finished game's review, from its record."""
    record = gcg.loads(text)
    return {"game_id": game_id, **review_record(record, lexicon(name), lexicon_name=name)}


def simulate_game(text: str, name: str, turn: int) -> dict[str, Any]:
    """One turn of a finished game simulated, from its record."""
    record = gcg.loads(text)
    return simulate_turn(record, lexicon(name), read_turn(turn, check_turns(record)))


def rank_moves(
    body: dict[str, Any], presets: tuple[str, ...], lexicons: tuple[str, ...]
) -> dict[str, Any]:
    """The analysis board's moves of a position, ranked (``POST /api/analysis/moves``)."""
    from tessera.engine.players import resolve_leaves

    request = read_request(body, presets, lexicons)
    words = lexicon(request.position.lexicon or lexicons[0])
    return analyze(request, words, resolve_leaves("trained", words))


def board_position(
    body: dict[str, Any], presets: tuple[str, ...], lexicons: tuple[str, ...]
) -> dict[str, Any]:
    """The analysis board's position read and written back (``POST /api/analysis/position``)."""
    return position_json(read_position(body, presets, lexicons))
