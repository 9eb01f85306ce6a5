"""A project's beads as rows: texts, times, cost, status, flags, review labels and word links.

:class:`BeadRow` is the one row of a bead: what ``for bead in project``,
:meth:`Project.to_dataframe` and the notebook table (``_repr_html_``) show,
what the writers (:mod:`sialign.io.writers`) write and what the desktop app's
review table displays (its colours and formatted cells are derived from the
row there). Numbers count from 1, as the desktop app does; segment ids are the
project's own (the export formats say how they count).

Below :mod:`sialign.core.model`: a project is read through the :class:`Talk`
protocol (the fields a row needs of it), so the model can offer its rows
without an import circle.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any, Protocol

from sialign.core.coverage import bead_state
from sialign.core.documents import Alignment, Bead, Document, alignment_summary, bead_text, bead_times, join_segments
from sialign.core.plurals import count_noun
from sialign.core.word_links import LinkedTalk, links_of

# Rows the notebook table shows before it elides the middle (as pandas does).
HTML_ROWS = 20


class Talk(LinkedTalk, Protocol):
    """What a row and the project's summary line read of a project (:class:`~sialign.core.model.Project` has it)."""

    @property
    def talk_id(self) -> str: ...

    @property
    def reference(self) -> Document | None: ...

    @property
    def alignment(self) -> Alignment | None: ...


@dataclass(frozen=True)
class BeadRow:
    """One bead with its texts.

    Attributes:
        number: the bead's position, from 1 (as in the desktop app).
        source, target: the bead's running text on each side (the target
            honours a post-edit and leaves out trimmed chunks, as exports do).
        src_ids: the project's segment ids of the source side.
        tgt_ids: every target chunk of the bead, trimmed ones included
            (:attr:`kept_tgt_ids`: those the ``target`` text holds).
        kind: ``"2-1"``: source and target segment counts.
        src_start, src_end, tgt_start, tgt_end: times in seconds, None when unknown.
        cost: the aligner's cost (lower is better), None when unknown.
        status: ``auto``, ``confirmed`` or ``dropped``.
        state: what the bead says of its source sentences (:mod:`sialign.core.coverage`): ``rendered``,
            ``omitted``, ``dropped`` or ``not reached``; empty for an addition (0-1).
        reason: why the bead was dropped.
        flags: names of the checks the bead fails (``omission``, ``alpha``...).
        good_align, good_mt: the reviewer's labels (None: not judged).
        note: the reviewer's note.
        post_edited: whether ``target`` is a reviewer's post-edit.
        confidence: the aligner's probability that the bead is right (the table's Conf.), None when not scored.
        doubt: the learned filter's probability that the bead is wrong (Doubt), None until it ran.
        rendered: share of the source's content words rendered (Rendered), None without stored word links.
        trimmed_tgt_ids: the target chunks the intra filter trimmed (left out of ``target``).
        target_original: what the interpreter said: every chunk, no post-edit.
        trimmed_text: the trimmed chunks' text as the review shows it (line breaks kept).
        flag_reasons: the reason of each failed check, in the order of ``flags``.
        unrendered, paraphrased: the source content words not found / rendered by paraphrase
            (empty without stored word links).
        links: the stored word links as Pharaoh ``i-j`` pairs, None when none are stored for the bead's texts.
    """

    number: int
    source: str
    target: str
    src_ids: tuple[int, ...]
    tgt_ids: tuple[int, ...]
    kind: str
    src_start: float | None
    src_end: float | None
    tgt_start: float | None
    tgt_end: float | None
    cost: float | None
    status: str
    state: str
    reason: str
    flags: tuple[str, ...]
    good_align: bool | None
    good_mt: bool | None
    note: str
    post_edited: bool
    confidence: float | None = None
    doubt: float | None = None
    rendered: float | None = None
    trimmed_tgt_ids: tuple[int, ...] = ()
    target_original: str = ""
    trimmed_text: str = ""
    flag_reasons: tuple[str, ...] = ()
    unrendered: tuple[str, ...] = ()
    paraphrased: tuple[str, ...] = ()
    links: str | None = None

    @property
    def kept_tgt_ids(self) -> tuple[int, ...]:
        """The target chunks the ``target`` text holds (trimmed ones left out), in bead order."""
        trimmed = set(self.trimmed_tgt_ids)
        return tuple(i for i in self.tgt_ids if i not in trimmed)

    @property
    def flagged(self) -> bool:
        """Kept, and a check failed on the bead: the rule of :attr:`sialign.core.model.Bead.flagged`."""
        return bool(self.flags) and self.status != "dropped"

    @property
    def start_lag(self) -> float | None:
        """The bead's ear-voice span: interpretation start − source start in seconds, None where a time is missing."""
        if self.src_start is None or self.tgt_start is None:
            return None
        return self.tgt_start - self.src_start

    def __repr__(self) -> str:
        flags = f" [{', '.join(self.flags)}]" if self.flags else ""
        cost = "" if self.cost is None else f" cost {self.cost:.3f}"
        return f"<Bead {self.number} {self.kind} {self.status}{cost}{flags}: {_short(self.source)!r} → {_short(self.target)!r}>"


COLUMNS = tuple(f.name for f in fields(BeadRow))


