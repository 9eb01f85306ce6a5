"""Interpretation or written translation: ``AlignParams.text_kind`` picks the learned weights of sentence targets."""

from __future__ import annotations

import json

import pytest

from sialign.align import learned_pass
from sialign.align.learned_pass import WEIGHT_SETS, match_features, shipped_weights, weight_set
from sialign.align.pipeline import align_project, resolve_text_kind
from sialign.core.errors import ParamsError
from sialign.core.model import Document, Project
from sialign.core.params import AlignParams

SOURCE = [
    "The committee met in Brussels on Monday to discuss the budget.",
    "Farmers in the south have suffered from the drought for three years.",
    "We need a common policy on water that protects the rivers.",
    "The Commission must present its proposal before the end of the year.",
]
TARGET = [
    "Le comité s'est réuni lundi à Bruxelles pour discuter du budget.",
    "Les agriculteurs du sud souffrent de la sécheresse depuis trois ans.",
    "Il nous faut une politique commune de l'eau qui protège les rivières.",
    "La Commission doit présenter sa proposition avant la fin de l'année.",
]


def talk(times: bool = False, audio: str | None = None) -> Project:
    src_times = [(5.0 * k, 5.0 * k + 4.0) for k in range(len(SOURCE))] if times else None
    tgt_times = [(5.0 * k + 2.0, 5.0 * k + 6.0) for k in range(len(TARGET))] if times else None
    project = Project(source=Document.from_texts(SOURCE, "en", src_times), target=Document.from_texts(TARGET, "fr", tgt_times))
    project.target.audio_path = audio
    return project


def test_the_interpretation_weights_are_shipped_and_fitted_on_interpreted_speeches_alone() -> None:
    interpretation, combined = shipped_weights("interpretation"), shipped_weights("sentences")
    assert interpretation is not None and combined is not None
    assert interpretation.units == "sentences"  # the sentence features, not the chunks'
    assert interpretation.match.shape == (len(match_features("sentences")),)
    assert "EPTIC" in interpretation.fitted_on and "Text+Berg" not in interpretation.fitted_on
    assert "Text+Berg" in combined.fitted_on
    assert list(interpretation.match) != list(combined.match)
    assert interpretation.calibration  # calibrated on the interpreted speeches' paths


def test_weight_set_by_units_and_kind() -> None:
    assert weight_set("sentences", "interpretation") == "interpretation"
    assert weight_set("sentences", "translation") == "sentences"
    # Chunks keep their own weights whatever the kind.
    assert weight_set("chunks", "interpretation") == weight_set("chunks", "translation") == "chunks"
    assert set(WEIGHT_SETS) == set(json.loads(learned_pass.WEIGHTS_FILE.read_text(encoding="utf-8")))


@pytest.mark.parametrize(("times", "audio", "kind"), [
    (False, None, "translation"),  # what every text-only alignment gets
    (True, None, "interpretation"),  # timestamps on both sides
    (False, "interpreter.wav", "interpretation"),  # a recorded interpretation
])
def test_auto_takes_the_talks_word(times, audio, kind) -> None:
    assert resolve_text_kind(AlignParams(), talk(times, audio)) == kind
    for stated in ("interpretation", "translation"):
        assert resolve_text_kind(AlignParams(text_kind=stated), talk(times, audio)) == stated


def test_transcripts_with_hesitations_are_an_interpretation_and_a_book_is_not() -> None:
    """Transcribed speech keeps its hesitations ("ehm", "euh"); a written text has none, German "um" and "er" are words."""
    from sialign.align.pipeline import text_kind_evidence
    from sialign.workflows.aligning import text_kind_note

    spoken = Project(source=Document.from_texts([SOURCE[0].replace("met", "ehm met"), *SOURCE[1:]], "en"),
                     target=Document.from_texts([TARGET[0].replace("s'est", "euh s'est"), *TARGET[1:]], "fr"))
    assert text_kind_evidence(spoken) == "hesitations"
    assert resolve_text_kind(AlignParams(), spoken) == "interpretation"
    assert resolve_text_kind(AlignParams(text_kind="translation"), spoken) == "translation"
    assert "an interpretation: the transcripts keep hesitations" in text_kind_note(spoken, AlignParams())
    book = Project(source=Document.from_texts(["Er kam um acht Uhr.", "Um zehn ging er."] * 3, "de"),
                   target=Document.from_texts(["Il vint à huit heures.", "Eh bien, il partit à dix."] * 3, "fr"))
    assert text_kind_evidence(book) == ""
    assert resolve_text_kind(AlignParams(), book) == "translation"
    assert "no hesitations" in text_kind_note(book, AlignParams())


def test_timestamps_on_one_side_only_do_not_make_an_interpretation() -> None:
    project = talk()
    project.target = Document.from_texts(TARGET, "fr", [(2.0 + 5 * k, 6.0 + 5 * k) for k in range(len(TARGET))])
    assert resolve_text_kind(AlignParams(), project) == "translation"


