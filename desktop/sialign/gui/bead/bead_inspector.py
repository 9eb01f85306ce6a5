"""The selected bead up close: its segments, where to cut them, its labels and post-edit.

Each side of the bead is shown in a read-only text box, one paragraph per
segment (tab "Segments"; tab "Word links" shows the same bead as words
with their links, :mod:`sialign.gui.bead.word_links_view`); the text cursor there is the edit point: "split at cursor" cuts the
segment under it at the cursor's character position, "merge with next",
"move to the previous bead" and so on act on the segment under it. Labels
(good alignment / good MT, note) and the post-edited target are applied as
edits through the session, so they undo like everything else.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QFocusEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from sialign.core.edit_base import Edit
from sialign.core.model import Bead, Document, Project, bead_text, target_role
from sialign.core.word_links import link_texts, links_of
from sialign.gui.bead.word_links_view import (
    PARAPHRASE_COLOUR,
    UNRENDERED_COLOUR,
    WordLinksView,
    links_help,
    rendered_share_text,
)
from sialign.gui.common.session import ProjectSession

# Qt shows a paragraph break for "\n"; inside one segment a line break is a
# line separator, so one segment stays one paragraph (one block) and cursor
# positions still count the same characters.
LINE_SEPARATOR = "\u2028"
TRIMMED_COLOUR = QColor(150, 150, 150)


def utf16_to_index(text: str, utf16_pos: int) -> int:
    """Python string index of a Qt (UTF-16 code unit) position in ``text``.

    They differ after characters outside the Basic Multilingual Plane (rare
    kanji, emoji), which take two UTF-16 units but one Python character.
    """
    encoded = text.encode("utf-16-le")[: 2 * utf16_pos]
    return len(encoded.decode("utf-16-le", errors="ignore"))


@dataclass(frozen=True)
class SegmentCursor:
    """Where the edit point is: a side, a segment and a character offset in it."""

    side: str
    seg_id: int
    offset: int


class SegmentTextView(QPlainTextEdit):
    """Read-only text of one side of a bead; tells which segment the cursor is in.

    Signals:
        focused(str): the view got the keyboard focus (its side).
    """

    focused = Signal(str)

    def __init__(self, side: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.side = side
        self.setReadOnly(True)
        # Keep a visible, keyboard-movable caret although the text is read-only.
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._seg_ids: list[int] = []
        self._texts: list[str] = []

    def show_segments(self, doc: Document, ids: tuple[int, ...], trimmed: tuple[int, ...] = ()) -> None:
        """One paragraph per segment; trimmed segments greyed out."""
        self._seg_ids = list(ids)
        self._texts = [doc.get(i).text for i in ids]
        self.clear()
        cursor = QTextCursor(self.document())
        plain = QTextCharFormat()
        grey = QTextCharFormat()
        grey.setForeground(TRIMMED_COLOUR)
        grey.setFontItalic(True)
        for k, (seg_id, text) in enumerate(zip(self._seg_ids, self._texts)):
            if k:
                cursor.insertBlock()
            cursor.insertText(text.replace("\r\n", LINE_SEPARATOR).replace("\n", LINE_SEPARATOR).replace("\r", LINE_SEPARATOR), grey if seg_id in trimmed else plain)
        self.moveCursor(QTextCursor.MoveOperation.Start)
        tips = []
        for seg_id in self._seg_ids:
            seg = doc.get(seg_id)
            where = f"segment {doc.index_of(seg_id) + 1}"
            if seg.line is not None:
                where += f", line {seg.line}"
            if seg.has_time:
                where += f", {seg.start:.2f}–{seg.end:.2f} s"
            if seg_id in trimmed:
                where += " (trimmed by the intra filter)"
            tips.append(where)
        self.setToolTip("\n".join(tips))

    def cursor_position(self) -> SegmentCursor | None:
        """The segment under the caret and the caret's character offset in it."""
        if not self._seg_ids:
            return None
        cursor = self.textCursor()
        block = cursor.blockNumber()
        if not 0 <= block < len(self._seg_ids):
            return None
        offset = utf16_to_index(self._texts[block], cursor.positionInBlock())
        return SegmentCursor(self.side, self._seg_ids[block], offset)

    def place_cursor(self, seg_index: int, offset: int) -> None:
        """Put the caret in segment ``seg_index`` (position in the bead) at Python offset ``offset``."""
        block = self.document().findBlockByNumber(seg_index)
        text = self._texts[seg_index]
        utf16 = len(text[:offset].encode("utf-16-le")) // 2
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + utf16)
        self.setTextCursor(cursor)

    def sizeHint(self) -> QSize:
        # Two lines: QPlainTextEdit asks for ~12, and the bead panel's scroll area
        # sizes the panel by its preferred height; on a laptop screen the review
        # rows below must fit too. Room left over still goes to the text.
        return QSize(super().sizeHint().width(), max(self.minimumHeight(), self.fontMetrics().lineSpacing() * 2 + 10))

    def minimumSizeHint(self) -> QSize:
        # Qt's own (about 70 px) would override the two-line preferred height above.
        return QSize(super().minimumSizeHint().width(), self.minimumHeight())

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focused.emit(self.side)


