"""``tessera tournament``: a director's event in an SQLite file, from ``new`` to ``ratings``.

Every command opens the event file named on the command line (``new`` and ``import`` may make
it), does one thing and closes it. A change is checked by the model, then written and committed
before the command prints anything (:mod:`.store`). An impossible request (an unknown player, a
negative score, a round paired before the last is complete, a result for a pair that was not
paired, ...) is one line on stderr, exit status 2, and the file is left as it was: each such
error is a :class:`click.ClickException`, which ``tessera``'s top level prints as one line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ..cliargs import OutputDirectory, OutputFile, progress_bar, shown
from ..formats import gcg_zip, standings_csv, tsh
from ..render import tournament as tournament_html
from ..tournament.model import (
    MAX_RATED_GAMES,
    MAX_RATING,
    MAX_ROUNDS,
    Division,
    TournamentError,
)
from ..tournament.pairing import SYSTEMS, PairingError, PairingSettings, pair_round
from ..tournament.pairing.settings import MAX_MANUAL_PAIRS
from ..tournament.ratings import RatingInputError
from ..tournament.simulate import MAX_EVENTS, SIMULATED_SYSTEMS, SimulationConfig
from ..tournament.simulate import simulate as run_simulation
from . import tables
from .rating import RATING_SYSTEMS, rate_division
from .records import GameRecordError, attach, read_record
from .store import (
    MAX_SEED,
    EventStore,
    EventStoreError,
    StoredDivision,
    StoredEvent,
    check_division_name,
    check_pairing,
)

MAX_TSH_BYTES = tsh.MAX_FILE_CHARS * 4  # the most a .t file's characters can take in UTF-8

EventFile = click.Path(dir_okay=False, path_type=Path)
ExistingEventFile = click.Path(exists=True, dir_okay=False, path_type=Path)


@contextmanager
def _refusals() -> Iterator[None]:
    """Every refusal of the model, the store, the pairing systems, the file formats and the
    rating system as one line (exit status 2)."""
    try:
        yield
    except (TournamentError, EventStoreError, PairingError, tsh.TshError,
            RatingInputError, GameRecordError, gcg_zip.GcgZipError) as exc:
        raise click.ClickException(str(exc)) from None


def _echo(lines: list[str]) -> None:
    click.echo("\n".join(lines))


def _player_number(division: Division, text: str) -> int:
    """A player named on the command line by number or by exact name."""
    if text.isdigit():
        number = int(text)
        division.player(number)
        return number
    found = [p.number for p in division.players if p.name == " ".join(text.split())]
    if not found:
        raise TournamentError(f"division {division.name} has no player named {text[:100]!r}")
    if len(found) > 1:
        numbers = ", ".join(map(str, found))
        raise TournamentError(f"{len(found)} players are named {text!r} (numbers {numbers}): "
                              "name one by number")
    return found[0]


def _manual_pair(text: str) -> tuple[int, int | None]:
    """``3-7`` (3 goes first against 7) or ``5-0`` (a bye for 5)."""
    first, dash, second = text.partition("-")
    if not (dash and first.isdigit() and second.isdigit() and len(text) <= 20):
        raise TournamentError(f"--pair {text[:20]!r}: write two player numbers, as 3-7 (5-0 "
                              "for a bye)")
    return int(first), int(second) or None


def _score(text: str, who: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TournamentError(
            f"score {text[:20]!r} for {who[:100]} is not a whole number"
        ) from None


def _divisions(event: StoredEvent, name: str | None) -> list[StoredDivision]:
    return list(event.divisions.values()) if name is None else [event.division(name)]


division_option = click.option("--division", "division_name", required=True, metavar="NAME",
                               help="The division, by name.")


@click.group()
def tournament() -> None:
    """Run a tournament: divisions, players, pairings, results, standings, ratings."""


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=EventFile)
@click.option("--division", "division_names", multiple=True, required=True, metavar="NAME",
              help="A division (repeat for more).")
@click.option("--rounds", type=click.IntRange(1, MAX_ROUNDS), required=True,
              help="Rounds each division plays.")
@click.option("--pairing", type=click.Choice(sorted(SYSTEMS)), default="swiss",
              show_default=True, help="How each division is paired.")
@click.option("--name", "event_name", metavar="TEXT",
              help="The event's name (default: the file's).")
@click.option("--prizes", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Places that win a prize (for Gibsonization and contention pairing).")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
              help="Start of the pairing systems' random choices.")
def new(event_file: Path, division_names: tuple[str, ...], rounds: int, pairing: str,
        event_name: str | None, prizes: int, seed: int) -> None:
    """Make a new event file EVENT.db with its divisions."""
    with _refusals():
        divisions = [
            StoredDivision(Division(check_division_name(name), rounds, prizes=prizes), pairing,
                           seed)
            for name in division_names
        ]
        EventStore.create_file(event_file, event_name or event_file.stem, divisions).close()
    click.echo(f"{event_file}: {len(divisions)} division(s), {rounds} rounds, {pairing} pairing")


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@division_option
@click.argument("name")
@click.argument("rating", type=click.IntRange(0, MAX_RATING))
@click.option("--class", "player_class", metavar="X", help="The player's prize class.")
@click.option("--missed", type=click.Choice(["forfeit", "bye"]),
              help="A late entry's rounds already paired count as forfeit losses or byes "
                   "(required once a round is paired).")
@click.option("--games", "rated_games", type=click.IntRange(0, MAX_RATED_GAMES), metavar="N",
              help="Rated games the player had before the event (for ratings; default: "
                   "ratings' --career-games).")
def add(event_file: Path, division_name: str, name: str, rating: int, player_class: str | None,
        missed: str | None, rated_games: int | None) -> None:
    """Add player NAME rated RATING (0: unrated) to a division."""
    with _refusals(), EventStore.open_file(event_file) as store:
        player = store.change(division_name, lambda s: s.division.add_player(
            name, rating, player_class=player_class, missed=missed,  # type: ignore[arg-type]
            rated_games=rated_games))
    late, missed_rounds = "", player.joined_round - 1
    if missed_rounds:
        each = "a forfeit loss" if missed == "forfeit" else "a bye"
        late = f", round 1 counted as {each}" if missed_rounds == 1 else \
            f", rounds 1 to {missed_rounds} counted as {each} each"
    click.echo(f"{player.number} {player.name} ({player.rating}) joins division {division_name}"
               f" at round {player.joined_round}{late}")


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@division_option
@click.argument("player")
def withdraw(event_file: Path, division_name: str, player: str) -> None:
    """Withdraw PLAYER (by number or exact name): not paired from the next round on. A game
    already paired stays: enter its result, or a forfeit."""

    def leave(stored: StoredDivision) -> str:
        d = stored.division
        p = d.withdraw(_player_number(d, player))
        return f"{p.number} {p.name} withdraws from division {d.name}: not paired from round " \
            f"{p.withdrawn_from}"

    with _refusals(), EventStore.open_file(event_file) as store:
        line = store.change(division_name, leave)
    click.echo(line)


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@division_option
@click.option("--round", "round_number", type=click.IntRange(1, MAX_ROUNDS), required=True,
              help="The round the game was paired in.")
@click.option("--correct", "correcting", is_flag=True,
              help="Replace the game's entered result with the forfeit.")
@click.argument("winner")
@click.argument("loser")
def forfeit(event_file: Path, division_name: str, round_number: int, correcting: bool,
            winner: str, loser: str) -> None:
    """Record that LOSER forfeited the game paired against WINNER (players by number or exact
    name): a forfeit loss for LOSER and a forfeit win for WINNER, worth the division's forfeit
    spreads. A player with a bye has no game to forfeit; --correct replaces a result already
    entered (and `correct` replaces a forfeit with scores)."""

    def record(stored: StoredDivision) -> str:
        d = stored.division
        w, lost = _player_number(d, winner), _player_number(d, loser)
        d.record_forfeit(round_number, lost, w, correcting=correcting)
        return (f"round {round_number}: {d.player(lost).name} forfeits to "
                f"{d.player(w).name}")

    with _refusals(), EventStore.open_file(event_file) as store:
        line = store.change(division_name, record)
    click.echo(("corrected " if correcting else "") + line)


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@division_option
@click.option("--round", "round_number", type=click.IntRange(1, MAX_ROUNDS),
              help="The round to pair (default: the next); a round already paired is shown.")
@click.option("--pair", "manual_pairs", multiple=True, metavar="P1-P2",
              help="A division paired manually: one game, by player numbers, the first named "
                   "going first; P-0 is a bye. Repeat for every game.")
def pair(event_file: Path, division_name: str, round_number: int | None,
         manual_pairs: tuple[str, ...]) -> None:
    """Pair the next round by the division's pairing system and print the pairings."""

    def pair_next(stored: StoredDivision) -> list[str]:
        d = stored.division
        next_round = len(d.rounds) + 1
        if round_number is not None and round_number != next_round:
            raise TournamentError(f"round {round_number} is not the next round of division "
                                  f"{d.name} (next: {next_round})")
        if manual_pairs and stored.pairing != "manual":
            raise TournamentError(f"division {d.name} is paired by {stored.pairing}; --pair is "
                                  "for a division paired manually")
        history = d.history()
        if d.rounds_complete < len(d.rounds) or next_round > d.total_rounds:
            d.pair_round([])  # the model's refusal says why the round cannot be paired
        settings = PairingSettings(manual_pairings=tuple(map(_manual_pair, manual_pairs)))
        rng = random.Random(f"{stored.pairing_seed}:{next_round}")
        return tables.pairings(d, d.pair_round(pair_round(stored.pairing, history, settings, rng)))

    if len(manual_pairs) > MAX_MANUAL_PAIRS:
        raise click.BadParameter(f"at most {MAX_MANUAL_PAIRS} pairs", param_hint="--pair")
    with _refusals(), EventStore.open_file(event_file) as store:
        stored = store.load().division(division_name)
        if round_number is not None and round_number <= len(stored.division.rounds):
            if manual_pairs:
                raise TournamentError(f"round {round_number} is already paired")
            _echo(tables.pairings(stored.division, round_number))
            return
        lines = store.change(division_name, pair_next)
    _echo(lines)


