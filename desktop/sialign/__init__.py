"""SI Aligner: align a talk with its simultaneous interpretation.

The package is a Qt-free library (``core``, ``io``, ``text``, ``embed``,
``align``, ``filters``, ``evaluate``, ``audio``, ``corpus``) with two thin
front ends: ``cli`` and ``gui``. Heavy libraries are imported lazily inside
functions.

A small Python API for notebooks::

    import sialign
    project = sialign.align("talk.en.srt", "talk.ja.srt")   # paths, or lists of strings
    sialign.export(project, "talk.tsv")                      # any export format, by extension
    project = sialign.load("talk.sialign")
    report = sialign.align_corpus("manifest.tsv", "corpus/", jobs=2)
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from sialign.core.model import Document, Project
    from sialign.corpus.runner import CorpusReport

from sialign._version import __version__

__all__ = ["__version__", "align", "align_corpus", "export", "load"]


class _Package(types.ModuleType):
    """Keeps ``sialign.align`` the API function once the ``sialign.align`` subpackage is imported.

    Importing a submodule sets it as an attribute of its parent package; the
    subpackage stays importable by name (``from sialign.align import pipeline``).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in __all__ and isinstance(value, types.ModuleType) and callable(self.__dict__.get(name)):
            return
        super().__setattr__(name, value)


def _document(value: str | Path | Sequence[str], language: str | None) -> Document:
    from sialign.core.model import Document
    from sialign.io.readers import read_transcript

    if isinstance(value, (str, Path)):
        return read_transcript(value, language=language)
    texts = [str(t) for t in value]
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
    filters: Sequence[str] = (),
    talk_id: str | None = None,
    **params: Any,
) -> Project:
    """Align a source transcript with its interpretation (or translation).

    Args:
        source, target: transcript paths (txt, tsv, srt, vtt, TextGrid, eaf)
            or lists of segment strings.
        reference: a reference translation, one line per source segment (path or list).
        src_lang, tgt_lang: languages (``en``, ``eng`` or ``english``; an unknown code is an
            :class:`~sialign.core.errors.InputError`); guessed from the text when not given.
        model: ``"use-multilingual"``, ``"lexical"`` or a model folder/name;
            by default the built-in multilingual encoder where it covers
            both languages, else lexical — never the user's model registry
            unless named here.
        filters: ``"intra"`` and/or ``"inter"`` fine-grained filters to apply.
        talk_id: the talk's name in exports (default: the source file's name).
        params: any :class:`sialign.core.params.AlignParams` field (``max_tgt=8``...).

    Returns:
        The aligned :class:`~sialign.core.model.Project`.
    """
    import dataclasses

    from sialign.align.pipeline import align_project
    from sialign.core.edits import ReplaceAlignment, apply_edit
    from sialign.core.params import AlignParams
    from sialign.workflows.talks import talk_from_documents

    src_doc = _document(source, src_lang)
    tgt_doc = _document(target, tgt_lang)
    ref_doc = _document(reference, tgt_lang or tgt_doc.language) if reference is not None else None
    fields = {f.name for f in dataclasses.fields(AlignParams)}
    unknown = set(params) - fields
    if unknown:
        raise TypeError(f"align() got unknown parameter(s) {', '.join(sorted(unknown))}; see sialign.core.params.AlignParams")
    # Results do not depend on the user's model registry unless model= says so.
    embedder = model or "auto-builtin"
    aligned = AlignParams(embedder=embedder, **params)
    project = talk_from_documents(
        src_doc, tgt_doc, ref_doc, source_path=source if isinstance(source, (str, Path)) else "", talk_id=talk_id
    )
    result = align_project(project, aligned)
    apply_edit(project, ReplaceAlignment(result.alignment, label="Align"))
    project.params = aligned
    if filters:
        from sialign.corpus.runner import apply_filters_named

        apply_filters_named(project, list(filters))
    return project


def export(project: Project, path: str | Path, *, format: str | None = None, **options: Any) -> str:
    """Write the project's alignment (``.tsv``, ``.jsonl``, ``.tmx``, ``.align``, ...) or the project (``.sialign``).

    Returns:
        What was written, in words.
    """
    from sialign.io.project_file import PROJECT_SUFFIX, save_project
    from sialign.io.writers import write_alignment

    if format is None and Path(path).suffix.lower() == PROJECT_SUFFIX:
        save_project(project, path)
        return f"project {path}"
    rows = write_alignment(project, path, format=format, **options)
    return f"{rows} beads to {path}"


def load(path: str | Path) -> Project:
    """Open a ``.sialign`` project file."""
    from sialign.io.project_file import load_project

    return load_project(path)


def align_corpus(manifest: str | Path, out_dir: str | Path, *, jobs: int = 1, dask: str | None = None,
                 force: bool = False, filters: Sequence[str] = (), **params: Any) -> CorpusReport:  # fmt: skip
    """Align every talk of a manifest into a corpus folder (see :mod:`sialign.corpus`)."""
    from sialign.core.params import AlignParams
    from sialign.corpus.runner import align_corpus as run

    embedder = params.pop("model", None) or "auto-builtin"
    return run(manifest, out_dir, AlignParams(embedder=embedder, **params), filters=filters, jobs=jobs, dask=dask, force=force)


sys.modules[__name__].__class__ = _Package
