"""Qt-free core: data model, edits, parameters, errors, progress."""

from sialign.core.errors import (
    AlignmentCancelled,
    AudioUnavailable,
    EditError,
    EmptyInputError,
    EncodingError,
    FormatError,
    InputError,
    InvariantError,
    ModelNotFoundError,
    ProjectVersionError,
    SialignError,
    TimestampError,
)
from sialign.core.model import Alignment, Bead, BeadStatus, Document, Flag, Project, Segment, bead_text, bead_times
from sialign.core.params import AlignParams, FilterParams

__all__ = [
    "AlignParams",
    "Alignment",
    "AlignmentCancelled",
    "AudioUnavailable",
    "Bead",
    "BeadStatus",
    "Document",
    "EditError",
    "EmptyInputError",
    "EncodingError",
    "FilterParams",
    "Flag",
    "FormatError",
    "InputError",
    "InvariantError",
    "ModelNotFoundError",
    "Project",
    "ProjectVersionError",
    "Segment",
    "SialignError",
    "TimestampError",
    "bead_text",
    "bead_times",
]
