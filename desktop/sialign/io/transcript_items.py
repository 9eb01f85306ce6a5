"""Raw transcript items and the limits every transcript reader shares."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import FileTooLargeError

# A talk's transcript has a few thousand segments; these bounds keep a file
# of millions of tiny lines (a corpus dump, a damaged or hostile file) from
# taking gigabytes: it is refused before the reader builds anything big.
MAX_LINES = 1_500_000


MAX_SEGMENTS = 300_000


_LINE_BREAK = re.compile(r"\r\n|\n|\r")


TIME_ARROW = "-->"


def split_lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


@dataclass(slots=True)
class RawItem:
    """A segment before ids are assigned: text, times, line, optional label."""

    text: str
    start: float | None
    end: float | None
    line: int
    label: str = ""
    speaker: str = ""


def describe_item(raw: RawItem, kind: str) -> str:
    label = f"{kind} {raw.label}" if raw.label else kind
    return f"{label} at line {raw.line}"


def too_many_error(path: str | Path, count: int, what: str, limit: int) -> FileTooLargeError:
    return FileTooLargeError(
        path,
        f"the file holds more than {limit:,} {what} ({count:,} or more); a transcript reader takes at most {limit:,}",
        hint="split it into talks, or read a corpus file with the corpus tools",
    )


def text_blocks(lines: list[str], first: int = 0) -> list[tuple[int, list[str]]]:
    """Runs of non-blank lines as (1-based line of the first, lines)."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for i in range(first, len(lines)):
        if lines[i].strip():
            if not current:
                start = i + 1
            current.append(lines[i])
        elif current:
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return blocks
