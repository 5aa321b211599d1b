"""The neural compiler (neural/): tokens, grammar-constrained decoding, training, Algorithm 2,
the hybrid router, checkpoints. Uses a tiny model that trains in seconds."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.paper import measured_k_99
from compiler import compile_source
from fuzz.generator import generate
from neural.decode import Sample
from neural.grammar import GrammarError, TargetBuilder, parse_tokens
from neural.tokens import BOS, TARGET_INDEX, TARGET_VOCAB, program_to_tokens, tokenize_source
from neural.verify import (
    cpython_outcome,
    cpython_tests,
    k_99,
    p_success,
    verify_samples,
)
from vm import execute
from vm.isa import OPS
from vm.verify import verify

torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parent.parent


def test_import_without_torch() -> None:
    code = (
        "import sys, neural, neural.tokens, neural.grammar, neural.commands, api.cli; "
        "api.cli.build_parser(); assert 'torch' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_target_vocabulary_is_derived_from_the_isa() -> None:
    assert [t[3:] for t in TARGET_VOCAB if t.startswith("op:")] == [op.name for op in OPS]
    assert len(set(TARGET_VOCAB)) == len(TARGET_VOCAB)


def test_identifiers_are_normalised() -> None:
    a = tokenize_source("def f(x: int) -> int:\n    y = x + 1\n    return y\n")
    b = tokenize_source("def g(n: int) -> int:\n    m = n + 1\n    return m\n")
    assert a.tokens == b.tokens and a.names == ["f", "x", "y"]
    assert "int" in a.tokens and "<num>" in a.tokens


@pytest.mark.parametrize("level", range(6))
def test_tokens_round_trip_to_equivalent_bytecode(level: int) -> None:
    for seed in range(8):
        g = generate(seed * 10 + level, size=6, depth=2, complexity=level)
        program = compile_source(g.source)
        names = tokenize_source(g.source).names
        again = parse_tokens(program_to_tokens(program, names), names)
        verify(again)
        for args in g.inputs:
            want = execute(program, g.entry, list(args))
            got = execute(again, g.entry, list(args))
            assert (got.outcome, got.steps) == (want.outcome, want.steps)


def test_grammar_rejects_malformed_tokens() -> None:
    names = ["f"]
    # the signature and function header each token list below shares; the bodies differ
    head = ["<bos>", "<sig>", "ID0", "N0", "N2", "<code>", "<fn>", "N0"]
    verify(parse_tokens([*head, "op:LOADI", "N1", "op:RET", "<endfn>", "<eos>"], names))
    with pytest.raises(GrammarError):  # RET at stack depth 0
        parse_tokens([*head, "op:RET"], names)
    with pytest.raises(GrammarError):  # ADD_I pops 2 from a stack of 1
        parse_tokens([*head, "op:LOADI", "N1", "op:ADD_I"], names)


def test_every_constrained_random_walk_is_verified_bytecode() -> None:
    """Choosing uniformly among the allowed tokens always ends, within the token budget, in a
    program the verifier accepts: the grammar has no dead ends."""
    rng = random.Random(0)
    for _ in range(60):
        builder = TargetBuilder(["a", "b", "c"], max_fn_len=60, max_tokens=400)
        builder.push(BOS)
        while not builder.done:
            allowed = np.flatnonzero(builder.allowed())
            assert len(allowed), "dead end"
            if builder.length + builder.reserve() >= 399:
                builder.push(builder.finishing_token())
            else:
                builder.push(int(rng.choice(list(allowed))))
        assert builder.length <= 400
        verify(builder.program())


# ---- the tiny model --------------------------------------------------------------------------

TINY = """
[data]
seed = 0
n_train = 120
n_val = 16
levels = [0, 1]
size = 3
depth = 1
max_src = 256
max_tgt = 256
[model]
d_model = 32
n_heads = 2
enc_layers = 1
dec_layers = 1
d_ff = 64
[train]
seed = 0
steps = 30
batch_size = 16
lr = 3e-3
warmup = 5
eval_every = 10
device = "cpu"
threads = 1
checkpoint = "{checkpoint}"
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from neural.train import load_config, train

    folder = tmp_path_factory.mktemp("neural")
    config = folder / "tiny.toml"
    config.write_text(TINY.format(checkpoint=folder / "tiny.pt"))
    return train(load_config(config), progress=False, log=lambda *_: None)


