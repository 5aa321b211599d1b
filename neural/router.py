"""The hybrid compiler (paper section 5, Algorithm 3): route a program to the neural compiler
when it is likely to succeed, with the deterministic compiler as the fallback, so the result is
always correct.

- `program_features(source)`: equation 13's inputs, from the AST: size (AST nodes, statements),
  nesting depth, loops, functions, calls, and counts of list/str operations.
- `ComplexityClassifier`: logistic regression (numpy, standardised features) trained on whether
  neural compilation verified a candidate within k samples; `score(source)` is the predicted
  chance of failure, the paper's complexity score s.
- `Router.compile(source, entry, tests)`: Algorithm 3. If `s < threshold`, sample k candidates
  and verify them (tests plus differential testing against the deterministic compiler's
  bytecode on random inputs); a verified candidate is returned with path "neural". Otherwise,
  or when none verifies, the deterministic compiler's program is returned with path
  "deterministic". Either way the bytecode is correct on the tests and agrees with the
  reference on the random inputs.
"""

from __future__ import annotations

import ast
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from compiler import compile_source
from vm.container import Program

if TYPE_CHECKING:
    from neural.train import Checkpoint
    from neural.verify import NeuralResult, Test

FEATURE_NAMES = (
    "nodes",
    "statements",
    "depth",
    "loops",
    "functions",
    "calls",
    "branches",
    "subscripts",
    "literals",
    "lines",
)

_LOOPS = (ast.For, ast.While, ast.comprehension)
_BRANCHES = (ast.If, ast.IfExp, ast.BoolOp)


def program_features(source: str) -> np.ndarray:
    """Equation 13's features of a source (FEATURE_NAMES order)."""
    tree = ast.parse(source)
    counts = dict.fromkeys(FEATURE_NAMES, 0.0)

    def visit(node: ast.AST, depth: int) -> None:
        counts["nodes"] += 1
        nested = depth
        if isinstance(node, ast.stmt):
            counts["statements"] += 1
        if isinstance(node, (*_LOOPS, ast.If, ast.FunctionDef, ast.With, ast.Try)):
            nested = depth + 1
            counts["depth"] = max(counts["depth"], nested)
        counts["loops"] += isinstance(node, _LOOPS)
        counts["functions"] += isinstance(node, ast.FunctionDef)
        counts["calls"] += isinstance(node, ast.Call)
        counts["branches"] += isinstance(node, _BRANCHES)
        counts["subscripts"] += isinstance(node, (ast.Subscript, ast.List, ast.ListComp))
        counts["literals"] += isinstance(node, ast.Constant)
        for child in ast.iter_child_nodes(node):
            visit(child, nested)

    visit(tree, 0)
    counts["lines"] = float(len(source.strip().splitlines()))
    return np.array([counts[n] for n in FEATURE_NAMES], dtype=np.float64)


@dataclass
class ComplexityClassifier:
    """P(neural compilation fails within k samples | features), logistic regression."""

    weights: list[float] = field(default_factory=lambda: [0.0] * len(FEATURE_NAMES))
    bias: float = 0.0
    mean: list[float] = field(default_factory=lambda: [0.0] * len(FEATURE_NAMES))
    scale: list[float] = field(default_factory=lambda: [1.0] * len(FEATURE_NAMES))
    k: int = 0  # the k of the labels it was trained on
    trained_on: int = 0

    def _z(self, x: np.ndarray) -> np.ndarray:
        return (np.log1p(x) - np.array(self.mean)) / np.array(self.scale)

    def predict(self, features: np.ndarray) -> np.ndarray:
        """Failure probabilities of rows of features."""
        z = self._z(np.atleast_2d(features)) @ np.array(self.weights) + self.bias
        return 1.0 / (1.0 + np.exp(-z))

    def score(self, source: str) -> float:
        return float(self.predict(program_features(source))[0])

    @classmethod
    def fit(
        cls,
        features: np.ndarray,
        failed: Sequence[bool],
        k: int,
        l2: float = 1e-2,
        steps: int = 2000,
    ) -> ComplexityClassifier:
        x = np.log1p(np.atleast_2d(features))
        y = np.asarray(failed, dtype=np.float64)
        mean, scale = x.mean(0), x.std(0) + 1e-6
        z = (x - mean) / scale
        w, b = np.zeros(z.shape[1]), 0.0
        for _ in range(steps):  # gradient descent on the mean log loss
            p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
            w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w)
            b -= 0.5 * float(np.mean(p - y))
        return cls(w.tolist(), b, mean.tolist(), scale.tolist(), k, len(y))

    @classmethod
    def constant(cls, p_fail: float, k: int) -> ComplexityClassifier:
        """The classifier of training data with one label: the same score for every program."""
        p = min(max(p_fail, 1e-4), 1 - 1e-4)
        return cls(bias=float(np.log(p / (1 - p))), k=k)

    def describe(self) -> str:
        if not any(self.weights):
            p_fail = float(self.predict(np.zeros(len(FEATURE_NAMES)))[0])
            return f"constant (predicted failure {p_fail:.2f})"
        return f"logistic regression on {self.trained_on} programs' features"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> ComplexityClassifier:
        return cls(**json.loads(Path(path).read_text()))


