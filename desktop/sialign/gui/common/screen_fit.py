"""One rule for every window and dialog: never larger than the free area of its screen.

:class:`ScreenFit` is an event filter on the application. When a top-level
window or dialog is shown it is cut to the screen's available geometry
(less room for a window manager's frame and title bar) and moved inside it;
contents that do not fit scroll instead (each window gives its long parts a
scroll area). Dialogs that grow later (a message appears) call
:func:`fit_to_screen` again.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

# Room left for a window manager's frame and title bar (width, height).
FRAME_MARGIN = (16, 40)


def available_area(widget: QWidget) -> QRect | None:
    """The free area (without panels and docks) of the screen ``widget`` is on; None without a screen."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def fit_to_screen(window: QWidget) -> None:
    """Cut ``window`` to its screen's free area and move it inside (a window smaller than the screen keeps its size)."""
    free = available_area(window)
    if free is None:
        return
    width = min(window.width(), free.width() - FRAME_MARGIN[0])
    height = min(window.height(), free.height() - FRAME_MARGIN[1])
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    frame = window.frameGeometry()
    left = max(free.left(), min(frame.left(), free.right() + 1 - width - FRAME_MARGIN[0]))
    top = max(free.top(), min(frame.top(), free.bottom() + 1 - height - FRAME_MARGIN[1]))
    if (left, top) != (frame.left(), frame.top()):
        window.move(left, top)


class ScreenFit(QObject):
    """Application event filter applying :func:`fit_to_screen` to every top-level window as it is shown."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(watched, QWidget) and watched.isWindow():
            kind = watched.windowType()
            if kind not in (Qt.WindowType.Popup, Qt.WindowType.ToolTip, Qt.WindowType.SplashScreen):
                fit_to_screen(watched)
        return False


def install_screen_fit(app: QApplication) -> ScreenFit:
    """Install the rule on ``app`` once; returns the filter."""
    existing = app.findChild(ScreenFit)
    if existing is not None:
        return existing
    screen_fit = ScreenFit(app)
    app.installEventFilter(screen_fit)
    return screen_fit


class ContentScroll(QScrollArea):
    """A frameless scroll area that asks for its content's whole size, so a window opens as large as the screen allows.

    (A plain ``QScrollArea`` asks for at most 24 lines, leaving a big screen's
    dialog scrolling for nothing.)
    """

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(content)

    def sizeHint(self) -> QSize:
        content = self.widget()
        hint = super().sizeHint()
        if content is None:
            return hint
        hint.setHeight(content.sizeHint().height() + 2 * self.frameWidth())
        hint.setWidth(max(hint.width(), content.sizeHint().width() + self.verticalScrollBar().sizeHint().width()))
        return hint
