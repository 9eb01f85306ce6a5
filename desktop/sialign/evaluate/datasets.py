"""Evaluation sets: the AHC-SI protocol and Text+Berg documents (docs/algorithms.md: Measuring quality).

AHC-SI (``*.true.tsv``; columns ``name``, ``eng_src``, ``offline_tgt``,
``manual_si_tgt``...), per talk, in file order:

* source = the ``eng_src`` rows in order (one sentence each);
* target = all ``manual_si_tgt`` texts of the talk concatenated in order and
  cut into chunks after each 、 。 ？ ！ (the mark stays with its chunk), so the
  chunk boundaries do not reveal where one sentence's rendering ends;
* reference translation = ``offline_tgt`` (1:1 with the source);
* gold = each row's ``manual_si_tgt``.

After aligning a talk, :func:`automatic_targets` gives F^a for every source
sentence and :func:`sialign.evaluate.lcs.lcs_accuracy` scores it against the
gold.

Text+Berg: ``<name>.<src>``, ``<name>.<tgt>`` (one sentence per line) and the
gold beads ``<name>.<src><tgt>`` in vecalign's format.
"""

from __future__ import annotations

import csv
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sialign.core.errors import FormatError
from sialign.core.model import Alignment, BeadStatus, Document, Project, bead_text
from sialign.evaluate.beads import BeadPositions, read_beads

CHUNK_END_MARKS = "、。？！"
_CHUNK_RE = re.compile(f"[^{CHUNK_END_MARKS}]*[{CHUNK_END_MARKS}]|[^{CHUNK_END_MARKS}]+$")


def chunk_after_punctuation(text: str) -> list[str]:
    """Cut ``text`` after each 、 。 ？ ！, keeping the mark with its chunk.

    Whitespace-only pieces are dropped; everything else is kept verbatim, so
    ``"".join(chunks)`` equals ``text`` minus those pieces.

    >>> chunk_after_punctuation("はい、そうです。では")
    ['はい、', 'そうです。', 'では']
    """
    return [m.group(0) for m in _CHUNK_RE.finditer(text) if m.group(0).strip()]


@dataclass
class AhcsiTalk:
    """One talk of an AHC-SI ``*.true.tsv`` file, cut per the protocol above.

    Attributes:
        name: the talk (``GaryFlake_2010``).
        source: English sentences, shape (n,).
        reference: offline Japanese translation, one per source sentence.
        manual: gold interpretation span per source sentence (F^m).
        target: interpretation chunks (the concatenated gold, cut after 、。？！).
        row_ids: the file's ``id`` column per source sentence.
        interpreter: the ``interpreter`` column (first row of the talk).
    """

    name: str
    source: list[str] = field(default_factory=list)
    reference: list[str] = field(default_factory=list)
    manual: list[str] = field(default_factory=list)
    target: list[str] = field(default_factory=list)
    row_ids: list[str] = field(default_factory=list)
    interpreter: str = ""

    def project(self) -> Project:
        """A project holding source (en), target chunks (ja) and reference (ja)."""
        return Project(
            talk_id=self.name,
            source=Document.from_texts(self.source, "en"),
            target=Document.from_texts(self.target, "ja"),
            reference=Document.from_texts(self.reference, "ja"),
            metadata={"interpreter": self.interpreter} if self.interpreter else {},
        )


def _raise_csv_limit() -> None:
    # Talk transcripts may hold long fields; the csv default limit is 128 KiB.
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 10


