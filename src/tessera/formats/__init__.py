"""Interchange formats: GCG game records (:mod:`tessera.formats.gcg`) and CGP positions
(:mod:`tessera.formats.cgp`).

This package also holds what both formats share:

* **Tile text.** A one-character label is written as itself (upper case = the letter,
  lower case = a blank designated as it, ``?`` = an undesignated blank on a rack). A label
  of several characters (Spanish ``CH``, Hungarian ``SZ``) is written in square brackets,
  ``[CH]`` or ``[ch]`` for a blank. Readers take unbracketed characters one at a time, so
  ``CH`` is the two tiles C and H; a GCG ``#tile <char> <label>`` pragma may declare a
  single character as an alias of a longer label (it is read, never written).
* **Names.** Board layouts and tile sets as the Macondo family names them
  (``#board-layout CrosswordGame``, ``ld english``) mapped to Tessera's
  (:data:`LAYOUT_NAMES`, :data:`TILESET_NAMES`).
* **Rules.** A Tessera rules value as a preset name plus the fields that differ from it
  (:func:`encode_rules` / :func:`decode_rules`), written by GCG as ``#tessera-rules`` and by
  CGP as the ``tr`` opcode, so that a dumped game replays under exactly its rules.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

from ..rules import PRESETS, DuplicateSettings, Rules, RulesError, TimeControl
from ..tiles import BLANK, BLANK_LABEL, Alphabet, TileSet, as_blank

# Macondo-style board-layout names -> Tessera layout names (and back).
LAYOUT_NAMES: dict[str, str] = {
    "CrosswordGame": "standard15",
    "SuperCrosswordGame": "super21",
    "WordsWithFriends": "wwf15",
    "Lexulous": "lexulous15",
}
LAYOUT_GCG_NAMES: dict[str, str] = {v: k for k, v in LAYOUT_NAMES.items()}

# Tessera tile set names -> GCG tile-distribution names. Macondo's names are the lower-case
# language names (english, english_super, french, ...), which Tessera's tile sets share.
TILESET_GCG_NAMES: dict[str, str] = {
    "english": "english",
    "english_super": "english_super",
    "hkcc": "english_hk",
    "wwf": "wwf",
    "lexulous": "lexulous",
    "french": "french",
    "german": "german",
    "spanish": "spanish",
    "polish": "polish",
    "dutch": "dutch",
    "italian": "italian",
    "hungarian": "hungarian",
}
# read: every written name, plus Tessera's own name for the HKCC set
TILESET_NAMES: dict[str, str] = {gcg: name for name, gcg in TILESET_GCG_NAMES.items()} | {
    "hkcc": "hkcc"
}


# Lexicon name prefixes (case-insensitive) -> (language, Tessera tile set). A file that names its
# lexicon but not its tile distribution plays with the lexicon language's tiles, as MAGPIE's
# ld_get_type_from_lex_name (src/ent/letter_distribution.h) decides: CSW/NWL/TWL/America/CEL
# English, RD German, NSF Norwegian, DISC Catalan, FRA French, OSPS Polish; plus the other
# English list names, ODS (French) and FILE/FISE (Spanish). None: Tessera ships no tile set for
# that language.
LEXICON_FAMILIES: tuple[tuple[str, str, str | None], ...] = (
    *((p, "English", "english") for p in (
        "CSW", "NWL", "TWL", "OTCWL", "OWL", "OSPD", "ECWL", "CEL", "AMERICA", "ENABLE",
        "SOWPODS",
    )),
    ("OSPS", "Polish", "polish"),
    ("FRA", "French", "french"),
    ("ODS", "French", "french"),
    ("FILE", "Spanish", "spanish"),
    ("FISE", "Spanish", "spanish"),
    ("RD", "German", "german"),
    ("NSF", "Norwegian", None),
    ("DISC", "Catalan", None),
)


def lexicon_tileset(lexicon: str) -> str | None:
    """The tile set a lexicon's name implies (see :data:`LEXICON_FAMILIES`), or None when the
    name is of no known family. Raises ValueError for a known language Tessera has no tile
    set for, since any other set would score the game wrong."""
    upper = lexicon.upper()
    for prefix, language, tiles in LEXICON_FAMILIES:
        if upper.startswith(prefix):
            if tiles is None:
                raise ValueError(
                    f"{lexicon} is a {language} lexicon, and Tessera has no {language} tile set "
                    "to replay it with"
                )
            return tiles
    return None


def implied_tiles(lexicon: str | None, super_board: bool) -> str | None:
    """The tile set of a record or position that names none: English on a Super board for an
    English (or unknown) lexicon, else the lexicon language's set, else None (the preset's).
    Raises ValueError as :func:`lexicon_tileset` does."""
    family = lexicon_tileset(lexicon) if lexicon else None
    if super_board and family in (None, "english"):
        return "english_super"
    return family


class TileTextError(ValueError):
    """Tile text (a rack, a word, a board row) that does not spell tiles of the alphabet."""


def excerpt(text: str, keep: int = 24) -> str:
    """Untrusted text for a message: itself if short, else its start and its length."""
    return text if len(text) <= keep else f"{text[:keep]}… ({len(text):,} characters)"


MAX_MESSAGE = 400


def bounded(message: str) -> str:
    """An error message of at most :data:`MAX_MESSAGE` characters on one line: the net under
    the excerpts, for messages that quote several fields of a file."""
    message = " ".join(message.splitlines())
    if len(message) <= MAX_MESSAGE:
        return message
    return f"{message[: MAX_MESSAGE - 30]}… ({len(message):,} characters)"


def layout_for(name: str) -> str:
    """The Tessera layout for a Macondo board name (or a Tessera layout name)."""
    if name in LAYOUT_NAMES:
        return LAYOUT_NAMES[name]
    if name in LAYOUT_GCG_NAMES:
        return name
    for gcg_name, tessera_name in LAYOUT_NAMES.items():
        if gcg_name.lower() == name.lower():
            return tessera_name
    raise ValueError(
        f"unknown board layout {excerpt(name)!r}; known: {', '.join(LAYOUT_NAMES)} "
        f"(or {', '.join(LAYOUT_GCG_NAMES)})"
    )


def tileset_for(name: str) -> str:
    """The Tessera tile set for a tile-distribution name (case-insensitive)."""
    key = name.lower()
    if key in TILESET_NAMES:
        return TILESET_NAMES[key]
    raise ValueError(
        f"unknown tile distribution {excerpt(name)!r}; known: {', '.join(TILESET_NAMES)}"
    )


def format_tile(alphabet: Alphabet, tile: int) -> str:
    """One tile as text: ``A``, ``a`` (blank as A), ``?``, ``[CH]``, ``[ch]``."""
    label = alphabet.label(tile)
    return label if len(label) == 1 else f"[{label}]"


def format_tiles(alphabet: Alphabet, tiles: Iterable[int]) -> str:
    return "".join(format_tile(alphabet, t) for t in tiles)


def parse_tiles(
    alphabet: Alphabet,
    text: str,
    *,
    rack: bool,
    aliases: Mapping[str, str] | None = None,
    dots: bool = False,
) -> list[int | None]:
    """Read tile text. ``rack=True``: letters and ``?`` (no designated blanks);
    ``rack=False``: letters and designated blanks (lower case), no ``?``. With ``dots``,
    ``.`` stands for a played-through square and comes back as ``None``.

    Raises :class:`TileTextError` naming the character and its position.
    """
    aliases = aliases or {}
    shown = excerpt(text, 40)
    out: list[int | None] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "." and dots:
            out.append(None)
            i += 1
            continue
        if ch == BLANK_LABEL:
            if not rack:
                raise TileTextError(
                    f"{shown!r}: '?' at position {i + 1}: a blank on the board needs "
                    "its "
                    "letter in lower case"
                )
            out.append(BLANK)
            i += 1
            continue
        if ch == "[":
            end = text.find("]", i + 1)
            if end < 0:
                raise TileTextError(f"{shown!r}: '[' at position {i + 1} is never closed")
            label = text[i + 1 : end]
            if not label:
                raise TileTextError(f"{shown!r}: empty brackets at position {i + 1}")
            out.append(_label_tile(alphabet, label, text, i, rack))
            i = end + 1
            continue
        if ch == "]":
            raise TileTextError(f"{shown!r}: ']' at position {i + 1} without '['")
        alias = aliases.get(ch.upper())
        if alias is not None:
            out.append(
                _label_tile(alphabet, alias if ch.isupper() else alias.lower(), text, i, rack)
            )
            i += 1
            continue
        upper = ch.upper()
        if upper in alphabet.labels:
            out.append(_label_tile(alphabet, ch, text, i, rack))
            i += 1
            continue
        # lenient: an unbracketed multi-letter label whose first character is no tile alone
        for n in range(min(max(len(x) for x in alphabet.labels), len(text) - i), 1, -1):
            chunk = text[i : i + n]
            if chunk.upper() in alphabet.labels and (chunk.isupper() or chunk.islower()):
                out.append(_label_tile(alphabet, chunk, text, i, rack))
                i += n
                break
        else:
            raise TileTextError(
                f"{shown!r}: {ch!r} at position {i + 1} is not a tile of the "
                f"{alphabet.name} alphabet"
            )
    return out


def _label_tile(alphabet: Alphabet, label: str, text: str, pos: int, rack: bool) -> int:
    upper = label.upper()
    shown, label_shown = excerpt(text, 40), excerpt(label)
    if upper not in alphabet.labels:
        raise TileTextError(
            f"{shown!r}: {label_shown!r} at position {pos + 1} is not a tile of the "
            f"{alphabet.name} alphabet"
        )
    tile = alphabet.letter(upper)
    if label == upper and label != label.lower():
        return tile
    if label == label.lower() and label != upper:
        if rack:
            raise TileTextError(
                f"{shown!r}: lower-case {label_shown!r} at position {pos + 1}: write a blank on a "
                "rack as '?'"
            )
        return as_blank(tile)
    raise TileTextError(
        f"{shown!r}: {label_shown!r} at position {pos + 1} mixes upper and lower case"
    )


def rack_tiles(
    alphabet: Alphabet, text: str, aliases: Mapping[str, str] | None = None
) -> list[int]:
    """A rack's tiles (letters and ``?``)."""
    return [t for t in parse_tiles(alphabet, text, rack=True, aliases=aliases) if t is not None]