def test_training_reduces_the_loss_and_is_reproducible(tiny: Path, tmp_path: Path) -> None:
    from neural.train import load_checkpoint, load_config, train

    history = load_checkpoint(tiny).metrics["history"]
    assert history[-1]["val_loss"] < history[0]["val_loss"] - 0.2
    config = tmp_path / "again.toml"
    config.write_text(TINY.format(checkpoint=tmp_path / "again.pt"))
    again = train(load_config(config), progress=False, log=lambda *_: None)
    a, b = load_checkpoint(tiny).model.state_dict(), load_checkpoint(again).model.state_dict()
    assert all(torch.equal(a[n], b[n]) for n in a)


def test_data_made_in_processes_is_the_data_made_in_one() -> None:
    """make_examples in worker processes (CHUNK programs at a time, taken in order) gives the
    very examples, and skip counts, of one process."""
    from neural.data import CHUNK, DataSpec, make_examples

    spec = DataSpec(seed=3, levels=(0, 1, 2), size=3, depth=1, max_src=120, max_tgt=160)
    n = CHUNK + 40  # past one chunk, and with programs skipped as too long
    one = make_examples(spec, "train", n)
    two = make_examples(spec, "train", n, processes=2)
    assert sum(one.skipped.values()) > 0
    assert [e.seed for e in two.examples] == [e.seed for e in one.examples]
    assert [e.tgt for e in two.examples] == [e.tgt for e in one.examples]
    assert two.skipped == one.skipped


def test_training_stops_at_its_time_budget_and_says_so(tmp_path: Path) -> None:
    """max_seconds (kiln neural train --max-seconds) ends training at the end of a step, with
    an evaluation and a checkpoint as at the last step; the summary records it."""
    import json

    from api.cli import main as kiln
    from neural.train import load_checkpoint

    config = tmp_path / "tiny.toml"
    config.write_text(
        TINY.format(checkpoint=tmp_path / "unused.pt").replace("steps = 30", "steps = 5000")
    )
    out, summary = tmp_path / "budget.pt", tmp_path / "summary.json"
    rc = kiln(
        ["neural", "train", "--config", str(config), "--quiet", "--max-seconds", "0.5",
         "--checkpoint", str(out), "--summary", str(summary)]
    )  # fmt: skip
    assert rc == 0 and out.is_file() and not (tmp_path / "unused.pt").exists()
    metrics = load_checkpoint(out).metrics
    assert metrics["stopped_by_time"] and 0 < metrics["step"] < 5000
    assert metrics["history"][-1]["step"] == metrics["step"]  # evaluated where it stopped
    written = json.loads(summary.read_text())
    assert written["step"] == metrics["step"] and written["steps_planned"] == 5000
    assert written["target_tokens_per_s"] > 0 and written["history"] == metrics["history"]


def test_constrained_decoding_never_emits_malformed_bytecode(tiny: Path) -> None:
    from neural.decode import code_words_tensor, sample_programs
    from neural.train import load_checkpoint

    ckpt = load_checkpoint(tiny)
    sources = [generate(s, size=3, depth=1, complexity=s % 3).source for s in range(3)]
    results = sample_programs(ckpt, sources, 6, temperature=1.5, top_p=1.0, max_len=200)
    samples = [s for r in results for s in r.samples]
    assert len(samples) == 18
    for s in samples:
        assert s.program is not None, s.error
        verify(s.program)
    words = code_words_tensor([s.program for s in samples if s.program is not None], "cpu")
    assert words.shape[0] == sum(
        len(f.code) for s in samples if s.program for f in s.program.functions
    )


def test_checkpoint_for_another_isa_is_a_clear_error(tiny: Path, tmp_path: Path) -> None:
    from neural.train import CheckpointError, load_checkpoint

    blob = torch.load(tiny, weights_only=False)
    blob["isa_hash"] ^= 1
    blob["target_vocab"] = [t for t in blob["target_vocab"] if t != "op:" + OPS[-1].name]
    stale = tmp_path / "stale.pt"
    torch.save(blob, stale)
    with pytest.raises(CheckpointError, match=rf"trained for ISA .*\+{OPS[-1].name}.*retrain"):
        load_checkpoint(stale)


