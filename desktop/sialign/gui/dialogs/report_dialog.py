"""*File → Export report…*: a preview of the trainee's review report, saved as HTML or PDF.

The report is built from a snapshot of the project in a worker thread
(:func:`sialign.review.report.build_report`), previewed in a
``QTextBrowser`` (charts rendered from their SVG with ``QSvgRenderer``,
since rich text does not draw inline SVG), and written by the same library
functions ``sialign report`` uses — also in a worker: a PDF with an
embedded CJK font takes about a second.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QRectF, QSettings, Qt, QUrl
from PySide6.QtGui import QImage, QPainter, QTextDocument
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from sialign.core.model import Project
from sialign.gui.common.workers import TaskWorker, WorkerRunner, snapshot

PREVIEW_ROWS = 40  # rows of each list and of the bilingual table in the preview; the saved file has all


def svg_image(svg: str, scale: float = 2.0) -> QImage:
    """Render an SVG document to a QImage at ``scale`` × its size (crisp on high-DPI screens)."""
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    image = QImage(int(size.width() * scale), int(size.height() * scale), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    image.setDevicePixelRatio(scale)
    painter = QPainter(image)
    renderer.render(painter, QRectF(0, 0, size.width(), size.height()))
    painter.end()
    return image


class ReportDialog(QDialog):
    """Preview of the report of one project, with *Save HTML…* and *Save PDF…*.

    Args:
        project: the project shown in the main window (a snapshot is taken;
            later edits do not change this report).
        parent: the main window.
        settings: where the last folder is remembered (``QSettings()`` when None).
        terms: a :class:`~sialign.review.terms.TermCheck` of this project: the report gets its terms section.
    """

    def __init__(self, project: Project, parent: QWidget | None = None, *, settings: QSettings | None = None,
                 terms: Any = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Review report — {project.talk_id}")
        self.resize(980, 760)
        self._project = snapshot(project)
        self._source_path = project.path
        self._terms = terms
        self._settings = settings or QSettings()
        self.report: Any = None
        self._saving = ""
        self.runner = WorkerRunner(self)
        # The runner says it is idle only once the thread has ended: enable saving then.
        self.runner.finished.connect(lambda: self._set_busy(False))
        self.preview = QTextBrowser(self)
        self.preview.setOpenLinks(False)
        self.status = QLabel("Preparing the report…", self)
        self.save_html = QPushButton("Save &HTML…", self)
        self.save_pdf = QPushButton("Save &PDF…", self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.save_html, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_pdf, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.save_html.clicked.connect(lambda: self.save("html"))
        self.save_pdf.clicked.connect(lambda: self.save("pdf"))
        layout = QVBoxLayout(self)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self._set_busy(True)
        self._run(self._build, self._show, "Preparing the report")

    # ---- work off the GUI thread ---------------------------------------
    def _run(self, task: Callable[[], Any], on_success: Callable[[Any], None], title: str) -> None:
        """Run ``task`` in a worker; ``on_success`` must be a method of this dialog, so Qt
        queues the call to the GUI thread (a lambda would run in the worker's thread)."""
        worker = TaskWorker(lambda _progress, _stop: task(), title)
        worker.succeeded.connect(on_success)
        worker.failed.connect(self._failed)
        self.runner.start(worker)

    def _build(self) -> tuple[Any, str, list[QImage]]:
        from sialign.review.charts import chart_svg
        from sialign.review.report import build_report, report_html

        report = build_report(self._project, terms=self._terms)
        # Painting on a QImage is safe outside the GUI thread; a chart of thousands of points takes ~0.1 s.
        images = [svg_image(chart_svg(chart)) for chart in report.charts]
        html = report_html(report, chart_markup=lambda i, c: f'<img src="sialign-chart-{i}.png" width="720" height="240">',
                           max_rows=PREVIEW_ROWS)
        # Rich text ignores CSS borders on tables; give them HTML borders.
        html = html.replace("<table", '<table border="1" cellspacing="0" cellpadding="3" width="100%"')
        return report, html, images

    def _show(self, result: tuple[Any, str, list[QImage]]) -> None:
        self.report, html, images = result
        document = self.preview.document()
        for i, image in enumerate(images):
            document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"sialign-chart-{i}.png"), image)
        self.preview.setHtml(html)
        fig = self.report.figures
        omissions = len(fig.omissions)
        self.status.setText(f"{fig.n_beads} beads · coverage {self.report.summary[0].text} · {omissions} "
                            f"omission{'' if omissions == 1 else 's'} · {len(self.report.flagged)} flagged — "
                            "save it as HTML (any browser) or PDF (to print).")

    def _failed(self, message: str, _details: str) -> None:
        self.status.setText(message)

    def _set_busy(self, busy: bool) -> None:
        self.save_html.setEnabled(not busy and self.report is not None)
        self.save_pdf.setEnabled(not busy and self.report is not None)

    # ---- saving -----------------------------------------------------------
    def default_path(self, fmt: str) -> str:
        """Beside the project file (or in the last folder used), named after the talk."""
        if self._source_path:
            base = Path(self._source_path).with_suffix("")
            return f"{base}.report.{fmt}"
        folder = str(self._settings.value("report_dir", str(Path.home())))
        return str(Path(folder) / f"{self._project.talk_id}.report.{fmt}")

    def save(self, fmt: str, path: str | None = None) -> None:
        """Ask for a file (unless ``path`` is given) and write the report there in a worker."""
        if path is None:
            filters = "HTML report (*.html)" if fmt == "html" else "PDF report (*.pdf)"
            path, _ = QFileDialog.getSaveFileName(self, "Save the report", self.default_path(fmt), filters)
            if not path:
                return
        if not path.lower().endswith(f".{fmt}"):
            path += f".{fmt}"
        self._settings.setValue("report_dir", str(Path(path).parent))
        from sialign.review.report import write_report

        project, terms = self._project, self._terms
        self.status.setText(f"Writing {Path(path).name}…")
        self._set_busy(True)
        self.save_html.setEnabled(False)
        self.save_pdf.setEnabled(False)
        self._saving = path
        self._run(lambda: write_report(project, path, terms=terms), self._saved, "Writing the report")

    def _saved(self, _report: Any) -> None:
        self.status.setText(f"Saved the report to {self._saving}")

    def done(self, result: int) -> None:
        """Close only once a running write has finished (it is quick), so no file is left half-written."""
        self.runner.wait(15000)
        super().done(result)
