"""Hand-made timed projects shared by the EVS tests."""

from __future__ import annotations

from sialign.core.model import Alignment, Bead, Document, Project


def timed_project(src_times: list[tuple[float, float]], tgt_times: list[tuple[float | None, float | None]],
                  beads: list[Bead], *, talk: str = "talk", interpreter: str | None = None) -> Project:
    return Project(
        talk_id=talk,
        source=Document.from_texts([f"s{i}" for i in range(len(src_times))], "en", src_times),
        target=Document.from_texts([f"t{i}" for i in range(len(tgt_times))], "ja", tgt_times),  # type: ignore[arg-type]
        alignment=Alignment(beads),
        metadata={"interpreter": interpreter} if interpreter else {},
    )


def interpreter_projects() -> list[Project]:
    def talk(name: str, who: str | None, lags: list[float]) -> Project:
        return timed_project([(10.0 * i, 10.0 * i + 4) for i in range(len(lags))],
                             [(10.0 * i + lag, 10.0 * i + 4 + lag + 1) for i, lag in enumerate(lags)],
                             [Bead((i,), (i,)) for i in range(len(lags))], talk=name, interpreter=who)

    return [talk("t1", "B", [2.0, 2.0, 3.0]), talk("t2", "A", [4.0, 5.0]),
            talk("t3", "B", [3.0, 4.0, 4.0]), talk("t4", None, [1.0])]


