"""Random kiln Python programs and differential fuzzing of kiln against CPython.

``generate(seed)`` makes a typed, always-terminating program with inputs for its entry function
(``fuzz.generator``); ``run_fuzz(n, seed, backends)`` runs many of them on CPython and on kiln's
backends and counts the disagreements (``fuzz.differential``). ``python -m fuzz`` runs a
session from the command line.
"""

from fuzz.differential import FuzzReport, Mismatch, run_fuzz
from fuzz.generator import FEATURES, LEVELS, GeneratedProgram, generate

__all__ = ["FEATURES", "LEVELS", "FuzzReport", "GeneratedProgram", "Mismatch", "generate",
           "run_fuzz"]
