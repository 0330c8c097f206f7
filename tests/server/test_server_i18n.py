"""The web app's catalogues over HTTP (``/api/i18n``): the language the request's
Accept-Language prefers, each language's messages as the page reads them (plural messages as
lists of gettext's forms, English empty), a 404 for any other code, and caching by ETag and
version."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tessera import i18n
from tessera.server.app import create_app

BASE = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("i18n") / "games.db"
    with TestClient(create_app(f"sqlite:///{db}"), base_url=BASE) as c:
        yield c


@pytest.mark.parametrize(
    ("header", "preferred"),
    [("hu-HU,hu;q=0.9,en;q=0.5", "hu"), ("ja", "ja"), ("de-DE", "en"), (None, "en")],
)
def test_the_index_names_the_languages_and_the_one_the_browser_prefers(
    client: TestClient, header: str | None, preferred: str
) -> None:
    r = client.get("/api/i18n", headers={"Accept-Language": header} if header else {})
    assert r.status_code == 200
    data = r.json()
    assert data["languages"] == i18n.LANGUAGES
    assert data["preferred"] == preferred
    assert data["version"]
    assert "Accept-Language" in r.headers["vary"]


def test_english_is_the_source_an_empty_map(client: TestClient) -> None:
    data = client.get("/api/i18n/en").json()
    assert data == {"lang": "en", "nplurals": 2, "messages": {}}


@pytest.mark.parametrize(("lang", "nplurals"), [("ja", 1), ("hu", 2)])
def test_a_language_has_every_message_and_its_plural_forms(
    client: TestClient, lang: str, nplurals: int
) -> None:
    data = client.get(f"/api/i18n/{lang}").json()
    assert data["lang"] == lang and data["nplurals"] == nplurals
    messages = data["messages"]
    catalog = i18n.catalog("web", lang)
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    singles = [m for m in catalog if m.id and not isinstance(m.id, tuple)]
    assert plurals and singles
    for m in singles:
        assert messages[m.id] == m.string
    for m in plurals:
        forms = messages[m.id[0]]
        assert isinstance(forms, list) and len(forms) == nplurals
        assert forms == list(m.string)
    assert len(messages) == len(plurals) + len(singles)


@pytest.mark.parametrize("lang", ["de", "EN", "ja-JP", "..", "%2e%2e%2fweb.pot", "hu%00"])
def test_any_other_language_is_404_never_a_file(client: TestClient, lang: str) -> None:
    r = client.get(f"/api/i18n/{lang}")
    assert r.status_code == 404
    assert "msgid" not in r.text and "messages" not in r.text


def test_a_catalogue_is_cached_by_etag_and_kept_for_good_at_its_version(
    client: TestClient,
) -> None:
    version = client.get("/api/i18n").json()["version"]
    plain = client.get("/api/i18n/hu")
    assert plain.headers["cache-control"] == "public, no-cache"
    etag = plain.headers["etag"]
    again = client.get("/api/i18n/hu", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content
    pinned = client.get(f"/api/i18n/hu?v={version}")
    assert "immutable" in pinned.headers["cache-control"]
    assert pinned.json() == plain.json()
    stale = client.get("/api/i18n/hu?v=old")
    assert stale.headers["cache-control"] == "public, no-cache"
    assert client.get("/api/i18n/ja").headers["etag"] != etag
