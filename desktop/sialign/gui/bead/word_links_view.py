"""A bead's two texts as words, with the word links between them.

The source text comes first, the interpretation below it, both wrapped to
the width of the view. Pointing at a word (or clicking it, which keeps it
chosen) highlights it and the words it is linked to on the other side.
Source content words without a link are shaded in one of two ways: green
with a dotted underline when a span of the interpretation renders them in
other words (rendered by paraphrase), orange when nothing was found for
them — the words a trainer looks at when checking what was not rendered. From the keyboard: focus
the view (Tab or a click), Left/Right move through the words of both
texts, Home/End go to the first/last, Escape clears the choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from sialign.core.word_links import BeadLinks

CHOSEN_COLOUR = QColor(70, 130, 220)
LINKED_COLOUR = QColor(170, 205, 250)
UNRENDERED_COLOUR = QColor(250, 215, 170)
PARAPHRASE_COLOUR = QColor(214, 236, 196)
LABEL_COLOUR = QColor(110, 110, 110)
MARGIN = 6
LINE_GAP = 3


def links_help(role: str = "interpretation") -> str:
    """What the "?" button of the Word links tab says; ``role``: what the target is (:func:`sialign.core.model.target_role`)."""
    who = "the interpreter" if role == "interpretation" else "the translator"
    return (
        "Point at a word (or click it to keep it chosen) to light up the words it is linked to on the other side.\n"
        "Source content words without a link are shaded:\n"
        f"  green, dotted underline — rendered by paraphrase: a span of the {role} says it in other words;\n"
        f"  orange — not found: nothing in the {role} renders it; {who} may have left it out.\n"
        "The rendered share (the table's Rendered column) counts the linked words and those rendered by paraphrase.\n"
        "Keyboard: Left/Right move through the words, Home/End jump, Escape clears."
    )


def rendered_share_text(links: BeadLinks | None) -> str:
    """``"83% of the source's content words rendered: 4 linked, 1 by paraphrase, 1 not found"`` ("" when not measurable)."""
    share = links.rendered_share if links is not None else None
    if links is None or share is None:
        return ""
    states = [links.content_state(i) for i in links.content]
    linked, para = states.count("linked"), states.count("paraphrase")
    return (f"{100 * share:.0f}% of the source's content words rendered: {linked} linked, "
            f"{para} by paraphrase, {len(states) - linked - para} not found")


@dataclass(frozen=True)
class WordBox:
    """One word as laid out: its side, index among that side's tokens, and rectangle."""

    side: str
    index: int
    text: str
    rect: QRect


