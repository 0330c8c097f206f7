"""The page's static words as the catalogue extracts them (tessera.i18n_extract.extract_html):
a marked element's text, whitespace made one space; its markup kept, written as the
browser's innerHTML writes it, when it holds elements (the page keys its messages the same
way); an explicit message; and the attributes data-i18n-attr names."""

from __future__ import annotations

import io

from tessera.i18n_extract import extract_html


def messages(html: str) -> list[str]:
    return [m for _, _, m, _ in extract_html(io.BytesIO(html.encode()), None, None, {})]


def test_a_marked_elements_text_is_one_message_its_spaces_made_one() -> None:
    assert messages('<p data-i18n>Look words\n   up &amp; drill</p><p>not marked</p>') == [
        "Look words up & drill"
    ]


def test_markup_inside_is_kept_as_innerhtml_writes_it() -> None:
    html = (
        '<span data-i18n><a href="/account" id=x>Log in</a> to play, or\n'
        "  <kbd>?</kbd> &amp; <br> more</span>"
    )
    assert messages(html) == [
        '<a href="/account" id="x">Log in</a> to play, or <kbd>?</kbd> &amp; <br> more'
    ]


def test_an_explicit_message_and_the_attributes_named() -> None:
    html = (
        '<button data-i18n="Play" title="Play a word (Enter)" aria-label="Play now" '
        'data-i18n-attr="title aria-label">▶</button>'
        '<input placeholder="any" data-i18n-attr="placeholder">'
    )
    assert messages(html) == ["Play a word (Enter)", "Play now", "Play", "any"]


def test_elements_nested_in_a_message_do_not_end_it_early() -> None:
    html = "<p data-i18n>One <b>two <i>three</i></b> four</p><p data-i18n>Five</p>"
    assert messages(html) == ["One <b>two <i>three</i></b> four", "Five"]
