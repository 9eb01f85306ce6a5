from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sialign.filters.word_align import argmax_links, covered_spans, grow_diag_final_and


def test_word_align_argmax_both_directions() -> None:
    sim = np.array([[0.9, 0.1, 0.0], [0.2, 0.3, 0.8]])
    forward, backward = argmax_links(sim)
    assert forward == {(0, 0), (1, 2)}
    assert backward == {(0, 0), (1, 1), (1, 2)}
    assert argmax_links(np.zeros((0, 3))) == (set(), set())


@pytest.mark.parametrize(
    "forward, backward, n_src, n_tgt, expected",
    [
        # Agreement: the intersection is the answer.
        ({(0, 0), (1, 1)}, {(0, 0), (1, 1)}, 2, 2, {(0, 0), (1, 1)}),
        # Grow-diag adds a union neighbour of an aligned point while one side of it is unaligned.
        ({(0, 0), (1, 1)}, {(0, 0), (1, 2)}, 2, 3, {(0, 0), (1, 1), (1, 2)}),
        # Final-and adds a directional link only when both its words are still unaligned.
        ({(0, 0), (2, 3)}, {(0, 0)}, 3, 4, {(0, 0), (2, 3)}),
        # ...and not when one of them is already aligned (and it is not a neighbour).
        ({(0, 0), (2, 0)}, {(0, 0)}, 3, 1, {(0, 0)}),
        # Nothing in common: final-and keeps non-conflicting links in forward order.
        ({(0, 1)}, {(1, 0)}, 2, 2, {(0, 1), (1, 0)}),
    ],
)
def test_word_align_grow_diag_final_and(forward: set, backward: set, n_src: int, n_tgt: int, expected: set) -> None:
    assert grow_diag_final_and(forward, backward, n_src, n_tgt) == expected


def test_word_align_covered_spans_from_vectors() -> None:
    eye = np.eye(3, dtype=np.float32)
    src = (eye, [(0, 3), (4, 8), (9, 12)])
    tgt = (eye[:2], [(0, 2), (2, 4)])
    # Source tokens 0 and 1 match target tokens exactly; token 2 has no partner of its own.
    covered = covered_spans(src, tgt, [(0, 3), (4, 8), (9, 12)])
    assert covered[:2] == [True, True]
    assert covered_spans((np.zeros((0, 3), np.float32), []), tgt, [(0, 1)]) == [False]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Any:
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

    torch.set_num_threads(1)
    torch.manual_seed(0)
    folder: Path = tmp_path_factory.mktemp("tiny-st")
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    corpus = ["the government gave up", "政府は諦めていない", "music needs trust", "音楽には信頼が必要"] * 5
    tok.train_from_iterator(corpus, trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    from tokenizers.processors import TemplateProcessing

    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")
    bert = BertModel(BertConfig(vocab_size=fast.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64))
    (folder / "hf").mkdir()
    bert.save_pretrained(folder / "hf")
    fast.save_pretrained(folder / "hf")
    transformer = Transformer(str(folder / "hf"), max_seq_length=64)
    model = SentenceTransformer(modules=[transformer, Pooling(32, "mean")], device="cpu")
    model.save(str(folder / "st"))
    return SentenceTransformer(str(folder / "st"), device="cpu")


@pytest.mark.slow
def test_word_align_alpha_by_alignment_with_a_sentence_transformer(tiny_model: Any) -> None:
    from sialign.core.model import Alignment, Bead, Document, Project
    from sialign.filters import score_beads
    from sialign.filters.word_align import token_vectors

    (vectors, offsets), = token_vectors(tiny_model, ["the government gave up"])
    assert vectors.shape[0] == len(offsets) >= 4
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert all("the government gave up"[a:b].strip() for a, b in offsets)

    src = Document.from_texts(["The government gave up in 1950.", "(Laughter)"], "en")
    tgt = Document.from_texts(["the government gave up in 1950"], "en")
    project = Project(source=src, target=tgt, alignment=Alignment([Bead((0,), (0,)), Bead((1,), ())]))
    scores = score_beads(project, word_model=tiny_model)
    detail = scores.alpha_details[0][0]
    assert detail.method == "word alignment"
    assert detail.total == 2  # government, 1950 ("The" opens the sentence; "gave", "up", "in" are on the stoplist)
    assert 0.0 <= scores.alpha[0, 0] <= 1.0
    assert np.isnan(scores.alpha[0, 1])
