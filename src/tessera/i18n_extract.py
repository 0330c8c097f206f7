"""Extracting the interface's messages into the catalogues (``make i18n``, and the catalogue
test, which extracts afresh and compares with what is shipped).

Each domain names the source files its messages come from, how each kind of file is read
(Babel's ``python`` and ``javascript`` extractors; :func:`extract_html` for the page's static
text) and the call names that mark a message:

- Python (terminal game): ``_("…")``, ``ngettext("…", "…", n)``, ``pgettext("ctx", "…")``,
  and ``N_("…")``, which marks a message translated later (a command-line option's help);
- JavaScript (web app): ``t("…")``, ``tn("…", "…", n)``;
- HTML: every element with a ``data-i18n`` attribute contributes its text content (the
  attribute's value, when not empty, is the message instead; markup inside it stays in the
  message), and ``data-i18n-attr="title aria-label placeholder"`` contributes those
  attributes' values.
"""

from __future__ import annotations

import html
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from tessera.i18n import LANGUAGES, SOURCE_LANGUAGE

PACKAGE = Path(__file__).resolve().parent
LOCALE = PACKAGE / "locale"


@dataclass(frozen=True)
class Domain:
    name: str
    root: Path  # where the method map's patterns are matched
    method_map: tuple[tuple[str, str], ...]
    keywords: dict[str, Any]


DOMAINS: dict[str, Domain] = {
    "web": Domain(
        "web",
        PACKAGE / "server" / "static",
        (("js/**.js", "javascript"), ("**.html", "tessera.i18n_extract:extract_html")),
        {"t": None, "tn": (1, 2)},
    ),
    "tui": Domain(
        "tui",
        PACKAGE / "tui",
        (("**.py", "python"),),
        {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)},
    ),
}


class _HtmlMessages(HTMLParser):
    """Collects ``data-i18n`` texts and ``data-i18n-attr`` attribute values with their lines.

    An element with markup inside (a link, ``<kbd>``) is one message with its markup, written
    as the browser's ``innerHTML`` writes it, whitespace runs made one space: the page keys it
    the same way and puts the translation back as HTML (js/i18n.js)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[_Open] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attr") or "").split():
            if a.get(name):
                self.found.append((line, str(a[name])))
        for o in self._open:
            o.parts.append(_start_tag(tag, attrs))
            o.markup = True
        if tag in _VOID:
            return
        for o in self._open:
            o.depth += 1
        if "data-i18n" in a:
            self._open.append(_Open(tag, line, a["data-i18n"] or None))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        for o in self._open:
            o.parts.append(html.escape(data, quote=False))

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            return
        if self._open and self._open[-1].depth == 0 and self._open[-1].tag == tag:
            o = self._open.pop()
            message = o.explicit or " ".join("".join(o.parts).split())
            if not o.markup:
                message = html.unescape(message)
            if message:
                self.found.append((o.line, message))
        for o in self._open:
            o.depth -= 1
            o.parts.append(f"</{tag}>")


@dataclass
class _Open:
    """An open ``data-i18n`` element: its text and markup so far, and how deep inside it the
    parser is."""

    tag: str
    line: int
    explicit: str | None
    parts: list[str] = field(default_factory=list)
    depth: int = 0
    markup: bool = False


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}


def _start_tag(tag: str, attrs: list[tuple[str, str | None]]) -> str:
    written = "".join(f' {k}="{html.escape(v or "", quote=True)}"' for k, v in attrs)
    return f"<{tag}{written}>"


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method for the static page (see the module docstring)."""
    parser = _HtmlMessages()
    parser.feed(fileobj.read().decode("utf-8"))
    parser.close()
    for line, message in parser.found:
        yield line, None, message, []


def extract(domain: str) -> Catalog:
    """The domain's template as the sources say today."""
    d = DOMAINS[domain]
    template = _new_catalog(domain, None)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(d.root), method_map=list(d.method_map), keywords=d.keywords,
        comment_tags=("i18n:",), strip_comment_tags=True,
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments,
                     context=context)
    return template


def _new_catalog(domain: str, lang: str | None) -> Catalog:
    # fixed dates: re-extracting changes a catalogue only where its messages change
    return Catalog(
        locale=lang, domain=domain, project="Tessera", version="", fuzzy=False,
        copyright_holder="the Tessera developers", msgid_bugs_address="",
        last_translator="the Tessera developers", language_team="",
        creation_date=_EPOCH, revision_date=_EPOCH,
    )


_EPOCH = datetime(2026, 12, 2, tzinfo=UTC)


def write(domain: str) -> None:
    """Writes ``DOMAIN.pot`` and merges it into each language's ``.po`` (new messages
    untranslated, gone ones dropped)."""
    template = extract(domain)
    with (LOCALE / f"{domain}.pot").open("wb") as fh:
        write_po(fh, template, width=100, omit_header=False, sort_output=True)
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        path = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
        if path.exists():
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=lang, domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = _new_catalog(domain, lang)
        catalog.update(template, no_fuzzy_matching=True)
        with path.open("wb") as fh:
            write_po(fh, catalog, width=100, ignore_obsolete=True, sort_output=True)


def main(argv: list[str] | None = None) -> int:
    domains = (argv if argv is not None else sys.argv[1:]) or list(DOMAINS)
    for domain in domains:
        write(domain)
        print(f"{domain}: {len(extract(domain))} messages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
