"""Reading GCG text into a :class:`~tessera.formats.gcg.record.GcgGame`: :func:`loads` and
:func:`load`, the size limits they check first (:data:`MAX_FILE_BYTES`, :data:`MAX_LINE_CHARS`,
:data:`MAX_LINES`, :data:`MAX_EVENTS`), the character encoding (R9.1), and the reader that
takes each line in turn: pragmas (Tessera's ``#tile-set tessera-…`` data and a duplicate
record's players, computers and submissions included) and event lines, each of which
:func:`~tessera.formats.gcg.event_line.parse_event` reads."""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterator
from os import PathLike

from ...rules import RulesError
from .. import decode_rules_text, excerpt, layout_for, tileset_for
from .event_line import check_tile_text, parse_event
from .record import (
    FIRST_GIVEN,
    MAX_PLAYERS,
    TESSERA_DATA,
    GcgError,
    GcgEvent,
    GcgGame,
    GcgPlayer,
    GcgSubmission,
    LineKind,
    withdrawn_play,
)

MAX_DUPLICATE_PLAYERS = 200  # tessera.duplicate.MAX_PLAYERS
# Limits on a file, checked as it is read (a real game is a few kilobytes, under 100 events;
# an annotated one with long notes stays far below these).
MAX_FILE_BYTES = 2 << 20
MAX_LINE_CHARS = 32_768
MAX_LINES = 20_000
MAX_EVENTS = 2_000
GAME_TYPES = ("classic", "wordsmog", "classic_super", "wordsmog_super")
END_MARKER_REASONS = (
    "resigned",
    "ended_by_request",
    "max_overtime",
    "timeout_forfeit",
    "triple_challenge",
)
# pragmas that may follow the first event (R9.3)
_LATE_PRAGMAS = {"note", "incomplete", "tessera-end", "-", "tile-set", "game-board"}
# Tessera's data rides in #tile-set lines, which MAGPIE, Macondo and Quackle all read and
# ignore (see dumps); these keys must come before the first event.
_TESSERA_HEADER_KEYS = {"rules", "seed", "seats", "duplicate", "computer"}

_ENCODING_LINE = re.compile(r"^#character-encoding\s+(\S+)\s*$", re.IGNORECASE)
_EVENT = re.compile(r"^>\s*([^:\s]*)\s*:(.*)$")
_LINE_END = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, one at a time (any CR/LF convention, R9.1)."""
    start = 0
    for end in _LINE_END.finditer(text):
        yield text[start : end.start()]
        start = end.end()
    yield text[start:]


def _decode(data: bytes) -> tuple[str, str]:
    """Bytes to text: UTF-8 when the first line says so (R9.1), else ISO-8859-1."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        encoding = "UTF-8"
    else:
        encoding = "ISO-8859-1"
    first = re.split(rb"[\r\n]", data, maxsplit=1)[0]
    m = _ENCODING_LINE.match(first.decode("latin-1").strip())
    if m:
        encoding = _encoding_name(m.group(1), 1)
    try:
        return data.decode("utf-8" if encoding == "UTF-8" else "latin-1"), encoding
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GcgError(
            f"the file declares UTF-8 but byte 0x{data[exc.start]:02X} is not valid UTF-8", line
        ) from None


def _encoding_name(value: str, line: int) -> str:
    v = value.upper().replace("_", "-")
    if v in ("UTF-8", "UTF8"):
        return "UTF-8"
    if v in ("ISO-8859-1", "LATIN-1", "LATIN1", "ISO8859-1"):
        return "ISO-8859-1"
    raise GcgError(f"unknown character encoding {excerpt(value)!r}; use UTF-8 or ISO-8859-1", line)


def _too_large(size: int) -> GcgError:
    return GcgError(
        f"the file has {size:,} bytes; a GCG record may have at most {MAX_FILE_BYTES:,}"
    )


