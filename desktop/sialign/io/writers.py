"""Writers: aligned corpora (TSV, JSONL, TMX, vecalign) and transcripts (for ``convert``).

Alignment outputs (docs/algorithms.md: Outputs):

- ``tsv``: the parallel TSV, header ``talk src_ids tgt_ids src_start src_end
  tgt_start tgt_end cost status source target trimmed_tgt_ids
  target_original confidence good_align good_mt note``; ids are
  segment ids joined by commas, times in seconds (empty when unknown), text
  fields escaped (``\\t``, ``\\n``, ``\\r``, ``\\\\``) so a row never breaks.
  ``target`` is the text for training: the reviewer's post-edit where there
  is one, else the interpretation without the trimmed fillers;
  ``target_original`` is what the interpreter said (every chunk, no
  post-edit). ``tgt_ids`` lists the chunks the ``target`` text holds; chunks
  the intra filter trimmed (left out of the text) are in
  ``trimmed_tgt_ids``. ``confidence`` is the aligner's probability that the
  bead is right (empty where it did not score it), ``good_align`` /
  ``good_mt`` the reviewer's labels (``1``, ``0``, empty when not judged),
  ``note`` the reviewer's note. New columns are added at the end, so
  readers of the first eleven keep working. With word
  links (``--links``) a ``links`` column follows: 0-based ``i-j`` pairs
  (Pharaoh) of source and target tokens, the tokens being those of
  :func:`sialign.links.tokenize` on the ``source`` and ``target`` columns.
- ``tsv2``: ``source<TAB>target`` only, no header, for MT toolkits; beads with
  an empty side are left out (they are not sentence pairs). The text is raw
  (no escapes, backslashes as they are); a tab or line break inside a text
  becomes a space.
- ``jsonl``: one bead per line with every field (labels, flags, trimmed
  chunks, times, segment texts); ``tgt_ids`` / ``tgt_positions`` /
  ``tgt_texts`` are the chunks of ``target``, ``trimmed_tgt_ids`` the others;
  with word links, ``src_tokens``, ``tgt_tokens`` and ``links`` (``i-j``
  into those lists) and ``links_aligner``.
- ``tmx``: TMX 1.4; beads with an empty side are left out; ``x-tgt-ids``
  names the chunks of the target text, ``x-trimmed-tgt-ids`` trimmed ones.
- ``align``: vecalign's ``[i, j]:[k]:cost`` with 0-based positions of the
  segments in their documents; every bead, skips and dropped ones included.
- ``textgrid`` / ``eaf``: Praat / ELAN files with aligned tiers ``source``
  and ``target`` (one interval per bead side, at its times) and ``bead``
  (the bead number and status over the source span), to open beside the
  audio.
- ``srt-source`` / ``srt-target`` / ``vtt-source`` / ``vtt-target``:
  subtitles of one side, one cue per bead with text on that side, at the
  times of the segments its text holds (a trimmed chunk's time is left out
  with its text).

Dropped beads are left out unless ``include_dropped``; ``only_confirmed``
keeps confirmed beads only (plus dropped ones when ``include_dropped``).
The target text honours the reviewer's post-edit and leaves out trimmed
chunks (:func:`sialign.core.model.bead_text`).

Every file is written atomically (temp file + rename).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sialign._version import __version__
from sialign.core.atomic import atomic_open
from sialign.core.bead_rows import BeadRow, bead_row
from sialign.core.errors import ExportError, OutputNameError
from sialign.core.model import Bead, BeadStatus, Document, Project, bead_text, bead_times, join_segments
from sialign.core.stored_files import linked_media
from sialign.core.word_links import links_of
from sialign.io.escaping import escape_tsv_field
from sialign.io.export_formats import (
    ALIGNMENT_FILES,
    ALIGNMENT_FORMATS,
    POOLED_FORMATS,
    SUBTITLE_SUFFIXES,
    export_format,
)
from sialign.io.output_formats import OutputFormats
from sialign.io.tier_files import Interval, eaf_text, textgrid_text, xml_attr, xml_text
from sialign.io.timecodes import format_seconds, format_srt_time, format_vtt_time

# A transcript's format from its extension (``sialign convert``, ``transcribe``, ``retime``).
TRANSCRIPT_FILES = OutputFormats("a transcript", {".txt": "txt", ".tsv": "tsv", ".srt": "srt", ".vtt": "vtt", ".TextGrid": "textgrid",
                                                  ".eaf": "eaf"}, choose="or choose a format")

# The eleven columns written before trimmed chunks had a column of their own,
# and the twelve written before the review fields had theirs (both still read);
# the current header adds the interpreter's text, the confidence, the labels and the note.
LEGACY_PARALLEL_TSV_COLUMNS = ("talk", "src_ids", "tgt_ids", "src_start", "src_end", "tgt_start", "tgt_end", "cost", "status", "source", "target")
TRIMMED_PARALLEL_TSV_COLUMNS = LEGACY_PARALLEL_TSV_COLUMNS + ("trimmed_tgt_ids",)
REVIEW_TSV_COLUMNS = ("target_original", "confidence", "good_align", "good_mt", "note")
PARALLEL_TSV_COLUMNS = TRIMMED_PARALLEL_TSV_COLUMNS + REVIEW_TSV_COLUMNS
# With word links (``--links``): one more column, last, so readers of the others keep working.
LINKS_TSV_COLUMNS = PARALLEL_TSV_COLUMNS + ("links",)
# Every header the reader takes (older exports included).
KNOWN_TSV_HEADERS = (
    LEGACY_PARALLEL_TSV_COLUMNS, TRIMMED_PARALLEL_TSV_COLUMNS, TRIMMED_PARALLEL_TSV_COLUMNS + ("links",),
    PARALLEL_TSV_COLUMNS, LINKS_TSV_COLUMNS,
)


def kept_and_trimmed(bead: Bead) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(target ids whose text an export holds, target ids the intra filter trimmed), in bead order."""
    trimmed = set(bead.trimmed)
    return tuple(i for i in bead.tgt if i not in trimmed), tuple(i for i in bead.tgt if i in trimmed)


