"""The REST service against hostile input (security review findings 8-11): a real uvicorn
process on 127.0.0.1 with a real SQLite store, the thread executor (no Ray: the farm's side of
cancellation is in tests/test_farm.py). Each test names the finding it covers; each would have
failed before the fix (a 500, a hang, a job that never stops, a re-run per request).
"""

from __future__ import annotations

import base64
import functools
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _service_client
import httpx
import pytest

from api.limits import MAX_TEXT_BYTES
from api.process import ServiceProcess
from compiler import compile_source
from vm.limits import MAX_STACK_WORDS, MAX_TYPE_DEPTH

TOKEN = "adversary-token"
IDENTITY = "def f(x: int) -> int:\n    return x\n"
DOUBLE = "def f(x: int) -> int:\n    return 2 * x\n"
TESTS = [{"args": [3], "expected": 6}]
MAX_JSON_DEPTH = 100  # the [api] default, which this service keeps


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    tmp = tmp_path_factory.mktemp("adversarial")
    env = {
        "KILN_API_DATABASE": str(tmp / "jobs.sqlite"),
        "KILN_API_TOKENS": TOKEN,
        "KILN_API_EXECUTOR": "thread",
        "KILN_CPU_THREADS": "1",
        "KILN_API_MAX_JOBS_IN_FLIGHT": "50",
    }
    with ServiceProcess(env, log_path=tmp / "service.log") as process:
        yield process


@pytest.fixture()
def c(service: ServiceProcess) -> Iterator[httpx.Client]:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(base_url=service.url, headers=headers, timeout=30) as client:
        yield client


def submit(c: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = c.post("/v1/jobs", json=body)
    assert response.status_code == 202, response.text
    job: dict[str, Any] = response.json()
    return job


wait_done = functools.partial(_service_client.wait_done, timeout=30)


def results(c: httpx.Client, job_id: str, **params: str) -> dict[int, dict[str, Any]]:
    page = c.get(f"/v1/jobs/{job_id}/results", params=params)
    assert page.status_code == 200, page.text
    lines = [json.loads(line) for line in page.text.splitlines()]
    return {line["index"]: line for line in lines}


# ---- finding 8: declared sizes of a container ------------------------------------------------


def hostile_kbc() -> str:
    """A verified-looking container whose one function declares 2**32 - 1 locals."""
    program = compile_source(IDENTITY, "f.py")
    program.functions[0].n_locals = 2**32 - 1
    return base64.b64encode(program.to_bytes()).decode()


def test_hostile_local_count_is_a_422_at_once(c: httpx.Client) -> None:
    """Was a 500 after 13-21 s under a memory cap (the OOM killer without one)."""
    start = time.monotonic()
    ran = c.post("/v1/run", json={"bytecode": hostile_kbc(), "entry": "f", "args": [1]})
    candidates = [{"bytecode": hostile_kbc(), "entry": "f"}]
    job = c.post("/v1/jobs", json={"candidates": candidates, "tests": TESTS})
    assert time.monotonic() - start < 5
    for answer, prefix in ((ran, "bytecode"), (job, "candidates[0].bytecode")):
        assert answer.status_code == 422, answer.text
        detail = answer.json()["detail"]
        assert detail.startswith(f"{prefix} fails verification: function 'f' (#0), header"), detail
        assert "frame too large: n_locals 4294967295 + max_stack 1 exceeds the limit" in detail
        assert str(MAX_STACK_WORDS) in detail


# ---- finding 11: over-deep and oversized input ------------------------------------------------


def nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


JOB = '{"candidates": [{"source": "x", "entry": "f"}], "tests": [%s]}'


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/v1/jobs", JOB % '{"args": [%s], "expected": 1}'),
        ("/v1/jobs", JOB % '{"args": [1], "expected": %s}'),
        ("/v1/compile", '{"source": "x", "example_args": {"f": [%s]}}'),
        ("/v1/run", '{"source": "x", "entry": "f", "args": [%s]}'),
        ("/v1/run", '{"source": "x", "entry": "f", "args": [], "extra": %s}'),
    ],
)
@pytest.mark.parametrize("depth", [500, 50_000])
def test_deeply_nested_json_is_a_422_that_says_where(
    c: httpx.Client, path: str, template: str, depth: int
) -> None:
    """500 nested arrays parsed, then a recursion in the service was a 500 (50,000 was a 400
    from the parser, which said nothing of where)."""
    body = (template % nested(depth)).encode()
    for headers in ({"Content-Type": "application/json"}, {}):  # FastAPI reads both as JSON
        answer = c.post(path, content=body, headers=headers)
        assert answer.status_code == 422, answer.text
        detail = answer.json()["detail"]
        assert "the body nests arrays and objects" in detail, detail
        assert f"over max_json_depth={MAX_JSON_DEPTH}" in detail, detail
        at = int(detail.rsplit("byte ", 1)[1].rstrip(")"))
        assert body[at : at + 1] in (b"[", b"{")
        before = body[:at]  # no string of these bodies holds a bracket
        opened = before.count(b"[") + before.count(b"{") - before.count(b"]") - before.count(b"}")
        assert opened == MAX_JSON_DEPTH


