"""Tag projection: a tagged source's inline tags, carried onto the interpretation through the word links.

The detag-and-project method of Ryu, Choi and Kim, "Data Augmentation for
Inline Tag-Aware Neural Machine Translation" (after Hanneman and Dinu 2020): the source is aligned on its plain text; each tag's words are
looked up in the bead's word links, and the tag is put back around the
interpretation words linked to them. When they link to several places the
tag surrounds the **minimal span** covering all of them (Min-Max tag pair
projection, Zenkel et al. 2021) — one tag, never a split one.

The tags come from the tagged source file itself, read again with its
markup (:func:`read_tagged_source`): the project holds the plain text it
was aligned on, and the tagged file is matched to it word by word, so the
tagged file may be the one the project was made from or a tagged copy of
it (``--tagged``). A tag that crosses a bead boundary is projected in each
bead separately.

Qt-free; ``sialign project-tags`` writes the results as SRT or WebVTT
(the interpretation's chunks, tags inserted), JSONL (per bead, the tags
with their source and target spans) or ELAN EAF (source and target tiers,
and a tier per tag name on each side).
"""

from __future__ import annotations

import difflib
import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sialign.core.errors import ExportError, SialignError
from sialign.core.model import Document, Project
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.io.output_formats import OutputFormats
from sialign.review.bead_words import BeadWords, Piece, bead_words, running_text
from sialign.text.inline_tags import InlineTag, insert_inline_tags, strip_inline_tags

TAG_FORMATS = ("srt", "vtt", "jsonl", "eaf")
# Projected tags are written in one of these, told from the extension (TAG_FILES.format_of(path)).
TAG_FILES = OutputFormats("projected tags", {f".{fmt}": fmt for fmt in TAG_FORMATS}, plural=True)


@dataclass(frozen=True)
class SourceTag:
    """A tag of the tagged source, placed in one bead of the project.

    Attributes:
        tag: the tag, its span in the bead's source running text.
        bead: 0-based bead index.
    """

    tag: InlineTag
    bead: int


@dataclass(frozen=True)
class ProjectedTag:
    """Where one source tag landed in the interpretation.

    Attributes:
        source: the tag in the source (span in the bead's source running text).
        target: the projected tag (span in the bead's target running text), or
            None when nothing could be linked.
        linked: the target word indices the tag's words link to.
        reason: why there is no target span (empty otherwise).
    """

    source: SourceTag
    target: InlineTag | None
    linked: tuple[int, ...] = ()
    reason: str = ""


@dataclass
class TagProjection:
    """The result of :func:`project_tags`.

    Attributes:
        tags: every source tag found in the project, in bead order.
        lost: tags of the tagged file whose words are not in the project's
            source (the text was edited), as ``(name, text)``.
        beads: the words and links of each bead that holds a tag.
        aligner: which word aligner drew the links.
    """

    tags: list[ProjectedTag] = field(default_factory=list)
    lost: list[tuple[str, str]] = field(default_factory=list)
    beads: dict[int, BeadWords] = field(default_factory=dict)
    aligner: str = ""

    @property
    def projected(self) -> list[ProjectedTag]:
        return [t for t in self.tags if t.target is not None]

    def summary(self) -> str:
        """One line: how many tags were projected, and why the others were not."""
        from sialign.core.plurals import count_noun

        line = f"{len(self.projected)} of {count_noun(len(self.tags), 'tag')} projected onto the interpretation"
        unlinked = len(self.tags) - len(self.projected)
        if unlinked:
            line += f" ({unlinked} with no linked interpretation words)"
        if self.lost:
            line += f"; {count_noun(len(self.lost), 'tag')} of the tagged file not found in the project's source"
        return line


def _unescape_for(path: str | Path, fmt: str | None) -> Any:
    if fmt == "vtt":
        from sialign.io.read_subtitles import unescape_vtt_text

        return unescape_vtt_text
    return None


def read_tagged_source(path: str | Path, language: str | None = None) -> list[tuple[str, tuple[InlineTag, ...]]]:
    """The segments of a tagged transcript as (plain text, tags), read with their markup kept.

    Raises:
        InputError: the file cannot be read as a transcript (file and line named).
    """
    from sialign.io.readers import read_transcript

    doc = read_transcript(path, language=language, keep_markup=True, strict=False)
    unescape = _unescape_for(path, doc.format)
    out = []
    for seg in doc.segments:
        tagged = strip_inline_tags(seg.text, unescape=unescape)
        out.append((tagged.plain, tagged.tags))
    return out


