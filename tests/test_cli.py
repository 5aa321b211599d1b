"""The `kiln` command line as a user meets it: output, exit codes, error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main

ROOT = Path(__file__).resolve().parent.parent


def kiln(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("backend", ["ref", "cpu"])
def test_run_prints_value_steps_and_time(capsys: pytest.CaptureFixture[str], backend: str) -> None:
    code, out, _ = kiln(capsys, "run", str(ROOT / "examples/fib.py"), "--call", "fib(10)", "--backend", backend)
    assert code == 0
    assert "value: 55" in out and "steps: " in out and "time: " in out


def test_the_readmes_example_runs_with_the_defaults_and_reports_load_apart(capsys: pytest.CaptureFixture[str]) -> None:
    # fib(30) is 21.5 million instructions: past a candidate's fuel, within kiln run's own
    code, out, _ = kiln(capsys, "run", str(ROOT / "examples/fib.py"), "--call", "fib(30)")
    assert code == 0 and "value: 832040" in out
    assert "load: " in out and "once per process" in out


def test_run_reports_a_trap_with_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "loop.py"
    src.write_text("def f(n: int) -> int:\n    while True:\n        n += 1\n    return n\n")
    code, out, _ = kiln(capsys, "run", str(src), "--call", "f(0)", "--fuel", "100")
    assert code == 1
    assert "trap:  FuelExhausted (timed out)" in out and "steps: 100" in out


def test_inference_from_the_call(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "total.py"
    src.write_text("def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n")
    code, out, _ = kiln(capsys, "run", str(src), "--call", "total([1, 2, 3])")
    assert code == 0 and "value: 6" in out


def test_compile_then_disassemble_and_run_bytecode(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    kbc = tmp_path / "primes.kbc"
    code, out, _ = kiln(capsys, "compile", str(ROOT / "examples/primes.py"), "-o", str(kbc))
    assert code == 0 and kbc.exists()
    code, out, _ = kiln(capsys, "disasm", str(kbc))
    assert code == 0 and "count_primes(int) -> int" in out and "RET" in out
    code, out, _ = kiln(capsys, "run", str(kbc), "--call", "count_primes(100)")
    assert code == 0 and "value: 25" in out


def test_errors_say_what_and_where_with_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f() -> int:\n    d = lambda: 2\n    return 1\n")
    code, _, err = kiln(capsys, "run", str(bad), "--call", "f()")
    assert code == 2 and f"{bad}:2:9: unsupported: lambda" in err
    broken = tmp_path / "broken.kbc"
    broken.write_bytes((ROOT / "examples/fib.py").read_bytes()[:40])
    code, _, err = kiln(capsys, "run", str(broken), "--call", "fib(3)")
    assert code == 2 and "not a kiln bytecode file" in err
    code, _, err = kiln(capsys, "run", str(ROOT / "examples/fib.py"), "--call", "fib(")
    assert code == 2 and "cannot parse call" in err
    code, _, err = kiln(capsys, "run", str(ROOT / "examples/fib.py"), "--call", "nope(1)")
    assert code == 2 and "no function 'nope'" in err


def test_opt_levels_agree(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for flags in ([], ["-O0"], ["--no-pass", "fuse"]):
        code, out, _ = kiln(capsys, "run", str(ROOT / "examples/primes.py"), "--call", "count_primes(500)", *flags)
        assert code == 0
        outs.append(out.splitlines()[0])
    assert outs == ["value: 95"] * 3


def test_run_of_a_hostile_frame_exits_2_at_once(tmp_path: Path) -> None:
    """Security review finding 8: `kiln run` of a container declaring 2**32 - 1 locals hung,
    allocating without bound. It runs here in a process capped at 1 GiB of address space: the
    error comes at once, with the field, its value and the limit."""
    import resource
    import subprocess
    import sys

    from compiler import compile_source
    from vm.limits import MAX_STACK_WORDS

    program = compile_source("def f(x: int) -> int:\n    return x\n", "f.py")
    program.functions[0].n_locals = 2**32 - 1
    kbc = tmp_path / "hostile.kbc"
    kbc.write_bytes(program.to_bytes())

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "run", str(kbc), "--call", "f(1)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, preexec_fn=cap,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "kiln: error: function 'f' (#0), header: frame too large" in done.stderr
    assert f"n_locals 4294967295 + max_stack 1 exceeds the limit {MAX_STACK_WORDS}" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("source", "where"),
    [
        ("def f(x: int) -> int:\n    return " + "-" * 30_000 + "x\n", ":1:1: unsupported: nesting"),
        ("def f(x: int) -> int:\n    return " + "-" * 500 + "x\n", ":2:"),
        ("def f(x: int) -> int:\n    return " + "x + " * 600 + "x\n", ":2:"),
    ],
)
def test_compile_of_deeply_nested_source_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, source: str, where: str
) -> None:
    """Security review finding 11: a RecursionError (or the parser's MemoryError) escaped the
    compiler as a traceback; it is a CompileError that says where, exit 2."""
    path = tmp_path / "deep.py"
    path.write_text(source)
    code, _, err = kiln(capsys, "compile", str(path))
    assert code == 2, err
    assert f"kiln: error: {path}{where}" in err and "nesting" in err, err
