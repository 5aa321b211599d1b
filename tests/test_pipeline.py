"""actors.pipeline: verdicts of mixed and adversarial batches, deduplication, bytecode, timings,
independence of batch order and of the backend."""

from __future__ import annotations

import random

import pytest

from actors.pipeline import STAGES, BatchReport, Candidate, Pipeline
from vm.batch import TestSpec
from vm.limits import Limits
from vm.values import FLOAT, INT
from vm.verify import verify_bytes

LIMITS = Limits(fuel=20_000, heap_words=1 << 14, max_call_depth=100)

DOUBLE = "def f(x):\n    return 2 * x\n"
TESTS = [TestSpec((x,), 2 * x) for x in (0, 1, 5, -7, 30)]

# (name, source, verdict, failing test, trap)
MIXED = [
    ("good", DOUBLE, "passed", -1, None),
    ("good annotated", "def f(x: int) -> int:\n    return x + x\n", "passed", -1, None),
    ("wrong at test 1", "def f(x):\n    return x * x\n", "wrong answer", 1, None),
    ("trap at test 0", "def f(x):\n    return 10 // x\n", "trapped", 0, "ZeroDivisionError"),
    (
        "never stops",
        "def f(x):\n    while True:\n        x += 1\n    return x\n",
        "timed out",
        0,
        "FuelExhausted",
    ),
    ("no lambdas", "def f(x):\n    g = lambda y: y\n    return x\n", "compile error", -1, None),
    ("syntax", "def f(x)\n    return x\n", "compile error", -1, None),
    ("leaves 64 bits", "def f(x):\n    return x * 2**62 * 2\n", "needs fallback", 1, "Overflow"),
    ("wrong type", "def f(x):\n    return str(x)\n", "wrong answer", 0, None),
]


def mixed_candidates() -> list[Candidate]:
    return [Candidate(source, "f") for _, source, *_ in MIXED]


def check_mixed(report: BatchReport) -> None:
    for (name, _, verdict, fail_test, trap), result in zip(MIXED, report.results, strict=True):
        assert (result.verdict, result.fail_test, result.trap) == (verdict, fail_test, trap), name
        assert (result.bytecode is not None) == (verdict == "passed"), name
    assert "lambda" in (report.results[5].diagnostic or "")


def outcome(report: BatchReport) -> list[tuple[object, ...]]:
    return [(r.verdict, r.fail_test, r.trap, r.steps, r.bytecode) for r in report.results]


@pytest.fixture(scope="module")
def ref() -> Pipeline:
    return Pipeline("ref", limits=LIMITS)


def test_mixed_batch_verdicts(ref: Pipeline) -> None:
    report = ref.run(mixed_candidates(), TESTS)
    check_mixed(report)
    assert report.counts["passed"] == 2 and report.counts["compile error"] == 2
    assert sum(report.counts.values()) == len(MIXED)


def test_bytecode_candidates(ref: Pipeline) -> None:
    passed = ref.run(mixed_candidates(), TESTS).results[0].bytecode
    assert passed is not None
    program = verify_bytes(passed)  # the verified container round-trips
    assert program.function_index("f") == 0
    broken = bytearray(passed)
    broken[-1] ^= 0xFF
    report = ref.run(
        [
            Candidate(passed, "f"),
            Candidate(bytes(broken), "f"),
            Candidate(b"hello", "f"),
            Candidate(passed, "g"),
        ],
        TESTS,
    )
    assert [r.verdict for r in report.results] == [
        "passed",
        "invalid bytecode",
        "invalid bytecode",
        "invalid bytecode",
    ]
    assert "checksum" in (report.results[1].diagnostic or "")
    assert "bad magic" in (report.results[2].diagnostic or "")
    assert "no function 'g'" in (report.results[3].diagnostic or "")
    assert report.results[0].bytecode == passed


def test_resubmitted_bytecode_gives_the_same_verdicts(ref: Pipeline) -> None:
    wrong = "def f(x: int) -> int:\n    return x * x\n"
    first = ref.run([Candidate(DOUBLE, "f"), Candidate(wrong, "f")], TESTS)
    again = ref.run([Candidate(r.bytecode, "f") for r in first.results if r.bytecode], TESTS)
    assert [r.verdict for r in again.results] == ["passed"]
    assert again.results[0].steps == first.results[0].steps
    # bytecode of any compiled program (here the wrong one, compiled alone) keeps its verdict
    from compiler import compile_source

    data = compile_source(wrong).to_bytes()
    assert ref.run([Candidate(data, "f")], TESTS).results[0].verdict == first.results[1].verdict


