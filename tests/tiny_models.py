"""Tiny sentence-transformers models built locally for tests (never from a hub).

A WordPiece tokenizer trained on a few sentences plus a randomly initialised
``StaticEmbedding`` saves to a ~20 kB folder that ``SentenceTransformer(folder)``
reloads offline in well under a second.
"""

from __future__ import annotations

from pathlib import Path

_SENTENCES = [
    "the talk starts now",
    "good morning everyone and welcome",
    "the interpreter follows the speaker",
    "今日は政府の話をします",
    "通訳者は話し手に続きます",
]


def build_tiny_model(folder: Path, *, dim: int = 16, seed: int = 0) -> Path:
    """Save a tiny StaticEmbedding sentence-transformers model into ``folder``; returns it."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer()
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=120, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"])
    tokenizer.train_from_iterator(_SENTENCES, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tokenizer, unk_token="[UNK]", pad_token="[PAD]")
    model = SentenceTransformer(modules=[StaticEmbedding(fast, embedding_dim=dim)], device="cpu")
    model.save(str(folder))
    return folder
