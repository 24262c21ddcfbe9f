"""``python -m cpknight``: the command line."""

import sys

from cpknight.cli import main

if __name__ == "__main__":
    sys.exit(main())
