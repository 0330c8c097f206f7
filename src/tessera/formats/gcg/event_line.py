"""One GCG event line read: :func:`parse_event` turns the tokens after ``>nick:`` into a
:class:`~tessera.formats.gcg.record.GcgEvent`, taking the variants other programs write
(``-3`` for an exchange of unknown tiles, old Quackle's ``-- +0``, ``MES(QUITE)``, extra
tokens after the total) and bounding every number; :func:`check_tile_text` is the check of
rack and tile text that pragmas use too."""

from __future__ import annotations

import re

from .. import excerpt
from .record import GcgError, GcgEvent, LineKind

_POSITION = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$", re.ASCII)
_SCORE = re.compile(r"^[+-]\d{1,9}$", re.ASCII)
_TOTAL = re.compile(r"^[+-]?\d{1,9}$", re.ASCII)
_TILE_TEXT = re.compile(r"^(?:\w|\?|\[\w+\])+$")
_WORD_TEXT = re.compile(r"^(?:\w|\.|\[\w+\])+$")


def check_tile_text(text: str, line: int, what: str, allow_empty: bool = False) -> None:
    """Raise :class:`GcgError` (naming ``what`` and ``line``) unless ``text`` is tile text:
    letters, ``?`` and ``[XX]`` labels; empty text passes with ``allow_empty``."""
    if not text and allow_empty:
        return
    if not _TILE_TEXT.match(text) or "_" in text or any(ch.isdigit() for ch in text):
        raise GcgError(f"{what} {excerpt(text)!r} is not tiles (letters, '?' and [XX] only)", line)


def _score(token: str | None, line: int, what: str) -> int:
    if token is None:
        raise GcgError(f"{what} is missing", line)
    if not _SCORE.match(token):
        if re.fullmatch(r"[+-]\d+", token, re.ASCII):
            raise GcgError(f"{what} {excerpt(token)} has more than 9 digits", line)
        raise GcgError(
            f"{what} {excerpt(token)!r} must be a signed number such as +12 or -5", line
        )
    return int(token)


def _total(token: str | None, line: int) -> int:
    if token is None:
        raise GcgError("the cumulative score is missing", line)
    if not _TOTAL.match(token):
        if re.fullmatch(r"[+-]?\d+", token, re.ASCII):
            raise GcgError(f"the cumulative score {excerpt(token)} has more than 9 digits", line)
        raise GcgError(f"the cumulative score {excerpt(token)!r} is not a whole number", line)
    return int(token)


