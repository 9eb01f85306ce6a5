"""The example talk's two renditions as projects aligned by their gold files (no embedder needed)."""

from __future__ import annotations

from pathlib import Path

from sialign.core.model import Alignment, Bead, Project

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def example_rendition(which: int = 1) -> Project:
    """Rendition 1 (the bundled interpretation) or 2 (``rendition2/``), beads from the gold alignment.

    Costs are 0.3 everywhere (alignment confidence 70%); interpreters are
    ``"I1"`` (rank 1) and ``"I2"`` (rank 2); both have their audio.
    """
    from sialign.evaluate import read_beads
    from sialign.io.readers import read_transcript
    from sialign.workflows.talks import load_example

    project = load_example(EXAMPLES)
    folder = EXAMPLES if which == 1 else EXAMPLES / "rendition2"
    if which == 2:
        project.target = read_transcript(folder / "talk.ja2.srt")
        project.target.audio_path = str(folder / "talk.ja2.ogg")
    sid, tid = project.source.ids(), project.target.ids()
    beads = [
        Bead(tuple(sid[i] for i in s), tuple(tid[j] for j in t), cost=0.3)
        for s, t in read_beads(folder / "talk.gold.align")
    ]
    project.alignment = Alignment(beads, embedder="gold", created="2026-01-01T00:00:00")
    project.metadata.update({"interpreter": f"I{which}", "rank": str(which)})
    project.validate()
    return project
