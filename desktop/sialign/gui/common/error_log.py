"""The desktop app's error log: ERROR records of the ``sialign`` loggers, appended to a file.

The file is :func:`sialign.core.paths.error_log_path` (the platform's log
folder), looked up for every record, so a changed environment is followed.
Error dialogs name the file and never show a traceback.
"""

from __future__ import annotations

import logging

from sialign.core.paths import error_log_path

log = logging.getLogger("sialign.gui")


class ErrorLogHandler(logging.Handler):
    """Appends each record as ``--- time`` and the message; failures to write are ignored."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.setFormatter(logging.Formatter("--- %(asctime)s\n%(message)s", datefmt="%Y-%m-%d %H:%M:%S"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            path = error_log_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(self.format(record) + "\n")
        except OSError:
            pass  # a log that cannot be written must not raise a second error


def install_error_log() -> None:
    """Attach the error-log handler to the ``sialign`` logger (once)."""
    logger = logging.getLogger("sialign")
    if not any(isinstance(h, ErrorLogHandler) for h in logger.handlers):
        logger.addHandler(ErrorLogHandler())


def log_error(details: str) -> None:
    """Write ``details`` (a traceback, a worker's report) to the error log."""
    install_error_log()
    log.error(details)