def _result_command(correcting: bool) -> Callable[..., None]:
    def command(event_file: Path, division_name: str, round_number: int,
                player: str, score: str, opponent: str, opponent_score: str,
                gcg_file: Path | None) -> None:
        with _refusals():  # the record is read and replayed before the event is opened
            record = None if gcg_file is None else read_record(gcg_file)

        def enter(stored: StoredDivision) -> str:
            d = stored.division
            p, o = _player_number(d, player), _player_number(d, opponent)
            entry = d.correct_result if correcting else d.record_result
            game = entry(round_number, p, _score(score, player), o,
                         _score(opponent_score, opponent))
            assert game.scores is not None and game.second is not None
            key = (round_number, game.board)
            stored.records.pop(key, None)  # a corrected result keeps no record unless given
            attached = ""
            if record is not None:
                stored.records[key] = attach(record, d, round_number, game)
                attached = f", record {record.source} attached"
            return (f"round {round_number}: {d.player(game.first).name} {game.scores[0]} - "
                    f"{game.scores[1]} {d.player(game.second).name}{attached}")

        with _refusals(), EventStore.open_file(event_file) as store:
            line = store.change(division_name, enter)
        click.echo(("corrected " if correcting else "") + line)

    return command


def _result_options(command: Callable[..., None]) -> Callable[..., None]:
    for decorate in reversed([
        click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile),
        division_option,
        click.option("--round", "round_number", type=click.IntRange(1, MAX_ROUNDS),
                     required=True, help="The round the game was paired in."),
        click.argument("player", metavar="P1"),
        click.argument("score", metavar="SCORE1"),
        click.argument("opponent", metavar="P2"),
        click.argument("opponent_score", metavar="SCORE2"),
        click.option("--gcg", "gcg_file", metavar="FILE.gcg",
                     type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="The game's GCG record, kept with the result: it must replay to the "
                          "end with the result's final scores."),
    ]):
        command = decorate(command)
    return command


