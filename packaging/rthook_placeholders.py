"""PyInstaller runtime hook: placeholders for two libraries the installers leave out.

- **PyAV** (``av``, about 100 MB of FFmpeg libraries): faster-whisper imports it
  when it is imported, but uses it only to decode a file or stream it is
  handed; SI Aligner decodes audio with soundfile and hands it samples.
- **lxml** (9 MB): sacrebleu imports it when it is imported, for reading WMT
  and IWSLT XML test sets; SI Aligner uses sacrebleu's chrF only. fontTools
  tries it for SVG glyphs and falls back to the standard library.

Importing either still works; using anything from it raises one ImportError
that names what to do. Attribute lookups that the import system and
``from X import *`` make raise ImportError too, so code that tries the
library and falls back on ImportError (fontTools) does fall back.
"""

import sys
import types

_REASONS = {
    "av": "PyAV is not part of SI Aligner's installers; audio is decoded with soundfile "
    "(WAV, FLAC, OGG, MP3) — convert the recording to one of those formats",
    "lxml": "lxml is not part of SI Aligner's installers (nothing it does needs it)",
}


class _Placeholder(types.ModuleType):
    """A module that imports, and fails with a clear ImportError when anything in it is used."""

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__") and name != "__all__":
            raise AttributeError(name)  # __path__, __spec__...: not a package, nothing special
        top = self.__name__.split(".")[0]
        raise ImportError(f"{self.__name__}.{name}: {_REASONS[top]}")


def _install(name: str) -> types.ModuleType:
    module = sys.modules.get(name)
    if module is None:
        module = sys.modules[name] = _Placeholder(name)
    return module


for _name in ("av", "lxml"):
    _install(_name)
# `import lxml.etree as ET` binds the submodule through the package's attribute.
if isinstance(sys.modules["lxml"], _Placeholder):
    sys.modules["lxml"].etree = _install("lxml.etree")  # type: ignore[attr-defined]