def test_brackets_inside_strings_do_not_count(c: httpx.Client) -> None:
    source = "def f(x: int) -> int:\n    s = '" + "[" * 300 + "'\n    return x\n"
    tests = [{"args": [3], "expected": 3}]
    job = submit(c, {"candidates": [{"source": source, "entry": "f"}], "tests": tests})
    assert wait_done(c, job["id"])["status"] == "done"
    assert results(c, job["id"])[0]["verdict"] == "passed"


def test_values_nest_at_most_the_type_depth(c: httpx.Client) -> None:
    deep = json.loads(nested(MAX_TYPE_DEPTH + 1))
    ran = c.post("/v1/run", json={"source": IDENTITY, "entry": "f", "args": [deep]})
    assert ran.status_code == 422 and f"deeper than {MAX_TYPE_DEPTH} lists" in ran.text
    compiled = c.post("/v1/compile", json={"source": "def f(x):\n    return 1\n",
                                           "example_args": {"f": [deep]}})  # fmt: skip
    assert compiled.status_code == 422 and f"deeper than {MAX_TYPE_DEPTH} lists" in compiled.text


UNARY = "def f(x: int) -> int:\n    return " + "-" * 30_000 + "x\n"
CHAIN = "def f(x: int) -> int:\n    return " + "x + " * 600 + "x\n"


def test_deeply_nested_source_is_a_clear_error_at_every_entry_point(c: httpx.Client) -> None:
    """30,000 unary minus signs were a MemoryError in CPython's parser, 600 additions a
    RecursionError in the compiler: 500s from /v1/compile and /v1/run, a failed job."""
    for source, where in ((UNARY, (1, 1)), (CHAIN, (2, None))):
        compiled = c.post("/v1/compile", json={"source": source})
        assert compiled.status_code == 200, compiled.text
        answer = compiled.json()
        assert not answer["ok"] and answer["bytecode"] is None
        [diagnostic] = answer["diagnostics"]
        assert diagnostic["kind"] == "unsupported" and "nesting" in diagnostic["message"]
        assert diagnostic["line"] == where[0] and where[1] in (None, diagnostic["col"])
        ran = c.post("/v1/run", json={"source": source, "entry": "f", "args": [1]})
        assert ran.status_code == 422, ran.text
        assert ran.json()["detail"].startswith("does not compile: <request>:")
    candidates = [{"source": source, "entry": "f"} for source in (UNARY, CHAIN, DOUBLE)]
    job = submit(c, {"candidates": candidates, "tests": TESTS})
    assert wait_done(c, job["id"])["status"] == "done"
    lines = results(c, job["id"])
    assert [lines[i]["verdict"] for i in range(3)] == ["compile error", "compile error", "passed"]
    assert all("nesting" in lines[i]["diagnostic"] for i in range(2))


