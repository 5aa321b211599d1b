"""`python -m compiler [--write]`: the compiler's generated files (compiler/surface.py's), checked
or written."""

import sys

from compiler.surface import main

raise SystemExit(main(sys.argv[1:]))
