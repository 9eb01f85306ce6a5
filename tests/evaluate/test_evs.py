"""Ear-voice span on hand-made timed data, per talk and per interpreter, and the ``sialign evs`` command."""

from __future__ import annotations

import numpy as np
import pytest
from evs_data import interpreter_projects
from evs_data import timed_project as _project

from sialign.core.model import Bead, BeadStatus
from sialign.evaluate.evs import compare_interpreters, compute_evs, evs_stats, lag_stats


def test_evs_lags_per_bead() -> None:
    project = _project(
        [(0.0, 4.0), (4.0, 9.0), (9.0, 12.0), (12.0, 15.0)],
        [(2.5, 5.0), (5.0, 7.5), (7.0, 11.0), (20.0, 22.0), (None, None)],
        [
            Bead((0,), (0, 1)),          # 2-chunk rendition: start 2.5 after, ends 3.5 after
            Bead((1,), (2,)),            # start lag 3.0, end lag 2.0
            Bead((2,), ()),              # omission: no lag
            Bead((3,), (3,), status=BeadStatus.DROPPED),
            Bead((), (4,)),              # addition without times
        ],
    )
    records = compute_evs(project)
    assert [(r.bead, r.start_lag, r.end_lag) for r in records] == [(0, 2.5, 3.5), (1, 3.0, 2.0)]
    with_dropped = compute_evs(project, include_dropped=True)
    assert [(r.bead, r.start_lag) for r in with_dropped][-1] == (3, 8.0)


def test_evs_missing_times_and_no_alignment() -> None:
    project = _project([(0.0, 1.0)], [(None, None)], [Bead((0,), (0,))])
    assert compute_evs(project) == []
    project.alignment = None
    assert compute_evs(project) == []
    assert evs_stats([]) is None


def test_evs_stats_median_iqr_outliers() -> None:
    lags = [2.0, 2.5, 3.0, 3.0, 3.5, 4.0, 15.0, -6.0]
    beads = [Bead((i,), (i,)) for i in range(len(lags))]
    project = _project([(10.0 * i, 10.0 * i + 5) for i in range(len(lags))],
                       [(10.0 * i + lag, 10.0 * i + 5 + lag) for i, lag in enumerate(lags)], beads)
    stats = evs_stats(compute_evs(project))
    assert stats is not None
    q1, med, q3 = np.percentile(lags, [25, 50, 75])
    assert (stats.n, stats.median, stats.q1, stats.q3) == (8, pytest.approx(med), pytest.approx(q1), pytest.approx(q3))
    assert stats.iqr == pytest.approx(q3 - q1)
    assert stats.lower_fence == pytest.approx(q1 - 1.5 * (q3 - q1))
    assert stats.outliers == (6, 7)  # the 15 s and −6 s beads
    assert stats.minimum == -6.0 and stats.maximum == 15.0
    end = evs_stats(compute_evs(project), "end")
    assert end is not None and end.median == pytest.approx(med)
    with pytest.raises(ValueError):
        evs_stats([], "middle")


@pytest.mark.parametrize("values,outliers", [
    ([1.0], ()),
    ([1.0, 1.0, 1.0, 1.0], ()),
    ([1.0, 1.0, 1.0, 1.0, 1.1], (4,)),  # zero IQR: anything off the quartiles is outside the fences
    ([0.0, 1.0, 2.0, 3.0, 4.0, 5.0], ()),
])
def test_evs_lag_stats_table(values: list[float], outliers: tuple[int, ...]) -> None:
    stats = lag_stats(values)
    assert stats is not None and stats.outliers == outliers


def test_evs_compare_interpreters_pools_talks() -> None:
    result = compare_interpreters(interpreter_projects())
    assert [r.interpreter for r in result] == ["A", "B", "unknown (t4)"]  # no interpreter id, no path: the talk id
    a, b, unknown = result
    assert a.talks == ["t2"] and a.start is not None and a.start.median == pytest.approx(4.5)
    assert b.talks == ["t1", "t3"] and b.start is not None and b.start.n == 6
    assert b.start.median == pytest.approx(3.0) and b.per_talk_median == [pytest.approx(2.0), pytest.approx(4.0)]
    assert b.end is not None and b.end.median == pytest.approx(4.0)  # end lag = start lag + 1 here
    assert unknown.talks == ["t4"]