@dataclass
class RouteResult:
    program: Program
    path: str  # "neural" or "deterministic"
    reason: str
    score: float
    routing_seconds: float = 0.0
    neural_seconds: float = 0.0
    deterministic_seconds: float = 0.0
    neural: NeuralResult | None = None

    @property
    def seconds(self) -> float:
        return self.routing_seconds + self.neural_seconds + self.deterministic_seconds


def reference_tests(
    reference: Program, entry: str, inputs: Sequence[Sequence[Any]], backend: str = "cpu"
) -> list[Test]:
    """Tests whose expected outcomes are the deterministic compiler's bytecode's, in the VM."""
    from vm import execute_batch

    runs = execute_batch([(reference, entry, list(a)) for a in inputs], backend=backend, threads=1)
    return [
        (tuple(a), r.outcome) for a, r in zip(inputs, runs, strict=True) if not r.needs_fallback
    ]


@dataclass
class Router:
    """Algorithm 3 with a trained classifier (or none: every program tries the neural path)."""

    checkpoint: Checkpoint | None
    classifier: ComplexityClassifier | None = None
    threshold: float = 0.5
    k: int = 100
    n_random: int = 16
    seed: int = 0
    backend: str = "cpu"
    oracle: str = "cpython"  # or "reference" (see `compile`)
    options: dict[str, Any] = field(default_factory=dict)

    def compile(
        self,
        source: str,
        entry: str,
        tests: Sequence[Test] | None = None,
        inputs: Sequence[Sequence[Any]] | None = None,
        reference: Program | None = None,
    ) -> RouteResult:
        """Algorithm 3 for one program. `tests` as in `neural.verify`; without them, the
        expected outcomes of `inputs` come from CPython (`oracle="cpython"`, for trusted
        sources) or from the deterministic compiler's bytecode in the VM (`oracle="reference"`,
        for untrusted candidates: nothing of theirs runs outside the VM). `reference`: the
        deterministic compiler's program when the caller has it already."""
        from neural.verify import neural_compile

        t0 = time.perf_counter()
        score = self.classifier.score(source) if self.classifier is not None else 0.0
        t1 = time.perf_counter()
        if reference is None:  # the fallback, and the verifier's differential oracle
            reference = compile_source(source, "<reference>")
        if tests is None and self.oracle == "reference" and inputs is not None:
            tests = reference_tests(reference, entry, inputs, self.backend)
        t2 = time.perf_counter()
        result = RouteResult(reference, "deterministic", "", score, t1 - t0, 0.0, t2 - t1)
        if self.checkpoint is None:
            result.reason = "no neural checkpoint"
            return result
        if tests is not None and not tests:
            result.reason = "no tests to verify a neural candidate with"
            return result
        if score >= self.threshold:
            result.reason = f"complexity score {score:.2f} >= threshold {self.threshold:.2f}"
            return result
        neural = neural_compile(
            self.checkpoint,
            source,
            entry,
            tests,
            self.k,
            n_random=self.n_random,
            seed=self.seed,
            backend=self.backend,
            reference=reference,
            inputs=inputs,
            **self.options,
        )
        result.neural = neural
        result.neural_seconds = time.perf_counter() - t2
        if neural.best is None:
            result.reason = f"no neural candidate of {self.k} verified: fell back"
            return result
        result.program, result.path = neural.best, "neural"
        result.reason = f"{neural.n_verified} of {self.k} candidates verified"
        return result


def router_for(path: str, checkpoint: str | None = None) -> Router:
    """The router of a Pipeline compile path: "neural" tries every program, "hybrid" routes by
    the classifier saved beside the checkpoint (`<checkpoint>.router.json`, when there is one).
    Expected outcomes come from the reference bytecode, so candidates never run outside the VM."""
    from neural import DEFAULT_CHECKPOINT
    from neural.train import load_checkpoint, locate, pick_device

    checkpoint = checkpoint or DEFAULT_CHECKPOINT
    ckpt = load_checkpoint(checkpoint, pick_device("auto"))
    classifier = None
    saved = locate(Path(checkpoint).with_suffix(".router.json"))
    if path == "hybrid" and saved.exists():
        classifier = ComplexityClassifier.load(saved)
    return Router(ckpt, classifier, k=classifier.k if classifier else 100, oracle="reference")
