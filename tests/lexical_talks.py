"""Same-language talks the lexical embedder aligns well, for the doubt-model tests."""

from __future__ import annotations

import numpy as np

from sialign.core.model import Document, Project
from sialign.core.params import AlignParams


def lexical_talk(words: list[str], n: int, seed: int, *, size: int, talk_id: str) -> Project:
    """An aligned talk of ``n`` sentences of ``size`` random ``words``; every third is rendered in two chunks."""
    from sialign.align.pipeline import align_project

    rng = np.random.default_rng(seed)
    half = size // 2
    src, tgt = [], []
    for k in range(n):
        chosen = [str(w) for w in rng.choice(words, size=size, replace=False)]
        src.append(" ".join(chosen) + f" number {k}.")
        if k % 3 == 0:
            tgt.extend([" ".join(chosen[:half]) + ",", " ".join(chosen[half:]) + f" number {k}."])
        else:
            tgt.append(" ".join(chosen) + f" number {k}.")
    project = Project(talk_id=talk_id, source=Document.from_texts(src, "en"), target=Document.from_texts(tgt, "en"))
    project.params = AlignParams(embedder="lexical")
    project.alignment = align_project(project).alignment
    return project
