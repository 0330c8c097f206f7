"""The web app's words over HTTP: ``GET /api/i18n`` names the interface languages and the one
the request's ``Accept-Language`` prefers; ``GET /api/i18n/{lang}`` is that language's
catalogue for the page's script (:mod:`tessera.i18n` reads the ``.po`` files).

A catalogue is ``{"lang", "nplurals", "version", "messages"}``: ``messages`` maps each msgid
to its translation, a plural message's singular msgid to the list of its forms (gettext's
order). English, the source language, has no messages: the page shows the msgids. A
catalogue changes only with the package, so it carries an ETag, and asked for with the
current ``?v=`` version (the index names it) it may be kept for good.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tessera import i18n

from .errors import RequestError

DOMAIN = "web"
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "public, no-cache"


def client_catalogue(lang: str) -> dict[str, object]:
    """The catalogue of ``lang`` (a key of :data:`i18n.LANGUAGES`) as the page reads it."""
    nplurals, _ = i18n.plural_forms(lang)
    messages: dict[str, str | list[str]] = {}
    if lang != i18n.SOURCE_LANGUAGE:
        for m in i18n.catalog(DOMAIN, lang):
            if not m.id or m.fuzzy:
                continue
            if isinstance(m.id, tuple):
                forms = [str(s) for s in m.string]
                if all(forms):
                    messages[str(m.id[0])] = forms
            elif m.string:
                messages[str(m.id)] = str(m.string)
    return {"lang": lang, "nplurals": nplurals, "messages": messages}


@cache
def _encoded(lang: str) -> tuple[bytes, str]:
    body = json.dumps(client_catalogue(lang), ensure_ascii=False, sort_keys=True)
    return body.encode("utf-8"), hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


@cache
def version() -> str:
    """One tag for every language's catalogue: it changes whenever one of them does."""
    tags = "".join(_encoded(lang)[1] for lang in i18n.LANGUAGES)
    return hashlib.sha256(tags.encode()).hexdigest()[:16]


def routes() -> list[Route]:
    async def index(request: Request) -> Response:
        preferred = i18n.negotiate(request.headers.get("accept-language"))
        return JSONResponse(
            {"languages": i18n.LANGUAGES, "preferred": preferred, "version": version()},
            headers={"Cache-Control": "no-store", "Vary": "Accept-Language"},
        )

    async def catalogue(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in i18n.LANGUAGES:
            raise RequestError(404, "no_language", f"no interface language {lang[:16]!r}")
        body, etag = _encoded(lang)
        quoted = f'"{etag}"'
        cache_control = FOREVER if request.query_params.get("v") == version() else REVALIDATE
        headers = {"ETag": quoted, "Cache-Control": cache_control}
        if quoted in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    return [
        Route("/api/i18n", index),
        Route("/api/i18n/{lang}", catalogue),
    ]
