"""Interpretations with renditions cut out, where the truth is known (DESIGN.md §5, *Omissions*).

Real gold omissions are few (AHC-SI's dev gold has none), so the omission decision is fitted and checked on
dev interpretations whose renditions of chosen sentences were removed from the interpreter's transcript:
the chunks (or sentences) that render them, with their times where the talk has times, so that the gap
is in the interpreter's speech too. The cut sentences are then left out by construction.

Where the cuts fall (``CUT_PATTERNS``), each a variant of every document:

- ``every8``: every 8th sentence (from the 4th), as a held-out check cuts;
- ``mixed``: two sentences in a row, the first and the last sentence, a short sentence between two longer
  ones, and a sentence whose next rendition starts with a connective (でも、そして、but, and…).

The documents: the 4 AHC-SI dev talks (English → Japanese chunks; text only and with the reference), the
example talk (its two real omissions kept; text only, with the reference, with times) and the 58 EPTIC
dev speeches (sentence targets, their real gold omissions kept; text only and timed). One document's
variants and modes are held out together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
EXAMPLE = ROOT / "resources" / "examples"

Gold = list[tuple[tuple[int, ...], tuple[int, ...]]]

# The first words of a rendition that starts with a connective (a cut before it leaves the connective's
# sentence looking like the start of the next one).
CONNECTIVES = re.compile(r"^(でも|そして|それで|しかし|だから|そこで|もちろん|また|ですから|では|and\b|but\b|so\b|et\b|mais\b|donc\b|e\b|ma\b|quindi\b)",
                         re.IGNORECASE)
CUT_PATTERNS = ("every8", "mixed")


@dataclass
class CutDoc:
    """One variant of one document with some renditions cut out.

    Attributes:
        doc: the document (held out together).
        set: the row it is reported in (``ahcsi``, ``example``, ``eptic``).
        pattern: where the cuts fall (``every8``, ``mixed``).
        mode: ``text``, ``reference`` or ``timed``.
        make: builds the project (source, the cut target, reference and times as the mode says).
        gold: gold beads over the cut target (cut sentences as 1-0 beads).
        cut: the source positions whose renditions were removed.
        units: ``chunks`` or ``sentences``.
    """

    doc: str
    set: str
    pattern: str
    mode: str
    make: Callable[[], Any]
    gold: Gold
    cut: frozenset[int]
    units: str
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.doc}|{self.pattern}|{self.mode}"


def choose_cuts(n: int, pattern: str, renders: list[list[str]], words: list[int]) -> list[int]:
    """The source positions to cut: ``renders[i]`` are sentence i's target pieces, ``words[i]`` its length.

    Only sentences with a rendition can be cut, and a cut never leaves a talk without any rendition.
    """
    can = [i for i in range(n) if renders[i]]
    if pattern == "every8":
        chosen = [i for i in can if i % 8 == 3]
    else:
        chosen_set: set[int] = set()
        if len(can) >= 4:
            chosen_set.update((can[0], can[-1]))
        # Two in a row, once per 20 sentences.
        for start in range(6, n - 2, 20):
            if start in can and start + 1 in can:
                chosen_set.update((start, start + 1))
        # A short sentence between longer ones.
        short = [i for i in can if 0 < i < n - 1 and words[i] <= 6 and words[i - 1] > words[i] and words[i + 1] > words[i]]
        chosen_set.update(short[::2][: max(1, n // 25)])
        # A sentence whose next rendition starts with a connective.
        joined = [i for i in can if i + 1 < n and renders[i + 1] and CONNECTIVES.match(renders[i + 1][0].strip())]
        chosen_set.update(joined[1::3][: max(1, n // 25)])
        chosen = sorted(chosen_set)
    # Leave at least half of the rendered sentences.
    return chosen[: max(1, len(can) // 2)]


def _gold_after_cut(gold: Gold, cut: set[int], n_tgt: int) -> tuple[Gold, list[int]]:
    """Gold beads with the cut sentences' targets removed; also the kept target positions (old numbers)."""
    removed = {t for s, ts in gold if s and any(i in cut for i in s) for t in ts}
    kept = [t for t in range(n_tgt) if t not in removed]
    new_of = {t: k for k, t in enumerate(kept)}
    out: Gold = []
    for s, ts in gold:
        if s and any(i in cut for i in s):
            # A cut sentence in a many-sentence bead: each of its sentences is left out.
            out.extend(((i,), ()) for i in s)
        else:
            out.append((s, tuple(new_of[t] for t in ts)))
    return out, kept


