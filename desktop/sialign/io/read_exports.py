"""Reading exports back: the parallel TSV and JSONL that sialign writes (round trips, other tools' checks)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from sialign.core.errors import FormatError
from sialign.io.escaping import unescape_tsv_field
from sialign.io.writers import KNOWN_TSV_HEADERS, AlignmentRow


def _read_utf8(path: Path) -> str:
    """Our own exports are UTF-8 (a BOM from a spreadsheet is tolerated); an empty file is empty."""
    from sialign.core.errors import EmptyInputError, EncodingError
    from sialign.io.encoding import MAX_TABLE_BYTES, read_limited_bytes

    try:
        data = read_limited_bytes(path, limit=MAX_TABLE_BYTES, kind="corpus file")
    except EmptyInputError:
        return ""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EncodingError(
            path,
            "the file is not UTF-8",
            line=data.count(b"\n", 0, exc.start) + 1,
            hint="exports of SI Aligner are UTF-8; save the file as UTF-8",
        ) from None


def _parse_ids(value: str, path: Path, line: int) -> tuple[int, ...]:
    if not value.strip():
        return ()
    parts = value.split(",")
    # isdecimal() alone accepts '²'-like digits int() refuses; 16 digits keep ids exact.
    if not all(p.strip().isascii() and p.strip().isdecimal() and len(p.strip()) <= 16 for p in parts):
        raise FormatError(path, f"segment ids must be numbers joined by commas, found {value[:40]!r}", line=line)
    return tuple(int(v) for v in parts)


def _parse_float(value: str, path: Path, line: int, column: str) -> float | None:
    if not value.strip():
        return None
    try:
        number = float(value)
    except ValueError:
        raise FormatError(path, f"column {column} must be a number or empty, found {value[:40]!r}", line=line) from None
    if not math.isfinite(number) or abs(number) > 1e12:
        raise FormatError(path, f"column {column} must be a finite number, found {value[:40]!r}", line=line)
    return number


def _parse_label(value: str, path: Path, line: int, column: str) -> bool | None:
    if value not in ("", "0", "1"):
        raise FormatError(path, f"column {column} must be 1, 0 or empty, found {value[:40]!r}", line=line)
    return None if value == "" else value == "1"


def read_parallel_tsv(path: str | Path) -> list[AlignmentRow]:
    """Read a parallel TSV (with header) or a two-column ``source<TAB>target`` file.

    The inverse of :func:`write_parallel_tsv`: escapes are undone, ids and
    numbers parsed. In a two-column file (raw text, no escapes) only
    ``source`` and ``target`` are set.

    Raises:
        FormatError: a row with the wrong number of fields or a bad number,
            naming the line.
    """
    path = Path(path)
    text = _read_utf8(path)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rows: list[AlignmentRow] = []
    if not lines:
        return rows
    header = tuple(lines[0].rstrip("\r").split("\t"))
    with_header = header in KNOWN_TSV_HEADERS
    width = len(header) if with_header else 2
    for number, line in enumerate(lines[1:] if with_header else lines, start=2 if with_header else 1):
        fields = line.rstrip("\r").split("\t")
        if len(fields) != width:
            what = f"the {width} columns of the header" if with_header else "source<TAB>target"
            raise FormatError(path, f"expected {what}, found {len(fields)} field(s)", line=number, hint="a tab or line break inside a text was not escaped")
        if not with_header:
            rows.append(AlignmentRow(source=fields[0], target=fields[1]))
            continue
        cell = dict(zip(header, (unescape_tsv_field(f) for f in fields)))
        rows.append(
            AlignmentRow(
                talk=cell["talk"],
                src_ids=_parse_ids(cell["src_ids"], path, number),
                tgt_ids=_parse_ids(cell["tgt_ids"], path, number),
                src_start=_parse_float(cell["src_start"], path, number, "src_start"),
                src_end=_parse_float(cell["src_end"], path, number, "src_end"),
                tgt_start=_parse_float(cell["tgt_start"], path, number, "tgt_start"),
                tgt_end=_parse_float(cell["tgt_end"], path, number, "tgt_end"),
                cost=_parse_float(cell["cost"], path, number, "cost"),
                status=cell["status"],
                source=cell["source"],
                target=cell["target"],
                trimmed_tgt_ids=_parse_ids(cell.get("trimmed_tgt_ids", ""), path, number),
                target_original=cell.get("target_original", ""),
                confidence=_parse_float(cell.get("confidence", ""), path, number, "confidence"),
                good_align=_parse_label(cell.get("good_align", ""), path, number, "good_align"),
                good_mt=_parse_label(cell.get("good_mt", ""), path, number, "good_mt"),
                note=cell.get("note", ""),
                links=cell.get("links"),
            )
        )
    return rows


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Read JSON Lines written by :func:`write_jsonl` (blank lines ignored).

    Raises:
        FormatError: a line that is not a JSON object, naming the line.
    """
    path = Path(path)
    records = []
    for number, line in enumerate(_read_utf8(path).split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(path, f"not valid JSON ({exc.msg}, column {exc.colno})", line=number, hint="each line must be one JSON object") from None
        except RecursionError:
            raise FormatError(path, "the JSON is nested too deeply", line=number) from None
        except ValueError as exc:  # an integer of thousands of digits
            raise FormatError(path, f"a value JSON readers cannot take ({str(exc)[:60]})", line=number) from None
        if not isinstance(record, dict):
            raise FormatError(path, "each line must be a JSON object", line=number)
        records.append(record)
    return records
