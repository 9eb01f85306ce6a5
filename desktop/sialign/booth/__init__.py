"""The practice booth (docs/practice.md): record a rendition against the talk and align it while it is spoken.

Qt-free: :mod:`sialign.booth.recorder` plays the source and records the
microphone on one clock; :mod:`sialign.booth.live` is the live engine
(:class:`~sialign.booth.live.LiveAligner`) over :mod:`sialign.booth.streaming`
(the streaming recogniser, LocalAgreement-2) and :mod:`sialign.booth.incremental`
(the chunking and alignment of a growing rendition). A session is put
together by :class:`sialign.workflows.practice_session.PracticeSession`, the
one engine of ``sialign practice`` and of the GUI's booth (``sialign.gui.booth``).
"""
