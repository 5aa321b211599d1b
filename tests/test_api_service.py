"""The REST service against a real uvicorn process on 127.0.0.1, with httpx: the job life cycle,
streaming, pagination, auth, every limit, idempotency, bad input, metrics, and Schemathesis
against the OpenAPI schema with zero server errors.

One server per module, on a temporary SQLite store, with the real farm (an embedded local Ray
cluster, one CPU worker); KILN_TEST_API_EXECUTOR=thread runs the same tests without Ray.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from _service_client import wait_done

from api.process import ServiceProcess
from vm.verify import verify_bytes

EXECUTOR = os.environ.get("KILN_TEST_API_EXECUTOR", "farm")
LIMITS = {
    "KILN_API_MAX_JOBS_IN_FLIGHT": "2",
    "KILN_API_MAX_CANDIDATES_PER_JOB": "50",
    "KILN_API_MAX_CANDIDATES_IN_FLIGHT": "70",
    "KILN_API_MAX_TESTS": "20",
    "KILN_API_MAX_SOURCE_BYTES": "2000",
    "KILN_API_MAX_BODY_BYTES": "200000",
    "KILN_API_MAX_FUEL": "100000000",
}
ALICE, BOB, CAROL, DAVE = "alice-token", "bob-token", "carol-token", "dave-token"

DOUBLE = "def f(x):\n    return 2 * x\n"
IDENTITY = "def f(x):\n    return x\n"
BROKEN = "def f(x):\n    return x +\n"
TESTS = [{"args": [3], "expected": 6}, {"args": [0], "expected": 0}]


def slow(k: int) -> str:
    """A distinct candidate (the farm runs identical ones once) that loops n times (8n
    instructions) and returns n."""
    return (
        "def f(n: int) -> int:\n"
        f"    s = {k}\n"
        "    for i in range(n):\n"
        "        s = (s + i * 7) % 1000003\n"
        "    return n + s - s\n"
    )


def service_env(tmp: Path, **extra: str) -> dict[str, str]:
    return {
        "KILN_API_DATABASE": str(tmp / "jobs.sqlite"),
        "KILN_API_TOKENS": ",".join([ALICE, BOB, CAROL, DAVE]),
        "KILN_API_EXECUTOR": EXECUTOR,
        "KILN_API_FARM_WORKERS": "1",
        "KILN_CPU_THREADS": "1",
        **LIMITS,
        **extra,
    }


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    tmp = tmp_path_factory.mktemp("api")
    with ServiceProcess(service_env(tmp), log_path=tmp / "service.log") as process:
        yield process


def client(service: ServiceProcess, token: str | None = ALICE) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=service.url, headers=headers, timeout=60)


def submit(c: httpx.Client, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = c.post("/v1/jobs", json=body, headers=headers)
    assert response.status_code == 202, response.text
    job: dict[str, Any] = response.json()
    assert response.headers["location"] == f"/v1/jobs/{job['id']}"
    return job


def stream_results(c: httpx.Client, job_id: str) -> list[dict[str, Any]]:
    with c.stream("GET", f"/v1/jobs/{job_id}/results") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in response.iter_lines() if line]


def test_health_readiness_and_docs(service: ServiceProcess) -> None:
    with client(service, None) as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        ready = c.get("/readyz")
        assert ready.status_code == 200 and ready.json()["workers"] >= 1
        assert ready.json()["executor"] == {"farm": "Farm", "thread": "ThreadExecutor"}[EXECUTOR]
        assert c.get("/docs").status_code == 200
        paths = c.get("/openapi.json").json()["paths"]
        assert {"/v1/jobs", "/v1/jobs/{job_id}/results", "/v1/compile", "/v1/run"} <= set(paths)


def test_job_life_cycle(service: ServiceProcess) -> None:
    with client(service) as c:
        compiled = c.post("/v1/compile", json={"source": DOUBLE, "example_args": {"f": [1]}}).json()
        assert compiled["ok"], compiled
        candidates = [
            {"source": DOUBLE, "entry": "f"},
            {"source": IDENTITY, "entry": "f"},
            {"source": BROKEN, "entry": "f"},
            {"bytecode": compiled["bytecode"], "entry": "f"},
        ]
        job = submit(c, {"candidates": candidates, "tests": TESTS})
        assert job["status"] in ("queued", "running") and job["progress"]["total"] == 4
        lines = stream_results(c, job["id"])
        by_index = {line["index"]: line for line in lines}
        assert len(lines) == 4 and sorted(by_index) == [0, 1, 2, 3]
        assert [by_index[i]["verdict"] for i in range(4)] == [
            "passed",
            "wrong answer",
            "compile error",
            "passed",
        ]
        assert by_index[1]["fail_test"] == 0
        assert "syntax error" in by_index[2]["diagnostic"]

        final = c.get(f"/v1/jobs/{job['id']}").json()
        assert final["status"] == "done"
        assert final["progress"] == {"done": 4, "total": 4}
        assert final["counts"] == {"passed": 2, "wrong answer": 1, "compile error": 1}
        assert final["finished_at"] >= final["created_at"] and final["elapsed_s"] >= 0

        kbc = c.get(f"/v1/jobs/{job['id']}/candidates/0/bytecode")
        assert kbc.status_code == 200
        assert kbc.headers["content-type"] == "application/octet-stream"
        verify_bytes(kbc.content)  # a verified container
        ran = c.post(
            "/v1/run",
            json={"bytecode": base64.b64encode(kbc.content).decode(), "entry": "f", "args": [21]},
        )
        assert ran.json()["value"] == 42
        failing = c.get(f"/v1/jobs/{job['id']}/candidates/1/bytecode")
        assert failing.status_code == 404 and "wrong answer" in failing.json()["detail"]
        missing = c.get(f"/v1/jobs/{job['id']}/candidates/9/bytecode")
        assert missing.status_code == 404 and "no candidate 9" in missing.json()["detail"]

        listed = c.get("/v1/jobs").json()
        assert job["id"] in [j["id"] for j in listed["data"]] and listed["count"] >= 1
        assert c.get("/v1/jobs/0123456789abcdef").status_code == 404


def test_results_stream_as_they_arrive(service: ServiceProcess) -> None:
    n = 12  # each about 64M instructions: 0.1-0.3 s on one core
    body = {
        "candidates": [{"source": slow(k), "entry": "f"} for k in range(n)],
        "tests": [{"args": [8_000_000], "expected": 8_000_000}],
        "options": {"batch_size": 1, "fuel": 100_000_000},
    }
    with client(service) as c:
        job = submit(c, body)
        seen: list[dict[str, Any]] = []
        running_when_first = None
        with c.stream("GET", f"/v1/jobs/{job['id']}/results") as response:
            for line in response.iter_lines():
                if not line:
                    continue
                seen.append(json.loads(line))
                if running_when_first is None:
                    running_when_first = c.get(f"/v1/jobs/{job['id']}").json()
        assert sorted(r["index"] for r in seen) == list(range(n))
        assert all(r["verdict"] == "passed" for r in seen)
        assert running_when_first is not None
        # the first verdict came while the job was still running, not after it ended
        assert running_when_first["progress"]["done"] < n
        assert running_when_first["status"] == "running"


def test_results_are_paginated_once_done(service: ServiceProcess) -> None:
    with client(service) as c:
        job = submit(c, {"candidates": [{"source": DOUBLE, "entry": "f"}] * 7, "tests": TESTS})
        wait_done(c, job["id"])
        indices: list[int] = []
        cursor = ""
        pages = 0
        while True:
            page = c.get(f"/v1/jobs/{job['id']}/results", params={"limit": 3, "cursor": cursor})
            assert page.status_code == 200
            lines = [json.loads(x) for x in page.text.splitlines()]
            indices += [line["index"] for line in lines]
            pages += 1
            if "next-cursor" not in page.headers:
                break
            assert len(lines) == 3 and 'rel="next"' in page.headers["link"]
            cursor = page.headers["next-cursor"]
        assert pages == 3 and sorted(indices) == list(range(7))
        bad = c.get(f"/v1/jobs/{job['id']}/results", params={"cursor": "abc"})
        assert bad.status_code == 422 and "cursor" in bad.json()["detail"]


def test_per_test_detail_on_request(service: ServiceProcess) -> None:
    tests = [
        {"args": [3], "expected": 3},
        {"args": [4], "expected": 5},
        {"args": [0], "expected": 0},
    ]
    candidates = [{"source": IDENTITY, "entry": "f"}]
    with client(service) as c:
        job = submit(c, {"candidates": candidates, "tests": tests, "options": {"detail": "tests"}})
        wait_done(c, job["id"])
        plain = c.get(f"/v1/jobs/{job['id']}/results").json()
        assert "tests" not in plain
        line = c.get(f"/v1/jobs/{job['id']}/results", params={"detail": "tests"}).json()
        assert line["verdict"] == "wrong answer" and line["fail_test"] == 1
        assert [t["verdict"] for t in line["tests"]] == ["passed", "wrong answer", "passed"]
        assert sum(t["steps"] for t in line["tests"]) == line["steps"]
        without = submit(c, {"candidates": candidates, "tests": tests})
        wait_done(c, without["id"])
        refused = c.get(f"/v1/jobs/{without['id']}/results", params={"detail": "tests"})
        assert refused.status_code == 422 and "options.detail='tests'" in refused.text


def test_auth(service: ServiceProcess) -> None:
    with client(service) as alice, client(service, BOB) as bob, client(service, None) as nobody:
        job = submit(alice, {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS})
        missing = nobody.get(f"/v1/jobs/{job['id']}")
        assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
        assert "bearer token" in missing.json()["detail"]
        assert nobody.post("/v1/compile", json={"source": DOUBLE}).status_code == 401
        with client(service, "not-a-token") as stranger:
            unknown = stranger.get(f"/v1/jobs/{job['id']}")
            assert unknown.status_code == 401 and "unknown" in unknown.json()["detail"]
        for method, path in [
            ("GET", f"/v1/jobs/{job['id']}"),
            ("GET", f"/v1/jobs/{job['id']}/results"),
            ("GET", f"/v1/jobs/{job['id']}/candidates/0/bytecode"),
            ("DELETE", f"/v1/jobs/{job['id']}"),
        ]:
            answer = bob.request(method, path)
            assert answer.status_code == 403, (method, path, answer.text)
            assert "another token" in answer.json()["detail"]
        assert job["id"] not in [j["id"] for j in bob.get("/v1/jobs").json()["data"]]
        assert wait_done(alice, job["id"])["status"] == "done"  # bob's DELETE did nothing


def test_size_and_count_limits(service: ServiceProcess) -> None:
    one = [{"source": DOUBLE, "entry": "f"}]
    with client(service, DAVE) as c:
        cases = [
            ({"candidates": one * 51, "tests": TESTS}, 413, "max_candidates_per_job=50"),
            ({"candidates": one, "tests": TESTS * 11}, 413, "max_tests=20"),
            (
                {"candidates": [{"source": DOUBLE + "#" * 2000, "entry": "f"}], "tests": TESTS},
                413,
                "max_source_bytes=2000",
            ),
            (
                {"candidates": one, "tests": TESTS, "options": {"fuel": 10**9}},
                422,
                "max_fuel=100000000",
            ),
            (
                {"candidates": one, "tests": [{"args": [1], "expected": 2, "fuel": 10**9}]},
                422,
                "max_fuel=100000000",
            ),
        ]
        for body, code, message in cases:
            answer = c.post("/v1/jobs", json=body)
            assert answer.status_code == code, (message, answer.text)
            assert message in answer.json()["detail"]
        big = c.post("/v1/jobs", content=b"{" + b" " * 200_001 + b"}", headers=_json)
        assert big.status_code == 413 and "max_body_bytes=200000" in big.json()["detail"]
        big_source = c.post("/v1/compile", json={"source": "#" * 2001})
        assert big_source.status_code == 413 and "max_source_bytes=2000" in big_source.text


def test_jobs_and_candidates_in_flight_per_token_and_cancel(service: ServiceProcess) -> None:
    def slow_job(n: int) -> dict[str, Any]:
        return {
            "candidates": [{"source": slow(k), "entry": "f"} for k in range(n)],
            "tests": [{"args": [2_000_000], "expected": 2_000_000}],
            "options": {"batch_size": 1, "fuel": 100_000_000},
        }

    small = {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS}
    with client(service, BOB) as bob, client(service, CAROL) as carol:
        first = submit(bob, slow_job(40))
        too_many = bob.post("/v1/jobs", json=slow_job(40))  # 80 candidates in flight
        assert too_many.status_code == 429, too_many.text
        assert int(too_many.headers["retry-after"]) >= 1
        assert "max_candidates_in_flight=70" in too_many.json()["detail"]
        second = submit(bob, slow_job(20))
        third = bob.post("/v1/jobs", json=small)
        assert third.status_code == 429, third.text
        assert int(third.headers["retry-after"]) >= 1
        assert "max_jobs_in_flight=2" in third.json()["detail"]
        other = submit(carol, small)  # another token has its own allowance
        for job in (first, second):
            cancelled = bob.delete(f"/v1/jobs/{job['id']}")
            assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
            assert bob.get(f"/v1/jobs/{job['id']}").json()["status"] == "cancelled"
            again = bob.delete(f"/v1/jobs/{job['id']}")
            assert again.status_code == 409 and "already finished" in again.json()["detail"]
            lines = stream_results(bob, job["id"])  # ends, with what was stored before the cancel
            assert len(lines) < job["progress"]["total"]
        fourth = submit(bob, small)
        assert wait_done(bob, fourth["id"])["status"] == "done"
        assert wait_done(carol, other["id"])["status"] == "done"


def test_idempotency_key(service: ServiceProcess) -> None:
    body = {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS}
    with client(service) as c:
        before = c.get("/v1/jobs").json()["count"]
        first = submit(c, body, **{"Idempotency-Key": "job-42"})
        again = submit(c, body, **{"Idempotency-Key": "job-42"})
        assert again["id"] == first["id"]
        assert c.get("/v1/jobs").json()["count"] == before + 1
        changed = c.post(
            "/v1/jobs", json={**body, "tests": TESTS[:1]}, headers={"Idempotency-Key": "job-42"}
        )
        assert changed.status_code == 422 and "different request" in changed.json()["detail"]
        with client(service, BOB) as bob:  # keys are per token
            assert submit(bob, body, **{"Idempotency-Key": "job-42"})["id"] != first["id"]


_json = {"Content-Type": "application/json"}


def test_bad_input_is_a_4xx_that_says_what(service: ServiceProcess) -> None:
    broken_kbc = bytearray(base64.b64decode(_compile(service, DOUBLE)))
    broken_kbc[-8] ^= 0xFF  # the CRC no longer matches
    cases: list[tuple[Any, int, str]] = [
        (b'{"candidates": [', 422, "not valid JSON"),
        (b'{"candidates": ["\xff"]}', 400, "UTF-8"),
        (b'{"candidates": [{"source": "\\ud800", "entry": "f"}]}', 400, "lone surrogate"),
        (b'{"candidates": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", 422, "max_json_depth=100"),
        ({"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": []}, 422, "at least 1"),
        ({"candidates": "x", "tests": TESTS}, 422, "candidates"),
        (
            {"candidates": [{"entry": "f"}], "tests": TESTS},
            422,
            "exactly one of source and bytecode",
        ),
        (
            {"candidates": [{"source": DOUBLE, "entry": "f"}]},
            422,
            "exactly one of tests and problem",
        ),
        ({"candidates": [{"source": DOUBLE}], "tests": TESTS}, 422, "no entry"),
        ({"candidates": [{"bytecode": "!!", "entry": "f"}], "tests": TESTS}, 422, "base64"),
        (
            {
                "candidates": [{"bytecode": base64.b64encode(broken_kbc).decode(), "entry": "f"}],
                "tests": TESTS,
            },
            422,
            "fails verification",
        ),
        (
            {"candidates": [{"source": DOUBLE, "entry": "f"}], "problem": "Nope/1"},
            422,
            "unknown problem",
        ),
        ({"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": [{"args": 3}]}, 422, "args"),
        ({"candidates": [{"source": "x\x00", "entry": "f"}], "tests": TESTS}, 422, "NUL"),
        (
            {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS, "extra": 1},
            422,
            "extra",
        ),
    ]
    with client(service, DAVE) as c:
        for body, code, message in cases:
            if isinstance(body, bytes):
                answer = c.post("/v1/jobs", content=body, headers=_json)
            else:
                answer = c.post("/v1/jobs", json=body)
            assert answer.status_code == code, (message, answer.text)
            assert message in answer.json()["detail"], (message, answer.text)
        run = c.post(
            "/v1/run", json={"bytecode": base64.b64encode(broken_kbc).decode(), "entry": "f"}
        )
        assert run.status_code == 422 and "fails verification" in run.json()["detail"]
        assert c.get("/v1/jobs", params={"limit": "many"}).status_code == 422
        for options, message in (
            ({"compile_path": "magic"}, "compile_path"),
            ({"stack_words": 0}, "stack_words"),
        ):
            bad = c.post("/v1/jobs", json={"candidates": [{"source": DOUBLE, "entry": "f"}],
                                           "tests": TESTS, "options": options})  # fmt: skip
            assert bad.status_code == 422 and message in bad.text, bad.text


DEEP = "def f(n: int) -> int:\n    if n == 0:\n        return 0\n    return 1 + f(n - 1)\n"


def test_per_job_limits_and_compile_path(service: ServiceProcess) -> None:
    """Per-job VM limits reach the workers (farm or thread), and the compile path is served."""
    deep_tests = [{"args": [30], "expected": 30}]
    jobs = [
        {"candidates": [{"source": DEEP, "entry": "f"}], "tests": deep_tests,
         "options": {"max_call_depth": 8}},
        {"candidates": [{"source": DEEP, "entry": "f"}], "tests": deep_tests},
        {"candidates": [{"source": DOUBLE, "entry": "f"},
                        {"source": DOUBLE.replace("2 *", "3 *"), "entry": "f"}],
         "tests": TESTS, "options": {"compile_path": "hybrid"}},
    ]  # fmt: skip
    with client(service) as c:
        results = []
        for body in jobs:  # one at a time: the token may have 2 jobs in flight
            job = submit(c, body)
            assert wait_done(c, job["id"], timeout=120)["status"] == "done"
            results.append(stream_results(c, job["id"]))
        [limited], [unlimited], hybrid = results
        assert limited["verdict"] == "trapped" and limited["trap"] == "RecursionError", limited
        assert unlimited["verdict"] == "passed", unlimited
        verdicts = {r["index"]: r["verdict"] for r in hybrid}
        assert verdicts == {0: "passed", 1: "wrong answer"}


def _compile(service: ServiceProcess, source: str) -> str:
    with client(service) as c:
        answer = c.post("/v1/compile", json={"source": source, "example_args": {"f": [1]}}).json()
        assert answer["ok"], answer
        return str(answer["bytecode"])


def test_compile_and_run(service: ServiceProcess) -> None:
    with client(service) as c:
        ok = c.post("/v1/compile", json={"source": DOUBLE, "example_args": {"f": [1]}}).json()
        assert ok["ok"] and ok["diagnostics"] == []
        assert "f(int) -> int" in ok["disassembly"]
        assert ok["functions"] == [
            {"name": "f", "signature": "f(int) -> int", "instructions": 3}
        ] or (ok["functions"][0]["name"] == "f")
        rejected = c.post("/v1/compile", json={"source": "def g() -> int:\n    return {}\n"}).json()
        assert not rejected["ok"] and rejected["bytecode"] is None
        diagnostic = rejected["diagnostics"][0]
        assert diagnostic["kind"] in ("unsupported", "type error") and diagnostic["line"] == 2
        assert diagnostic["text"].startswith("<request>:2:")

        value = c.post("/v1/run", json={"source": slow(1), "entry": "f", "args": [10]}).json()
        assert value["value"] == 10 and value["trap"] is None and value["steps"] > 10
        trap = c.post(
            "/v1/run",
            json={
                "source": "def h(x: int) -> int:\n    return 1 // x\n",
                "entry": "h",
                "args": [0],
            },
        ).json()
        assert trap["trap"] == "ZeroDivisionError" and trap["value"] is None
        fuel = c.post(
            "/v1/run", json={"source": slow(1), "entry": "f", "args": [300_000], "fuel": 1000}
        )
        assert fuel.json()["trap"] == "FuelExhausted"
        arity = c.post("/v1/run", json={"source": DOUBLE, "entry": "f", "args": []})
        assert arity.status_code == 422


def test_metrics(service: ServiceProcess) -> None:
    with client(service) as c:
        job = submit(c, {"candidates": [{"source": DOUBLE, "entry": "f"}], "tests": TESTS})
        wait_done(c, job["id"])
        text = c.get("/metrics").text
    assert 'kiln_api_jobs_total{event="accepted"}' in text
    assert 'kiln_api_verdicts_total{verdict="passed"}' in text
    assert "kiln_api_candidates_total" in text
    assert (
        'kiln_api_request_seconds_bucket{le="+Inf",route="POST /v1/jobs",status="2xx"}' in text
        or ('route="POST /v1/jobs"' in text and "kiln_api_request_seconds_bucket" in text)
    )
    assert "kiln_api_job_seconds_count" in text
    assert 'kiln_farm_workers{healthy="true"}' in text


def test_schemathesis_finds_no_server_error(service: ServiceProcess) -> None:
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_url(f"{service.url}/openapi.json")
    server_errors: list[str] = []
    calls = 0
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=int(os.environ.get("KILN_TEST_SCHEMATHESIS_EXAMPLES", "12")),
                deadline=None,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def run(case: Any) -> None:
                nonlocal calls
                calls += 1
                headers = {**(case.headers or {}), "Authorization": f"Bearer {CAROL}"}
                response = case.call(base_url=service.url, headers=headers, timeout=60)
                if response.status_code >= 500:
                    server_errors.append(
                        f"{case.method} {case.formatted_path}: {response.status_code}"
                        f" {response.text[:200]}"
                    )

            try:
                run()
            except Unsatisfiable:  # no invalid request exists for this operation (GET /healthz)
                assert mode == GenerationMode.NEGATIVE
    assert calls > 100
    assert server_errors == [], "\n".join(server_errors[:10]) + "\n" + service.log()


def test_dataset_problem_id(service: ServiceProcess) -> None:
    from api.problems import lookup_problem
    from evaluation.datasets import load_problems

    problem = load_problems("humaneval")["HumanEval/0"]
    completions = [problem.canonical_solution, "    return False\n", "    return numbers[\n"]
    with client(service) as c:
        job = submit(
            c,
            {
                "candidates": [{"source": s} for s in completions],
                "problem": "HumanEval/0",
                "options": {"detail": "tests"},
            },
        )
        lines = sorted(stream_results(c, job["id"]), key=lambda line: line["index"])
        assert [line["verdict"] for line in lines] == ["passed", "wrong answer", "compile error"]
        detail = c.get(f"/v1/jobs/{job['id']}/results", params={"detail": "tests"}).text
        first = next(json.loads(x) for x in detail.splitlines() if '"index": 0' in x)
        assert len(first["tests"]) == len(lookup_problem("HumanEval/0").tests)  # type: ignore[union-attr]
        assert {t["verdict"] for t in first["tests"]} == {"passed"}


def test_dataset_problems_choice(service: ServiceProcess) -> None:
    from evaluation.datasets import load_problems

    problem = load_problems("mbpp")["Mbpp/1"]
    sources = [problem.canonical_solution, "def min_cost(cost, m, n):\n    return 0\n"]
    with client(service) as c:
        for task_id in ("Mbpp/1", "1"):  # kiln eval's spellings
            job = submit(
                c,
                {
                    "candidates": [{"source": s} for s in sources],
                    "problem": task_id,
                    "problems": "mbpp",
                },
            )
            lines = sorted(stream_results(c, job["id"]), key=lambda line: line["index"])
            assert [line["verdict"] for line in lines] == ["passed", "wrong answer"]
        bad = {"candidates": [{"source": sources[0]}], "problem": "Mbpp/1"}
        response = c.post("/v1/jobs", json=bad)  # HumanEval has no Mbpp/1
        assert response.status_code == 422
        assert "unknown problem 'Mbpp/1' in humaneval" in response.text
        response = c.post("/v1/jobs", json={**bad, "problems": "nope"})
        assert response.status_code == 422 and "unknown dataset 'nope'" in response.text


def test_kiln_submit_writes_every_verdict(service: ServiceProcess, tmp_path: Path) -> None:
    from api.cli import main

    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(
        "\n".join(json.dumps({"source": s, "entry": "f"}) for s in (DOUBLE, IDENTITY, DOUBLE))
    )
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps(TESTS))
    output = tmp_path / "out.jsonl"
    argv = ["submit", str(candidates), "--tests", str(tests), "-o", str(output)]
    code = main([*argv, "--url", service.url, "--token", ALICE, "--quiet"])
    assert code == 0
    lines = [json.loads(line) for line in output.read_text().splitlines()]
    assert sorted((r["index"], r["verdict"]) for r in lines) == [
        (0, "passed"),
        (1, "wrong answer"),
        (2, "passed"),
    ]
    assert main([*argv, "--url", service.url, "--token", "wrong", "--quiet"]) == 2


def test_kiln_serve_makes_a_token_when_none_is_configured(tmp_path: Path) -> None:
    import subprocess
    import sys

    from api.process import ROOT, free_port

    port = free_port()
    env = {
        **os.environ,
        "KILN_API_DATABASE": str(tmp_path / "jobs.sqlite"),
        "KILN_API_TOKENS": "",
    }
    command = [
        sys.executable,
        "-m",
        "api.cli",
        "serve",
        "--port",
        str(port),
        "--executor",
        "thread",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert "the token of this run: " in first, first
        token = first.rsplit(" ", 1)[1].strip()
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(url + "/readyz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        headers = {"Authorization": f"Bearer {token}"}
        assert httpx.get(url + "/v1/jobs", headers=headers).json() == {"data": [], "count": 0}
        assert httpx.get(url + "/v1/jobs").status_code == 401
    finally:
        process.terminate()
        process.wait(30)


def test_compile_answers_alike_on_the_event_loop_and_in_the_thread_pool() -> None:
    """/v1/compile compiles a small source on the event loop, a large one in the thread pool:
    the same answer either way (no server needed: the route is called as FastAPI calls it)."""
    import asyncio
    from types import SimpleNamespace

    from api.models import CompilePublic, CompileRequest
    from api.routes.programs import INLINE_SOURCE_CHARS, compile_program
    from configs.settings import load_settings

    # the route reads the settings through its caller (`Caller.service`)
    caller = SimpleNamespace(service=SimpleNamespace(settings=load_settings()))

    def answer(body: CompileRequest) -> CompilePublic:
        response = asyncio.run(compile_program(body, caller))  # type: ignore[arg-type]
        return CompilePublic.model_validate_json(bytes(response.body))

    sources = [DOUBLE, DOUBLE + "# " + "x" * INLINE_SOURCE_CHARS + "\n"]
    assert len(sources[0]) <= INLINE_SOURCE_CHARS < len(sources[1])
    small, large = (answer(CompileRequest(source=s, example_args={"f": [1]})) for s in sources)
    assert small.ok and large.ok and small.bytecode == large.bytecode
    bad = "def g() -> int:\n    return {}\n"
    wrong = [answer(CompileRequest(source=s)) for s in (bad, bad + "#" * INLINE_SOURCE_CHARS)]
    assert [w.ok for w in wrong] == [False, False]
    assert wrong[0].diagnostics == wrong[1].diagnostics