class WordLinksView(QWidget):
    """Shows one bead's :class:`BeadLinks` (or a message when there are none).

    Signals:
        word_chosen(str, int): the side ("src"/"tgt") and token index now
            highlighted (-1 when none).
    """

    word_chosen = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setAccessibleName("Word links of the bead")
        # No tooltip on the words: it would pop up over the words that light up.
        # The help sits behind the "?" button of the legend below (links_help).
        self.links: BeadLinks | None = None
        # What the target side is called: "interpretation", or "translation" for a written one.
        self.role = "interpretation"
        self.message = ""
        self._src_text = ""
        self._tgt_text = ""
        self._boxes: list[WordBox] = []
        self._laid_out_width = -1
        self._hover: tuple[str, int] | None = None
        self._chosen: tuple[str, int] | None = None
        self._height = 40

    # -- content --------------------------------------------------------------
    def set_links(self, links: BeadLinks | None, src_text: str = "", tgt_text: str = "", message: str = "") -> None:
        """Show ``links`` of a bead whose running texts are ``src_text`` / ``tgt_text``."""
        same = links is not None and links == self.links
        self.links = links
        self._src_text, self._tgt_text = src_text, tgt_text
        self.message = message
        if not same:
            self._hover = self._chosen = None
        self._laid_out_width = -1
        self._layout()
        self.updateGeometry()
        self.update()

    def current(self) -> tuple[str, int] | None:
        """The highlighted word: pointed at, else chosen (side, index)."""
        return self._hover or self._chosen

    def counterparts(self, side: str, index: int) -> list[int]:
        """Token indices on the other side linked to word ``index`` of ``side``."""
        if self.links is None:
            return []
        if side == "src":
            return sorted(j for i, j in self.links.links if i == index)
        return sorted(i for i, j in self.links.links if j == index)

    def choose(self, side: str, index: int) -> None:
        """Highlight word ``index`` of ``side`` and keep it highlighted."""
        self._chosen = (side, index)
        self.update()
        self.word_chosen.emit(side, index)

    def clear_choice(self) -> None:
        self._chosen = None
        self.update()
        self.word_chosen.emit("", -1)

    # -- layout ---------------------------------------------------------------
    def _layout(self) -> None:
        width = max(100, self.width())
        if width == self._laid_out_width:
            return
        self._laid_out_width = width
        self._boxes, self._height = self._compute(width)
        # Inside a scroll area the view is as tall as its words need.
        self.setMinimumHeight(self._height)

    def _compute(self, width: int) -> tuple[list[WordBox], int]:
        boxes: list[WordBox] = []
        metrics = QFontMetrics(self.font())
        line_height = metrics.height() + 2 * LINE_GAP
        y = MARGIN
        if self.links is None:
            return boxes, y + 2 * line_height
        space = metrics.horizontalAdvance(" ")
        left = MARGIN + self._label_width()
        for side, tokens, text in (("src", self.links.src_tokens, self._src_text), ("tgt", self.links.tgt_tokens, self._tgt_text)):
            x = left
            prev_end: int | None = None
            for index, (token, start, end) in enumerate(tokens):
                # A space where the text has one (none between Japanese words).
                gap = space if prev_end is not None and start > prev_end and not text[prev_end:start].strip() else 0
                w = metrics.horizontalAdvance(token) + 4
                if x + gap + w > width - MARGIN and x > left:
                    x, y, gap = left, y + line_height, 0
                x += gap
                boxes.append(WordBox(side, index, token, QRect(x, y, w, metrics.height() + 2)))
                x += w
                prev_end = end
            y += line_height + 2 * LINE_GAP
        return boxes, y + MARGIN - 2 * LINE_GAP

    def set_role(self, role: str) -> None:
        """Call the target side ``role`` (``interpretation`` or ``translation``)."""
        if role != self.role:
            self.role = role
            self._laid_out_width = -1  # the label's width may change
            self.updateGeometry()
            self.update()

    def _labels(self) -> dict[str, str]:
        """The text left of each side's words: its name."""
        return {"src": "Source", "tgt": self.role.capitalize()}

    def share_text(self) -> str:
        """The rendered share in words, for the legend ("" when not measurable)."""
        return rendered_share_text(self.links)

    def _label_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        return font

    def _label_width(self) -> int:
        metrics = QFontMetrics(self._label_font())
        return max(metrics.horizontalAdvance(text) for text in self._labels().values()) + 10

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._layout()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._compute(max(100, width))[1]

    def sizeHint(self) -> QSize:
        return QSize(400, self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, 40)

    # -- painting -------------------------------------------------------------
    def _word_at(self, pos: QPoint) -> tuple[str, int] | None:
        for box in self._boxes:
            if box.rect.adjusted(-2, -LINE_GAP, 2, LINE_GAP).contains(pos):
                return box.side, box.index
        return None

    def paintEvent(self, event: QPaintEvent) -> None:
        self._layout()
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        if self.links is None:
            painter.setPen(LABEL_COLOUR)
            painter.drawText(self.rect().adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
                             self.message or "No word links for this bead.")
            return
        current = self.current()
        linked: set[tuple[str, int]] = set()
        if current is not None:
            other = "tgt" if current[0] == "src" else "src"
            linked = {(other, k) for k in self.counterparts(*current)}
        states = {i: self.links.content_state(i) for i in self.links.content}
        first_of_side: dict[str, QRect] = {}
        for box in self._boxes:
            first_of_side.setdefault(box.side, box.rect)
        painter.setFont(self._label_font())
        painter.setPen(LABEL_COLOUR)
        labels = self._labels()
        for side, rect in first_of_side.items():
            painter.drawText(QRect(MARGIN, rect.top(), self._label_width(), rect.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), labels[side])
        painter.setFont(self.font())
        text_colour = palette.color(QPalette.ColorRole.Text)
        for box in self._boxes:
            key = (box.side, box.index)
            fill = None
            pen = text_colour
            if key == current:
                fill, pen = CHOSEN_COLOUR, QColor(Qt.GlobalColor.white)
            elif key in linked:
                fill = LINKED_COLOUR
            elif box.side == "src" and states.get(box.index) == "not found":
                fill = UNRENDERED_COLOUR
            elif box.side == "src" and states.get(box.index) == "paraphrase":
                fill = PARAPHRASE_COLOUR
            if fill is not None:
                painter.fillRect(box.rect, fill)
            if box.side == "src" and states.get(box.index) == "paraphrase":
                # Told apart from "not found" without colour too: a dotted underline.
                painter.setPen(QPen(PARAPHRASE_COLOUR.darker(160), 1, Qt.PenStyle.DotLine))
                painter.drawLine(box.rect.bottomLeft(), box.rect.bottomRight())
            if key == self._chosen and self.hasFocus():
                painter.setPen(CHOSEN_COLOUR.darker(150))
                painter.drawRect(box.rect.adjusted(0, 0, -1, -1))
            painter.setPen(pen)
            painter.drawText(box.rect, int(Qt.AlignmentFlag.AlignCenter), box.text)

    # -- interaction ----------------------------------------------------------
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        word = self._word_at(event.position().toPoint())
        if word != self._hover:
            self._hover = word
            self.update()
            if word is not None:
                self.word_chosen.emit(*word)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover = None
        self.update()
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        word = self._word_at(event.position().toPoint())
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        if word is None:
            self.clear_choice()
        else:
            self.choose(*word)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        order = [(b.side, b.index) for b in self._boxes]
        key = event.key()
        if not order or key not in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Escape):
            super().keyPressEvent(event)
            return
        if key == Qt.Key.Key_Escape:
            self.clear_choice()
            return
        position = order.index(self._chosen) if self._chosen in order else -1
        if key == Qt.Key.Key_Right:
            position = min(len(order) - 1, position + 1)
        elif key == Qt.Key.Key_Left:
            position = len(order) - 1 if position < 0 else max(0, position - 1)
        elif key == Qt.Key.Key_Home:
            position = 0
        else:
            position = len(order) - 1
        self._hover = None
        self.choose(*order[position])

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()