class BeadInspector(QWidget):
    """Shows the session's selected bead and edits it through the session."""

    def __init__(self, session: ProjectSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._index = -1
        self._last_side = "tgt"
        self._applying = ""  # the field whose edit is being applied ("labels", "post_edit")

        self.title = QLabel("No bead selected")
        self.title.setWordWrap(True)
        self.source_view = SegmentTextView("src")
        self.target_view = SegmentTextView("tgt")
        for view in (self.source_view, self.target_view):
            view.focused.connect(self._remember_side)
            view.setMinimumHeight(40)  # two lines: on a laptop screen the review rows below must fit too

        source_box = QGroupBox("Source segments")
        source_layout = QVBoxLayout(source_box)
        source_layout.addWidget(self.source_view)
        target_box = self.target_box = QGroupBox("Target segments (interpretation)")
        target_layout = QVBoxLayout(target_box)
        target_layout.addWidget(self.target_view)
        for box_layout in (source_layout, target_layout):
            box_layout.setContentsMargins(4, 2, 4, 4)
        # One "Restore" button per chunk the intra filter trimmed (rebuilt with each bead).
        self.restore_row = QHBoxLayout()
        self.restore_buttons: list[QPushButton] = []
        target_layout.addLayout(self.restore_row)
        texts = QSplitter(Qt.Orientation.Horizontal)
        texts.addWidget(source_box)
        texts.addWidget(target_box)
        texts.setChildrenCollapsible(False)
        # The same bead as words with their links (sialign.core.word_links), in a tab beside the segments.
        self.links_view = WordLinksView()
        self._links_message = ""
        links_scroll = QScrollArea()
        links_scroll.setWidgetResizable(True)
        links_scroll.setWidget(self.links_view)
        # Two lines of words above the legend: the tab is no taller than the Segments tab (a laptop screen).
        links_scroll.setMinimumHeight(40)
        # Its size hint (the words' height) must not make the bead panel taller than the Segments tab does.
        links_scroll.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        # Below the words (never over them): what the shading means, the share in words, and the help.
        swatch = '<span style="background:{};">&nbsp;{}&nbsp;</span>'
        self.links_legend = QLabel(
            swatch.format(PARAPHRASE_COLOUR.name(), "rendered by paraphrase") + " "
            + swatch.format(UNRENDERED_COLOUR.name(), "not found")
        )
        self.links_share = QLabel("")
        # One line, cut at the right in a narrow panel rather than widening it (the tooltip holds it whole).
        self.links_share.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.links_help = QToolButton()
        self.links_help.setText("?")
        self.links_help.setToolTip(links_help())
        self.links_help.setAccessibleName("Help on word links")
        self.links_help.clicked.connect(
            lambda: QToolTip.showText(self.links_help.mapToGlobal(self.links_help.rect().bottomLeft()),
                                      self.links_help.toolTip(), self.links_help)
        )
        legend_row = QHBoxLayout()
        legend_row.setContentsMargins(4, 0, 4, 0)
        legend_row.addWidget(self.links_legend)
        legend_row.addWidget(self.links_share, 1)
        legend_row.addWidget(self.links_help)
        links_page = QWidget()
        links_layout = QVBoxLayout(links_page)
        links_layout.setContentsMargins(0, 0, 0, 0)
        links_layout.setSpacing(2)
        links_layout.addWidget(links_scroll, 1)
        links_layout.addLayout(legend_row)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(texts, "Segments")
        self.tabs.addTab(links_page, "Word links")
        self.tabs.setTabToolTip(1, "Which words of the interpretation render which words of the source")

        # Buttons carry the main window's actions (set by attach_actions), so
        # their shortcuts, undo text and enabled state stay in one place.
        self.button_row = QHBoxLayout()
        self.button_row.setSpacing(4)
        self.status_buttons = QHBoxLayout()
        self.status_buttons.setSpacing(4)

        self.good_align = QCheckBox("Good alignment")
        self.good_align.setTristate(True)
        self.good_mt = QCheckBox("Good translation")
        self.good_mt.setTristate(True)
        self.note = QLineEdit()
        self.note.setPlaceholderText("Note for this bead")
        self.post_edit = QLineEdit()
        self.post_edit.setPlaceholderText("Corrected target text (the original stays in the transcript)")
        self.post_edit.setToolTip(
            "Starts as the interpretation; it becomes the bead's post-edit only when you change it and apply"
        )
        # The interpretation shown in the post-edit field of a bead without a post-edit.
        self._prefill = ""
        # A tick is applied at once (one undoable step); a note or a post-edit
        # when Enter is pressed, the field loses the focus, or the session asks
        # for pending input (selection moves, another edit, save, close).
        self.good_align.clicked.connect(self.apply_labels)
        self.good_mt.clicked.connect(self.apply_labels)
        apply_labels = QPushButton("Apply labels")
        apply_labels.setToolTip("Ticks apply at once; a note applies with Enter or when you move to another bead")
        apply_labels.clicked.connect(self.apply_labels)
        self.note.editingFinished.connect(self.apply_labels)
        # Typing marks the window modified at once (the text is applied on Enter or when leaving the bead).
        self.note.textEdited.connect(self._typed)
        self.post_edit.textEdited.connect(self._typed)
        apply_post_edit = QPushButton("Apply post-edit")
        apply_post_edit.clicked.connect(self.apply_post_edit)
        self.post_edit.editingFinished.connect(self.apply_post_edit)
        clear_post_edit = QPushButton("Clear")
        clear_post_edit.setToolTip("Remove the post-edit and use the interpreter's text again")
        clear_post_edit.clicked.connect(self.clear_post_edit)

        labels_row = QHBoxLayout()
        labels_row.addLayout(self.status_buttons)
        labels_row.addWidget(self.good_align)
        labels_row.addWidget(self.good_mt)
        labels_row.addWidget(self.note, 1)
        labels_row.addWidget(apply_labels)
        post_row = QHBoxLayout()
        post_row.addWidget(self.post_edit, 1)
        post_row.addWidget(apply_post_edit)
        post_row.addWidget(clear_post_edit)
        form = QFormLayout()
        form.setVerticalSpacing(3)
        form.addRow("Segments", self.button_row)
        form.addRow("Review", labels_row)
        form.addRow("Post-edit", post_row)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(form)

        self._buttons = (apply_labels, apply_post_edit, clear_post_edit)
        session.add_pending_committer(self.commit_pending)
        session.selection_changed.connect(self.show_bead)
        session.edited.connect(lambda _edit: self.show_bead(session.selected_bead))
        session.alignment_replaced.connect(lambda: self.show_bead(session.selected_bead))
        session.project_replaced.connect(self._forget_bead)
        self.show_bead(session.selected_bead)

    def attach_actions(self, segment_actions: list, bead_actions: list) -> None:  # lists of QAction | None
        """Tool buttons for the segment edits (first row) and the bead's status (before the labels).

        A button shows its action's ``iconText`` (short), the tooltip its full text and shortcut.
        """
        from PySide6.QtWidgets import QToolButton

        for row, actions in ((self.button_row, segment_actions), (self.status_buttons, bead_actions)):
            for action in actions:
                if action is None:
                    row.addSpacing(10)
                    continue
                button = QToolButton()
                button.setDefaultAction(action)
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
                row.addWidget(button)
        self.button_row.addStretch(1)
        self.status_buttons.addSpacing(10)

    # -- display --------------------------------------------------------------
    @property
    def project(self) -> Project:
        return self.session.project

    def _bead(self) -> Bead | None:
        alignment = self.project.alignment
        if alignment is None or not 0 <= self._index < len(alignment.beads):
            return None
        return alignment.beads[self._index]

    def _forget_bead(self) -> None:
        # Another project: what the fields hold belongs to the old one (the
        # window applied it before asking to save), never to this one's beads.
        self._index = -1
        self.show_bead(-1)

    def _show_role(self, role: str) -> None:
        """Call the target ``role`` everywhere the inspector names it (a written translation is no interpretation)."""
        self.target_box.setTitle(f"Target segments ({role})")
        self.tabs.setTabToolTip(1, f"Which words of the {role} render which words of the source")
        self.post_edit.setToolTip(f"Starts as the {role}; it becomes the bead's post-edit only when you change it and apply")
        self.links_help.setToolTip(links_help(role))
        self.links_view.set_role(role)

    def show_bead(self, index: int) -> None:
        self._index = index
        self._show_role(target_role(self.project))
        bead = self._bead()
        enabled = bead is not None
        for w in (self.good_align, self.good_mt, self.note, self.post_edit, *self._buttons):
            w.setEnabled(enabled)
        if bead is None:
            self.title.setText("No bead selected — click a row of the table or a cell of the matrix.")
            self.source_view.show_segments(self.project.source, ())
            self.target_view.show_segments(self.project.target, ())
            self._show_restore_buttons(None)
            self.note.clear()
            self.post_edit.clear()
            self.session.set_pending_input(False)
            self.show_links()
            return
        cost = "—" if bead.cost is None else f"{bead.cost:.3f}"
        text = f"<b>Bead {index + 1}</b> ({bead.kind}) · {bead.status.value} · cost {cost}"
        if bead.confidence is not None:
            text += f" · confidence {bead.confidence:.2f}"
        if bead.reason:
            text += f" · {bead.reason}"
        for flag in bead.failed_flags:
            text += f" · <span style='color:#b35c00'>{flag.name}: {flag.reason or 'failed'}</span>"
        self.title.setText(text)
        self.source_view.show_segments(self.project.source, bead.src)
        self.target_view.show_segments(self.project.target, bead.tgt, bead.trimmed)
        self._show_restore_buttons(bead)
        self.good_align.setCheckState(_check_state(bead.good_align))
        self.good_mt.setCheckState(_check_state(bead.good_mt))
        self.note.setText(bead.note)
        # A bead without a post-edit starts from the interpretation (what a
        # post-editor corrects); it is saved only once changed.
        self._prefill = bead_text(bead, self.project.target, "tgt", use_post_edit=False) if bead.post_edit is None else ""
        self.post_edit.setText(bead.post_edit if bead.post_edit is not None else self._prefill)
        self._typed()
        self.show_links()

    def has_pending_input(self) -> bool:
        """Whether the note or the post-edit field holds text the shown bead does not have yet."""
        bead = self._bead()
        if bead is None:
            return False
        if self.note.text() != bead.note:
            return True
        text = self.post_edit.text().strip()
        if bead.post_edit is None and text == self._prefill.strip():
            return False
        return (text or None) != bead.post_edit

    def _typed(self, _text: str = "") -> None:
        self.session.set_pending_input(self.has_pending_input())

    def set_links_message(self, message: str) -> None:
        """What the word-links tab says while a bead has no links (drawing them, or why not)."""
        self._links_message = message
        self.show_links()

    def show_links(self) -> None:
        """Show the selected bead's stored word links (call again when new links are stored)."""
        bead = self._bead()
        links = None
        if bead is None:
            self.links_view.set_links(None, message="No bead selected.")
        elif not bead.src or not bead.tgt:
            self.links_view.set_links(None, message="A bead with one side empty has no word links.")
        elif (links := links_of(self.project, bead)) is None:
            self.links_view.set_links(None, message=self._links_message or "The word links of this bead are being drawn…")
        else:
            src, tgt = link_texts(self.project, bead)
            self.links_view.set_links(links, src, tgt)
        self.links_share.setText(rendered_share_text(links))
        self.links_share.setToolTip(self.links_share.text())

    def _show_restore_buttons(self, bead: Bead | None) -> None:
        for button in self.restore_buttons:
            self.restore_row.removeWidget(button)
            button.deleteLater()
        self.restore_buttons = []
        for seg_id in bead.trimmed if bead is not None else ():
            text = " ".join(self.project.target.get(seg_id).text.split())
            button = QPushButton(f"Restore “{text[:20]}”")
            button.setToolTip(f"Put the trimmed chunk “{text}” back into the bead's text; filtering again keeps it")
            button.clicked.connect(lambda _checked=False, i=seg_id: self.restore_chunk(i))
            self.restore_row.addWidget(button)
            self.restore_buttons.append(button)

    def restore_chunk(self, seg_id: int) -> None:
        """Restore one trimmed chunk of the shown bead (one undoable edit)."""
        from sialign.core.edits import RestoreTrimmedChunk

        bead = self._bead()
        if bead is not None and seg_id in bead.trimmed:
            self.session.apply(RestoreTrimmedChunk(self._index, seg_id))

    def _remember_side(self, side: str) -> None:
        self._last_side = side

    # -- edit points -------------------------------------------------------
    def current_segment(self) -> SegmentCursor | None:
        """The segment under the caret of the side last focused (target by default)."""
        view = self.source_view if self._last_side == "src" else self.target_view
        found = view.cursor_position()
        if found is None:
            other = self.target_view if view is self.source_view else self.source_view
            found = other.cursor_position()
        return found

    def view_for(self, side: str) -> SegmentTextView:
        return self.source_view if side == "src" else self.target_view

    def focus_side(self, side: str) -> None:
        self._last_side = side
        self.view_for(side).setFocus()

    # -- label / post-edit edits ---------------------------------------------
    def commit_pending(self) -> None:
        """Apply what the fields hold for the shown bead, when it differs from the bead (the session calls this)."""
        if self._bead() is None:
            return
        # The field whose own edit is being applied is already in that edit.
        if self._applying != "labels":
            self.apply_labels()
        if self._applying != "post_edit":
            self.apply_post_edit()

    def apply_labels(self) -> None:
        from sialign.core.edits import SetLabels

        bead = self._bead()
        if bead is None:
            return
        good_align = _from_check_state(self.good_align.checkState())
        good_mt = _from_check_state(self.good_mt.checkState())
        note = self.note.text()
        if (good_align, good_mt, note) != (bead.good_align, bead.good_mt, bead.note):
            self._apply("labels", SetLabels(self._index, good_align, good_mt, note))

    def apply_post_edit(self) -> None:
        from sialign.core.edits import SetPostEdit

        bead = self._bead()
        if bead is None:
            return
        text = self.post_edit.text().strip()
        new = text or None
        if bead.post_edit is None and text == self._prefill.strip():
            return  # the interpretation, unchanged: not a post-edit
        if new != bead.post_edit:
            self._apply("post_edit", SetPostEdit(self._index, new))

    def _apply(self, field: str, edit: Edit) -> None:
        self._applying = field
        try:
            self.session.apply(edit)
        finally:
            self._applying = ""

    def clear_post_edit(self) -> None:
        from sialign.core.edits import SetPostEdit

        bead = self._bead()
        if bead is not None and bead.post_edit is not None:
            self.session.apply(SetPostEdit(self._index, None))


def _check_state(value: bool | None) -> Qt.CheckState:
    if value is None:
        return Qt.CheckState.PartiallyChecked
    return Qt.CheckState.Checked if value else Qt.CheckState.Unchecked


def _from_check_state(state: Qt.CheckState) -> bool | None:
    if state == Qt.CheckState.PartiallyChecked:
        return None
    return state == Qt.CheckState.Checked
