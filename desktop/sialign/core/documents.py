"""The pieces of a project: segments, documents, beads and alignments, and a bead's text and times.

Below :mod:`sialign.core.model` (which adds the :class:`~sialign.core.model.Project`
and re-exports every name here), so the modules a project is made of and shown
through (:mod:`sialign.core.word_links`, :mod:`sialign.core.bead_rows`) build on
these without importing the project. Nothing here imports Qt or any heavy library.

Losslessness: each :class:`Segment` keeps its exact original text plus the
whitespace that preceded it in the file (``gap``), so
``"".join(s.gap + s.text for s in doc.segments)`` is invariant under split,
merge and move (see :meth:`Document.full_text`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sialign.core.coverage import OMITTED, bead_state
from sialign.core.errors import InvariantError
from sialign.core.plurals import count_noun

# Languages written without spaces between words: segments are joined with
# "" instead of " " when a bead's text is assembled.
UNSPACED_LANGUAGES = frozenset({"ja", "zh", "th", "lo", "km", "my", "bo"})


def joiner_for(language: str) -> str:
    """The string that joins segments of ``language`` into running text."""
    return "" if language.split("-")[0].lower() in UNSPACED_LANGUAGES else " "


# What the review window writes when the reviewer drops a bead; a bead dropped with this reason, or none,
# is the reviewer's decision (:attr:`Bead.reviewer_dropped`).
REVIEWER_DROP_REASON = "dropped by the reviewer"


@dataclass
class Segment:
    """One unit of a transcript: a sentence, a caption or an interpreter chunk.

    Attributes:
        id: unique within its document, stable across edits (new segments
            created by a split get fresh ids).
        text: the exact original text (no trimming, no normalisation).
        start: start time in seconds, when known.
        end: end time in seconds, when known.
        line: 1-based line of the file the segment came from, when known.
        gap: the whitespace that separated this segment from the previous one
            in the original (``"\\n"`` between lines); part of the lossless
            invariant.
        speaker: who speaks, when the file says so (a WebVTT ``<v Name>``
            voice tag); empty otherwise.
    """

    id: int
    text: str
    start: float | None = None
    end: float | None = None
    line: int | None = None
    gap: str = ""
    speaker: str = ""

    @property
    def has_time(self) -> bool:
        return self.start is not None and self.end is not None

    @property
    def duration(self) -> float | None:
        if self.start is None or self.end is None:
            return None
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "text": self.text}
        if self.start is not None:
            d["start"] = self.start
        if self.end is not None:
            d["end"] = self.end
        if self.line is not None:
            d["line"] = self.line
        if self.gap:
            d["gap"] = self.gap
        if self.speaker:
            d["speaker"] = self.speaker
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Segment:
        return cls(
            id=int(d["id"]),
            text=str(d["text"]),
            start=d.get("start"),
            end=d.get("end"),
            line=d.get("line"),
            gap=d.get("gap", ""),
            speaker=d.get("speaker", ""),
        )


@dataclass
class Document:
    """An ordered list of segments in one language, with where it came from.

    Attributes:
        language: BCP-47-ish code such as ``"en"`` or ``"ja"``.
        segments: in reading order.
        path: the transcript file it was read from, when any.
        audio_path: the audio track it transcribes, when any.
        format: the reader that produced it (``"txt"``, ``"srt"``...).
        encoding: the detected text encoding of the file.
        warnings: doubts of the reader, each naming the line (not saved).
    """

    language: str = "und"
    segments: list[Segment] = field(default_factory=list)
    path: str | None = None
    audio_path: str | None = None
    format: str | None = None
    encoding: str | None = None
    # What the reader was unsure of (a guessed encoding, mixed encodings),
    # for the application to show; not saved in the project.
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.segments)

    def __repr__(self) -> str:
        where = f" from {self.path}" if self.path else ""
        return f"<Document {self.language}: {count_noun(len(self.segments), 'segment')}{where}>"

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)

    @property
    def joiner(self) -> str:
        return joiner_for(self.language)

    def full_text(self) -> str:
        """The lossless concatenation of all segments (gaps included)."""
        return "".join(s.gap + s.text for s in self.segments)

    def texts(self) -> list[str]:
        return [s.text for s in self.segments]

    def normalised_texts(self) -> list[str]:
        """Each segment's text as the aligner reads it: runs of whitespace as one space, none at the ends."""
        return [" ".join(s.text.split()) for s in self.segments]

    def ids(self) -> list[int]:
        return [s.id for s in self.segments]

    def index_of(self, seg_id: int) -> int:
        """Position of the segment with ``seg_id`` (a cached id→position map, checked on use)."""
        cache = self.__dict__.get("_positions")
        if cache is not None:
            i = cache.get(seg_id)
            if i is not None and i < len(self.segments) and self.segments[i].id == seg_id:
                return i
        cache = {s.id: i for i, s in enumerate(self.segments)}
        self.__dict__["_positions"] = cache
        try:
            return cache[seg_id]
        except KeyError:
            raise KeyError(f"no segment with id {seg_id}") from None

    def get(self, seg_id: int) -> Segment:
        return self.segments[self.index_of(seg_id)]

    def next_id(self) -> int:
        return max((s.id for s in self.segments), default=-1) + 1

    @property
    def has_times(self) -> bool:
        return bool(self.segments) and all(s.has_time for s in self.segments)

    @property
    def duration(self) -> float | None:
        ends = [s.end for s in self.segments if s.end is not None]
        return max(ends) if ends else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "path": self.path,
            "audio_path": self.audio_path,
            "format": self.format,
            "encoding": self.encoding,
            "segments": [s.to_dict() for s in self.segments],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Document:
        return cls(
            language=d.get("language", "und"),
            segments=[Segment.from_dict(s) for s in d.get("segments", [])],
            path=d.get("path"),
            audio_path=d.get("audio_path"),
            format=d.get("format"),
            encoding=d.get("encoding"),
        )

    @classmethod
    def from_texts(
        cls, texts: Iterable[str], language: str = "und", times: Iterable[tuple[float, float]] | None = None
    ) -> Document:
        """Build a document from plain strings (one segment each), for tests and the API."""
        texts = list(texts)
        spans = list(times) if times is not None else [(None, None)] * len(texts)
        segs = [
            Segment(id=i, text=t, start=a, end=b, line=i + 1, gap="" if i == 0 else "\n")
            for i, (t, (a, b)) in enumerate(zip(texts, spans))
        ]
        return cls(language=language, segments=segs)


