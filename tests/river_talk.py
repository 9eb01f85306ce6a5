"""A short German rendition of an English talk, with a reference translation, for the filter tests.

German needs no GiNZA, so the filters run here without the Japanese models.
The third sentence is rendered far shorter than its reference.
"""

from __future__ import annotations

from typing import Any

from sialign.core.model import Alignment, Bead, Document, Project

SOURCE = ["The river floods every spring.", "Farmers plant rice in May.", "The harvest comes in autumn.", "Then they celebrate."]
TARGET = ["Der Fluss tritt jeden Frühling über die Ufer.", "Bauern pflanzen im Mai Reis.", "Ernte.", "Dann feiern sie."]
REFERENCE = ["Der Fluss tritt jedes Frühjahr über die Ufer.", "Die Bauern pflanzen im Mai Reis.",
             "Die Ernte kommt im Herbst, wenn die Felder golden sind.", "Dann feiern sie."]


def river_project(sentences: int = len(SOURCE), **fields: Any) -> Project:
    """The first ``sentences`` of the talk aligned 1:1 (cost 0.2), with any other ``Project`` fields."""
    return Project(
        talk_id="river",
        source=Document.from_texts(SOURCE[:sentences], language="en"),
        target=Document.from_texts(TARGET[:sentences], language="de"),
        reference=Document.from_texts(REFERENCE[:sentences], language="de"),
        alignment=Alignment(beads=[Bead(src=(i,), tgt=(i,), cost=0.2) for i in range(sentences)]),
        **fields,
    )
