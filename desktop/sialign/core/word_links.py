"""Word links stored in a project: per bead, keyed by the bead's two texts.

Links are derived data: :mod:`sialign.workflows.word_links` draws them with
:class:`sialign.links.WordLinker` from the running text of each side of a
bead (the source, and the target as the review shows it: post-edit if any,
trimmed chunks left out). They are stored under a key made of those two
texts, so a split, merge, move, post-edit or trim changes the key of just
the beads it touches, and only those are linked again; undoing the edit
brings the old key, and its links, back. Entries no bead uses any more are
dropped when links are next updated.

Token indices refer to the tokens stored beside the links
(:func:`sialign.links.tokenize` of each text); ``content`` marks which
source tokens are content words, from which :attr:`BeadLinks.rendered_share`
is computed (the rule is in :func:`sialign.links.is_content_token`). A content
word is *linked* (a word link), *rendered by paraphrase* (``paraphrased``: a
span of the rendition matches its context, :func:`sialign.links.paraphrase_matches`)
or *not found*; the rendered share counts the first two.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

from sialign.core.documents import Bead, Document, bead_text

Link = tuple[int, int]


def bead_link_key(src_text: str, tgt_text: str) -> str:
    """The key of a bead's links: a digest of its source and target texts."""
    digest = hashlib.sha1(f"{src_text}\x00{tgt_text}".encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return digest.hexdigest()[:20]


@dataclass(frozen=True)
class BeadLinks:
    """The links of one bead.

    Attributes:
        src_tokens / tgt_tokens: ``(token, start, end)`` with character
            offsets into the side's running text.
        links: 0-based (source token, target token) pairs, sorted.
        content: indices of the source tokens that are content words.
        paraphrased: indices of the content words without a link that a
            span of the target renders in other words.
    """

    src_tokens: tuple[tuple[str, int, int], ...] = ()
    tgt_tokens: tuple[tuple[str, int, int], ...] = ()
    links: tuple[Link, ...] = ()
    content: tuple[int, ...] = ()
    paraphrased: tuple[int, ...] = ()

    @property
    def rendered_share(self) -> float | None:
        """Share of the source content words linked or rendered by paraphrase; None without content words or target."""
        if not self.content or not self.tgt_tokens:
            return None
        rendered = {i for i, _ in self.links} | set(self.paraphrased)
        return sum(1 for i in self.content if i in rendered) / len(self.content)

    @property
    def linked_share(self) -> float | None:
        """Share of the source content words with a word link (paraphrases left out); None as :attr:`rendered_share`."""
        if not self.content or not self.tgt_tokens:
            return None
        linked = {i for i, _ in self.links}
        return sum(1 for i in self.content if i in linked) / len(self.content)

    def content_state(self, index: int) -> str:
        """``"linked"``, ``"paraphrase"``, ``"not found"`` for a content word; ``""`` for another token."""
        if index not in self.content:
            return ""
        if any(i == index for i, _ in self.links):
            return "linked"
        return "paraphrase" if index in self.paraphrased else "not found"

    def unrendered(self) -> list[str]:
        """The source content words neither linked nor rendered by paraphrase, in order."""
        rendered = {i for i, _ in self.links} | set(self.paraphrased)
        return [self.src_tokens[i][0] for i in self.content if i not in rendered]

    def paraphrased_words(self) -> list[str]:
        """The source content words rendered by paraphrase (no link), in order."""
        linked = {i for i, _ in self.links}
        return [self.src_tokens[i][0] for i in self.content if i in set(self.paraphrased) and i not in linked]

    def pharaoh(self) -> str:
        """``"0-1 2-3"``: the links in the Pharaoh format of fast_align and eflomal."""
        return " ".join(f"{i}-{j}" for i, j in self.links)

    def to_dict(self) -> dict[str, Any]:
        return {
            "src": [list(t) for t in self.src_tokens],
            "tgt": [list(t) for t in self.tgt_tokens],
            "links": self.pharaoh(),
            "content": list(self.content),
            **({"paraphrased": list(self.paraphrased)} if self.paraphrased else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BeadLinks:
        links = []
        for pair in str(d.get("links", "")).split():
            i, j = pair.split("-")
            links.append((int(i), int(j)))
        return cls(
            src_tokens=tuple((str(t), int(a), int(b)) for t, a, b in d.get("src", [])),
            tgt_tokens=tuple((str(t), int(a), int(b)) for t, a, b in d.get("tgt", [])),
            links=tuple(sorted(links)),
            content=tuple(int(i) for i in d.get("content", [])),
            paraphrased=tuple(int(i) for i in d.get("paraphrased", [])),
        )


@dataclass(frozen=True)
class WordLinks:
    """All stored links of a project and the aligner that drew them.

    Immutable: an update makes a new object, so a worker may read one while
    the application replaces it.

    Attributes:
        aligner: the word aligner's name (``sialign.links.ALIGNER_NAME``).
        beads: :class:`BeadLinks` by :func:`bead_link_key`.
    """

    aligner: str = ""
    beads: dict[str, BeadLinks] = field(default_factory=dict)

    def get(self, key: str) -> BeadLinks | None:
        return self.beads.get(key)

    def to_dict(self) -> dict[str, Any]:
        return {"aligner": self.aligner, "beads": {k: v.to_dict() for k, v in sorted(self.beads.items())}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> WordLinks:
        return cls(aligner=str(d.get("aligner", "")), beads={str(k): BeadLinks.from_dict(v) for k, v in d.get("beads", {}).items()})


class LinkedTalk(Protocol):
    """What the links of a bead are read from: a project's two documents and its stored links."""

    @property
    def source(self) -> Document: ...

    @property
    def target(self) -> Document: ...

    @property
    def word_links(self) -> WordLinks | None: ...


def link_texts(project: LinkedTalk, bead: Bead) -> tuple[str, str]:
    """The two running texts a bead's links are drawn on: the source, and the target as reviewed."""
    return bead_text(bead, project.source, "src"), bead_text(bead, project.target, "tgt")


def links_of(project: LinkedTalk, bead: Bead) -> BeadLinks | None:
    """The stored links of ``bead``; None when none are stored for its current texts."""
    if project.word_links is None or not bead.src or not bead.tgt:
        return None
    return project.word_links.get(bead_link_key(*link_texts(project, bead)))


def rendered_share(project: LinkedTalk, bead: Bead) -> float | None:
    """The bead's rendered share (:attr:`BeadLinks.rendered_share`); None when not linked or not measurable."""
    links = links_of(project, bead)
    return None if links is None else links.rendered_share


__all__ = ["BeadLinks", "LinkedTalk", "WordLinks", "bead_link_key", "link_texts", "links_of", "rendered_share"]
