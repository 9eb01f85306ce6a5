import sys

from sialign.cli.main import main

sys.exit(main())
