"""Readers of Praat TextGrid and ELAN EAF files: tiers of timed intervals or annotations."""

from __future__ import annotations

import math
import re
import xml.parsers.expat
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import EmptyInputError, FormatError, TierNotFoundError, TimestampError
from sialign.io.timecodes import check_seconds
from sialign.io.transcript_items import MAX_SEGMENTS, RawItem, too_many_error

_TG_TOKEN = re.compile(
    # Strings ("" escapes a quote, may span lines). Written as an unrolled
    # loop: "(?:[^"]|"")*" keeps one backtracking frame per character and
    # needs gigabytes for a string of a few megabytes.
    r'"(?P<str>[^"]*(?:""[^"]*)*)"'
    r"|(?P<flag><exists>|<absent>)"
    r"|\[[^\]\n]*\]"  # item [1]: / intervals [3]: indices are labels, not data
    r"|(?P<num>(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.]))"
    r"|(?P<comment>![^\n]*)"
    r"|[A-Za-z_]\w*"  # labels such as 'xmin =' and 'intervals: size ='
    r"|[=:?\s]+"
)


# Three values per interval (xmin, xmax, text), plus the header.
_MAX_TOKENS = 3 * MAX_SEGMENTS + 1000


@dataclass(slots=True)
class _Token:
    kind: str  # "str", "num" or "flag"
    value: str
    line: int


