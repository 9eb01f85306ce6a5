"""Screenshots of the trainer's views on the example talk's two renditions.

Run under a real X server so fonts and styles are the ones users see:

    xvfb-run -a -s "-screen 0 1440x900x24" .venv/bin/python tests/gui/make_review_screenshots.py

Aligns the example talk and its second rendition (``resources/examples/rendition2``)
with the default embedder, applies the intra and inter filters (GiNZA), marks a
few beads as a reviewer would, and writes to ``resources/screenshots/``:
``report_pdf_page1.png`` and ``report_pdf_page2.png`` (the first two pages
of the PDF report — summary and charts; lists and the bilingual table —
rendered with poppler's ``pdftoppm``), ``report_preview.png`` (*File → Export report…*) and
``compare_window.png`` (*File → Compare renditions…*, the first disagreement
selected). Settings, projects and reports go to a temporary folder.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "resources" / "screenshots"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_screenshots import _save, _settle, _wait  # noqa: E402


def aligned_renditions(folder: Path) -> list[Path]:
    """Align, filter and review both renditions; save them as projects in ``folder``."""
    from sialign.core.model import BeadStatus
    from sialign.core.params import AlignParams
    from sialign.io.project_file import save_project
    from sialign.io.readers import read_transcript
    from sialign.workflows.aligning import align_talk
    from sialign.workflows.talks import load_example

    examples = REPO / "resources" / "examples"
    paths = []
    for which in (1, 2):
        project = load_example(examples)
        if which == 2:
            project.target = read_transcript(examples / "rendition2" / "talk.ja2.srt")
            project.target.audio_path = str(examples / "rendition2" / "talk.ja2.ogg")
        align_talk(project, AlignParams(pivot=True, time_prior=True), filters=("intra", "inter"))
        project.metadata.update({"interpreter": ["trainee A", "trainee B"][which - 1], "rank": str(which + 1)})
        beads = project.alignment.beads
        for bead in beads[:6]:
            if bead.status is BeadStatus.AUTO and bead.src and bead.tgt:
                bead.status = BeadStatus.CONFIRMED
        beads[3].note = "clean chunking; good anticipation"
        path = folder / f"rendition{which}.sialign"
        save_project(project, path)
        paths.append(path)
    return paths


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="sialign-review-shots-"))
    os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")
    os.environ.setdefault("SIALIGN_CACHE_DIR", str(tmp / "cache"))
    from sialign.gui.app import make_application

    app = make_application(sys.argv[:1])
    from sialign.gui.dialogs.report_dialog import ReportDialog
    from sialign.gui.windows.compare_window import FIXED_COLUMNS, CompareWindow
    from sialign.io.project_file import load_project
    from sialign.review.report import write_report

    first, second = aligned_renditions(tmp)
    project = load_project(first)
    pdf = tmp / "report.pdf"
    write_report(project, pdf)
    if shutil.which("pdftoppm"):
        for page in (1, 2):
            subprocess.run(["pdftoppm", "-r", "80", "-f", str(page), "-l", str(page), "-png", "-singlefile", str(pdf),
                            str(OUT / f"report_pdf_page{page}")], check=True)
            print(OUT / f"report_pdf_page{page}.png")
    else:
        print("pdftoppm (poppler-utils) is not installed: no PNG of the PDF page", file=sys.stderr)

    dialog = ReportDialog(project)
    dialog.show()
    _wait(app, dialog.runner)
    _settle(app)
    dialog.preview.verticalScrollBar().setValue(520)
    _settle(app)
    _save(dialog.grab(), OUT, "report_preview.png")

    window = CompareWindow([project], [str(first)])
    window.resize(1300, 820)
    window.show()
    window.add_paths([str(second)])
    _wait(app, window.runner)
    _settle(app, 600)
    window.next_disagreement()
    if window.table.currentIndex().isValid():
        window.table.setCurrentIndex(window.model.index(window.table.currentIndex().row(), FIXED_COLUMNS))
    _settle(app)
    _save(window.grab(), OUT, "compare_window.png")
    print(f"projects and the PDF are in {tmp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