# scores are read as text, so that a negative one reaches the model's refusal (not click's
# "no such option -5")
_SCORE_SETTINGS = {"ignore_unknown_options": True}

tournament.command(
    "result", context_settings=_SCORE_SETTINGS,
    help="Enter a game's result: players P1 and P2 by number or exact name, and their scores.",
)(_result_options(_result_command(correcting=False)))

tournament.command(
    "correct", context_settings=_SCORE_SETTINGS,
    help="Correct a game's entered result (same arguments as result); all after it is "
         "recomputed. The game's GCG record is dropped unless --gcg gives one.",
)(_result_options(_result_command(correcting=True)))


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@click.option("--division", "division_name", metavar="NAME", help="One division (default: all).")
def standings(event_file: Path, division_name: str | None) -> None:
    """Print the standings: wins, then spread, then the division's tie-breaks."""
    with _refusals(), EventStore.open_file(event_file) as store:
        chosen = _divisions(store.load(), division_name)
    _echo([line for s in chosen for line in (*tables.standings(s.division), "")][:-1])


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@click.option("--division", "division_name", metavar="NAME", help="One division (default: all).")
def crosstable(event_file: Path, division_name: str | None) -> None:
    """Print the crosstable: each player's rounds (result, spread, opponent) in standings order."""
    with _refusals(), EventStore.open_file(event_file) as store:
        chosen = _divisions(store.load(), division_name)
    _echo([line for s in chosen for line in (*tables.crosstable(s.division), "")][:-1])


