"""TSV transcripts: a header naming the columns (or none), CSV-style quoted cells, times by column name.

Used by :func:`sialign.io.readers.read_transcript`; :func:`tsv_header` also serves the column choice of *New talk* and ``sialign info``.
"""

from __future__ import annotations

import re
from pathlib import Path

from sialign.core.errors import FormatError, TierNotFoundError, TimestampError
from sialign.core.plurals import count_noun
from sialign.io.escaping import unescape_tsv_field
from sialign.io.timecodes import parse_time
from sialign.io.transcript_items import RawItem, split_lines

# ---------------------------------------------------------------------------
# TSV

TEXT_COLUMNS = ("text", "transcript", "sentence", "utterance", "segment", "caption", "content", "source", "target", "src", "tgt", "translation")
START_COLUMNS = ("start", "begin", "start_time", "starttime", "start_sec", "tmin", "from", "onset", "bg")
END_COLUMNS = ("end", "stop", "end_time", "endtime", "end_sec", "tmax", "to", "ed")
PARALLEL_TSV_HEADER = ("talk", "src_ids", "tgt_ids", "src_start", "src_end", "tgt_start", "tgt_end", "cost", "status", "source", "target")


def _is_time(value: str) -> bool:
    try:
        parse_time(value)
    except ValueError:
        return False
    return True


# A cell quoted the CSV way (pandas' to_csv, Excel's "Text (Tab delimited)"):
# it starts with '"', doubles inner quotes and ends with '"' right before a
# tab, a line break or the end. Only such a well-formed cell is unquoted, so a
# hand-written cell that merely starts with a quote keeps it.
_TSV_QUOTED = re.compile(r'"([^"]*(?:""[^"]*)*)"(?=[\t\r\n]|\Z)')
_TSV_RAW = re.compile(r"[^\t\r\n]*")
_TSV_BREAK = re.compile(r"\r\n|\n|\r")


def _tsv_records(text: str) -> list[tuple[int, list[str]]]:
    """Rows of a TSV as (1-based line, cells), understanding CSV-style quoted cells.

    A quoted cell may hold tabs and line breaks; the row's line is the line
    it starts on. Blank rows are left out.
    """
    if '"' not in text:
        return [(i + 1, ln.split("\t")) for i, ln in enumerate(split_lines(text)) if ln.strip()]
    records: list[tuple[int, list[str]]] = []
    pos, line, end = 0, 1, len(text)
    while pos < end:
        row_line = line
        cells: list[str] = []
        while True:
            quoted = _TSV_QUOTED.match(text, pos) if text.startswith('"', pos) else None
            if quoted:
                cell = quoted.group(1)
                line += cell.count("\n") + cell.count("\r") - cell.count("\r\n")
                cells.append(cell.replace('""', '"'))
                pos = quoted.end()
            else:
                raw = _TSV_RAW.match(text, pos)
                assert raw is not None
                cells.append(raw.group())
                pos = raw.end()
            if pos < end and text[pos] == "\t":
                pos += 1
                continue
            brk = _TSV_BREAK.match(text, pos)
            if brk:
                pos = brk.end()
                line += 1
            break
        if any(c.strip() for c in cells):
            records.append((row_line, cells))
    return records


def parse_tsv(text: str, path: str | Path, tier: str | int | None = None,
              warnings: list[str] | None = None) -> list[RawItem]:
    """Rows of ``[start, end,] text`` with an optional header naming the columns.

    Without a header a row is ``start<TAB>end<TAB>text`` when its first two
    fields are times (seconds or ``hh:mm:ss.mmm``), else the whole line is the
    text. With a header the text column is ``tier`` (a column name or 1-based
    number) or the first of text/transcript/sentence/.../source/target; start
    and end columns are found by name. A parallel TSV written by SI Aligner
    is read with its escapes undone and the times of the chosen side; any
    other TSV may quote cells the CSV way (pandas, Excel): ``"a ""b"" c"``,
    with tabs and line breaks inside the quotes. ``warnings`` receives what
    the reader should hear (a talk column naming several talks).
    """
    first_line = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    ours = tuple(f.strip().lower() for f in first_line.split("\t")[: len(PARALLEL_TSV_HEADER)]) == PARALLEL_TSV_HEADER
    if ours:
        # Our own parallel TSV is never quoted: a cell starting with '"' is text.
        rows = [(i + 1, ln.split("\t")) for i, ln in enumerate(split_lines(text)) if ln.strip()]
    else:
        rows = _tsv_records(text)
    if not rows:
        return []
    first_no, first = rows[0]
    fields = [f.strip() for f in first]
    lowered = [f.lower() for f in fields]
    first_is_data = len(fields) >= 3 and _is_time(fields[0]) and _is_time(fields[1])
    has_header = _is_header(fields, rows, tier)

    text_col: int | None
    start_col: int | None = None
    end_col: int | None = None
    escaped = False
    if has_header:
        if warnings is not None:
            warnings.extend(_talk_warnings(fields, rows[1:], path))
        rows = rows[1:]
        escaped = tuple(lowered[: len(PARALLEL_TSV_HEADER)]) == PARALLEL_TSV_HEADER
        if tier is not None:
            text_col = _choose_column(lowered, tier, path, first_no)
        else:
            text_col = next((lowered.index(n) for n in TEXT_COLUMNS if n in lowered), None)
            if text_col is None:
                raise FormatError(
                    path,
                    "the header names no text column",
                    line=first_no,
                    hint="name it 'text' or choose the text column (the tier to read); header: " + ", ".join(fields),
                    settings=("tier",),
                )
        name = lowered[text_col]
        prefix = {"source": "src_", "src": "src_", "target": "tgt_", "tgt": "tgt_"}.get(name, "")
        for names, slot in ((START_COLUMNS, "start"), (END_COLUMNS, "end")):
            candidates = ([prefix + slot] if prefix else []) + list(names)
            col = next((lowered.index(n) for n in candidates if n in lowered), None)
            if slot == "start":
                start_col = col
            else:
                end_col = col
    elif tier is not None:
        raise TierNotFoundError(path, "this TSV has no header, so a column cannot be chosen by name", line=first_no, hint="add a header row")
    elif first_is_data:
        start_col, end_col, text_col = 0, 1, None  # text = all fields from the third on
    else:
        text_col = -1  # the whole line

    raws: list[RawItem] = []
    for line_no, cells in rows:
        if text_col == -1:
            raws.append(RawItem("\t".join(cells).strip(), None, None, line_no))
            continue
        if text_col is None:
            if len(cells) < 3:
                raise FormatError(
                    path,
                    f"expected start<TAB>end<TAB>text like the first row, found {len(cells)} field(s)",
                    line=line_no,
                    hint="give every row a start time, an end time and the text",
                )
            value = "\t".join(cells[2:])
        else:
            value = cells[text_col] if text_col < len(cells) else ""
        if escaped:
            value = unescape_tsv_field(value)
        start = _tsv_time(cells, start_col, path, line_no, "start")
        end = _tsv_time(cells, end_col, path, line_no, "end")
        if value.strip():
            raws.append(RawItem(value.strip(), start, end, line_no))
    return raws