def test_checkpoint_for_this_isa_less_appended_opcodes_and_traps_loads(
    tiny: Path, tmp_path: Path
) -> None:
    """Opcodes and traps go at the end of their tables: a model trained before the last ones
    were appended knows every code it can emit, so it loads (and never emits the new ones)."""
    from neural.train import CheckpointError, load_checkpoint
    from vm.isa import TRAPS, isa_hash

    blob = torch.load(tiny, weights_only=False)
    blob["isa_hash"] = isa_hash(len(OPS) - 1, len(TRAPS) - 1)
    blob["target_vocab"] = [t for t in blob["target_vocab"] if t != "op:" + OPS[-1].name]
    older = tmp_path / "older.pt"
    torch.save(blob, older)
    assert load_checkpoint(older).model is not None
    blob["target_vocab"] = blob["target_vocab"][1:] + blob["target_vocab"][:1]  # ids moved
    torch.save(blob, older)
    with pytest.raises(CheckpointError, match="retrain"):
        load_checkpoint(older)


def test_the_shipped_checkpoint_loads_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from neural import DEFAULT_CHECKPOINT
    from neural.train import load_checkpoint, locate

    monkeypatch.chdir(tmp_path)
    assert not Path(DEFAULT_CHECKPOINT).exists()
    assert load_checkpoint(DEFAULT_CHECKPOINT).model is not None
    assert locate(Path(DEFAULT_CHECKPOINT).with_suffix(".router.json")).exists()


# ---- Algorithm 2 and the router ---------------------------------------------------------------

DOUBLE = "def f(n: int) -> int:\n    return n * 2\n"
SQUARE = "def f(n: int) -> int:\n    return n * n\n"


def _sample_of(source: str, names_source: str = DOUBLE) -> Sample:
    names = tokenize_source(names_source).names
    tokens = program_to_tokens(compile_source(source), names)
    return Sample([TARGET_INDEX[t] for t in tokens], parse_tokens(tokens, names))


def test_a_verified_sample_runs_and_matches_cpython() -> None:
    g = generate(3, size=4, depth=2, complexity=1)
    reference = compile_source(g.source)
    tests = cpython_tests(g.source, g.entry, g.inputs)
    good = _sample_of(g.source, g.source)
    verdicts, best, _, _ = verify_samples([good], reference, g.entry, tests, [])
    assert verdicts[0].verified and best is not None
    for args in g.inputs:
        assert execute(best, g.entry, list(args)).outcome == cpython_outcome(
            g.source, g.entry, args
        )


def test_tests_alone_false_accept_and_differential_testing_rejects() -> None:
    reference = compile_source(DOUBLE)
    tests = [((0,), ("value", "0")), ((2,), ("value", "4"))]  # n * n passes these too
    randoms = [(n,) for n in range(-5, 6)]
    verdicts, best, _, _ = verify_samples(
        [_sample_of(SQUARE), _sample_of(DOUBLE)], reference, "f", tests, randoms
    )
    assert verdicts[0].passed_tests and not verdicts[0].agrees  # a false accept of the tests
    assert verdicts[1].verified
    assert best is not None
    assert [execute(best, "f", [n]).value for n in range(-3, 4)] == [2 * n for n in range(-3, 4)]


def test_estimators() -> None:
    assert k_99(0.1) == pytest.approx(43.7, abs=0.1)  # the paper rounds 4.6 / p to 46
    assert k_99(0.0) == float("inf") and k_99(1.0) == 1.0
    assert float(p_success(0.5, 3)) == pytest.approx(0.875)
    assert measured_k_99([10, 10], [10, 5]) == 5  # pass@4 of 5/10 is 0.976, pass@5 0.996
    assert measured_k_99([10, 10], [10, 0]) is None


