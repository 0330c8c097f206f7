"""``tessera words`` (check, anagram, pattern, …) and ``tessera lexicon`` (build, add, info,
list, install)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from tessera.cliargs import LexiconSpec, OutputFile
from tessera.lexicon.errors import LexiconError
from tessera.lexicon.kwg import Kwg, build_bytes
from tessera.lexicon.lexicon import (
    Lexicon,
    _read_sidecar,
    _stem,
    _tokens,
    available,
    cache_dir,
    lexicon_dir,
    resolve_alphabet,
)
from tessera.lexicon.wordlist import MAX_LENGTH, MIN_LENGTH, Progress, parse_words, read_lines

LEXICON_HELP = "Lexicon: a name (enable, or one in the lexicon directory) or a .kwg/.txt path."


@contextmanager
def _progress() -> Iterator[Progress]:
    """A Rich progress bar on stderr for the slow steps (reading, building a word graph)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    bar = Progress(
        TextColumn("{task.description:<10}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    tasks: dict[str, TaskID] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total or None)
        bar.update(tasks[stage], completed=done, total=total or None)

    with bar:
        yield report


def _load(spec: str, alphabet: str | None) -> Lexicon:
    try:
        with _progress() as progress:
            return Lexicon.load(spec, alphabet=alphabet, progress=progress)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None


def _lexicon_options(f: Callable[..., None]) -> Callable[..., None]:
    f = click.option("--alphabet", default=None, help="Tile set of a list without one.")(f)
    return click.option("--lexicon", "-l", "spec", type=LexiconSpec(), default="enable",
                        show_default=True, help=LEXICON_HELP)(f)


def _show(lex: Lexicon, words: list[tuple[int, ...]], limit: int) -> None:
    if not words:
        click.echo("(no words)")
        return
    for w in words[:limit] if limit else words:
        click.echo(lex.format(w))
    if limit and len(words) > limit:
        click.echo(f"… {len(words) - limit:,} more (use --limit 0 for all)", err=True)


@click.group()
def words() -> None:
    """Look words up: check validity, anagram racks, match patterns."""


@words.command()
@click.argument("word", nargs=-1, required=True)
@_lexicon_options
def check(word: tuple[str, ...], spec: str, alphabet: str | None) -> None:
    """Check WORDs; the exit status is 0 only if every one is valid."""
    lex = _load(spec, alphabet)
    bad = []
    for w in word:
        ok = lex.contains_word(w)
        click.echo(f"{w.upper()}: {'valid' if ok else 'NOT valid'} in {lex.name}")
        if not ok:
            bad.append(w.upper())
    if bad:
        click.echo(f"not in {lex.name}: {', '.join(bad)}", err=True)
        sys.exit(1)


@words.command()
@click.argument("word")
@click.option("--json", "as_json", is_flag=True, help="Print the lookup as JSON.")
@_lexicon_options
def lookup(word: str, as_json: bool, spec: str, alphabet: str | None) -> None:
    """WORD as the web app's word study shows it: valid or not, its anagrams, the letters
    that hook it in front and behind, and its probability rank among words of its length."""
    from .study import WordStudy

    lex = _load(spec, alphabet)
    try:
        info = WordStudy(lex).lookup(word)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(info.to_json(), ensure_ascii=False))
    else:
        rank = f", probability rank {info.probability_rank:,}" if info.probability_rank else ""
        click.echo(f"{info.word}: {'valid' if info.valid else 'NOT valid'} in {lex.name}{rank}")
        others = [w for w in info.anagrams if w != info.word]
        click.echo(f"anagrams: {', '.join(others) or '—'}")
        click.echo(f"hooks: {info.front_hooks or '—'} in front, {info.back_hooks or '—'} behind")
    if not info.valid:  # as `check`: the exit status says whether the word is valid
        sys.exit(1)


@words.command()
@click.argument("rack")
@click.option("--exact", is_flag=True, help="Only words that use every tile.")
@click.option("--min-length", type=click.IntRange(min=1), default=2, show_default=True,
              help="Shortest sub-anagram.")
@click.option("--limit", type=click.IntRange(min=0), default=200, show_default=True,
              help="Show at most this many (0: all).")
@_lexicon_options
def anagram(rack: str, exact: bool, min_length: int, limit: int, spec: str,
            alphabet: str | None) -> None:
    """Words from RACK's tiles (``?`` is a blank, shown in lower case), longest first."""
    lex = _load(spec, alphabet)
    try:
        found = lex.anagrams(rack, partial=not exact, min_length=min_length)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None
    found.sort(key=lambda w: (-len(w), [t & 0x7F for t in w], w))
    _show(lex, found, limit)


@words.command()
@click.argument("pattern")
@click.option("--limit", type=click.IntRange(min=0), default=200, show_default=True,
              help="Show at most this many (0: all).")
@_lexicon_options
def pattern(pattern: str, limit: int, spec: str, alphabet: str | None) -> None:
    """Words matching PATTERN: ``?`` is one tile, ``*`` any run (``Q?I*``)."""
    lex = _load(spec, alphabet)
    try:
        _show(lex, lex.pattern(pattern), limit)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None


def _affix_command(name: str, method: str, what: str) -> None:
    @words.command(name=name, help=f"Words {what} TILES.")
    @click.argument("tiles")
    @click.option("--limit", type=click.IntRange(min=0), default=200, show_default=True,
                  help="Show at most this many (0: all).")
    @_lexicon_options
    def command(tiles: str, limit: int, spec: str, alphabet: str | None) -> None:
        lex = _load(spec, alphabet)
        if not _tokens(lex.alphabet, tiles):
            raise click.ClickException(
                f"{tiles!r} is not spelled in the {lex.alphabet.name} alphabet"
            )
        _show(lex, getattr(lex, method)(tiles), limit)


_affix_command("starts", "starting_with", "that start with")
_affix_command("ends", "ending_with", "that end with")
_affix_command("contains", "containing", "that contain")


@words.command()
@click.argument("tiles")
@_lexicon_options
def clabbers(tiles: str, spec: str, alphabet: str | None) -> None:
    """Is TILES an anagram of a word (Clabbers validity)? Lists the words; exit 1 if none."""
    lex = _load(spec, alphabet)
    try:
        rack = lex.rack(tiles)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None
    found = lex.anagrams(rack, partial=False)
    if not found:
        click.echo(f"{tiles.upper()}: no word in {lex.name} uses exactly these tiles", err=True)
        sys.exit(1)
    _show(lex, found, 0)


# -- tessera lexicon ------------------------------------------------------------------------


@click.group()
def lexicon() -> None:
    """Build, inspect, list and install lexicons (word lists compiled to KWG word graphs).

    Lexicons are found by name in the lexicon directory ($TESSERA_LEXICON_DIR, else
    ~/.local/share/tessera/lexicons): drop NAME.txt (one word a line) or NAME.kwg there, or
    keep a KWG you hold there with `tessera lexicon add FILE`, and use --lexicon NAME.
    """


@lexicon.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=OutputFile(), default=None,
              help="The .kwg to write (default: NAME.kwg in the lexicon directory).")
