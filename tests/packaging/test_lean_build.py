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
