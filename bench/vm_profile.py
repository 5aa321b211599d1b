"""The C VM without Python around it: per bench case, best CPU time and instructions executed.

`kiln bench vm` times the C VM through ctypes, wall clock, on whatever else the machine is
doing. To compare two versions of the interpreter this builds `bench/vm_harness.c` (cpu.c and
interp.h in one program, vm/cpu.py's flags) against a kernels folder, writes each case of
bench/vm.py (full sizes) as a flat file, and runs them: the best thread CPU time of `--reps`
runs and, with `--callgrind` (valgrind installed), the instructions executed (deterministic:
the number to compare on a shared machine).

    python -m bench.vm_profile                          # this tree's vm/kernels
    python -m bench.vm_profile --kernels OTHER/vm/kernels --callgrind
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def write_cases(folder: Path) -> list[Path]:
    from bench.vm import CASES, PROGRAMS
    from compiler import compile_source, parse_call
    from vm.build import flatten
    from vm.cpu import prepare_items

    paths = []
    for file, call, _ in CASES:
        program = compile_source((PROGRAMS / file).read_text(), file)
        name, args = parse_call(call)
        prepared = prepare_items([(program, name, args)])
        flat = flatten(prepared.programs[0])
        header = [flat.n_code, flat.n_consts, flat.n_image, flat.n_types_words, flat.n_types,
                  flat.n_funcs, flat.n_params, flat.max_type_depth,
                  int(prepared.table["func"][0]), prepared.n_args]  # fmt: skip
        path = folder / f"{file.removesuffix('.py')}.bin"
        with path.open("wb") as out:
            np.array(header, dtype=np.int64).tofile(out)
            for array in (flat.code, flat.consts, flat.image, flat.types, flat.type_skip,
                          flat.type_off, flat.funcs, flat.params, prepared.args):  # fmt: skip
                np.array([array.size], dtype=np.int64).tofile(out)
                array.tofile(out)
        paths.append(path)
    return paths


def build(kernels: Path, out: Path) -> Path:
    from vm.build import c_compiler
    from vm.cpu import COMPUTED_GOTO, FLAGS

    flags = [f for f in FLAGS if f not in ("-fPIC", "-shared")]
    command = [*c_compiler().split(), *flags, COMPUTED_GOTO, f"-I{kernels}",
               str(HERE / "vm_harness.c"), "-o", str(out), "-lm"]  # fmt: skip
    subprocess.run(command, check=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.vm_profile")
    parser.add_argument("--kernels", type=Path, default=HERE.parent / "vm" / "kernels")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--callgrind", action="store_true")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kiln-vm-profile-") as tmp:
        folder = Path(tmp)
        harness = build(options.kernels.resolve(), folder / "vm_harness")
        print(f"{'case':<14}{'steps':>10}{'best ms':>10}{'Mops/s':>8}" +
              (f"{'instructions':>14}{'per step':>10}" if options.callgrind else ""))  # fmt: skip
        for case in write_cases(folder):
            run = subprocess.run([harness, case, str(options.reps)], capture_output=True,
                                 text=True, check=True).stdout.split()  # fmt: skip
            steps, ms = int(run[3]), float(run[5])
            line = f"{case.stem:<14}{steps:>10,}{ms:>10.2f}{steps / ms / 1e3:>8.0f}"
            if options.callgrind:
                done = subprocess.run(
                    ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                     harness, case, "1"], capture_output=True, text=True, check=True,
                )  # fmt: skip
                found = re.search(r"Collected : (\d+)", done.stderr)
                ir = int(found.group(1)) if found else 0
                line += f"{ir / 1e6:>13.1f}M{ir / steps:>10.1f}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