def loads(text: str | bytes) -> GcgGame:
    """Read GCG text (or bytes, decoded per R9.1) into a :class:`GcgGame`.

    Sizes are checked before anything else: at most :data:`MAX_FILE_BYTES` bytes (characters
    for text), :data:`MAX_LINES` lines of at most :data:`MAX_LINE_CHARS` characters, and
    :data:`MAX_EVENTS` events; reading stops at the first line that breaks a limit or a rule.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_FILE_BYTES:
            raise _too_large(len(text))
        text, encoding = _decode(bytes(text))
    else:
        if len(text) > MAX_FILE_BYTES:
            raise _too_large(len(text))
        encoding = "ISO-8859-1"
        text = text.removeprefix("\ufeff")
    record = GcgGame(encoding=encoding)
    reader = _Reader(record)
    for number, raw in enumerate(_lines(text), start=1):
        if number > MAX_LINES:
            raise GcgError(f"more than {MAX_LINES:,} lines; no game record is that long", number)
        if len(raw) > MAX_LINE_CHARS:
            raise GcgError(
                f"the line has {len(raw):,} characters; a GCG line may have at most "
                f"{MAX_LINE_CHARS:,}",
                number,
            )
        reader.line(number, raw)
    reader.finish()
    return record


def load(path: str | PathLike[str]) -> GcgGame:
    """Read a GCG file (its size is checked before it is read)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise _too_large(size)
        data = f.read(size + 1)  # loads() refuses it if it grew past the limit meanwhile
    return loads(data)