# Exported times keep millisecond precision, costs four decimals: enough for
# any use, and a TSV that reads back to exactly the same numbers.
TIME_DECIMALS = 3
COST_DECIMALS = 4


# ---------------------------------------------------------------------------
# Choosing beads


def select_beads(project: Project, *, only_confirmed: bool = False, include_dropped: bool = False) -> list[tuple[int, Bead]]:
    """(index, bead) pairs to export, in order.

    Raises:
        ExportError: the project has no alignment yet.
    """
    if project.alignment is None:
        raise ExportError(f"project {project.talk_id!r} has no alignment yet — align it before exporting")
    chosen = []
    for index, bead in enumerate(project.alignment.beads):
        if bead.status is BeadStatus.DROPPED:
            if include_dropped:
                chosen.append((index, bead))
        elif not only_confirmed or bead.status is BeadStatus.CONFIRMED:
            chosen.append((index, bead))
    return chosen


def _round(value: float | None, digits: int) -> float | None:
    if value is None or not math.isfinite(value):
        return None
    return round(float(value), digits)


# ---------------------------------------------------------------------------
# Parallel TSV


@dataclass
class AlignmentRow:
    """One line of the parallel TSV (times rounded to ms, cost to 4 decimals): what a TSV file holds.

    Written from a bead's :class:`~sialign.core.bead_rows.BeadRow` (:func:`tsv_row`)
    and what :func:`sialign.io.read_exports.read_parallel_tsv` reads back.
    """

    talk: str = ""
    src_ids: tuple[int, ...] = ()
    tgt_ids: tuple[int, ...] = ()
    src_start: float | None = None
    src_end: float | None = None
    tgt_start: float | None = None
    tgt_end: float | None = None
    cost: float | None = None
    status: str = ""
    source: str = ""
    target: str = ""
    trimmed_tgt_ids: tuple[int, ...] = ()
    target_original: str = ""
    confidence: float | None = None
    good_align: bool | None = None
    good_mt: bool | None = None
    note: str = ""
    links: str | None = None


def select_rows(project: Project, *, only_confirmed: bool = False, include_dropped: bool = False) -> list[tuple[BeadRow, Bead]]:
    """(row, bead) of each bead to export, in order (:func:`select_beads`; the row is :class:`~sialign.core.bead_rows.BeadRow`)."""
    chosen = select_beads(project, only_confirmed=only_confirmed, include_dropped=include_dropped)
    return [(bead_row(project, index, bead), bead) for index, bead in chosen]


