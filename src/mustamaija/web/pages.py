"""The web app's HTML pages (docs/web.md, "Pages").

Every page extends one layout, ``pages/base.html`` (the head and the top bar with the brand), and takes the
pieces several pages share (the settings and keys buttons, the felt and the player's seat, the keyboard
dialog) from the macros of ``pages/parts.html``, so each is written once. A page holds no data of a request,
so each is rendered from its Jinja2 template once and then served from memory.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateNotFound

__all__ = ["PAGES", "PAGES_DIR", "PAGE_METHODS", "page"]

PAGES_DIR: Final = Path(__file__).parent / "pages"
"""The templates: one file per page, besides ``base.html`` and ``parts.html``, which no route serves."""

PAGES: Final = ("index.html", "table.html", "replay.html", "puzzles.html", "editor.html", "ratings.html", "404.html")
"""The pages the app serves, by template name."""

PAGE_METHODS: Final = ["GET", "HEAD"]
"""What a page's route answers: HEAD too, which link checkers and uptime monitors send, with GET's headers."""


def page(name: str, status_code: int = 200) -> Response:
    """Return the page rendered from the template ``name``, or a plain 404 page naming it if it is missing."""
    html = _rendered(PAGES_DIR, name)
    if html is None:
        return HTMLResponse(f"<!doctype html><title>Card tables</title><p>The page {name} is missing from this "
                            "installation.", status_code=404)
    return HTMLResponse(html, status_code=status_code)


@functools.cache
def _rendered(directory: Path, name: str) -> str | None:
    try:
        return _environment(directory).get_template(name).render()
    except TemplateNotFound:
        return None


@functools.cache
def _environment(directory: Path) -> Environment:
    """Return the templates of ``directory``: one environment, so the layout and the macros are read once for all pages."""
    # StrictUndefined: a name a page forgot to set is an error when it is first rendered, not an empty attribute.
    return Environment(loader=FileSystemLoader(directory), autoescape=True, undefined=StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
