"""A generated set of 65 transcripts in the encodings people send (issue 12).

Each sample is (name, bytes, expected text). A detector is right on a sample
when it decodes the bytes to exactly the expected text; two encodings that
give the same text for those bytes (latin-1 and cp1252 without curly quotes)
are both right. Used by ``test_encoding_detection.py`` and by
``tests/benchmarks/bench_io.py``, which also scores the detector of commit
afdfae4 (before issue 12).
"""

from __future__ import annotations

import codecs

JA = "皆さん、おはようございます。\n今日は、パンについてお話しします。\n三年前、私は何も焼けませんでした。\n台所は、コーヒーと残り物の場所でした。\nえー、それで、友人がサワー種の瓶をくれました。\n"
JA_SHORT = "はい、ありがとうございます。\nでは、始めましょう。\n"
EN = "Good morning, everyone.\nToday I want to talk about bread.\nThree years ago I could not bake anything.\n"
FR = "Bonjour à tous, je m'appelle Hélène.\nAujourd'hui, nous parlons de la forêt et de l'été.\nÇa a été très intéressant, n'est-ce pas ?\n"
FR_QUOTES = "« Voilà », a-t-elle dit – c’est l’œuvre d’une vie… “Merci”.\nLe café était très cher : 5 € la tasse.\n"
DE = "Guten Morgen, meine Damen und Herren.\nHeute spreche ich über Brötchen und Käse.\nDie Straße war schön, äußerst grün und ruhig.\n"
ES = "Buenos días a todos.\nHoy vamos a hablar de la montaña y del niño pequeño.\n¿Qué opinión tiene usted? ¡Fantástico!\n"
RU = "Доброе утро, дамы и господа.\nСегодня я хочу поговорить о хлебе.\nТри года назад я ничего не умел печь.\nЭто была очень интересная история.\n"
KO = "안녕하세요, 여러분.\n오늘은 빵에 대해 이야기하겠습니다.\n삼 년 전에는 아무것도 구울 수 없었습니다.\n정말 감사합니다.\n"
ZH = "大家早上好。\n今天我想谈谈面包。\n三年前，我什么都不会烤。\n厨房是放咖啡和剩饭的地方。\n"
ZH_TW = "大家早安。\n今天我想談談麵包。\n三年前，我什麼都不會烤。\n廚房是放咖啡和剩飯的地方。\n"
PL = "Dzień dobry państwu.\nDziś opowiem o chlebie i o żółtym serze.\nTo była naprawdę ciekawa historia, łatwa i miła.\n"
EL = "Καλημέρα σε όλους.\nΣήμερα θα μιλήσουμε για το ψωμί.\nΕυχαριστώ πολύ για την προσοχή σας.\n"
TR = "Günaydın arkadaşlar.\nBugün ekmek hakkında konuşacağız.\nÇok teşekkür ederim, iyi günler.\n"
MIXED_JA_EN = "Good morning.\nおはようございます。\nToday: 今日は 2026年 5月1日 です。\n"


def _sample(name: str, text: str, encoding: str, *, bom: bool = False) -> tuple[str, bytes, str]:
    data = text.encode(encoding)
    if bom:
        data = {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}[encoding] + data
    return name, data, text


