"""The export formats of an alignment, in one table.

The writers (:func:`sialign.io.writers.write_alignment`), ``sialign export``,
``sialign align -f`` and the desktop app's export dialog all read this list;
adding a format means a row here and a branch in ``write_alignment``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sialign.io.output_formats import OutputFormats


@dataclass(frozen=True)
class ExportFormat:
    """One export format.

    Attributes:
        key: the name given to ``-f`` and ``write_alignment(format=...)``.
        suffix: the file extension written (and recognised, case-insensitively).
        label: what the export dialog shows.
        by_suffix: whether a file with ``suffix`` means this format (``tsv2``
            shares ``.tsv`` with ``tsv``, which wins).
        pools: whether one file can hold many talks (a corpus export,
            :func:`sialign.io.writers.write_pooled`); the others describe one
            talk (vecalign's positions, TextGrid/EAF tiers, subtitles).
    """

    key: str
    suffix: str
    label: str
    by_suffix: bool = True
    pools: bool = False

    @property
    def two_column(self) -> bool:
        return self.key == "tsv2"

    @property
    def subtitle_side(self) -> str | None:
        """``"src"`` or ``"tgt"`` for the per-side subtitle formats, else None."""
        if self.key.startswith(("srt-", "vtt-")):
            return "src" if self.key.endswith("-source") else "tgt"
        return None

    @property
    def name_tag(self) -> str:
        """What the default file name carries before the suffix, so formats sharing a suffix never share a name."""
        if self.two_column:
            return ".pairs"
        return {"src": ".source", "tgt": ".target"}.get(self.subtitle_side or "", "")

    @property
    def name(self) -> str:
        """A short name for file dialogs: ``TSV``, ``JSONL``, ``TextGrid``..."""
        return "TSV" if self.suffix == ".tsv" else self.suffix.lstrip(".").upper() if self.suffix.islower() else self.suffix.lstrip(".")


EXPORT_FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("tsv", ".tsv", "TSV — all fields (ids, times, cost, status, texts, confidence, labels, note)", pools=True),
    ExportFormat("tsv2", ".tsv", "Two-column TSV — source<TAB>target, for MT toolkits", by_suffix=False, pools=True),
    ExportFormat("jsonl", ".jsonl", "JSONL — one bead per line, every field", pools=True),
    ExportFormat("tmx", ".tmx", "TMX 1.4 — for translation memories", pools=True),
    ExportFormat("align", ".align", "vecalign .align — 0-based line positions of every bead, dropped ones included"),
    ExportFormat("textgrid", ".TextGrid", "Praat TextGrid — aligned source, target and bead tiers"),
    ExportFormat("eaf", ".eaf", "ELAN EAF — aligned source, target and bead tiers"),
    ExportFormat("srt-source", ".srt", "SRT subtitles — source side, one cue per bead", by_suffix=False),
    ExportFormat("srt-target", ".srt", "SRT subtitles — target side (interpretation), one cue per bead", by_suffix=False),
    ExportFormat("vtt-source", ".vtt", "WebVTT subtitles — source side, one cue per bead", by_suffix=False),
    ExportFormat("vtt-target", ".vtt", "WebVTT subtitles — target side (interpretation), one cue per bead", by_suffix=False),
)
# Subtitle suffixes name no format alone: the side has to be chosen.
SUBTITLE_SUFFIXES = frozenset({".srt", ".vtt"})

ALIGNMENT_FORMATS: tuple[str, ...] = tuple(f.key for f in EXPORT_FORMATS)
# The formats one file of which can hold many talks (corpus exports).
POOLED_FORMATS: tuple[str, ...] = tuple(f.key for f in EXPORT_FORMATS if f.pools)
# Lower-case extension -> format key.
ALIGNMENT_EXTENSIONS: dict[str, str] = {f.suffix.lower(): f.key for f in EXPORT_FORMATS if f.by_suffix}
# The format an export's name says (``.srt``/``.vtt`` say none: the side has to be chosen).
ALIGNMENT_FILES = OutputFormats("an alignment export", {f.suffix: f.key for f in EXPORT_FORMATS if f.by_suffix},
                                choose="or choose a format")


def export_format(key: str) -> ExportFormat:
    """The format named ``key`` (KeyError when there is none)."""
    for fmt in EXPORT_FORMATS:
        if fmt.key == key:
            return fmt
    raise KeyError(key)


def export_path(path: str | Path, fmt: ExportFormat) -> Path:
    """``path`` renamed for ``fmt``: its suffix, and the format's :attr:`~ExportFormat.name_tag` before it.

    ``water.tsv`` becomes ``water.target.srt`` for ``srt-target``,
    ``water.pairs.tsv`` for ``tsv2`` and ``water.source.srt`` back to
    ``water.tsv``, so formats that share a suffix never take the same name.
    """
    p = Path(path)
    stem = p.name[: len(p.name) - len(p.suffix)] if p.suffix else p.name
    for other in EXPORT_FORMATS:
        if other.name_tag and stem.endswith(other.name_tag) and p.suffix.lower() == other.suffix.lower():
            stem = stem[: -len(other.name_tag)]
            break
    return p.with_name(stem + fmt.name_tag + fmt.suffix)


def suffix_list() -> str:
    """``.tsv, .jsonl, ... or .eaf`` for messages."""
    suffixes = list(dict.fromkeys(f.suffix for f in EXPORT_FORMATS))
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1]


__all__ = ["ALIGNMENT_EXTENSIONS", "ALIGNMENT_FILES", "ALIGNMENT_FORMATS", "EXPORT_FORMATS", "POOLED_FORMATS", "SUBTITLE_SUFFIXES", "ExportFormat", "export_format", "export_path", "suffix_list"]
