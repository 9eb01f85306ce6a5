"""The filter panel: thresholds with a live count of the beads that would change.

Scoring a talk (GiNZA for Japanese, the reference translation, chrF) takes
seconds, so it runs once, in the scoring process of
:func:`sialign.workflows.filtering.compute_scores` (a worker thread waits for it and relays its
progress): loading GiNZA holds the interpreter lock for up to a second at a
time, which in the GUI process would freeze the window. The process loads
GiNZA once per session, and starts loading it in the background while
this panel shows an aligned Japanese talk, so the first "Score beads"
rarely waits for it. After
scoring, every threshold change only calls
:func:`sialign.workflows.filtering.preview_filters` on the stored scores (vectorised, well
under a millisecond per change). "Apply" builds the new beads with
:func:`sialign.workflows.filtering.compute_filters` in a worker too and installs them as
one undoable edit (:func:`~sialign.workflows.filtering.filters_edit`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from sialign.core.changes import Changes
from sialign.core.params import EtaMetric, FilterParams
from sialign.core.progress import ProgressFn, StopFn
from sialign.gui.common.error_words import error_text
from sialign.gui.common.session import ProjectSession
from sialign.gui.common.workers import TaskWorker

if TYPE_CHECKING:
    from sialign.gui.filters.doubt import DoubtService


@dataclass(frozen=True)
class Threshold:
    """A numeric field of :class:`FilterParams` shown as slider + spin box."""

    name: str
    label: str
    minimum: float
    maximum: float
    step: float
    tip: str


THRESHOLDS = (
    Threshold("alpha_min", "α — content words covered, at least", 0.0, 1.0, 0.01,
              "Share of the source's content words found in the interpretation"),
    Threshold("gamma_min", "γ — length ratio, at least", 0.0, 2.0, 0.01,
              "Interpretation/reference length; below this the bead is flagged as under-translated"),
    Threshold("gamma_max", "γ — length ratio, at most", 0.5, 10.0, 0.05,
              "Interpretation/reference length; above this the bead is flagged as over-translated"),
    Threshold("eta_min", "η — similarity to the reference, at least", 0.0, 1.0, 0.01,
              "Semantic similarity between the interpretation and the reference translation"),
    Threshold("rendered_min", "Partly rendered — rendered share, at least", 0.0, 1.0, 0.01,
              "Share of the source's content words with a word link; below it the bead is flagged "
              "“partly rendered” (never dropped for it). 0: off. Links are drawn in the background"),
)
DOUBT_THRESHOLD = Threshold("doubt_max", "Doubt, at most", 0.0, 1.0, 0.01,
                            "Beads whose doubt (probability of being wrong) is above this are dropped, or only flagged")
SLIDER_STEPS = 1000
# The preview lists at most this many beads (the count above it covers all).
PREVIEW_ROWS = 500
SKIPPED_STYLE = "color: #b35c00"
# GiNZA starts loading in the scoring process once the panel has been shown
# this long with an aligned Japanese talk: a glance at the panel should not
# cost a CPU core for ten seconds and 1.8 GB.
WARM_UP_DELAY_MS = 2000


class ThresholdRow(QWidget):
    """Slider and spin box bound together.

    Signals:
        value_changed(float)
    """

    value_changed = Signal(float)

    def __init__(self, spec: Threshold, value: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        self.spin = QDoubleSpinBox()
        self.spin.setRange(spec.minimum, spec.maximum)
        self.spin.setSingleStep(spec.step)
        self.spin.setDecimals(2)
        self.spin.setKeyboardTracking(False)
        self.spin.setFixedWidth(self.spin.fontMetrics().horizontalAdvance("00.00") + 40)
        self.setToolTip(spec.tip)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.spin.setValue(value)
        self.slider.setValue(self._to_slider(value))
        self.slider.valueChanged.connect(self._slider_moved)
        self.spin.valueChanged.connect(self._spin_changed)

    def _to_slider(self, value: float) -> int:
        span = self.spec.maximum - self.spec.minimum
        return round((value - self.spec.minimum) / span * SLIDER_STEPS)

    def _slider_moved(self, position: int) -> None:
        span = self.spec.maximum - self.spec.minimum
        value = round((self.spec.minimum + span * position / SLIDER_STEPS) / self.spec.step) * self.spec.step
        if abs(value - self.spin.value()) > 1e-9:
            self.spin.setValue(value)

    def _spin_changed(self, value: float) -> None:
        position = self._to_slider(value)
        if position != self.slider.value():
            self.slider.blockSignals(True)
            self.slider.setValue(position)
            self.slider.blockSignals(False)
        self.value_changed.emit(value)

    def value(self) -> float:
        return self.spin.value()

    def set_value(self, value: float) -> None:
        self.spin.setValue(value)


class FilterPanel(QWidget):
    """Edit the project's filter thresholds; see which beads would flip; apply as one step.

    The panel does not run workers itself: it asks the main window through
    ``run_task(worker, on_success)`` so that one worker runs at a time and
    progress shows in one place.

    Signals:
        flips_changed(list): bead indices whose status the current thresholds would change.
        table_filter_changed(object): the beads the table should show (a list), or None for all.
    """

    flips_changed = Signal(list)
    table_filter_changed = Signal(object)

    def __init__(self, session: ProjectSession, run_task: Callable[[TaskWorker, Callable[[Any], None]], object],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._run_task = run_task
        self.scores: Any = None
        self.flips: list[int] = []
        # Every bead the preview lists (status, flag or trimming changes): what "show only" shows.
        self.changed: list[int] = []

        params = session.project.filter_params
        self.rows: dict[str, ThresholdRow] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.intra = QCheckBox("Trim leading/trailing chunks without a content word (intra)")
        self.drop_contentless = QCheckBox("Drop beads whose interpretation has no content word")
        self.drop_failed = QCheckBox("Drop beads that fail a threshold (off: only flag them)")
        self.eta_metric = QComboBox()
        self.eta_metric.addItems(["auto", "cosine", "chrf"])
        self.eta_metric.setToolTip("auto: embedding cosine when a model scored the talk, else chrF")
        for box in (self.intra, self.drop_contentless, self.drop_failed):
            form.addRow(box)
        for spec in THRESHOLDS:
            row = ThresholdRow(spec, float(getattr(params, spec.name)))
            row.value_changed.connect(self._update_preview)
            self.rows[spec.name] = row
            form.addRow(spec.label, row)
        form.addRow("η metric", self.eta_metric)

        self.score_button = QPushButton("Score beads")
        self.score_button.setToolTip("Measure α, γ and η for every bead (GiNZA for Japanese; takes a few seconds)")
        self.score_button.clicked.connect(self.compute_scores)
        self.apply_button = QPushButton("Apply filters")
        self.apply_button.setToolTip("Trim, flag and drop beads with these thresholds (one undoable step)")
        self.apply_button.clicked.connect(self.apply)
        self.count_label = QLabel("Score the beads to see how many each threshold would change.")
        self.count_label.setWordWrap(True)
        self.skipped_label = QLabel("")
        self.skipped_label.setWordWrap(True)
        self.skipped_label.setStyleSheet(SKIPPED_STYLE)
        self.skipped_label.hide()
        self.preview_list = QListWidget()
        self.preview_list.setToolTip("Each bead the thresholds would change, which filter and why; click one to show it")
        self.preview_list.setMinimumHeight(80)
        self.preview_list.itemActivated.connect(self._preview_item_chosen)
        self.preview_list.itemClicked.connect(self._preview_item_chosen)
        self.show_flips = QCheckBox("Show only these beads in the table")
        self.show_flips.setToolTip("Filter the segment table to the beads listed above: those these thresholds would drop, restore, flag or trim")
        buttons = QHBoxLayout()
        buttons.addWidget(self.score_button)
        buttons.addWidget(self.apply_button)
        buttons.addStretch(1)
        layout = self._column = QVBoxLayout(self)
        # The buttons first: the panel scrolls in a low dock, and Score and Apply must stay in sight.
        layout.addLayout(buttons)
        layout.addWidget(self.skipped_label)
        layout.addLayout(form)
        layout.addWidget(self.count_label)
        layout.addWidget(self.preview_list, 1)
        layout.addWidget(self.show_flips)
        layout.addStretch(0)  # the doubt section goes before this (attach_doubt)

        self.set_params(params)
        for box in (self.intra, self.drop_contentless, self.drop_failed):
            box.toggled.connect(self._update_preview)
        self.eta_metric.currentIndexChanged.connect(self._update_preview)
        self.show_flips.toggled.connect(lambda _on: self._emit_table_filter())
        self.flips_changed.connect(lambda _flips: self._emit_table_filter())
        session.project_replaced.connect(self._project_replaced)
        session.edited.connect(self._edited)
        session.alignment_replaced.connect(self._check_scores)
        self._warm_timer = QTimer(self)
        self._warm_timer.setSingleShot(True)
        self._warm_timer.setInterval(WARM_UP_DELAY_MS)
        self._warm_timer.timeout.connect(self._warm_up_if_japanese)
        session.alignment_replaced.connect(self._warm_timer.start)
        session.project_replaced.connect(self._warm_timer.start)
        self._show_skipped()
        self._check_scores()

    def attach_doubt(self, service: DoubtService) -> None:
        """Add the learned filter's section (:class:`sialign.gui.filters.doubt.DoubtFilterBox`) fed by ``service``."""
        from sialign.gui.filters.doubt import DoubtFilterBox

        row = ThresholdRow(DOUBT_THRESHOLD, float(self.session.project.filter_params.doubt_max))
        self.rows[DOUBT_THRESHOLD.name] = row  # so params() and set_params() carry it
        self.doubt_box = DoubtFilterBox(self.session, service, self._run_task, self.drop_failed, row)
        self._column.insertWidget(self._column.count() - 1, self.doubt_box)

    # -- parameters ------------------------------------------------------------
    def params(self) -> FilterParams:
        base = self.session.project.filter_params
        # The rows are named after FilterParams' threshold fields.
        values: dict[str, Any] = {name: row.value() for name, row in self.rows.items()}
        return replace(
            base,
            intra=self.intra.isChecked(),
            drop_contentless=self.drop_contentless.isChecked(),
            drop_failed=self.drop_failed.isChecked(),
            # One of the combo's words, all EtaMetric's; FilterParams checks it again.
            eta_metric=cast(EtaMetric, self.eta_metric.currentText()),
            **values,
        )

    def set_params(self, params: FilterParams) -> None:
        for name, row in self.rows.items():
            row.set_value(float(getattr(params, name)))
        self.intra.setChecked(params.intra)
        self.drop_contentless.setChecked(params.drop_contentless)
        self.drop_failed.setChecked(params.drop_failed)
        index = self.eta_metric.findText(params.eta_metric)
        self.eta_metric.setCurrentIndex(max(0, index))

    def _edited(self, changes: Changes) -> None:
        if changes.settings:
            # An undo of Apply filters takes its thresholds back too: show the project's.
            self.set_params(self.session.project.filter_params)
        self._check_scores()

    def _project_replaced(self) -> None:
        self.scores = None
        self.set_params(self.session.project.filter_params)
        self._show_skipped()
        self._check_scores()

    def _show_skipped(self) -> None:
        """Disable, with the reason, the filters not built for this talk's target language."""
        from sialign.workflows.filtering import skipped_filters

        project = self.session.project
        # No talk open: nothing is skipped for a language nobody chose yet.
        self.skipped = skipped_filters(project) if len(project.target) else {}
        controls: dict[str, list[QWidget]] = {"intra": [self.intra, self.drop_contentless], "alpha": [self.rows["alpha_min"]]}
        tips = {"intra": "Trim or drop chunks without a content word", "alpha": THRESHOLDS[0].tip}
        for name, widgets in controls.items():
            reason = self.skipped.get(name)
            for widget in widgets:
                widget.setEnabled(reason is None)
                widget.setToolTip(f"Not applied to this talk: {reason}" if reason else tips[name])
        if self.skipped:
            names = {"intra": "intra (content-word trimming)", "alpha": "α (content words)"}
            by_reason: dict[str, list[str]] = {}
            for name, reason in self.skipped.items():
                by_reason.setdefault(reason, []).append(names.get(name, name))
            self.skipped_label.setText(
                "Not applied to this talk: " + "; ".join(f"{', '.join(n)} — {r}" for r, n in by_reason.items())
            )
        self.skipped_label.setVisible(bool(self.skipped))

    def _warm_up_if_japanese(self) -> None:
        """Start loading GiNZA in the scoring process when a Japanese talk can be scored here.

        Only while the panel is shown and the talk is aligned (checked
        :data:`WARM_UP_DELAY_MS` after the panel shows or the alignment
        changes), not whenever a Japanese talk opens: the load takes a CPU
        core for about ten seconds and 1.8 GB, and right after opening the
        aligner wants the CPU. It never touches the GUI thread (starting the
        process takes a few milliseconds); a scoring started meanwhile waits
        for the load.
        """
        if not self.isVisible():
            return
        from sialign.workflows.filtering import warm_up_scoring

        warm_up_scoring(self.session.project)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._warm_timer.start()

    # -- scores and preview ---------------------------------------------------
    def _check_scores(self) -> None:
        alignment = self.session.project.alignment
        has_beads = alignment is not None and len(alignment.beads) > 0
        if self.scores is not None and (alignment is None or not has_beads or not self.scores.matches(alignment.beads)):
            self.scores = None
        if self.scores is not None and alignment is not None:
            self.scores = self.scores.with_statuses(alignment.beads)
        self.score_button.setEnabled(has_beads)
        self.apply_button.setEnabled(has_beads)
        self._update_preview()

    def compute_scores(self) -> None:
        from sialign.gui.common.workers import snapshot

        self.session.commit_pending()
        project = snapshot(self.session.project)
        content_pos = self.session.project.filter_params.content_pos  # not set in the panel

        def task(progress: ProgressFn, should_stop: StopFn) -> Any:
            from sialign.workflows.filtering import compute_scores

            return compute_scores(project, content_pos, progress=progress, should_stop=should_stop)

        self._run_task(TaskWorker(task, "Scoring beads"), self._scores_ready)

    def _scores_ready(self, scores: Any) -> None:
        alignment = self.session.project.alignment
        self.scores = scores if alignment is not None and scores.matches(alignment.beads) else None
        self._update_preview()
        self.reveal_result()

    def reveal_result(self) -> None:
        """Scroll the panel (in its dock) to the count and the first listed beads: on a laptop they sit below the fold."""
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is None:
            return
        self._column.activate()  # the count's new text wraps onto more lines: place it before scrolling to it
        content = parent.widget()
        top = self.count_label.mapTo(content, QPoint(0, 0)).y() if content is not None else 0
        bar = parent.verticalScrollBar()
        # The count at the top of the view, the beads it lists below it (never scrolled past what was in view).
        if top < bar.value() or top + self.count_label.height() + 60 > bar.value() + parent.viewport().height():
            bar.setValue(max(0, top - 8))

    def params_problem(self) -> str:
        """Why the thresholds as set cannot be applied (γ at least above γ at most), worded with the panel's
        labels; "" when they can."""
        from sialign.core.errors import ParamsError

        try:
            self.params()
        except ParamsError as exc:
            labels = {t.name: t.label for t in (*THRESHOLDS, DOUBT_THRESHOLD)}
            name = labels.get(exc.field, exc.field)
            if exc.other:
                return f"“{name}” is above “{labels.get(exc.other, exc.other)}”: lower the one or raise the other."
            return f"“{name}” {exc.problem}."
        return ""

    def _update_preview(self, *_: Any) -> None:
        self.preview_list.clear()
        self.changed = []
        alignment = self.session.project.alignment
        problem = self.params_problem()
        self.apply_button.setEnabled(bool(alignment is not None and alignment.beads) and not problem)
        if problem:
            self.flips = []
            self.count_label.setText(problem)
            self.flips_changed.emit(self.flips)
            return
        if self.scores is None:
            self.flips = []
            if self.session.project.alignment is None:
                self.count_label.setText("Align the talk first.")
            else:
                self.count_label.setText("Score the beads to see how many each threshold would change.")
            self.flips_changed.emit(self.flips)
            return
        from sialign.workflows.filtering import preview_filters

        project = self.session.project
        beads = project.alignment.beads if project.alignment else []
        try:
            preview = preview_filters(project, self.scores, self.params())
        except ValueError as exc:
            self.flips = []
            self.count_label.setText(error_text(exc))
            self.flips_changed.emit(self.flips)
            return
        from sialign.core.model import BeadStatus

        self.flips, changes, counts = preview.flips, preview.changes, preview.counts
        dropping = sum(1 for i in self.flips if i < len(beads) and beads[i].status is not BeadStatus.DROPPED)
        restoring = len(self.flips) - dropping
        self.changed = preview.changed
        n = len(self.changed)
        text = (
            f"<b>{n}</b> bead{'s' if n != 1 else ''} would change: {dropping} dropped, {restoring} restored; "
            f"{counts['flag']} flagged but kept, {counts['trim']} only trimmed."
        )
        self.count_label.setText(text)
        for change in changes[:PREVIEW_ROWS]:
            item = QListWidgetItem(change.text())
            item.setData(Qt.ItemDataRole.UserRole, change.index)
            item.setToolTip(change.text())
            self.preview_list.addItem(item)
        if len(changes) > PREVIEW_ROWS:
            self.preview_list.addItem(f"… and {len(changes) - PREVIEW_ROWS} more beads")
        self.flips_changed.emit(self.flips)

    def _preview_item_chosen(self, item: QListWidgetItem) -> None:
        index = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(index, int):
            self.session.select_bead(index)

    def _emit_table_filter(self) -> None:
        # Without scores there is nothing to show; the table goes back to every bead.
        active = self.show_flips.isChecked() and self.scores is not None
        self.table_filter_changed.emit(list(self.changed) if active else None)

    # -- apply -----------------------------------------------------------------
    def apply(self) -> None:
        from sialign.gui.common.workers import snapshot

        if self.session.project.alignment is None or self.params_problem():
            return
        self.session.commit_pending()
        project = snapshot(self.session.project)
        params = self.params()
        scores = self.scores

        def task(progress: ProgressFn, should_stop: StopFn) -> Any:
            from sialign.workflows.filtering import compute_filters

            # Scoring (GiNZA) goes to the scoring process when the scores are stale; deciding stays here.
            return compute_filters(project, params, scores, progress=progress, should_stop=should_stop)

        self._run_task(TaskWorker(task, "Applying filters"), lambda result: self._install(result[0], result[1], params))

    def _install(self, beads: list, scores: Any, params: FilterParams) -> None:
        from sialign.workflows.filtering import filters_edit

        alignment = self.session.project.alignment
        if alignment is None or len(beads) != len(alignment.beads):
            return
        # Kept before the edit, whose signal refreshes the preview with them:
        # applying changes statuses and trims, never which segments a bead holds.
        self.scores = scores if scores.matches(alignment.beads) else None
        # The beads and the thresholds they were decided with: one undoable step.
        self.session.apply(filters_edit(self.session.project, beads, params))
