"""Peer aligners run side by side with SI Aligner in the benchmarks (never part of the product).

``bertalign_align`` follows Bertalign's published two-pass algorithm (Liu & Zhu 2022;
``bfsujason/bertalign``, corelib.py), written here in numpy so it can run with any
encoder — in particular SI Aligner's built-in one, so the comparison is about the
algorithm, not the model:

1. First pass: each source sentence's ``top_k`` nearest target sentences (inner
   product of unit vectors); a DP over 1-1, 1-0 and 0-1 moves in a wide diagonal
   band that maximises the summed similarity of 1-1 moves whose target is among
   the source's top-k neighbours (other moves score 0). Its 1-1 moves are anchors.
2. Second pass: a DP in a window of ``win`` sentences around those anchors over
   every bead type with ``a + b <= max_align`` (plus 1-0 and 0-1, scoring
   ``skip``), scoring **exact encodings of the concatenated sentences**:
   cosine minus the mean cosine to the bead's neighbours (margin), times
   ``log2(1 + min/max)`` of the character lengths (scaled by the document's
   length ratio).

Defaults are Bertalign's: max_align 5, top_k 3, win 5, skip -0.1, margin and length
penalty on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

Encode = Callable[[list[str]], np.ndarray]


def overlaps(lines: Sequence[str], n: int) -> list[str]:
    """Bertalign's ``yield_overlaps``: for k = 1..n, the concatenation of k lines ending at each line."""
    clean = [line.strip() or "BLANK_LINE" for line in lines]
    out: list[str] = []
    for k in range(1, n + 1):
        out += ["PAD"] * min(k - 1, len(clean))
        out += [" ".join(clean[i : i + k])[:10000] for i in range(len(clean) - k + 1)]
    return out


