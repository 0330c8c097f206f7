"""Griffe extension: Tessera's docstrings are written in a light reStructuredText (Sphinx
roles, ``>>>`` examples, ``::`` literal blocks, simple tables); mkdocstrings renders Markdown.
This turns the few reST constructs the code uses into their Markdown equivalents before
rendering, so the docstrings stay as they are (pydoc, ``help()`` and doctest read them).

- ``:class:`~tessera.game.Game```, ``:func:`loads``` … become links to the API pages when the
  target is documented there, and inline code otherwise (never a broken link);
- a run of ``>>>`` lines (with its output) becomes a ``pycon`` code block, without its
  ``# doctest:`` directives;
- a paragraph ending in ``::`` introduces a literal block: the indented lines after it become
  a code block;
- a simple table (``====  ====`` rules) becomes a Markdown table.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|data|mod|attr|exc|obj|const):`(~?)([^`]+)`")
DIRECTIVE = re.compile(r"\s*#\s*doctest:.*$")
TABLE_RULE = re.compile(r"^=+(?:\s+=+)+\s*$")


def _canonical(obj: griffe.Object, path: str) -> str:
    """Where ``path`` is defined: ``tessera.lexicon.Lexicon`` is
    ``tessera.lexicon.lexicon.Lexicon``, the identifier its API page registers."""
    root = obj.package
    if not path.startswith(root.path + "."):
        return path
    try:
        found = root[path[len(root.path) + 1 :]]
        return found.final_target.path if found.is_alias else found.path
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return path


def _target(obj: griffe.Object, name: str) -> str:
    """The full path ``name`` stands for, seen from ``obj`` (as written when unknown)."""
    name = name.rstrip("()")
    if name.startswith(obj.package.path + "."):
        return _canonical(obj, name)
    scope: griffe.Object | None = obj
    while scope is not None:
        try:
            return _canonical(obj, scope.resolve(name))
        except (griffe.NameResolutionError, ValueError, AttributeError):
            scope = scope.parent
    return name


def _roles(obj: griffe.Object, text: str) -> str:
    def link(match: re.Match[str]) -> str:
        short, name = match.group(1) == "~", match.group(2).strip()
        shown = name.rstrip("()").rsplit(".", 1)[-1] if short else name
        if name.endswith("()") and not shown.endswith("()"):
            shown += "()"
        return (
            f'<autoref identifier="{_target(obj, name)}" optional>'
            f"<code>{shown}</code></autoref>"
        )

    return ROLE.sub(link, text)


def _fence(lines: list[str], lang: str) -> list[str]:
    return [f"```{lang}", *lines, "```"]


def _table(block: list[str]) -> list[str]:
    """A reST simple table (rule, header, rule, rows, rule) as a Markdown table. A row whose
    first cell is empty continues the row above."""
    starts = [m.start() for m in re.finditer(r"=+", block[0])]
    rows: list[list[str]] = []
    header: list[str] | None = None
    for line in block[1:]:
        if TABLE_RULE.match(line.strip()):
            if header is None:
                header, rows = rows[0] if rows else [""] * len(starts), []
            continue
        ends = [*starts[1:], len(line)]
        cells = [line[a:b].strip() for a, b in zip(starts, ends, strict=True)]
        if rows and not cells[0]:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return [row(header or []), row(["---"] * len(starts)), *map(row, rows)]


def _blocks(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = len(line) - len(line.lstrip())
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(DIRECTIVE.sub("", lines[i][indent:]))
                i += 1
            out.extend(" " * indent + b for b in _fence(block, "pycon"))
            continue
        if TABLE_RULE.match(line.strip()):
            indent = len(line) - len(line.lstrip())
            block, rules = [], 0
            while i < len(lines) and rules < 3:
                rules += bool(TABLE_RULE.match(lines[i].strip()))
                block.append(lines[i][indent:])
                i += 1
            out.extend(["", *(" " * indent + b for b in _table(block)), ""])
            continue
        if line.rstrip().endswith("::"):
            stripped = line.rstrip()[:-2].rstrip()
            out.append(stripped + ":" if stripped else "")
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            base = len(line) - len(line.lstrip())
            block = []
            while i < len(lines) and (
                not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > base
            ):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            margin = min(len(b) - len(b.lstrip()) for b in block if b.strip()) if block else 0
            out.append("")
            out.extend(_fence([b[margin:] for b in block], "text"))
            out.append("")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Rewrite each docstring's reST constructs as Markdown (see the module docstring)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None:
            obj.docstring.value = _roles(obj, _blocks(obj.docstring.value))
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, seen)  # type: ignore[arg-type]
