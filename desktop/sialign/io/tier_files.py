"""Praat TextGrid and ELAN EAF text for tiers of timed intervals (exports and transcript conversion), and the XML escaping they share with TMX."""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path
from xml.sax.saxutils import escape as _xml_escape
from xml.sax.saxutils import quoteattr

from sialign.io.timecodes import format_seconds

# (start, end, text) of one interval of a TextGrid or EAF tier.
Interval = tuple[float, float, str]


# Characters XML 1.0 cannot carry at all (even escaped).
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_text(value: str) -> str:
    return _xml_escape(_XML_ILLEGAL.sub("", value))


def xml_attr(value: str) -> str:
    return quoteattr(_XML_ILLEGAL.sub("", value), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _praat_string(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def textgrid_text(tiers: list[tuple[str, list[Interval]]]) -> str:
    """A long-form text TextGrid; each tier covers 0..the last end, gaps as empty intervals."""
    xmax = max((b for _, items in tiers for _, b, _ in items), default=0.0)
    out = [
        'File type = "ooTextFile"',
        'Object class = "TextGrid"',
        "",
        "xmin = 0 ",
        f"xmax = {format_seconds(xmax)} ",
        "tiers? <exists> ",
        f"size = {len(tiers)} ",
        "item []: ",
    ]
    for number, (name, items) in enumerate(tiers, start=1):
        intervals: list[Interval] = []
        t = 0.0
        for a, b, text in items:
            if a > t + 1e-9:
                intervals.append((t, a, ""))
            intervals.append((max(a, t), b, text))
            t = max(t, b)
        if xmax > t + 1e-9:
            intervals.append((t, xmax, ""))
        out += [
            f"    item [{number}]:",
            '        class = "IntervalTier" ',
            f"        name = {_praat_string(name)} ",
            "        xmin = 0 ",
            f"        xmax = {format_seconds(xmax)} ",
            f"        intervals: size = {len(intervals)} ",
        ]
        for k, (a, b, text) in enumerate(intervals, start=1):
            out += [
                f"        intervals [{k}]:",
                f"            xmin = {format_seconds(a)} ",
                f"            xmax = {format_seconds(b)} ",
                f"            text = {_praat_string(text)} ",
            ]
    return "\n".join(out) + "\n"


# MIME types ELAN writes for the media it links (MEDIA_DESCRIPTOR requires one).
_MEDIA_MIME = {
    ".wav": "audio/x-wav",
    ".mp3": "audio/mpeg",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".flac": "audio/flac",
    ".ogg": "audio/ogg",
    ".opus": "audio/ogg",
    ".aif": "audio/x-aiff",
    ".aiff": "audio/x-aiff",
    ".mp4": "video/mp4",
    ".m4v": "video/mp4",
    ".mpg": "video/mpeg",
    ".mpeg": "video/mpeg",
    ".mov": "video/quicktime",
    ".webm": "video/webm",
    ".mkv": "video/x-matroska",
    ".avi": "video/x-msvideo",
}


def media_mime_type(media: str | Path) -> str:
    """The MIME type ELAN expects for a media file, from its extension."""
    suffix = Path(media).suffix.lower()
    if suffix in _MEDIA_MIME:
        return _MEDIA_MIME[suffix]
    import mimetypes

    guessed = mimetypes.guess_type(Path(media).name)[0]
    return guessed or "application/octet-stream"


def relative_media_url(media: str | Path, document: str | Path | None) -> str | None:
    """The media file's URL relative to the folder of ``document`` (``./a.wav``, ``../audio/a.wav``).

    None when there is no document path or no relative path (another drive).
    """
    import os
    import urllib.parse

    if document is None or str(document) == "-":
        return None
    try:
        rel = os.path.relpath(Path(media).resolve(), Path(document).resolve().parent)
    except ValueError:
        return None
    url = urllib.parse.quote(rel.replace(os.sep, "/"), safe="/")
    return url if url.startswith("../") else "./" + url


def eaf_text(tiers: list[tuple[str, list[Interval]]], media: list[str], document: str | Path | None = None) -> str:
    """An ELAN 3.0 document with one time-aligned tier per entry of ``tiers``.

    ``document`` is where the EAF will be written: media links are given
    relative to its folder too, as ELAN does.
    """
    date = _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<ANNOTATION_DOCUMENT AUTHOR="" DATE="{date}" FORMAT="3.0" VERSION="3.0" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        'xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">',
        '    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">',
    ]
    for item in media:
        attrs = f"MEDIA_URL={xml_attr(Path(item).resolve().as_uri())} MIME_TYPE={xml_attr(media_mime_type(item))}"
        relative = relative_media_url(item, document)
        if relative is not None:
            attrs += f" RELATIVE_MEDIA_URL={xml_attr(relative)}"
        out.append(f"        <MEDIA_DESCRIPTOR {attrs}/>")
    out += ["    </HEADER>", "    <TIME_ORDER>"]
    slot = 0
    annotations: list[list[str]] = []
    for _, items in tiers:
        lines = []
        for a, b, text in items:
            out.append(f'        <TIME_SLOT TIME_SLOT_ID="ts{slot + 1}" TIME_VALUE="{int(round(a * 1000))}"/>')
            out.append(f'        <TIME_SLOT TIME_SLOT_ID="ts{slot + 2}" TIME_VALUE="{int(round(b * 1000))}"/>')
            lines += [
                "        <ANNOTATION>",
                f'            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a{slot // 2 + 1}" TIME_SLOT_REF1="ts{slot + 1}" TIME_SLOT_REF2="ts{slot + 2}">',
                f"                <ANNOTATION_VALUE>{xml_text(text)}</ANNOTATION_VALUE>",
                "            </ALIGNABLE_ANNOTATION>",
                "        </ANNOTATION>",
            ]
            slot += 2
        annotations.append(lines)
    out.append("    </TIME_ORDER>")
    for (name, _), lines in zip(tiers, annotations):
        out.append(f'    <TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID={xml_attr(name)}>')
        out += lines
        out.append("    </TIER>")
    out += [
        '    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>',
        "</ANNOTATION_DOCUMENT>",
    ]
    return "\n".join(out) + "\n"