def bead_row(project: Talk, index: int, bead: Bead) -> BeadRow:
    """The row of ``bead``, the ``index``-th (0-based) bead of ``project``'s alignment."""
    stored = links_of(project, bead)
    trimmed = set(bead.trimmed)
    src_start, src_end = bead_times(bead, project.source, "src")
    tgt_start, tgt_end = bead_times(bead, project.target, "tgt")
    return BeadRow(
        number=index + 1,
        source=bead_text(bead, project.source, "src"),
        target=bead_text(bead, project.target, "tgt"),
        src_ids=bead.src,
        tgt_ids=bead.tgt,
        kind=bead.kind,
        src_start=src_start,
        src_end=src_end,
        tgt_start=tgt_start,
        tgt_end=tgt_end,
        cost=bead.cost,
        status=bead.status.value,
        state=bead_state(bead) or "",
        reason=bead.reason,
        flags=tuple(f.name for f in bead.failed_flags),
        good_align=bead.good_align,
        good_mt=bead.good_mt,
        note=bead.note,
        post_edited=bead.post_edit is not None,
        confidence=_finite(bead.confidence),
        doubt=next((_finite(f.score) for f in bead.flags if f.name == "doubt"), None),
        rendered=None if stored is None else stored.rendered_share,
        trimmed_tgt_ids=tuple(i for i in bead.tgt if i in trimmed),
        target_original=bead_text(bead, project.target, "tgt", use_post_edit=False, include_trimmed=True),
        trimmed_text=join_segments(project.target, bead.trimmed, collapse=False) if bead.trimmed else "",
        flag_reasons=tuple(f.reason for f in bead.failed_flags),
        unrendered=() if stored is None else tuple(stored.unrendered()),
        paraphrased=() if stored is None else tuple(stored.paraphrased_words()),
        links=None if stored is None else stored.pharaoh(),
    )


def _finite(value: float | None) -> float | None:
    return float(value) if value is not None and math.isfinite(value) else None


def bead_rows(project: Talk) -> Iterator[BeadRow]:
    """Every bead of the project's alignment as a :class:`BeadRow` (nothing before the first alignment)."""
    if project.alignment is None:
        return
    for index, bead in enumerate(project.alignment.beads):
        yield bead_row(project, index, bead)


def to_dataframe(project: Talk) -> Any:
    """A pandas DataFrame with one row per bead and the columns of :class:`BeadRow`, indexed by ``number``.

    Raises:
        ImportError: pandas is not installed (the message says how to install it).
    """
    try:
        import pandas as pd
    except ImportError:
        raise ImportError("to_dataframe() needs pandas: pip install pandas") from None
    rows = [[getattr(row, name) for name in COLUMNS] for row in bead_rows(project)]
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    for name in ("src_start", "src_end", "tgt_start", "tgt_end", "cost", "confidence", "doubt", "rendered"):
        frame[name] = frame[name].astype("float64")
    for name in ("good_align", "good_mt"):
        frame[name] = frame[name].astype("boolean")
    return frame.set_index("number")


def _short(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _languages(project: Talk) -> str:
    return f"{project.source.language}→{project.target.language}"


def project_repr(project: Talk) -> str:
    """``<Project 'talk' en→ja: 35 source / 80 target segments, 35 beads (...), embedder ...>``."""
    sides = f"{len(project.source)} source / {count_noun(len(project.target), 'target segment')}"
    if project.reference is not None:
        sides += ", with a reference"
    aligned = "not aligned yet" if project.alignment is None else alignment_summary(project.alignment)
    return f"<Project {project.talk_id!r} {_languages(project)}: {sides}; {aligned}>"


def project_html(project: Talk, max_rows: int = HTML_ROWS) -> str:
    """The notebook view of a project: its summary line and a table of its beads (the middle elided when long)."""
    esc = html.escape
    head = f"<p>{esc(project_repr(project))}</p>"
    if project.alignment is None:
        return f"<div>{head}</div>"
    rows = list(bead_rows(project))
    shown: list[BeadRow | None]
    if len(rows) > max_rows:
        shown = [*rows[: max_rows // 2], None, *rows[-(max_rows - max_rows // 2):]]
    else:
        shown = list(rows)
    header = "".join(f"<th>{name}</th>" for name in ("bead", "kind", "source", "target", "cost", "status", "flags"))
    body = []
    for row in shown:
        if row is None:
            body.append(f"<tr><td colspan=7>… {count_noun(len(rows) - max_rows, 'more bead')} …</td></tr>")
            continue
        cost = "" if row.cost is None else f"{row.cost:.3f}"
        body.append(
            f"<tr><td>{row.number}</td><td>{row.kind}</td><td style='text-align:left'>{esc(row.source)}</td>"
            f"<td style='text-align:left'>{esc(row.target)}</td><td>{cost}</td><td>{esc(row.status)}</td>"
            f"<td>{esc(', '.join(row.flags))}</td></tr>"
        )
    table = f"<table><thead><tr>{header}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return f"<div>{head}{table}</div>"


__all__ = ["BeadRow", "COLUMNS", "Talk", "alignment_summary", "bead_row", "bead_rows", "project_html", "project_repr", "to_dataframe"]
