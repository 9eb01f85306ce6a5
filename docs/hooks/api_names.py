"""A griffe extension for the API reference: ``sialign.align`` is the function.

``sialign/__init__.py`` defines the API function ``align`` and the package
also has a subpackage ``sialign.align``. Python keeps the function (the
package's module type sees to it), but griffe's loader lets the subpackage
shadow it, so ``::: sialign.align`` in reference.md would document the
aligner's internals instead of the function users call. This puts the
function back under its name once the package is loaded (so the reference
cannot document a module below ``sialign.align``; it documents none).
"""

from __future__ import annotations

from typing import Any

import griffe

PACKAGE = "sialign"
SHADOWED = ("align",)


class ApiFunctionsOverSubpackages(griffe.Extension):
    """Keep the package's own functions under names a subpackage also uses."""

    def __init__(self) -> None:
        super().__init__()
        self.functions: dict[str, griffe.Function] = {}

    def on_function_instance(self, *, func: griffe.Function, **kwargs: Any) -> None:
        parent = func.parent
        if parent is not None and parent.path == PACKAGE and func.name in SHADOWED:
            self.functions[func.name] = func

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.path != PACKAGE:
            return
        for name, func in self.functions.items():
            pkg.set_member(name, func)
