"""Issue 36, point 22: a club's own word list. A club holds a KWG Tessera cannot ship (NWL,
CSW, Spanish FILE2017): ``tessera lexicon add`` keeps it under a name with its alphabet, the
README shows how, and ``tessera serve --lexicon NAME`` offers it by that name, which the game
shows. A ``.kwg`` does not say its alphabet: one that is not English is recognised from its
letters or refused with the flag to pass, never read as English."""

from __future__ import annotations

import random
import re
import shutil
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.lexicon import Kwg, KwgError, Lexicon
from tessera.lexicon.kwg import build_bytes
from tessera.tiles import tileset

README = Path(__file__).parents[2] / "README.md"
# CH, LL, RR and Ñ are tiles of their own in Spanish, and none of these words holds a Y or a
# Z (tiles 27 and 28): in English numbering every tile is a letter, so the graph reads as
# English gibberish (CHICO as DJCQ) unless its alphabet is known
SPANISH_WORDS = ["CHICO", "LLAMA", "PERRO", "AÑO", "CALLE", "NIÑO", "CHURRO", "CARRO", "MUCHO"]


def tessera(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def file2017(tmp_path: Path, lexicon_dir: Path) -> Path:
    """A small Spanish KWG as a club gets one: the graph alone, no description beside it.
    Built with ``tessera lexicon build``, then copied without its NAME.json."""
    words = tmp_path / "es.txt"
    words.write_text("\n".join(SPANISH_WORDS) + "\n", encoding="utf-8")
    built = tmp_path / "built" / "FILE2017.kwg"
    built.parent.mkdir()
    code, out = tessera("lexicon", "build", str(words), "--alphabet", "spanish",
                        "--spellings", "longest", "-o", str(built))  # CH one tile, as FILE2017
    assert code == 0, out
    assert built.with_suffix(".json").is_file()
    club = tmp_path / "club" / "FILE2017.kwg"
    club.parent.mkdir()
    shutil.copy(built, club)
    assert Kwg.load(club).max_tile() <= 26  # no tile beyond English's to give it away
    return club


def english_kwg(folder: Path, enable: Lexicon, name: str) -> Path:
    """An English KWG of 1,700 words, the graph alone (as NWL2023.kwg would come)."""
    path = folder / f"{name}.kwg"
    Kwg(build_bytes([bytes(w) for w in enable.words()][::100])).save(path)
    return path


def test_a_small_spanish_kwg_is_refused_with_the_flag_to_pass(file2017: Path) -> None:
    with pytest.raises(KwgError) as info:
        Lexicon.load(file2017)
    message = str(info.value)
    assert "too small to tell its alphabet by its letters" in message
    assert "pass --alphabet NAME" in message and "tessera lexicon add FILE --alphabet" in message
    assert "spanish" in message  # among the alphabets to choose from
    code, out = tessera("lexicon", "info", str(file2017))
    assert code == 2 and "pass --alphabet NAME" in out


def test_with_its_alphabet_it_reads_as_spanish(file2017: Path, lexicon_dir: Path) -> None:
    code, out = tessera("lexicon", "add", str(file2017))
    assert code == 2 and "pass --alphabet NAME" in out
    assert list(lexicon_dir.iterdir()) == []  # nothing kept for a refused file
    code, out = tessera("lexicon", "add", str(file2017), "--alphabet", "spanish")
    assert code == 0, out
    assert "FILE2017: 9 words, spanish alphabet" in out
    assert "tessera serve --lexicon FILE2017" in out
    lex = Lexicon.load("FILE2017")  # by name, as the server loads it
    assert lex.alphabet.name == "spanish" and lex.name == "FILE2017"
    assert sorted(lex.alphabet.text(w) for w in lex.words()) == sorted(
        tileset("spanish").alphabet.text(tileset("spanish").alphabet.parse(w))
        for w in SPANISH_WORDS
    )
    assert "CHURRO" in lex and "AÑO" in lex


def test_a_big_graph_is_told_by_its_letters(
    tmp_path: Path, lexicon_dir: Path, enable: Lexicon
) -> None:
    nwl = english_kwg(tmp_path, enable, "NWL2023")
    code, out = tessera("lexicon", "add", str(nwl))  # no --alphabet: its letters are English
    assert code == 0, out
    assert Lexicon.load("NWL2023").alphabet.name == "english"
    # words drawn with Spanish letter frequencies: they fit Spanish, so the refusal names it
    spanish = tileset("spanish")
    rng = random.Random(36)
    bag = [t for t in range(1, len(spanish.alphabet) + 1) for _ in range(spanish.counts[t])]
    words = {bytes(rng.choice(bag) for _ in range(rng.randint(3, 8))) for _ in range(3000)}
    path = tmp_path / "FILE2017.kwg"
    Kwg(build_bytes(sorted(words))).save(path)
    with pytest.raises(KwgError, match=r"uses tile 28, but the english alphabet has only 26 "
                       r"letters; its letters fit the spanish alphabet \(\d\.\d\d\): pass "
                       r"--alphabet spanish"):
        Lexicon.load(path)
    assert len(Lexicon.load(path, alphabet="spanish")) == len(words)
    within = {w for w in words if max(w) <= 26}  # only English's tile numbers: letters tell
    Kwg(build_bytes(sorted(within))).save(path)
    with pytest.raises(KwgError, match=r"do not fit the english alphabet .*; they fit the "
                       r"spanish alphabet \(\d\.\d\d\): pass --alphabet spanish"):
        Lexicon.load(path)


def test_a_name_is_a_name_and_nothing_is_replaced_unasked(
    tmp_path: Path, lexicon_dir: Path, enable: Lexicon
) -> None:
    nwl = english_kwg(tmp_path, enable, "NWL2023")
    code, out = tessera("lexicon", "add", str(nwl), "--name", "../NWL")
    assert code == 2 and "letters, digits" in out
    assert tessera("lexicon", "add", str(nwl), "--name", "enable")[0] == 2  # shipped
    assert tessera("lexicon", "add", str(nwl))[0] == 0
    code, out = tessera("lexicon", "add", str(nwl))
    assert code == 2 and "--force replaces it" in out
    assert tessera("lexicon", "add", str(nwl), "--force")[0] == 0


def readme_club_commands() -> list[list[str]]:
    """The commands of the README's 'A club's own word list' section."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### A club's own word list", 1)[1].split("\n#", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    return [line.split() for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_shows_a_club_offering_its_lists_by_name(
    tmp_path: Path, lexicon_dir: Path, enable: Lexicon, file2017: Path
) -> None:
    with warnings.catch_warnings():  # as the server tests import it
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from tessera.server.app import create_app
    from tessera.server.cli import offered_lexicons
    from tessera.server.config import ServerConfig

    commands = readme_club_commands()
    adds = [c for c in commands if c[:3] == ["tessera", "lexicon", "add"]]
    serve = next(c for c in commands if c[:2] == ["tessera", "serve"])
    held = {"NWL2023.kwg": english_kwg(tmp_path, enable, "NWL2023"), "FILE2017.kwg": file2017}
    for command in adds:
        path = held[Path(command[3]).name]  # the README's path, here a test file
        code, out = tessera(*command[1:3], str(path), *command[4:])
        assert code == 0, out
    offered = [serve[k + 1] for k, arg in enumerate(serve) if arg == "--lexicon"]
    assert offered[:2] == ["NWL2023", "FILE2017"]
    config = ServerConfig(lexicons=offered_lexicons(tuple(offered)), bot_delay_s=0)
    app = create_app(f"sqlite:///{tmp_path / 'club.db'}", config=config)
    with TestClient(app, base_url="http://localhost") as client:
        meta = client.get("/api/meta").json()
        assert meta["lexicons"][:2] == ["NWL2023", "FILE2017"]
        assert meta["default_lexicon"] == "NWL2023"
        for name in ("NWL2023", "FILE2017"):
            r = client.post("/api/games", json={
                "players": [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}],
                "rules": "casual", "lexicon": name,
            })
            assert r.status_code == 201, r.text
            state = client.get(f"/api/games/{r.json()['id']}/state").json()
            assert state["lexicon"] == name  # what the game page shows beside the rules