def _words_with_starts(chars: list[str]) -> tuple[list[str], list[int]]:
    """Whitespace-free runs of a stream of characters where a space marks a word boundary."""
    words: list[str] = []
    starts: list[int] = []
    current: list[str] = []
    count = 0
    for ch in chars:
        if ch == " ":
            if current:
                words.append("".join(current))
                starts.append(count - len(current))
                current = []
            continue
        current.append(ch)
        count += 1
    if current:
        words.append("".join(current))
        starts.append(count - len(current))
    return words, starts


def place_source_tags(project: Project, segments: list[tuple[str, tuple[InlineTag, ...]]]) -> tuple[list[SourceTag], list[tuple[str, str]]]:
    """The tags of a tagged transcript, placed in the beads of ``project``.

    The tagged text and the project's source are compared word by word
    (whitespace ignored, so a different sentence segmentation or line
    layout does not matter); a tag keeps the characters that match.

    Returns:
        (tags per bead with spans in the bead's source running text, lost tags as (name, text)).
    """
    alignment = project.alignment
    assert alignment is not None
    # The tagged file as a stream of non-space characters, a space between words; tags as spans of that stream.
    t_chars: list[str] = []
    t_tags: list[tuple[InlineTag, int, int, str]] = []  # (tag, first, end) in non-space positions, text
    count = 0
    for plain, tags in segments:
        offsets: list[int] = []
        for ch in plain:
            offsets.append(count)
            if ch.isspace():
                t_chars.append(" ")
            else:
                t_chars.append(ch)
                count += 1
        offsets.append(count)
        t_chars.append(" ")
        for tag in tags:
            t_tags.append((tag, offsets[tag.start], offsets[tag.end], " ".join(plain[tag.start : tag.end].split())))
    # The project's source, bead by bead, in the same form; each non-space character knows its bead and offset.
    s_chars: list[str] = []
    s_where: list[tuple[int, int]] = []
    for k, bead in enumerate(alignment.beads):
        text, _pieces = running_text(project.source, bead.src)
        for offset, ch in enumerate(text):
            if ch.isspace():
                s_chars.append(" ")
            else:
                s_chars.append(ch)
                s_where.append((k, offset))
        s_chars.append(" ")
    t_words, t_starts = _words_with_starts(t_chars)
    s_words, s_starts = _words_with_starts(s_chars)
    char_map: dict[int, int] = {}
    if t_words == s_words:
        blocks = [(0, 0, len(t_words))]
    else:
        blocks = [(b.a, b.b, b.size) for b in difflib.SequenceMatcher(None, t_words, s_words, autojunk=False).get_matching_blocks()]
    for a, b, size in blocks:
        for k in range(size):
            for c in range(len(t_words[a + k])):
                char_map[t_starts[a + k] + c] = s_starts[b + k] + c
    placed: list[SourceTag] = []
    lost: list[tuple[str, str]] = []
    for tag, first, end, text in t_tags:
        hits = [char_map[p] for p in range(first, end) if p in char_map]
        if not hits:
            lost.append((tag.name, text))
            continue
        by_bead: dict[int, list[int]] = {}
        for p in hits:
            k, offset = s_where[p]
            by_bead.setdefault(k, []).append(offset)
        for k, offs in sorted(by_bead.items()):
            placed.append(SourceTag(InlineTag(tag.name, tag.attrs, min(offs), max(offs) + 1), k))
    placed.sort(key=lambda t: (t.bead, t.tag.start, -t.tag.end))
    return placed, lost


def _is_punctuation(text: str) -> bool:
    return all(unicodedata.category(ch)[0] in "PS" for ch in text)


def project_one(bw: BeadWords, tag: InlineTag) -> tuple[InlineTag | None, tuple[int, ...], str]:
    """The projected tag of one source tag in one bead: around the minimal span of the linked target words.

    Returns:
        (target tag or None, linked target word indices, reason when None).
    """
    if not bw.tgt_words:
        return None, (), "the bead has no interpretation"
    src = bw.words_in("src", tag.start, tag.end)
    linked = tuple(bw.targets_of(src))
    if not linked:
        return None, (), "no interpretation word is linked to the tagged words"
    # A comma linked to a comma would pull the tag over the punctuation beside the words.
    words = tuple(j for j in linked if not _is_punctuation(bw.tgt_words[j].text))
    linked = words or linked
    first, last = bw.tgt_words[linked[0]], bw.tgt_words[linked[-1]]
    return InlineTag(tag.name, tag.attrs, first.start, last.end), linked, ""