class _Reader:
    def __init__(self, record: GcgGame) -> None:
        self.r = record
        self.after_note = False
        self.seen_event = False
        self.seats_line = 0
        self.tessera_racks: list[tuple[str, str, int]] = []  # (nick, rack, line)
        self.rack_pragmas: list[tuple[int, str, int]] = []  # (player number, rack, line)

    def line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        declared = _ENCODING_LINE.match(line) if number == 1 else None
        if declared:
            self.r.encoding = _encoding_name(declared.group(1), 1)
            self.r.pragmas.append(("character-encoding", self.r.encoding, 1))
            return
        if line.startswith("#"):
            self.pragma(number, line)
            return
        if line.startswith(">"):
            self.after_note = False
            self.event(number, line)
            return
        if self.after_note:
            self._append_note(line)
            return
        raise GcgError(f"not a pragma (#…) or an event (>…): {line[:40]!r}", number)

    # -- pragmas

    def pragma(self, number: int, line: str) -> None:
        name, value = re.match(r"#(\S*)\s*(.*)$", line).groups()  # type: ignore[union-attr]
        lname = name.lower()
        if not lname:
            raise GcgError("'#' without a pragma name", number)
        if lname == "character-encoding":
            raise GcgError("#character-encoding must be the first line of the file", number)
        late = lname in _LATE_PRAGMAS or re.fullmatch(r"rack\d+", lname)
        if self.seen_event and not late:
            raise GcgError(f"pragma #{name} must come before the first event", number)
        self.after_note = lname == "note" or (lname == "-" and self.after_note)
        self.r.pragmas.append((lname, value, number))
        handler = getattr(self, "_p_" + lname.replace("-", "_"), None)
        m = re.fullmatch(r"(player|rack)(\d+)", lname, re.ASCII)
        if m:
            digits = m.group(2)
            n = int(digits) if len(digits) <= 3 else MAX_PLAYERS + 1
            self._player_or_rack(m.group(1), n, value, number)
        elif handler is not None:
            handler(value, number)

    def _append_note(self, text: str) -> None:
        if self.r.events:
            notes = self.r.events[-1].notes
            if notes:
                notes[-1] = f"{notes[-1]}\n{text}"
            else:
                notes.append(text)
        elif self.r.notes:
            self.r.notes[-1] = f"{self.r.notes[-1]}\n{text}"
        else:
            self.r.notes.append(text)

    def _p_note(self, value: str, number: int) -> None:
        target = self.r.events[-1].notes if self.r.events else self.r.notes
        target.append(value)

    def _p_title(self, value: str, number: int) -> None:
        self.r.title = value

    def _p_description(self, value: str, number: int) -> None:
        self.r.description = value

    def _p_id(self, value: str, number: int) -> None:
        if len(value.split()) < 2:
            raise GcgError("#id needs an authority and an id, e.g. '#id io.woogles abc123'", number)
        self.r.id = value

    def _p_lexicon(self, value: str, number: int) -> None:
        if not value or len(value.split()) != 1:
            raise GcgError("#lexicon needs one lexicon name, e.g. '#lexicon NWL23'", number)
        self.r.lexicon = value

    def _p_game_type(self, value: str, number: int) -> None:
        if value.lower() not in GAME_TYPES:
            raise GcgError(
                f"unknown #game-type {excerpt(value)!r}; known: {', '.join(GAME_TYPES)}", number
            )
        self.r.game_type = value.lower()

    def _p_board_layout(self, value: str, number: int) -> None:
        try:
            self.r.board_layout = layout_for(value)
        except ValueError as exc:
            raise GcgError(str(exc), number) from None

    def _p_tile_distribution(self, value: str, number: int) -> None:
        try:
            self.r.tile_distribution = tileset_for(value)
        except ValueError as exc:
            raise GcgError(str(exc), number) from None

    def _p_tile(self, value: str, number: int) -> None:
        parts = value.split()
        if len(parts) != 2 or len(parts[0]) != 1 or not parts[0].isalpha():
            raise GcgError(
                "#tile needs one character and the label it stands for, e.g. '#tile Ç CH'", number
            )
        self.r.tile_aliases[parts[0].upper()] = parts[1].upper()

    def _p_tessera_rules(self, value: str, number: int) -> None:
        try:
            self.r.tessera_rules = decode_rules_text(value)
        except RulesError as exc:
            raise GcgError(f"#tessera-rules: {exc}", number) from None

    def _p_tessera_seed(self, value: str, number: int) -> None:
        value, _, how = value.partition(" ")
        if how.strip() not in ("", FIRST_GIVEN):
            raise GcgError(f"#tessera-seed: {excerpt(how)!r} after the seed is not "
                           f"{FIRST_GIVEN!r}", number)
        self.r.first_given = how.strip() == FIRST_GIVEN
        if not re.fullmatch(r"\d{1,40}", value, re.ASCII):
            raise GcgError(
                f"#tessera-seed needs a whole number of at most 40 digits, not {excerpt(value)!r}",
                number,
            )
        self.r.seed = int(value)

    def _p_tile_set(self, value: str, number: int) -> None:
        """``#tile-set tessera-KEY …`` is Tessera's data (see :func:`dumps`); any other
        ``#tile-set`` line is another program's and is kept but not used."""
        key, _, rest = value.partition(" ")
        if not key.startswith(TESSERA_DATA):
            return
        key = key.removeprefix(TESSERA_DATA)
        rest = rest.strip()
        if key in _TESSERA_HEADER_KEYS and self.seen_event:
            raise GcgError(
                f"#tile-set {TESSERA_DATA}{key} must come before the first event", number
            )
        if key == "rules":
            self._p_tessera_rules(rest, number)
        elif key == "seed":
            self._p_tessera_seed(rest, number)
        elif key == "seats":
            self._seats(rest, number)
        elif key == "end":
            self._p_tessera_end(rest, number)
        elif key == "incomplete":
            self.r.incomplete = True
        elif key == "duplicate":
            self._duplicate_player(rest, number)
        elif key == "computer":
            self._duplicate_computer(rest, number)
        elif key == "submit":
            self.r.submissions.append(_submission(rest, number))
        elif key == "rack":
            nick, _, rack = rest.partition(" ")
            check_tile_text(rack.strip(), number, "rack", allow_empty=True)
            self.tessera_racks.append((nick, rack.strip(), number))

    def _duplicate_player(self, value: str, number: int) -> None:
        nick, _, name = value.partition(" ")
        if not nick or ":" in nick or nick.startswith(">"):
            raise GcgError(
                f"#tile-set {TESSERA_DATA}duplicate needs a nickname (no ':', not starting "
                "with '>') and a name",
                number,
            )
        players = self.r.duplicate_players
        if any(p.nick == nick for p in players):
            raise GcgError(f"duplicate player {excerpt(nick)!r} is declared twice", number)
        if len(players) >= MAX_DUPLICATE_PLAYERS:
            raise GcgError(f"more than {MAX_DUPLICATE_PLAYERS} duplicate players", number)
        players.append(GcgPlayer(len(players) + 1, nick, name.strip() or nick, number))

    def _duplicate_computer(self, value: str, number: int) -> None:
        parts = value.split()
        if len(parts) != 2:
            raise GcgError(
                f"#tile-set {TESSERA_DATA}computer needs a player's nickname and the name of "
                "the computer that plays it",
                number,
            )
        nick, computer = parts
        computers = self.r.duplicate_computers
        if nick in computers:
            raise GcgError(f"duplicate player {excerpt(nick)!r} is marked a computer twice",
                           number)
        if not any(p.nick == nick for p in self.r.duplicate_players):
            raise GcgError(
                f"#tile-set {TESSERA_DATA}computer: no duplicate player {excerpt(nick)!r} "
                "declared before it",
                number,
            )
        computers[nick] = computer

    def _seats(self, value: str, number: int) -> None:
        nicks = value.split()
        if self.r.seats is not None:
            raise GcgError("the seat order is given twice", number)
        if not 1 <= len(nicks) <= MAX_PLAYERS or len(set(nicks)) != len(nicks):
            raise GcgError("the seat order lists each player's nickname once", number)
        self.r.seats = nicks
        self.seats_line = number

    def _p_incomplete(self, value: str, number: int) -> None:
        self.r.incomplete = True
        if value:
            check_tile_text(value, number, "rack")
            self.r.incomplete_rack = value

    def _p_tessera_end(self, value: str, number: int) -> None:
        parts = value.split()
        if not parts or parts[0] not in END_MARKER_REASONS or len(parts) != 2:
            raise GcgError(
                "#tessera-end needs a reason and a nick; reasons: " + ", ".join(END_MARKER_REASONS),
                number,
            )
        self.seen_event = True
        self.r.events.append(GcgEvent(LineKind.END_MARKER, parts[1], number, reason=parts[0]))

    def _player_or_rack(self, what: str, n: int, value: str, number: int) -> None:
        if not 1 <= n <= MAX_PLAYERS:
            raise GcgError(f"#{what}…: players are numbered 1 to {MAX_PLAYERS}", number)
        if what == "rack":
            check_tile_text(value, number, "rack", allow_empty=True)
            self.rack_pragmas.append((n, value, number))
            return
        parts = value.split(None, 1)
        if not parts:
            raise GcgError(f"#player{n} needs a nickname", number)
        nick = parts[0]
        if ":" in nick or nick.startswith(">"):
            raise GcgError(
                f"nickname {excerpt(nick)!r} may not contain ':' or start with '>'", number
            )
        if any(p.number == n for p in self.r.players):
            raise GcgError(f"#player{n} is declared twice", number)
        if any(p.nick == nick for p in self.r.players):
            raise GcgError(f"nickname {excerpt(nick)!r} is used by two players", number)
        self.r.players.append(
            GcgPlayer(n, nick, parts[1].strip() if len(parts) > 1 else "", number)
        )

    # -- events

    def event(self, number: int, line: str) -> None:
        m = _EVENT.match(line)
        if not m:
            raise GcgError("an event is '>nick: RACK …'; the ':' after the nick is missing", number)
        nick, rest = m.group(1), m.group(2)
        if not nick:
            raise GcgError("an event needs a player nickname before ':'", number)
        tokens = rest.split()
        if not tokens:
            raise GcgError(f"event for {excerpt(nick)!r} has nothing after ':'", number)
        if self.rack_pragmas:
            n, _, rack_line = self.rack_pragmas[0]
            raise GcgError(
                f"an event after the final racks (#rack{n} on line {rack_line}); the #rackN lines "
                "end a record",
                number,
            )
        self.seen_event = True
        if len(self.r.events) >= MAX_EVENTS:
            raise GcgError(f"more than {MAX_EVENTS:,} events; no game has that many", number)
        ev = parse_event(nick, tokens, number)
        if ev.kind is LineKind.TIME_PENALTY:
            earlier = next(
                (e for e in self.r.events if e.kind is LineKind.TIME_PENALTY and e.nick == nick),
                None,
            )
            if earlier is not None:
                raise GcgError(
                    f"a second (time) line for {nick} (the first is on line {earlier.line}); "
                    "a player's time penalty is one line",
                    number,
                )
        if ev.kind is LineKind.WITHDRAWN:
            at = withdrawn_play(self.r.events, len(self.r.events), nick)
            prev = self.r.events[at] if at is not None else None
            if prev is None or prev.kind is not LineKind.PLAY or prev.nick != nick:
                raise GcgError(
                    "a '--' (phony withdrawn) line must come right after the same player's play",
                    number,
                )
            if ev.rack is not None and prev.rack is not None and ev.rack != prev.rack:
                raise GcgError(
                    f"the '--' line's rack {ev.rack} differs from the play's rack {prev.rack}",
                    number,
                )
        self.r.events.append(ev)

    def finish(self) -> None:
        r = self.r
        numbers = sorted(p.number for p in r.players)
        if numbers != list(range(1, len(numbers) + 1)):
            missing = next(i for i in range(1, MAX_PLAYERS + 1) if i not in numbers)
            line = max(p.line for p in r.players)
            raise GcgError(f"#player{missing} is missing (players are numbered from 1)", line)
        r.players.sort(key=lambda p: p.number)
        if not r.players:  # lenient: nicks in order of appearance
            for ev in r.events:
                if ev.kind is not LineKind.END_MARKER and ev.nick not in [
                    p.nick for p in r.players
                ]:
                    if len(r.players) == MAX_PLAYERS:
                        raise GcgError(f"more than {MAX_PLAYERS} players", ev.line)
                    r.players.append(GcgPlayer(len(r.players) + 1, ev.nick, ev.nick, ev.line))
        nicks = {p.nick for p in r.players}
        for ev in r.events:
            if ev.nick not in nicks:
                raise GcgError(
                    f"unknown player {excerpt(ev.nick)!r}; declared: {', '.join(sorted(nicks))}",
                    ev.line,
                )
        if r.seats is not None and sorted(r.seats) != sorted(p.nick for p in r.players):
            raise GcgError(
                f"the seat order names {', '.join(r.seats)}; the players are "
                f"{', '.join(p.nick for p in r.players)}",
                self.seats_line,
            )
        for nick, value, line in self.tessera_racks:
            if nick not in nicks:
                raise GcgError(f"#tile-set {TESSERA_DATA}rack: no player {excerpt(nick)!r}", line)
            r.final_racks[nick] = value
        dup = {p.nick for p in r.duplicate_players}
        for sub in r.submissions:
            if sub.nick not in dup:
                raise GcgError(
                    f"#tile-set {TESSERA_DATA}submit: no duplicate player {excerpt(sub.nick)!r}",
                    sub.line,
                )
        for n, value, line in self.rack_pragmas:
            if n > len(r.players):
                raise GcgError(f"#rack{n}: there is no player {n}", line)
            r.final_racks[r.players[n - 1].nick] = value


