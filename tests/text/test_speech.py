"""Transcripts that read as speech: hesitation sounds counted in each language, and the threshold."""

from __future__ import annotations

import pytest

from sialign.text.speech import SPEECH_WORDS_PER_HESITATION, hesitations, reads_as_speech


@pytest.mark.parametrize(("texts", "language", "expected"), [
    (["So ehm we have to , uh , act now ."], "en", 2),
    (["Well um , er , I think so ."], "en", 2),  # English hesitations that are words elsewhere
    (["Er kam um acht Uhr , um zu essen ."], "de", 0),  # German "er" (he) and "um" (around) are words
    (["Ich , äh , ähm , glaube schon ."], "de", 2),
    (["Alors euh , nous devons , heu , agir ."], "fr", 2),
    (["Eh bien , c'est ça ."], "fr", 0),  # an interjection of written French
    (["Dobrze , yyy , eee , tak ."], "pl", 2),
    (["えーと、今日はですね、えー、パンの話です。", "その本はあのー面白い。"], "ja", 3),  # その is a word
    (["ÄHM , EHM ."], "de", 2),  # any case
    (["え～と、えーと、え〜と"], "ja", 3),  # waves for the long vowel mark
    (["ehm、そうですね"], "ja", 1),  # a Latin hesitation in Japanese text
    (["Well um , er , I think so ."], "en_GB", 2),  # the tag's primary subtag
    (["Well um , er ."], None, 0),  # no language: only the sounds that are no word anywhere
    ([], "en", 0),
    (["A youth called Shan Men Er was pulling out a large one .", "Then Er Bao , um , left ."], "en", 1),  # names
    (["A son called Gou-er and a daughter , Qing-er ."], "en", 0),  # a compound's part
    (["Er , I think so .", "He said : Um , no .", "« Uh , yes »"], "en", 3),  # where a sentence starts
])
def test_hesitations_counts_the_sounds_of_each_language(texts, language, expected) -> None:
    assert hesitations(texts, language)[0] == expected


def test_a_transcript_reads_as_speech_with_two_hesitations_at_one_per_thousand_words() -> None:
    sentence = "The committee met in Brussels on Monday to discuss the budget ."
    words = len(sentence.split()) - 1  # the full stop is no word
    spoken = [sentence, "And ehm the farmers , uh , have suffered ."]
    assert reads_as_speech((spoken, "en"))
    # One hesitation is not enough, whatever the length.
    assert not reads_as_speech(([sentence, "And ehm the farmers have suffered ."], "en"))
    # Two in a long written text are too few: under one per thousand words.
    long_text = [sentence] * (2 * SPEECH_WORDS_PER_HESITATION // words + 1) + ["ehm", "uh"]
    assert not reads_as_speech((long_text, "en"))
    assert reads_as_speech(([sentence] * (2 * SPEECH_WORDS_PER_HESITATION // words - 1) + ["ehm", "uh"], "en"))
    # The two sides of a talk count together: one hesitation in each makes two.
    assert reads_as_speech(([sentence, "Ehm , yes ."], "en"), (["Euh , oui ."], "fr"))
    assert not reads_as_speech(([], "en"), ([], "fr"))


def test_a_language_without_spaces_counts_words_by_characters() -> None:
    """5,000 Chinese characters are 2,500 words, not one: two hesitations in an English dialogue beside them are too few."""
    chinese = ["我们今天讨论预算的问题。" * 10] * 40
    found, words = hesitations(chinese, "zh")
    assert found == 0 and words >= 2000
    assert not reads_as_speech((chinese, "zh"), (["Hmm , he said .", "Uh , she said ."], "en"))
