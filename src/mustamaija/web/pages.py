"""The web app's HTML pages (docs/web.md, "Pages").

Every page extends one layout, ``pages/base.html`` (the head and the top bar with the brand), and takes the
pieces several pages share (the settings and keys buttons, the felt and the player's seat, the keyboard
dialog) from the macros of ``pages/parts.html``, so each is written once. A page holds no data of a request,
so each is rendered from its Jinja2 template once and then served from memory, with an ``ETag`` of its bytes:
a browser that has the page asks again with ``If-None-Match`` and gets ``304 Not Modified``, no body.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Final

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateNotFound

__all__ = ["PAGES", "PAGES_DIR", "PAGE_METHODS", "page"]

PAGES_DIR: Final = Path(__file__).parent / "pages"
"""The templates: one file per page, besides ``base.html`` and ``parts.html``, which no route serves."""

PAGES: Final = ("index.html", "table.html", "replay.html", "puzzles.html", "editor.html", "ratings.html", "404.html")
"""The pages the app serves, by template name."""

PAGE_METHODS: Final = ["GET", "HEAD"]
"""What a page's route answers: HEAD too, which link checkers and uptime monitors send, with GET's headers."""


def page(name: str, request: Request | None = None, status_code: int = 200) -> Response:
    """Return the page rendered from the template ``name``, or a plain 404 page naming it if it is missing.

    Given the ``request``, a page the browser already has (its ``If-None-Match`` names the page's ETag) is
    answered ``304 Not Modified`` with no body. ``Cache-Control: no-cache`` makes browsers ask each time, so a
    new version of the app reaches them at once.
    """
    found = _rendered(PAGES_DIR, name)
    if found is None:
        return HTMLResponse(f"<!doctype html><title>Card tables</title><p>The page {name} is missing from this "
                            "installation.", status_code=404)
    html, etag = found
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if status_code == 200 and request is not None and _matches(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    return HTMLResponse(html, status_code=status_code, headers=headers)


def _matches(if_none_match: str, etag: str) -> bool:
    """Return whether an ``If-None-Match`` header names ``etag`` (by weak comparison, as RFC 9110 asks for GET).

    >>> _matches('"a", W/"b"', '"b"'), _matches("*", '"b"'), _matches('"bb"', '"b"'), _matches("", '"b"')
    (True, True, False, False)
    """
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


@functools.cache
def _rendered(directory: Path, name: str) -> tuple[str, str] | None:
    """Return the page ``name`` of ``directory`` rendered, and its ETag (a digest of its bytes); None if missing."""
    try:
        html = _environment(directory).get_template(name).render()
    except TemplateNotFound:
        return None
    return html, '"' + hashlib.sha256(html.encode()).hexdigest()[:32] + '"'


@functools.cache
def _environment(directory: Path) -> Environment:
    """Return the templates of ``directory``: one environment, so the layout and the macros are read once for all pages."""
    # StrictUndefined: a name a page forgot to set is an error when it is first rendered, not an empty attribute.
    return Environment(loader=FileSystemLoader(directory), autoescape=True, undefined=StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
