"""Word study over HTTP: look a word up, anagram and pattern searches (anyone, rate limited
per address), and the anagram quiz with its card box (the signed-in user's, guest or not).

The searches and the quiz's probability order run on the hub's CPU threads, the card box's
reads and writes on the default pool: never on the event loop. A question the study module
refuses (too long, too many blanks, not spelled) is a 400 with a reason naming the field.
Every route is refused to a user with a rated game in progress (:mod:`.fair_play`): a
lookup, a search or a quiz answer for a chosen alphagram tells what the word list holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tessera.lexicon.study import (
    MAX_TEXT,
    MAX_TILES,
    MIN_TILES,
    Question,
    StudyError,
    Verdict,
    WordStudy,
)

from .accounts import User
from .errors import RequestError, excerpt, field_str
from .fair_play import refuse_during_rated_game
from .hub import Hub
from .ratelimit import RateLimits
from .study import StudyCards, card_json
from .web import client_address, current_user, json_body, require_user

T = TypeVar("T")
MAX_GUESS_LIST = 64


def _query(request: Request, key: str, *, required: bool = True) -> str:
    value = request.query_params.get(key)
    if value is None or (required and not value.strip()):
        if required:
            raise RequestError(400, f"bad_{key}", f"{key} is missing")
        return ""
    if len(value) > MAX_TEXT:
        raise RequestError(400, f"bad_{key}", f"{key} is longer than {MAX_TEXT} characters")
    return value


def _length(request: Request) -> int:
    text = request.query_params.get("length", "7")
    if not (text.isdigit() and len(text) <= 2 and MIN_TILES <= int(text) <= MAX_TILES):
        raise RequestError(
            400, "bad_length", f"length must be a whole number from {MIN_TILES} to {MAX_TILES}"
        )
    return int(text)


def _guesses(body: dict[str, Any]) -> list[str]:
    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise RequestError(400, "bad_words", "words must be a list of texts")
    if len(words) > MAX_GUESS_LIST:
        raise RequestError(400, "bad_words", f"an answer has at most {MAX_GUESS_LIST} words")
    if any(len(w) > MAX_TEXT for w in words):
        raise RequestError(400, "bad_words", f"a word is longer than {MAX_TEXT} characters")
    return words


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    cards = StudyCards(hub.storage)
    studies: dict[str, WordStudy] = {}

    def study_of(name: str) -> WordStudy:
        """The study of a word list the server offers (loaded once; the name is checked)."""
        if name not in studies:
            try:
                studies[name] = WordStudy(hub.lexicon(name))
            except StudyError as exc:
                raise RequestError(400, "bad_lexicon", str(exc)) from None
        return studies[name]

    async def on_cpu(reason: str, work: Callable[[], T]) -> T:
        """``work`` on a CPU thread; a StudyError it raises is a 400 with ``reason``."""
        try:
            return await asyncio.get_running_loop().run_in_executor(hub.cpu, work)
        except StudyError as exc:
            raise RequestError(400, reason, str(exc)) from None

    def lexicon_name(value: str) -> str:
        name = value or hub.config.default_lexicon
        if name not in hub.config.lexicons:
            raise RequestError(
                400,
                "bad_lexicon",
                f"no word list {excerpt(name)} here; use one of {list(hub.config.lexicons)}",
            )
        return name

    async def searcher(request: Request) -> None:
        """A word search's admission: its address within its limit, its user free to look."""
        limits.check("study", client_address(request))
        await refuse_during_rated_game(hub.storage, await current_user(hub, request))

    async def quizzer(request: Request) -> User:
        """A quiz request's user, within their limit and free to look words up."""
        user = await require_user(hub, request)
        limits.check("quiz", user.id)
        await refuse_during_rated_game(hub.storage, user)
        return user

    async def lookup(request: Request) -> Response:
        await searcher(request)
        word = _query(request, "word")
        name = lexicon_name(_query(request, "lexicon", required=False))
        info = await on_cpu("bad_word", lambda: study_of(name).lookup(word))
        return JSONResponse({"lexicon": name, **info.to_json()})

    async def anagram(request: Request) -> Response:
        await searcher(request)
        rack = _query(request, "rack")
        build = request.query_params.get("build", "0") == "1"
        name = lexicon_name(_query(request, "lexicon", required=False))
        found = await on_cpu("bad_rack", lambda: study_of(name).anagram(rack, build=build))
        return JSONResponse({"lexicon": name, "rack": rack.upper(), "build": build,
                             **found.to_json()})

    async def pattern(request: Request) -> Response:
        await searcher(request)
        text = _query(request, "pattern")
        name = lexicon_name(_query(request, "lexicon", required=False))
        found = await on_cpu("bad_pattern", lambda: study_of(name).pattern(text))
        return JSONResponse({"lexicon": name, "pattern": text.upper(), **found.to_json()})

    async def question(request: Request) -> Response:
        user = await quizzer(request)
        length = _length(request)
        name = lexicon_name(_query(request, "lexicon", required=False))
        order = await on_cpu("bad_length", lambda: study_of(name).order(length))
        pick = await asyncio.to_thread(cards.pick, user.id, name, length, order)
        box = await asyncio.to_thread(cards.summary, user.id, name, length)
        if pick is None:
            return JSONResponse({"lexicon": name, "question": None, "box": box})
        asked = await on_cpu("bad_alphagram", lambda: study_of(name).question(pick.alphagram))
        return JSONResponse({
            "lexicon": name,
            "question": asked.to_json(),
            "card": card_json(pick.card),
            "why": pick.why,
            "box": box,
        })

    async def answer(request: Request) -> Response:
        user = await quizzer(request)
        body = await json_body(request)
        name = lexicon_name(field_str(body, "lexicon", 128))
        alphagram = field_str(body, "alphagram", MAX_TEXT)
        guesses = _guesses(body)

        def check() -> tuple[Question, Verdict]:
            study = study_of(name)
            asked = study.question(alphagram)
            return asked, study.check(asked.alphagram, guesses)

        asked, verdict = await on_cpu("bad_alphagram", check)
        card = await asyncio.to_thread(
            cards.answer, user.id, name, asked.alphagram, asked.length, verdict.correct
        )
        box = await asyncio.to_thread(cards.summary, user.id, name, asked.length)
        return JSONResponse({
            "lexicon": name,
            "question": asked.to_json(),
            **verdict.to_json(),
            "card": card_json(card),
            "box": box,
        })

    return [
        Route("/api/study/lookup", lookup),
        Route("/api/study/anagram", anagram),
        Route("/api/study/pattern", pattern),
        Route("/api/study/quiz", question),
        Route("/api/study/quiz", answer, methods=["POST"]),
    ]
