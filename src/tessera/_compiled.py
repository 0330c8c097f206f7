"""The compiled core (the C++ extension ``tessera._core``), imported in this one place.

The import-graph tools the layer contracts use (grimp, import-linter) see only Python source,
so they read ``from tessera import _core`` as importing the package ``tessera`` itself, whose
``__init__`` imports every layer: every module that took the core that way would seem to import
the engine, the formats and the renderers. Modules take the core from here instead, and the
contracts ignore this one import (``[tool.importlinter]`` in pyproject.toml).
"""

try:
    from tessera import _core
except ImportError:  # pragma: no cover - every install builds the core
    _core = None  # type: ignore[assignment]

__all__ = ["_core"]