class BeadStatus(StrEnum):
    AUTO = "auto"
    CONFIRMED = "confirmed"
    DROPPED = "dropped"


@dataclass
class Flag:
    """A filter's verdict on a bead: a score, its threshold and a reason.

    Attributes:
        name: the filter (``"alpha"``, ``"gamma"``, ``"eta"``, ``"omission"``...).
        score: the measured value, when numeric.
        threshold: the threshold it was compared with.
        reason: a sentence a trainer can read ("covers 1 of 4 content words").
        failed: True when the bead fails this check.
    """

    name: str
    score: float | None = None
    threshold: float | None = None
    reason: str = ""
    failed: bool = True

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Flag:
        return cls(**{k: d[k] for k in ("name", "score", "threshold", "reason", "failed") if k in d})


@dataclass
class Bead:
    """One aligned unit: a run of source segments with a run of target segments.

    Either side may be empty (1-0 omission, 0-1 addition). Ids refer to
    :attr:`Segment.id` of the project's source and target documents.

    Attributes:
        src: source segment ids, in document order and contiguous.
        tgt: target segment ids, in document order and contiguous.
        cost: alignment cost (lower is better; about 1 means unrelated).
        confidence: the learned bead score's probability that the bead is
            right (for a 1-0 bead: that the sentence has no rendition), set
            by the aligner; None where it did not score the bead (first pass
            only, or a bead a reviewer changed since).
        status: auto, confirmed or dropped.
        reason: why the bead was dropped (empty otherwise).
        good_align / good_mt: review labels (None = not judged).
        note: free text from the reviewer.
        post_edit: reviewer's corrected target text; the original stays in
            the target segments.
        trimmed: target ids (first and/or last of ``tgt``) that the intra
            filter excluded from the bead's output text; they still belong to
            the bead and can be restored.
        restored: target ids a reviewer restored after the intra filter had
            trimmed them; later filter runs never trim them again.
        flags: verdicts of the inter-sentence filters.
    """

    src: tuple[int, ...] = ()
    tgt: tuple[int, ...] = ()
    cost: float | None = None
    status: BeadStatus = BeadStatus.AUTO
    reason: str = ""
    good_align: bool | None = None
    good_mt: bool | None = None
    note: str = ""
    post_edit: str | None = None
    trimmed: tuple[int, ...] = ()
    flags: list[Flag] = field(default_factory=list)
    restored: tuple[int, ...] = ()
    confidence: float | None = None

    def __post_init__(self) -> None:
        self.src = tuple(self.src)
        self.tgt = tuple(self.tgt)
        self.trimmed = tuple(self.trimmed)
        self.restored = tuple(self.restored)
        if not isinstance(self.status, BeadStatus):
            self.status = BeadStatus(self.status)

    @property
    def kind(self) -> str:
        """``"2-3"`` style size label."""
        return f"{len(self.src)}-{len(self.tgt)}"

    @property
    def is_skip(self) -> bool:
        return not self.src or not self.tgt

    @property
    def failed_flags(self) -> list[Flag]:
        return [f for f in self.flags if f.failed]

    @property
    def flagged(self) -> bool:
        """A check failed on this bead and it is kept: the one meaning of "flagged".

        The status bar, *Next flagged*, ``sialign align``'s summary, the reports
        and the corpus figures all read it. A dropped bead counts as dropped,
        never also as flagged (it once counted as both, so the status bar said 7
        flagged where the filters had kept 5); a bead only trimmed of fillers is
        not flagged.
        """
        return self.status is not BeadStatus.DROPPED and any(f.failed for f in self.flags)

    @property
    def omission(self) -> bool:
        """Sentences left out: a bead with no target (:mod:`sialign.core.coverage`), whatever its status."""
        return bead_state(self) == OMITTED

    @property
    def reviewer_dropped(self) -> bool:
        """The reviewer (not the aligner, nor a filter) dropped this bead."""
        return self.status is BeadStatus.DROPPED and (self.reason == "" or self.reason.startswith(REVIEWER_DROP_REASON))

    @property
    def unreviewed(self) -> bool:
        """Neither confirmed nor dropped by the reviewer: the one meaning of "unreviewed".

        *Next unreviewed*, *Next most doubtful* and the doubt filter visit these;
        a bead the aligner or a filter dropped (an omission too) is still unreviewed.
        """
        return self.status is not BeadStatus.CONFIRMED and not self.reviewer_dropped

    def __repr__(self) -> str:
        # Short: a project's repr must not dump every field of every bead.
        cost = "" if self.cost is None else f", cost={self.cost:.3f}"
        flags = [f.name for f in self.failed_flags]
        extra = f", flags={flags}" if flags else ""
        return f"Bead(src={self.src}, tgt={self.tgt}{cost}, status={self.status.value!r}{extra})"

    def copy(self) -> Bead:
        return dataclasses.replace(self, flags=[dataclasses.replace(f) for f in self.flags])

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"src": list(self.src), "tgt": list(self.tgt), "cost": self.cost, "status": self.status.value}
        if self.confidence is not None:
            d["confidence"] = self.confidence
        if self.reason:
            d["reason"] = self.reason
        if self.good_align is not None:
            d["good_align"] = self.good_align
        if self.good_mt is not None:
            d["good_mt"] = self.good_mt
        if self.note:
            d["note"] = self.note
        if self.post_edit is not None:
            d["post_edit"] = self.post_edit
        if self.trimmed:
            d["trimmed"] = list(self.trimmed)
        if self.restored:
            d["restored"] = list(self.restored)
        if self.flags:
            d["flags"] = [f.to_dict() for f in self.flags]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Bead:
        return cls(
            src=tuple(d.get("src", ())),
            tgt=tuple(d.get("tgt", ())),
            cost=d.get("cost"),
            status=BeadStatus(d.get("status", "auto")),
            reason=d.get("reason", ""),
            good_align=d.get("good_align"),
            good_mt=d.get("good_mt"),
            note=d.get("note", ""),
            post_edit=d.get("post_edit"),
            trimmed=tuple(d.get("trimmed", ())),
            flags=[Flag.from_dict(f) for f in d.get("flags", [])],
            restored=tuple(d.get("restored", ())),
            confidence=d.get("confidence"),
        )