def project_tags(
    project: Project,
    tagged_path: str | Path | None = None,
    *,
    linker: Any = None,
    progress: ProgressFn | None = None,
    should_stop: StopFn | None = None,
) -> TagProjection:
    """Project the inline tags of the tagged source onto the interpretation.

    Args:
        project: an aligned project.
        tagged_path: the tagged source transcript (default: the file the
            project's source was read from).
        linker: the word aligner (see :func:`sialign.review.bead_words.bead_words`).

    Raises:
        SialignError: no alignment, no tagged file, or no tag in it.
        InputError: the tagged file cannot be read.
    """
    alignment = project.alignment
    if alignment is None or not alignment.beads:
        where = f"{project.path}: " if project.path else ""
        raise SialignError(f"{where}the project has no alignment yet — align it first", settings=("align",))
    from sialign.core.stored_files import stored_file

    path = tagged_path or stored_file(project.source.path, project.path, "source.path")
    if not path:
        raise SialignError("the project's source was not read from a file — name the tagged source transcript", settings=("tagged",))
    segments = read_tagged_source(path, project.source.language)
    if not any(tags for _plain, tags in segments):
        raise SialignError(f"{path}: no inline tag (<i>, <b>, <term>…) in this transcript — name a tagged source transcript",
                           settings=("tagged",))
    check_stop(should_stop)
    placed, lost = place_source_tags(project, segments)
    beads = sorted({t.bead for t in placed})
    words = bead_words(project, beads, linker=linker, progress=progress, should_stop=should_stop) if beads else {}
    result = TagProjection(lost=lost, beads=words, aligner=str(getattr(linker, "name", "") or _default_aligner()))
    for source in placed:
        target, linked, reason = project_one(words[source.bead], source.tag)
        result.tags.append(ProjectedTag(source, target, linked, reason))
    return result


def _default_aligner() -> str:
    from sialign.links import ALIGNER_NAME

    return ALIGNER_NAME


# ---- output -----------------------------------------------------------------
def _cut_to_segments(tag: InlineTag, pieces: list[Piece]) -> list[tuple[int, InlineTag]]:
    """``tag`` (a span of a bead's running text) as (segment id, span in the segment's collapsed text) parts."""
    parts = []
    for piece in pieces:
        start, end = max(tag.start, piece.start), min(tag.end, piece.end)
        if start < end:
            parts.append((piece.seg_id, InlineTag(tag.name, tag.attrs, start - piece.start, end - piece.start)))
    return parts


def target_segment_tags(project: Project, result: TagProjection) -> dict[int, list[InlineTag]]:
    """The projected tags cut to the interpretation's segments: segment id → tags with spans in its text (whitespace collapsed)."""
    out: dict[int, list[InlineTag]] = {}
    for projected in result.tags:
        if projected.target is not None:
            for seg_id, part in _cut_to_segments(projected.target, result.beads[projected.source.bead].tgt_pieces):
                out.setdefault(seg_id, []).append(part)
    return out


def _timed_span(doc: Document, parts: list[tuple[int, InlineTag]], side: str) -> tuple[float, float]:
    """Start and end of a tag from its segments' times, read proportionally to the characters inside each segment.

    Raises:
        ExportError: a segment has no times.
    """
    times = []
    for seg_id, at in ((parts[0][0], parts[0][1].start), (parts[-1][0], parts[-1][1].end)):
        seg = doc.get(seg_id)
        if seg.start is None or seg.end is None:
            raise ExportError(f"{doc.path or 'the ' + side}: segment {doc.index_of(seg_id) + 1} has no times — "
                              "ELAN tiers need timed transcripts; write .jsonl instead")
        length = max(1, len(" ".join(seg.text.split())))
        times.append(seg.start + (max(seg.start, seg.end) - seg.start) * at / length)
    return times[0], max(times[0], times[1])


def tag_tiers(project: Project, result: TagProjection) -> list[tuple[str, list[tuple[float, float, str]]]]:
    """ELAN tiers: ``source`` and ``target`` (the segments), then per tag name ``source tag i`` and ``target tag i``.

    A tag's annotation holds the words it surrounds, timed by the share of
    its segment's characters before it (no word times are known);
    overlapping annotations of one tier (nested tags of one name) are merged.

    Raises:
        ExportError: a segment has no times.
    """
    tiers: list[tuple[str, list[tuple[float, float, str]]]] = []
    for name, doc, side in (("source", project.source, "source"), ("target", project.target, "interpretation")):
        items = []
        for seg in doc.segments:
            if seg.start is None or seg.end is None:
                raise ExportError(f"{doc.path or 'the ' + side}: segment {doc.index_of(seg.id) + 1} has no times — "
                                  "ELAN tiers need timed transcripts; write .jsonl instead")
            if seg.text.strip():
                items.append((seg.start, max(seg.start, seg.end), " ".join(seg.text.split())))
        tiers.append((name, items))
    by_tier: dict[str, list[tuple[float, float, str]]] = {}
    for projected in result.tags:
        bw = result.beads[projected.source.bead]
        for label, tag, pieces, text, doc, side in (
            ("source", projected.source.tag, bw.src_pieces, bw.src_text, project.source, "source"),
            ("target", projected.target, bw.tgt_pieces, bw.tgt_text, project.target, "interpretation"),
        ):
            parts = _cut_to_segments(tag, pieces) if tag is not None else []
            if parts:
                assert tag is not None
                start, end = _timed_span(doc, parts, side)
                by_tier.setdefault(f"{label} tag {tag.name}", []).append((start, end, text[tag.start : tag.end]))
    for name in sorted(by_tier, key=lambda n: (n.split(" ", 2)[2], n)):
        merged: list[tuple[float, float, str]] = []
        for start, end, text in sorted(by_tier[name]):
            if merged and start < merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]), f"{merged[-1][2]} … {text}")
            else:
                merged.append((start, end, text))
        tiers.append((name, merged))
    return tiers


