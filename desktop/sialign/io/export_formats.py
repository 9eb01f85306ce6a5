"""The export formats of an alignment, in one table.

The writers (:func:`sialign.io.writers.write_alignment`), ``sialign export``,
``sialign align -f`` and the desktop app's export dialog all read this list;
adding a format means a row here and a branch in ``write_alignment``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ExportFormat:
    """One export format.

    Attributes:
        key: the name given to ``-f`` and ``write_alignment(format=...)``.
        suffix: the file extension written (and recognised, case-insensitively).
        label: what the export dialog shows.
        by_suffix: whether a file with ``suffix`` means this format (``tsv2``
            shares ``.tsv`` with ``tsv``, which wins).
    """

    key: str
    suffix: str
    label: str
    by_suffix: bool = True

    @property
    def two_column(self) -> bool:
        return self.key == "tsv2"

    @property
    def name(self) -> str:
        """A short name for file dialogs: ``TSV``, ``JSONL``, ``TextGrid``..."""
        return "TSV" if self.suffix == ".tsv" else self.suffix.lstrip(".").upper() if self.suffix.islower() else self.suffix.lstrip(".")


EXPORT_FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("tsv", ".tsv", "TSV — all fields (talk, ids, times, cost, status, source, target)"),
    ExportFormat("tsv2", ".tsv", "Two-column TSV — source<TAB>target, for MT toolkits", by_suffix=False),
    ExportFormat("jsonl", ".jsonl", "JSONL — one bead per line, every field"),
    ExportFormat("tmx", ".tmx", "TMX 1.4 — for translation memories"),
    ExportFormat("align", ".align", "vecalign .align — 0-based line positions of every bead, dropped ones included"),
    ExportFormat("textgrid", ".TextGrid", "Praat TextGrid — aligned source, target and bead tiers"),
    ExportFormat("eaf", ".eaf", "ELAN EAF — aligned source, target and bead tiers"),
)

ALIGNMENT_FORMATS: tuple[str, ...] = tuple(f.key for f in EXPORT_FORMATS)
# Lower-case extension -> format key.
ALIGNMENT_EXTENSIONS: dict[str, str] = {f.suffix.lower(): f.key for f in EXPORT_FORMATS if f.by_suffix}


def export_format(key: str) -> ExportFormat:
    """The format named ``key`` (KeyError when there is none)."""
    for fmt in EXPORT_FORMATS:
        if fmt.key == key:
            return fmt
    raise KeyError(key)


def format_for_path(path: str | Path) -> str | None:
    """The format key a file name stands for, or None."""
    return ALIGNMENT_EXTENSIONS.get(Path(path).suffix.lower())


def suffix_list() -> str:
    """``.tsv, .jsonl, ... or .eaf`` for messages."""
    suffixes = list(dict.fromkeys(f.suffix for f in EXPORT_FORMATS))
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1]


__all__ = ["ALIGNMENT_EXTENSIONS", "ALIGNMENT_FORMATS", "EXPORT_FORMATS", "ExportFormat", "export_format", "format_for_path", "suffix_list"]
