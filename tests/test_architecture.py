"""The house in order (docs/architecture.md): the layers hold as import-linter contracts, no
module imports itself back through others, and no module grows past 800 lines."""

from __future__ import annotations

import graphlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "tessera"
CONFIG = REPO / "pyproject.toml"
MAX_LINES = 800
CONTRACTS = (
    "The rules core knows no outer layer",
    "The engine imports no app",
    "The libraries import no app",
    "The apps do not import each other",
    "The tournament engine stays pure",
)
# The one import the contracts ignore (tessera._compiled's docstring says why).
COMPILED_CORE = ("tessera._compiled", "tessera")

# import-linter finds the package through the import system; the editable install's finder
# would always answer with this checkout, so the runner drops it and puts the tree to check
# first on the path.
RUNNER = """
import sys
sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__name__.startswith("ScikitBuild")]
sys.path.insert(0, sys.argv[1])
from importlinter.cli import lint_imports
sys.exit(lint_imports(config_filename=sys.argv[2], no_cache=True, no_logo=True))
"""


def lint_imports(source_root: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUNNER, str(source_root), str(CONFIG)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_layer_contracts_hold(tmp_path: Path) -> None:
    run = lint_imports(REPO / "src", tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    for name in CONTRACTS:
        assert f"{name} KEPT" in run.stdout, run.stdout


# (where, the import planted, the contracts it breaks, the chain import-linter must name); a
# library importing an app reaches it from everything that imports the library (the engine
# uses the formats), and joins the apps through it, so it breaks their independence too
PLANTS = [
    ("board.py", "import tessera.render.svg", {0}, "tessera.board -> tessera.render.svg"),
    ("game", "from tessera.engine import get_player", {0}, "-> tessera.engine"),
    ("rules.py", "import tessera.formats.cgp", {0}, "tessera.rules -> tessera.formats.cgp"),
    ("engine/inference.py", "import tessera.server.app", {1, 3}, "inference -> tessera.server.app"),
    ("formats/cgp.py", "import tessera.tui.app", {1, 2, 3}, "formats.cgp -> tessera.tui.app"),
    ("tui/board.py", "import tessera.server.views", {3}, "tui.board -> tessera.server.views"),
    ("tournament/model.py", "import tessera.events.store", {4}, "model -> tessera.events.store"),
]


@pytest.mark.parametrize(("module", "planted", "broken", "chain"), PLANTS)
def test_a_planted_forbidden_import_breaks_its_contract(
    tmp_path: Path, module: str, planted: str, broken: set[int], chain: str
) -> None:
    copy = tmp_path / "src" / "tessera"
    shutil.copytree(
        PACKAGE,
        copy,
        ignore=lambda folder, names: [
            n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()
        ],
    )
    target = copy / module
    if target.is_dir():  # a package: plant in its __init__
        target = target / "__init__.py"
    target.write_text(target.read_text(encoding="utf-8") + f"\n{planted}  # planted\n", "utf-8")
    run = lint_imports(tmp_path / "src", tmp_path)
    assert run.returncode != 0, run.stdout
    for i, name in enumerate(CONTRACTS):
        assert f"{name} {'BROKEN' if i in broken else 'KEPT'}" in run.stdout, run.stdout
    assert chain in run.stdout, run.stdout


def import_graph() -> dict[str, set[str]]:
    """Every module of tessera and the modules of tessera it imports (lazy imports inside
    functions and type-checking imports included), less the compiled core's one import."""
    graph = grimp.build_graph("tessera")
    importer, imported = COMPILED_CORE
    details = graph.get_import_details(importer=importer, imported=imported)
    assert details and all("_core" in d["line_contents"] for d in details), details
    graph.remove_import(importer=importer, imported=imported)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def cycle_in(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(error.args[1])
    return None


def test_no_module_imports_itself_back() -> None:
    graph = import_graph()
    assert len(graph) > 100  # the whole package was read
    assert cycle_in(graph) is None, " -> ".join(cycle_in(graph) or [])


def test_the_cycle_check_sees_a_cycle_through_a_lazy_import() -> None:
    graph = import_graph()
    assert "tessera.board" in graph["tessera.scoring"]
    graph["tessera.board"].add("tessera.scoring")  # as a lazy import in a Board method would
    cycle = cycle_in(graph)
    assert cycle is not None and {"tessera.board", "tessera.scoring"} <= set(cycle)


# an ES module's static imports: `import ... from "./x.js"` (also over several lines) and
# `export ... from "./x.js"`
JS_IMPORT = re.compile(r'^(?:import|export)\b[^;]*?\bfrom\s*"\./([\w.-]+\.js)"', re.M | re.S)


def js_import_graph() -> dict[str, set[str]]:
    """Each of the page's ES modules and the modules of the page it imports."""
    folder = PACKAGE / "server" / "static" / "js"
    return {p.name: set(JS_IMPORT.findall(p.read_text("utf-8"))) for p in folder.glob("*.js")}


def test_no_module_of_the_page_imports_itself_back() -> None:
    graph = js_import_graph()
    assert "./gamestate.js" not in str(graph) and "gamestate.js" in graph["game.js"]
    assert sum(map(len, graph.values())) > 50  # the imports were read
    assert all(imported in graph for imports in graph.values() for imported in imports)
    assert cycle_in(graph) is None, " -> ".join(cycle_in(graph) or [])


def oversized(paths: list[Path], root: Path = REPO) -> list[str]:
    """Each module over the limit, as "path: N lines"."""
    sizes = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in paths}
    return [f"{p.relative_to(root)}: {n} lines" for p, n in sorted(sizes.items()) if n > MAX_LINES]


def test_no_python_or_javascript_module_is_over_800_lines() -> None:
    modules = [
        *PACKAGE.rglob("*.py"),
        *(PACKAGE / "server" / "static").rglob("*.js"),
        *(REPO / "tests").rglob("*.py"),
        *(REPO / "benchmarks").rglob("*.py"),
    ]
    assert len(modules) > 200
    assert oversized(modules) == []


def test_the_size_check_names_an_oversized_module(tmp_path: Path) -> None:
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    small = tmp_path / "small.py"
    small.write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert oversized([big, small], root=tmp_path) == ["big.py: 801 lines"]


# The top-level entries of the package the pages need not name: the package's own files, the
# shipped data and catalogues, the typing marker and stubs, and the catalogue extractor that
# `make i18n` runs. The README's short list also leaves out one subcommand's module.
UNNAMED = {"__init__.py", "__main__.py", "__pycache__", "py.typed", "_core.pyi", "data", "locale"}
UNNAMED |= {"i18n_extract.py"}
NOT_IN_README = {"movegen_cli"}


def top_level_names() -> set[str]:
    """Each module of the package's top level by name, each folder as ``name/``."""
    return {
        f"{entry.name}/" if entry.is_dir() else entry.name.removesuffix(".py")
        for entry in PACKAGE.iterdir()
        if entry.name not in UNNAMED and not entry.name.endswith(".so")
    }


def layout_section(text: str) -> str:
    start = text.index("## Layout\n")
    return text[start : text.index("\n## ", start + 1)]


def test_the_architecture_page_and_the_readme_name_every_part_of_the_package() -> None:
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    readme = layout_section((REPO / "README.md").read_text(encoding="utf-8"))
    names = top_level_names()
    assert {"game/", "engine/", "server/", "formats/", "_compiled", "board"} <= names
    assert [n for n in sorted(names) if f"`{n}`" not in page] == []
    assert [n for n in sorted(names - NOT_IN_README) if f"`{n}`" not in readme] == []
    assert "docs/architecture.md" in readme
