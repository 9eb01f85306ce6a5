"""SI Aligner: align a talk with its simultaneous interpretation.

The package is a Qt-free library (``core``, ``io``, ``text``, ``embed``,
``align``, ``filters``, ``evaluate``, ``audio``, ``corpus``) with two thin
front ends: ``cli`` and ``gui``. Heavy libraries are imported lazily inside
functions.

A small Python API for notebooks::

    import sialign
    project = sialign.align("talk.en.srt", "talk.ja.srt")   # paths, or lists of strings
    project                                                  # <Project 'talk' en→ja: ...; 35 beads (...)>
    project.to_dataframe()                                   # one row per bead (pandas)
    for bead in project: print(bead.number, bead.source, bead.target)
    sialign.export(project, "talk.tsv")                      # any export format, by extension
    project = sialign.load("talk.sialign")
    report = sialign.align_corpus("manifest.tsv", "corpus/", jobs=2)

The API follows the command line's rules and raises its errors: an
unreadable or empty transcript is an :class:`~sialign.core.errors.InputError`,
an output in a folder that does not exist an
:class:`~sialign.core.errors.OutputError`; a wrong argument is a
``ValueError`` or ``TypeError`` naming the choices.
"""

from __future__ import annotations

import sys as _sys
import types as _types
from pathlib import Path as _Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

    from sialign.core.model import Document, Project
    from sialign.corpus.runner import CorpusReport

from sialign._version import __version__

__all__ = ["__version__", "align", "align_corpus", "export", "load"]


def __dir__() -> list[str]:
    """The API only (``dir(sialign)``), not the names the module uses inside."""
    return sorted(__all__)


