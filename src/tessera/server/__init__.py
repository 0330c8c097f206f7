"""The web app (``tessera serve``): Starlette over HTTP and WebSockets, games stored as
append-only logs through SQLAlchemy, and a page of plain HTML/CSS/JS modules."""
