"""Doubt in the app: retrain the bead-quality model as the reviewer works, and filter by it.

:class:`DoubtService` retrains :func:`sialign.workflows.doubt.retrain_doubt`
a moment after every confirm, drop or edit (once for a burst of edits), on a
plain background thread over a snapshot of the project, so the GUI thread
never waits for it; the talk's vectors and cost models are kept between
runs while the segments stay the same, so a retraining costs tens of
milliseconds. It runs beside the worker runner (which allows one task at a
time and locks edits) rather than in it: doubt must never stop the reviewer
from editing. While an alignment runs it waits, since the alignment will
replace the beads anyway.

:class:`DoubtFilterBox` is the filter panel's section for the learned
filter: a doubt threshold, the live count of beads it would drop or
restore, and *Apply* as one undoable step.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from sialign.core.doubt import BeadKey, DoubtScores, count_above
from sialign.core.model import Bead, Document, Project
from sialign.core.plurals import plural
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import TaskWorker

if TYPE_CHECKING:
    from sialign.gui.filters.filter_panel import ThresholdRow
    from sialign.workflows.doubt import DoubtContext

# Retrain this long after the last edit: a burst of edits costs one run.
RETRAIN_DELAY_MS = 300

def _context_key(project: Project) -> tuple[object, ...]:
    """What the talk's vectors and cost models depend on (segments and alignment parameters)."""

    def texts(doc: Document | None) -> tuple[object, ...]:
        return tuple((s.id, s.text, s.start) for s in doc.segments) if doc is not None else ()

    params = tuple(sorted((k, repr(v)) for k, v in (project.params.to_dict() if project.params else {}).items()))
    return (texts(project.source), texts(project.target), texts(project.reference), params)


