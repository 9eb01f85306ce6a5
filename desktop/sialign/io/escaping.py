"""Escaping text fields so a TSV row never breaks.

Tabs, line breaks, NUL and backslashes inside a field are written as ``\\t``,
``\\n``, ``\\r``, ``\\0`` and ``\\\\``; reading undoes exactly that (an unknown escape
such as ``\\x`` is left as it is, so hand-edited files still read).
"""

from __future__ import annotations

import re

_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\x00": "\\0"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "0": "\x00"}
_ESCAPE_RE = re.compile(r"[\\\t\n\r\x00]")
_UNESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)


def escape_tsv_field(value: str) -> str:
    """``'a\\tb'`` → ``'a\\\\tb'``: a field with no raw tab or line break."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group()], value)


def unescape_tsv_field(value: str) -> str:
    """The inverse of :func:`escape_tsv_field`."""
    return _UNESCAPE_RE.sub(lambda m: _UNESCAPES.get(m.group(1), m.group(0)), value)