def _gcg_zip(chosen: list[StoredDivision]) -> tuple[bytes, int]:
    """The zip of the chosen divisions' game records and how many it holds (refused when no
    game has one)."""
    records = [(s.division, {k: r.gcg for k, r in s.kept_records().items()}) for s in chosen]
    count = sum(len(games) for _, games in records)
    if not count:
        names = ", ".join(s.division.name for s in chosen)
        raise TournamentError(f"no game of division{'s' * (len(chosen) > 1)} {names} has a "
                              "record: attach one with result --gcg")
    return gcg_zip.pack_divisions(records), count


@contextmanager
def _writing_to(path: Path) -> Iterator[None]:
    """A file system's refusal to write ``path`` (a full disk, no permission, a folder where
    a file should be) as one line naming the path, exit status 2."""
    try:
        yield
    except OSError as exc:
        raise click.ClickException(f"{path}: could not write it ({exc.strerror or exc})") from None


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@click.option("--division", "division_name", metavar="NAME", help="One division (default: all).")
@click.option("--tsh", "tsh_dir", type=OutputDirectory(), metavar="DIR",
              help="Write one TSH .t file a division (A.t for division A) into DIR.")
@click.option("--csv", "csv_dir", type=OutputDirectory(), metavar="DIR",
              help="Write each division's standings as CSV (A-standings.csv) into DIR.")
@click.option("--html", "html_dir", type=OutputDirectory(), metavar="DIR",
              help="Write each division's wall chart, score cards and the last paired round's "
                   "pairings as printable HTML into DIR.")
@click.option("--gcg-zip", "zip_file", type=OutputFile(), metavar="FILE.zip",
              help="Write every game's GCG record (attached with result --gcg) into one zip "
                   "(with more than one division, a folder for each).")
def export(event_file: Path, division_name: str | None, tsh_dir: str | None,
           csv_dir: str | None, html_dir: str | None, zip_file: Path | None) -> None:
    """Export the event's divisions to other programs' files and printable pages."""
    folders = [d for d in (tsh_dir, csv_dir, html_dir) if d is not None]
    if not folders and zip_file is None:
        raise click.UsageError("name a format to export: --tsh DIR, --csv DIR, --html DIR or "
                               "--gcg-zip FILE.zip")
    if zip_file is not None and zip_file.resolve() in {
        event_file.resolve(), *(Path(d).resolve() for d in folders)
    }:
        raise click.UsageError(f"--gcg-zip {zip_file} is the event file or another format's "
                               "folder")
    with _refusals(), EventStore.open_file(event_file) as store:
        chosen = _divisions(store.load(), division_name)
    archive = None
    if zip_file is not None:
        with _refusals():  # refused before any file is written
            archive = _gcg_zip(chosen)
    for stored in chosen:
        division = stored.division
        # the division's name is checked to be letters, digits, - and _ (store.DIVISION_NAME)
        name = check_division_name(division.name)
        files: dict[str, dict[str, str]] = {}
        with _refusals():
            if tsh_dir is not None:
                files.setdefault(tsh_dir, {})[f"{name}.t"] = tsh.dumps(tsh.from_division(division))
            if csv_dir is not None:
                files.setdefault(csv_dir, {})[f"{name}-standings.csv"] = standings_csv.dumps(
                    division.standings())
            if html_dir is not None:
                pages = {f"{name}-wall-chart.html": tournament_html.wall_chart(division),
                         f"{name}-score-cards.html": tournament_html.score_cards(division)}
                if division.rounds:
                    last = len(division.rounds)
                    pages[f"{name}-round-{last}-pairings.html"] = tournament_html.pairings_sheet(
                        division, last)
                files.setdefault(html_dir, {}).update(pages)
        for folder, contents in files.items():
            with _writing_to(Path(folder)):
                Path(folder).mkdir(exist_ok=True)
            for file_name, text in contents.items():
                target = Path(folder) / file_name
                with _writing_to(target):
                    target.write_text(text, encoding="utf-8")
                click.echo(f"{target}: division {division.name}, "
                           f"{len(division.players)} players")
    if zip_file is not None and archive is not None:
        with _writing_to(zip_file):
            zip_file.write_bytes(archive[0])
        click.echo(f"{zip_file}: {archive[1]} game record(s) of "
                   f"{', '.join(s.division.name for s in chosen)}")


