"""Edits of a project's settings: its alignment parameters, its filter thresholds and the talk's own facts.

Parameters change like everything else in a project: through an edit that
returns its exact inverse and is recorded in the history, so undoing an
*Align* (a :class:`~sialign.core.edits.Batch` of the new alignment and the
:class:`SetParams` it was made with) also restores the parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from sialign.core.changes import Changes
from sialign.core.edit_base import Edit
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams, FilterParams


@dataclass(frozen=True)
class SetParams(Edit):
    """Set the project's alignment parameters (None: not chosen yet). Inverse: :class:`SetParams` with the old ones."""

    params: AlignParams | None
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "params": lambda v: AlignParams.from_dict(v) if v is not None else None
    }

    def changes(self) -> Changes:
        return Changes(settings=True)

    def describe(self) -> str:
        return self.label or "Change the alignment parameters"

    def apply(self, project: Project) -> Edit:
        old = project.params
        project.params = self.params
        return SetParams(old, label=f"Undo: {self.describe()}")

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, "params": self.params.to_dict() if self.params is not None else None,
                "label": self.label}


@dataclass(frozen=True)
class SetFilterParams(Edit):
    """Set the project's filter thresholds. Inverse: :class:`SetFilterParams` with the old ones."""

    params: FilterParams
    label: str = ""

    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {"params": FilterParams.from_dict}

    def changes(self) -> Changes:
        return Changes(settings=True)

    def describe(self) -> str:
        return self.label or "Change the filter settings"

    def apply(self, project: Project) -> Edit:
        old = project.filter_params
        project.filter_params = self.params
        return SetFilterParams(old, label=f"Undo: {self.describe()}")

    def to_dict(self) -> dict[str, Any]:
        return {"type": type(self).__name__, "params": self.params.to_dict(), "label": self.label}


@dataclass(frozen=True)
class SetTalkInfo(Edit):
    """Set what *Project properties* holds: the talk id, both languages, the interpreter and rank, the recordings,
    the reference translation. Inverse: :class:`SetTalkInfo` with the old values.

    Attributes:
        talk_id / source_language / target_language: as in :class:`~sialign.core.model.Project`.
        interpreter / rank: the ``metadata`` entries of that name ("" removes one).
        source_audio / target_audio: the stored recording paths (None: no recording).
        reference: the reference translation (None: none); its language follows the target's.
    """

    talk_id: str
    source_language: str
    target_language: str
    interpreter: str = ""
    rank: str = ""
    source_audio: str | None = None
    target_audio: str | None = None
    reference: Document | None = None
    label: str = ""

    preserves_text: ClassVar[bool] = False  # the reference translation may be replaced
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "reference": lambda v: Document.from_dict(v) if v is not None else None
    }

    @classmethod
    def of(cls, project: Project, label: str = "") -> SetTalkInfo:
        """The edit that would set ``project``'s current values (the starting point of a change)."""
        meta = project.metadata
        return cls(project.talk_id, project.source.language, project.target.language,
                   str(meta.get("interpreter", "") or ""), str(meta.get("rank", "") or ""),
                   project.source.audio_path, project.target.audio_path, project.reference, label)

    def changes(self) -> Changes:
        # The recordings' paths may have changed: views that play or draw them read them again.
        return Changes(settings=True, talk=True, recordings=("src", "tgt"))

    def describe(self) -> str:
        return self.label or "Change project properties"

    def apply(self, project: Project) -> Edit:
        from dataclasses import replace

        old = SetTalkInfo.of(project, label=f"Undo: {self.describe()}")
        project.talk_id = self.talk_id
        project.source.language = self.source_language
        project.target.language = self.target_language
        for key in ("interpreter", "rank"):
            value = getattr(self, key)
            if value:
                project.metadata[key] = value
            else:
                project.metadata.pop(key, None)
        project.source.audio_path = self.source_audio or None
        project.target.audio_path = self.target_audio or None
        project.reference = replace(self.reference, language=self.target_language) if self.reference is not None else None
        return old

    def to_dict(self) -> dict[str, Any]:
        d = {f: getattr(self, f) for f in ("talk_id", "source_language", "target_language", "interpreter", "rank",
                                            "source_audio", "target_audio", "label")}
        return {"type": type(self).__name__, **d, "reference": self.reference.to_dict() if self.reference is not None else None}


__all__ = ["SetFilterParams", "SetParams", "SetTalkInfo"]