@click.option("--alphabet", default="english", show_default=True, help="Tile set of the words.")
@click.option("--name", default=None, help="Lexicon name (default: the file's name).")
@click.option("--min-length", type=click.IntRange(min=1), default=MIN_LENGTH, show_default=True)
@click.option("--max-length", type=click.IntRange(min=1), default=MAX_LENGTH, show_default=True,
              help="Longest word kept (the board size).")
@click.option("--spellings", type=click.Choice(["all", "longest"]), default="all",
              show_default=True, help="Multi-letter tiles: keep every spelling or only "
              "longest-label-first.")
@click.option("--quiet", "-q", is_flag=True, help="Only the summary, not each rejected line.")
def build(source: Path, output: Path | None, alphabet: str, name: str | None, min_length: int,
          max_length: int, spellings: str, quiet: bool) -> None:
    """Compile SOURCE (a .txt or .txt.gz word list) into a KWG. Every line left out is
    reported with the reason."""
    try:
        alpha = resolve_alphabet(alphabet)
        name = name or _stem(source)
        output = output or lexicon_dir() / f"{name}.kwg"
        with _progress() as progress:
            lines = read_lines(source)
            found = parse_words(lines, alpha, min_length=min_length, max_length=max_length,
                                spellings=spellings,  # type: ignore[arg-type]
                                progress=progress, total=len(lines))
            progress("building", 0, 1)
            kwg = Kwg(build_bytes(found.words), check=False)
            progress("building", 1, 1)
        lex = Lexicon(kwg, alpha, name, info={
            "source": str(source), "words": found.entries, "spellings": spellings,
            "min_length": min_length, "max_length": max_length,
            "rejected": len(found.rejected)})
        side = lex.save(output)
    except (LexiconError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    if not quiet:
        for r in found.rejected:
            click.echo(f"{source}:{r.line}: rejected {r.text!r}: {r.reason}", err=True)
    for reason, count in sorted(found.reasons().items()):
        click.echo(f"  {count:,} rejected: {reason}", err=True)
    click.echo(f"{name}: {found.summary()}; {len(kwg):,} nodes "
               f"({output.stat().st_size:,} bytes) -> {output} (+ {side.name})")


LEXICON_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # a file stem and a menu entry


@lexicon.command()
@click.argument("source", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", default=None,
              help="The name players choose it by, e.g. NWL2023 (default: the file's name).")
@click.option("--alphabet", default=None,
              help="Tile set of the words (a .kwg does not say; needed unless its letters "
              "show it is English).")
@click.option("--force", is_flag=True, help="Replace a lexicon of that name.")
def add(source: Path, name: str | None, alphabet: str | None, force: bool) -> None:
    """Keep a word list you hold (a .kwg, e.g. one of NWL or CSW a club is licensed for, or a
    text list) in the lexicon directory under NAME, with a description of its alphabet, after
    checking it is a word list in that alphabet; then `tessera serve --lexicon NAME` offers it
    and every command loads it by name."""
    name = name or _stem(source)
    if not LEXICON_NAME.fullmatch(name):
        raise click.BadParameter(
            f"{name!r}: letters, digits, '_', '.' and '-', at most 64, starting with a letter "
            "or digit", param_hint="--name")
    target = lexicon_dir() / f"{name}.kwg"
    clashing = next((a for a in available() if a.name.lower() == name.lower()), None)
    if clashing is not None and (clashing.where == "shipped" or not force):
        raise click.ClickException(
            f"a lexicon named {clashing.name} is already there ({clashing.where})"
            + ("" if clashing.where == "shipped" else "; --force replaces it"))
    try:
        with _progress() as progress:
            lex = Lexicon.load(source, alphabet=alphabet, name=name, progress=progress)
        lexicon_dir().mkdir(parents=True, exist_ok=True)
        side = lex.save(target)
    except (LexiconError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{name}: {len(lex):,} words, {lex.alphabet.name} alphabet -> {target} "
               f"(+ {side.name}); offer it with `tessera serve --lexicon {name}`")


@lexicon.command()
@click.argument("spec")
@click.option("--alphabet", default=None, help="Tile set, for a .kwg without a description.")
def info(spec: str, alphabet: str | None) -> None:
    """Describe a lexicon: SPEC is a .kwg/.txt file or a lexicon name."""
    lex = _load(spec, alphabet)
    kwg = lex.kwg
    path = kwg.path
    lines = [
        ("name", lex.name),
        ("source", str(lex.info.get("source", path or "?"))),
        ("alphabet", f"{lex.alphabet.name} ({' '.join(lex.alphabet.labels)})"),
        ("words", f"{len(lex):,}"),
        ("nodes", f"{len(kwg):,} ({4 * len(kwg):,} bytes)"),
        ("gaddag", f"{kwg.count(kwg.gaddag_root):,} entries" if kwg.gaddag_root else "none"),
    ]
    if path is None and lex.info.get("rejected") is not None:
        lines.append(("rejected", f"{lex.info['rejected']:,} lines when built"))
    lengths: dict[int, int] = {}
    for w in kwg.words():
        lengths[len(w)] = lengths.get(len(w), 0) + 1
    if lengths:
        lines.append(("lengths", ", ".join(f"{n}:{c:,}" for n, c in sorted(lengths.items()))))
    for key, value in lines:
        click.echo(f"{key:<9} {value}")


@lexicon.command(name="list")
def list_() -> None:
    """Lexicons that can be loaded by name, and where they come from."""
    click.echo(f"lexicon directory: {lexicon_dir()}")
    click.echo(f"cache directory:   {cache_dir() / 'lexicons'}")
    for entry in available():
        meta = _read_sidecar(Path(entry.where)) if entry.where != "shipped" else {}
        extra = f" [{meta['alphabet']}]" if meta.get("alphabet") else ""
        click.echo(f"  {entry.name:<16} {entry.kind:<5} {entry.where}{extra}")


@lexicon.command()
@click.argument("language")
@click.option("--max-length", type=click.IntRange(min=1), default=MAX_LENGTH, show_default=True)
@click.option("--force", is_flag=True, help="Rebuild even if it is installed.")
@click.option("--hungarian-words", type=click.IntRange(min=1), default=200_000, show_default=True,
              help="hu: how many of wordfreq's most frequent words to check with Hunspell.")
def install(language: str, max_length: int, force: bool, hungarian_words: int) -> None:
    """Build a lexicon for LANGUAGE (fr, de, pl, nl, it, es, hu) from the word lists of
    installed Debian packages, into the lexicon directory."""
    from tessera.lexicon import languages

    try:
        with _progress() as progress:
            result = languages.install(language, max_length=max_length, force=force,
                                       progress=progress, hungarian_size=hungarian_words)
    except LexiconError as exc:
        raise click.ClickException(str(exc)) from None
    for line in result.messages:
        click.echo(line, err=True)
    click.echo(result.summary)
