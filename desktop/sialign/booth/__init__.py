"""The practice booth (DESIGN.md §2.14): record a rendition against the talk and align it while it is spoken.

Qt-free: :mod:`sialign.booth.recorder` plays the source and records the
microphone on one clock; the GUI lives in ``sialign.gui.booth``.
"""