def reference_compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the Pipeline hands the reference compiler from now on, in order."""
    import actors.pipeline as pipeline_module

    calls: list[str] = []
    compile_source = pipeline_module.compile_source

    def counted(source: str, *args: object, **kwargs: object) -> object:
        calls.append(source)
        return compile_source(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline_module, "compile_source", counted)
    return calls


def test_later_batches_find_what_earlier_ones_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pipeline keeps its compiled programs (and compile errors) for its later batches: the
    same source in the next batch is not compiled again, and nothing it reports changes."""
    union = "def f(x):\n    y = 1\n    if x > 3:\n        y = 'big'\n    return x\n"  # a union
    error = "def f(x):\n    return {}\n"
    calls = reference_compiles(monkeypatch)
    pipe = Pipeline("ref", limits=LIMITS, compiler="reference")
    batch = [Candidate(DOUBLE, "f"), Candidate(union, "f"), Candidate(error, "f")]
    first = pipe.run(batch, [TESTS, [TestSpec((1,), 1)], TESTS])
    assert len(calls) == 3
    again = pipe.run(batch, [TESTS, [TestSpec((1,), 1)], TESTS])
    assert len(calls) == 3  # none compiled again
    assert [(r.verdict, r.diagnostic, r.bytecode, r.steps) for r in again.results] == [
        (r.verdict, r.diagnostic, r.bytecode, r.steps) for r in first.results
    ]
    assert [r.verdict for r in again.results] == ["passed", "passed", "compile error"]
    assert again.compiles == first.compiles == 3 and again.batched == first.batched == 0
    assert again.results[2] is not first.results[2]  # a verdict is each candidate's own object
    # the batched compiler's programs too: counted as the batched compiler's again
    batched = Pipeline("ref", limits=LIMITS, compiler="batched")
    one = batched.run(batch, [TESTS, [TestSpec((1,), 1)], TESTS])
    two = batched.run(batch, [TESTS, [TestSpec((1,), 1)], TESTS])
    assert one.batched == two.batched >= 1 and one.compiles == two.compiles == 3
    assert [(r.verdict, r.diagnostic, r.bytecode) for r in two.results] == [
        (r.verdict, r.diagnostic, r.bytecode) for r in first.results
    ]


def test_kept_programs_outlast_a_batch_larger_than_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch with more distinct sources than the Pipeline keeps: those an earlier batch
    compiled are taken from what it kept, even when this batch's own compiles push them out of
    the cache before their turn (they once went to the reference compiler instead)."""
    import actors.pipeline as pipeline_module

    monkeypatch.setattr(pipeline_module, "COMPILED_KEPT", 4)
    calls = reference_compiles(monkeypatch)
    batch = [Candidate(DOUBLE + f"# {i}\n", "f") for i in range(10)]
    pipe = Pipeline("ref", limits=LIMITS, compiler="batched")
    first = pipe.run(batch[4:], [TESTS] * 6)  # the last 4 of these are kept
    again = pipe.run(batch, [TESTS] * 10)
    assert calls == []  # every program the batched compiler's, none the reference's
    assert first.batched == 6 and again.batched == again.compiles == 10
    assert [r.verdict for r in again.results] == ["passed"] * 10


def test_identical_sources_compile_once(ref: Pipeline) -> None:
    triple = "def f(x):\n    return 3 * x\n"
    candidates = (
        [Candidate(DOUBLE, "f")] * 5
        + [Candidate(triple, "f")] * 3
        + [Candidate("def f(x):\n    return {}\n", "f")] * 2
    )
    report = ref.run(candidates, TESTS)
    assert report.compiles == 3
    assert [r.verdict for r in report.results] == ["passed"] * 5 + ["wrong answer"] * 3 + [
        "compile error"
    ] * 2
    # the same source typed from different test arguments is a different program
    floats = [TestSpec((1.5,), 3.0)]
    report = ref.run([(DOUBLE, "f"), (DOUBLE, "f")], [TESTS, floats])
    assert report.compiles == 2 and [r.verdict for r in report.results] == ["passed", "passed"]


def test_sources_with_equal_bytecode_share_one_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sources that differ only where the bytecode does not (a comment) are compiled each, but
    their equal containers load into one Program, flattened once, and come back as the
    compiler's own bytes."""
    import vm.build

    flattened: list[object] = []
    real = vm.build.flatten
    monkeypatch.setattr(vm.build, "flatten", lambda p: flattened.append(p) or real(p))
    batch = [Candidate(DOUBLE + f"# sample {i}\n", "f") for i in range(6)]
    pipe = Pipeline("cpu", limits=LIMITS, compiler="batched")
    report = pipe.run(batch, TESTS)
    assert report.compiles == 6 and report.batched == 6
    assert len(flattened) == 1  # one program object in the batch
    assert {r.verdict for r in report.results} == {"passed"}
    assert len({r.bytecode for r in report.results}) == 1
    assert verify_bytes(report.results[0].bytecode).to_bytes() == report.results[0].bytecode