@tournament.command("import")
@click.argument("event_file", metavar="EVENT.db", type=EventFile)
@click.argument("tsh_file", metavar="FILE.t",
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@division_option
@click.option("--rounds", type=click.IntRange(1, MAX_ROUNDS), required=True,
              help="Rounds the division plays (at least those in the file).")
@click.option("--pairing", type=click.Choice(sorted(SYSTEMS)), default="swiss",
              show_default=True, help="How the division's next rounds are paired.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
              help="Start of the pairing systems' random choices.")
def import_(event_file: Path, tsh_file: Path, division_name: str, rounds: int, pairing: str,
            seed: int) -> None:
    """Add a division read from a TSH .t file to EVENT.db (made if it does not exist)."""
    if tsh_file.stat().st_size > MAX_TSH_BYTES:
        raise click.ClickException(f"{tsh_file}: larger than {MAX_TSH_BYTES:,} bytes")
    try:
        text = tsh_file.read_text(encoding="utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{tsh_file}: not UTF-8 text ({exc.reason} at byte "
                                   f"{exc.start})") from None
    with _refusals():
        check_division_name(division_name)
        check_pairing(pairing, seed)
        try:
            division = tsh.to_division(tsh.loads(text), division_name, rounds)
        except tsh.TshError as exc:
            raise tsh.TshError(f"{tsh_file}: {exc}") from None
        stored = StoredDivision(division, pairing, seed)
        if event_file.exists():
            with EventStore.open_file(event_file) as store:
                store.add_division(stored)
        else:
            EventStore.create_file(event_file, event_file.stem, [stored]).close()
    click.echo(f"{event_file}: division {division_name} from {tsh_file}, "
               f"{len(division.players)} players, {len(division.rounds)} of {rounds} rounds")


@tournament.command()
@click.argument("event_file", metavar="EVENT.db", type=ExistingEventFile)
@click.option("--division", "division_name", metavar="NAME", help="One division (default: all).")
@click.option("--system", type=click.Choice(sorted(RATING_SYSTEMS)), default="naspa",
              show_default=True,
              help="The federation rating system: NASPA's Elo-style ratings (about 300 to "
                   "2300), or the ABSP's weighted rolling system (50 to about 200).")
@click.option("--career-games", type=click.IntRange(0, MAX_RATED_GAMES), default=0,
              show_default=True,
              help="Rated games before the event of each rated player whose count the event "
                   "does not record (add --games, a TSH file's lifeg); NASPA's multiplier is "
                   "higher below 50, the ABSP's window holds the last 150.")
def ratings(event_file: Path, division_name: str | None, system: str, career_games: int) -> None:
    """Print every player's new federation rating after the event (rating 0: unrated)."""
    with _refusals(), EventStore.open_file(event_file) as store:
        chosen = _divisions(store.load(), division_name)
        lines: list[str] = []
        for s in chosen:
            changes = rate_division(s.division, career_games, system)
            lines += [*tables.ratings(s.division, changes, RATING_SYSTEMS[system]), ""]
    _echo(lines[:-1])


@tournament.command()
@click.option("--players", type=click.IntRange(2, 2_000), default=40, show_default=True,
              help="Players in each simulated event.")
@click.option("--rounds", type=click.IntRange(1, MAX_ROUNDS), default=12, show_default=True,
              help="Rounds in each simulated event.")
@click.option("--pairing", type=click.Choice(sorted(SIMULATED_SYSTEMS)), default="swiss",
              show_default=True, help="The pairing system (fontes: then swiss).")
@click.option("--events", type=click.IntRange(1, MAX_EVENTS), default=1000, show_default=True,
              help="How many events to play.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
              help="The run's seed: the same seed plays the same events.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def simulate(players: int, rounds: int, pairing: str, events: int, seed: int,
             quiet: bool) -> None:
    """Play random events (results from a rating-based win model) and report repeats, byes,
    Gibson cases, the firsts balance and how often the highest-rated player wins: how a
    director chooses a pairing system."""
    with _refusals():
        config = SimulationConfig(pairing, players, rounds)
    progress, advance = progress_bar(events, "events", quiet)
    with _refusals():
        report = shown(progress, lambda: run_simulation(
            config, events, seed, progress=lambda done, total: advance(1)))
    _echo(report.lines())
