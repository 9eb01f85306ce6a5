"""From recordings to transcripts, offline: a local Whisper model (faster-whisper) and the text DP that times transcripts.

:func:`recognise` hears the words of a recording with their times;
:func:`words_to_document` cuts them into sentences or interpreter chunks with
SI Aligner's own segmenters; :func:`transcribe_file` does both;
:func:`retime_document` gives an untimed transcript the times of the
recognised words. faster-whisper is imported only when a recording is
recognised; the model is always a local folder (never a download).
"""

from __future__ import annotations

from sialign.transcribe.recognise import Recognition, Word, recognise, whisper_languages
from sialign.transcribe.retime import RetimeStats, lcs_pairs, retime_document, tokenize
from sialign.transcribe.segmenting import ROLES, words_to_document
from sialign.transcribe.transcribing import Transcription, transcribe_file

__all__ = [
    "ROLES",
    "Recognition",
    "RetimeStats",
    "Transcription",
    "Word",
    "lcs_pairs",
    "recognise",
    "retime_document",
    "tokenize",
    "transcribe_file",
    "whisper_languages",
    "words_to_document",
]
