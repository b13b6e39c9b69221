"""python -m host_tools.bench: felt-bench."""

import sys

from host_tools.bench.cli import main

sys.exit(main())