# ------------------------------------------------------------------ AHC-SI
def _ahcsi_owned(manual: list[str]) -> tuple[list[str], list[int]]:
    """The talk's chunks (cut after 、。？！ over the concatenated gold) and the sentence owning most of each."""
    from sialign.evaluate.datasets import chunk_after_punctuation

    text = "".join(manual)
    owner_of_char: list[int] = []
    for i, span in enumerate(manual):
        owner_of_char.extend([i] * len(span))
    chunks = chunk_after_punctuation(text)
    owners: list[int] = []
    pos = 0
    for chunk in chunks:
        start = text.index(chunk, pos)
        pos = start + len(chunk)
        counts: dict[int, int] = {}
        for c in range(start, pos):
            counts[owner_of_char[c]] = counts.get(owner_of_char[c], 0) + 1
        owners.append(max(counts, key=lambda k: (counts[k], -k)))
    return chunks, owners


def ahcsi_docs(patterns: tuple[str, ...] = CUT_PATTERNS, *, uncut: bool = True) -> list[CutDoc]:
    from sialign.core.model import Document, Project
    from sialign.evaluate.datasets import load_ahcsi

    docs: list[CutDoc] = []
    for talk in load_ahcsi(DATA / "ahcsi-dev" / "dev.true.tsv"):
        chunks, owners = _ahcsi_owned(talk.manual)
        n = len(talk.source)
        gold: Gold = [((i,), tuple(j for j, o in enumerate(owners) if o == i)) for i in range(n)]
        renders = [[chunks[j] for j in ts] for _, ts in gold]
        words = [len(s.split()) for s in talk.source]
        for pattern in (["none"] if uncut else []) + list(patterns):
            cut = set() if pattern == "none" else set(choose_cuts(n, pattern, renders, words))
            cut_gold, kept = _gold_after_cut(gold, cut, len(chunks))
            target = [chunks[j] for j in kept]
            # AHC-SI's own measure (LCS accuracy) over the sentences not cut: their gold spans.
            manual = {i: talk.manual[i] for i in range(n) if i not in cut}
            for mode in ("text", "reference"):
                def make(talk: Any = talk, target: list[str] = target, mode: str = mode) -> Any:
                    return Project(talk_id=talk.name, source=Document.from_texts(talk.source, "en"),
                                   target=Document.from_texts(target, "ja"),
                                   reference=Document.from_texts(talk.reference, "ja") if mode == "reference" else None)

                docs.append(CutDoc(f"ahcsi/{talk.name}", "ahcsi", pattern, mode, make, cut_gold, frozenset(cut), "chunks",
                                   {"manual": manual, "target": target}))
    return docs


