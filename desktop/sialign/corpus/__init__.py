"""Corpus mode: a manifest of talks aligned into a folder of projects, resumable and parallel."""

from sialign.corpus.manifest import TalkSpec, read_manifest
from sialign.corpus.runner import CorpusReport, CorpusState, align_corpus, corpus_status

__all__ = ["CorpusReport", "CorpusState", "TalkSpec", "align_corpus", "corpus_status", "read_manifest"]
