"""`kiln eval --report`: pass@k and throughput plots (PNG) of one evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any


def draw(report: Any, ks: Sequence[int], stem: Path) -> list[Path]:
    """Writes `<stem>_passk.png` (pass@k for every k up to the largest asked that fits) and
    `<stem>_throughput.png` (candidates per second and seconds by path); returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = [len(v) for v in _by_problem(report).values()]
    top = min(max(ks), min(counts)) if counts else 1
    curve = report.pass_at_k(list(range(1, top + 1)))
    paths = []

    fig, ax = plt.subplots(figsize=(5, 3.5))
    xs = [int(k.split("@")[1]) for k in curve]
    ax.plot(xs, list(curve.values()), marker="o")
    for k in ks:
        if f"pass@{k}" in curve:
            ax.annotate(f"{curve[f'pass@{k}']:.3f}", (k, curve[f"pass@{k}"]), fontsize=8)
    ax.set_xlabel("k")
    ax.set_ylabel("pass@k (unbiased estimator)")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{len(report.results)} samples, {len(counts)} problems")
    fig.tight_layout()
    paths.append(stem.with_name(stem.name + "_passk.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    n_paths = report.paths
    axes[0].bar(
        ["native", "fallback"],
        [n_paths["native"], n_paths["fallback"]],
        color=["tab:blue", "tab:orange"],
    )
    axes[0].set_ylabel("candidates")
    axes[0].set_title(f"{report.candidates_per_s:,.0f} candidates/s overall")
    stages = {
        "prepare": report.prepare_seconds,
        "native": report.native_seconds,
        "fallback": report.fallback_seconds,
    }
    axes[1].bar(list(stages), list(stages.values()), color=["grey", "tab:blue", "tab:orange"])
    axes[1].set_ylabel("seconds")
    axes[1].set_title(f"{report.elapsed:.2f} s in all")
    fig.tight_layout()
    paths.append(stem.with_name(stem.name + "_throughput.png"))
    fig.savefig(paths[-1], dpi=120)
    plt.close(fig)
    return paths


def _by_problem(report: Any) -> dict[str, list[bool]]:
    out: dict[str, list[bool]] = {}
    for s, r in zip(report.samples, report.results, strict=True):
        out.setdefault(s.task_id, []).append(r.passed)
    return out