def test_tests_per_candidate_and_per_problem(ref: Pipeline) -> None:
    square = [TestSpec((3,), 9), TestSpec((4,), 16)]
    square_src = "def sq(n):\n    return n * n\n"
    per_candidate = ref.run([(DOUBLE, "f"), (square_src, "sq")], [TESTS, square])
    per_problem = ref.run(
        [(DOUBLE, "f", "double"), (square_src, "sq", "square"), (square_src, "sq", "double")],
        {"double": [TestSpec(("x",), "xx")], "square": square},
    )
    assert [r.verdict for r in per_candidate.results] == ["passed", "passed"]
    assert [r.verdict for r in per_problem.results] == [
        "passed",
        "passed",
        "compile error",
    ]  # "x" * "x"
    with pytest.raises(ValueError, match="no tests for problem"):
        ref.run([(DOUBLE, "f", "other")], {"double": TESTS})
    with pytest.raises(ValueError, match="test lists for"):
        ref.run([(DOUBLE, "f")] * 2, [TESTS])


def test_tests_that_do_not_fit_the_signature_need_the_fallback(ref: Pipeline) -> None:
    mixed_types = [TestSpec((2,), 4), TestSpec(("ab",), "abab")]
    report = ref.run(
        [(DOUBLE, "f"), ("def f(x: int) -> int:\n    return 2 * x\n", "f"), (DOUBLE, "f")],
        [mixed_types, mixed_types, [TestSpec(([],), [])]],
    )
    assert [r.verdict for r in report.results] == ["needs fallback"] * 3
    assert "do not fit" in (report.results[0].diagnostic or "")
    assert "tests' arguments" in (report.results[2].diagnostic or "")


def test_bare_container_annotations_take_element_types_from_the_tests(ref: Pipeline) -> None:
    # HumanEval writes `l: list`; the first test's arguments say list[int].
    source = "def incr(l: list):\n    return [e + 1 for e in l]\n"
    tests = [TestSpec(([1, 2],), [2, 3]), TestSpec(([],), [])]
    (result,) = ref.run([Candidate(source, "incr")], tests).results
    assert result.verdict == "passed", result.diagnostic
    (result,) = ref.run([Candidate(source, "incr")], [TestSpec(([1, 2],), [2, 4])]).results
    assert result.verdict == "wrong answer"
    # An empty list says nothing of its items: a later test types the parameter.
    (result,) = ref.run([Candidate(source, "incr")], tests[::-1]).results
    assert result.verdict == "passed", result.diagnostic


def test_results_do_not_depend_on_batch_order(ref: Pipeline) -> None:
    candidates = mixed_candidates() * 3
    baseline = outcome(ref.run(candidates, TESTS))
    order = list(range(len(candidates)))
    random.Random(7).shuffle(order)
    shuffled = outcome(ref.run([candidates[i] for i in order], TESTS))
    assert [shuffled[order.index(i)] for i in range(len(candidates))] == baseline


def test_timings_present_and_non_negative(ref: Pipeline) -> None:
    report = ref.run(mixed_candidates(), TESTS)
    for stage in STAGES:
        assert report.timings[stage] >= 0.0, stage
    assert report.timings["total"] >= report.timings["compile"] + report.timings["build"]
    assert report.candidates_per_s > 0 and report.steps > 0 and report.items == 7 * len(TESTS)
    assert report.layout is not None and report.layout.items == report.items
    assert "candidates on ref" in report.summary()
    empty = ref.run([], TESTS)
    assert empty.results == [] and empty.timings["total"] >= 0.0


