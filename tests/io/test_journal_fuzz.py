"""A damaged edit journal never stops a project from opening (data safety, round 2, finding 6).

``"version": "x"`` in the journal's first line once raised ValueError and the project would not open until
the journal was deleted by hand; so did a 100,000-deep line (RecursionError), ``"indices": [1e999]``
(OverflowError) and ``"version": {}`` (TypeError). 300 fuzzed journals put through the app's recovery calls
raised 77 uncaught exceptions. Here 10,000 damaged journals go through the same calls: each one either offers
what is whole or nothing, and the project opens.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from tests.io.test_edit_journal import Live, _saved

from sialign.core.edits import SetLabels, SetStatus
from sialign.core.errors import SialignError
from sialign.core.model import BeadStatus
from sialign.io.edit_journal import EditJournal, file_base
from sialign.io.project_file import find_unsaved_work, journal_path, load_project, load_unsaved_work

CASES = 10_000


def _journal(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    path = _saved(tmp_path)
    live = Live(load_project(path), EditJournal(journal_path(path, "rivers"), file_base(path), "rivers"))
    live.do(SetStatus((0,), BeadStatus.CONFIRMED))
    live.do(SetLabels(1, False, True, "a note"))
    live.undo()
    live.do(SetStatus((2,), BeadStatus.DROPPED, "noise"))
    live.journal.close()
    lines = journal_path(path, "rivers").read_text(encoding="utf-8").splitlines()
    return path, journal_path(path, "rivers"), lines


ODD_VALUES: list[object] = ["x", {}, [], None, True, -1, 10**30, 1e308, "1", [1e308], {"a": []}, "\x00", "é" * 3]


def _mutate(rng: random.Random, lines: list[str]) -> str:
    """One damaged journal: a field of a line set to an odd value, bytes flipped, lines cut, repeated or nested deep."""
    rows = list(lines)
    kind = rng.randrange(7)
    k = rng.randrange(len(rows))
    if kind == 0:  # a field of one line set to an odd value
        value = json.loads(rows[k])
        keys = list(value) or ["op"]
        key = rng.choice(keys + ["version", "format", "base", "op", "forward", "inverse", "label"])
        value[key] = rng.choice(ODD_VALUES)
        rows[k] = json.dumps(value)
    elif kind == 1:  # a field deep inside an edit
        value = json.loads(rows[k])
        for side in ("forward", "inverse"):
            if isinstance(value.get(side), dict):
                inner = value[side]
                target = rng.choice(list(inner) or ["indices"])
                inner[target] = rng.choice(ODD_VALUES + [[rng.choice(ODD_VALUES)]])
        rows[k] = json.dumps(value)
    elif kind == 2:  # bytes changed
        row = bytearray(rows[k].encode("utf-8"))
        for _ in range(rng.randrange(1, 4)):
            if row:
                row[rng.randrange(len(row))] = rng.randrange(256)
        rows[k] = row.decode("utf-8", errors="replace")
    elif kind == 3:  # cut short
        rows[k] = rows[k][: rng.randrange(len(rows[k]) + 1)]
    elif kind == 4:  # a line nested deeper than a reader follows
        depth = rng.choice((1_000, 100_000))
        rows.insert(k, "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth)
    elif kind == 5:  # lines repeated, dropped or swapped
        rng.shuffle(rows) if rng.random() < 0.3 else rows.insert(k, rows[rng.randrange(len(rows))])
    else:  # numbers no float holds
        rows[k] = rows[k].replace("0", "1e999", 1) if "0" in rows[k] else rows[k] + "1e999"
    return "\n".join(rows) + ("\n" if rng.random() < 0.9 else "")


@pytest.mark.slow
def test_no_damaged_journal_raises_in_recovery(tmp_path: Path) -> None:
    path, journal, lines = _journal(tmp_path)
    rng = random.Random(46)
    offered = 0
    for _ in range(CASES):
        journal.write_text(_mutate(rng, lines), encoding="utf-8", errors="surrogatepass")
        work = find_unsaved_work(path, "rivers")
        if work is None:
            continue
        try:
            recovered = load_unsaved_work(work, path)
        except SialignError:  # a one-line, named refusal is allowed; a traceback is not
            continue
        offered += 1
        assert recovered.project.alignment is not None and recovered.lines is not None
    assert offered > CASES // 10  # most damage leaves the lines before it to replay
    assert load_project(path).alignment is not None


@pytest.mark.parametrize("header, line", [
    ({"version": "x"}, None), ({"version": {}}, None), ({"version": True}, None),
    (None, {"forward": {"type": "set_status", "indices": [1e999], "status": "confirmed"}}),
])
def test_the_reproducers_open(tmp_path: Path, header: dict[str, object] | None, line: dict[str, object] | None) -> None:
    path, journal, lines = _journal(tmp_path)
    rows = [json.loads(row) for row in lines]
    if header is not None:
        rows[0].update(header)
    if line is not None:
        rows[1]["forward"].update(line["forward"])
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    journal.write_text(text.replace('"indices": [Infinity]', '"indices": [1e999]'), encoding="utf-8")
    work = find_unsaved_work(path, "rivers")
    if work is not None:
        recovered = load_unsaved_work(work, path)
        assert recovered.project.alignment is not None
    journal.write_text(lines[0] + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    find_unsaved_work(path, "rivers")