def _weights_used(monkeypatch, project: Project, params: AlignParams) -> tuple[list[str], dict]:
    used: list[str] = []
    original = learned_pass.refine

    def spy(*args, **kwargs):
        used.append(args[8])  # the weight set, after the window and the bead limits
        return original(*args, **kwargs)

    monkeypatch.setattr(learned_pass, "refine", spy)
    info = align_project(project, params).alignment.info
    return used, info


@pytest.mark.parametrize(("times", "kind", "expected"), [
    (False, "auto", "sentences"),
    (True, "auto", "interpretation"),
    (False, "interpretation", "interpretation"),
    (True, "translation", "sentences"),
])
def test_the_aligner_scores_with_the_weights_of_the_kind(monkeypatch, times, kind, expected) -> None:
    params = AlignParams(embedder="use-multilingual", target_units="sentences", text_kind=kind)
    used, info = _weights_used(monkeypatch, talk(times), params)
    assert used and set(used) == {expected}
    assert info["bead_score"] == expected
    assert info["text_kind"] == ("interpretation" if expected == "interpretation" else "translation")


def test_chunk_targets_keep_their_weights_in_an_interpretation(monkeypatch) -> None:
    params = AlignParams(embedder="use-multilingual", target_units="chunks", text_kind="interpretation")
    used, info = _weights_used(monkeypatch, talk(True), params)
    assert used and set(used) == {"chunks"} and info["bead_score"] == "chunks"


def test_a_malformed_weights_file_is_refused(monkeypatch, tmp_path) -> None:
    good = json.loads(learned_pass.WEIGHTS_FILE.read_text(encoding="utf-8"))
    cases = {
        "missing": {k: v for k, v in good.items() if k != "interpretation"},
        "feature": {**good, "interpretation": {**good["interpretation"], "match": {"bias": 1.0}}},
        "list": [good],
    }
    for name, content in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(content), encoding="utf-8")
        monkeypatch.setattr(learned_pass, "WEIGHTS_FILE", path)
        shipped_weights.cache_clear()
        try:
            assert shipped_weights("interpretation") is None, name
        finally:
            shipped_weights.cache_clear()
    monkeypatch.undo()
    assert shipped_weights("interpretation") is not None


def test_text_kind_is_checked_and_saved_with_the_parameters() -> None:
    with pytest.raises(ParamsError, match="text_kind"):
        AlignParams(text_kind="speech")  # type: ignore[arg-type]
    params = AlignParams(text_kind="interpretation")
    assert AlignParams.from_dict(params.to_dict()) == params
    # A project saved before the field existed opens with the automatic choice.
    old = {k: v for k, v in AlignParams().to_dict().items() if k != "text_kind"}
    assert AlignParams.from_dict(old).text_kind == "auto"


def test_a_saved_project_keeps_its_text_kind(tmp_path) -> None:
    from sialign.io.project_file import load_project, save_project

    project = talk()
    project.params = AlignParams(text_kind="interpretation", target_units="sentences")
    path = tmp_path / "talk.sialign"
    save_project(project, path)
    assert load_project(path).params == project.params
    # An older file without the field loads, with "auto".
    from sialign.io.project_file import project_checksum

    data = json.loads(path.read_text(encoding="utf-8"))
    del data["project"]["params"]["text_kind"]
    data["checksum"] = project_checksum(data["project"])
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_project(path).params.text_kind == "auto"


def test_the_settings_edit_sets_both_choices_and_refuses_a_bad_one() -> None:
    from sialign.workflows.aligning import alignment_settings_edit, text_kind_note

    project = talk(times=True)
    project.params = AlignParams()
    edit = alignment_settings_edit(project, "sentences", "translation")
    assert edit is not None
    undo = edit.apply(project)
    assert (project.params.target_units, project.params.text_kind) == ("sentences", "translation")
    assert alignment_settings_edit(project, "sentences", "translation") is None  # nothing to change
    assert "written translation, as chosen" in text_kind_note(project)
    undo.apply(project)
    assert project.params == AlignParams()
    assert "an interpretation: both transcripts have timestamps" in text_kind_note(project)
    with pytest.raises(ParamsError, match="text_kind"):
        alignment_settings_edit(project, "sentences", "speech")


def test_the_weights_note_names_the_kind_that_scored_sentence_targets() -> None:
    from sialign.workflows.aligning import weights_note

    assert weights_note({"bead_score": "interpretation"}).startswith("sentences scored as an interpretation")
    assert weights_note({"bead_score": "sentences"}).startswith("sentences scored as a written translation")
    assert weights_note({"bead_score": "chunks"}) == weights_note({"bead_score": None}) == weights_note({}) == ""
