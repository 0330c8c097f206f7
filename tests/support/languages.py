"""Small Hungarian and Spanish lexicons for tests, built from tiny word files with ``tessera
lexicon build`` (the languages' own installs need Debian dictionary packages, which a test
machine may lack). Each is ``NAME.kwg`` with ``NAME.json`` naming its alphabet, as in the
lexicon directory."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tessera.cli import main

# name -> (tile set, words): every Hungarian spelling is kept (CS is the CS tile or C·S, as
# `tessera lexicon install hu` keeps them), Spanish only longest-first (CH is the CH tile)
SMALL_LISTS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "hu": ("hungarian", "all", ("SZÍV", "CSÓK", "GYÖNGY", "ŐSZ", "NYÁR")),
    "es": ("spanish", "longest", ("CHICO", "LLAMA", "CARRO", "PERRO")),
}


def build_small_lexicon(folder: Path, name: str) -> Path:
    """Writes the small list ``name`` (``hu`` or ``es``) into ``folder``; returns its .kwg."""
    alphabet, spellings, words = SMALL_LISTS[name]
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / f"{name}-words.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = folder / f"{name}.kwg"
    done = CliRunner().invoke(main, [
        "lexicon", "build", str(source), "-o", str(out), "--alphabet", alphabet,
        "--name", name, "--spellings", spellings, "-q",
    ])
    source.unlink()
    if done.exit_code != 0:
        raise RuntimeError(f"building the {name} test lexicon failed: {done.output}")
    return out
