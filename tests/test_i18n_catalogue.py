"""The interface's message catalogues (tessera.i18n): what the sources mark as a message is
exactly what the shipped template holds, and every shipped language translates all of it,
keeping each message's placeholders."""

from __future__ import annotations

import re

import pytest

from tessera import i18n
from tessera.i18n_extract import extract

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{[a-zA-Z_][a-zA-Z0-9_]*\}|%\([a-zA-Z_]+\)[sd]|%[sd]")


def _ids(catalog: object) -> set[object]:
    return {m.id for m in catalog if m.id}  # type: ignore[attr-defined]


@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_the_shipped_template_is_what_the_sources_mark(domain: str) -> None:
    fresh, shipped = _ids(extract(domain)), _ids(i18n.catalog(domain, "en"))
    new, gone = sorted(map(str, fresh - shipped)), sorted(map(str, shipped - fresh))
    assert not new, f"run `make i18n`: new messages {new[:10]}"
    assert not gone, f"run `make i18n`: gone messages {gone[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_every_message_is_translated_with_its_placeholders(domain: str, lang: str) -> None:
    template = _ids(i18n.catalog(domain, "en"))
    catalog = i18n.catalog(domain, lang)
    nplurals, _ = i18n.plural_forms(lang)
    assert _ids(catalog) == template, "run `make i18n`"
    problems = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        if isinstance(m.id, tuple) and len(strings) != nplurals:
            problems.append(f"{len(strings)} plural forms, not {nplurals}: {ids[0]!r}")
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            if set(PLACEHOLDER.findall(s)) != wanted:
                problems.append(f"placeholders differ: {ids[0]!r} -> {s!r}")
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", i18n.DOMAINS)
def test_a_catalogue_compiles_for_gettext(domain: str, lang: str) -> None:
    tr = i18n.translations(domain, lang)
    for m in i18n.catalog(domain, lang):
        if m.id and not isinstance(m.id, tuple) and not m.context:
            assert tr.gettext(m.id) == m.string


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("hu", "hu"),
        ("hu-HU", "hu"),
        ("de-DE,de;q=0.9", "en"),
        ("en-US,hu;q=0.5", "en"),
        ("de;q=0.9,hu;q=0.8,ja;q=0.7", "hu"),
        ("ja;q=0, hu;q=0.1", "hu"),
        ("hu;q=banana, ja", "ja"),
        ("../../etc/passwd", "en"),
        ("x" * 100_000, "en"),
    ],
)
def test_the_language_is_negotiated_from_accept_language(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_a_language_outside_the_table_is_refused_not_looked_for() -> None:
    with pytest.raises(KeyError):
        i18n.po_path("web", "../../etc")
    with pytest.raises(KeyError):
        i18n.po_path("nosuch", "hu")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "hu_HU"}, "hu"),
        ({"LANG": "hu_HU.ISO-8859-2@euro"}, "hu"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        # gettext's order: LANGUAGE, LC_ALL, LC_MESSAGES, LANG; the first set decides
        ({"LANGUAGE": "hu", "LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}, "hu"),
        ({"LC_ALL": "ja_JP.UTF-8", "LC_MESSAGES": "hu_HU", "LANG": "hu_HU"}, "ja"),
        ({"LC_MESSAGES": "hu_HU.UTF-8", "LANG": "ja_JP.UTF-8"}, "hu"),
        ({"LANGUAGE": "", "LC_ALL": "", "LANG": "ja_JP.UTF-8"}, "ja"),  # empty is unset
        ({"LC_ALL": "C", "LANG": "hu_HU.UTF-8"}, "en"),
        # LANGUAGE is a list: the first known language in it
        ({"LANGUAGE": "de_DE:fr:ja_JP:hu", "LANG": "en_US.UTF-8"}, "ja"),
        ({"LANGUAGE": "de:fr", "LANG": "hu_HU.UTF-8"}, "en"),
        ({"LANG": "../../etc/passwd"}, "en"),
    ],
)
def test_the_terminal_language_is_read_from_the_environment(
    environ: dict[str, str], lang: str
) -> None:
    assert i18n.from_environment(environ) == lang


def test_the_environment_read_by_default_is_the_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "hu_HU.UTF-8")
    assert i18n.from_environment() == "hu"