def load_ahcsi(path: str | Path, *, manual_column: str = "manual_si_tgt") -> list[AhcsiTalk]:
    """Read an AHC-SI TSV into talks, in the order they first appear.

    Args:
        path: a ``*.true.tsv`` file (``dev.intra.tsv`` also loads with
            ``manual_column="si_tgt"``, giving the paper's automatic output as gold).
        manual_column: the column holding the interpretation per sentence.

    Raises:
        FormatError: a required column is missing or a row is short.
    """
    _raise_csv_limit()
    talks: dict[str, AhcsiTalk] = {}
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        try:
            header = next(reader)
        except StopIteration:
            raise FormatError(path, "the file is empty", hint="expected a header row with name, eng_src, offline_tgt") from None
        required = ["name", "eng_src", "offline_tgt", manual_column]
        missing = [c for c in required if c not in header]
        if missing:
            raise FormatError(path, f"missing column(s) {', '.join(missing)}", line=1, hint=f"the header has {header}")
        col = {name: header.index(name) for name in header}
        for number, row in enumerate(reader, start=2):
            if not row or not any(cell.strip() for cell in row):
                continue
            if len(row) < len(header):
                raise FormatError(path, f"the row has {len(row)} columns, the header {len(header)}", line=number)
            name = row[col["name"]]
            talk = talks.get(name)
            if talk is None:
                interpreter = row[col["interpreter"]] if "interpreter" in col else ""
                talk = talks[name] = AhcsiTalk(name=name, interpreter=interpreter)
            talk.source.append(row[col["eng_src"]])
            talk.reference.append(row[col["offline_tgt"]])
            talk.manual.append(row[col[manual_column]])
            talk.row_ids.append(row[col["id"]] if "id" in col else str(number))
    for talk in talks.values():
        talk.target = chunk_after_punctuation("".join(talk.manual))
    return list(talks.values())


def automatic_targets(
    project: Project,
    alignment: Alignment | None = None,
    *,
    include_dropped: bool = False,
    include_trimmed: bool = False,
) -> list[str]:
    """F^a per source segment: the target text of the bead holding it.

    Every source sentence of an n:m bead gets the *whole* bead's target:
    the bead says these sentences were rendered together and does not say
    which chunk renders which sentence, so each sentence is credited with
    (and, through the LCS ratio, judged on) the whole rendering.

    Args:
        project: supplies the documents (and the alignment when none is given).
        alignment: the alignment to read; defaults to ``project.alignment``.
        include_dropped: count dropped beads as aligned (by default their
            source sentences get an empty F^a, as in an export).
        include_trimmed: keep chunks the intra filter trimmed.

    Returns:
        One string per source segment, in document order ("" when unaligned).
    """
    alignment = alignment if alignment is not None else project.alignment
    if alignment is None:
        raise ValueError("the project has no alignment to evaluate")
    result = [""] * len(project.source)
    for bead in alignment.beads:
        if bead.status is BeadStatus.DROPPED and not include_dropped:
            continue
        text = bead_text(bead, project.target, "tgt", use_post_edit=False, include_trimmed=include_trimmed)
        for seg_id in bead.src:
            result[project.source.index_of(seg_id)] = text
    return result


@dataclass
class TextbergDoc:
    """One Text+Berg document: sentences per side and the gold beads.

    Attributes:
        name: file stem (``dev``).
        source / target: one sentence per line (trailing whitespace removed).
        gold: gold beads as 0-based positions.
        src_lang / tgt_lang: the languages (file extensions).
    """

    name: str
    source: list[str]
    target: list[str]
    gold: list[BeadPositions]
    src_lang: str = "de"
    tgt_lang: str = "fr"

    def project(self) -> Project:
        return Project(
            talk_id=self.name,
            source=Document.from_texts(self.source, self.src_lang),
            target=Document.from_texts(self.target, self.tgt_lang),
        )


def _read_lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8-sig") as handle:
        return [line.rstrip() for line in handle.read().splitlines()]


def load_textberg(directory: str | Path, name: str = "dev", src: str = "de", tgt: str = "fr") -> TextbergDoc:
    """Read ``<name>.<src>``, ``<name>.<tgt>`` and ``<name>.<src><tgt>`` from ``directory``.

    Raises:
        FileNotFoundError: a file is missing.
        FormatError: the gold refers to a line the documents do not have.
    """
    directory = Path(directory)
    source = _read_lines(directory / f"{name}.{src}")
    target = _read_lines(directory / f"{name}.{tgt}")
    gold_path = directory / f"{name}.{src}{tgt}"
    gold = read_beads(gold_path)
    for number, (s, t) in enumerate(gold, start=1):
        if any(i >= len(source) for i in s) or any(j >= len(target) for j in t):
            raise FormatError(gold_path, f"bead refers to a line beyond the documents ({len(source)} × {len(target)})", line=number)
    return TextbergDoc(name=name, source=source, target=target, gold=gold, src_lang=src, tgt_lang=tgt)