def test_router_falls_back_and_is_always_correct(
    tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import neural.decode
    from neural.decode import Samples
    from neural.router import ComplexityClassifier, Router, program_features
    from neural.train import load_checkpoint

    ckpt = load_checkpoint(tiny)
    router = Router(ckpt, k=4)
    # The real tiny model: whichever path, the bytecode computes n * n.
    result = router.compile(SQUARE, "f", inputs=[(3,), (-2,)])
    assert result.neural is not None and result.path in ("neural", "deterministic")
    assert [execute(result.program, "f", [n]).value for n in range(-4, 5)] == [
        n * n for n in range(-4, 5)
    ]
    # Sampling yields only a wrong candidate (it passes the tests): the router falls back.
    monkeypatch.setattr(
        neural.decode, "sample_programs", lambda *a, **k: [Samples(DOUBLE, [_sample_of(SQUARE)])]
    )
    result = router.compile(DOUBLE, "f", inputs=[(0,), (2,)])
    assert result.path == "deterministic" and "fell back" in result.reason
    assert result.program.to_bytes() == compile_source(DOUBLE, "<reference>").to_bytes()
    # A correct and a wrong candidate: the router returns the correct one.
    monkeypatch.setattr(
        neural.decode,
        "sample_programs",
        lambda *a, **k: [Samples(DOUBLE, [_sample_of(SQUARE), _sample_of(DOUBLE)])],
    )
    result = router.compile(DOUBLE, "f", inputs=[(0,), (2,)])
    assert result.path == "neural"
    for n in range(-4, 5):
        assert execute(result.program, "f", [n]).value == 2 * n
    # A program the classifier scores as complex goes straight to the deterministic compiler.
    feats = np.array(
        [program_features(DOUBLE), program_features(generate(1, size=12, depth=3).source)]
    )
    classifier = ComplexityClassifier.fit(feats, [False, True], k=4)
    complex_source = generate(1, size=12, depth=3).source
    routed = Router(ckpt, classifier, threshold=0.5, k=4).compile(
        complex_source, "solve", inputs=[]
    )
    assert routed.path == "deterministic" and routed.neural is None and routed.score >= 0.5


def test_cli_neural_compile(tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    source = tmp_path / "double.py"
    source.write_text(DOUBLE)
    tests = tmp_path / "tests.txt"
    tests.write_text("f(3) == 6\nf(-1)  # CPython says -2\n")
    status = main(
        [
            "neural",
            "compile",
            str(source),
            "-k",
            "4",
            "--tests",
            str(tests),
            "--checkpoint",
            str(tiny),
            "--device",
            "cpu",
        ]
    )
    out = capsys.readouterr().out
    assert "4 samples: 4 well-formed" in out
    assert status == (0 if "best:" in out else 1)
    assert (
        main(["neural", "compile", str(source), "--checkpoint", str(tmp_path / "missing.pt")]) == 2
    )


def test_pipeline_compile_paths(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import neural.decode
    from actors.pipeline import Candidate, Pipeline
    from neural.decode import Samples
    from vm.batch import TestSpec

    tests = [TestSpec((3,), 6), TestSpec((-1,), -2)]
    with pytest.raises(ValueError, match="compile path"):
        Pipeline(backend="cpu", compile_path="magic")
    # Sampling yields only a wrong candidate: hybrid falls back, neural reports no verified one.
    monkeypatch.setattr(
        neural.decode, "sample_programs", lambda *a, **k: [Samples(DOUBLE, [_sample_of(SQUARE)])]
    )
    hybrid = Pipeline(backend="cpu", compile_path="hybrid", checkpoint=str(tiny)).run(
        [Candidate(DOUBLE, "f")], tests
    )
    assert hybrid.results[0].verdict == "passed"
    neural_only = Pipeline(backend="cpu", compile_path="neural", checkpoint=str(tiny)).run(
        [Candidate(DOUBLE, "f")], tests
    )
    assert neural_only.results[0].verdict == "compile error"
    assert "neural compile path" in (neural_only.results[0].diagnostic or "")
    # A verified neural candidate is what the neural path runs.
    monkeypatch.setattr(
        neural.decode, "sample_programs", lambda *a, **k: [Samples(DOUBLE, [_sample_of(DOUBLE)])]
    )
    neural_ok = Pipeline(backend="cpu", compile_path="neural", checkpoint=str(tiny)).run(
        [Candidate(DOUBLE, "f")], tests
    )
    assert neural_ok.results[0].verdict == "passed"


def test_report_paper_runs_end_to_end(tiny: Path, tmp_path: Path) -> None:
    from bench.paper import write_report

    out = write_report(
        str(tiny), str(tmp_path / "PAPER.md"), quick=True, device="cpu", log=lambda *_: None
    )
    text = out.read_text()
    for heading in (
        "p_correct by complexity",
        "k_99",
        "Verification",
        "Table 1",
        "Equation 14",
        "HumanEval",
        "Conclusion",
    ):
        assert f"## {heading}" in text
    assert "| simple | 0, 1 |" in text and "well-formed" in text
    assert (tmp_path / "paper_psuccess.png").stat().st_size > 1000