def test_adversarial_batch(ref: Pipeline) -> None:
    sources = {
        "instant": (DOUBLE, "passed", None),
        "infinite loop": (
            "def f(x):\n    n = 0\n    while n >= 0:\n        n = n + 1\n    return n\n",
            "timed out",
            "FuelExhausted",
        ),
        "deep recursion": (
            "def f(x: int) -> int:\n    return f(x + 1) + 1\n",
            "trapped",
            "RecursionError",
        ),
        "allocation bomb": (
            "def f(x):\n    a = [x] * 100000000\n    return len(a)\n",
            "needs fallback",
            "HeapExhausted",
        ),
        "out of range": (
            "def f(x):\n    a = [1, 2, 3]\n    return a[x + 5]\n",
            "trapped",
            "IndexError",
        ),
        "instant too": ("def f(x):\n    return x + x\n", "passed", None),
    }
    names = list(sources) * 2
    report = ref.run([Candidate(sources[n][0], "f") for n in names], TESTS)
    for name, result in zip(names, report.results, strict=True):
        assert (result.verdict, result.trap) == sources[name][1:], name


def test_auto_backend_and_bad_backend() -> None:
    assert Pipeline("auto", limits=LIMITS).backend in ("cpu", "cuda")
    with pytest.raises(ValueError, match="unknown backend"):
        Pipeline("tpu")


def _cpu_verify_available() -> bool:
    from vm import cpu

    return hasattr(cpu, "verify_batch")


@pytest.mark.skipif(not _cpu_verify_available(), reason="vm.cpu.verify_batch is not there yet")
def test_cpu_backend_matches_ref(ref: Pipeline) -> None:
    cpu = Pipeline("cpu", limits=LIMITS, threads=2)
    candidates = mixed_candidates() * 4
    report = cpu.run(candidates, TESTS)
    check_mixed(BatchReport(report.results[: len(MIXED)], "cpu", report.timings, 0, 0))
    assert outcome(report) == outcome(ref.run(candidates, TESTS))


@pytest.mark.gpu
def test_cuda_backend_matches_cpu() -> None:
    candidates = mixed_candidates() * 40
    cuda = Pipeline("cuda", limits=LIMITS).run(candidates, TESTS)
    cpu = Pipeline("cpu", limits=LIMITS).run(candidates, TESTS)
    assert outcome(cuda) == outcome(cpu)
    for stage in STAGES:
        assert cuda.timings[stage] >= 0.0


def _generated_candidates(n: int) -> tuple[list[Candidate], list[list[TestSpec]]]:
    """Generated programs of every level, each with tests from CPython's own results."""
    from fuzz.generator import generate

    cands, tests = [], []
    for seed in range(n):
        prog = generate(seed, size=6, depth=2, complexity=seed % 6)
        namespace: dict[str, object] = {}
        exec(compile(prog.source, "<generated>", "exec"), namespace)
        specs = []
        for args in prog.inputs:
            try:
                specs.append(TestSpec(args, namespace[prog.entry](*args)))  # type: ignore[operator]
            except Exception:
                continue  # an input CPython raises on: not a test here
        if specs:
            cands.append(Candidate(prog.source, prog.entry))
            tests.append(specs)
    return cands, tests


def test_batched_compiler_gives_the_reference_compilers_verdicts_steps_and_bytes() -> None:
    """The Pipeline's default compiler (the batched C one, reference for the rest) changes
    nothing a caller sees: same verdicts, step counts and verified containers."""
    cands, tests = _generated_candidates(120)
    cands += mixed_candidates()
    tests += [TESTS] * len(MIXED)
    batched = Pipeline("cpu", limits=LIMITS).run(cands, tests)
    reference = Pipeline("cpu", limits=LIMITS, compiler="reference").run(cands, tests)
    assert outcome(batched) == outcome(reference)
    assert [r.diagnostic for r in batched.results] == [r.diagnostic for r in reference.results]
    assert reference.batched == 0 and batched.compiles == reference.compiles
    assert batched.batched >= 40, batched.batched  # levels 0-2 at least: all of them
    assert batched.counts.get("passed", 0) >= len(cands) // 2
    with pytest.raises(ValueError, match="unknown compiler"):
        Pipeline("cpu", compiler="fast")


