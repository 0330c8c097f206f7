"""Game review: a GCG record turn by turn — the board after each turn, the mover, the rack
the record gives, the move played with its score and the words it formed, the best moves and
the equity lost. The analysis is the one ``tessera analyze`` prints
(:func:`tessera.engine.analysis.analyze_turns`, its default player and leaves); this module
only bounds the work and turns it into JSON.

The caller decides who may see a record (a finished game shows every rack; a game in play is
never reviewed) and runs :func:`review_record` on the CPU pool: its time grows with the
number of turns, which :data:`MAX_TURNS` bounds, and :data:`TIME_LIMIT_S` stops it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from tessera.engine.analysis import (
    AnalysisError,
    SimSettings,
    TurnAnalysis,
    analyze_turn,
    analyze_turns,
    move_text,
    turn_lines,
)
from tessera.formats import gcg
from tessera.game import Game
from tessera.move import NotationError, Play, parse_move

from .errors import RequestError
from .views import board_json, game_json

MAX_GCG_CHARS = 64 * 1024  # an uploaded record; a long game's record is under 8 KB
MAX_TURNS = 120  # a four-player game rarely has 80
TOP = 5  # best moves listed per turn
TIME_LIMIT_S = 60.0  # the whole review, on one core of the CPU pool
# One turn's simulation: a fixed number of deals with a fixed seed, so the page shows what
# `tessera analyze --sim --iterations 400 --seed 1` prints (about a second of one core).
SIMULATION = SimSettings(time_limit=None, iterations=400, plies=2, candidates=10, seed=1)


def read_upload(text: Any) -> gcg.GcgGame:
    """An uploaded record, read by the GCG reader; a 400 that says what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError(400, "bad_gcg", "send the GCG file's text as the field gcg")
    if len(text) > MAX_GCG_CHARS:
        raise RequestError(
            400,
            "gcg_too_large",
            f"the file has {len(text):,} characters; a game to review may have at most "
            f"{MAX_GCG_CHARS:,}",
        )
    try:
        record = gcg.loads(text)
    except gcg.GcgError as exc:
        raise RequestError(400, "bad_gcg", f"not a GCG game record: {exc}") from None
    if not record.players:
        raise RequestError(400, "bad_gcg", "not a GCG game record: it names no #player")
    return record


def _play(game: Game, line: gcg.GcgEvent) -> Play | None:
    """A play line's play on the board before it (None: not a play, or not one that parses,
    which the analysis has refused already)."""
    if line.kind is not gcg.LineKind.PLAY:
        return None
    try:
        move = parse_move(f"{line.position} {line.word}", game.alphabet, game.board)
    except NotationError:
        return None
    return move if isinstance(move, Play) else None


def _shown(game: Game, line: gcg.GcgEvent, a: TurnAnalysis) -> dict[str, Any]:
    """What the page shows of the move played: as people write it (``8A MES(QUITE)``, as the
    best moves are written), the words it formed (main word first) and its squares."""
    play = _play(game, line)
    none = {"shown": a.played, "words": [], "squares": []}
    if play is None:
        return none
    try:  # a play through squares the board has empty is written as the file wrote it
        shown = move_text(play, game.alphabet, game.board)
    except NotationError:
        return none
    spans = game.board.words_formed(play.placements, play.across)
    return {
        "shown": shown,
        "words": [game.alphabet.format(w.tiles) for w in spans],
        "squares": [[r, c] for r, c, _ in play.placements],
    }


def check_turns(record: gcg.GcgGame) -> int:
    """The record's number of turns; a 400 past :data:`MAX_TURNS`."""
    count = len(turn_lines(record))
    if count > MAX_TURNS:
        raise RequestError(
            400, "too_many_turns", f"the game has {count} turns; a review takes at most {MAX_TURNS}"
        )
    return count


def read_turn(value: Any, count: int) -> int:
    """A turn number from a request: 1 to the record's ``count``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= count:
        raise RequestError(400, "bad_turn", f"turn must be a whole number from 1 to {count}")
    return value


def simulate_turn(record: gcg.GcgGame, lexicon: Any, number: int) -> dict[str, Any]:
    """Turn ``number``'s simulation (:data:`SIMULATION`): the best moves by win %, the win %
    of the move played and what it lost (None with a note when the turn cannot be
    simulated: no rack recorded, a phony, the game over)."""
    try:
        a = analyze_turn(record, lexicon, number, top=TOP, sim=SIMULATION).analysis
    except (AnalysisError, gcg.GcgError) as exc:
        raise RequestError(400, "bad_gcg", f"the game does not replay: {exc}") from None
    return {
        "number": number,
        "sim_best": a.sim_best,
        "best_win_pct": a.best_win_pct,
        "win_pct": a.win_pct,
        "win_lost": a.win_lost,
        "sim_moves": [asdict(m) for m in a.sim_moves],
        "iterations": a.sim_iterations,
        "plies": SIMULATION.plies,
        "note": a.note,
    }


def review_record(
    record: gcg.GcgGame,
    lexicon: Any,
    *,
    lexicon_name: str,
    clock: Callable[[], float] = time.monotonic,
) -> dict[str, Any]:
    """Every turn of a record with its analysis, as the review page draws it."""
    count = check_turns(record)
    started = clock()
    turns: list[dict[str, Any]] = []
    first: Game | None = None
    try:
        for step in analyze_turns(record, lexicon, top=TOP):
            if clock() - started > TIME_LIMIT_S:
                raise RequestError(
                    503, "review_too_long", "the review took too long; try a shorter game"
                )
            before, line, a = step.before, step.line, step.analysis
            first = first or before
            alphabet = before.alphabet
            if turns:  # this position is the board after the previous turn
                turns[-1]["board"] = board_json(before.board, alphabet)
                turns[-1]["scores"] = list(before.scores)
            turns.append(
                {
                    **asdict(a),
                    "seat": before.to_move,
                    "total": line.total,
                    **_shown(before, line, a),
                }
            )
        end = gcg.replay(record, None, lexicon, turns=count)
    except AnalysisError as exc:
        raise RequestError(400, "bad_gcg", f"the game does not replay: {exc}") from None
    except gcg.GcgError as exc:
        raise RequestError(400, "bad_gcg", f"the game does not replay: {exc}") from None
    turns[-1]["board"] = board_json(end.board, end.alphabet)
    turns[-1]["scores"] = list(end.scores)
    assert first is not None  # analyze_turns refuses a record without turns
    return {
        **game_json(first.view(0)),
        "names": [p.name or p.nick for p in record.seated()],
        "nicks": [p.nick for p in record.seated()],
        "lexicon": lexicon_name,
        "engine": "static",
        "turns": turns,
        "final_scores": list(end.scores),
    }


__all__ = [
    "MAX_GCG_CHARS",
    "MAX_TURNS",
    "SIMULATION",
    "TOP",
    "check_turns",
    "read_turn",
    "read_upload",
    "review_record",
    "simulate_turn",
]