@dataclass
class Alignment:
    """A monotonic sequence of beads covering every segment of both sides once.

    Attributes:
        beads: in document order.
        embedder: which embedder produced the costs (shown in the UI).
        created: ISO time of the alignment run.
        info: free-form details of the run (timings, parameters digest...).
    """

    beads: list[Bead] = field(default_factory=list)
    embedder: str = ""
    created: str = ""
    info: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.beads)

    def __iter__(self) -> Iterator[Bead]:
        return iter(self.beads)

    def __repr__(self) -> str:
        return f"<Alignment: {alignment_summary(self)}>"

    def validate(self, source: Document, target: Document) -> None:
        """Raise :class:`InvariantError` unless the beads are monotonic and cover each segment once."""
        for side, doc, getter in (("source", source, lambda b: b.src), ("target", target, lambda b: b.tgt)):
            expected = doc.ids()
            seen: list[int] = []
            for bead in self.beads:
                seen.extend(getter(bead))
            if seen != expected:
                missing = set(expected) - set(seen)
                extra = [i for i in seen if i not in set(expected)]
                dup = {i for i in seen if seen.count(i) > 1} if len(seen) != len(set(seen)) else set()
                detail = []
                if missing:
                    detail.append(f"missing {sorted(missing)[:10]}")
                if extra:
                    detail.append(f"unknown {extra[:10]}")
                if dup:
                    detail.append(f"duplicated {sorted(dup)[:10]}")
                if not detail:
                    detail.append("out of order")
                raise InvariantError(f"alignment does not cover the {side} exactly once in order: " + ", ".join(detail))
        for i, bead in enumerate(self.beads):
            if not bead.src and not bead.tgt:
                raise InvariantError(f"bead {i} is empty on both sides")
            if not set(bead.trimmed) <= set(bead.tgt):
                raise InvariantError(f"bead {i} trims target segments it does not hold")
            if not set(bead.restored) <= set(bead.tgt):
                raise InvariantError(f"bead {i} marks target segments restored that it does not hold")

    def bead_index_of_src(self, seg_id: int) -> int:
        for i, b in enumerate(self.beads):
            if seg_id in b.src:
                return i
        raise KeyError(f"no bead holds source segment {seg_id}")

    def bead_index_of_tgt(self, seg_id: int) -> int:
        for i, b in enumerate(self.beads):
            if seg_id in b.tgt:
                return i
        raise KeyError(f"no bead holds target segment {seg_id}")

    def counts(self) -> dict[str, int]:
        """Beads by the one rule of each count (every view reads these):

        ``auto``, ``confirmed``: by status; ``dropped``: dropped beads that are not
        omissions (nor sentences a practice session never reached); ``omitted``:
        omissions, whatever their status (:attr:`Bead.omission`); ``flagged``:
        kept beads a check failed on (:attr:`Bead.flagged`); ``unreviewed``
        (:attr:`Bead.unreviewed`); ``total``.
        """
        c = {s.value: 0 for s in BeadStatus}
        c.update(flagged=0, omitted=0, unreviewed=0)
        for b in self.beads:
            if b.status is BeadStatus.DROPPED and bead_state(b) in (None, "dropped"):
                c[BeadStatus.DROPPED.value] += 1
            elif b.status is not BeadStatus.DROPPED:
                c[b.status.value] += 1
            c["flagged"] += b.flagged
            c["omitted"] += b.omission
            c["unreviewed"] += b.unreviewed
        c["total"] = len(self.beads)
        return c

    def to_dict(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "created": self.created,
            "info": self.info,
            "beads": [b.to_dict() for b in self.beads],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Alignment:
        return cls(
            beads=[Bead.from_dict(b) for b in d.get("beads", [])],
            embedder=d.get("embedder", ""),
            created=d.get("created", ""),
            info=dict(d.get("info", {})),
        )


def bead_text(bead: Bead, doc: Document, side: str, *, use_post_edit: bool = True, include_trimmed: bool = False) -> str:
    """The running text of one side of a bead.

    The target side honours ``post_edit`` (unless ``use_post_edit`` is False)
    and leaves out ``trimmed`` chunks (unless ``include_trimmed``).
    """
    if side == "src":
        ids = bead.src
    elif side == "tgt":
        if use_post_edit and bead.post_edit is not None:
            return bead.post_edit
        ids = bead.tgt if include_trimmed else tuple(i for i in bead.tgt if i not in bead.trimmed)
    else:
        raise ValueError(f"side must be 'src' or 'tgt', not {side!r}")
    return join_segments(doc, ids)


def join_segments(doc: Document, ids: Iterable[int], *, collapse: bool = True) -> str:
    """The texts of the segments ``ids`` of ``doc`` joined with the document's joiner.

    With ``collapse`` (exports, bead text) runs of whitespace inside a
    segment become one space: line breaks inside merged segments are layout,
    not content, and exported rows read as running text. Without it the
    texts are joined as they are (what the review table and dialogs show).
    """
    if collapse:
        return doc.joiner.join(" ".join(doc.get(i).text.split()) for i in ids)
    return doc.joiner.join(doc.get(i).text for i in ids)


def bead_times(bead: Bead, doc: Document, side: str) -> tuple[float | None, float | None]:
    """(start, end) in seconds of one side of a bead; None where unknown."""
    ids = bead.src if side == "src" else bead.tgt
    if not ids:
        return (None, None)
    starts = [doc.get(i).start for i in ids]
    ends = [doc.get(i).end for i in ids]
    start = starts[0]
    end = ends[-1]
    return (start, end)


def alignment_summary(alignment: Alignment) -> str:
    """``"35 beads (30 auto, 3 confirmed, 2 dropped; 4 flagged), embedder use-multilingual"``."""
    counts = alignment.counts()
    parts = [f"{counts[name]} {name}" for name in ("auto", "confirmed", "dropped", "omitted") if counts[name]]
    detail = ", ".join(parts)
    if counts["flagged"]:
        detail += f"; {counts['flagged']} flagged"
    text = count_noun(counts["total"], "bead") + (f" ({detail})" if detail else "")
    return text + (f", embedder {alignment.embedder}" if alignment.embedder else "")


__all__ = ["Alignment", "Bead", "BeadStatus", "Document", "Flag", "REVIEWER_DROP_REASON", "Segment", "UNSPACED_LANGUAGES",
           "alignment_summary",
           "bead_text", "bead_times", "join_segments", "joiner_for"]
