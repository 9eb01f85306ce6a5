"""Candidate links of one pair of token lists: mixed similarity, distortion prior, anchors, two-way probability."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from sialign.links.params import UNSPACED, Link, LinkParams, base_language

_NUMBER = re.compile(r"^[^\W\d]{0,3}0*(\d{1,9})[^\W\d]{0,3}$")
_KANJI_NUMBER = re.compile(r"^[〇一二三四五六七八九十百千万億]+$")
_ANCHOR = re.compile(r"^(?:[\d.,:/%-]+|[^\w\s]+|[A-Za-z][A-Za-z'.-]*)$")


def context_texts(tokens: Sequence[str], language: str | None) -> tuple[list[str], list[str], list[str]]:
    """The three texts each token is encoded as: alone, with ±1 and with ±2 neighbours."""
    joiner = "" if base_language(language) in UNSPACED else " "
    n = len(tokens)
    one = [joiner.join(tokens[max(0, k - 1) : k + 2]) for k in range(n)]
    two = [joiner.join(tokens[max(0, k - 2) : k + 3]) for k in range(n)]
    return list(tokens), one, two


def similarity_matrix(
    src: Sequence[np.ndarray | None], tgt: Sequence[np.ndarray | None], params: LinkParams = LinkParams()
) -> np.ndarray:
    """Mixed cosine similarity of source and target tokens.

    Args:
        src: three unit-row arrays of shape (n_src, dim): alone, ±1, ±2
            (None where the view's weight is 0).
        tgt: the same for the target, (n_tgt, dim).

    Returns:
        Array of shape (n_src, n_tgt).
    """
    out: np.ndarray | None = None
    for weight, a, b in zip(params.weights, src, tgt):
        if weight and a is not None and b is not None:
            part = weight * (a @ b.T)
            out = part if out is None else out + part
    if out is None:
        raise ValueError("LinkParams.weights: at least one view needs a weight above 0")
    return out.astype(np.float32)


def _anchor_key(token: str) -> str | None:
    """What a token must share with one on the other side to be an anchor; None: it is no anchor.

    A number is its value, however written: digits with up to three
    letters around them (*3rd*, *1990s*, *第3*) or kanji numerals (三, 十二)
    give the digits' value; other numbers, Latin words and punctuation
    anchor when identical (lower case).
    """
    number = _NUMBER.match(token)
    if number:
        return "#" + str(int(number.group(1)))
    if _KANJI_NUMBER.match(token):
        from sialign.text.numbers import canonical, kanji_number

        value = kanji_number(token)
        if value is not None:
            return "#" + canonical(value)
    key = token.lower()
    return key if _ANCHOR.match(key) else None


def link_matrix(
    similarity: np.ndarray,
    src_tokens: Sequence[str],
    tgt_tokens: Sequence[str],
    params: LinkParams = LinkParams(),
    bonus: np.ndarray | None = None,
) -> list[Link]:
    """Links from a similarity matrix: distortion prior, anchors, two-way probability.

    Args:
        similarity: array of shape (n_src, n_tgt), from :func:`similarity_matrix`.
        src_tokens / tgt_tokens: the tokens (for the anchors).
        bonus: array of shape (n_src, n_tgt) added to the scores
            (:func:`lexical_bonus`), or None.

    Returns:
        Sorted 0-based (source, target) links.
    """
    n, m = similarity.shape
    if n == 0 or m == 0:
        return []
    rows = (np.arange(n)[:, None] + 0.5) / n
    cols = (np.arange(m)[None, :] + 0.5) / m
    score = similarity.astype(np.float64) - params.distortion * np.abs(rows - cols)
    tgt_keys: dict[str, list[int]] = {}
    for j, tok in enumerate(tgt_tokens):
        key = _anchor_key(tok)
        if key is not None:
            tgt_keys.setdefault(key, []).append(j)
    for i, tok in enumerate(src_tokens):
        key = _anchor_key(tok)
        for j in tgt_keys.get(key, []) if key is not None else []:
            score[i, j] += params.anchor
    if bonus is not None:
        score += bonus
    e = np.exp((score - score.max()) / params.temperature)
    prob = (e / e.sum(axis=1, keepdims=True)) * (e / e.sum(axis=0, keepdims=True))
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(prob > params.threshold))]
