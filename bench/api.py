"""`kiln bench api`: the REST service on loopback, under a bounded load generator.

Starts `kiln serve`'s application in its own process (uvicorn on 127.0.0.1, a temporary SQLite
store, the real farm unless KILN_BENCH_API_EXECUTOR=thread) and measures, with a fixed number
of requests kept in flight by an asyncio httpx client:

- POST /v1/compile: p50/p99 latency one request at a time, then requests/s and latency with
  many in flight (a HumanEval-size function);
- POST /v1/jobs: requests/s and p50/p99 latency of job submission (10 candidates x 5 tests;
  the jobs run on the farm meanwhile, as they would), and jobs/s done: from the first
  submission to the last of those jobs' ends (the service's `kiln_api_jobs_total{event="done"}`);
- GET /v1/jobs/{id}: requests/s and latency of a job's status, many in flight;
- GET /v1/jobs/{id}/results: verdicts/s through the stream, for one job of many small
  candidates, from submission to the last verdict (the farm's speed and the store's, end to
  end), and verdicts/s reading the same results again once the job is done (pages of 10,000).

Each row also gives the CPU per request of the client (this process), of the service's own
process and of every process of its session (the farm's workers and Ray included): the client
shares the machine's cores with the service, so the first says what the client takes from it,
and the others are less moved by the machine's load than wall-clock rates. The first row is the
client's ceiling: the same client against a trivial HTTP server (a fixed answer, asyncio
protocol, its own process), the most requests/s this client can show here.

Prints a table, writes JSON (with the machine) under bench/results/ and a PNG beside it; with
KILN_BENCH_API_BEFORE=path (default: bench/results/api-before.json when there is one) a record
to compare with goes into both (its rows beside these).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from api.process import ServiceProcess
from bench.vm import RESULTS, machine, pyplot

TOKEN = "bench-token"
SOURCE = """def below_zero(operations: list[int]) -> bool:
    balance = 0
    for op in operations:
        balance += op
        if balance < 0:
            return True
    return False
