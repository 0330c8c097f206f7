"""``tessera serve``: the web app on a local port."""

from __future__ import annotations

import resource
import socket

import click

from ..cliargs import FloatRange, LexiconSpec
from .config import LOCAL_HOSTS

WS_MAX_FRAME = 64 * 1024  # uvicorn refuses larger WebSocket frames at the protocol level
MAX_OPEN_FILES = 65_536  # connections the process may hold, if the system lets it


def raise_open_file_limit(wanted: int = MAX_OPEN_FILES) -> int:
    """Lift this process's limit on open files (often 1,024: a thousand connections) towards
    the hard limit, and return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft
        return target
    return soft


def offered_lexicons(chosen: tuple[str, ...]) -> tuple[str, ...]:
    """The word lists clients may name: those chosen, else the shipped default and every
    list installed in the lexicon folder (by name; a client never names a path)."""
    if chosen:
        return tuple(dict.fromkeys(chosen))
    from tessera.lexicon.lexicon import available

    return tuple(dict.fromkeys(["enable", *(a.name for a in available())]))


def allowed_hosts(host: str, extra: tuple[str, ...]) -> tuple[str, ...]:
    """Host names the server answers to: loopback names, the address it listens on (unless
    it is a wildcard) and those given with ``--allowed-host``."""
    names = [*LOCAL_HOSTS, *extra]
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    return tuple(dict.fromkeys(n.lower() for n in names))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or a clear error before anything claims the server is up."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.ClickException(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} "
            "(is another server using the port? choose one with --port)"
        ) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@click.option(
    "--database",
    default=None,
    help="Where games are kept: a SQLAlchemy URL (sqlite:///FILE or postgresql://…); "
    "default: games.db in $TESSERA_DATA_DIR or ~/.local/share/tessera.",
)
@click.option(
    "--lexicon",
    "lexicons",
    type=LexiconSpec(),
    multiple=True,
    help="A word list players may choose, by name (repeat; the first is the default). "
    "Default: enable and every list installed with `tessera lexicon install`.",
)
@click.option(
    "--allowed-host",
    "hosts",
    multiple=True,
    help="A host name the server answers to besides loopback (repeat), e.g. play.example.com.",
)
@click.option(
    "--allowed-origin",
    "origins",
    multiple=True,
    help="Another origin allowed to send moves (repeat), e.g. https://club.example.org.",
)
@click.option(
    "--trusted-proxy",
    "proxies",
    multiple=True,
    help="Address of a reverse proxy whose X-Forwarded-For/-Proto headers to believe "
    "(repeat; default: 127.0.0.1 only). Needed for per-client limits and Secure cookies "
    "behind a proxy on another machine.",
)
@click.option(
    "--games-per-minute",
    default=30,
    show_default=True,
    type=click.IntRange(1),
    help="New games one client address may start per minute.",
)
@click.option(
    "--moves-per-minute",
    default=120,
    show_default=True,
    type=click.IntRange(1),
    help="Moves one player may send per minute.",
)
@click.option(
    "--ws-per-client",
    default=64,
    show_default=True,
    type=click.IntRange(1),
    help="Open WebSockets allowed per client address.",
)
@click.option(
    "--connections-per-client",
    default=64,
    show_default=True,
    type=click.IntRange(1),
    help="Open HTTP connections allowed per client address (trusted proxies are not capped).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=FloatRange(0.1, 300),
    help="Seconds a client has to send a request's headers before the connection is closed.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this machine (more than one needs a PostgreSQL --database).",
)
@click.option(
    "--bot-delay",
    default=0.4,
    show_default=True,
    type=FloatRange(0, 10),
    help="Seconds the computer waits before moving (so a person sees each move land).",
)
@click.option(
    "--think",
    default=0.5,
    show_default=True,
    type=FloatRange(0.01, 30),
    help="Seconds the strongest computer searches a move or a hint, at most (one core each).",
)
@click.option(
    "--analysis-workers",
    default=None,
    type=click.IntRange(1, 64),
    help="Processes for reviews, their simulations and the analysis board, at a lower "
    "priority than moves [default: half the cores].",
)
@click.option(
    "--charge-downtime",
    is_flag=True,
    help="Charge the time no server process was running to the player on move "
    "(by default it is not charged).",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    lexicons: tuple[str, ...],
    hosts: tuple[str, ...],
    origins: tuple[str, ...],
    proxies: tuple[str, ...],
    games_per_minute: int,
    moves_per_minute: int,
    ws_per_client: int,
    connections_per_client: int,
    header_timeout: float,
    workers: int,
    bot_delay: float,
    think: float,
    analysis_workers: int | None,
    charge_downtime: bool,
) -> None:
    """Play in the browser: serve the web app (open http://HOST:PORT)."""
    import uvicorn
    from sqlalchemy.exc import ArgumentError, OperationalError

    from .app import create_app
    from .config import ServerConfig
    from .connections import guarded_protocol
    from .storage import default_database

    database = database or default_database()
    config = ServerConfig(
        lexicons=offered_lexicons(lexicons),
        allowed_hosts=allowed_hosts(host, hosts),
        allowed_origins=origins,
        bot_delay_s=bot_delay,
        think_s=think,
        games_per_minute=games_per_minute,
        moves_per_minute=moves_per_minute,
        ws_per_client=ws_per_client,
        charge_downtime=charge_downtime,
        **({"analysis_workers": analysis_workers} if analysis_workers else {}),
        tune_collector=True,
    )
    if workers > 1 and not database.startswith(("postgresql", "postgres")):
        raise click.ClickException(
            "several processes share games through PostgreSQL: give --database postgresql://…"
        )
    sock = bind(host, port)  # before anything is opened or said: a busy port fails first
    try:
        app = create_app(database, config=config)
    except (ArgumentError, OperationalError, ImportError) as exc:
        sock.close()
        raise click.ClickException(f"cannot open the database {database!r}: {exc}") from None
    click.echo(
        f"Tessera is at http://{host}:{port}/  (games in {database}"
        + (f", {workers} processes)" if workers > 1 else ")")
    )
    trusted = proxies or ("127.0.0.1",)
    raise_open_file_limit()
    # no access log: requests carry nothing secret in URLs, but keep logs quiet and small
    settings = {
        "access_log": False,
        "log_level": "warning",
        "ws_max_size": WS_MAX_FRAME,
        "timeout_keep_alive": 30,
        "forwarded_allow_ips": ",".join(trusted),
        # slow headers and connections per address (uvicorn has neither): server/connections.py
        "http": guarded_protocol(
            header_timeout_s=header_timeout,
            per_client=connections_per_client,
            trusted_proxies=trusted,
        ),
    }
    if workers == 1:
        uvicorn.Server(uvicorn.Config(app, **settings)).run(sockets=[sock])
        return
    import os

    from uvicorn.supervisors import Multiprocess

    from .app import SETTINGS_ENV, settings_json

    os.environ[SETTINGS_ENV] = settings_json(database, config)
    factory = "tessera.server.app:app_from_environment"
    multi = uvicorn.Config(factory, factory=True, workers=workers, **settings)  # type: ignore[arg-type]
    Multiprocess(multi, sockets=[sock]).run()
