"""A rendition with no speech names the rendition's language option (--tgt-lang), not the source's (--src-lang)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sialign.cli.main import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.mark.slow
def test_a_silent_rendition_names_the_tgt_lang_option(whisper_multilingual: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import soundfile as sf

    silent = tmp_path / "rendition.wav"
    # Room noise: not silence (refused before transcribing), but no speech either.
    noise = np.random.default_rng(0).normal(0.0, 0.01, 16000 * 4).astype(np.float32)
    sf.write(str(silent), noise, 16000)
    code = main(["align", str(EXAMPLES / "talk.en.srt"), str(silent), "--tgt-lang", "ja", "--whisper-model",
                 str(whisper_multilingual), "-q", "-o", str(tmp_path / "t.sialign")])
    err = capsys.readouterr().err
    assert code != 0 and "no speech was found" in err
    assert "--tgt-lang" in err and "--src-lang" not in err