def _textgrid_tokens(text: str, path: str | Path) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    line = 1
    while pos < len(text):
        m = _TG_TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise FormatError(path, f"unexpected text {text[pos:pos + 30]!r} in the TextGrid", line=line, hint="open and save the file in Praat")
        for kind in ("str", "num", "flag"):
            if m.group(kind) is not None:
                value = m.group(kind).replace('""', '"') if kind == "str" else m.group(kind)
                tokens.append(_Token(kind, value, line))
                if len(tokens) > _MAX_TOKENS:
                    raise too_many_error(path, len(tokens) // 3, "intervals", MAX_SEGMENTS)
        line += m.group().count("\n")
        pos = m.end()
    return tokens


@dataclass
class TextGridTier:
    """One tier of a TextGrid: name, class and its intervals (or points)."""

    name: str
    tier_class: str
    items: list[RawItem]
    line: int = 0


class _TokenStream:
    def __init__(self, tokens: list[_Token], path: str | Path) -> None:
        self.tokens = tokens
        self.pos = 0
        self.path = path

    def take(self, kind: str, what: str) -> _Token:
        if self.pos >= len(self.tokens):
            last = self.tokens[-1].line if self.tokens else 1
            raise FormatError(self.path, f"the TextGrid ends early (expected {what})", line=last, hint="the file is truncated; save it again in Praat")
        tok = self.tokens[self.pos]
        if tok.kind != kind:
            raise FormatError(self.path, f"expected {what} but found {tok.value!r}", line=tok.line, hint="the TextGrid is malformed; open and save it in Praat")
        self.pos += 1
        return tok

    def number(self, what: str) -> float:
        tok = self.take("num", what)
        try:
            return check_seconds(float(tok.value), tok.value)
        except ValueError:
            raise TimestampError(
                self.path, f"{what} {tok.value[:30]!r} is not a usable time", line=tok.line, hint="correct the time in Praat"
            ) from None

    def count(self, what: str) -> int:
        tok = self.take("num", what)
        value = float(tok.value)
        if not math.isfinite(value) or value < 0 or value != int(value):
            raise FormatError(self.path, f"{what} must be a whole number, found {tok.value[:30]}", line=tok.line)
        # No count can exceed the tokens left in the file; a larger one is
        # damage, reported here instead of as a confusing early end.
        if value > len(self.tokens):
            raise FormatError(
                self.path, f"{what} is {tok.value[:30]}, more than the file holds", line=tok.line, hint="the TextGrid is damaged; open and save it in Praat"
            )
        return int(value)


def parse_textgrid_tiers(text: str, path: str | Path) -> list[TextGridTier]:
    """All tiers of a text TextGrid (long or short form, Praat's "ooTextFile")."""
    if "ooBinaryFile" in text[:40]:
        raise FormatError(path, "binary TextGrids cannot be read", line=1, hint="in Praat, save it with 'Save as text file'")
    stream = _TokenStream(_textgrid_tokens(text, path), path)
    file_type = stream.take("str", "the file type 'ooTextFile'")
    if not file_type.value.startswith("ooTextFile"):
        raise FormatError(path, f"this is not a Praat text file (file type {file_type.value!r})", line=file_type.line)
    obj = stream.take("str", "the object class 'TextGrid'")
    if not obj.value.startswith("TextGrid"):
        raise FormatError(path, f"this Praat file holds a {obj.value}, not a TextGrid", line=obj.line)
    stream.number("xmin")
    stream.number("xmax")
    if stream.pos < len(stream.tokens) and stream.tokens[stream.pos].kind == "flag":
        if stream.take("flag", "<exists>").value == "<absent>":
            return []
    n_tiers = stream.count("the number of tiers")
    tiers: list[TextGridTier] = []
    for _ in range(n_tiers):
        class_tok = stream.take("str", "a tier class")
        tier_class = class_tok.value
        name = stream.take("str", "a tier name").value
        stream.number("tier xmin")
        stream.number("tier xmax")
        n_items = stream.count("the number of intervals")
        items: list[RawItem] = []
        if tier_class == "IntervalTier":
            for _ in range(n_items):
                xmin = stream.number("interval xmin")
                xmax = stream.number("interval xmax")
                tok = stream.take("str", "interval text")
                items.append(RawItem(tok.value, xmin, xmax, tok.line))
        elif tier_class == "TextTier":
            for _ in range(n_items):
                t = stream.number("point time")
                tok = stream.take("str", "point mark")
                items.append(RawItem(tok.value, t, t, tok.line))
        else:
            raise FormatError(path, f"unknown tier class {tier_class[:40]!r}", line=class_tok.line, hint="expected IntervalTier or TextTier")
        tiers.append(TextGridTier(name, tier_class, items, class_tok.line))
    return tiers


def _choose_tier(names: list[str], tier: str | int | None, path: str | Path, kind: str, usable: list[bool]) -> int:
    """Index of the tier asked for (a name, or a 1-based number), or the first usable one."""
    listing = ", ".join(f"{i + 1}: {n!r}" for i, n in enumerate(names)) or "none"
    if tier is None:
        for i, ok in enumerate(usable):
            if ok:
                return i
        raise EmptyInputError(path, f"no {kind} with text in this file", hint=f"tiers: {listing}")
    if isinstance(tier, str) and tier in names:
        return names.index(tier)
    key = str(tier).strip()
    # isdigit() is also true for '²' and other digits int() refuses.
    if key.isascii() and key.isdigit() and 1 <= int(key) <= len(names):
        return int(key) - 1
    raise TierNotFoundError(path, f"no tier {tier!r}", hint=f"choose one of {listing}")


def parse_textgrid(text: str, path: str | Path, tier: str | int | None = None) -> list[RawItem]:
    """Non-empty intervals of one interval tier (default: the first interval tier)."""
    tiers = parse_textgrid_tiers(text, path)
    usable = [t.tier_class == "IntervalTier" and any(r.text.strip() for r in t.items) for t in tiers]
    chosen = tiers[_choose_tier([t.name for t in tiers], tier, path, "interval tier", usable)]
    if chosen.tier_class != "IntervalTier":
        raise FormatError(path, f"tier {chosen.name!r} is a point tier, not an interval tier", line=chosen.line or None, hint="choose an interval tier")
    return [RawItem(r.text.strip(), r.start, r.end, r.line) for r in chosen.items if r.text.strip()]


@dataclass
class EafTier:
    """One tier of an ELAN file and its annotations (times in seconds)."""

    tier_id: str
    items: list[RawItem]


def parse_eaf_tiers(text: str, path: str | Path) -> list[EafTier]:
    """All tiers of an ELAN annotation document, annotations sorted by start time.

    Time slots without a value (unaligned) get times interpolated between the
    nearest aligned slots, as ELAN displays them. Reference annotations take
    the times of the annotation they refer to.
    """
    slot_order: list[str] = []
    slot_values: dict[str, float | None] = {}
    tiers: list[tuple[str, list[dict]]] = []
    stack: list[str] = []
    current: dict | None = None
    value_parts: list[str] = []
    parser = xml.parsers.expat.ParserCreate()
    root_seen: list[str] = []
    counted = [0]

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal current
        if not root_seen:
            root_seen.append(name)
        stack.append(name)
        if name == "TIME_SLOT":
            sid = attrs.get("TIME_SLOT_ID", "")
            slot_order.append(sid)
            raw = attrs.get("TIME_VALUE")
            try:
                slot_values[sid] = check_seconds(int(raw) / 1000, raw) if raw not in (None, "") else None
            except (ValueError, OverflowError):
                raise TimestampError(
                    path, f"time slot {sid[:40]!r} has the value {str(raw)[:30]!r}, not milliseconds of a recording", line=parser.CurrentLineNumber
                ) from None
        elif name == "TIER":
            tiers.append((attrs.get("TIER_ID", f"tier {len(tiers) + 1}"), []))
        elif name in ("ALIGNABLE_ANNOTATION", "REF_ANNOTATION") and tiers:
            current = dict(attrs, _kind=name, _line=parser.CurrentLineNumber)
            counted[0] += 1
            if counted[0] > MAX_SEGMENTS:
                raise too_many_error(path, counted[0], "annotations", MAX_SEGMENTS)
        elif name == "ANNOTATION_VALUE":
            value_parts.clear()

    def end(name: str) -> None:
        nonlocal current
        stack.pop()
        if name == "ANNOTATION_VALUE" and current is not None:
            current["_value"] = "".join(value_parts)
        elif name in ("ALIGNABLE_ANNOTATION", "REF_ANNOTATION") and current is not None:
            tiers[-1][1].append(current)
            current = None

    def chars(data: str) -> None:
        if stack and stack[-1] == "ANNOTATION_VALUE":
            value_parts.append(data)

    def skipped(name: str, is_parameter: bool) -> None:
        # An entity a declaration outside the file would define: expat skips it, and its annotation's text with it.
        raise FormatError(path, f"the entity &{name[:40]}; is not defined in the file, so the text it stands for is unknown",
                          line=parser.CurrentLineNumber, hint="replace it by its text (in ELAN or a text editor)")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.SkippedEntityHandler = skipped
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        raise FormatError(path, f"the ELAN file is not well-formed XML ({xml.parsers.expat.errors.messages[exc.code]})", line=exc.lineno, hint="open and save it in ELAN") from None
    if not root_seen or root_seen[0] != "ANNOTATION_DOCUMENT":
        raise FormatError(path, "this XML file is not an ELAN annotation document", line=1, hint="choose an .eaf file")

    times = _interpolate_slots(slot_order, slot_values)
    by_id: dict[str, tuple[float | None, float | None]] = {}
    pending_refs: list[dict] = []
    for _, tier_annotations in tiers:
        for a in tier_annotations:
            if a["_kind"] == "ALIGNABLE_ANNOTATION":
                for key in ("TIME_SLOT_REF1", "TIME_SLOT_REF2"):
                    if a.get(key) not in times:
                        slot = f"the unknown time slot {a[key]!r}" if a.get(key) else f"no time slot (its {key} is missing)"
                        raise FormatError(path, f"annotation {a.get('ANNOTATION_ID')!r} refers to {slot}", line=a["_line"],
                                          hint="open and save the file in ELAN, which repairs or names the broken annotation")
                by_id[a.get("ANNOTATION_ID", "")] = (times[a["TIME_SLOT_REF1"]], times[a["TIME_SLOT_REF2"]])
            else:
                pending_refs.append(a)
    _resolve_references(pending_refs, by_id)

    result: list[EafTier] = []
    for tier_id, tier_annotations in tiers:
        items = []
        for a in tier_annotations:
            s, e = by_id.get(a.get("ANNOTATION_ID", ""), (None, None))
            items.append(RawItem(a.get("_value", ""), s, e, a["_line"], label=a.get("ANNOTATION_ID", "")))
        items.sort(key=lambda r: (r.start is None, r.start if r.start is not None else 0.0))
        result.append(EafTier(tier_id, items))
    return result


def _resolve_references(refs: list[dict], by_id: dict[str, tuple[float | None, float | None]]) -> None:
    """Give each reference annotation the times of the annotation it refers to.

    References may point at other references. Each chain is followed once and
    every annotation on it resolved on the way back, so the work is linear in
    the number of annotations; a chain that ends nowhere or loops leaves its
    annotations without times.
    """
    ref_of = {a.get("ANNOTATION_ID", ""): a.get("ANNOTATION_REF") for a in refs}
    for start in ref_of:
        if start in by_id:
            continue
        chain: list[str] = []
        seen: set[str] = set()
        node: str | None = start
        while node is not None and node not in by_id and node in ref_of and node not in seen:
            seen.add(node)
            chain.append(node)
            node = ref_of[node]
        times = by_id.get(node, (None, None)) if node is not None and node in by_id else (None, None)
        for aid in chain:
            by_id[aid] = times


def _interpolate_slots(order: list[str], values: dict[str, float | None]) -> dict[str, float | None]:
    """Fill unaligned slots linearly between the nearest aligned ones (None at the ends)."""
    out: dict[str, float | None] = dict(values)
    known = [i for i, sid in enumerate(order) if values.get(sid) is not None]
    for a, b in zip(known, known[1:]):
        va, vb = values[order[a]], values[order[b]]
        assert va is not None and vb is not None
        for k in range(a + 1, b):
            out[order[k]] = va + (vb - va) * (k - a) / (b - a)
    return out


def parse_eaf(text: str, path: str | Path, tier: str | int | None = None) -> list[RawItem]:
    """Non-empty annotations of one tier (by TIER_ID or 1-based number; default the first with text)."""
    tiers = parse_eaf_tiers(text, path)
    usable = [any(r.text.strip() for r in t.items) for t in tiers]
    chosen = tiers[_choose_tier([t.tier_id for t in tiers], tier, path, "tier", usable)]
    return [RawItem(r.text.strip(), r.start, r.end, r.line, label=r.label) for r in chosen.items if r.text.strip()]
