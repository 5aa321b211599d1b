"""Prometheus metrics of the service, in the text exposition format (version 0.0.4).

Counters, gauges and histograms with labels, thread-safe, rendered by GET /metrics. Kept to the
little the service needs rather than a dependency: `prometheus_client` is not installed here.
"""

from __future__ import annotations

import bisect
import math
import threading
from collections.abc import Callable, Sequence

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
JOB_BUCKETS = (0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)

Labels = tuple[tuple[str, str], ...]


def _labels(labels: Labels, extra: Labels = ()) -> str:
    pairs = labels + extra
    if not pairs:
        return ""
    escaped = (f'{k}="{v}"'.replace("\n", "\\n") for k, v in pairs)
    return "{" + ",".join(escaped) + "}"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class _Metric:
    kind = ""

    def __init__(self, name: str, help: str) -> None:
        self.name, self.help = name, help
        self._lock = threading.Lock()

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]

    def render(self) -> list[str]:
        raise NotImplementedError


class Counter(_Metric):
    kind = "counter"

    def __init__(self, name: str, help: str) -> None:
        super().__init__(name, help)
        self._values: dict[Labels, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def render(self) -> list[str]:
        with self._lock:
            items = sorted(self._values.items())
        return [*self.header(), *(f"{self.name}{_labels(k)} {_number(v)}" for k, v in items)]


class Gauge(_Metric):
    """A value read when /metrics is scraped: `read` returns {labels: value}."""

    kind = "gauge"

    def __init__(self, name: str, help: str, read: Callable[[], dict[Labels, float]]) -> None:
        super().__init__(name, help)
        self.read = read

    def render(self) -> list[str]:
        try:
            items = sorted(self.read().items())
        except Exception:  # a metric that cannot be read now is left out, not a failed scrape
            items = []
        return [*self.header(), *(f"{self.name}{_labels(k)} {_number(v)}" for k, v in items)]


class Histogram(_Metric):
    kind = "histogram"

    def __init__(self, name: str, help: str, buckets: Sequence[float]) -> None:
        super().__init__(name, help)
        self.buckets = tuple(buckets)
        self._series: dict[Labels, tuple[list[int], list[float]]] = {}

    def observe(self, value: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            counts, total = self._series.setdefault(key, ([0] * (len(self.buckets) + 1), [0.0]))
            counts[bisect.bisect_left(self.buckets, value)] += 1
            total[0] += value

    def render(self) -> list[str]:
        lines = self.header()
        with self._lock:
            series = sorted((k, (list(c), t[0])) for k, (c, t) in self._series.items())
        for key, (counts, total) in series:
            cumulative = 0
            for bound, n in zip((*self.buckets, math.inf), counts, strict=True):
                cumulative += n
                lines.append(
                    f"{self.name}_bucket{_labels(key, (('le', _number(bound)),))} {cumulative}"
                )
            lines.append(f"{self.name}_sum{_labels(key)} {_number(total)}")
            lines.append(f"{self.name}_count{_labels(key)} {cumulative}")
        return lines


class Metrics:
    """Every metric of one service instance."""

    def __init__(self) -> None:
        self.jobs = Counter(
            "kiln_api_jobs_total", "Jobs by event: accepted, done, cancelled, failed, resumed"
        )
        self.candidates = Counter("kiln_api_candidates_total", "Candidates accepted in jobs")
        self.verdicts = Counter("kiln_api_verdicts_total", "Verdicts stored, by verdict")
        self.requests = Histogram(
            "kiln_api_request_seconds", "Request latency by route and status class", LATENCY_BUCKETS
        )
        self.job_seconds = Histogram(
            "kiln_api_job_seconds", "Time from acceptance to the last verdict of a job", JOB_BUCKETS
        )
        self.gauges: list[Gauge] = []

    def gauge(self, name: str, help: str, read: Callable[[], dict[Labels, float]]) -> None:
        self.gauges.append(Gauge(name, help, read))

    def render(self) -> str:
        metrics: list[_Metric] = [
            self.jobs,
            self.candidates,
            self.verdicts,
            self.requests,
            self.job_seconds,
            *self.gauges,
        ]
        return "\n".join(line for m in metrics for line in m.render()) + "\n"
