"""The desktop app words the settings a library error names as its own menus and dialogs."""

from __future__ import annotations

from sialign.core.errors import SETTINGS, InputError, ModelNotFoundError, SialignError
from sialign.gui.common.error_words import WHERE_IN_THE_APP, error_text


def test_error_words_say_where_the_app_changes_a_setting() -> None:
    exc = InputError("talk.sialign", "the project has no source recording to play",
                     hint="set the project's source recording, or pick the recording itself", settings=("src_audio",))
    assert error_text(exc) == (
        "talk.sialign: the project has no source recording to play — set the project's source recording, or pick the "
        "recording itself (File → Project properties…: Source audio, Locate…)"
    )
    speech = ModelNotFoundError("no speech model is set — add a Whisper model folder as the default speech model", settings=("speech_model",))
    assert error_text(speech).endswith("(Settings → Speech models…)")
    said = ModelNotFoundError("no speech model is set — add one (docs/transcription.md says where to get one).", settings=("speech_model",))
    assert error_text(said).endswith("where to get one) (Settings → Speech models…).")  # inside the full stop


def test_error_words_add_nothing_the_app_does_not_offer() -> None:
    assert error_text(SialignError("lower the largest bead (max_src, max_tgt)", settings=("max_src", "max_tgt"))) == (
        "lower the largest bead (max_src, max_tgt)"
    )
    assert error_text(ValueError("not ours")) == "not ours"


def test_error_words_know_every_setting() -> None:
    assert set(WHERE_IN_THE_APP) == set(SETTINGS)
