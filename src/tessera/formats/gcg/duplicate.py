"""Duplicate records (R8.4): the GCG extension :func:`tessera.formats.gcg.dumps` writes for a
:class:`~tessera.duplicate.DuplicateGame`, and their replay.

A duplicate record is an ordinary one-player GCG game of the master moves, so other
programs read the tops as a solo game; the players and their submissions ride in
``#tile-set tessera-…`` lines, which MAGPIE, Macondo and Quackle read and ignore::

    #character-encoding UTF-8
    #player1 top Master move
    #lexicon enable
    #tile-distribution french
    #tile-set tessera-rules duplicate
    #tile-set tessera-seed 7
    #tile-set tessera-duplicate ann Ann
    #tile-set tessera-duplicate bob Bob
    #tile-set tessera-duplicate level3 level3
    #tile-set tessera-computer level3 level3
    >top: AAEILRT 8D REALIA +14 14
    #tile-set tessera-submit 1 ann valid +14 14 ms=61000 "8C AERIAL"
    #tile-set tessera-submit 1 bob invalid_words +0 0 declared=20 "8D RAILET"
    #tile-set tessera-submit 1 level3 valid +12 12 "8G LIRA"

* ``#player1`` is the pseudo-player whose move lines are the rounds: the line's rack is the
  round's rack, its play the master move (``.`` = a tile already on the board), its score
  the top's, its total the total of the tops.
* ``#tile-set tessera-duplicate NICK NAME`` — one per player, in seat order, before the
  first move line.
* ``#tile-set tessera-computer NICK COMPUTER`` — the player NICK is a computer, and
  COMPUTER names which (a :class:`~tessera.engine.duplicate_players.DuplicateComputer`
  name such as ``level3``), so a game rebuilt from its record knows who plays each seat
  (``DuplicateGame.computers``). It follows the
  player's ``tessera-duplicate`` line; a player without one is a person.
* ``#tile-set tessera-submit ROUND NICK VERDICT +SCORE TOTAL [declared=N] [ms=N] [bonus=N]
  ["TEXT"]`` — a player's submission in a round: its verdict (a
  :class:`~tessera.duplicate.Verdict` value), the points it scored, the player's total after
  the round (the solo ``bonus`` included), the declared score and time taken when given,
  and the submission as written, as a JSON string (``#`` and ``>`` escaped). A player who
  submitted nothing has a ``missing`` line without text. The lines follow their round's
  move line.
* An unfinished game ends with ``#tile-set tessera-incomplete``, the open round's
  submissions (totals as they will be before any bonus), and ``#rack1`` with its rack.

:func:`replay_duplicate` rebuilds the game with its word list (which finds each master
move): each round's rack is the seeded draw, or the recorded rack when they differ (a record
without ``tessera-seed``); each submission is judged again and must score what the record
says; each move line must be a top of its round (it picks the master move among tied tops)
and the totals must agree. A finished record must end where the rules end the game.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ...duplicate import DuplicateGame, Submission, Verdict
from ...legality import IllegalMove
from ...move import PLAYED_THROUGH, Play
from ...rules import Rules, preset
from .. import (
    LAYOUT_GCG_NAMES,
    TILESET_GCG_NAMES,
    TileTextError,
    encode_rules_text,
    format_tiles,
    parse_tiles,
    rack_tiles,
)
from .read import loads
from .record import GcgError, GcgEvent, GcgGame, GcgSubmission, LineKind
from .replayer import load_lexicon
from .write import TESSERA_PRAGMA, player_nicks, pragma_safe, signed

TOP_NICK = "top"
TOP_NAME = "Master move"


def dumps_duplicate(game: DuplicateGame) -> str:
    """The duplicate game as GCG with the extension above (:func:`tessera.formats.gcg.dumps`
    calls it)."""
    alphabet = game.alphabet
    rules = game.rules
    nicks = player_nicks([TOP_NICK, *game.players])
    top, players = nicks[0], nicks[1:]
    lines = ["#character-encoding UTF-8", f"#player1 {top} {TOP_NAME}"]
    lex_name = getattr(game.lexicon, "name", None) or rules.lexicon
    if isinstance(lex_name, str) and lex_name and len(lex_name.split()) == 1:
        lines.append(f"#lexicon {lex_name}")
    if rules.board != "standard15":
        lines.append(f"#board-layout {LAYOUT_GCG_NAMES.get(rules.board, rules.board)}")
    if rules.tiles != "english":
        lines.append(f"#tile-distribution {TILESET_GCG_NAMES.get(rules.tiles, rules.tiles)}")
    lines.append(f"{TESSERA_PRAGMA}rules {pragma_safe(encode_rules_text(rules))}")
    lines.append(f"{TESSERA_PRAGMA}seed {game.seed}")
    for seat, (nick, name) in enumerate(zip(players, game.players, strict=True)):
        lines.append(f"{TESSERA_PRAGMA}duplicate {nick} {' '.join(name.split()) or nick}")
        if seat in game.computers:
            lines.append(f"{TESSERA_PRAGMA}computer {nick} {game.computers[seat]}")
    totals = [0] * game.num_players
    top_total = 0
    for rd in game.rounds:
        word = "".join(
            "." if t == PLAYED_THROUGH else format_tiles(alphabet, [t]) for t in rd.top.word
        )
        score = rd.top.score or 0
        top_total += score
        rack = format_tiles(alphabet, rd.rack)
        lines.append(f">{top}: {rack} {rd.top.position} {word} {signed(score)} {top_total}")
        for seat, sub in enumerate(rd.submissions):
            totals[seat] += rd.points(seat)
            lines.append(_submit_line(sub, players[seat], totals[seat], rd.bonuses[seat]))
    if not game.is_over:
        lines.append(f"{TESSERA_PRAGMA}incomplete")
        for seat in range(game.num_players):
            handed = game.submission(seat)
            if handed is not None:
                lines.append(
                    _submit_line(handed, players[seat], totals[seat] + handed.score, 0)
                )
        if game.rack:
            lines.append(f"#rack1 {format_tiles(alphabet, game.rack)}")
    return "\n".join(lines) + "\n"


def _submit_line(sub: Submission, nick: str, total: int, bonus: int) -> str:
    parts = [str(sub.round), nick, sub.verdict.value, signed(sub.score), str(total)]
    if sub.declared is not None:
        parts.append(f"declared={sub.declared}")
    if sub.elapsed_ms is not None:
        parts.append(f"ms={sub.elapsed_ms}")
    if bonus:
        parts.append(f"bonus={bonus}")
    if sub.text:
        parts.append(pragma_safe(json.dumps(sub.text, ensure_ascii=False)))
    return f"{TESSERA_PRAGMA}submit " + " ".join(parts)


# -- replay ----------------------------------------------------------------------------------


def replay_duplicate(
    record: GcgGame | str | bytes, rules: Rules | str | None = None, lexicon: Any = None
) -> DuplicateGame:
    """Rebuild the duplicate game a record describes, checking it line by line (see the
    module docstring). ``lexicon`` is a Lexicon or a name to load; by default the record's
    ``#lexicon``. Raises :class:`~tessera.formats.gcg.GcgError` with the line of the first
    disagreement."""
    if isinstance(record, str | bytes):
        record = loads(record)
    if not record.is_duplicate:
        raise GcgError("not a duplicate record: it has no '#tile-set tessera-duplicate' lines")
    if not record.players:
        raise GcgError("a duplicate record names its master moves' player as #player1")
    if len(record.players) != 1:
        raise GcgError(
            "a duplicate record has one GCG player, the master moves' "
            f"(#player1); this one has {len(record.players)}",
            record.players[1].line,
        )
    lex = load_lexicon(lexicon if lexicon is not None else record.lexicon)
    if lex is None:
        raise GcgError(
            "a duplicate record replays with its word list, which finds each master move: "
            "give lexicon="
        )
    chosen = preset(rules) if rules is not None else _record_rules(record)
    dup = record.duplicate_players
    names = [p.name for p in dup]
    if len(set(names)) != len(names):
        names = [p.nick for p in dup]
    seats = {p.nick: i for i, p in enumerate(dup)}
    computers = {seats[nick]: name for nick, name in record.duplicate_computers.items()}
    try:
        game = DuplicateGame(chosen, lex, players=names, seed=record.seed or 0,
                             computers=computers)
    except ValueError as exc:
        raise GcgError(f"cannot start the game: {exc}") from None
    by_round: dict[int, list[GcgSubmission]] = defaultdict(list)
    for sub in record.submissions:
        by_round[sub.round].append(sub)
    top_nick = record.players[0].nick
    for number, ev in enumerate(record.events, start=1):
        if ev.kind is not LineKind.PLAY or ev.nick != top_nick:
            raise GcgError(
                f"a duplicate record's move lines are {top_nick}'s master moves", ev.line
            )
        if game.is_over:
            reason = game.end_reason.value if game.end_reason else "over"
            raise GcgError(f"the game is over ({reason}) before round {number}", ev.line)
        _announce(game, ev.rack or "", ev.line)
        _submit_round(game, by_round.pop(number, []), seats)
        try:
            done = game.close_round(top=_top_play(game, ev))
        except IllegalMove as exc:
            raise GcgError(f"round {number}: {exc}", ev.line) from None
        if done.top.score != ev.score or game.top_total != ev.total:
            raise GcgError(
                f"round {number}: the top {done.top} scores {done.top.score} "
                f"(total {game.top_total}); the record says {ev.score} ({ev.total})",
                ev.line,
            )
        for sub in record.submissions:
            if sub.round == number and game.scores[seats[sub.nick]] != sub.total:
                raise GcgError(
                    f"{sub.nick}'s total after round {number} is "
                    f"{game.scores[seats[sub.nick]]}; the record says {sub.total}",
                    sub.line,
                )
    open_round = game.round
    if record.incomplete:
        if game.is_over:
            raise GcgError("the record says the game is unfinished, but its rules end it here")
        rack = record.final_racks.get(top_nick)
        if rack is not None:
            _announce(game, rack, None)
        _submit_round(game, by_round.pop(open_round, []), seats)
    elif not game.is_over:
        raise GcgError(
            f"the record ends, but the game goes on with round {open_round} "
            f"({game.alphabet.text(game.rack)}); an unfinished record says "
            f"'{TESSERA_PRAGMA}incomplete'"
        )
    if by_round:
        stray = min(by_round)
        raise GcgError(f"a submission for round {stray}, which the record does not play",
                       by_round[stray][0].line)
    return game


def _record_rules(record: GcgGame) -> Rules:
    if record.tessera_rules is not None:
        return record.tessera_rules
    changes: dict[str, Any] = {}
    if record.board_layout:
        changes["board"] = record.board_layout
    if record.tile_distribution:
        changes["tiles"] = record.tile_distribution
    return preset("duplicate").replace(**changes)


def _announce(game: DuplicateGame, text: str, line: int | None) -> None:
    """Make the round's rack the recorded one when the seeded draw differs."""
    try:
        tiles = rack_tiles(game.alphabet, text)
    except TileTextError as exc:
        raise GcgError(str(exc), line) from None
    if sorted(tiles) != sorted(game.rack):
        try:
            game.set_rack(tiles)
        except IllegalMove as exc:
            raise GcgError(f"round {game.round}: {exc}", line) from None


