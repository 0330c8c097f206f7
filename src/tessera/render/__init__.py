"""Board renderers: plain text for terminals (:mod:`tessera.render.text`) and SVG
(:mod:`tessera.render.svg`). Import the one you need; this package imports neither."""
