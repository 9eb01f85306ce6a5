"""The embedder protocol shared by the lexical embedder and neural models."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

import numpy as np
import scipy.sparse as sp

from sialign.core.progress import ProgressFn, StopFn


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit-length vectors whose dot product is a similarity.

    Attributes:
        name: a short human-readable name, shown in the UI and recorded in
            :attr:`sialign.core.model.Alignment.embedder`.
        dim: length of the vectors :meth:`encode` returns.
        cache_id: identifies the exact function text → vector (model files,
            parameters and, for embedders with corpus statistics, the fitted
            state); :class:`sialign.embed.cache.EmbeddingCache` keys on it.
            Empty when vectors must not be cached.
    """

    name: str
    dim: int

    @property
    def cache_id(self) -> str: ...

    def fit(self, texts: Sequence[str]) -> None:
        """Collect corpus statistics (a no-op for embedders without any)."""

    def encode(
        self,
        texts: Sequence[str],
        *,
        progress: ProgressFn | None = None,
        should_stop: StopFn | None = None,
    ) -> np.ndarray:
        """Vectors of ``texts``.

        Returns:
            float32 array of shape (len(texts), dim); every row has L2 norm 1,
            except rows of texts without any feature (empty strings), which
            are all zeros.

        Raises:
            AlignmentCancelled: when ``should_stop()`` returns True between batches.
        """
        ...


def l2_normalise_rows(matrix: np.ndarray) -> np.ndarray:
    """Scale each row of ``matrix`` (n, dim) to unit length in place; zero rows stay zero."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.divide(matrix, norms, out=matrix, where=norms > 0)
    return matrix


def similarities(a: np.ndarray | sp.spmatrix, b: np.ndarray | sp.spmatrix) -> np.ndarray:
    """Cosine similarities of two sets of unit vectors, dense or sparse.

    Args:
        a: (n_a, dim) unit rows — a numpy array or a scipy sparse matrix
            (e.g. :meth:`sialign.embed.lexical.LexicalEmbedder.encode_sparse`).
        b: (n_b, dim) unit rows, same kind of dimension.

    Returns:
        float32 array of shape (n_a, n_b).
    """
    if a.shape[0] == 0 or b.shape[0] == 0:
        return np.zeros((a.shape[0], b.shape[0]), dtype=np.float32)
    if sp.issparse(a) or sp.issparse(b):
        product = sp.csr_matrix(a) @ sp.csr_matrix(b).T
        return np.asarray(product.toarray(), dtype=np.float32)
    return np.asarray(a @ b.T, dtype=np.float32)


_BLAS_CONTROLLER: Any = None


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context in which numpy's matrix products run on one BLAS thread.

    For many small products (a multi-threaded BLAS spends more on waking
    and syncing its threads than on the product, many times more on a busy
    machine) and for worker threads that share the cores among themselves.
    The libraries are looked up once (threadpoolctl scans every loaded
    library, about a millisecond), so the context costs microseconds.
    """
    global _BLAS_CONTROLLER
    if _BLAS_CONTROLLER is None:
        from threadpoolctl import ThreadpoolController

        _BLAS_CONTROLLER = ThreadpoolController()
    limited: AbstractContextManager[Any] = _BLAS_CONTROLLER.limit(limits=1, user_api="blas")
    return limited
