"""``tessera play``: start a game at the terminal."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from ..cliargs import LexiconSpec
from ..i18n import LANGUAGES, from_environment
from ..rules import PRESETS, preset
from .lang import N_, _, set_language


class TranslatedCommand(click.Command):
    """A command whose ``--help`` speaks the game's language: its help and its options' are
    catalogue messages (marked with ``N_``), translated as the help is drawn, in the language
    of ``--lang`` when it comes before ``--help``, else of the environment. (Click's own
    words, such as "Usage:" and "Options:", stay English.)"""

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        lang = ctx.params.get("lang")
        set_language(lang.lower() if lang else from_environment())
        options = [p for p in self.params if isinstance(p, click.Option)]
        saved = [(p.help, p.show_default) for p in options]
        own = self.help
        try:
            self.help = _(own) if own else own
            for p in options:
                p.help = _(p.help) if p.help else p.help
                if isinstance(p.show_default, str):
                    p.show_default = _(p.show_default)
            super().format_help(ctx, formatter)
        finally:
            self.help = own
            for p, (help_text, show_default) in zip(options, saved, strict=True):
                p.help, p.show_default = help_text, show_default


@click.command(
    cls=TranslatedCommand,
    help=N_(
        "Play a game at the terminal against people (hot seat) or computer players, or a "
        "duplicate game (--rules duplicate) alone or with people at one screen."
    ),
)
@click.option(
    "--rules",
    "rules_name",
    default="casual",
    show_default=True,
    type=click.Choice(sorted(PRESETS), case_sensitive=False),
    help=N_("Rules preset (casual: words are checked as they are played; undo allowed)."),
)
@click.option(
    "--lexicon",
    "lexicon_name",
    type=LexiconSpec(),
    default="enable",
    show_default=True,
    help=N_("Word list: a shipped name, an installed name, or a .txt/.kwg file."),
)
@click.option(
    "--players",
    default=None,
    show_default=N_("me,level3 (duplicate: me)"),
    help=N_(
        "2-4 comma-separated names; level1..level5, best or static make computer players. "
        "Duplicate: any number of people and computers (one person alone plays against the "
        "master move; computers alone play the game to its end)."
    ),
)
@click.option(
    "--seed", type=int, default=None, help=N_("Seed for the bag: the same seed, the same game.")
)
@click.option(
    "--load",
    "load_path",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help=N_("Continue a game saved as GCG (its players and rules replace the options above)."),
)
@click.option(
    "--lang",
    type=click.Choice(list(LANGUAGES), case_sensitive=False),
    default=None,
    is_eager=True,  # before --help, which then speaks it
    show_default=N_("from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en"),
    help=N_("The game's language: en (English), ja (Japanese) or hu (Hungarian)."),
)
def play(
    rules_name: str,
    lexicon_name: str,
    players: str | None,
    seed: int | None,
    load_path: str | None,
    lang: str | None,
) -> None:
    """``tessera play`` (its help is the ``help`` given to the command, a catalogue
    message)."""
    from ..game import Game
    from ..lexicon import Lexicon, LexiconError
    from .app import PlayApp, SetupError, parse_players, seats_for

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
    return _(
        "the {lexicon} word list is in the {lexicon_alphabet} alphabet, but {rules} rules use "
        "{alphabet} tiles"
    ).format(
        lexicon=lexicon.name, lexicon_alphabet=lexicon.alphabet.name, rules=rules_name,
        alphabet=alphabet_name,
    )