"""
TESTS = [
    {"args": [[]], "expected": False},
    {"args": [[1, 2, -3, 1, 2, -3]], "expected": False},
    {"args": [[1, 2, -4, 5, 6]], "expected": True},
    {"args": [[1, -1, 2, -2, 5, -5, 4, -4]], "expected": False},
    {"args": [[1, -2, 2, -2, 5, -5, 4, -4]], "expected": True},
]


def candidate(k: int) -> dict[str, str]:
    """A distinct candidate (the farm runs identical ones once); every third one is wrong."""
    op = "<" if k % 3 else "<="
    return {"source": SOURCE.replace("balance < 0", f"balance {op} {0 * k}"), "entry": "below_zero"}


def cpu_seconds(session: int | None) -> tuple[float, float]:
    """CPU seconds (user + system) of the process `session` and of every process in its session
    (Linux /proc; 0 elsewhere)."""
    own = everyone = 0.0
    if session is None or not Path("/proc").is_dir():
        return own, everyone
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[3]) != session:  # fields[3]: the session id
            continue
        used = (int(fields[11]) + int(fields[12])) / tick  # utime + stime
        everyone += used
        if int(entry.name) == session:
            own = used
    return own, everyone


# A server that answers every request with the same small JSON at once: the client's ceiling.
TRIVIAL_SERVER = r"""
import asyncio
HEAD = b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 15\r\n\r\n'
ANSWER = HEAD + b'{"status":"ok"}'
class Answer(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport, self.buffer = transport, b""
    def data_received(self, data):
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            head = self.buffer[:end].lower()
            length = 0
            if b"content-length:" in head:
                length = int(head.split(b"content-length:")[1].split(b"\r\n")[0])
            if len(self.buffer) < end + 4 + length:
                return
            self.buffer = self.buffer[end + 4 + length:]
            self.transport.write(ANSWER)
async def main():
    server = await asyncio.get_running_loop().create_server(Answer, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()
asyncio.run(main())
"""


def client_ceiling(requests: int, in_flight: int) -> dict[str, Any]:
    """`load` against TRIVIAL_SERVER in a process of its own: what the client alone can show."""
    server = subprocess.Popen(
        [sys.executable, "-c", TRIVIAL_SERVER], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert server.stdout is not None
        url = f"http://127.0.0.1:{int(server.stdout.readline())}"
        asyncio.run(load(url, "POST", "/trivial", [{"source": SOURCE}] * 50, in_flight))
        row = asyncio.run(
            load(url, "POST", "/trivial", [{"source": SOURCE}] * requests, in_flight, server.pid)
        )
    finally:
        server.kill()
        server.wait()
    row["endpoint"] = "client ceiling"
    return row


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load(
    url: str, method: str, path: str, bodies: list[Any], in_flight: int, server: int | None = None
) -> dict[str, Any]:
    """Sends every body, `in_flight` at a time on as many keep-alive connections; latency of
    each, requests/s over all. A plain HTTP/1.1 client on asyncio streams (requests encoded
    before the clock starts): a general client such as httpx spends about 3 ms of CPU per
    request here, more than the service, and would measure itself on a 2-core machine. With
    `server` (the pid of a process that leads its session): the CPU per request of it and of
    its session."""
    host, port = url.removeprefix("http://").split(":")
    encoded = []
    for body in bodies:
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        encoded.append(head.encode() + payload)
    latencies: list[float] = []
    failures: dict[int, int] = {}
    queue = list(reversed(encoded))

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while queue:
                request = queue.pop()
                start = time.perf_counter()
                writer.write(request)
                status_line = await reader.readline()
                length = None
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    raise SystemExit(f"{method} {path}: an answer without Content-Length")
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - start)
                code = int(status_line.split()[1])
                if code >= 300:
                    failures[code] = failures.get(code, 0) + 1
        finally:
            writer.close()

    used = cpu_seconds(server)
    client = time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    elapsed = time.perf_counter() - start
    client = time.process_time() - client
    after = cpu_seconds(server)
    used = (after[0] - used[0], after[1] - used[1])
    if failures:
        raise SystemExit(f"{method} {path}: unexpected answers {failures}")
    return {
        "endpoint": f"{method} {path}",
        "requests": len(latencies),
        "in_flight": in_flight,
        "requests_per_s": len(latencies) / elapsed,
        "p50_ms": percentile(latencies, 0.5) * 1e3,
        "p99_ms": percentile(latencies, 0.99) * 1e3,
        "mean_ms": statistics.fmean(latencies) * 1e3,
        "client_cpu_ms": client / len(latencies) * 1e3,
        "server_cpu_ms": used[0] / len(latencies) * 1e3,
        "session_cpu_ms": used[1] / len(latencies) * 1e3,
    }


def jobs_done(url: str) -> int:
    """The service's count of jobs done (its Prometheus text)."""
    for line in httpx.get(url + "/metrics").text.splitlines():
        if line.startswith('kiln_api_jobs_total{event="done"}'):
            return int(float(line.split()[-1]))
    return 0


async def submit_and_finish(
    url: str, bodies: list[Any], in_flight: int, server: int | None = None
) -> dict[str, Any]:
    """`load` of POST /v1/jobs, and the jobs/s done: from the first submission until the
    service has ended every job submitted (each job is small: the farm runs it meanwhile)."""
    before = jobs_done(url)
    start = time.perf_counter()
    row = await load(url, "POST", "/v1/jobs", bodies, in_flight, server)
    deadline = time.monotonic() + 600
    while (done := jobs_done(url) - before) < len(bodies):
        if time.monotonic() > deadline:
            raise SystemExit(f"only {done} of {len(bodies)} jobs done after 600 s")
        await asyncio.sleep(0.01)
    finished = time.perf_counter() - start
    return {**row, "all_done_s": finished, "jobs_done_per_s": len(bodies) / finished}


def stream_verdicts(url: str, n: int) -> dict[str, Any]:
    """One job of n candidates: verdicts/s streamed from submission to the last one, then
    verdicts/s reading them again, paginated, once the job is done."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    body = {"candidates": [candidate(k) for k in range(n)], "tests": TESTS}
    with httpx.Client(base_url=url, headers=headers, timeout=httpx.Timeout(60, read=None)) as c:
        start = time.perf_counter()
        job = c.post("/v1/jobs", json=body).json()
        accepted = time.perf_counter() - start
        first = None
        lines = 0
        cursor = ""
        while True:
            # a job that ended before this request came is answered one page at a time (with
            # a Next-Cursor), not streamed: a small job may, on a fast service
            with c.stream(
                "GET", f"/v1/jobs/{job['id']}/results", params={"cursor": cursor}
            ) as response:
                for line in response.iter_lines():
                    if line:
                        lines += 1
                        first = first or time.perf_counter() - start
            if "next-cursor" not in response.headers:
                break
            cursor = response.headers["next-cursor"]
        streamed = time.perf_counter() - start
        if lines != n:
            raise SystemExit(f"the results stream gave {lines} verdicts for {n} candidates")
        start = time.perf_counter()
        cursor, read = "", 0
        while True:
            page = c.get(
                f"/v1/jobs/{job['id']}/results", params={"cursor": cursor, "limit": 10_000}
            )
            read += page.text.count("\n")
            if "next-cursor" not in page.headers:
                break
            cursor = page.headers["next-cursor"]
        paginated = time.perf_counter() - start
    return {
        "candidates": n,
        "tests_per_candidate": len(TESTS),
        "accept_s": accepted,
        "first_verdict_s": first,
        "stream_s": streamed,
        "stream_verdicts_per_s": n / streamed,
        "paginated_read_s": paginated,
        "paginated_verdicts_per_s": read / paginated,
    }


def main(quick: bool = False) -> int:
    executor = os.environ.get("KILN_BENCH_API_EXECUTOR", "farm")
    compiles, submissions, stream_n, in_flight = (
        (200, 100, 2_000, 8) if quick else (2_000, 500, 20_000, 16)
    )
    tmp = Path(tempfile.mkdtemp(prefix="kiln-bench-api-"))
    env = {
        "KILN_API_DATABASE": str(tmp / "jobs.sqlite"),
        "KILN_API_TOKENS": TOKEN,
        "KILN_API_EXECUTOR": executor,
        "KILN_API_MAX_JOBS_IN_FLIGHT": str(10**6),
        "KILN_API_MAX_CANDIDATES_PER_JOB": str(10**6),
        "KILN_API_MAX_BODY_BYTES": str(1 << 30),
    }
    if quick:
        env["KILN_API_FARM_WORKERS"] = "1"
    print(f"starting the service ({executor} executor) ...")
    default = "" if quick else str(RESULTS / "api-before.json")  # sizes differ when quick
    before_path = Path(os.environ.get("KILN_BENCH_API_BEFORE", default))
    before = json.loads(before_path.read_text()) if before_path.is_file() else None
    ceiling = client_ceiling(compiles, in_flight)
    with ServiceProcess(env, log_path=tmp / "service.log") as service:
        assert service.process is not None
        pid = service.process.pid  # it leads its session: Ray's processes are in it too
        workers = httpx.get(service.url + "/readyz").json()["workers"]
        # warm-up: the first compile loads the compiler, the first job the workers' VM
        asyncio.run(load(service.url, "POST", "/v1/compile", [{"source": SOURCE}] * 20, 2))
        stream_verdicts(service.url, 50)

        compile_bodies = [{"source": SOURCE}] * compiles
        rows = [
            # one at a time: the latency of a request the service does not queue
            asyncio.run(load(service.url, "POST", "/v1/compile", compile_bodies, 1, pid)),
            asyncio.run(load(service.url, "POST", "/v1/compile", compile_bodies, in_flight, pid)),
            asyncio.run(
                submit_and_finish(
                    service.url,
                    [{"candidates": [candidate(k) for k in range(10)], "tests": TESTS}]
                    * submissions,
                    in_flight,
                    pid,
                )
            ),
        ]
        job = httpx.post(
            service.url + "/v1/jobs",
            json={"candidates": [candidate(0)], "tests": TESTS},
            headers={"Authorization": f"Bearer {TOKEN}"},
        ).json()
        rows.append(
            asyncio.run(
                load(service.url, "GET", f"/v1/jobs/{job['id']}", [None] * compiles, in_flight, pid)
            )
        )
        rows[-1]["endpoint"] = "GET /v1/jobs/{id}"
        stream = stream_verdicts(service.url, stream_n)

    print(
        f"{'endpoint':<20}{'requests':>9}{'in flight':>10}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
        f"   CPU ms per request: {'client':>7}{'service':>8}{'+ farm':>8}"
    )
    for r in [ceiling, *rows]:
        print(
            f"{r['endpoint']:<20}{r['requests']:>9}{r['in_flight']:>10}{r['requests_per_s']:>9.0f}"
            f"{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}{'':>23}{r['client_cpu_ms']:>7.3f}"
            f"{r['server_cpu_ms']:>8.3f}{r['session_cpu_ms']:>8.3f}"
        )
    if before is not None:
        print(f"before ({before_path.name}, {before.get('date')}):")
        for r in before["rows"]:
            print(
                f"{r['endpoint']:<20}{r['requests']:>9}{r['in_flight']:>10}"
                f"{r['requests_per_s']:>9.0f}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}"
            )
    for r in rows:
        if "jobs_done_per_s" in r:
            print(
                f"{r['endpoint']}: every job done {r['all_done_s']:.2f} s after the first"
                f" submission: {r['jobs_done_per_s']:.0f} jobs/s done"
            )
    print(
        f"results stream: {stream['candidates']} candidates"
        f" x {stream['tests_per_candidate']} tests:"
        f" {stream['stream_verdicts_per_s']:,.0f} verdicts/s end to end"
        f" (first after {stream['first_verdict_s']:.2f} s, all after {stream['stream_s']:.2f} s);"
        f" {stream['paginated_verdicts_per_s']:,.0f} verdicts/s read back once done"
    )

    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "api-quick" if quick else "api"
    out = RESULTS / f"{stem}.json"
    record = {
        "benchmark": "api",
        "quick": quick,
        "machine": machine(),
        "executor": executor,
        "farm_workers": workers,
        "rows": rows,
        "client_ceiling": ceiling,
        "stream": stream,
        "date": time.strftime("%Y-%m-%d"),
        "load_average": list(os.getloadavg()),
    }
    if before is not None:
        record["before"] = {
            "file": before_path.name,
            "date": before.get("date"),
            "rows": before["rows"],
            "stream": before["stream"],
        }
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"wrote {out.relative_to(RESULTS.parent.parent)}")
    plot(record, RESULTS / f"{stem}.png")
    return 0


def plot(record: dict[str, Any], path: Path) -> None:
    """Latency (p50, p99) and throughput of a record of `main`, as a PNG at `path`."""
    plt = pyplot()
    if plt is None:
        return
    rows, stream = record["rows"], record["stream"]
    before = {(r["endpoint"], r["in_flight"]): r for r in record.get("before", {}).get("rows", [])}
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    names = [f"{r['endpoint']}\n{r['in_flight']} in flight" for r in rows]
    x = range(len(rows))
    left.bar([i - 0.2 for i in x], [r["p50_ms"] for r in rows], 0.4, label="p50", color="#c0542b")
    left.bar([i + 0.2 for i in x], [r["p99_ms"] for r in rows], 0.4, label="p99", color="#7a3419")
    if before:
        old = [before.get((r["endpoint"], r["in_flight"])) for r in rows]
        left.scatter(
            [i - 0.2 for i, b in zip(x, old, strict=True) if b],
            [b["p50_ms"] for b in old if b],
            marker="_", s=300, color="black", label=f"before ({record['before']['file']})",
        )  # fmt: skip
        left.set_yscale("log")
    left.set_xticks(list(x), names, fontsize=8)
    left.set_ylabel("latency (ms)")
    left.legend()
    done = [r for r in rows if "jobs_done_per_s" in r]
    labels = [
        *(f"{r['endpoint']}, {r['in_flight']} in flight: requests/s" for r in rows),
        *(f"{r['endpoint']}: jobs/s done" for r in done),
        "results stream: verdicts/s",
    ]
    values = [
        *(r["requests_per_s"] for r in rows),
        *(r["jobs_done_per_s"] for r in done),
        stream["stream_verdicts_per_s"],
    ]
    bars = right.barh(
        labels,
        values,
        color=[*(["#c0542b"] * len(rows)), *(["#7a3419"] * len(done)), "#2b7ac0"],
    )
    right.bar_label(bars, [f"{v:,.0f}" for v in values], fontsize=8, padding=2)
    if before:
        old_rows = [before.get((r["endpoint"], r["in_flight"])) for r in rows]
        old_values = [
            *(b["requests_per_s"] if b else None for b in old_rows),
            *(
                (before.get((r["endpoint"], r["in_flight"])) or {}).get("jobs_done_per_s")
                for r in done
            ),
            record["before"]["stream"]["stream_verdicts_per_s"],
        ]
        right.scatter(
            [v for v in old_values if v],
            [i for i, v in enumerate(old_values) if v],
            marker="|", s=200, color="black", zorder=3, label="before",
        )  # fmt: skip
        right.legend(fontsize=8, loc="lower right")
    right.set_xscale("log")
    right.set_xlim(10, max(values) * 4)
    right.invert_yaxis()
    right.tick_params(axis="y", labelsize=8)
    right.set_xlabel("per second (log scale)")
    m = record["machine"]
    fig.suptitle(
        f"kiln REST service on loopback ({m['cpu']}, {m['cores']} cores,"
        f" {record['executor']}, {record['date']})",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"wrote {path.relative_to(RESULTS.parent.parent)}")
