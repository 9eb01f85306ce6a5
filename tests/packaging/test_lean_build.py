"""The lean build (no torch / sentence-transformers): a user model gets one line naming the full build."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sialign.core.errors import ModelLoadError
from sialign.embed import models_registry
from sialign.embed.models import SentenceTransformerEmbedder


@pytest.fixture
def model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "modules.json").write_text("[]", encoding="utf-8")
    return folder


@pytest.fixture
def no_neural_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes `import x` raise ImportError, as in a bundle built without them.
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.setitem(sys.modules, "torch", None)


@pytest.mark.usefixtures("no_neural_stack")
def test_frozen_lean_build_names_the_full_build(monkeypatch: pytest.MonkeyPatch, model_folder: Path) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    for load in (lambda: SentenceTransformerEmbedder(model_folder), lambda: models_registry.check_model_folder(model_folder)):
        with pytest.raises(ModelLoadError) as err:
            load()
        message = str(err.value)
        assert "\n" not in message
        assert str(model_folder) in message
        assert "lean build" in message and "install the full build" in message


@pytest.mark.usefixtures("no_neural_stack")
def test_source_install_without_nlp_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch, model_folder: Path) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    with pytest.raises(ModelLoadError) as err:
        SentenceTransformerEmbedder(model_folder)
    assert "'nlp' extra" in str(err.value) and "lean" not in str(err.value)


def test_lean_spec_leaves_out_the_neural_stack() -> None:
    spec = (Path(__file__).resolve().parents[2] / "packaging" / "sialign.spec").read_text(encoding="utf-8")
    assert 'LEAN = os.environ.get("SIALIGN_BUNDLE_LEAN", "") == "1"' in spec
    assert '] + (NEURAL if LEAN else [])' in spec
    for module in ("torch", "sentence_transformers", "transformers"):
        assert f'"{module}"' in spec.split("NEURAL = [", 1)[1].split("]", 1)[0]


def test_both_builds_carry_the_recogniser_without_pyav() -> None:
    """The speech recogniser is not in the lean build's leave-out list; PyAV and lxml are left out of both builds."""
    spec = (Path(__file__).resolve().parents[2] / "packaging" / "sialign.spec").read_text(encoding="utf-8")
    neural = spec.split("NEURAL = [", 1)[1].split("]", 1)[0]
    for module in ("faster_whisper", "ctranslate2", "tokenizers", "huggingface_hub", "onnxruntime"):
        assert f'"{module}"' not in neural
    excludes = spec.split("excludes = [", 1)[1].split("] + (NEURAL", 1)[0]
    assert '"av"' in excludes and '"lxml"' in excludes
    assert 'runtime_hooks=[str(PACKAGING / "rthook_placeholders.py")]' in spec


def test_placeholders_let_the_libraries_load_and_name_the_fix(tmp_path: Path) -> None:
    """In a process where PyAV and lxml are missing and the installers' runtime hook stands in: the
    recogniser, chrF and the PDF's font subsetter import, and a file soundfile cannot read gets one line."""
    import subprocess

    hook = Path(__file__).resolve().parents[2] / "packaging" / "rthook_placeholders.py"
    desktop = Path(__file__).resolve().parents[2] / "desktop"
    odd = tmp_path / "talk.m4a"
    odd.write_bytes(b"\x00\x00\x00\x18ftypM4A " + bytes(2000))
    code = f"""
import sys
import importlib.abc
class NoAV(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("av", "lxml"):
            raise ImportError("not installed here")
sys.meta_path.insert(0, NoAV())
exec(open({str(hook)!r}).read())
from faster_whisper import WhisperModel
import faster_whisper.audio
assert type(faster_whisper.audio.av).__name__ == "_Placeholder"
# sacrebleu imports lxml.etree for XML test sets; chrF works without it, fontTools falls back.
from sacrebleu.metrics import CHRF
assert CHRF().sentence_score("the cat sat", ["the cat sat down"]).score > 50
import fontTools.misc.etree, fontTools.subset
assert not fontTools.misc.etree._have_lxml
from sialign.core.errors import InputError
from sialign.transcribe.recognise import decode_audio_file
try:
    decode_audio_file({str(odd)!r})
except InputError as exc:
    print("ERR", exc)
"""
    env = dict(__import__("os").environ, PYTHONPATH=str(desktop))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("ERR ") and "talk.m4a" in line
    assert "not a format this build can decode without PyAV" in line and "convert it to WAV, FLAC, OGG or MP3" in line