def _submit_round(
    game: DuplicateGame, subs: list[GcgSubmission], seats: dict[str, int]
) -> None:
    for sub in subs:
        if sub.verdict == Verdict.MISSING.value:
            continue
        try:
            got = game.submit(
                seats[sub.nick], sub.text, declared=sub.declared, elapsed_ms=sub.elapsed_ms
            )
        except (IllegalMove, ValueError) as exc:
            raise GcgError(f"{sub.nick}'s submission: {exc}", sub.line) from None
        if got.verdict.value != sub.verdict or got.score != sub.score:
            raise GcgError(
                f"{sub.nick}'s {sub.text!r} in round {sub.round} scores {got.score} "
                f"({got.verdict.value}); the record says {sub.score} ({sub.verdict})",
                sub.line,
            )


def _top_play(game: DuplicateGame, ev: GcgEvent) -> Play:
    """The move line's play on the game's board ('.' or the letter itself for a tile already
    there)."""
    from ...board import CoordinateError, parse_position

    board = game.board
    try:
        row, col, across = parse_position(ev.position, board.rows, board.cols)
        cells = parse_tiles(game.alphabet, ev.word, rack=False, dots=True)
    except (CoordinateError, TileTextError) as exc:
        raise GcgError(str(exc), ev.line) from None
    dr, dc = (0, 1) if across else (1, 0)
    word = []
    for k, cell in enumerate(cells):
        r, c = row + dr * k, col + dc * k
        if not board.on_board(r, c):
            raise GcgError(f"{ev.position} {ev.word} runs off the board", ev.line)
        word.append(PLAYED_THROUGH if cell is None or board.get(r, c) else cell)
    return Play(row, col, across, tuple(word), alphabet=game.alphabet)


__all__ = ["TOP_NAME", "TOP_NICK", "dumps_duplicate", "replay_duplicate"]