def test_long_texts_are_clipped_with_a_marker(c: httpx.Client) -> None:
    """A verdict's diagnostic quoted a test's argument whole (a 20,000-character string went
    into the store and every results page); error messages quoted the request whole."""
    job = submit(c, {"candidates": [{"source": IDENTITY, "entry": "f"}],
                     "tests": [{"args": ["y" * 20_000], "expected": 1}]})  # fmt: skip
    wait_done(c, job["id"])
    [line] = results(c, job["id"]).values()
    assert line["verdict"] == "needs fallback"
    diagnostic = line["diagnostic"]
    assert len(diagnostic.encode()) <= MAX_TEXT_BYTES
    assert diagnostic.startswith("the tests do not fit f(int) -> int")
    assert diagnostic.endswith("bytes in all]") and "...[truncated: " in diagnostic
    unknown = c.post("/v1/jobs", json={"candidates": [{"source": "x"}], "problem": "P" * 100_000})
    assert unknown.status_code == 422
    assert len(unknown.text.encode()) <= MAX_TEXT_BYTES + 64
    assert unknown.json()["detail"].startswith("unknown problem 'PPP")
    extra = c.post("/v1/run", json={"source": "x", "entry": "f", "k" * 100_000: 1})
    assert extra.status_code == 422 and len(extra.content) < 4 * MAX_TEXT_BYTES
    long = "def f(n: int) -> str:\n    return 'y' * n\n"
    ran = c.post("/v1/run", json={"source": long, "entry": "f", "args": [50_000]}).json()
    assert ran["value"] == "y" * 50_000  # the value is data: only its repr is text
    assert len(ran["repr"].encode()) <= MAX_TEXT_BYTES and ran["repr"].endswith("bytes in all]")


# ---- finding 9: cancellation reaches running work; a job's total work is bounded ---------------

LOOP = (
    "def f(n: int) -> int:\n    s = 0\n    for i in range(n):\n        s = (s + i) % 7\n"
    "    return n + s - s\n"
)
HEAVY_TESTS = [{"args": [40_000_000], "expected": 40_000_000, "fuel": 1_000_000_000}]


def heavy_candidates(n: int, salt: str) -> list[dict[str, Any]]:
    """`n` distinct candidates of about 0.3 s each: one batch of them runs for many seconds."""
    return [{"source": LOOP + f"# {salt} {k}\n", "entry": "f"} for k in range(n)]


def test_a_cancel_stops_the_batch_running(c: httpx.Client) -> None:
    """DELETE marked the job cancelled but its batch (here 30 candidates, about 10 s) ran to
    its end, and the next job waited for it (16-37 s in the review)."""
    heavy = submit(c, {"candidates": heavy_candidates(30, "cancel"), "tests": HEAVY_TESTS})
    deadline = time.monotonic() + 20
    while c.get(f"/v1/jobs/{heavy['id']}").json()["status"] != "running":
        assert time.monotonic() < deadline, "the heavy job did not start"
        time.sleep(0.02)
    time.sleep(0.5)  # compiled, and running its first items
    cancelled = c.delete(f"/v1/jobs/{heavy['id']}")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    started = time.monotonic()
    small = submit(c, {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS})
    assert wait_done(c, small["id"], timeout=5)["status"] == "done"
    assert time.monotonic() - started < 5
    assert c.get(f"/v1/jobs/{heavy['id']}").json()["progress"]["done"] < 30


def test_a_cancel_made_by_another_replica_reaches_the_running_batch(tmp_path: Path) -> None:
    """A cancel is a status in the shared store: the replica running the job only looked at it
    when a verdict came in, so a long batch ran on. It now looks every CANCEL_POLL_S."""
    from api.executor import ThreadExecutor
    from api.metrics import Metrics
    from api.problems import lookup_problem
    from api.runner import CANCEL_POLL_S, JobRunner
    from api.store import NewCandidate, Store
    from configs.settings import ApiSettings

    database = str(tmp_path / "jobs.sqlite")
    store, other = Store(database), Store(database)  # two replicas' views of one store
    runner = JobRunner(store, ThreadExecutor(), ApiSettings(), Metrics(), lookup_problem)
    try:
        candidates = [
            NewCandidate("f", source=c["source"]) for c in heavy_candidates(30, "replica")
        ]
        store.create_job("j", "owner", {"tests": HEAVY_TESTS}, candidates,
                         replica=runner.replica, lease_s=30)  # fmt: skip
        runner.start()
        runner.launch("j")
        deadline = time.monotonic() + 20
        while store.status("j") != "running":
            assert time.monotonic() < deadline, "the job did not start"
            time.sleep(0.02)
        time.sleep(0.5)
        assert other.cancel("j")
        cancelled_at = time.monotonic()
        while runner.running():
            assert time.monotonic() - cancelled_at < CANCEL_POLL_S + 3, "the batch ran on"
            time.sleep(0.02)
        assert store.get_job("j").done < 30  # type: ignore[union-attr]
    finally:
        runner.stop()
        store.close()
        other.close()


