"""The one rule that tells an output file's format from its name.

Every kind of file SI Aligner writes declares its extensions once, as an
:class:`OutputFormats` (alignment exports: :data:`sialign.io.writers.ALIGNMENT_FILES`;
transcripts: :data:`sialign.io.writers.TRANSCRIPT_FILES`; the report, the
comparison, the term check and projected tags in their modules under
:mod:`sialign.review`), and :meth:`OutputFormats.format_of` reads a name
against it: extensions compare without case, and a name that says none of
them is one :class:`~sialign.core.errors.OutputNameError` naming the file and
the extensions to use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sialign.core.errors import OutputNameError


@dataclass(frozen=True)
class OutputFormats:
    """The formats one kind of output file is written in, by extension.

    Attributes:
        what: the kind of file, for messages: ``"a report"``.
        suffixes: extension as shown to the user, with its dot (``".TextGrid"``)
            → format key (``"textgrid"``). The first extension of each format
            is the one messages name.
        example: a file stem for the message's hint (``"report"``: "name the
            output file report.html or report.pdf"); empty: "name the output
            file accordingly".
        plural: ``what`` is plural ("projected tags are written as …").
        choose: another way to choose the format, added to the hint
            (``"or choose a format"``).
    """

    what: str
    suffixes: Mapping[str, str]
    example: str = ""
    plural: bool = False
    choose: str = ""

    def format_or_none(self, path: str | Path) -> str | None:
        """The format the extension of ``path`` names, or None."""
        suffix = Path(path).suffix.lower()
        for name, key in self.suffixes.items():
            if name.lower() == suffix:
                return key
        return None

    def format_of(self, path: str | Path) -> str:
        """The format the extension of ``path`` names.

        Raises:
            OutputNameError: the extension names none of them (one line: which to use).
        """
        key = self.format_or_none(path)
        if key is None:
            raise OutputNameError(self.problem(path))
        return key

    def problem(self, path: str | Path) -> str:
        """``"x.md: a report is written as .html or .pdf — name the output file report.html or report.pdf"``."""
        first: dict[str, str] = {}
        for name, key in self.suffixes.items():
            first.setdefault(key, name)
        shown = list(first.values())
        listed = _either(shown)
        hint = f"name the output file {_either([self.example + s for s in shown])}" if self.example else "name the output file accordingly"
        if self.choose:
            hint += f", {self.choose}"
        return f"{path}: {self.what} {'are' if self.plural else 'is'} written as {listed} — {hint}"


def _either(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


__all__ = ["OutputFormats"]
