"""`python -m compiler [--write]`: the compiler's generated files (compiler/generated.py), checked
or written."""

import sys

from compiler.generated import main

raise SystemExit(main(sys.argv[1:]))