def encode_overlaps(encode: Encode, lines: Sequence[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(n, len(lines), dim) unit vectors and (n, len(lines)) UTF-8 byte lengths of the overlaps."""
    texts = overlaps(lines, n)
    vecs = np.asarray(encode(texts), dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    vecs = vecs / np.maximum(norms, 1e-12)
    lens = np.array([len(t.encode("utf-8")) for t in texts], dtype=np.float64)
    return vecs.reshape(n, len(lines), -1), lens.reshape(n, len(lines))


def alignment_types(max_align: int) -> list[tuple[int, int]]:
    types = [(0, 1), (1, 0)]
    types += [(x, y) for x in range(1, max_align) for y in range(1, max_align) if x + y <= max_align]
    return types


def _first_pass(src1: np.ndarray, tgt1: np.ndarray, top_k: int) -> list[tuple[int, int]]:
    n, m = len(src1), len(tgt1)
    sim = src1 @ tgt1.T
    k = min(top_k, m)
    top = np.argpartition(-sim, k - 1, axis=1)[:, :k] if m else np.zeros((n, 0), dtype=int)
    gain = np.zeros((n, m), dtype=np.float64)
    for i in range(n):
        gain[i, top[i]] = sim[i, top[i]]
    win = max(250, int(max(n, m) * 0.06))
    ratio = m / n
    lo = np.array([max(0, int(ratio * i) - win) for i in range(n + 1)])
    hi = np.array([min(int(ratio * i) + win, m) for i in range(n + 1)])
    score = np.full((n + 1, m + 1), -np.inf)
    back = np.zeros((n + 1, m + 1), dtype=np.int8)
    score[0, 0] = 0.0
    for i in range(n + 1):
        for j in range(lo[i], hi[i] + 1):
            if i == 0 and j == 0:
                continue
            best, arg = -np.inf, -1
            if j > 0 and score[i, j - 1] > best:  # 0-1
                best, arg = score[i, j - 1], 0
            if i > 0 and score[i - 1, j] > best:  # 1-0
                best, arg = score[i - 1, j], 1
            if i > 0 and j > 0 and score[i - 1, j - 1] + gain[i - 1, j - 1] > best:
                best, arg = score[i - 1, j - 1] + gain[i - 1, j - 1], 2
            score[i, j], back[i, j] = best, arg
    anchors = []
    i, j = n, m
    while i or j:
        arg = back[i, j]
        if arg == 2:
            anchors.append((i, j))
            i, j = i - 1, j - 1
        elif arg == 1:
            i -= 1
        else:
            j -= 1
    return anchors[::-1]


def _second_path(anchors: list[tuple[int, int]], win: int, n: int, m: int) -> list[tuple[int, int]]:
    align = list(anchors) or [(n, m)]
    last_src, last_tgt = align[-1]
    if last_src != n:
        if last_tgt == m:
            align.pop()
        align.append((n, m))
    elif last_tgt != m:
        align.pop()
        align.append((n, m))
    path: list[tuple[int, int]] = []
    prev_src, prev_tgt = 0, 0
    for src, tgt in align:
        lower, upper = max(0, prev_tgt - win), min(m, tgt + win)
        path += [(lower, upper)] * (src - prev_src)
        prev_src, prev_tgt = src, tgt
    return [path[0] if path else (0, m)] + path


def bertalign_align(
    src: Sequence[str], tgt: Sequence[str], encode: Encode, *, max_align: int = 5, top_k: int = 3, win: int = 5,
    skip: float = -0.1, margin: bool = True, len_penalty: bool = True,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Beads ``(src_ids, tgt_ids)`` (0-based) by Bertalign's two passes with ``encode``."""
    n, m = len(src), len(tgt)
    if not n or not m:
        return [((i,), ()) for i in range(n)] + [((), (j,)) for j in range(m)]
    depth = max_align - 1
    sv, sl = encode_overlaps(encode, src, depth)
    tv, tl = encode_overlaps(encode, tgt, depth)
    char_ratio = sl[0].sum() / max(tl[0].sum(), 1.0)
    anchors = _first_pass(sv[0], tv[0], top_k)
    path = _second_path(anchors, win, n, m)
    types = alignment_types(max_align)
    # Dense similarity tables between overlap layers; bead (a, b) ending at (i, j)
    # reads sims[a][b][i-1, j-1]. Margin neighbours are single sentences.
    sims = {(a, b): sv[a - 1] @ tv[b - 1].T for a in range(1, max_align) for b in range(1, max_align) if a + b <= max_align}
    for a in range(1, max_align):
        sims.setdefault((a, 1), sv[a - 1] @ tv[0].T)
    for b in range(1, max_align):
        sims.setdefault((1, b), sv[0] @ tv[b - 1].T)

    def bead_score(a: int, b: int, i: int, j: int) -> float:
        s = float(sims[(a, b)][i - 1, j - 1])
        if margin:
            # Target neighbours of the source side: single target sentences right after and before the bead.
            right = float(sims[(a, 1)][i - 1, j]) if j + 1 <= m else 0.0
            left = float(sims[(a, 1)][i - 1, j - b - 1]) if j - b > 0 else 0.0
            tgt_nb = (left + right) / 2 if (left and right) else left + right
            right = float(sims[(1, b)][i, j - 1]) if i + 1 <= n else 0.0
            left = float(sims[(1, b)][i - a - 1, j - 1]) if i - a > 0 else 0.0
            src_nb = (left + right) / 2 if (left and right) else left + right
            s -= (tgt_nb + src_nb) / 2
        if len_penalty:
            src_l = sl[a - 1, i - 1]
            tgt_l = tl[b - 1, j - 1] * char_ratio
            s *= np.log2(1 + min(src_l, tgt_l) / max(src_l, tgt_l, 1e-9))
        return s

    score: dict[tuple[int, int], float] = {(0, 0): 0.0}
    back: dict[tuple[int, int], tuple[int, int]] = {}
    for i in range(n + 1):
        lo, hi = path[i]
        for j in range(lo, hi + 1):
            if i == 0 and j == 0:
                continue
            best, arg = -np.inf, None
            for a, b in types:
                pi, pj = i - a, j - b
                if pi < 0 or pj < 0:
                    continue
                plo, phi = path[pi]
                if not plo <= pj <= phi or (pi, pj) not in score:
                    continue
                s = score[(pi, pj)] + (skip if a == 0 or b == 0 else bead_score(a, b, i, j))
                if s > best:
                    best, arg = s, (a, b)
            if arg is not None:
                score[(i, j)], back[(i, j)] = best, arg
    beads = []
    i, j = n, m
    while i or j:
        a, b = back[(i, j)]
        beads.append((tuple(range(i - a, i)), tuple(range(j - b, j))))
        i, j = i - a, j - b
    return beads[::-1]


def vecalign_align(
    src: Sequence[str], tgt: Sequence[str], encode: Encode, *, max_size: int = 4, del_percentile_frac: float = 0.2,
    num_samps_for_norm: int = 100, costs_sample_size: int = 20000, seed: int = 0,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Beads by vecalign's cost and DP (Thompson & Koehn 2019; ``thompsonb/vecalign``, dp_utils.py / dp_core.pyx).

    Cost of an (a, b) bead: ``2 (1 - cos) / (norm_src + norm_tgt) * a * b`` with exact vectors of the
    concatenations (runs of up to ``max_size - 1`` a side, ``a + b <= max_size``), each side's norm being
    1 minus its mean cosine to random vectors of the other document (all run lengths); 1-0 and 0-1
    cost the ``del_percentile_frac`` quantile of random 1-1 costs. The DP here is exact over the whole
    lattice, where vecalign approximates documents longer than 300 sentences coarse-to-fine.
    """
    n, m = len(src), len(tgt)
    if not n or not m:
        return [((i,), ()) for i in range(n)] + [((), (j,)) for j in range(m)]
    rng = np.random.default_rng(seed)
    depth = max_size - 1
    sv, _ = encode_overlaps(encode, src, depth)
    tv, _ = encode_overlaps(encode, tgt, depth)

    def norms(own: np.ndarray, other: np.ndarray) -> np.ndarray:
        per = int(np.ceil(num_samps_for_norm / depth))
        sample = np.concatenate([other[k, rng.integers(0, other.shape[1], per)] for k in range(depth)])
        return np.stack([1.0 - (own[k] @ sample.T).mean(axis=1) for k in range(depth)])

    ns, nt = norms(sv, tv), norms(tv, sv)

    def cost(a: int, b: int) -> np.ndarray:
        sim = sv[a - 1] @ tv[b - 1].T
        return 2.0 * (1.0 - sim) / (1e-6 + ns[a - 1][:, None] + nt[b - 1][None, :]) * a * b

    types = [(a, b) for a in range(1, max_size) for b in range(1, max_size) if a + b <= max_size]
    costs = {t: cost(*t) for t in types}
    xs = rng.integers(0, n, min(costs_sample_size, n * m))
    ys = rng.integers(0, m, len(xs))
    pen = float(np.quantile(costs[(1, 1)][xs, ys], del_percentile_frac))
    table = np.full((n + 1, m + 1), np.inf)
    back = np.zeros((n + 1, m + 1, 2), dtype=np.int64)
    cols = np.arange(m + 1)
    for i in range(n + 1):
        row = np.full(m + 1, np.inf)
        arg = np.zeros((m + 1, 2), dtype=np.int64)
        if i == 0:
            row[0] = 0.0
        else:
            cand = table[i - 1] + pen  # 1-0
            better = cand < row
            row[better], arg[better] = cand[better], (1, 0)
            for a, b in types:
                if i < a:
                    continue
                cand = np.full(m + 1, np.inf)
                cand[b:] = table[i - a, : m + 1 - b] + costs[(a, b)][i - 1, b - 1 :]
                better = cand < row
                row[better], arg[better] = cand[better], (a, b)
        # 0-1 moves within the row: a running minimum of row[j] - j * pen.
        shifted = row - cols * pen
        run = np.minimum.accumulate(shifted)
        skip = run < shifted
        table[i] = run + cols * pen
        arg[skip] = (0, 1)
        back[i] = arg
    beads = []
    i, j = n, m
    while i or j:
        a, b = (int(x) for x in back[i, j])
        beads.append((tuple(range(i - a, i)), tuple(range(j - b, j))))
        i, j = i - a, j - b
    return beads[::-1]
