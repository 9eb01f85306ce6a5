"""The practice booth, without Qt: live recognition and alignment of a student's rendition (docs/practice.md).

:mod:`sialign.booth.live` is the live engine (:class:`~sialign.booth.live.LiveAligner`);
:mod:`sialign.booth.streaming` the streaming recogniser (LocalAgreement-2);
:mod:`sialign.booth.incremental` the chunking and alignment of a growing rendition.
"""
