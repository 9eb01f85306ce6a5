"""How the desktop app words the settings an error asks the user to change.

The layers below the front ends name what to change in their own terms and
list it in :attr:`~sialign.core.errors.SialignError.settings`; the app adds
where its user changes each: a menu, a dialog or a box
(:data:`WHERE_IN_THE_APP`). Every place that shows a library error shows
:func:`error_text` of it.
"""

from __future__ import annotations

from sialign.core.errors import SialignError

PROPERTIES = "File → Project properties…"
# Where in the app each setting of sialign.core.errors.SETTINGS is changed ("" for one the app does not offer).
WHERE_IN_THE_APP: dict[str, str] = {
    "allow_overlaps": "",
    "encoding": "the encoding box of New talk",
    "src_encoding": "the encoding box of New talk",
    "tgt_encoding": "the encoding box of New talk",
    "ref_encoding": "the encoding box of New talk",
    "tier": "the column box of New talk",
    "src_lang": f"{PROPERTIES}: Source language",
    "tgt_lang": f"{PROPERTIES}: Interpretation language",
    "language": "",
    "method": "",
    "max_src": "",
    "max_tgt": "",
    "embedder": "Settings → Embedding model…",
    "filters": "the Filters panel",
    "src_audio": f"{PROPERTIES}: Source audio, Locate…",
    "tgt_audio": f"{PROPERTIES}: Interpreter audio, Locate…",
    "project_files": f"{PROPERTIES}: Locate…",
    "allowed_folders": "open the project again and choose Allow",
    "source_times": "Align → Time from audio…",
    "speech_model": "Settings → Speech models…",
    "model_name": "",
    "model_link": "",
    "tagged": "",
    "pooled": "",
    "split": "",
    "dev": "",
    "test": "",
    "force": "",
    "dask": "",
    "jobs": "",
    "project_file": "File → Open…",
    "split_corpus": "",
    "remove_model": "the Remove button",
    "align": "Align → Align",
    # The app takes the lock itself and owns the recovery files: nothing to change there.
    "write_held": "",
    "discard_recovery": "",
}


def app_ways(exc: BaseException) -> list[str]:
    """Where in the app the settings ``exc`` names are changed, in their order (none for other errors)."""
    ways: list[str] = []
    for setting in getattr(exc, "settings", ()) if isinstance(exc, SialignError) else ():
        way = WHERE_IN_THE_APP.get(setting, "")
        if way and way not in ways:
            ways.append(way)
    return ways


def error_text(exc: BaseException) -> str:
    """``str(exc)`` with where the app changes what it names: ``... — set the project's source recording (File → ...)``."""
    text, ways = str(exc), app_ways(exc)
    if not ways:
        return text
    # Inside a closing full stop: "... where to get one (Settings → Speech models…)."
    stop = "." if text.endswith(".") and not text.endswith("..") else ""
    return f"{text.removesuffix(stop)} ({'; '.join(ways)}){stop}"


__all__ = ["WHERE_IN_THE_APP", "app_ways", "error_text"]
