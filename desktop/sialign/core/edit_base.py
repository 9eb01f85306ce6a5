"""The base class of edits and the helpers every edit uses (sides, bead lookups, JSON encoding)."""

from __future__ import annotations

import abc
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from sialign.core.changes import Changes
from sialign.core.errors import EditError
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Project, Segment
from sialign.core.plurals import count_noun

SIDES = ("src", "tgt")


SIDE_NAME = {"src": "source", "tgt": "target"}


def check_side(side: str) -> None:
    if side not in SIDES:
        raise EditError(f"side must be 'src' or 'tgt', not {side!r}")


def side_ids(bead: Bead, side: str) -> tuple[int, ...]:
    return bead.src if side == "src" else bead.tgt


def replace_bead(bead: Bead, **changes: Any) -> Bead:
    """A new bead with ``changes``; flags are copied so the old bead stays untouched."""
    if "flags" not in changes:
        changes["flags"] = [dataclasses.replace(f) for f in bead.flags]
    return dataclasses.replace(bead, **changes)


def with_side_ids(bead: Bead, side: str, ids: tuple[int, ...], **changes: Any) -> Bead:
    changes["src" if side == "src" else "tgt"] = ids
    if side == "tgt" and "trimmed" not in changes:
        # A trimmed chunk that left the bead is no longer trimmed there.
        changes["trimmed"] = tuple(i for i in bead.trimmed if i in set(ids))
    if side == "tgt" and "restored" not in changes:
        changes["restored"] = tuple(i for i in bead.restored if i in set(ids))
    return replace_bead(bead, **changes)


def segment_position(doc: Document, side: str, seg_id: int) -> int:
    try:
        return doc.index_of(seg_id)
    except KeyError:
        raise EditError(f"the {SIDE_NAME.get(side, side)} has no segment {seg_id + 1}") from None


def segment_number(doc: Document | None, seg_id: int) -> int:
    """The 1-based number a reviewer sees for a segment: its row in the document (the table and matrix count so).

    Without the document (or for a segment it no longer holds) the id + 1,
    which is the same number until segments are split or merged.
    """
    if doc is not None:
        try:
            return doc.index_of(seg_id) + 1
        except KeyError:
            pass
    return seg_id + 1


def segment_name(side: str, seg_id: int, doc: Document | None = None) -> str:
    """``"target segment 5"``: a segment as the reviewer reads it (1-based)."""
    return f"{SIDE_NAME.get(side, side)} segment {segment_number(doc, seg_id)}"


def require_alignment(project: Project) -> Alignment:
    if project.alignment is None:
        raise EditError("the project has no alignment yet; run Align first")
    return project.alignment


def bead_index_of(alignment: Alignment, side: str, seg_id: int) -> int:
    for i, bead in enumerate(alignment.beads):
        if seg_id in side_ids(bead, side):
            return i
    raise EditError(f"no bead holds {SIDE_NAME[side]} segment {seg_id + 1}")


def check_index(alignment: Alignment, index: int, what: str = "bead") -> None:
    if not 0 <= index < len(alignment.beads):
        raise EditError(f"there is no {what} {index + 1}; the alignment has {count_noun(len(alignment.beads), 'bead')}")


def bead_label(indices: Sequence[int]) -> str:
    if len(indices) == 1:
        return f"bead {indices[0] + 1}"
    return f"{count_noun(len(indices), 'bead')}"


def _encode(value: Any) -> Any:
    """JSON-ready form of an edit field."""
    if isinstance(value, Edit):
        return value.to_dict()
    if isinstance(value, (Segment, Bead, Alignment)):
        return value.to_dict()
    if isinstance(value, BeadStatus):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


class Edit(abc.ABC):
    """Base of all edits.

    Subclasses are frozen dataclasses. ``preserves_text`` says whether the
    edit must leave every document's :meth:`Document.full_text` unchanged;
    :func:`apply_edit` checks it.
    """

    preserves_text: ClassVar[bool] = True
    # field name -> function turning the JSON value back into the field value
    _decoders: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    # fields holding a sequence of edits of any type (a Batch's ``edits``): decoded by the registry's decoder
    _edit_fields: ClassVar[frozenset[str]] = frozenset()

    @abc.abstractmethod
    def apply(self, project: Project) -> Edit:
        """Mutate ``project`` (copy-on-write) and return the edit that undoes it.

        Raises :class:`EditError` before changing anything when the edit does
        not fit the project. Use :func:`apply_edit`, which also checks the
        invariants and rolls back.
        """

    @abc.abstractmethod
    def describe(self) -> str:
        """Undo-menu text, e.g. ``"Split source segment 12"`` (numbers are 1-based)."""

    def describe_in(self, project: Project) -> str:
        """:meth:`describe` as it reads in ``project`` before the edit is applied.

        Segment edits number their segment by its row in the document, as the
        table and the matrix do (ids and rows part ways after a split).
        """
        return self.describe()

    def changes(self) -> Changes:
        """What applying this edit changes, for the views (see :mod:`sialign.core.changes`).

        The default says everything may have changed; subclasses say exactly.
        """
        return Changes.everything()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": type(self).__name__}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            d[f.name] = _encode(getattr(self, f.name))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], decode_edit: Callable[[Any], Edit] | None = None) -> Edit:
        """Rebuild the edit from :meth:`to_dict` output.

        ``decode_edit`` rebuilds the edits it holds, whatever their type (the
        registry's :func:`sialign.core.edits.edit_from_dict`, which passes
        itself); an edit that holds none does not need it.
        """
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name not in d:
                continue
            if f.name in cls._edit_fields:
                if decode_edit is None:
                    raise TypeError(f"{cls.__name__} holds other edits: rebuild it with sialign.core.edits.edit_from_dict")
                kwargs[f.name] = tuple(decode_edit(e) for e in d[f.name])
            else:
                decode = cls._decoders.get(f.name)
                kwargs[f.name] = decode(d[f.name]) if decode else d[f.name]
        return cls(**kwargs)


def tuple_of_ints(v: Any) -> tuple[int, ...]:
    return tuple(int(i) for i in v)


def segment_or_none(v: Any) -> Segment | None:
    return Segment.from_dict(v) if v is not None else None


def beads_of(v: Any) -> tuple[Bead, ...]:
    return tuple(b if isinstance(b, Bead) else Bead.from_dict(b) for b in v)
