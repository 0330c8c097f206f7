"""Lexicons for other languages, built on the user's machine from installed word lists.

Nothing here is shipped: ``tessera lexicon install CODE`` reads the list that a Debian package
put on this machine, normalises it for the language's tile set and writes ``CODE.kwg`` (with
``CODE.json`` naming the alphabet) into the lexicon directory, reporting every entry it left
out and why.

Normalisation (:func:`normalizer`): entries written with a capital are names and are left out
(except in German, where every noun is capitalised — leaving those out would lose most of the
language; all-capital abbreviations are still left out); letters are upper-cased, ``ß``
becoming ``SS``; accents are stripped unless the accented letter is a tile of the set (Spanish
``Ñ``, Polish ``Ł``, German ``Ä`` stay); ligatures are spelled out (``Œ`` → ``OE``); entries
with anything else (hyphens, apostrophes, digits) are rejected with the reason.

Multi-letter tiles: Hungarian words are kept in every tile spelling (``CS`` may be the CS tile
or C·S across a compound's seam); Spanish words only longest-label-first, since Spanish rules
play CH, LL and RR with their own tiles only.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tessera.lexicon.errors import KwgError, LexiconError
from tessera.lexicon.kwg import ARC_MASK, Kwg, build_bytes, move_generator_size, write_atomic
from tessera.lexicon.lexicon import lexicon_dir, resolve_alphabet
from tessera.lexicon.wordlist import (
    MAX_LENGTH,
    MIN_LENGTH,
    Progress,
    Spellings,
    fold_to_alphabet,
    parse_words,
)
from tessera.tiles import Alphabet

DICT = Path("/usr/share/dict")
HUNSPELL = Path("/usr/share/hunspell")


@dataclass(frozen=True)
class Language:
    code: str
    name: str  # English name, also the tile set's name
    packages: tuple[str, ...]  # Debian packages that provide the list
    source: str  # "dict:FILE", "unmunch:DICTIONARY" or "wordfreq+hunspell:DICTIONARY"
    spellings: Spellings = "all"
    keep_capitalised: bool = False
    python_modules: tuple[str, ...] = ()


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("fr", "french", ("wfrench",), "dict:french"),
        Language("de", "german", ("wngerman",), "dict:ngerman", keep_capitalised=True),
        Language("pl", "polish", ("wpolish",), "dict:polish"),
        Language("nl", "dutch", ("wdutch",), "dict:dutch"),
        Language("it", "italian", ("witalian",), "dict:italian"),
        Language("es", "spanish", ("hunspell-es", "hunspell-tools"), "unmunch:es_ES",
                 spellings="longest"),
        Language("hu", "hungarian", ("hunspell-hu",), "wordfreq+hunspell:hu_HU",
                 python_modules=("spylls", "wordfreq")),
    )
}


def normalizer(alphabet: Alphabet, *, keep_capitalised: bool = False) -> Callable[[str], str]:
    """The function that turns one raw list entry into the text to spell in tiles, raising
    ``ValueError(reason)`` for entries to leave out."""
    def normalize(entry: str) -> str:
        entry = unicodedata.normalize("NFC", entry)
        if len(entry) > 1 and entry.isupper():
            raise ValueError("all capitals (an abbreviation)")
        if not keep_capitalised and entry[:1].isupper():
            raise ValueError("capitalised (a name)")
        return fold_to_alphabet(entry, alphabet)

    return normalize


@dataclass
class Installed:
    """What ``install`` did: the files written and the lines worth showing the user."""

    path: Path
    summary: str
    messages: list[str] = field(default_factory=list)


def _missing(lang: Language, what: str) -> LexiconError:
    pkgs = " ".join(lang.packages)
    return LexiconError(
        f"{lang.name} ({lang.code}) needs {what}. Install the Debian package(s) with: "
        f"sudo apt-get install {pkgs}"
    )


def _dict_lines(lang: Language, root: Path) -> list[str]:
    path = root / lang.source.split(":", 1)[1]
    if not path.is_file():
        raise _missing(lang, f"the word list {path}")
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def _unmunch_lines(lang: Language, root: Path) -> list[str]:
    base = root / lang.source.split(":", 1)[1]
    dic, aff = base.with_suffix(".dic"), base.with_suffix(".aff")
    if not (dic.is_file() and aff.is_file()):
        raise _missing(lang, f"the Hunspell dictionary {dic}")
    tool = shutil.which("unmunch")
    if tool is None:
        raise _missing(lang, "the 'unmunch' tool (from hunspell-tools) to expand it")
    try:
        done = subprocess.run([tool, str(dic), str(aff)], capture_output=True, check=True,
                              timeout=600)
    except (OSError, subprocess.SubprocessError) as exc:
        raise LexiconError(f"unmunch failed on {dic}: {exc}") from None
    # unmunch prints each form, some with a leftover '/FLAGS' that we cut
    return [line.split("/", 1)[0] for line in done.stdout.decode("utf-8", "replace").splitlines()]


def _hungarian_lines(lang: Language, root: Path, progress: Progress | None,
                     size: int) -> tuple[list[str], list[str]]:
    base = root / lang.source.split(":", 1)[1]
    if not (base.with_suffix(".dic").is_file() and base.with_suffix(".aff").is_file()):
        raise _missing(lang, f"the Hunspell dictionary {base}.dic")
    absent = [m for m in lang.python_modules if importlib.util.find_spec(m) is None]
    if absent:
        raise LexiconError(
            f"hungarian (hu) needs the Python packages {', '.join(absent)}: "
            f"pip install {' '.join(absent)} (spylls checks words with the system's Hunspell "
            "dictionary; wordfreq supplies the finite list of words for move generation)"
        )
    import wordfreq
    from spylls.hunspell import Dictionary

    checker = Dictionary.from_files(str(base))
    frequent = wordfreq.top_n_list("hu", size, wordlist="best")
    stems = _dictionary_stems(base.with_suffix(".dic"))
    candidates = list(dict.fromkeys([*frequent, *stems]))
    kept, notes = [], []
    for i, word in enumerate(candidates, start=1):
        if progress is not None and i % 1000 == 0:
            progress("checking", i, len(candidates))
        if checker.lookup(word):
            kept.append(word)
    notes.append(
        f"{len(kept):,} of {len(candidates):,} words pass Hunspell ({base}): "
        f"{len(frequent):,} wordfreq words and {len(stems):,} dictionary stems"
    )
    return kept, notes


def _dictionary_stems(dic: Path) -> list[str]:
    """The stems a Hunspell ``.dic`` lists (``stem/flags<TAB>morphology``; the first line is a
    count). Hungarian's affix rules are beyond ``unmunch``, so its inflected forms come from
    wordfreq; the stems add the dictionary's every headword. Entries of several words are
    left out, and a stem that is no word on its own (a compound part) is refused by the
    Hunspell check like any other candidate."""
    stems = []
    for line in dic.read_text(encoding="utf-8", errors="replace").splitlines()[1:]:
        stem = line.split("\t", 1)[0].split("/", 1)[0].strip()
        if stem and not any(c.isspace() for c in stem):
            stems.append(stem)
    return stems


def install(
    code: str,
    *,
    max_length: int = MAX_LENGTH,
    force: bool = False,
    progress: Progress | None = None,
    root: Path | None = None,
    target: Path | None = None,
    hungarian_size: int = 200_000,
    shrink: bool = True,
) -> Installed:
    """Build and install the lexicon for language ``code``; see the module docstring.

    ``root`` replaces /usr/share/dict or /usr/share/hunspell (tests), ``target`` the lexicon
    directory. If the list is too big for one KWG, ``shrink`` lowers the longest word kept
    one tile at a time until it fits (and says so in the messages).
    """
    lang = LANGUAGES.get(code.lower())
    if lang is None:
        raise LexiconError(f"no language {code!r}; choose one of {', '.join(LANGUAGES)}")
    folder = target or lexicon_dir()
    out = folder / f"{lang.code}.kwg"
    if out.exists() and not force:
        return Installed(out, f"{lang.code}: already installed at {out} (--force rebuilds)")
    alphabet = resolve_alphabet(lang.name)
    messages: list[str] = []
    kind = lang.source.split(":", 1)[0]
    extra: dict[str, str] = {}
    lines: Iterable[str]
    if kind == "dict":
        lines = _dict_lines(lang, root or DICT)
    elif kind == "unmunch":
        lines = _unmunch_lines(lang, root or HUNSPELL)
    else:
        lines, messages = _hungarian_lines(lang, root or HUNSPELL, progress, hungarian_size)
        extra["hunspell"] = str((root or HUNSPELL) / lang.source.split(":", 1)[1])
    lines = list(lines)
    found = parse_words(
        lines, alphabet, min_length=MIN_LENGTH, max_length=max_length, spellings=lang.spellings,
        normalize=normalizer(alphabet, keep_capitalised=lang.keep_capitalised),
        progress=progress, total=len(lines),
    )
    if not found.words:
        raise LexiconError(f"{lang.name}: no usable words in the source list")
    if progress is not None:
        progress("building", 0, 1)
    words, kept_length = found.words, max_length
    while True:
        try:
            kwg = Kwg(build_bytes(words), check=False)
            if move_generator_size(kwg.nodes) > ARC_MASK:
                raise KwgError("too big for the move generator's copy of the graph")
            break
        except KwgError as exc:
            # The format's 22-bit arc index caps a graph at 2^22 nodes (and the move
            # generator's copy, two words larger per sibling list, likewise). Huge inflected
            # lists (Polish) exceed it; the longest words are the rarest plays, so shed them.
            if not shrink or kept_length <= MIN_LENGTH + 5:
                raise LexiconError(
                    f"{lang.name}: {found.entries:,} words are too many for one KWG ({exc}); "
                    f"a smaller --max-length (now {kept_length}) keeps fewer long words"
                ) from None
            kept_length -= 1
            words = [w for w in words if len(w) <= kept_length]
            messages.append(
                f"the list is too big for one KWG with words up to {kept_length + 1} tiles; "
                f"keeping words up to {kept_length} tiles"
            )
    if progress is not None:
        progress("building", 1, 1)
    kwg.save(out)
    meta = {
        "name": lang.code, "language": lang.name, "alphabet": alphabet.name,
        "labels": list(alphabet.labels), "spellings": lang.spellings,
        "source": lang.source, "packages": list(lang.packages), "words": found.entries,
        "rejected": len(found.rejected), "rejected_by_reason": found.reasons(),
        "max_length": kept_length, **extra,
    }
    write_atomic(out.with_suffix(".json"), json.dumps(meta, indent=1, ensure_ascii=False).encode())
    for reason, count in sorted(found.reasons().items()):
        messages.append(f"  {count:,} entries left out: {reason}")
    summary = f"{lang.code} ({lang.name}): {found.summary()}; {len(kwg):,} nodes -> {out}"
    if kept_length < max_length:
        summary += f" (kept {len(words):,} spellings of up to {kept_length} tiles)"
    return Installed(out, summary, messages)
