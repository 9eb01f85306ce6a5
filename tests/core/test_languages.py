"""Language codes the user gives: normalised to ISO 639-1, or refused with a hint."""

from __future__ import annotations

import pytest

from sialign.core.errors import InputError, UnknownLanguageError
from sialign.core.languages import ISO_639_1_CODES, normalise_language


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", "en"),
        (" JA ", "ja"),
        ("zh-TW", "zh-TW"),
        ("zh-tw", "zh-TW"),
        ("pt_BR", "pt-BR"),
        ("es-419", "es-419"),
        ("zh-hant", "zh-Hant"),
        ("eng", "en"),
        ("jpn", "ja"),
        ("fre", "fr"),
        ("fra", "fr"),
        ("ger", "de"),
        ("deu", "de"),
        ("dut", "nl"),
        ("chi", "zh"),
        ("cze", "cs"),
        ("gre", "el"),
        ("ind", "id"),
        ("English", "en"),
        ("japanese", "ja"),
        ("CHINESE", "zh"),
        ("arabic", "ar"),
        ("und", "und"),
        ("yo", "yo"),
        ("bh", "bh"),
    ],
)
def test_languages_normalise_language(code: str, expected: str) -> None:
    assert normalise_language(code) == expected


@pytest.mark.parametrize("code", ["xx", "", " ", "engl", "e", "english2", "en-!!", "qq-US", "klingon"])
def test_languages_normalise_language_refuses_what_is_no_language(code: str) -> None:
    with pytest.raises(InputError) as info:
        normalise_language(code)
    assert isinstance(info.value, UnknownLanguageError)
    assert str(info.value) == f"unknown language {code!r} — use a two-letter code such as en, ja, fr, de, zh"
    assert info.value.path is None and info.value.hint.startswith("use a two-letter code")


def test_languages_iso_639_1_has_every_two_letter_code() -> None:
    assert len(ISO_639_1_CODES) == 184
    assert all(len(code) == 2 and code.isalpha() and code.islower() for code in ISO_639_1_CODES)
    assert {"en", "ja", "zh", "ko", "fr", "de", "uk", "he", "id"} <= ISO_639_1_CODES
