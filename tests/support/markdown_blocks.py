"""The Python examples of a Markdown page, and running a docs/ page's examples as written
(the README's blocks each run alone, as scripts: tests/test_readme.py).

A page's ```python (or ```pycon) blocks run in order in one namespace, as if typed into one
prompt: a block of ``>>>`` lines is a doctest (what it shows must be what Python prints), any
other block runs as a script. A block that cannot run in seconds (a Ray cluster, hours of
self-play, a server that never returns) is skipped only when the line right before its fence
says so and why: ``<!-- not run: needs a Ray cluster -->`` (an HTML comment, so the rendered
page does not show it).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(
    r"^(?:<!-- not run: (?P<why>[^\n]*?) -->\n)?```(?:python|pycon)\n(?P<code>.*?)^```",
    re.S | re.M,
)


@dataclass(frozen=True)
class Block:
    code: str
    skip_reason: str | None  # why the block is shown but not run


def blocks(path: Path) -> list[Block]:
    """Every Python block of the page, in order, with the reason it is not run, if any."""
    text = path.read_text(encoding="utf-8")
    return [Block(m["code"], m["why"]) for m in FENCE.finditer(text)]


def python_blocks(path: Path) -> list[str]:
    """The blocks that run."""
    return [b.code for b in blocks(path) if b.skip_reason is None]


def run_blocks(
    blocks: list[str], name: str, filename: str = ""
) -> tuple[doctest.TestResults, str]:
    """Run the blocks in one namespace; the doctest results and the scripts' output."""
    namespace: dict[str, object] = {"__name__": name.lower().replace(" ", "_")}
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    parser = doctest.DocTestParser()
    printed = io.StringIO()
    for i, block in enumerate(blocks):
        label = f"{name} block {i + 1}"
        if block.lstrip().startswith(">>>"):
            test = parser.get_doctest(block, namespace, label, filename, 0)
            runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # a doctest runs in a copy of the namespace
        else:
            with contextlib.redirect_stdout(printed):
                exec(compile(block, label, "exec"), namespace)
    return runner.summarize(verbose=False), printed.getvalue()