# A column name: one short word, such as "id", "en" or "speaker_1".
_COLUMN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]{0,23}")
# Names that only a header has: a row id or a language tag ("en", "ja", "zh-CN").
_ID_COLUMN = re.compile(r"(?i)(id|ids|no|nr|num|number|index|line|lang|speaker)|[a-z]{2,3}([-_][A-Za-z]{2,4})?")


def _names_columns(fields: list[str], rows: list[tuple[int, list[str]]]) -> bool:
    """Whether a first row like ``id<TAB>en<TAB>ja`` is a header of columns unknown by name.

    Every field must be one short word, one of them an id or a language tag,
    and the next row must have as many fields; otherwise the row is text.
    """
    if len(rows) < 2 or len(rows[1][1]) != len(fields):
        return False
    if not all(_COLUMN_NAME.fullmatch(f) for f in fields):
        return False
    return any(_ID_COLUMN.fullmatch(f) for f in fields)


def _is_header(fields: list[str], rows: list[tuple[int, list[str]]], tier: str | int | None) -> bool:
    """Whether the first row (``fields``) names the columns rather than holding text."""
    lowered = [f.lower() for f in fields]
    if len(fields) < 2 or len(fields) >= 3 and _is_time(fields[0]) and _is_time(fields[1]):
        return False
    known = set(TEXT_COLUMNS) | set(START_COLUMNS) | set(END_COLUMNS)
    named_by_tier = isinstance(tier, str) and tier.strip().lower() in lowered
    return named_by_tier or any(f in known for f in lowered) or _names_columns(fields, rows)


def _choose_column(lowered: list[str], tier: str | int, path: str | Path, line: int) -> int:
    key = str(tier).strip().lower()
    if key in lowered:
        return lowered.index(key)
    if key.isascii() and key.isdigit() and 1 <= int(key) <= len(lowered):
        return int(key) - 1
    raise TierNotFoundError(path, f"no column {tier!r}", line=line, hint="columns: " + ", ".join(lowered))


def _tsv_time(cells: list[str], col: int | None, path: str | Path, line: int, what: str) -> float | None:
    if col is None or col >= len(cells) or not cells[col].strip():
        return None
    try:
        return parse_time(cells[col])
    except ValueError:
        raise TimestampError(
            path,
            f"cannot read the {what} time {cells[col].strip()!r}",
            line=line,
            hint="write seconds (12.5) or hh:mm:ss.mmm (00:00:12.500)",
        ) from None


def tsv_header(text: str) -> list[str] | None:
    """The column names of a TSV whose first row is a header (as :func:`parse_tsv` decides), else None."""
    rows = _tsv_records("\n".join(split_lines(text)[:20]))
    if not rows:
        return None
    fields = [f.strip() for f in rows[0][1]]
    return fields if _is_header(fields, rows, None) else None


# Header names of a column that says which talk a row belongs to.
_TALK_COLUMNS = ("talk", "talk_id", "name", "talkname", "document", "doc", "file")


def _talk_warnings(header: list[str], rows: list[tuple[int, list[str]]], path: str | Path) -> list[str]:
    """A warning when a TSV's talk column names several talks: a transcript is one talk, read whole."""
    lowered = [name.lower() for name in header]
    column = next((lowered.index(n) for n in _TALK_COLUMNS if n in lowered), None)
    if column is None:
        return []
    talks: dict[str, None] = {}
    for _line, cells in rows:
        if column < len(cells) and cells[column].strip():
            talks.setdefault(cells[column].strip(), None)
    if len(talks) < 2:
        return []
    names = list(talks)
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return [f"{path}: the column '{header[column]}' names {count_noun(len(names), 'talk')} ({shown}); all rows are read as one "
            "transcript — split the file into one per talk to align each talk on its own"]
