"""Bead precision, recall and F1 against a gold alignment (docs/algorithms.md: Measuring quality).

Beads are written as in vecalign's alignment files: one bead per line,
``[i,j]:[k]`` with 0-based line positions of the source and target inputs,
optionally followed by ``:cost``; ``[]:[5]`` and ``[3]:[]`` are 0-1/1-0 beads.

Scoring follows the published definition used by vecalign (Thompson & Koehn
2019, after Sennrich & Volk's lax/strict measures):

* Precision looks at every hypothesis bead (1-0/0-1 included) against every
  gold bead: *strict* when the same bead is in the gold, *lax* when it shares
  a source sentence with a gold bead whose target shares a sentence with it.
  A hypothesis 1-0/0-1 bead is therefore strictly right only when the gold
  has that very bead, and never laxly right otherwise.
* Recall swaps the roles with 1-0/0-1 beads removed from both sides, so
  insertions and deletions never count toward recall.
* Beads empty on both sides are ignored; duplicates count once.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from sialign.core.errors import FormatError
from sialign.core.model import Alignment, BeadStatus, Document

BeadPositions = tuple[tuple[int, ...], tuple[int, ...]]

_BEAD_RE = re.compile(r"^\s*\[([\d\s,]*)\]\s*:\s*\[([\d\s,]*)\]\s*(?::\s*(\S+)\s*)?$")


def _ids(field: str) -> tuple[int, ...]:
    return tuple(int(x) for x in field.split(",") if x.strip())


def read_beads(path_or_lines: str | Path | Iterable[str]) -> list[BeadPositions]:
    """Read beads in vecalign's format.

    Args:
        path_or_lines: a file path, or the lines themselves (any iterable of
            strings that is not a ``str``/``Path``).

    Returns:
        One (source positions, target positions) pair of tuples per bead, in
        file order. Costs are read for validation and dropped.

    Raises:
        FormatError: a line is not ``[..]:[..]`` (with an optional number), naming it.
    """
    path: str | None = None
    if isinstance(path_or_lines, (str, Path)):
        path = str(path_or_lines)
        with open(path_or_lines, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    else:
        lines = list(path_or_lines)
    beads: list[BeadPositions] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = _BEAD_RE.match(line)
        if match is None:
            raise FormatError(
                path,
                f"not a bead: {line.strip()[:60]!r}",
                line=number,
                hint="each line must look like [0,1]:[2] or [3]:[] with an optional :cost",
            )
        if match.group(3) is not None:
            try:
                float(match.group(3))
            except ValueError:
                raise FormatError(path, f"the cost {match.group(3)!r} is not a number", line=number) from None
        beads.append((_ids(match.group(1)), _ids(match.group(2))))
    return beads


def format_bead(bead: BeadPositions, cost: float | None = None) -> str:
    """One line of vecalign's format, e.g. ``[0, 1]:[2]:0.3512``."""
    src, tgt = bead
    text = f"[{', '.join(map(str, src))}]:[{', '.join(map(str, tgt))}]"
    if cost is not None:
        text += f":{cost:.6f}"
    return text


def alignment_positions(
    alignment: Alignment, source: Document, target: Document, *, include_dropped: bool = True
) -> list[BeadPositions]:
    """The beads of ``alignment`` as 0-based positions in ``source``/``target``.

    Segment ids survive edits but positions are what gold files hold.
    Dropped beads are kept by default (they still cover their segments, as
    vecalign's own output does); with ``include_dropped=False`` each dropped
    bead becomes 1-0/0-1 beads of its members, i.e. "not aligned".
    """
    beads: list[BeadPositions] = []
    for bead in alignment.beads:
        src = tuple(source.index_of(i) for i in bead.src)
        tgt = tuple(target.index_of(i) for i in bead.tgt)
        if bead.status is BeadStatus.DROPPED and not include_dropped:
            beads.extend(((s,), ()) for s in src)
            beads.extend(((), (t,)) for t in tgt)
        else:
            beads.append((src, tgt))
    return beads


def _match_counts(reference: Sequence[BeadPositions], candidates: Sequence[BeadPositions]) -> tuple[int, int, int, int]:
    """(strict hits, strict misses, lax hits, lax misses) of ``candidates`` judged by ``reference``."""
    ref = {(tuple(s), tuple(t)) for s, t in reference if len(s) or len(t)}
    cand = {(tuple(s), tuple(t)) for s, t in candidates if len(s) or len(t)}
    # Which reference target positions each source position is aligned to:
    # a lax hit needs a shared source position whose reference targets
    # intersect the candidate's targets.
    targets_of_source: dict[int, set[int]] = defaultdict(set)
    for src, tgt in ref:
        for s in src:
            targets_of_source[s].update(tgt)
    strict_hit = strict_miss = lax_hit = lax_miss = 0
    for src, tgt in cand:
        if (src, tgt) in ref:
            strict_hit += 1
            lax_hit += 1
            continue
        strict_miss += 1
        reachable: set[int] = set()
        for s in src:
            reachable |= targets_of_source.get(s, set())
        if reachable.intersection(tgt):
            lax_hit += 1
        else:
            lax_miss += 1
    return strict_hit, strict_miss, lax_hit, lax_miss


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def bead_f1_many(pairs: Iterable[tuple[Sequence[BeadPositions], Sequence[BeadPositions]]]) -> dict[str, float]:
    """Micro-averaged scores over several documents: ``pairs`` of (hypothesis, gold).

    Returns:
        ``precision_strict``, ``recall_strict``, ``f1_strict``,
        ``precision_lax``, ``recall_lax``, ``f1_lax`` (0.0 where undefined).
    """
    p = [0, 0, 0, 0]
    r = [0, 0, 0, 0]
    for hyp, gold in pairs:
        for k, v in enumerate(_match_counts(gold, hyp)):
            p[k] += v
        hyp_pairs = [(s, t) for s, t in hyp if len(s) and len(t)]
        gold_pairs = [(s, t) for s, t in gold if len(s) and len(t)]
        for k, v in enumerate(_match_counts(hyp_pairs, gold_pairs)):
            r[k] += v
    precision_strict = _ratio(p[0], p[0] + p[1])
    precision_lax = _ratio(p[2], p[2] + p[3])
    recall_strict = _ratio(r[0], r[0] + r[1])
    recall_lax = _ratio(r[2], r[2] + r[3])
    return {
        "precision_strict": precision_strict,
        "recall_strict": recall_strict,
        "f1_strict": _f1(precision_strict, recall_strict),
        "precision_lax": precision_lax,
        "recall_lax": recall_lax,
        "f1_lax": _f1(precision_lax, recall_lax),
    }


def bead_f1(hyp: Sequence[BeadPositions], gold: Sequence[BeadPositions]) -> dict[str, float]:
    """Strict and lax precision/recall/F1 of one hypothesis against its gold.

    See the module docstring for the definitions; keys as in :func:`bead_f1_many`.
    """
    return bead_f1_many([(hyp, gold)])
