"""Source content words without a link that the rendition says in other words."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sialign.links.params import Link, LinkParams


def paraphrase_matches(
    src: Sequence[np.ndarray | None],
    tgt: Sequence[np.ndarray | None],
    links: Sequence[Link],
    content: Iterable[int],
    params: LinkParams = LinkParams(),
) -> list[int]:
    """The content words without a link that a span of the target renders in other words.

    A word's context is its ±1 and ±2 windows; a target span is a target
    word's window of the same size. The word counts as rendered by
    paraphrase when its context is at least ``params.paraphrase_slot``
    similar to a span around an unlinked target word in its *slot* (between
    the targets of the nearest linked source words within three words on
    each side, two words wider on a side with no linked neighbour), or at
    least ``params.paraphrase_any`` similar to any span of the target.

    Args:
        src: the three views of :func:`similarity_matrix` for the source, (n_src, dim) each.
        tgt: the same for the target, (n_tgt, dim).
        links: the pair's links.
        content: indices of the source content words.

    Returns:
        Sorted source indices.
    """
    views = [(a, b) for a, b in zip(src[1:], tgt[1:]) if a is not None and b is not None]
    if not views or not len(views[0][1]):
        return []
    context = np.max([a @ b.T for a, b in views], axis=0)  # (n_src, n_tgt)
    n, m = context.shape
    linked_src: dict[int, list[int]] = {}
    for i, j in links:
        linked_src.setdefault(i, []).append(j)
    linked_tgt = {j for _, j in links}
    out = []
    for i in sorted(set(content)):
        if i in linked_src or not 0 <= i < n:
            continue
        if float(context[i].max()) >= params.paraphrase_any:
            out.append(i)
            continue
        left = next((k for k in range(i - 1, max(-1, i - 4), -1) if k in linked_src), None)
        right = next((k for k in range(i + 1, min(n, i + 4)) if k in linked_src), None)
        around = [j for k in (left, right) if k is not None for j in linked_src[k]]
        if not around:
            continue
        lo, hi = min(around), max(around)
        if left is None or right is None:
            lo, hi = max(0, lo - 2), min(m - 1, hi + 2)
        slot = [j for j in range(lo, hi + 1) if j not in linked_tgt]
        if slot and float(context[i, slot].max()) >= params.paraphrase_slot:
            out.append(i)
    return out
