"""Screenshot of *Review → Why this bead?* on the example talk.

Run under a real X server so fonts and styles are the ones users see:

    xvfb-run -a -s "-screen 0 1440x900x24" .venv/bin/python tests/gui/make_explain_screenshot.py

Aligns the bundled example talk with the defaults, explains its 12th bead
(``sialign explain`` computes the same lines) and writes the dialog to
``resources/screenshots/explain_dialog.png``.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "resources" / "screenshots"
sys.path.insert(0, str(REPO / "desktop"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_screenshots import _save, _settle  # noqa: E402

BEAD = 12


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from sialign.align.pipeline import align_project
    from sialign.gui.dialogs.explain_dialog import ExplainDialog
    from sialign.workflows.explaining import explain_beads
    from sialign.workflows.talks import load_example

    app = QApplication.instance() or QApplication(sys.argv)
    project = load_example(REPO / "resources" / "examples")
    project.alignment = align_project(project).alignment
    (explanation,) = explain_beads(project, [BEAD - 1])
    dialog = ExplainDialog(f"Why bead {BEAD}?", explanation.lines(top=10))
    dialog.resize(560, 300)
    dialog.show()
    _settle(app, 600)
    _save(dialog.grab(), OUT, "explain_dialog.png")
    print("\n".join(explanation.lines(top=10)))


if __name__ == "__main__":
    main()