def rack_value(tiles: TileSet, rack: Iterable[int]) -> int:
    return sum(tiles.value(t) for t in rack)


# -- rules as a preset plus overrides ----------------------------------------------------


def _to_json(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def encode_rules(rules: Rules) -> tuple[str, dict[str, Any]]:
    """``(preset name, {field: JSON value})`` for the fields that differ from the preset
    named ``rules.name`` (or from the plain ``Rules()`` defaults for a custom name)."""
    base = PRESETS.get(rules.name, Rules(name=rules.name))
    diff = {
        f.name: _to_json(getattr(rules, f.name))
        for f in dataclasses.fields(Rules)
        if getattr(rules, f.name) != getattr(base, f.name)
    }
    return rules.name, diff


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


def encode_rules_text(rules: Rules) -> str:
    """``naspa`` or ``naspa {"challenge_rule":"single"}`` (compact JSON, no spaces). A name
    that is no plain token (spaces, ``#``, ``>`` …) goes into the JSON, after ``custom``."""
    name, diff = encode_rules(rules)
    if not _PLAIN_NAME.fullmatch(name):
        name, diff = "custom", {"name": name, **diff}
    if not diff:
        return name
    return f"{name} {json.dumps(diff, separators=(',', ':'), ensure_ascii=False, sort_keys=True)}"


def decode_rules(name: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The inverse of :func:`encode_rules`. Raises :class:`RulesError` naming the problem."""
    base = PRESETS.get(name.lower(), Rules(name=name))
    if not overrides:
        return base
    if not isinstance(overrides, Mapping):
        raise RulesError("rule overrides must be a JSON object")
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        if key not in fields:
            raise RulesError(f"unknown rules field {excerpt(key)!r}")
        current = getattr(base, key)
        try:
            changes[key] = _decode_field(key, raw, current)
        except (TypeError, ValueError) as exc:
            raise RulesError(
                f"rules field {excerpt(key)!r}: bad value {excerpt(repr(raw))} "
                f"({excerpt(str(exc), 80)})"
            ) from None
    try:
        return base.replace(**changes)
    except (TypeError, ValueError) as exc:
        raise RulesError(f"rule overrides do not make valid rules: {exc}") from None


def _decode_field(key: str, raw: Any, current: Any) -> Any:
    if raw is None:
        return None
    if key == "clock":
        if not isinstance(raw, dict):
            raise TypeError("a clock is an object")
        return _decode_dataclass(TimeControl, raw)
    if key == "duplicate":
        if not isinstance(raw, dict):
            raise TypeError("duplicate settings are an object")
        return _decode_dataclass(DuplicateSettings, raw)
    if isinstance(current, Enum):
        return type(current)(raw)
    if isinstance(current, bool):
        if not isinstance(raw, bool):
            raise TypeError("expected true or false")
        return raw
    if isinstance(current, int) and not isinstance(raw, int | str):
        raise TypeError("expected a number")
    if isinstance(current, str) and key not in ("finish_line_target",) and not isinstance(raw, str):
        raise TypeError("expected a string")
    if isinstance(current, tuple):
        if not isinstance(raw, list):
            raise TypeError("expected a list")
        return _tuples(raw)
    return _tuples(raw)


def _decode_dataclass(cls: type, raw: Mapping[str, Any]) -> Any:
    defaults = cls()
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            raise ValueError(f"unknown field {excerpt(key)!r}")
        current = getattr(defaults, key)
        kwargs[key] = type(current)(value) if isinstance(current, Enum) else _tuples(value)
    return cls(**kwargs)


MAX_RULES_JSON = 8_192  # every field of Rules changed is under 2,000 characters


def decode_rules_text(text: str) -> Rules:
    """Read ``naspa`` or ``naspa {"challenge_rule":"single"}``."""
    text = text.strip()
    if not text:
        raise RulesError("no rules preset named")
    name, _, rest = text.partition(" ")
    if name.lower() not in PRESETS and not rest:
        raise RulesError(
            f"no rules preset {excerpt(name)!r}; presets: {', '.join(sorted(PRESETS))}"
        )
    overrides = None
    if rest.strip():
        if len(rest) > MAX_RULES_JSON:
            raise RulesError(
                f"rule overrides of {len(rest):,} characters; at most {MAX_RULES_JSON:,}"
            )
        try:
            overrides = json.loads(rest)
        except json.JSONDecodeError as exc:
            raise RulesError(f"rule overrides are not valid JSON: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a 5,000-digit number, deep nesting
            raise RulesError(f"rule overrides are not usable JSON: {exc}") from None
    return decode_rules(name, overrides)


__all__ = [
    "LAYOUT_GCG_NAMES",
    "LAYOUT_NAMES",
    "LEXICON_FAMILIES",
    "TILESET_GCG_NAMES",
    "TILESET_NAMES",
    "TileTextError",
    "bounded",
    "decode_rules",
    "decode_rules_text",
    "encode_rules",
    "encode_rules_text",
    "excerpt",
    "format_tile",
    "format_tiles",
    "implied_tiles",
    "layout_for",
    "lexicon_tileset",
    "parse_tiles",
    "rack_tiles",
    "rack_value",
    "tileset_for",
]