def encoding_samples() -> list[tuple[str, bytes, str]]:
    """The 65 samples: (name, file bytes, text a right detector returns)."""
    s = _sample
    samples = [
        # UTF-8 in many scripts, with and without BOM (12)
        s("utf8-ja", JA, "utf-8"),
        s("utf8-ja-short", JA_SHORT, "utf-8"),
        s("utf8-en", EN, "utf-8"),
        s("utf8-fr", FR, "utf-8"),
        s("utf8-de", DE, "utf-8"),
        s("utf8-ru", RU, "utf-8"),
        s("utf8-ko", KO, "utf-8"),
        s("utf8-zh", ZH, "utf-8"),
        s("utf8-el", EL, "utf-8"),
        s("utf8-bom-ja", JA, "utf-8", bom=True),
        s("utf8-bom-en", EN, "utf-8", bom=True),
        s("utf8-mixed", MIXED_JA_EN, "utf-8"),
        # UTF-16 with and without BOM (10)
        s("utf16le-bom-ja", JA, "utf-16-le", bom=True),
        s("utf16be-bom-ja", JA, "utf-16-be", bom=True),
        s("utf16le-bom-en", EN, "utf-16-le", bom=True),
        s("utf16le-ja", JA, "utf-16-le"),
        s("utf16be-ja", JA, "utf-16-be"),
        s("utf16le-ja-short", JA_SHORT, "utf-16-le"),
        s("utf16le-en", EN, "utf-16-le"),
        s("utf16be-en", EN, "utf-16-be"),
        s("utf16le-ru", RU, "utf-16-le"),
        s("utf16le-ko", KO, "utf-16-le"),
        # Japanese legacy encodings (9)
        s("cp932-ja", JA, "cp932"),
        s("cp932-ja-short", JA_SHORT, "cp932"),
        s("cp932-mixed", MIXED_JA_EN, "cp932"),
        s("shift_jis-ja", JA, "shift_jis"),
        s("eucjp-ja", JA, "euc_jp"),
        s("eucjp-ja-short", JA_SHORT, "euc_jp"),
        s("eucjp-mixed", MIXED_JA_EN, "euc_jp"),
        s("iso2022jp-ja", JA, "iso2022_jp"),
        s("iso2022jp-ja-short", JA_SHORT, "iso2022_jp"),
        # Other CJK (8)
        s("euckr-ko", KO, "euc_kr"),
        s("cp949-ko", KO, "cp949"),
        s("gb18030-zh", ZH, "gb18030"),
        s("gbk-zh", ZH, "gbk"),
        s("gb2312-zh", ZH, "gb2312"),
        s("big5-zh", ZH_TW, "big5"),
        s("iso2022jp-mixed", MIXED_JA_EN, "iso2022_jp"),
        s("euckr-ko-twice", KO + KO, "euc_kr"),
        # Western European (12)
        s("cp1252-fr", FR, "cp1252"),
        s("cp1252-fr-quotes", FR_QUOTES, "cp1252"),
        s("cp1252-de", DE, "cp1252"),
        s("cp1252-es", ES, "cp1252"),
        s("latin1-fr", FR, "latin-1"),
        s("latin1-de", DE, "latin-1"),
        s("latin1-es", ES, "latin-1"),
        s("iso8859-15-fr", FR, "iso8859_15"),
        s("mac-roman-fr", FR, "mac_roman"),
        s("cp850-de", DE, "cp850"),
        s("cp1252-de-twice", DE + DE, "cp1252"),
        s("cp1252-es-twice", ES + FR, "cp1252"),
        # Cyrillic, Central European, Greek, Turkish (10)
        s("cp1251-ru", RU, "cp1251"),
        s("koi8r-ru", RU, "koi8_r"),
        s("iso8859-5-ru", RU, "iso8859_5"),
        s("cp866-ru", RU, "cp866"),
        s("cp1251-ru-twice", RU + RU, "cp1251"),
        s("cp1250-pl", PL, "cp1250"),
        s("iso8859-2-pl", PL, "iso8859_2"),
        s("cp1253-el", EL, "cp1253"),
        s("iso8859-7-el", EL, "iso8859_7"),
        s("cp1254-tr", TR, "cp1254"),
    ]
    # Mixed encodings: a UTF-8 file with one line pasted from a Latin-1 source (4)
    for name, lines in (
        ("utf8-one-latin1-line", ["Good morning.\n", "Café crème et thé glacé.\n", "今日は。\n"]),
        ("utf8-ja-one-latin1-line", ["皆さん、おはようございます。\n", "Müller sagte: schön.\n", "ありがとうございます。\n"]),
        ("utf8-fr-one-latin1-line", ["Bonjour à tous.\n", "Ça a été un été très chaud.\n", "Merci beaucoup, à bientôt.\n"]),
        ("utf8-de-one-latin1-line", ["Guten Tag.\n", "Die Brötchen sind köstlich.\n", "Vielen Dank für Ihre Geduld.\n"]),
    ):
        data = b"".join(line.encode("latin-1" if k == 1 else "utf-8") for k, line in enumerate(lines))
        samples.append((name, data, "".join(lines)))
    assert len(samples) == 65, len(samples)
    return samples


def score(decode: object) -> tuple[int, list[str]]:
    """(number right, names of the wrong ones) for ``decode(data) -> text`` (raising counts as wrong)."""
    right, wrong = 0, []
    for name, data, expected in encoding_samples():
        try:
            text = decode(data)  # type: ignore[operator]
        except Exception:
            text = None
        if text == expected:
            right += 1
        else:
            wrong.append(name)
    return right, wrong