class DoubtService(QObject):
    """The doubt of every bead of the session's project, kept up to date in the background.

    Signals:
        doubt_changed(): :attr:`by_bead` changed (a retraining finished, or the project was replaced).
        failed(str): a retraining failed (the message says why; the old doubt stays).
    """

    doubt_changed = Signal()
    failed = Signal(str)
    _computed = Signal(object, int)

    def __init__(self, session: ProjectSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.result: DoubtScores | None = None
        self.by_bead: dict[BeadKey, float] = {}
        self.last_error = ""
        self.runs = 0
        self._generation = 0
        self._running = False
        self._pending = False
        self._thread: threading.Thread | None = None
        # Touched by the background thread only (one run at a time).
        self._context: DoubtContext | None = None
        self._context_key: tuple[object, ...] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RETRAIN_DELAY_MS)
        self._timer.timeout.connect(self._start)
        self._computed.connect(self._finished, Qt.ConnectionType.QueuedConnection)
        session.edited.connect(self.schedule)
        session.alignment_replaced.connect(self.schedule)
        session.project_replaced.connect(self._project_replaced)
        self.schedule()

    # -- scheduling ------------------------------------------------------------
    def schedule(self, *_: Any) -> None:
        """Retrain a moment from now (restarts the delay)."""
        self._timer.start()

    @property
    def busy(self) -> bool:
        """A retraining is running or due."""
        return self._running or self._timer.isActive() or self._pending

    def current(self) -> DoubtScores | None:
        """:attr:`result` when it scored exactly the project's current beads, else None."""
        alignment = self.session.project.alignment
        if self.result is not None and alignment is not None and self.result.matches(alignment.beads):
            return self.result
        return None

    def is_current(self) -> bool:
        """Whether :attr:`result` scored exactly the project's current beads."""
        return self.current() is not None

    def _project_replaced(self) -> None:
        self._generation += 1
        self.result = None
        self.by_bead = {}
        self.doubt_changed.emit()
        self.schedule()

    def _start(self) -> None:
        from sialign.gui.common.workers import snapshot

        project = self.session.project
        if project.alignment is None or not project.alignment.beads:
            return
        if self.session.locked_reason:
            # An alignment (or scoring) worker holds the project; its result
            # replaces the beads, which schedules a run anyway.
            self._timer.start()
            return
        if self._running:
            self._pending = True
            return
        self._running = True
        generation = self._generation
        copy = snapshot(project)
        self._thread = threading.Thread(target=self._work, args=(copy, generation), name="doubt", daemon=True)
        self._thread.start()

    def _work(self, project: Project, generation: int) -> None:
        """Runs on the background thread; reports through a queued signal only."""
        from sialign.workflows.doubt import doubt_context, retrain_doubt

        def should_stop() -> bool:
            return generation != self._generation

        try:
            key = _context_key(project)
            if key != self._context_key:
                self._context = doubt_context(project, should_stop=should_stop)
                self._context_key = key
            result: DoubtScores | Exception = retrain_doubt(project, self._context, should_stop=should_stop)
        except Exception as exc:
            result = exc
        try:
            self._computed.emit(result, generation)
        except RuntimeError:
            pass  # the window closed meanwhile: nobody is waiting for the doubt

    def shutdown(self) -> None:
        """Stop retraining (the window closes): a running thread stops at its next check."""
        self._timer.stop()
        self._pending = False
        self._generation += 1

    def _finished(self, result: DoubtScores | Exception, generation: int) -> None:
        self._running = False
        self._thread = None
        if generation == self._generation:
            if isinstance(result, Exception):
                from sialign.core.errors import AlignmentCancelled

                if not isinstance(result, AlignmentCancelled):
                    self.last_error = f"Doubt not computed: {result}"
                    self.failed.emit(self.last_error)
            else:
                self.last_error = ""
                self.result = result
                self.by_bead = result.by_bead()
                self.runs += 1
                self.doubt_changed.emit()
        if self._pending:
            self._pending = False
            self._timer.start()

    def wait(self, timeout_s: float = 10.0) -> None:
        """Block until a running retraining ends (tests; closing)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout_s)


class DoubtFilterBox(QWidget):
    """The learned filter in the filter panel: doubt threshold, live flip count, apply.

    Args:
        session: the open project.
        service: where the doubt comes from.
        run_task: the main window's ``run_task(worker, on_success)``.
        drop_box: the panel's "drop (off: only flag)" check box, shared with α/γ/η.
        threshold_row: a ``ThresholdRow`` for ``doubt_max`` (built by the panel, which owns the sliders).
    """

    flips_changed = Signal(list)

    def __init__(self, session: ProjectSession, service: DoubtService,
                 run_task: Callable[[TaskWorker, Callable[[Any], None]], object], drop_box: QCheckBox,
                 threshold_row: ThresholdRow,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.service = service
        self._run_task = run_task
        self.drop_box = drop_box
        self.threshold = threshold_row
        self.flips: list[int] = []
        self.title = QLabel("<b>Learned filter</b> — doubt: probability a bead is wrong, from a model trained on "
                            "the beads you confirmed, dropped and corrected (it retrains as you review)")
        self.title.setWordWrap(True)
        self.count_label = QLabel("")
        self.count_label.setWordWrap(True)
        self.apply_button = QPushButton("Apply doubt filter")
        self.apply_button.setToolTip("Write each bead's doubt and drop (or flag) the beads above the threshold — one undoable step")
        self.apply_button.clicked.connect(self.apply)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(self.title)
        row = QHBoxLayout()
        row.addWidget(QLabel("Doubt, at most"))
        row.addWidget(self.threshold, 1)
        layout.addLayout(row)
        layout.addWidget(self.count_label)
        buttons = QHBoxLayout()
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.threshold.value_changed.connect(self.update_preview)
        self.drop_box.toggled.connect(self.update_preview)
        service.doubt_changed.connect(self.update_preview)
        service.failed.connect(self.count_label.setText)
        session.edited.connect(lambda _e: self.update_preview())
        session.alignment_replaced.connect(self.update_preview)
        self.update_preview()

    def update_preview(self, *_: Any) -> None:
        from sialign.workflows.doubt import preview_doubt

        alignment = self.session.project.alignment
        result = self.service.current()
        self.flips = []
        if alignment is None or not alignment.beads:
            self.count_label.setText("Align the talk first.")
        elif result is None:
            self.count_label.setText("Computing the doubt of every bead…")
        else:
            threshold = self.threshold.value()
            self.flips = preview_doubt(result, alignment.beads, threshold, self.drop_box.isChecked())
            above = count_above(result, threshold)
            good, wrong = result.counts
            self.count_label.setText(
                f"<b>{len(self.flips)}</b> {plural('bead', len(self.flips))} would change; "
                f"{above} {plural('is', above)} above {threshold:.2f}. "
                f"Trained on {result.source} ({good} good, {wrong} wrong examples)."
            )
        self.apply_button.setEnabled(bool(alignment is not None and alignment.beads))
        self.flips_changed.emit(self.flips)

    def apply(self) -> None:
        from sialign.gui.common.workers import snapshot

        if self.session.project.alignment is None:
            return
        result = self.service.current()
        if result is None:
            self.count_label.setText("The doubt is being recomputed after the last edit; apply again in a moment.")
            self.service.schedule()
            return
        self.session.commit_pending()
        project = snapshot(self.session.project)
        threshold = self.threshold.value()
        drop = self.drop_box.isChecked()

        def task(progress: ProgressFn, should_stop: StopFn) -> list[Bead]:
            from sialign.workflows.filtering import compute_doubt

            return compute_doubt(project, result, threshold, drop=drop)

        self._run_task(TaskWorker(task, "Applying the doubt filter"), lambda beads: self._install(beads, threshold))

    def _install(self, beads: list, threshold: float) -> None:
        from dataclasses import replace

        from sialign.workflows.filtering import DOUBT_LABEL, filters_edit

        project = self.session.project
        alignment = project.alignment
        if alignment is None or len(beads) != len(alignment.beads):
            return
        params = replace(project.filter_params, doubt_max=threshold, drop_failed=self.drop_box.isChecked())
        # The beads and the threshold they were decided with: one undoable step.
        self.session.apply(filters_edit(project, beads, params, DOUBT_LABEL))
