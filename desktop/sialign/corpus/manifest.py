"""The corpus manifest: one row per talk, naming its files.

A TSV or CSV file with a header row. Required columns: ``talk``, ``source``,
``target``; optional: ``reference``, ``source_audio``, ``target_audio``,
``interpreter``, ``src_lang``, ``tgt_lang``, ``split``. Paths are relative to
the manifest's folder (absolute paths work too). Talk names become file
names (``<talk>.sialign``), so they are checked: letters, digits, ``._-``.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from sialign.core.errors import FormatError, InputError

REQUIRED = ("talk", "source", "target")
OPTIONAL = ("reference", "source_audio", "target_audio", "interpreter", "src_lang", "tgt_lang", "split")
_TALK_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,119}$")


@dataclass(frozen=True)
class TalkSpec:
    """One talk of a corpus: its name, files and metadata (paths resolved).

    Attributes:
        talk: the talk's name (file name of its project).
        source / target: transcripts.
        reference: reference translation, or None.
        source_audio / target_audio: audio files, or None.
        interpreter / src_lang / tgt_lang / split: metadata ("" when not given).
        line: the manifest line it came from (for messages).
    """

    talk: str
    source: Path
    target: Path
    reference: Path | None = None
    source_audio: Path | None = None
    target_audio: Path | None = None
    interpreter: str = ""
    src_lang: str = ""
    tgt_lang: str = ""
    split: str = ""
    line: int = 0
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    def inputs(self) -> list[Path]:
        """The files whose content decides the alignment (audio only changes playback)."""
        return [p for p in (self.source, self.target, self.reference) if p is not None]


def read_manifest(path: str | Path) -> list[TalkSpec]:
    """Read a manifest (TSV or CSV, detected from the header line).

    Raises:
        InputError / FormatError: a missing file, column or value, a duplicate
            or unusable talk name — the message names the file and line.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(path, "no such manifest file", hint="give the TSV/CSV that lists the talks") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(path, f"cannot read the manifest ({exc})", hint="save it as UTF-8 text") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise FormatError(path, "the manifest is empty", line=1, hint="start with a header: talk, source, target")
    delimiter = "\t" if "\t" in lines[0] else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise FormatError(
            path, f"the header lacks the column(s) {', '.join(missing)}", line=1,
            hint=f"the header must name talk, source, target (optional: {', '.join(OPTIONAL)})",
        )
    folder = path.absolute().parent  # absolute: the paths travel to workers in other folders
    talks: list[TalkSpec] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            raise FormatError(path, f"the row has {len(row)} cells, the header {len(header)}", line=number)
        values = {name: (row[k].strip() if k < len(row) else "") for k, name in enumerate(header)}
        talk = values["talk"]
        if not _TALK_RE.match(talk):
            raise FormatError(
                path, f"talk name {talk!r} cannot be a file name", line=number,
                hint="use letters, digits, '.', '_' or '-' (at most 120 characters)",
            )
        if talk in seen:
            raise FormatError(path, f"talk {talk!r} is listed twice (first on line {seen[talk]})", line=number)
        seen[talk] = number
        for column in ("source", "target"):
            if not values[column]:
                raise FormatError(path, f"talk {talk!r} has no {column} file", line=number)

        def resolve(column: str) -> Path | None:
            value = values.get(column, "")
            if not value:
                return None
            p = Path(value).expanduser()
            return p if p.is_absolute() else Path(os.path.abspath(folder / p))

        source, target = resolve("source"), resolve("target")
        assert source is not None and target is not None
        talks.append(
            TalkSpec(
                talk=talk,
                source=source,
                target=target,
                reference=resolve("reference"),
                source_audio=resolve("source_audio"),
                target_audio=resolve("target_audio"),
                interpreter=values.get("interpreter", ""),
                src_lang=values.get("src_lang", ""),
                tgt_lang=values.get("tgt_lang", ""),
                split=values.get("split", ""),
                line=number,
                extra={k: v for k, v in values.items() if k not in REQUIRED + OPTIONAL and v},
            )
        )
    if not talks:
        raise FormatError(path, "the manifest lists no talk", line=2, hint="add one row per talk under the header")
    return talks
