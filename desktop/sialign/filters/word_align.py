"""Word alignment from token embeddings (SimAlign "argmax" + grow-diag-final-and; as Ryu et al. use it for inline tags).

Each sentence is encoded by a sentence-transformers model with its token
vectors kept. The cosine matrix between source and target subwords gives two
directional alignments — every source token linked to its most similar target
token and vice versa — which are symmetrised with Koehn's grow-diag-final-and:
start from their intersection, grow into neighbouring links of the union
while a word is still unaligned, then add union links whose two words are
both unaligned. Only as good as the model is multilingual; the filter reason
says "word alignment" so the user knows where α came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

_NEIGHBOURS = ((-1, 0), (0, -1), (1, 0), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def argmax_links(similarity: np.ndarray) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Directional argmax alignments of a similarity matrix.

    Args:
        similarity: array of shape (n_src, n_tgt).

    Returns:
        ``(forward, backward)``: ``forward`` links each source row to its best
        column, ``backward`` each column to its best row; both as (row, col).
    """
    if similarity.size == 0:
        return set(), set()
    forward = {(i, int(j)) for i, j in enumerate(similarity.argmax(axis=1))}
    backward = {(int(i), j) for j, i in enumerate(similarity.argmax(axis=0))}
    return forward, backward


def grow_diag_final_and(
    forward: set[tuple[int, int]], backward: set[tuple[int, int]], n_src: int, n_tgt: int
) -> set[tuple[int, int]]:
    """Symmetrise two directional alignments (Koehn et al. 2005, grow-diag-final-and).

    Args:
        forward: source→target links as (src, tgt).
        backward: target→source links as (src, tgt).
        n_src / n_tgt: number of source and target tokens.

    Returns:
        The symmetrised links as (src, tgt) pairs.
    """
    union = forward | backward
    alignment = set(forward & backward)
    src_aligned = {i for i, _ in alignment}
    tgt_aligned = {j for _, j in alignment}
    added = True
    while added:
        added = False
        for i in range(n_src):
            for j in range(n_tgt):
                if (i, j) not in alignment:
                    continue
                for di, dj in _NEIGHBOURS:
                    ni, nj = i + di, j + dj
                    if (ni, nj) in union and (ni, nj) not in alignment and (ni not in src_aligned or nj not in tgt_aligned):
                        alignment.add((ni, nj))
                        src_aligned.add(ni)
                        tgt_aligned.add(nj)
                        added = True
    for directional in (forward, backward):
        for i, j in sorted(directional):
            if i not in src_aligned and j not in tgt_aligned:
                alignment.add((i, j))
                src_aligned.add(i)
                tgt_aligned.add(j)
    return alignment


def token_vectors(model: Any, texts: Sequence[str]) -> list[tuple[np.ndarray, list[tuple[int, int]]]]:
    """Contextual subword vectors of each text and their character offsets.

    Args:
        model: a ``sentence_transformers.SentenceTransformer`` whose first
            module has a fast (offset-giving) Hugging Face tokenizer.
        texts: the sentences.

    Returns:
        For each text, ``(vectors, offsets)``: float32 array of shape
        (n_tokens, dim), unit rows, special tokens removed; ``offsets`` the
        (start, end) characters of each remaining token.
    """
    outputs = model.encode(list(texts), output_value="token_embeddings", convert_to_numpy=False, show_progress_bar=False)
    tokenizer = model.tokenizer
    max_len = getattr(model, "max_seq_length", None) or 512
    result = []
    for text, out in zip(texts, outputs):
        vectors = out.detach().cpu().numpy().astype(np.float32) if hasattr(out, "detach") else np.asarray(out, np.float32)
        enc = tokenizer(text, return_offsets_mapping=True, truncation=True, max_length=max_len)
        offsets = [tuple(o) for o in enc["offset_mapping"]]
        n = min(len(offsets), len(vectors))
        keep = [k for k in range(n) if offsets[k][1] > offsets[k][0]]
        v = vectors[keep]
        norms = np.linalg.norm(v, axis=1, keepdims=True)
        np.divide(v, norms, out=v, where=norms > 0)
        result.append((v, [offsets[k] for k in keep]))
    return result


def covered_spans(
    src: tuple[np.ndarray, list[tuple[int, int]]],
    tgt: tuple[np.ndarray, list[tuple[int, int]]],
    spans: Sequence[tuple[int, int]],
) -> list[bool]:
    """Which source character spans (content words) have a subword linked to the target.

    Args:
        src / tgt: ``(vectors, offsets)`` from :func:`token_vectors`.
        spans: (start, end) of each source content word.

    Returns:
        One bool per span.
    """
    src_vectors, src_offsets = src
    tgt_vectors, _ = tgt
    if len(src_vectors) == 0 or len(tgt_vectors) == 0:
        return [False] * len(spans)
    forward, backward = argmax_links(src_vectors @ tgt_vectors.T)
    linked = {i for i, _ in grow_diag_final_and(forward, backward, len(src_vectors), len(tgt_vectors))}
    return [any(k in linked for k, (a, b) in enumerate(src_offsets) if a < end and b > start) for start, end in spans]
