"""A speech model installed in parts is joined ahead of time, on a thread of its own, when the app starts."""

from __future__ import annotations

import threading

import pytest

from sialign.workflows import speech


def test_the_lookup_runs_on_a_background_thread_and_keeps_its_errors_to_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def look_up() -> tuple[list[object], None]:
        seen.append(threading.current_thread().name)
        raise OSError("no space left to join the parts")  # reported later, by whoever needs the model

    monkeypatch.setattr(speech, "speech_models", look_up)
    thread = speech.prepare_speech_models_in_background()
    thread.join(timeout=10)
    assert seen == ["speech-models"] and thread is not threading.main_thread() and thread.daemon


def test_the_app_starts_the_lookup_with_its_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    from sialign.gui import app

    started: list[bool] = []
    monkeypatch.setattr(speech, "prepare_speech_models_in_background", lambda: started.append(True))
    app.preload_engine()
    assert started == [True]