def tsv_row(talk: str, row: BeadRow, *, links: bool = False) -> AlignmentRow:
    """The parallel TSV's line of a bead's row: the target's chunks, times rounded to ms, cost and confidence to 4 decimals."""
    return AlignmentRow(
        talk=talk,
        src_ids=row.src_ids,
        tgt_ids=row.kept_tgt_ids,
        trimmed_tgt_ids=row.trimmed_tgt_ids,
        src_start=_round(row.src_start, TIME_DECIMALS),
        src_end=_round(row.src_end, TIME_DECIMALS),
        tgt_start=_round(row.tgt_start, TIME_DECIMALS),
        tgt_end=_round(row.tgt_end, TIME_DECIMALS),
        cost=_round(row.cost, COST_DECIMALS),
        status=row.status,
        source=row.source,
        target=row.target,
        target_original=row.target_original,
        confidence=_round(row.confidence, COST_DECIMALS),
        good_align=row.good_align,
        good_mt=row.good_mt,
        note=row.note,
        links=(row.links or "") if links else None,
    )


def alignment_rows(project: Project, *, only_confirmed: bool = False, include_dropped: bool = False,
                   links: bool = False) -> list[AlignmentRow]:
    """The rows the parallel TSV holds for ``project`` (with ``links``: the stored word links of each, "" when none)."""
    chosen = select_rows(project, only_confirmed=only_confirmed, include_dropped=include_dropped)
    return [tsv_row(project.talk_id, row, links=links) for row, _ in chosen]


def _format_number(value: float | None, digits: int) -> str:
    if value is None:
        return ""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _format_label(value: bool | None) -> str:
    return "" if value is None else "1" if value else "0"


def format_tsv_row(row: AlignmentRow) -> str:
    """One line (no line break) of the parallel TSV."""
    fields = [
        row.talk,
        ",".join(str(i) for i in row.src_ids),
        ",".join(str(i) for i in row.tgt_ids),
        _format_number(row.src_start, TIME_DECIMALS),
        _format_number(row.src_end, TIME_DECIMALS),
        _format_number(row.tgt_start, TIME_DECIMALS),
        _format_number(row.tgt_end, TIME_DECIMALS),
        _format_number(row.cost, COST_DECIMALS),
        row.status,
        row.source,
        row.target,
        ",".join(str(i) for i in row.trimmed_tgt_ids),
        row.target_original,
        _format_number(row.confidence, COST_DECIMALS),
        _format_label(row.good_align),
        _format_label(row.good_mt),
        row.note,
    ]
    if row.links is not None:
        fields.append(row.links)
    return "\t".join(escape_tsv_field(f) for f in fields)


