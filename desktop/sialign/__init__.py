"""SI Aligner: align a talk with its simultaneous interpretation.

The package is a Qt-free library (``core``, ``io``, ``text``, ``embed``,
``align``, ``filters``, ``evaluate``, ``audio``) with two thin front ends:
``cli`` and ``gui``. Heavy libraries are imported lazily inside functions.
"""

__version__ = "0.1.0"
