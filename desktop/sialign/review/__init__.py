"""Interpreter-training review: figures of one rendition, reports, renditions compared.

Qt-free: the app's panels, ``sialign evs``, ``sialign report`` and
``sialign compare`` all read their numbers from :mod:`sialign.review.figures`.
"""

from __future__ import annotations
