"""Edits of a project's settings: its alignment parameters and its filter thresholds.

Parameters change like everything else in a project: through an edit that
returns its exact inverse and is recorded in the history, so undoing an
*Align* (a :class:`~sialign.core.edits.Batch` of the new alignment and the
:class:`SetParams` it was made with) also restores the parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from sialign.core.changes import Changes
from sialign.core.edit_base import Edit
from sialign.core.model import Project
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
                "label": self.label}  # fmt: skip


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


__all__ = ["SetFilterParams", "SetParams"]
