r"""Fast JSON text for the server's messages and stored rows (orjson, with the standard library as the fallback).

Encoding is a large share of the cost of an action at a busy server, so the
hot paths use orjson. Its text is compact UTF-8 JSON, the same values as
:func:`json.dumps` writes. Text that is not Unicode (a lone surrogate) cannot
reach here through the checked inputs; should it, it is escaped rather than
lost.

>>> dumps({"b": [1, 2.5, None], "a": "ä"})
'{"b":[1,2.5,null],"a":"ä"}'
>>> dumps({"x": "\ud800"})
'{"x":"\\ud800"}'
>>> loads('{"a": [1, "ä"]}')
{'a': [1, 'ä']}
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["dumps", "loads"]

try:
    import orjson
except ImportError:  # pragma: no cover - orjson comes with the web extra; the standard library is slower, not wrong.
    orjson = None  # type: ignore[assignment]


def dumps(value: Any) -> str:
    """Return ``value`` as compact JSON text (non-ASCII as itself)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
        except TypeError:  # Not Unicode (a lone surrogate), or a type orjson does not know: the standard way.
            pass
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8").decode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """Return the value of JSON text this server wrote."""
    return orjson.loads(text) if orjson is not None else json.loads(text)