_SUBMIT = re.compile(
    r"^(\d{1,4})\s+(\S+)\s+([a-z_]+)\s+([+-]\d{1,9})\s+(-?\d{1,9})"
    r"((?:\s+(?:declared|ms|bonus)=-?\d{1,9})*)\s*(\".*\")?\s*$",
    re.ASCII,
)


def _submission(value: str, number: int) -> GcgSubmission:
    """``ROUND NICK VERDICT +SCORE TOTAL [declared=N] [ms=N] [bonus=N] ["TEXT"]``."""
    m = _SUBMIT.match(value.strip())
    if not m:
        raise GcgError(
            f"#tile-set {TESSERA_DATA}submit needs 'ROUND NICK VERDICT +SCORE TOTAL "
            f"[declared=N] [ms=N] [bonus=N] [\"TEXT\"]', not {excerpt(value)!r}",
            number,
        )
    options = dict(part.split("=") for part in m.group(6).split())
    text = ""
    if m.group(7):
        try:
            text = json.loads(m.group(7))
        except json.JSONDecodeError as exc:
            raise GcgError(f"the submitted text is not a JSON string: {exc.msg}", number) from None
        if not isinstance(text, str):
            raise GcgError("the submitted text is not a JSON string", number)
    return GcgSubmission(
        round=int(m.group(1)),
        nick=m.group(2),
        verdict=m.group(3),
        score=int(m.group(4)),
        total=int(m.group(5)),
        line=number,
        text=text,
        declared=int(options["declared"]) if "declared" in options else None,
        elapsed_ms=int(options["ms"]) if "ms" in options else None,
        bonus=int(options.get("bonus", 0)),
    )
