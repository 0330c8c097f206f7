"""Interface languages: the web app's and the terminal game's words, in gettext catalogues.

Each application has its own domain (``web``, ``tui``): a template ``locale/DOMAIN.pot``
extracted from the sources (``make i18n`` re-extracts it and merges it into every language),
and one ``locale/LANG/LC_MESSAGES/DOMAIN.po`` per language. The ``.po`` files are the
shipped form; they are read with Babel and compiled in memory, so no generated ``.mo`` file
lives in the repository. English is the source language: its messages are the ``msgid``\\ s
themselves.

Language codes come from a fixed table (:data:`LANGUAGES`); a client's string is only ever
looked up in it, never turned into a path.
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from babel.core import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語", "hu": "Magyar"}
"""Interface languages: code -> the language's own name (as a language switch shows it)."""

SOURCE_LANGUAGE = "en"
DOMAINS = ("web", "tui")
MAX_ACCEPT_LANGUAGE = 512  # characters of an Accept-Language header read; the rest is ignored


def _locale_dir() -> Traversable:
    return resources.files("tessera").joinpath("locale")


def template_path(domain: str) -> Traversable:
    """The domain's template (every message, untranslated)."""
    _check_domain(domain)
    return _locale_dir().joinpath(f"{domain}.pot")


def po_path(domain: str, lang: str) -> Traversable:
    """The ``.po`` catalogue of ``domain`` in ``lang`` (a key of :data:`LANGUAGES`)."""
    _check_domain(domain)
    if lang not in LANGUAGES:
        raise KeyError(f"no interface language {lang!r}; languages: {', '.join(LANGUAGES)}")
    return _locale_dir().joinpath(lang, "LC_MESSAGES", f"{domain}.po")


@cache
def catalog(domain: str, lang: str) -> Catalog:
    """The parsed catalogue (for English, the template: every msgstr empty)."""
    path = template_path(domain) if lang == SOURCE_LANGUAGE else po_path(domain, lang)
    with path.open("rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


@cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """A stdlib gettext object for ``domain`` in ``lang`` (``gettext``, ``ngettext``,
    ``pgettext``); English and unknown messages fall back to the ``msgid``."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, catalog(domain, lang))
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def negotiate(accept_language: str | None, default: str = SOURCE_LANGUAGE) -> str:
    """The interface language for an ``Accept-Language`` header (or a code such as ``hu``,
    ``ja-JP``), ``default`` when none of :data:`LANGUAGES` is wanted."""
    if not accept_language:
        return default
    wanted: list[tuple[float, str]] = []
    for part in accept_language[:MAX_ACCEPT_LANGUAGE].split(","):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if tag and quality > 0:
            wanted.append((quality, tag.strip().replace("_", "-")))
    preferred = [tag for _, tag in sorted(wanted, key=lambda qt: -qt[0])]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-")
    if found is None:  # "ja-JP" against "ja": negotiate_locale wants the region to match
        found = negotiate_locale([t.split("-")[0] for t in preferred], list(LANGUAGES), sep="-")
    return found if found in LANGUAGES else default


LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where a program's messages' language is looked for, in gettext's order."""


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The interface language a terminal program's environment asks for, as gettext reads it:
    the first of :data:`LOCALE_VARIABLES` that is set and not empty decides; its value is a
    ``:``-separated list of locales (``ja_JP.UTF-8``, ``hu_HU@euro``, ``hu``), the first
    naming one of :data:`LANGUAGES` wins, and ``C``/``POSIX`` (or none known) is English."""
    env = os.environ if environ is None else environ
    value = next((env[name] for name in LOCALE_VARIABLES if env.get(name)), "")
    for entry in value.split(":"):
        name = entry.split(".")[0].split("@")[0].strip()
        if name in ("C", "POSIX"):
            return SOURCE_LANGUAGE
        lang = name.replace("-", "_").split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return SOURCE_LANGUAGE


def plural_forms(lang: str) -> tuple[int, str]:
    """The language's number of plural forms and its C plural expression (as in a ``.po``
    header), e.g. ``(1, "0")`` for Japanese, ``(2, "(n != 1)")`` for Hungarian."""
    found = Catalog(locale=Locale.parse(lang)).plural_forms  # "nplurals=2; plural=(n != 1);"
    nplurals = int(found.split("nplurals=")[1].split(";")[0])
    return nplurals, found.split("plural=")[1].rstrip(";").strip()


def _check_domain(domain: str) -> None:
    if domain not in DOMAINS:
        raise KeyError(f"no message domain {domain!r}; domains: {', '.join(DOMAINS)}")