def test_per_test_detail_agrees_with_the_verdicts() -> None:
    """`detail=True`: each test's own verdict, its first failure the candidate's, its steps
    summing to the candidate's; typed by the whole test list (a test alone with `[]` could not
    be typed); candidates that never ran give every test their verdict."""
    cpu = Pipeline("cpu", limits=LIMITS, threads=1)
    candidates = mixed_candidates()
    plain = cpu.run(candidates, TESTS).results
    detailed = cpu.run(candidates, TESTS, detail=True).results
    for before, after in zip(plain, detailed, strict=True):
        assert (before.verdict, before.fail_test, before.trap, before.steps) == (
            after.verdict, after.fail_test, after.trap, after.steps
        )  # fmt: skip
        assert after.tests is not None and [t["test"] for t in after.tests] == list(range(5))
        failing = [t for t in after.tests if t["verdict"] != "passed"]
        if before.verdict in ("compile error", "invalid bytecode"):
            assert {t["verdict"] for t in after.tests} == {before.verdict}
            continue
        assert sum(t["steps"] for t in after.tests) == before.steps
        if failing:
            assert (failing[0]["test"], failing[0]["verdict"]) == (before.fail_test, before.verdict)
        else:
            assert before.passed
    assert plain[0].tests is None
    lengths = [TestSpec(([],), 0), TestSpec(([1, 2],), 2)]
    [result] = cpu.run([Candidate("def f(x):\n    return len(x)\n", "f")], lengths, True).results
    assert result.verdict == "passed" and result.tests is not None
    assert [t["verdict"] for t in result.tests] == ["passed", "passed"]


def test_reference_compiles_in_processes_change_nothing() -> None:
    """`compile_processes`: what the batched compiler leaves to the reference compiler is
    compiled in worker processes (containers loaded here, compile errors as their text): the
    same verdicts, steps, bytes and diagnostics as in this thread; a batch with fewer than
    APART_MIN such sources starts no process."""
    from actors.pipeline import APART_MIN

    cands, tests = _generated_candidates(60)
    cands += mixed_candidates() * 3
    tests += [TESTS] * (3 * len(MIXED))
    # sources only the reference compiler takes (a lambda, a nested def: distinct each)
    for k in range(APART_MIN + 4):
        cands.append(Candidate(f"def f(x):\n    g = lambda y: y + {k}\n    return g(x)\n", "f"))
        cands.append(
            Candidate(f"def f(x):\n    def h(y):\n        return y * {k}\n    return h(x)\n", "f")
        )
        tests += [TESTS, TESTS]
    here = Pipeline("cpu", limits=LIMITS).run(cands, tests)
    apart = Pipeline("cpu", limits=LIMITS, compile_processes=2)
    try:
        report = apart.run(cands, tests)
        assert apart._apart is not None  # the processes did compile
        assert outcome(report) == outcome(here)
        assert [r.diagnostic for r in report.results] == [r.diagnostic for r in here.results]
        assert report.compiles == here.compiles and report.batched == here.batched
    finally:
        apart.close()
    small = Pipeline("cpu", limits=LIMITS, compile_processes=2)
    assert outcome(small.run(mixed_candidates(), TESTS)) == outcome(
        Pipeline("cpu", limits=LIMITS).run(mixed_candidates(), TESTS)
    )
    assert small._apart is None


def test_the_farm_workload_is_distinct_in_bytecode_and_passes() -> None:
    """cluster.workload: every candidate its own program (as most model samples are, so that no
    benchmark of it is flattered by the Pipeline's sharing of equal containers), every one
    passing its problem's tests."""
    from cluster.workload import workload

    candidates, tests = workload(30)
    report = Pipeline("cpu", limits=Limits(fuel=1_000_000), compiler="batched").run(
        candidates, tests
    )
    assert [r.verdict for r in report.results] == ["passed"] * 30
    assert len({r.bytecode for r in report.results}) == 30


@pytest.mark.parametrize(
    "source",
    [
        DOUBLE,
        "def f(x: int) -> int:\n    return x\n",
        "def f(x: list) -> int:\n    return len(x)\n",  # a bare container: not annotated
        "def f(x: dict[str, int], y=(1, 2)):\n    return x\n",
        "def f(\n    x: int,\n) -> int:\n    return x\n",  # the header over lines: parsed whole
        '"""\ndef f(x: int):\n"""\ndef f(x):\n    return x\n',  # one in a string
        "@staticmethod\ndef f(x: int):\n    return x\n",
        "async def f(x: int):\n    return x\n",  # not a FunctionDef: no such function
        "class C:\n    def f(self, x: int):\n        return x\n",
        "def g():\n    def f(x: int):\n        return x\n    return f\n",
        "def f(x: int): return x\n",
        "def f(x: int) -> 'int':\n    return x\n",  # a quote on the line: parsed whole
    ],
)
def test_quick_entry_annotation_agrees_with_the_whole_parse(source: str) -> None:
    from actors.pipeline import entry_annotated

    assert entry_annotated(source, "f", quick=True) == entry_annotated(source, "f")