# ------------------------------------------------------------------ the example talk
def example_docs(patterns: tuple[str, ...] = CUT_PATTERNS, *, uncut: bool = True) -> list[CutDoc]:
    from sialign.core.model import Document, Project
    from sialign.evaluate.beads import read_beads
    from sialign.io.readers import read_transcript

    src = read_transcript(EXAMPLE / "talk.en.srt")
    tgt = read_transcript(EXAMPLE / "talk.ja.srt")
    ref = [line for line in (EXAMPLE / "talk.ref.ja.txt").read_text(encoding="utf-8").splitlines()]
    gold: Gold = [(tuple(s), tuple(t)) for s, t in read_beads(EXAMPLE / "talk.gold.align")]
    n = len(src)
    by_src = {s[0]: ts for s, ts in gold if len(s) == 1}
    renders = [[tgt.segments[j].text for j in by_src.get(i, ())] for i in range(n)]
    words = [len(s.text.split()) for s in src.segments]
    variants = (["none"] if uncut else []) + list(patterns)
    docs: list[CutDoc] = []
    for pattern in variants:
        cut = set() if pattern == "none" else set(choose_cuts(n, pattern, renders, words))
        cut_gold, kept = _gold_after_cut(gold, cut, len(tgt))
        segs = [tgt.segments[j] for j in kept]
        for mode in ("text", "reference", "timed"):
            def make(segs: list[Any] = segs, mode: str = mode) -> Any:
                timed = mode == "timed"
                source = Document.from_texts([s.text for s in src.segments], "en",
                                             [(s.start, s.end) for s in src.segments] if timed else None)
                target = Document.from_texts([s.text for s in segs], "ja", [(s.start, s.end) for s in segs] if timed else None)
                return Project(talk_id="talk", source=source, target=target,
                               reference=Document.from_texts(ref, "ja") if mode == "reference" else None)

            docs.append(CutDoc("example", "example", pattern, mode, make, cut_gold, frozenset(cut), "chunks"))
    return docs


# ------------------------------------------------------------------ EPTIC
def eptic_docs(patterns: tuple[str, ...] = CUT_PATTERNS, *, uncut: bool = True) -> list[CutDoc]:
    from sialign.core.model import Document, Project
    from sialign.evaluate.datasets import load_eptic

    docs: list[CutDoc] = []
    for speech in load_eptic(DATA / "eptic-dev"):
        gold: Gold = [(tuple(s), tuple(t)) for s, t in speech.gold]
        n = len(speech.source)
        single = {s[0]: ts for s, ts in gold if len(s) == 1}
        renders = [[speech.target[j] for j in single.get(i, ())] for i in range(n)]
        words = [len(s.split()) for s in speech.source]
        for pattern in (["none"] if uncut else []) + list(patterns):
            cut = set() if pattern == "none" else set(choose_cuts(n, pattern, renders, words))
            cut_gold, kept = _gold_after_cut(gold, cut, len(speech.target))
            for mode in ("text", "timed"):
                def make(speech: Any = speech, kept: list[int] = kept, mode: str = mode) -> Any:
                    timed = mode == "timed" and speech.target_times is not None and speech.source_times is not None
                    return Project(
                        talk_id=speech.name.replace("/", "_"),
                        source=Document.from_texts(speech.source, speech.src_lang, speech.source_times if timed else None),
                        target=Document.from_texts([speech.target[j] for j in kept], speech.tgt_lang,
                                                   [speech.target_times[j] for j in kept] if timed and speech.target_times else None),
                    )

                docs.append(CutDoc(f"eptic/{speech.name}", "eptic", pattern, mode, make, cut_gold, frozenset(cut), "sentences"))
    return docs


def hyp_beads(project: Any) -> Gold:
    """The project's beads as positions (1-0 beads whatever their status)."""
    src_pos = {s.id: i for i, s in enumerate(project.source.segments)}
    tgt_pos = {s.id: i for i, s in enumerate(project.target.segments)}
    return [(tuple(src_pos[i] for i in b.src), tuple(tgt_pos[j] for j in b.tgt)) for b in project.alignment.beads]


def omission_counts(hyp: Gold, gold: Gold) -> tuple[int, int, int]:
    """(found, false, missed) sentences left out, as ``metrics.bead_scores`` counts them."""
    g = {x for s, t in gold if s and not t for x in s}
    h = {x for s, t in hyp if s and not t for x in s}
    return len(g & h), len(h - g), len(g - h)
