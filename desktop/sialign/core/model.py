"""The data model: segments, documents, beads, alignments and projects.

The pieces (:class:`Segment`, :class:`Document`, :class:`Bead`,
:class:`Alignment`, :func:`bead_text`, :func:`bead_times`...) are defined in
:mod:`sialign.core.documents` and importable from here; this module adds the
:class:`Project` that holds them. Nothing here imports Qt or any heavy library.
Objects are plain mutable dataclasses; changes go through
:mod:`sialign.core.edits`, which return their inverse so the GUI can undo them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sialign.core.bead_rows import BeadRow, bead_rows, project_html, project_repr, to_dataframe
from sialign.core.documents import (
    REVIEWER_DROP_REASON,
    UNSPACED_LANGUAGES,
    Alignment,
    Bead,
    BeadStatus,
    Document,
    Flag,
    Segment,
    bead_text,
    bead_times,
    join_segments,
    joiner_for,
)
from sialign.core.errors import InvariantError
from sialign.core.params import AlignParams, FilterParams
from sialign.core.plurals import count_noun
from sialign.core.word_links import WordLinks

# Project.metadata says a transcript was made by a speech model (its errors are not the interpreter's), one key a side.
MACHINE_TRANSCRIPT_KEYS = {"src": "source_transcript", "tgt": "interpretation_transcript"}
# ... and what practice sessions wrote before, read as the interpretation's.
_OLD_MACHINE_TRANSCRIPT_KEYS = {"tgt": ("target_transcript",)}


def mark_machine_transcript(metadata: dict[str, Any], side: str, model: str | None = None) -> None:
    """Note in ``metadata`` that ``side``'s (``src``/``tgt``) transcript is a speech model's, not corrected."""
    metadata[MACHINE_TRANSCRIPT_KEYS[side]] = (f"machine transcript (Whisper {model}), not corrected" if model
                                               else "machine transcript, not corrected")


# The ``Document.format`` of a transcript a speech model made (``sialign transcribe``, a talk from recordings).
MACHINE_FORMAT = "whisper"


def machine_sides(project: Project) -> set[str]:
    """The sides (``src``/``tgt``) whose transcript a speech model made and nobody has said was corrected."""
    found = set()
    for side in MACHINE_TRANSCRIPT_KEYS:
        doc = project.document(side)
        if (doc is not None and doc.format == MACHINE_FORMAT) or machine_transcript_note(project.metadata, side):
            found.add(side)
    return found


def machine_transcript_note(metadata: dict[str, Any], side: str) -> str:
    """What ``metadata`` says of ``side``'s transcript being a speech model's ("" when it is not)."""
    for key in (MACHINE_TRANSCRIPT_KEYS[side], *_OLD_MACHINE_TRANSCRIPT_KEYS.get(side, ())):
        if metadata.get(key):
            return str(metadata[key])
    return ""


def target_role(project: Project | None) -> str:
    """What the target is called in the views: ``"translation"`` for a written translation, else ``"interpretation"``.

    The aligner's decision where it made one (``alignment.info["text_kind"]``, from ``text_kind="auto"``),
    else what the parameters say; an interpretation until either says otherwise.
    """
    if project is None:
        return "interpretation"
    decided = project.alignment.info.get("text_kind") if project.alignment is not None else None
    if decided in ("interpretation", "translation"):
        return str(decided)
    return "translation" if project.params is not None and project.params.text_kind == "translation" else "interpretation"


@dataclass
class Project:
    """Everything about one talk and one interpretation of it.

    Attributes:
        talk_id: a short name for the talk (used in exports).
        source: the source transcript (sentences).
        target: the interpretation transcript (chunks).
        reference: optional offline translation, one segment per source segment.
        alignment: the current alignment, or None before the first run.
        params: alignment parameters, or None until the talk is aligned
            (a new talk takes the defaults with the default embedder).
        filter_params: filter thresholds.
        metadata: interpreter id, rank, notes...
        history: serialised edits in the order they were applied (see
            :mod:`sialign.core.edits`), so a session can be replayed.
        undo: the reviewer's undo steps when the project was saved, oldest
            first, each ``{"label", "forward", "inverse"}`` with serialised
            edits. The project file keeps them with a fingerprint of the
            project they apply to (``io/project_file.py``); the desktop app
            puts them back on its undo stack when it opens the file.
        word_links: word links inside the beads and the aligner that drew
            them (:mod:`sialign.core.word_links`), or None until first drawn;
            derived from the texts, so not an edit of its own.
        path: where the project was last saved (not serialised).
    """

    talk_id: str = "talk"
    source: Document = field(default_factory=Document)
    target: Document = field(default_factory=Document)
    reference: Document | None = None
    alignment: Alignment | None = None
    params: AlignParams | None = None
    filter_params: FilterParams = field(default_factory=FilterParams)
    metadata: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    undo: list[dict[str, Any]] = field(default_factory=list)
    word_links: WordLinks | None = None
    path: str | None = None

    def __repr__(self) -> str:
        return project_repr(self)

    def _repr_html_(self) -> str:
        """The notebook view: the summary line and a table of the beads."""
        return project_html(self)

    def __iter__(self) -> Iterator[BeadRow]:
        """The beads with their texts, times, cost, status and flags (:class:`~sialign.core.bead_rows.BeadRow`)."""
        return bead_rows(self)

    def beads(self) -> list[BeadRow]:
        """Every bead with its texts (see :meth:`__iter__`); empty before the first alignment."""
        return list(self)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame, one row per bead: both texts, times, cost, status, flags and review labels.

        The index is the bead number counted from 1; the columns are the
        fields of :class:`~sialign.core.bead_rows.BeadRow`.
        """
        return to_dataframe(self)

    def document(self, side: str) -> Document:
        if side == "src":
            return self.source
        if side == "tgt":
            return self.target
        if side == "ref":
            if self.reference is None:
                raise KeyError("the project has no reference translation")
            return self.reference
        raise ValueError(f"side must be 'src', 'tgt' or 'ref', not {side!r}")

    def validate(self) -> None:
        """Check the alignment against the documents (see :meth:`Alignment.validate`)."""
        if self.alignment is not None:
            self.alignment.validate(self.source, self.target)
        if self.reference is not None and len(self.reference) != len(self.source):
            raise InvariantError(
                f"the reference translation has {count_noun(len(self.reference), 'segment')} but the source has {len(self.source)}; "
                "it must have one line per source segment"
            )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "talk_id": self.talk_id,
            "source": self.source.to_dict(),
            "target": self.target.to_dict(),
            "reference": self.reference.to_dict() if self.reference is not None else None,
            "alignment": self.alignment.to_dict() if self.alignment is not None else None,
            "params": self.params.to_dict() if self.params is not None else {},
            "filter_params": self.filter_params.to_dict(),
            "metadata": dict(self.metadata),
            "history": list(self.history),
        }
        if self.word_links is not None:  # optional: files without links load as before
            d["word_links"] = self.word_links.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Project:
        return cls(
            talk_id=d.get("talk_id", "talk"),
            source=Document.from_dict(d.get("source", {})),
            target=Document.from_dict(d.get("target", {})),
            reference=Document.from_dict(d["reference"]) if d.get("reference") else None,
            alignment=Alignment.from_dict(d["alignment"]) if d.get("alignment") else None,
            params=AlignParams.from_dict(d["params"]) if d.get("params") else None,
            filter_params=FilterParams.from_dict(d.get("filter_params")),
            metadata=dict(d.get("metadata", {})),
            history=list(d.get("history", [])),
            word_links=WordLinks.from_dict(d["word_links"]) if d.get("word_links") else None,
        )


__all__ = ["MACHINE_TRANSCRIPT_KEYS", "REVIEWER_DROP_REASON", "UNSPACED_LANGUAGES", "Alignment", "Bead", "BeadStatus",
           "Document", "Flag", "Project", "Segment", "bead_text", "bead_times", "join_segments", "joiner_for",
           "machine_transcript_note", "mark_machine_transcript", "target_role"]
