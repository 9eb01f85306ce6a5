"""Polyphase resampling in numpy: the samples ``scipy.signal.resample_poly`` gives, without SciPy's signal module.

The rate conversions of SI Aligner — recordings to the recogniser's 16 kHz,
the microphone to the session's rate, a span to the sound card's rate and
playback speed — use SciPy's polyphase method with its default filter: a
Kaiser-windowed (β = 5) low-pass of ``20 · max(up, down) + 1`` taps cut at
``1 / max(up, down)`` of Nyquist, scaled by ``up``. ``scipy.signal`` pulls in
SciPy's optimisation, statistics, interpolation and spatial packages (about
30 MB of the installers) for this one function, so it is written out here:
the same filter, the same padding and the same output grid (tested against
SciPy to 1e-6). Each output sample is a dot product of one of the filter's
``up`` phases with the input samples under it.
"""

from __future__ import annotations

import math

import numpy as np


def design_filter(up: int, down: int) -> np.ndarray:
    """The anti-aliasing filter of ``resample_poly(x, up, down)`` (float64, scaled by ``up``)."""
    max_rate = max(up, down)
    half_len = 10 * max_rate
    numtaps = 2 * half_len + 1
    cutoff = 1.0 / max_rate
    m = np.arange(numtaps, dtype=np.float64) - 0.5 * (numtaps - 1)
    h = cutoff * np.sinc(cutoff * m) * np.kaiser(numtaps, 5.0)
    h /= h.sum()
    return h * up


def _output_len(len_h: int, n_in: int, up: int, down: int) -> int:
    return ((n_in - 1) * up + len_h - 1) // down + 1


def _resample_1d(x: np.ndarray, phases: np.ndarray, up: int, down: int, first: int, count: int) -> np.ndarray:
    """Outputs ``first .. first + count - 1`` of upfirdn(h, x, up, down), ``phases[p, i] = h[p + up·i]``.

    y[m] = Σᵢ h[t mod up + up·i] · x[t div up − i] with t = m·down. The outputs
    m ≡ r (mod up) all use one phase, and their t div up grows by ``down`` from
    one to the next, so each residue class is one matrix–vector product of a
    sum over the phase's taps of the input read every ``down`` samples; the
    input is laid out once as ``down`` interleaved columns so that each such
    read is contiguous in memory.
    """
    taps = phases.shape[1]
    q_last = ((first + count - 1) * down) // up
    right = max(0, q_last + 1 - x.size) + 1
    padded = np.concatenate((np.zeros(taps - 1), x.astype(np.float64, copy=False), np.zeros(right + down)))
    rows_total = padded.size // down
    # columns[j, k] = padded[k·down + j]: every `down`-th sample from offset j, contiguous.
    columns = np.ascontiguousarray(padded[: rows_total * down].reshape(rows_total, down).T)
    out = np.empty(count, dtype=np.float64)
    for r in range(min(up, count)):
        m0 = first + r
        rows = len(range(m0, first + count, up))
        t0 = m0 * down
        phase = phases[t0 % up]
        # x[t0 div up − i] sits at padded[t0 div up + taps − 1 − i]; the next output of the class reads `down` further.
        acc = np.zeros(rows)
        for i in np.flatnonzero(phase):
            start = t0 // up + taps - 1 - i
            row = start // down
            acc += phase[i] * columns[start % down, row : row + rows]
        out[r::up] = acc
    return out


def resample_poly(x: np.ndarray, up: int, down: int, axis: int = 0) -> np.ndarray:
    """``x`` resampled by ``up / down`` along ``axis`` (0 or the last for 2-D input); float64 like SciPy's.

    Raises:
        ValueError: ``up`` or ``down`` is below 1, or ``axis`` is not 0 for a 2-D input.
    """
    if up < 1 or down < 1:
        raise ValueError(f"up and down must be at least 1 (got {up}, {down})")
    x = np.asarray(x)
    if x.ndim == 2:
        if axis not in (0, -2):
            raise ValueError("a 2-D input is resampled along axis 0 (frames × channels)")
        columns = [resample_poly(x[:, c], up, down) for c in range(x.shape[1])]
        return np.stack(columns, axis=1) if columns else np.zeros((0, 0))
    g = math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return x.astype(np.float64, copy=True)
    n_in = x.shape[0]
    n_out = n_in * up
    n_out = n_out // down + bool(n_out % down)
    if n_in == 0:
        return np.zeros(0)
    h = design_filter(up, down)
    half_len = (h.size - 1) // 2
    n_pre_pad = down - half_len % down
    n_post_pad = 0
    n_pre_remove = (half_len + n_pre_pad) // down
    while _output_len(h.size + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove:
        n_post_pad += 1
    h = np.concatenate((np.zeros(n_pre_pad), h, np.zeros(n_post_pad)))
    taps = -(-h.size // up)
    flat = np.zeros(taps * up)
    flat[: h.size] = h
    phases = np.ascontiguousarray(flat.reshape(taps, up).T)  # phases[p, i] = h[p + up·i]
    return _resample_1d(x, phases, up, down, n_pre_remove, n_out)


__all__ = ["design_filter", "resample_poly"]
