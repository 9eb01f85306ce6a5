"""The word aligners' shared files: ``source ||| target`` pairs in, 0-based ``i-j`` links (Pharaoh) out."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sialign.core.errors import InputError
from sialign.links.params import Link


def format_pharaoh(links: Iterable[Link]) -> str:
    """``"0-1 2-3"``: 0-based links, the output of fast_align, eflomal and awesome-align."""
    return " ".join(f"{i}-{j}" for i, j in sorted(links))


def read_pairs(path: str | Path, text: str | None = None) -> list[tuple[list[str], list[str]]]:
    """``source ||| target`` lines, pre-tokenised with spaces (the shared word-aligner input).

    Args:
        path: the file (named in errors).
        text: its contents when already read (standard input).

    Raises:
        InputError: a line without ``|||``, or the file cannot be read.
    """
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})", hint="save it as UTF-8") from exc
        except OSError as exc:
            raise InputError(path, f"cannot be read ({exc.strerror or exc})") from exc
    pairs: list[tuple[list[str], list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if " ||| " not in f" {line} " or line.count("|||") != 1:
            raise InputError(
                path, "expected one 'source ||| target' pair per line", line=number,
                hint="separate the two tokenised sides with ' ||| '",
            )
        src, tgt = line.split("|||")
        pairs.append((src.split(), tgt.split()))
    return pairs