def tagged_subtitles(project: Project, result: TagProjection, fmt: str) -> str:
    """The interpretation as SRT or WebVTT, one cue per chunk, projected tags inserted.

    Raises:
        ExportError: a chunk has no times.
    """
    from sialign.io.timecodes import format_srt_time, format_vtt_time
    from sialign.io.writers import escape_vtt_text

    by_segment = target_segment_tags(project, result)
    lines = [] if fmt == "srt" else ["WEBVTT", ""]
    number = 0
    for seg in project.target.segments:
        text = " ".join(seg.text.split())
        if not text:
            continue
        if seg.start is None or seg.end is None:
            where = f"line {seg.line}" if seg.line else f"segment {project.target.index_of(seg.id) + 1}"
            raise ExportError(f"{project.target.path or 'the interpretation'}, {where}: {text[:40]!r} has no times — "
                              f"{fmt.upper()} needs a timed interpretation; write .jsonl instead")
        number += 1
        tags = by_segment.get(seg.id, [])
        if fmt == "srt":
            lines += [str(number), f"{format_srt_time(seg.start)} --> {format_srt_time(max(seg.start, seg.end))}", insert_inline_tags(text, tags), ""]
        else:
            body = insert_inline_tags(text, tags, escape=escape_vtt_text)
            lines += [f"{format_vtt_time(seg.start)} --> {format_vtt_time(max(seg.start, seg.end))}", body, ""]
    return "\n".join(lines)


def tagged_records(project: Project, result: TagProjection) -> list[dict[str, Any]]:
    """One JSON record per bead with a tag: both running texts, plain and tagged, and each tag's spans (0-based, end exclusive)."""
    records: list[dict[str, Any]] = []
    by_bead: dict[int, list[ProjectedTag]] = {}
    for projected in result.tags:
        by_bead.setdefault(projected.source.bead, []).append(projected)
    for k, tags in sorted(by_bead.items()):
        bw = result.beads[k]
        items = []
        for p in tags:
            src = p.source.tag
            item: dict[str, Any] = {"tag": src.name, "attrs": src.attrs, "source_span": [src.start, src.end],
                                    "source_text": bw.src_text[src.start : src.end]}
            if p.target is not None:
                item["target_span"] = [p.target.start, p.target.end]
                item["target_text"] = bw.tgt_text[p.target.start : p.target.end]
                item["linked_words"] = [bw.tgt_words[j].text for j in p.linked]
            else:
                item["target_span"] = None
                item["reason"] = p.reason
            items.append(item)
        records.append({
            "talk": project.talk_id, "bead": k + 1, "source": bw.src_text, "target": bw.tgt_text,
            "source_tagged": insert_inline_tags(bw.src_text, [p.source.tag for p in tags]),
            "target_tagged": insert_inline_tags(bw.tgt_text, [p.target for p in tags if p.target is not None]),
            "tags": items, "aligner": result.aligner,
        })
    return records


def write_projected_tags(project: Project, result: TagProjection, path: str | Path) -> int:
    """Write the projection to ``path`` (format from the extension), atomically; returns cues or records written."""
    from sialign.core.atomic import atomic_write_text

    fmt = TAG_FILES.format_of(path)
    if fmt == "eaf":
        from sialign.core.stored_files import linked_media
        from sialign.io.tier_files import eaf_text  # the EAF writer of the alignment exports

        tiers = tag_tiers(project, result)
        media = linked_media(project.path, [("source", project.source.audio_path), ("target", project.target.audio_path)])
        atomic_write_text(path, eaf_text(tiers, media, path))
        return sum(len(items) for name, items in tiers[2:])
    if fmt == "jsonl":
        records = tagged_records(project, result)
        atomic_write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
        return len(records)
    text = tagged_subtitles(project, result, fmt)
    atomic_write_text(path, text)
    return sum(1 for seg in project.target.segments if seg.text.strip())
