"""Entry point of the frozen command-line program ``sialign`` (offline; see sialign.core.frozen)."""

from __future__ import annotations

import sys


def main() -> int:
    from sialign.core.frozen import prepare_frozen_process

    prepare_frozen_process()
    from sialign.cli.main import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
