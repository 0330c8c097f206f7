"""``tessera serve``: the web app on a local port."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--database",
    default=None,
    help="Where games are kept: a SQLAlchemy URL (sqlite:///FILE or postgresql://…); "
    "default: games.db in $TESSERA_DATA_DIR or ~/.local/share/tessera.",
)
@click.option(
    "--bot-delay",
    default=0.4,
    show_default=True,
    type=float,
    help="Seconds the computer waits before moving (so a person sees each move land).",
)
def serve(host: str, port: int, database: str | None, bot_delay: float) -> None:
    """Play in the browser: serve the web app (open http://HOST:PORT)."""
    import uvicorn

    from .app import create_app
    from .storage import default_database

    database = database or default_database()

    from sqlalchemy.exc import ArgumentError, OperationalError

    try:
        app = create_app(database, bot_delay_s=bot_delay)
    except (ArgumentError, OperationalError, ImportError) as exc:
        raise click.ClickException(f"cannot open the database {database!r}: {exc}") from None
    click.echo(f"Tessera is at http://{host}:{port}/  (games in {database})")
    # no access log: requests carry nothing secret in URLs, but keep logs quiet and small
    uvicorn.run(app, host=host, port=port, access_log=False, log_level="warning")
