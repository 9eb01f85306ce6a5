"""Use cases shared by the command line and the desktop app (no Qt, no argument parsing).

The front ends (:mod:`sialign.cli`, :mod:`sialign.gui`) only turn arguments
or widgets into calls of these functions and show what they return:

- :mod:`~sialign.workflows.talks`: a talk (an unaligned :class:`~sialign.core.model.Project`)
  from transcript files, its talk id, the default embedder, the bundled example;
- :mod:`~sialign.workflows.aligning`: align a talk (or re-align around its confirmed
  beads) and install the result as one undoable edit; run some or all filters;
- :mod:`~sialign.workflows.outputs`: write a project or an export, summarise a result.

Modules are imported on use: ``import sialign.workflows`` stays cheap.
"""

from __future__ import annotations
