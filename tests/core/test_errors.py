"""core.errors: messages stay on one printable line."""

from __future__ import annotations

import pytest

from sialign.core.errors import InputError, OutputError, printable


@pytest.mark.parametrize(
    ("text", "shown"),
    [("plain, 日本語 and é", "plain, 日本語 and é"), ("a\x0bb", "a\\x0bb"), ("a\tb\nc", "a\\tb\\nc"), ("a\x85b", "a\\x85b"),
     ("a\u2028b\u2029c", "a\\u2028b\\u2029c"), ("nul\x00", "nul\\x00"), ("zwj\u200dkept", "zwj\u200dkept")],
)
def test_errors_printable_escapes_what_breaks_a_line(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert len(printable(text).splitlines()) == 1


def test_errors_file_errors_are_one_line_whatever_they_quote() -> None:
    assert str(InputError("a\x1cb.tsv", "header 'x\x0by'", hint="fix\u2028it")) == "a\\x1cb.tsv: header 'x\\x0by' — fix\\u2028it"
    assert len(str(OutputError("out\n.tsv", "cannot write")).splitlines()) == 1
