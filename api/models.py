"""The service's request and response models, one family per resource (JobCreate, JobPublic,
JobsPublic{data, count}; CompileRequest, CompilePublic; RunRequest, RunPublic)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.problems import DEFAULT_DATASET, dataset_names

Status = Literal["queued", "running", "done", "cancelled", "failed"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SourceOrBytecode(Strict):
    """A program given one way: kiln Python source, or a `.kbc` container in base64."""

    source: str | None = None
    bytecode: str | None = Field(default=None, description="a .kbc container, base64")

    @model_validator(mode="after")
    def one_kind(self) -> SourceOrBytecode:
        if (self.source is None) == (self.bytecode is None):
            raise ValueError("give exactly one of source and bytecode")
        return self


class TestIn(Strict):
    """One test: the entry function's arguments and the value it must return."""

    __test__ = False  # not a pytest class

    args: list[Any] = Field(description="the arguments, as JSON (a JSON list is a Python list)")
    expected: Any = Field(description="the value the call must return (Python `==`)")
    rel_tol: float | None = Field(
        default=None, ge=0, description="compare a float result with math.isclose"
    )
    abs_tol: float | None = Field(default=None, ge=0)
    fuel: int | None = Field(default=None, ge=1, description="instructions this test may run")


class CandidateIn(SourceOrBytecode):
    """A kiln Python source, or a `.kbc` container in base64; and the function the tests call."""

    entry: str | None = Field(
        default=None,
        min_length=1,
        max_length=255,
        description="the function the tests call (default: the problem's)",
    )


class JobOptions(Strict):
    fuel: int | None = Field(
        default=None,
        ge=1,
        description="instructions one test may run (default: the farm's [vm] fuel)",
    )
    stack_words: int | None = Field(
        default=None, ge=1, description="value-stack slots (farms that take per-job limits)"
    )
    heap_words: int | None = Field(
        default=None, ge=1, description="heap arena words (farms that take per-job limits)"
    )
    max_call_depth: int | None = Field(
        default=None, ge=1, description="nested calls (farms that take per-job limits)"
    )
    compile_path: Literal["deterministic", "neural", "hybrid"] = Field(
        default="deterministic",
        description=(
            "deterministic: the compiler; neural: the model's samples, verified against the"
            " compiler's bytecode (none verified is a compile error); hybrid: Algorithm 3, the"
            " router's choice with the compiler as the fallback (docs/NEURAL.md)"
        ),
    )
    batch_size: int | None = Field(
        default=None, ge=1, le=1_000_000, description="candidates per farm batch"
    )
    detail: Literal["tests"] | None = Field(
        default=None,
        description=(
            '"tests": the workers also record each test\'s own verdict, trap and steps, which'
            " GET /v1/jobs/{id}/results?detail=tests returns (each candidate the VM runs is run"
            " once more per test; candidates x tests at most [api] max_detail_items)"
        ),
    )


class JobCreate(Strict):
    candidates: list[CandidateIn] = Field(min_length=1)
    tests: list[TestIn] | None = Field(
        default=None, min_length=1, description="explicit tests (or give problem)"
    )
    problem: str | None = Field(
        default=None, description='a dataset problem id, e.g. "HumanEval/0" or "Mbpp/2"'
    )
    problems: str = Field(
        default=DEFAULT_DATASET,
        max_length=64,
        description="the built-in dataset `problem` is from, as `kiln eval --problems` takes it"
        " (humaneval, mbpp, mbpp-sanitized; `kiln datasets`)",
    )
    options: JobOptions = Field(default_factory=lambda: JobOptions())

    @model_validator(mode="after")
    def one_test_source(self) -> JobCreate:
        if (self.tests is None) == (self.problem is None):
            raise ValueError("give exactly one of tests and problem")
        if self.problems not in dataset_names():
            known = ", ".join(dataset_names()) or "none installed"
            raise ValueError(f"problems: unknown dataset {self.problems!r} (built in: {known})")
        return self


class Progress(BaseModel):
    done: int
    total: int


class JobPublic(BaseModel):
    id: str
    status: Status
    progress: Progress
    counts: dict[str, int] = Field(description="candidates by verdict so far")
    created_at: float = Field(description="Unix time")
    started_at: float | None
    finished_at: float | None
    elapsed_s: float | None = Field(description="from acceptance to the end, or to now")
    error: str | None = None


class JobsPublic(BaseModel):
    data: list[JobPublic]
    count: int


class ResultPublic(BaseModel):
    """One line of GET /v1/jobs/{id}/results (NDJSON)."""

    index: int
    verdict: str
    fail_test: int
    trap: str | None
    steps: int
    diagnostic: str | None
    path: str
    cursor: str = Field(description="resume the stream after this line with ?cursor=")
    tests: list[dict[str, Any]] | None = Field(
        default=None, description="per-test detail (?detail=tests)"
    )


class Diagnostic(BaseModel):
    line: int
    col: int
    kind: str
    message: str
    text: str


class CompileRequest(Strict):
    source: str
    filename: str = Field(default="<request>", max_length=255)
    example_args: dict[str, list[Any]] = Field(
        default_factory=dict,
        description="example arguments per unannotated function: their types type it",
    )
    optimize: bool = Field(default=True, description="false: no optimisation pass (-O0)")


class FunctionPublic(BaseModel):
    name: str
    signature: str
    instructions: int


class CompilePublic(BaseModel):
    ok: bool
    diagnostics: list[Diagnostic]
    bytecode: str | None = Field(default=None, description="the .kbc container, base64")
    disassembly: str | None = None
    functions: list[FunctionPublic] = Field(default_factory=list)


class RunRequest(SourceOrBytecode):
    entry: str = Field(min_length=1, max_length=255)
    args: list[Any] = Field(default_factory=list)
    fuel: int | None = Field(default=None, ge=1)


class RunPublic(BaseModel):
    value: Any = Field(
        description="the returned value as JSON (null for a trap or a float JSON cannot hold)"
    )
    repr: str | None = Field(description="Python's repr of the value")
    trap: str | None
    steps: int
    elapsed_ms: float


class Message(BaseModel):
    detail: str
