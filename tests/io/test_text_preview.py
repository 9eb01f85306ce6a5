"""The first lines of a transcript as decoded, and the doubts the New talk dialog shows about them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sialign.core.errors import EncodingError, InputError
from sialign.io.text_preview import ENCODING_CHOICES, preview_transcript


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_preview_choices_are_codecs() -> None:
    import codecs

    assert ENCODING_CHOICES[0] == ("Auto", None)
    for _label, codec in ENCODING_CHOICES[1:]:
        assert codec is not None and codecs.lookup(codec)


def test_preview_short_gbk_is_doubtful_when_detected(tmp_path: Path) -> None:
    path = write(tmp_path, "zh.txt", "你好世界。\n水资源\n".encode("gbk"))
    detected = preview_transcript(path)
    assert detected.detected and detected.doubts and "short text" in detected.doubts[0] and "GB18030" in detected.doubts[0]
    chosen = preview_transcript(path, "gb18030")
    assert chosen.lines == ["你好世界。", "水资源"] and chosen.doubts == [] and not chosen.detected


def test_preview_japanese_with_kana_is_not_doubtful(tmp_path: Path) -> None:
    path = write(tmp_path, "ja.txt", "こんにちは。今日は水の話です。\n".encode("cp932"))
    preview = preview_transcript(path)
    assert preview.encoding == "cp932" and preview.doubts == []


def test_preview_mixed_line_and_mojibake(tmp_path: Path) -> None:
    path = write(tmp_path, "de.txt", "Grüße.\n".encode() + "Café.\n".encode("latin-1"))
    auto = preview_transcript(path)
    assert auto.lines == ["Grüße.", "Café."] and "line 2" in auto.doubts[0]
    wrong = preview_transcript(path, "cp1252")
    assert wrong.lines[0] == "GrÃ¼ÃŸe." and any("UTF-8 read as a single-byte" in d for d in wrong.doubts)
    with pytest.raises(EncodingError, match="line 2"):
        preview_transcript(path, "utf-8")


def test_preview_replacement_and_control_characters(tmp_path: Path) -> None:
    lost = preview_transcript(write(tmp_path, "lost.txt", "ok\nbro\ufffdken\n".encode()))
    assert any("line 2" in d and "replacement" in d for d in lost.doubts)
    escaped = preview_transcript(write(tmp_path, "jis.txt", "皆さん\n".encode("iso2022_jp")), "cp1252")
    assert any("control characters" in d for d in escaped.doubts)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_preview_refuses_a_named_pipe_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="named pipe"):
        preview_transcript(fifo)