def parse_event(nick: str, tokens: list[str], line: int) -> GcgEvent:
    """The event of line ``line``, ``>nick: TOKENS…``, from its tokens after the ``:``;
    raises :class:`GcgError` naming the line when they are not a move GCG knows."""
    t0 = tokens[0]
    rack: str | None = None
    i = 0
    if not (t0.startswith("(") or t0.startswith("-") or _POSITION.match(t0)):
        rack = t0
        i = 1
        check_tile_text(rack, line, "rack")
    if i >= len(tokens):
        raise GcgError(f"the rack {rack} is not followed by a move", line)
    action = tokens[i]
    rest = tokens[i + 1 :]

    def tail(n_before: int) -> tuple[int, int, tuple[str, ...]]:
        score_tok = rest[n_before] if len(rest) > n_before else None
        total_tok = rest[n_before + 1] if len(rest) > n_before + 1 else None
        score = _score(score_tok, line, "the score")
        return score, _total(total_tok, line), tuple(rest[n_before + 2 :])

    low = action.lower()
    if low == "(challenge)":
        score, total, extra = tail(0)
        kind = (
            LineKind.CHALLENGE_PENALTY
            if score < 0 or rest[0].startswith("-")
            else (LineKind.CHALLENGE_BONUS)
        )
        return GcgEvent(kind, nick, line, rack, score, total, extra=extra)
    if low == "(time)":
        score, total, extra = tail(0)
        if score > 0 or not rest[0].startswith("-"):
            raise GcgError(f"a time penalty must be negative, not {rest[0]}", line)
        return GcgEvent(LineKind.TIME_PENALTY, nick, line, rack, score, total, extra=extra)
    if action.startswith("("):
        if not action.endswith(")"):
            raise GcgError(f"{excerpt(action)!r}: '(' without ')'", line)
        tiles = action[1:-1]
        check_tile_text(tiles, line, "end rack", allow_empty=True)
        score, total, extra = tail(0)
        negative = rest[0].startswith("-")
        if rack is not None:
            if tiles != rack:
                raise GcgError(
                    f"an end-rack penalty repeats the rack: {rack} ({rack}), not {rack} ({tiles})",
                    line,
                )
            if not negative:
                raise GcgError(f"an end-rack penalty must be negative, not {rest[0]}", line)
            return GcgEvent(
                LineKind.END_RACK_PENALTY, nick, line, rack, score, total, tiles=tiles, extra=extra
            )
        if (negative and score != 0) or (tiles == "" and negative):
            return GcgEvent(
                LineKind.END_RACK_PENALTY, nick, line, tiles, score, total, tiles=tiles, extra=extra
            )
        if negative:
            raise GcgError(f"end-rack points must be positive, not {rest[0]}", line)
        return GcgEvent(
            LineKind.END_RACK_POINTS, nick, line, None, score, total, tiles=tiles, extra=extra
        )
    if action == "--":
        score, total, extra = tail(0)
        if score == 0:  # old Quackle writes '-- +0' and lets the total drop
            return GcgEvent(
                LineKind.WITHDRAWN, nick, line, rack, 0, total, extra=extra, score_given=False
            )
        if not rest[0].startswith("-"):
            raise GcgError(f"a withdrawn play's score must be negative, not {rest[0]}", line)
        return GcgEvent(LineKind.WITHDRAWN, nick, line, rack, score, total, extra=extra)
    if action.startswith("-"):
        body = action[1:]
        score, total, extra = tail(0)
        if score != 0:
            raise GcgError(f"a pass or exchange scores +0, not {rest[0]}", line)
        if body == "" or body == "0":
            return GcgEvent(LineKind.PASS, nick, line, rack, 0, total, extra=extra)
        if body.isascii() and body.isdigit():
            if len(body) > 3:
                raise GcgError(f"an exchange of {excerpt(body)} tiles", line)
            return GcgEvent(
                LineKind.EXCHANGE, nick, line, rack, 0, total, count=int(body), extra=extra
            )
        check_tile_text(body, line, "exchanged tiles")
        return GcgEvent(LineKind.EXCHANGE, nick, line, rack, 0, total, tiles=body, extra=extra)
    if _POSITION.match(action):
        if not rest:
            raise GcgError(f"the play at {action} has no word", line)
        word = rest[0]
        if "(" in word or ")" in word:
            word = _strip_parens(word, line)
        if not _WORD_TEXT.match(word) or "_" in word or any(c.isdigit() for c in word):
            raise GcgError(
                f"word {excerpt(rest[0])!r} is not tiles (letters, '.', [XX] only)", line
            )
        if set(word) <= {"."}:
            raise GcgError(f"word {excerpt(rest[0])!r} places no tile", line)
        rest = rest[1:]
        score, total, extra = tail(0)
        if score < 0:
            raise GcgError(f"a play cannot score {score}", line)
        return GcgEvent(
            LineKind.PLAY, nick, line, rack, score, total, position=action, word=word, extra=extra
        )
    raise GcgError(
        f"{excerpt(action)!r} is not a move: expected a position (8D, D8), '-', '--', '-TILES', "
        "'(challenge)', '(time)' or '(RACK)'",
        line,
    )


def _strip_parens(word: str, line: int) -> str:
    """Lenient: human notation MES(QUITE) becomes MES....., R9.5."""
    out = []
    inside = False
    for ch in word:
        if ch == "(":
            if inside:
                raise GcgError(f"word {excerpt(word)!r}: nested '('", line)
            inside = True
        elif ch == ")":
            if not inside:
                raise GcgError(f"word {excerpt(word)!r}: ')' without '('", line)
            inside = False
        else:
            out.append("." if inside else ch)
    if inside:
        raise GcgError(f"word {excerpt(word)!r}: '(' is never closed", line)
    return "".join(out)
