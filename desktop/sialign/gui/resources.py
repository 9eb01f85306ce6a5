"""Where the application's bundled files are, in a checkout, an install or a frozen build.

PyInstaller unpacks data next to the executable and points ``sys._MEIPASS``
at it; a source checkout keeps ``resources/`` at the repository root, three
levels above this file. Both are looked at, the frozen location first.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontDatabase, QIcon
from PySide6.QtWidgets import QApplication

from sialign.core.paths import resource_path

# Font families that cover Japanese, Chinese and Korean, most specific first.
# Noto CJK is what Debian's fonts-noto-cjk installs; the others are the usual
# system fonts on Windows and macOS.
CJK_FAMILIES = (
    "Noto Sans CJK JP",
    "Noto Sans JP",
    "IPAexGothic",
    "IPAGothic",
    "Yu Gothic UI",
    "Meiryo UI",
    "Meiryo",
    "Hiragino Sans",
    "Hiragino Kaku Gothic ProN",
    "Source Han Sans JP",
)


def app_icon() -> QIcon:
    """The application icon (an empty icon when the file is missing)."""
    for name in ("sialign.svg", "sialign.png"):
        path = resource_path("icons", name)
        if path is not None:
            return QIcon(str(path))
    return QIcon()


def install_cjk_font_fallback(app: QApplication) -> str | None:
    """Make Japanese (and other CJK) text render with a real font, not boxes.

    Keeps the platform's UI font for Latin text and appends the first
    installed CJK family as a fallback for every family Qt may pick, so mixed
    English/Japanese rows use both. Returns the CJK family used, or None when
    no CJK font is installed (Japanese will then show as boxes; docs/app.md
    tells users which package to install).
    """
    installed = set(QFontDatabase.families())
    chosen = next((f for f in CJK_FAMILIES if f in installed), None)
    if chosen is None:
        return None
    base = app.font()
    for family in {base.family(), "Sans Serif", "Helvetica", "Arial", "DejaVu Sans", "Segoe UI", "Monospace"}:
        fallbacks = QFont.substitutes(family)
        if chosen not in fallbacks:
            QFont.insertSubstitution(family, chosen)
    font = QFont(base)
    font.setFamilies([base.family(), chosen])
    app.setFont(font)
    return chosen