class _Package(_types.ModuleType):
    """Keeps ``sialign.align`` the API function once the ``sialign.align`` subpackage is imported.

    Importing a submodule sets it as an attribute of its parent package; the
    subpackage stays importable by name (``from sialign.align import pipeline``).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in __all__ and isinstance(value, _types.ModuleType) and callable(self.__dict__.get(name)):
            return
        super().__setattr__(name, value)


def _document(value: str | Path | Sequence[str], language: str | None, role: str) -> Document:
    from sialign.core.errors import EmptyInputError
    from sialign.core.model import Document
    from sialign.io.readers import read_transcript

    if isinstance(value, (str, _Path)):
        return read_transcript(value, language=language)
    if isinstance(value, (bytes, bytearray)) or not hasattr(value, "__iter__"):
        raise TypeError(f"align(): {role} must be a transcript path or a list of segment strings, not {type(value).__name__}")
    texts = [str(t) for t in value]
    if not any(t.strip() for t in texts):
        raise EmptyInputError(None, f"the {role} list has no text", hint="give at least one segment with text")
    if language is None:
        from sialign.io.readers import guess_language

        language = guess_language(texts)
    elif language:
        from sialign.core.languages import normalise_language

        language = normalise_language(language)
    return Document.from_texts(texts, language)


def align(
    source: str | Path | Sequence[str],
    target: str | Path | Sequence[str],
    *,
    reference: str | Path | Sequence[str] | None = None,
    src_lang: str | None = None,
    tgt_lang: str | None = None,
    model: str | None = None,
    filters: str | Sequence[str] = (),
    talk_id: str | None = None,
    **params: Any,
) -> Project:
    """Align a source transcript with its interpretation (or translation).

    Args:
        source: the source transcript's path (txt, tsv, srt, vtt, TextGrid, eaf)
            or a list of segment strings.
        target: the interpretation's (or translation's), the same way.
        reference: a reference translation, one line per source segment (path or list).
        src_lang: the source's language (``en``, ``eng`` or ``english``; an unknown code is an
            :class:`~sialign.core.errors.InputError`); guessed from the text when not given.
        tgt_lang: the target's language, the same way.
        model: ``"use-multilingual"``, ``"lexical"`` or a model folder/name;
            by default the built-in multilingual encoder where it covers
            both languages, else lexical — never the user's model registry
            unless named here.
        filters: the fine-grained filters to apply: ``"intra"``, ``"inter"``,
            ``"intra,inter"`` or a list of names; an unknown name is a ``ValueError``.
        talk_id: the talk's name in exports (default: the source file's name).
        params: any :class:`sialign.core.params.AlignParams` field (``max_tgt=8``...).

    Returns:
        The aligned :class:`~sialign.core.model.Project`.

    Raises:
        InputError: a transcript cannot be read or holds no text.
        ValueError: an unknown filter name.
        TypeError: an unknown parameter.
    """
    import dataclasses

    from sialign.core.params import AlignParams
    from sialign.workflows.aligning import align_talk
    from sialign.workflows.filtering import parse_filter_names
    from sialign.workflows.talks import talk_from_documents

    names = list(parse_filter_names(filters))
    src_doc = _document(source, src_lang, "source")
    tgt_doc = _document(target, tgt_lang, "target")
    ref_doc = _document(reference, tgt_lang or tgt_doc.language, "reference") if reference is not None else None
    fields = {f.name for f in dataclasses.fields(AlignParams)}
    unknown = set(params) - fields
    if unknown:
        raise TypeError(f"align() got unknown parameter(s) {', '.join(sorted(unknown))}; see sialign.core.params.AlignParams")
    # Results do not depend on the user's model registry unless model= says so.
    embedder = model or "auto-builtin"
    aligned = AlignParams(embedder=embedder, **params)
    project = talk_from_documents(
        src_doc, tgt_doc, ref_doc, source_path=source if isinstance(source, (str, _Path)) else "", talk_id=talk_id
    )
    align_talk(project, aligned, filters=names)
    return project


def export(
    project: Project,
    path: str | Path,
    *,
    format: str | None = None,
    only_confirmed: bool = False,
    include_dropped: bool = False,
    two_column: bool = False,
) -> str:
    """Write the project's alignment (``.tsv``, ``.jsonl``, ``.tmx``, ``.align``, ...) or the project (``.sialign``).

    Args:
        project: an aligned project.
        path: the output file; its folder must exist (as with ``sialign export -o``).
        format: one of the export formats (``sialign export --help``); from the extension when None.
        only_confirmed: export confirmed beads only.
        include_dropped: export dropped beads too.
        two_column: with ``tsv``, write ``source<TAB>target`` only.

    Returns:
        What was written, in words.

    Raises:
        OutputError: the folder of ``path`` does not exist.
        ExportError: no alignment, or an unknown format.
    """
    from sialign.workflows.outputs import export as write

    written = write(project, path, format=format, only_confirmed=only_confirmed, include_dropped=include_dropped,
                    two_column=two_column, option="export()")
    return str(written)


def load(path: str | Path) -> Project:
    """Open a ``.sialign`` project file."""
    from sialign.io.project_file import load_project

    return load_project(path)


def align_corpus(manifest: str | Path, out_dir: str | Path, *, jobs: int = 1, dask: str | None = None,
                 force: bool = False, filters: str | Sequence[str] = (), **params: Any) -> CorpusReport:
    """Align every talk of a manifest into a corpus folder (see :mod:`sialign.corpus`).

    Args:
        manifest: the TSV/CSV listing the talks (paths relative to it).
        out_dir: the corpus folder (created when missing).
        jobs: worker processes on this machine.
        dask: ``"local:N"`` or a scheduler address such as ``"tcp://host:8786"``.
        force: re-align unchanged and reviewed talks too (review data is carried).
        filters: ``"intra"``, ``"inter"``, ``"learned"``, a comma-separated list or a list of names.
        params: ``model=`` and any :class:`sialign.core.params.AlignParams` field.

    Raises:
        ValueError: an unknown filter name.
        TypeError: an unknown parameter.
    """
    import dataclasses

    from sialign.core.params import AlignParams
    from sialign.corpus.runner import align_corpus as run
    from sialign.workflows.filtering import parse_filter_names

    names = list(parse_filter_names(filters))
    embedder = params.pop("model", None) or "auto-builtin"
    unknown = set(params) - {f.name for f in dataclasses.fields(AlignParams)}
    if unknown:
        raise TypeError(f"align_corpus() got unknown parameter(s) {', '.join(sorted(unknown))}; see sialign.core.params.AlignParams")
    return run(manifest, out_dir, AlignParams(embedder=embedder, **params), filters=names, jobs=jobs, dask=dask, force=force)


_sys.modules[__name__].__class__ = _Package
