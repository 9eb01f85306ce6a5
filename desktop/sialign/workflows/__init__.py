"""Use cases shared by the command line, the desktop app, corpus mode and the Python API (no Qt, no argument parsing).

The front ends (:mod:`sialign.cli`, :mod:`sialign.gui`) only turn arguments
or widgets into calls of these functions and show what they return:

- :mod:`~sialign.workflows.talks`: a talk (an unaligned :class:`~sialign.core.model.Project`)
  from transcript files, its talk id, the default embedder, the bundled example;
- :mod:`~sialign.workflows.aligning`: align a talk (or re-align around its confirmed
  beads) and install the result with its parameters as one undoable edit;
- :mod:`~sialign.workflows.filtering`: run some or all filters (``intra``, ``inter``,
  ``learned``), each kind as one undoable edit with its thresholds;
- :mod:`~sialign.workflows.doubt`: the learned filter's doubt while a reviewer works;
- :mod:`~sialign.workflows.word_links`: keep a project's word links up to date, link token pairs;
- :mod:`~sialign.workflows.outputs`: write a project or an export, summarise a result;
- :mod:`~sialign.workflows.recordings` and :mod:`~sialign.workflows.speech`: transcribe a
  recording, a talk from its recordings, the speech models;
- :mod:`~sialign.workflows.practice_session`: a practice session from its preparation to its
  save (:mod:`~sialign.workflows.booth` and :mod:`~sialign.workflows.practice` beneath it).

They are the one door that changes a project: the command line, the desktop
app, corpus mode and the Python API go through them, never through
``apply_edit`` themselves; the front ends and corpus mode import nothing of
the aligner, the filters or the word aligner (:mod:`sialign.align`,
:mod:`sialign.filters`, :mod:`sialign.links`) but through them, and the front
ends nothing of the booth's engine or speech recognition (:mod:`sialign.booth`,
:mod:`sialign.transcribe`).

Modules are imported on use: ``import sialign.workflows`` stays cheap.
"""

from __future__ import annotations