def test_a_source_that_does_not_parse_is_a_compile_error_whatever_its_tests() -> None:
    """The quick annotation check cannot see that a source does not parse; tests that type no
    argument still give the compiler's syntax error, not the fallback's verdict."""
    broken = "def f(x):\n    return (x\n"
    untypeable = [TestSpec(([],), 0)]
    pipe = Pipeline("cpu", limits=LIMITS, compiler="batched")
    for tests in (TESTS, untypeable):
        (result,) = pipe.run([Candidate(broken, "f")], tests).results
        assert result.verdict == "compile error", result


def test_a_batch_of_repeats_gives_each_candidate_its_own_run_result() -> None:
    """Run works out each distinct (code, entry, argument types, tests) once and spreads it
    over the candidates with arrays: a shuffled batch of repeats, mixing verdicts decided before
    the VM, module code that runs first (and one whose module code fails), the same source under
    other argument types and other tests, must give every candidate what it gets alone."""
    module_ok = "K = [1, 2]\nprint(K)\n\ndef f(x):\n    return 2 * x\n"
    module_fails = "print(1 // 0)\n\ndef f(x):\n    return 2 * x\n"
    floats = [TestSpec((x,), 2 * x) for x in (0.5, 1.5)]
    kinds = [
        *((Candidate(source, "f"), TESTS) for _, source, *_ in MIXED),
        (Candidate(module_ok, "f"), TESTS),
        (Candidate(module_fails, "f"), TESTS),
        (Candidate(DOUBLE, "f"), floats),
        (Candidate(DOUBLE, "f", arg_types=(FLOAT,)), floats),
    ]
    pipeline = Pipeline("cpu", limits=LIMITS)
    alone = [pipeline.run([c], [t]).results[0] for c, t in kinds]
    order = [k for k in range(len(kinds)) for _ in range(3)]
    random.Random(7).shuffle(order)
    report = pipeline.run([kinds[k][0] for k in order], [kinds[k][1] for k in order])
    fields = ("verdict", "fail_test", "trap", "steps", "bytecode", "in_module", "diagnostic")
    for k, got in zip(order, report.results, strict=True):
        assert [getattr(got, f) for f in fields] == [getattr(alone[k], f) for f in fields], k
    # and what it gets alone is the VM's own account: the module's steps once, then the tests'
    from compiler.reference import compile_source
    from vm.run import execute_batch, module_function

    program = compile_source(module_ok, arg_types={"f": [INT]})
    f = program.function_index("f")
    init = module_function(program, f)
    assert init is not None
    module_steps = execute_batch([(program, init, ())], limits=LIMITS)[0].steps
    calls = execute_batch([(program, f, t.args) for t in TESTS], limits=LIMITS)
    ok = alone[len(MIXED)]
    assert ok.verdict == "passed" and not ok.in_module and ok.fail_test == -1
    assert ok.steps == sum(c.steps for c in calls) - (len(TESTS) - 1) * module_steps > 0
    failing = alone[len(MIXED) + 1]
    assert (failing.verdict, failing.trap, failing.fail_test) == (
        "trapped",
        "ZeroDivisionError",
        -1,
    )
    assert failing.in_module and failing.bytecode is None
    assert len({id(r) for r in report.results}) == len(order)  # no two share a result object


def test_argument_types_given_as_a_list_are_taken_as_the_tuple() -> None:
    """Candidate.arg_types is a tuple; a list (easy to pass from Python) once crashed the batch
    with an unhashable key. It now means the same tuple."""
    pipeline = Pipeline("cpu", limits=LIMITS)
    as_list = pipeline.run([Candidate(DOUBLE, "f", arg_types=[INT])], [TESTS]).results[0]
    as_tuple = pipeline.run([Candidate(DOUBLE, "f", arg_types=(INT,))], [TESTS]).results[0]
    assert as_list.verdict == as_tuple.verdict == "passed"
    assert as_list.bytecode == as_tuple.bytecode
