"""Drives the real app in its own process for the crash-recovery test (tests/gui/test_edit_journal_crash.py).

    python journal_driver.py edit PROJECT STATUS [--untitled] [--autosave-after N]
    python journal_driver.py recover PROJECT STATUS [--untitled] [--save]

``edit`` opens PROJECT in the main window (``--untitled``: as a talk never
saved, autosaved once first) and applies :data:`EDITS` one by one through
the session, as the views do; after each it appends a JSON line to STATUS
(the edit's number and a fingerprint of the project). Then it idles until
the test kills it. ``recover`` starts the app as after a crash, answers Yes
to the recovery question and writes the fingerprint of what came back
(``--save``: then saves, and says which autosave and journal files are left).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from sialign.core.edits import SetLabels, SetPostEdit, SetStatus
from sialign.core.model import BeadStatus, Project

# (kind, argument): an edit applied through ProjectSession.apply, or "undo".
EDITS: list[tuple[str, object]] = [
    ("apply", SetStatus((6,), BeadStatus.CONFIRMED)),
    ("apply", SetLabels(7, True, None, "check the figure")),
    ("apply", SetStatus((9,), BeadStatus.DROPPED, "noise")),
    ("undo", None),
    ("apply", SetPostEdit(10, "post-edited rendering")),
    ("apply", SetStatus((11, 12), BeadStatus.CONFIRMED)),
]


def fingerprint(project: Project) -> str:
    data = project.to_dict()
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=True).encode("ascii")).hexdigest()


def write_status(path: Path, record: dict[str, object]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


def main(argv: list[str]) -> int:
    from sialign.gui.app import make_application
    from sialign.gui.main.main_window import MainWindow
    from sialign.io.project_file import autosave_path, load_project

    mode, project_file, status = argv[0], Path(argv[1]), Path(argv[2])
    untitled = "--untitled" in argv
    autosave_after = int(argv[argv.index("--autosave-after") + 1]) if "--autosave-after" in argv else -1
    app = make_application(["journal-driver"])
    QMessageBox.question = lambda *a, **k: QMessageBox.StandardButton.Yes  # type: ignore[method-assign,assignment]
    QMessageBox.warning = lambda parent, title, text, *a: write_status(status, {"warning": f"{title}: {text}"})  # type: ignore[method-assign,assignment]
    window = MainWindow()
    window.show()
    session, files = window.session, window.files

    if mode == "recover":
        recovered = files.offer_untitled_recovery() if untitled else files.open_path(str(project_file), ask_save=False)
        stack = session.undo_stack
        record: dict[str, object] = {
            "recovered": bool(recovered), "fingerprint": fingerprint(session.project),
            "undo": [stack.text(i) for i in range(stack.index())], "modified": session.is_modified,
        }
        if "--save" in argv:
            target = project_file if not untitled else project_file.with_name("saved.sialign")
            record["saved"] = files.save_to(str(target))
            project = session.project
            autosave = autosave_path(project.path, project.talk_id)
            journal = autosave.with_name(autosave.name.removesuffix(".autosave") + ".journal")
            record["left"] = [str(p) for p in (autosave, journal) if p.exists()]
        write_status(status, record)
        getattr(files, "close_journal", lambda: None)()
        os._exit(0)  # as abrupt as the crash: no closing dialogs, no background thread to wait for

    if untitled:
        project = load_project(project_file)
        project.path = None
        session.set_project(project, modified=True)
        files.autosave()
        files.wait_for_autosave()
        app.processEvents()
    else:
        files.open_path(str(project_file), ask_save=False)
    step = 0

    def next_edit() -> None:
        nonlocal step
        if step == autosave_after:
            files.autosave()
            files.wait_for_autosave()
            app.processEvents()  # the journal starts over at the autosave (a queued signal)
            write_status(status, {"autosaved": True})
        if step >= len(EDITS):
            write_status(status, {"done": True, "time": time.time()})
            return
        kind, edit = EDITS[step]
        if kind == "undo":
            session.undo_stack.undo()
        else:
            assert session.apply(edit), f"edit {step + 1} refused"
        step += 1
        stack = session.undo_stack
        write_status(status, {"edit": step, "time": time.time(), "fingerprint": fingerprint(session.project),
                              "undo": [stack.text(i) for i in range(stack.index())]})
        QTimer.singleShot(150, next_edit)

    QTimer.singleShot(0, next_edit)
    return int(app.exec())  # until the test kills this process


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
