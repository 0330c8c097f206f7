"""``tessera play``: start a game at the terminal."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from ..cliargs import LexiconSpec
from ..i18n import LANGUAGES
from ..rules import PRESETS, preset


@click.command()
@click.option(
    "--rules",
    "rules_name",
    default="casual",
    show_default=True,
    type=click.Choice(sorted(PRESETS), case_sensitive=False),
    help="Rules preset (casual: words are checked as they are played; undo allowed).",
)
@click.option(
    "--lexicon",
    "lexicon_name",
    type=LexiconSpec(),
    default="enable",
    show_default=True,
    help="Word list: a shipped name, an installed name, or a .txt/.kwg file.",
)
@click.option(
    "--players",
    default=None,
    show_default="me,level3 (duplicate: me)",
    help="2-4 comma-separated names; level1..level5, best or static make computer players. "
    "Duplicate: any number of people and computers (one person alone plays against the "
    "master move; computers alone play the game to its end).",
)
@click.option(
    "--seed", type=int, default=None, help="Seed for the bag: the same seed, the same game."
)
@click.option(
    "--load",
    "load_path",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Continue a game saved as GCG (its players and rules replace the options above).",
)
@click.option(
    "--lang",
    type=click.Choice(list(LANGUAGES), case_sensitive=False),
    default=None,
    show_default="from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en",
    help="The game's language: " + ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items()) + ".",
)
def play(
    rules_name: str,
    lexicon_name: str,
    players: str | None,
    seed: int | None,
    load_path: str | None,
    lang: str | None,
) -> None:
    """Play a game at the terminal against people (hot seat) or computer players, or a
    duplicate game (``--rules duplicate``) alone or with people at one screen."""
    from ..game import Game
    from ..i18n import from_environment
    from ..lexicon import Lexicon, LexiconError
    from .app import PlayApp, SetupError, parse_players, seats_for
    from .lang import _, set_language

    set_language(lang.lower() if lang else from_environment())

    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history at the prompt, where available)
    try:
        lexicon = Lexicon.load(lexicon_name)
    except (LexiconError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        duplicate = _duplicate_app(rules_name, lexicon, players, seed, load_path)
    except (ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    if duplicate is not None:
        raise SystemExit(duplicate.run())
    players = players or "me,level3"
    try:
        if load_path is not None:
            from ..formats import gcg  # type: ignore[attr-defined]

            try:
                game = gcg.replay(gcg.load(load_path), lexicon=lexicon)
            except (ValueError, OSError) as exc:
                raise SetupError(
                    _("--load {path}: {error}").format(path=load_path, error=exc)
                ) from None
            seats = seats_for(game.players)
        else:
            seats = parse_players(players)
            game = Game(
                rules=preset(rules_name).for_alphabet(lexicon.alphabet),
                lexicon=lexicon,
                players=[s.name for s in seats],
                seed=seed,
            )
        if lexicon.alphabet.labels != game.alphabet.labels:
            raise SetupError(_alphabet_mismatch(lexicon, game.rules.name, game.alphabet.name))
        app = PlayApp(game, seats)
    except (SetupError, ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from None
    raise SystemExit(app.run())


def _duplicate_app(
    rules_name: str, lexicon: Any, players: str | None, seed: int | None, load_path: str | None
) -> Any:
    """The duplicate session the options ask for (a duplicate record to --load, or
    --rules duplicate), else None."""
    from ..duplicate import DuplicateGame
    from .app import SetupError
    from .duplicate import DuplicateApp, duplicate_players, replay_for
    from .lang import _

    if load_path is not None:
        try:
            game = replay_for(load_path, lexicon)
        except (ValueError, OSError) as exc:
            raise SetupError(
                _("--load {path}: {error}").format(path=load_path, error=exc)
            ) from None
        return None if game is None else DuplicateApp(game)
    rules = preset(rules_name)
    if rules.duplicate is None:
        return None
    rules = rules.for_alphabet(lexicon.alphabet)
    if lexicon.alphabet.labels != rules.tileset.alphabet.labels:
        raise SetupError(_alphabet_mismatch(lexicon, rules.name, rules.tileset.alphabet.name))
    names = duplicate_players(players or "me")
    return DuplicateApp(DuplicateGame(rules, lexicon, players=names, seed=seed))


def _alphabet_mismatch(lexicon: Any, rules_name: str, alphabet_name: str) -> str:
    from .lang import _

    return _(
        "the {lexicon} word list is in the {lexicon_alphabet} alphabet, but {rules} rules use "
        "{alphabet} tiles"
    ).format(
        lexicon=lexicon.name, lexicon_alphabet=lexicon.alphabet.name, rules=rules_name,
        alphabet=alphabet_name,
    )
