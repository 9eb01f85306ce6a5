"""EDICT, the Japanese-English dictionary of the EDRDG, as English keys per Japanese word.

Word links between Japanese and English draw on it (:mod:`sialign.links`): a
Japanese word and an English word that the dictionary glosses it with are
likelier a link. The dictionary is not shipped with SI Aligner: it is read
where Debian's ``edict`` package installs it (``/usr/share/edict/edict``,
EUC-JP; ``packaging/dev.sh setup`` installs it) or from the file named by
``SIALIGN_EDICT`` (EDICT or EDICT2 format, EUC-JP or UTF-8). Without it,
links are drawn without the dictionary. Licence: Creative Commons
Attribution-ShareAlike (the EDRDG's General Dictionary Licence).

A line reads ``漢字;かんじ [よみ] /(n) gloss one/gloss two/EntL123/``: every
written form and every reading becomes a key; its glosses are kept as text
(up to 200 MB in memory, held by the process that reads Japanese)
and turned into English matching keys (:func:`sialign.text.lemmas.english_lemma`
of each content word) the first time a key is looked up.
"""

from __future__ import annotations

import os
import re
import threading
from functools import lru_cache
from pathlib import Path

from sialign.text.english import STOPWORDS
from sialign.text.lemmas import english_lemma

DEBIAN_PATH = Path("/usr/share/edict/edict")
_TAGS = re.compile(r"\([^)]*\)|\{[^}]*\}")
_EN_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
_LOCK = threading.Lock()
_GLOSSES: dict[str, str] | None = None
_LOADED_FROM: Path | None = None


def edict_path() -> Path | None:
    """The dictionary file: ``SIALIGN_EDICT`` if set, else Debian's when installed; None when there is none."""
    named = os.environ.get("SIALIGN_EDICT")
    if named:
        return Path(named)
    return DEBIAN_PATH if DEBIAN_PATH.is_file() else None


def _read(path: Path) -> dict[str, str]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("euc-jp", errors="replace")
    # One string per form (entries joined by "/"): a list per form would cost a third more memory.
    glosses: dict[str, str] = {}
    for line in text.splitlines():
        head, sep, rest = line.partition(" /")
        if not sep:
            continue
        written, _, readings = head.partition(" [")
        forms = written.split(";") + (readings.rstrip("]").split(";") if readings else [])
        for form in forms:
            key = form.split("(")[0].strip()
            if key:
                glosses[key] = f"{glosses[key]}/{rest}" if key in glosses else rest
    return glosses


def _glosses() -> dict[str, str]:
    """Gloss text per Japanese form, read once per process (an empty dict without a dictionary)."""
    global _GLOSSES, _LOADED_FROM
    path = edict_path()
    with _LOCK:
        if _GLOSSES is None or path != _LOADED_FROM:
            try:
                _GLOSSES = _read(path) if path is not None else {}
            except OSError:
                _GLOSSES = {}
            _LOADED_FROM = path
            english_keys.cache_clear()
        return _GLOSSES


def edict_available() -> bool:
    """Whether a dictionary file is there and holds entries."""
    return bool(_glosses())


@lru_cache(maxsize=50_000)
def english_keys(form: str) -> frozenset[str]:
    """English matching keys of the glosses of a Japanese form (empty when it is not in the dictionary).

    Content words of every gloss (English stopwords and one-letter words
    left out), each as :func:`~sialign.text.lemmas.english_lemma` gives it:
    幕府 → {``shogunate``, ``bakufu``}, 建てる → {``build``, ``construct``, ...}.
    """
    keys: set[str] = set()
    entries = (_GLOSSES if _GLOSSES is not None else _glosses()).get(form, "")
    for gloss in entries.split("/"):
        if gloss.startswith("EntL"):
            continue
        for word in _EN_WORD.findall(_TAGS.sub(" ", gloss).lower()):
            if len(word) > 1 and word not in STOPWORDS:
                keys.add(english_lemma(word))
    return frozenset(keys)