def load_mac(directory: str | Path, src: str = "zh", tgt: str = "en") -> list[TextbergDoc]:
    """Read a MAC-style book set: ``<src>/NNN`` and ``<tgt>/NNN`` one sentence a line, ``gold/NNN.align``.

    Returns one document per gold file, in name order (named ``mac/NNN``).

    Raises:
        FileNotFoundError: the folder has no gold beads, or a document is missing.
        FormatError: the gold refers to a line the documents do not have.
    """
    directory = Path(directory)
    golds = sorted((directory / "gold").glob("*.align"))
    if not golds:
        raise FileNotFoundError(f"{directory / 'gold'}: no *.align gold files")
    docs = []
    for gold_path in golds:
        stem = gold_path.name[: -len(".align")]
        source = _read_lines(directory / src / stem)
        target = _read_lines(directory / tgt / stem)
        gold = read_beads(gold_path)
        for number, (s, t) in enumerate(gold, start=1):
            if any(i >= len(source) for i in s) or any(j >= len(target) for j in t):
                raise FormatError(gold_path, f"bead refers to a line beyond the documents ({len(source)} × {len(target)})",
                                  line=number)
        docs.append(TextbergDoc(name=f"mac/{stem}", source=source, target=target, gold=gold, src_lang=src, tgt_lang=tgt))
    return docs


@dataclass
class EpticSpeech:
    """One EPTIC speech: source sentences, interpretation sentences, gold beads, times and reference.

    Folder layout (``eptic-dev/<direction>/<speech>/``): ``src.txt`` /
    ``tgt.txt`` (one sentence per line), ``src.tsv`` / ``tgt.tsv`` (start,
    end, text in seconds), ``gold.align`` (vecalign format, 1-0 omissions and
    0-1 additions included), ``ref.txt`` (the official written translation,
    one line per source sentence, ``-`` where a spoken line has none) and
    ``meta.json`` (languages).

    Attributes:
        name: ``<direction>/<speech>``.
        direction: ``en-fr`` etc.
        source / target: sentences.
        source_times / target_times: (start, end) per sentence, or None.
        reference: one line per source sentence ("" where the translation has none), or None.
        gold: gold beads (0-based positions).
        src_lang / tgt_lang: languages.
    """

    name: str
    direction: str
    source: list[str]
    target: list[str]
    gold: list[BeadPositions]
    src_lang: str
    tgt_lang: str
    source_times: list[tuple[float, float]] | None = None
    target_times: list[tuple[float, float]] | None = None
    reference: list[str] | None = None

    def project(self, *, times: bool = True, reference: bool = False) -> Project:
        """A project of this speech, with timestamps and/or the reference translation when asked."""
        return Project(
            talk_id=self.name.replace("/", "_"),
            source=Document.from_texts(self.source, self.src_lang, self.source_times if times else None),
            target=Document.from_texts(self.target, self.tgt_lang, self.target_times if times else None),
            reference=(
                Document.from_texts(self.reference, self.tgt_lang) if reference and self.reference is not None else None
            ),
        )


def _read_timed(path: Path, count: int) -> list[tuple[float, float]] | None:
    if not path.is_file():
        return None
    rows = _read_lines(path)[1:]
    times = []
    for row in rows[:count]:
        cells = row.split("\t")
        times.append((float(cells[0]), float(cells[1])))
    return times if len(times) == count else None


def load_eptic(root: str | Path) -> list[EpticSpeech]:
    """Every speech under ``root`` (``eptic-dev/``), sorted by direction and speech."""
    import json

    root = Path(root)
    speeches = []
    for folder in sorted(p for p in root.glob("*/*") if (p / "gold.align").is_file()):
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        source = _read_lines(folder / "src.txt")
        target = _read_lines(folder / "tgt.txt")
        ref_path = folder / "ref.txt"
        reference = None
        if ref_path.is_file():
            lines = _read_lines(ref_path)
            if len(lines) == len(source):
                reference = ["" if line.strip() == "-" else line for line in lines]
        speeches.append(
            EpticSpeech(
                name=f"{folder.parent.name}/{folder.name}",
                direction=folder.parent.name,
                source=source,
                target=target,
                gold=read_beads(folder / "gold.align"),
                src_lang=meta.get("src_lang", folder.parent.name.split("-")[0]),
                tgt_lang=meta.get("tgt_lang", folder.parent.name.split("-")[-1]),
                source_times=_read_timed(folder / "src.tsv", len(source)),
                target_times=_read_timed(folder / "tgt.tsv", len(target)),
                reference=reference,
            )
        )
    return speeches
