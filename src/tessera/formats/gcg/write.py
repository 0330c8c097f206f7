"""Writing a game as GCG: :func:`dumps_game`, the writer of a
:class:`~tessera.game.Game` (the package's :func:`~tessera.formats.gcg.dumps` gives a
duplicate game to :mod:`tessera.formats.gcg.duplicate` instead), and what the duplicate
writer and the replay share with it: :func:`player_nicks`, :func:`signed`,
:func:`pragma_safe`, :data:`TESSERA_PRAGMA` and :func:`default_challenge_words`."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...game import EndReason, Event, EventKind, Game
from ...move import PLAYED_THROUGH, Exchange, Play
from ...rules import ChallengeRule, ChallengeScope, FirstPlayer, PenaltyPer, Rules
from .. import LAYOUT_GCG_NAMES, TILESET_GCG_NAMES, encode_rules_text, format_tiles
from .record import FIRST_GIVEN, TESSERA_DATA, UNSUCCESSFUL_CHALLENGE


def player_nicks(names: Sequence[str]) -> list[str]:
    """The GCG nicknames of players named ``names``, in the same order: each name with
    spaces, ``:``, ``#`` and ``>`` made ``_`` (``playerN`` when nothing is left), made unique
    with ``_2``, ``_3``, …"""
    out: list[str] = []
    for i, name in enumerate(names):
        base = re.sub(r"[\s:#>]+", "_", name).strip("_") or f"player{i + 1}"
        nick = base
        k = 2
        while nick in out:
            nick = f"{base}_{k}"
            k += 1
        out.append(nick)
    return out


def signed(n: int, negative: bool = False) -> str:
    """A score as a GCG line writes it: ``+12``, ``-5``; with ``negative``, ``-N`` whatever
    the sign of ``n`` (a penalty)."""
    if negative:
        return f"-{abs(n)}"
    return f"+{n}" if n >= 0 else str(n)


# the start of a line of Tessera's own data (see the package docstring)
TESSERA_PRAGMA = "#tile-set " + TESSERA_DATA


def pragma_safe(text: str) -> str:
    """JSON for a pragma line: MAGPIE matches its line patterns anywhere in a line, so a '#'
    or '>' in a rules string (a custom name) could make the line look like another pragma or
    an event. Both can occur in JSON only inside strings, where their escapes mean the same."""
    return text.replace("#", "\\u0023").replace(">", "\\u003e")


def dumps_game(game: Game) -> str:
    """The game (not a duplicate one) as strict GCG: what :func:`tessera.formats.gcg.dumps`
    writes for a :class:`~tessera.game.Game`."""
    alphabet = game.alphabet
    rules = game.rules
    nicks = player_nicks(game.players)  # by seat
    order = [(game.first + k) % game.num_players for k in range(game.num_players)]
    number = {seat: k for k, seat in enumerate(order, start=1)}  # seat -> #playerN
    names = [" ".join(name.split()) for name in game.players]
    if len(set(names)) != len(names) or not all(names):
        names = list(nicks)  # MAGPIE refuses two players of one name; replay reads nicks then
    lines = ["#character-encoding UTF-8"]
    for seat in order:
        lines.append(f"#player{number[seat]} {nicks[seat]} {names[seat]}")
    lex_name = getattr(game.lexicon, "name", None) or rules.lexicon
    if isinstance(lex_name, str) and lex_name and len(lex_name.split()) == 1:
        lines.append(f"#lexicon {lex_name}")
    if rules.gcg_game_type != "classic":
        lines.append(f"#game-type {rules.gcg_game_type}")
    if rules.board != "standard15":
        lines.append(f"#board-layout {LAYOUT_GCG_NAMES.get(rules.board, rules.board)}")
    if rules.tiles != "english":
        lines.append(f"#tile-distribution {TILESET_GCG_NAMES.get(rules.tiles, rules.tiles)}")
    lines.append(f"{TESSERA_PRAGMA}rules {pragma_safe(encode_rules_text(rules))}")
    drawn = bool(game.order_draws) or rules.first_player is FirstPlayer.FIXED
    lines.append(f"{TESSERA_PRAGMA}seed {game.seed}" + ("" if drawn else f" {FIRST_GIVEN}"))
    if order != sorted(order):
        lines.append(f"{TESSERA_PRAGMA}seats {' '.join(nicks)}")

    history = list(game.history)
    end_start = len(history)
    while end_start > 0 and history[end_start - 1].kind in (
        EventKind.END_RACK_POINTS,
        EventKind.END_RACK_PENALTY,
        EventKind.TIME_PENALTY,
    ):
        end_start -= 1
    marker = _end_marker(game, history, end_start, nicks)
    tag_index = _tagged_out_play(game, history, end_start)
    last_play: Event | None = None
    for idx, e in enumerate(history):
        if idx == end_start and marker:
            lines.append(marker)
        if e.kind is EventKind.ACCEPT:
            continue
        nick = nicks[e.player]
        rack = format_tiles(alphabet, e.rack)
        lead = f">{nick}: {rack} "  # an empty rack leaves two spaces, as MAGPIE's patterns need
        notes: list[str] = []
        if e.kind is EventKind.PLAY:
            assert isinstance(e.move, Play)
            word = "".join(
                "." if t == PLAYED_THROUGH else format_tiles(alphabet, [t]) for t in e.move.word
            )
            lines.append(f"{lead}{e.move.position} {word} {signed(e.score)} {e.total}")
            last_play = e
            if idx == tag_index:
                notes.append(UNSUCCESSFUL_CHALLENGE)
        elif e.kind in (EventKind.PASS, EventKind.LOST_TURN):
            lines.append(f"{lead}- +0 {e.total}")
            if e.kind is EventKind.LOST_TURN:
                notes.append(UNSUCCESSFUL_CHALLENGE)
        elif e.kind is EventKind.EXCHANGE:
            assert isinstance(e.move, Exchange)
            ex = format_tiles(alphabet, e.move.tiles) if e.move.tiles else str(e.move.n)
            lines.append(f"{lead}-{ex} +0 {e.total}")
        elif e.kind is EventKind.WITHDRAWN:
            lines.append(f"{lead}-- {signed(e.score, negative=True)} {e.total}")
        elif e.kind in (EventKind.CHALLENGE_BONUS, EventKind.CHALLENGE_PENALTY):
            negative = e.kind is EventKind.CHALLENGE_PENALTY
            text = f"{lead}(challenge) {signed(e.score, negative)} {e.total}"
            words = _written_words(game, e, last_play)
            if words:
                text += " " + " ".join(format_tiles(alphabet, w) for w in words)
            lines.append(text)
        elif e.kind is EventKind.END_RACK_POINTS:
            lines.append(
                f">{nick}: ({format_tiles(alphabet, e.other_racks)}) {signed(e.score)} {e.total}"
            )
        elif e.kind is EventKind.END_RACK_PENALTY:
            own = format_tiles(alphabet, e.rack)
            if own:
                lines.append(f">{nick}: {own} ({own}) {signed(e.score, True)} {e.total}")
            else:
                lines.append(f">{nick}: () {signed(e.score, True)} {e.total}")
        elif e.kind is EventKind.TIME_PENALTY:
            lines.append(f"{lead}(time) {signed(e.score, True)} {e.total}")
        else:  # pragma: no cover - every EventKind is handled above
            raise ValueError(f"cannot write event kind {e.kind}")
        if e.note:
            notes.extend(e.note.splitlines() or [""])
        lines.extend(f"#note {n}".rstrip() for n in notes)
    if marker and end_start == len(history):
        lines.append(marker)
    if not game.is_over:
        lines.append(f"{TESSERA_PRAGMA}incomplete")
        # the rack of the player to move goes last, as #rackN (Quackle and MAGPIE write it so;
        # MAGPIE refuses anything after it, an empty one, or a second); the others' before it
        for seat in order:
            rack = format_tiles(alphabet, game.rack(seat).tiles())
            if seat != game.to_move and rack:
                lines.append(f"{TESSERA_PRAGMA}rack {nicks[seat]} {rack}")
        rack = format_tiles(alphabet, game.rack(game.to_move).tiles())
        if rack:
            lines.append(f"#rack{number[game.to_move]} {rack}")
    return "\n".join(lines) + "\n"


def _end_marker(game: Game, history: list[Event], end_start: int, nicks: list[str]) -> str:
    result = game.result
    if result is None:
        return ""
    reason = result.reason
    if reason in (EndReason.RESIGNED, EndReason.TIMEOUT_FORFEIT) and result.loser is not None:
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[result.loser]}"
    if reason is EndReason.TRIPLE_CHALLENGE and result.loser is not None:
        before = history[end_start - 1] if end_start else None
        if before is not None and before.kind is EventKind.WITHDRAWN:
            return ""
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[result.loser]}"
    if reason is EndReason.ENDED_BY_REQUEST:
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[game.to_move]}"
    if reason is EndReason.MAX_OVERTIME:
        clock = game.rules.clock
        limit = (clock.max_overtime_min if clock else 0) * 60_000
        over = [i for i in range(game.num_players) if game.overtime_ms(i) > limit]
        who = game.to_move if game.to_move in over or not over else over[0]
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[who]}"
    return ""


def _tagged_out_play(game: Game, history: list[Event], end_start: int) -> int | None:
    """The index of an out-play (or finish-line play) whose unsuccessful double challenge
    left no event: the game ended right after it without an accepting pass."""
    result = game.result
    if result is None or result.reason not in (EndReason.PLAYED_OUT, EndReason.FINISH_LINE):
        return None
    if game.rules.challenge_rule not in (ChallengeRule.DOUBLE,):
        return None
    if end_start and history[end_start - 1].kind is EventKind.PLAY:
        return end_start - 1
    return None


def default_challenge_words(
    rules: Rules, score: int, formed: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """The words a replay challenges when a (challenge) line names none (so the writer
    lists the challenged words only when they are not these)."""
    if (
        rules.challenge_rule is ChallengeRule.PENALTY
        and rules.penalty_per is PenaltyPer.WORD
        and rules.challenge_scope is ChallengeScope.LISTED_WORDS
        and rules.penalty_points
    ):
        k = abs(score) // rules.penalty_points
        return formed[:k]
    return formed


def _written_words(game: Game, e: Event, last_play: Event | None) -> tuple[tuple[int, ...], ...]:
    if last_play is None or game.rules.challenge_scope is not ChallengeScope.LISTED_WORDS:
        return ()
    if e.words == default_challenge_words(game.rules, e.score, last_play.words):
        return ()
    return e.words
