"""Renderers: plain text for terminals (:mod:`tessera.render.text`), SVG pictures
(:mod:`tessera.render.svg`) and HTML tables for notebooks (:mod:`tessera.render.html`).

Importing this package imports the three, and each registers with :mod:`tessera.display` what
it draws for the rules core (``str(board)``, ``str(game)``, a notebook's board and move list);
``import tessera`` imports it, so they are always registered.
"""

from . import html, svg, text

__all__ = ["html", "svg", "text"]