_TSV_BREAKERS = re.compile(r"[\t\n\r\x00\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def raw_tsv_field(value: str) -> str:
    """``value`` for the two-column TSV: unescaped, characters that would break a row become spaces."""
    return _TSV_BREAKERS.sub(" ", value)


def tsv_line(row: AlignmentRow, *, two_column: bool = False) -> str | None:
    """One row of the parallel TSV, or of the two-column ``source<TAB>target`` one, with its newline.

    The one row writer of a talk's export and of the pooled corpus export. A
    two-column file is for training: a bead with one side empty (an omission,
    an addition) has no pair and is left out (None).
    """
    if not two_column:
        return format_tsv_row(row) + "\n"
    if not row.source.strip() or not row.target.strip():
        return None
    return raw_tsv_field(row.source) + "\t" + raw_tsv_field(row.target) + "\n"


def write_parallel_tsv(rows: list[AlignmentRow], path: str | Path, *, two_column: bool = False) -> int:
    """Write rows as the parallel TSV (or ``source<TAB>target``); returns rows written."""
    written = 0
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        if not two_column:
            fh.write(_tsv_head(links=any(row.links is not None for row in rows)))
        for row in rows:
            if (line := tsv_line(row, two_column=two_column)) is not None:
                fh.write(line)
                written += 1
    return written


# ---------------------------------------------------------------------------
# JSONL


def _finite(value: float | None) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def alignment_records(project: Project, *, only_confirmed: bool = False, include_dropped: bool = False,
                      links: bool = False) -> list[dict[str, Any]]:
    """One JSON-ready dict per exported bead, with every field of the bead.

    Keys: talk, index (0-based position in the alignment), bead (the same
    counted from 1, as the app, the table and ``sialign explain`` number
    beads), src_ids, tgt_ids (the
    target chunks the ``target`` text holds), trimmed_tgt_ids (the chunks
    the intra filter trimmed from it), src_positions, tgt_positions (0-based
    positions in the documents, of src_ids and tgt_ids),
    src_start, src_end, tgt_start, tgt_end, cost, confidence (the aligner's
    learned probability that the bead is right, None where it did not score
    it), status, reason, good_align, good_mt, note, post_edit, trimmed
    (target ids), flags,
    doubt (the learned filter's probability that the bead is wrong, None
    until ``sialign filter --learned`` or the app's doubt filter ran),
    source, target (output text), target_original (every target chunk, no
    post-edit), trimmed_text, src_texts, tgt_texts (segment by segment, of
    src_ids and tgt_ids).

    With ``links``, also: src_tokens and tgt_tokens (the words of ``source``
    and ``target``, :func:`sialign.links.tokenize`), links (0-based ``i-j``
    pairs into those token lists, the Pharaoh format; None for a bead with
    no stored links) and links_aligner (the word aligner's name).
    """
    src, tgt = project.source, project.target
    records = []
    for row, bead in select_rows(project, only_confirmed=only_confirmed, include_dropped=include_dropped):
        kept = row.kept_tgt_ids
        records.append(
            {
                "talk": project.talk_id,
                "index": row.number - 1,
                "bead": row.number,
                "src_ids": list(row.src_ids),
                "tgt_ids": list(kept),
                "trimmed_tgt_ids": list(row.trimmed_tgt_ids),
                "src_positions": [src.index_of(i) for i in row.src_ids],
                "tgt_positions": [tgt.index_of(i) for i in kept],
                "src_start": _finite(row.src_start),
                "src_end": _finite(row.src_end),
                "tgt_start": _finite(row.tgt_start),
                "tgt_end": _finite(row.tgt_end),
                "cost": _finite(row.cost),
                "confidence": row.confidence,
                "status": row.status,
                "reason": row.reason,
                "good_align": row.good_align,
                "good_mt": row.good_mt,
                "note": row.note,
                "post_edit": bead.post_edit,
                "trimmed": list(row.trimmed_tgt_ids),
                "flags": [{k: (_finite(v) if k in ("score", "threshold") else v) for k, v in f.to_dict().items()} for f in bead.flags],
                "doubt": row.doubt,
                "source": row.source,
                "target": row.target,
                "target_original": row.target_original,
                "trimmed_text": join_segments(tgt, row.trimmed_tgt_ids),
                "src_texts": [src.get(i).text for i in row.src_ids],
                "tgt_texts": [tgt.get(i).text for i in kept],
            }
        )
        if links:
            stored = links_of(project, bead)
            records[-1].update(
                src_tokens=[t for t, _, _ in stored.src_tokens] if stored else [],
                tgt_tokens=[t for t, _, _ in stored.tgt_tokens] if stored else [],
                links=row.links,
                links_aligner=project.word_links.aligner if stored and project.word_links else None,
            )
    return records


def json_line(record: dict[str, Any]) -> str:
    """Compact JSON with U+2028/U+2029 escaped.

    Both are valid raw inside JSON strings, but JavaScript before ES2019 and
    every line splitter that follows Unicode (Python's ``str.splitlines``)
    breaks a line there. They can only occur inside strings, so replacing
    them in the output text is safe.
    """
    text = json.dumps(record, ensure_ascii=False, allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def write_jsonl(records: list[dict[str, Any]], path: str | Path) -> int:
    """One compact JSON object per line (UTF-8, not ASCII-escaped); returns lines written."""
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(json_line(record) + "\n")
    return len(records)


# ---------------------------------------------------------------------------
# TMX 1.4


def tmx_head(src_lang: str, talk_id: str | None = None) -> str:
    """A TMX 1.4 document up to its ``<body>``; the header names the talk when it holds one talk."""
    created = _dt.datetime.now(_dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    header = (
        f'<header creationtool="SI Aligner" creationtoolversion={xml_attr(__version__)} datatype="plaintext" '
        f'segtype="sentence" adminlang="en" srclang={xml_attr(src_lang)} o-tmf="sialign" creationdate="{created}">'
    )
    talk = f'    <prop type="x-talk">{xml_text(talk_id)}</prop>\n' if talk_id is not None else ""
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  {header}\n{talk}  </header>\n  <body>\n'


TMX_TAIL = "  </body>\n</tmx>\n"


def tmx_units(project: Project, beads: list[tuple[int, Bead]], *, talk: bool = False) -> Iterator[str]:
    """One ``<tu>`` element (with its line break) per bead with text on both sides.

    ``talk``: each unit carries the talk's id (``x-talk``), for a file that
    pools many talks (:func:`write_pooled`).
    """
    src_lang = project.source.language or "und"
    tgt_lang = project.target.language or "und"
    for index, bead in beads:
        source = bead_text(bead, project.source, "src")
        target = bead_text(bead, project.target, "tgt")
        if not source.strip() or not target.strip():
            continue
        lines = [f"    <tu tuid={xml_attr(str(index + 1))} srclang={xml_attr(src_lang)}>\n"]
        if bead.note:
            lines.append(f"      <note>{xml_text(bead.note)}</note>\n")
        kept, trimmed = kept_and_trimmed(bead)
        props = [("x-talk", project.talk_id)] if talk else []
        props += [
            ("x-status", bead.status.value),
            ("x-src-ids", ",".join(map(str, bead.src))),
            ("x-tgt-ids", ",".join(map(str, kept))),
        ]
        if trimmed:
            props.append(("x-trimmed-tgt-ids", ",".join(map(str, trimmed))))
        cost = _round(bead.cost, COST_DECIMALS)
        if cost is not None:
            props.append(("x-cost", _format_number(cost, COST_DECIMALS)))
        if bead.reason:
            props.append(("x-reason", bead.reason))
        for ptype, value in props:
            lines.append(f"      <prop type={xml_attr(ptype)}>{xml_text(value)}</prop>\n")
        for lang, text, doc, side in ((src_lang, source, project.source, "src"), (tgt_lang, target, project.target, "tgt")):
            start, end = bead_times(bead, doc, side)
            lines.append(f"      <tuv xml:lang={xml_attr(lang)}>\n")
            if start is not None and end is not None:
                lines.append(f'        <prop type="x-start">{format_seconds(start)}</prop>\n')
                lines.append(f'        <prop type="x-end">{format_seconds(end)}</prop>\n')
            lines.append(f"        <seg>{xml_text(text)}</seg>\n      </tuv>\n")
        lines.append("    </tu>\n")
        yield "".join(lines)


def talk_rows(project: Project, fmt: str, *, only_confirmed: bool = False, include_dropped: bool = False,
              links: bool = False, pooled: bool = False) -> list[str]:
    """The rows of a talk's export in a pooling format, each with its line break, without the file's head and tail.

    The one row writer of a talk's file (:func:`write_alignment`) and of a
    corpus file (:func:`write_pooled`), so a talk's rows are the same in
    both: ``tsv`` lines (the talk's id in the first column), ``tsv2`` pairs
    (a bead with one side empty is left out), ``jsonl`` records (with
    ``talk``) and ``tmx`` units (a bead with one side empty is left out).
    Word links (``links``) go into ``tsv`` and ``jsonl`` rows only.

    ``pooled``: the rows go into a file of many talks, so each carries the
    talk's id where the format has no column for it: a TMX unit gets an
    ``x-talk`` prop (a talk's own file names the talk in its header). The
    other formats' rows are the same either way.

    Raises:
        ExportError: the talk is not aligned (before anything is written), or
            ``fmt`` holds one talk per file.
    """
    if fmt in ("tsv", "tsv2"):
        rows = alignment_rows(project, only_confirmed=only_confirmed, include_dropped=include_dropped, links=links)
        return [line for row in rows if (line := tsv_line(row, two_column=fmt == "tsv2")) is not None]
    if fmt == "jsonl":
        records = alignment_records(project, only_confirmed=only_confirmed, include_dropped=include_dropped, links=links)
        return [json_line(record) + "\n" for record in records]
    if fmt == "tmx":
        return list(tmx_units(project, select_beads(project, only_confirmed=only_confirmed, include_dropped=include_dropped), talk=pooled))
    raise ExportError(f"a {fmt} file holds one talk — pooled exports are {', '.join(POOLED_FORMATS)}")


def _tsv_head(*, links: bool) -> str:
    return "\t".join(LINKS_TSV_COLUMNS if links else PARALLEL_TSV_COLUMNS) + "\n"


def write_talk_rows(project: Project, path: str | Path, fmt: str, *, only_confirmed: bool = False,
                    include_dropped: bool = False, links: bool = False) -> int:
    """A talk's file in a pooling format: its head (TSV header, TMX header naming the talk), :func:`talk_rows`, its tail; returns rows written."""
    rows = talk_rows(project, fmt, only_confirmed=only_confirmed, include_dropped=include_dropped, links=links)
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        if fmt == "tsv":
            fh.write(_tsv_head(links=links))
        elif fmt == "tmx":
            fh.write(tmx_head(project.source.language or "und", project.talk_id))
        fh.writelines(rows)
        if fmt == "tmx":
            fh.write(TMX_TAIL)
    return len(rows)


def write_pooled(projects: Iterable[Project], path: str | Path, fmt: str, *, only_confirmed: bool = False) -> tuple[int, int]:
    """Write many talks' beads into one file of a pooling format, one talk at a time; returns (talks, rows).

    ``fmt`` is a key of :data:`~sialign.io.export_formats.POOLED_FORMATS`:
    ``tsv`` (the header once), ``tsv2``, ``jsonl`` or ``tmx`` (one header
    naming no talk). Each talk's rows are those of its own export
    (:func:`talk_rows`), a TMX unit adding its talk's id. Only one talk is
    held at a time; the file is replaced atomically when every talk is
    written.

    Raises:
        ExportError: ``fmt`` holds one talk per file.
    """
    if fmt not in POOLED_FORMATS:
        raise ExportError(f"a {fmt} file holds one talk — pooled exports are {', '.join(POOLED_FORMATS)}")
    talks = rows = 0
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        if fmt == "tsv":
            fh.write(_tsv_head(links=False))
        for project in projects:
            if fmt == "tmx" and talks == 0:
                fh.write(tmx_head(project.source.language or "und"))
            talks += 1
            lines = talk_rows(project, fmt, only_confirmed=only_confirmed, pooled=True)
            fh.writelines(lines)
            rows += len(lines)
        if fmt == "tmx":
            if talks == 0:
                fh.write(tmx_head("und"))
            fh.write(TMX_TAIL)
    return talks, rows


# ---------------------------------------------------------------------------
# vecalign


def format_vecalign_bead(src_positions: list[int], tgt_positions: list[int], cost: float | None = None) -> str:
    """``[0, 1]:[2]:0.123456`` (cost left out when unknown)."""
    text = f"[{', '.join(map(str, src_positions))}]:[{', '.join(map(str, tgt_positions))}]"
    if cost is not None and math.isfinite(cost):
        text += f":{cost:.6f}"
    return text


def skip_cost(project: Project, bead: Bead) -> float | None:
    """What the aligner charged for a 1-0 or 0-1 bead (its skip penalty), None when the alignment does not say."""
    settings = project.alignment.info.get("cost_settings") if project.alignment is not None else None
    if not isinstance(settings, dict):
        return None
    value = settings.get("omission_skip") if bead.src and not bead.tgt else None
    if value is None:
        value = settings.get("skip")
    return float(value) if isinstance(value, (int, float)) else None


def write_vecalign(project: Project, path: str | Path, beads: list[tuple[int, Bead]]) -> int:
    """vecalign's alignment format with 0-based segment positions; returns lines written.

    A skip (1-0, 0-1) carries the cost the aligner charged for it, as
    vecalign writes its own deletions, when the alignment records it.
    """
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        for _, bead in beads:
            src_pos = [project.source.index_of(i) for i in bead.src]
            tgt_pos = [project.target.index_of(i) for i in bead.tgt]
            known = bead.cost is not None and math.isfinite(bead.cost)
            cost = bead.cost if known or not bead.is_skip else skip_cost(project, bead)
            fh.write(format_vecalign_bead(src_pos, tgt_pos, cost) + "\n")
    return len(beads)


# ---------------------------------------------------------------------------
# Praat / ELAN with aligned tiers


def aligned_tiers(project: Project, beads: list[tuple[int, Bead]]) -> list[tuple[str, list[Interval]]]:
    """Tiers ``source``, ``target`` and ``bead`` for the chosen beads.

    Raises:
        ExportError: a bead side has no times, or overlaps the previous bead
            on that side (tiers cannot hold overlapping intervals).
    """
    tiers: dict[str, list[Interval]] = {"source": [], "target": [], "bead": []}
    for index, bead in beads:
        for side, doc, name in (("src", project.source, "source"), ("tgt", project.target, "target")):
            if not (bead.src if side == "src" else bead.tgt):
                continue
            start, end = bead_times(bead, doc, side)
            if start is None or end is None:
                raise ExportError(
                    f"bead {index + 1} has no {name} times — Praat and ELAN tiers need a timed {name} transcript (SRT, VTT, TextGrid, EAF or TSV with times)"
                )
            items = tiers[name]
            if items and start < items[-1][1] - 1e-6:
                raise ExportError(f"bead {index + 1} overlaps the bead before it on the {name} side; correct the segment times first")
            items.append((start, end, bead_text(bead, doc, side)))
            if name == "source":
                cost = _round(bead.cost, COST_DECIMALS)
                label = f"{index + 1} {bead.kind} {bead.status.value}" + (f" cost {_format_number(cost, COST_DECIMALS)}" if cost is not None else "")
                tiers["bead"].append((start, end, label))
    return list(tiers.items())


def write_aligned_tiers(project: Project, path: str | Path, beads: list[tuple[int, Bead]], fmt: str) -> int:
    """Write the aligned tiers as a TextGrid or EAF; returns beads written."""
    tiers = aligned_tiers(project, beads)
    # A project's audio paths are relative to the project file's folder, not
    # to the folder the export runs in.
    media = linked_media(project.path, [("source", project.source.audio_path), ("target", project.target.audio_path)])
    text = textgrid_text(tiers) if fmt == "textgrid" else eaf_text(tiers, media, path)
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    return len(beads)


# ---------------------------------------------------------------------------
# Subtitles of one side


def subtitle_cues(project: Project, beads: list[tuple[int, Bead]], side: str) -> list[tuple[float, float, str]]:
    """(start, end, text) of one side's cue per bead that has text there.

    Raises:
        ExportError: a bead's side has no times.
    """
    doc = project.source if side == "src" else project.target
    name = "source" if side == "src" else "target"
    cues = []
    for index, bead in beads:
        ids = bead.src if side == "src" else kept_and_trimmed(bead)[0] or bead.tgt
        text = bead_text(bead, doc, side)
        if not ids or not text.strip():
            continue
        start, end = doc.get(ids[0]).start, doc.get(ids[-1]).end
        if start is None or end is None:
            raise ExportError(
                f"bead {index + 1} has no {name} times — subtitles need a timed {name} transcript (SRT, VTT, TextGrid, EAF or TSV with times)"
            )
        cues.append((start, max(start, end), text))
    return cues


def write_side_subtitles(project: Project, path: str | Path, beads: list[tuple[int, Bead]], fmt: str) -> int:
    """SRT or WebVTT subtitles of one side (``fmt`` like ``"srt-target"``); returns cues written."""
    side = export_format(fmt).subtitle_side or "tgt"
    cues = subtitle_cues(project, beads, side)
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        if fmt.startswith("srt"):
            for i, (start, end, text) in enumerate(cues, start=1):
                fh.write(f"{i}\n{format_srt_time(start)} --> {format_srt_time(end)}\n{_caption_text(text)}\n\n")
        else:
            fh.write("WEBVTT\n\n")
            for start, end, text in cues:
                fh.write(f"{format_vtt_time(start)} --> {format_vtt_time(end)}\n{escape_vtt_text(_caption_text(text))}\n\n")
    return len(cues)


# ---------------------------------------------------------------------------
# Alignment entry point


def alignment_format_for(path: str | Path, format: str | None = None, *, two_column: bool = False) -> str:
    """The alignment format from ``format`` or the file extension."""
    if format:
        key = format.strip().lower().lstrip(".")
        if key not in ALIGNMENT_FORMATS:
            raise ExportError(f"unknown export format {format!r} — use one of {', '.join(ALIGNMENT_FORMATS)}")
    else:
        if Path(path).suffix.lower() in SUBTITLE_SUFFIXES:
            kind = Path(path).suffix.lower().lstrip(".")
            raise OutputNameError(f"{Path(path).name!r}: say which side the subtitles show — format {kind}-source or {kind}-target")
        key = ALIGNMENT_FILES.format_of(path)
    if key == "tsv" and two_column:
        key = "tsv2"
    return key


def write_alignment(project: Project, path: str | Path, *, format: str | None = None, only_confirmed: bool = False,
                    include_dropped: bool = False, two_column: bool = False, links: bool = False) -> int:
    """Export the project's alignment; returns the number of rows (beads) written.

    Args:
        project: a project with an alignment.
        path: the output file (replaced atomically).
        format: ``tsv``, ``tsv2``, ``jsonl``, ``tmx``, ``align``,
            ``textgrid``, ``eaf`` or a side's subtitles (``srt-source``,
            ``srt-target``, ``vtt-source``, ``vtt-target``); from the
            extension when None.
        only_confirmed: export confirmed beads only.
        include_dropped: export dropped beads too (the ``align`` format
            includes them anyway unless ``only_confirmed``: it describes the
            whole segmentation).
        two_column: with ``tsv``, write ``source<TAB>target`` only.
        links: with ``tsv`` and ``jsonl``, add the project's stored word
            links (a last ``links`` column; JSONL: tokens and links). Draw
            them first (:func:`sialign.workflows.word_links.update_word_links`).

    Raises:
        ExportError: no alignment, or an unknown format.
    """
    fmt = alignment_format_for(path, format, two_column=two_column)
    if export_format(fmt).pools:
        return write_talk_rows(project, path, fmt, only_confirmed=only_confirmed, include_dropped=include_dropped, links=links)
    if export_format(fmt).subtitle_side is not None:
        return write_side_subtitles(project, path, select_beads(project, only_confirmed=only_confirmed, include_dropped=include_dropped), fmt)
    if fmt in ("textgrid", "eaf"):
        return write_aligned_tiers(project, path, select_beads(project, only_confirmed=only_confirmed, include_dropped=include_dropped), fmt)
    # The vecalign format describes the whole segmentation: dropped beads stay
    # in unless only confirmed beads were asked for.
    keep_dropped = include_dropped or not only_confirmed
    return write_vecalign(project, path, select_beads(project, only_confirmed=only_confirmed, include_dropped=keep_dropped))


# ---------------------------------------------------------------------------
# Transcripts (for ``sialign convert``)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _require_times(doc: Document, fmt: str, *, ordered: bool) -> None:
    for i, seg in enumerate(doc.segments):
        if seg.start is None or seg.end is None:
            where = f"line {seg.line}" if seg.line else f"segment {i + 1}"
            raise ExportError(
                f"{doc.path or 'the transcript'}, {where}: segment {_one_line(seg.text)[:40]!r} has no times, "
                f"and {fmt} needs start and end times — write txt or tsv instead"
            )
        if ordered and i and seg.start < doc.segments[i - 1].end - 1e-6:  # type: ignore[operator]
            raise ExportError(
                f"{doc.path or 'the transcript'}: segment {i + 1} ({_one_line(seg.text)[:40]!r}) overlaps the one before it; "
                f"{fmt} tiers cannot hold overlapping intervals"
            )


def _caption_text(text: str) -> str:
    # A blank line inside a caption would end it early.
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def transcript_format_for(path: str | Path, format: str | None = None) -> str:
    """The transcript format from ``format`` or the file extension."""
    from sialign.io.readers import normalise_format

    if format:
        return normalise_format(format)
    return TRANSCRIPT_FILES.format_of(path)


def write_transcript(doc: Document, path: str | Path, *, format: str | None = None, tier_name: str | None = None) -> int:
    """Write a document as a transcript; returns the number of segments written.

    ``txt`` and ``tsv`` put each segment on one line (line breaks inside a
    segment become spaces); ``srt``/``vtt`` keep them as caption lines;
    ``textgrid`` writes one interval tier (gaps become empty intervals) and
    ``eaf`` one tier, both named ``tier_name`` (default: the language).

    Raises:
        ExportError: a timed format for segments without times, or
            overlapping segments for TextGrid/EAF.
    """
    fmt = transcript_format_for(path, format)
    segments = doc.segments
    name = tier_name or doc.language or "transcript"
    if fmt in ("srt", "vtt"):
        _require_times(doc, fmt.upper(), ordered=False)
    elif fmt in ("textgrid", "eaf"):
        _require_times(doc, "TextGrid" if fmt == "textgrid" else "ELAN", ordered=True)
    with atomic_open(path, "w", encoding="utf-8", newline="\n") as fh:
        if fmt == "txt":
            for seg in segments:
                fh.write(_one_line(seg.text) + "\n")
        elif fmt == "tsv":
            fh.write("start\tend\ttext\n")
            for seg in segments:
                fh.write(f"{format_seconds(seg.start)}\t{format_seconds(seg.end)}\t{_one_line(seg.text)}\n")
        elif fmt == "srt":
            for i, seg in enumerate(segments, start=1):
                assert seg.start is not None and seg.end is not None
                fh.write(f"{i}\n{format_srt_time(seg.start)} --> {format_srt_time(seg.end)}\n{_caption_text(seg.text)}\n\n")
        elif fmt == "vtt":
            fh.write("WEBVTT\n\n")
            for seg in segments:
                assert seg.start is not None and seg.end is not None
                text = escape_vtt_text(_caption_text(seg.text))
                if seg.speaker:
                    text = f"<v {escape_vtt_text(seg.speaker)}>{text}"
                fh.write(f"{format_vtt_time(seg.start)} --> {format_vtt_time(seg.end)}\n{text}\n\n")
        else:
            # _require_times checked above that every segment has both times.
            timed = [(float(s.start or 0.0), float(s.end or 0.0), s.text) for s in segments]
            if fmt == "textgrid":
                fh.write(textgrid_text([(name, timed)]))
            else:
                fh.write(eaf_text([(name, timed)], [doc.audio_path] if doc.audio_path else [], path))
    return len(segments)


def escape_vtt_text(text: str) -> str:
    """WebVTT cue text: ``&``, ``<`` and ``>`` as character references (also keeps ``-->`` out)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