def test_a_jobs_total_work_is_bounded(c: httpx.Client) -> None:
    """Within every per-request limit a job could ask for 10,000 candidates x 1,000 tests x
    1e9 fuel = 1e16 instructions. Fuel summed over candidates x tests is at most max_job_fuel."""
    tests = [{"args": [1], "expected": 2, "fuel": 1_000_000_000}] * 100
    body = {"candidates": [{"source": DOUBLE, "entry": "f"}] * 200, "tests": tests}
    answer = c.post("/v1/jobs", json=body)
    assert answer.status_code == 413, answer.text
    detail = answer.json()["detail"]
    assert "200 candidates x 100000000000 instructions (the fuel of its 100 tests)" in detail
    assert "= 20000000000000: over max_job_fuel=10000000000000" in detail
    body = {"candidates": [{"source": DOUBLE, "entry": "f"}] * 100, "tests": tests,
            "options": {"detail": "tests"}}  # fmt: skip
    doubled = c.post("/v1/jobs", json=body)
    assert doubled.status_code == 413 and "x 2 (options.detail)" in doubled.json()["detail"]
    defaults = {"candidates": [{"source": DOUBLE, "entry": "f"}] * 2000,
                "tests": [{"args": [1], "expected": 2}] * 1000}  # fmt: skip
    by_default = c.post("/v1/jobs", json=defaults)  # [vm] fuel, 1e7 per test
    assert by_default.status_code == 413 and "= 20000000000000" in by_default.json()["detail"]


# ---- finding 10: per-test detail is recorded once, by the worker --------------------------------


def test_per_test_detail_is_read_from_the_store_not_rerun(
    service: ServiceProcess, c: httpx.Client
) -> None:
    """GET ?detail=tests re-ran every candidate of the page in the API process, on every call.
    The worker records it while it runs the job; here the stored candidate is then replaced by
    one that does not compile, and the detail read back is still the run's."""
    tests = [{"args": [x], "expected": y} for x, y in ((3, 6), (4, 5), (0, 0))]
    body = {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": tests,
            "options": {"detail": "tests"}}  # fmt: skip
    job = submit(c, body)
    wait_done(c, job["id"])
    database = sqlite3.connect(service.env["KILN_API_DATABASE"])
    try:
        (stored,) = database.execute(
            "SELECT tests FROM results WHERE job_id = ?", (job["id"],)
        ).fetchone()
        database.execute(
            "UPDATE candidates SET source = 'def f(x):\n    return x +\n' WHERE job_id = ?",
            (job["id"],),
        )
        database.commit()
    finally:
        database.close()
    for _ in range(3):
        [line] = results(c, job["id"], detail="tests").values()
        assert line["tests"] == json.loads(stored)
    assert [t["verdict"] for t in line["tests"]] == ["passed", "wrong answer", "passed"]
    assert line["verdict"] == "wrong answer" and line["fail_test"] == 1

    plain = submit(c, {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": tests})
    wait_done(c, plain["id"])
    refused = c.get(f"/v1/jobs/{plain['id']}/results", params={"detail": "tests"})
    assert refused.status_code == 422 and "options.detail='tests'" in refused.json()["detail"]


def test_per_test_detail_is_bounded(c: httpx.Client) -> None:
    body = {"candidates": [{"source": DOUBLE, "entry": "f"}] * 400, "tests": TESTS * 300,
            "options": {"detail": "tests"}}  # fmt: skip
    answer = c.post("/v1/jobs", json=body)
    assert answer.status_code == 413, answer.text
    assert "400 candidates x 300 tests = 120000" in answer.json()["detail"]
    assert "max_detail_items=100000" in answer.json()["detail"]


def test_server_errors_none_in_the_log(service: ServiceProcess) -> None:
    """Nothing above reached the service as an unhandled exception."""
    log = service.log_path.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]
