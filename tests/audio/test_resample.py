"""sialign.audio.resample gives what scipy.signal.resample_poly gives, for every ratio SI Aligner uses."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.audio.resample import resample_poly

signal = pytest.importorskip("scipy.signal")


@pytest.mark.parametrize(("up", "down"), [(160, 441), (1, 3), (2, 3), (160, 147), (147, 160), (3, 1), (1, 2), (10, 10), (40, 2000 // 7)])
@pytest.mark.parametrize("n", [0, 1, 5, 97, 20_011])
def test_matches_scipy(up: int, down: int, n: int) -> None:
    x = np.random.default_rng(n + up).standard_normal(n).astype(np.float32)
    ours = resample_poly(x, up, down)
    theirs = signal.resample_poly(x, up, down)
    assert ours.shape == theirs.shape
    if n:
        assert np.max(np.abs(ours - theirs)) < 1e-6


def test_frames_by_channel_and_bad_ratios() -> None:
    x = np.random.default_rng(1).standard_normal((3001, 2))
    assert np.allclose(resample_poly(x, 160, 147, axis=0), signal.resample_poly(x, 160, 147, axis=0), atol=1e-9)
    with pytest.raises(ValueError, match="at least 1"):
        resample_poly(x[:, 0], 0, 3)
