"""Prebuilt device code (vm/prebuilt.py), with no GPU: the shipped cubins match the sources (a
kernel edit without a rebuild fails here, naming the command), keys follow every input, and the
runtime's loaders take a matching artifact and fall back to NVRTC on every kind of miss (CuPy
stood in for by a fake that records what it was handed)."""

from __future__ import annotations

import lzma
import types
import warnings
from pathlib import Path

import pytest

from compiler import cuda as compiler_cuda
from vm import cuda, gpu_check, prebuilt


def test_shipped_artifacts_match_the_sources() -> None:
    problems = prebuilt.drift()
    assert not problems, (
        "the prebuilt device code no longer matches the kernel sources: "
        + "; ".join(problems)
        + f". Rebuild it (about a minute and a half of CPU) with `{prebuilt.REBUILD}` "
        "(`pip install -e '.[test]'` brings NVRTC and ptxas) and commit vm/kernels/prebuilt/"
    )


def test_shipped_artifacts_are_small_cubins_for_their_targets() -> None:
    artifacts = prebuilt.read_manifest()
    assert {(a.module, a.target) for a in artifacts} == {
        (m, t) for m, targets in prebuilt.SHIP.items() for t in targets
    }
    total = 0
    for a in artifacts:
        packed = (prebuilt.SHIPPED / a.file).read_bytes()
        total += len(packed)
        raw = lzma.decompress(packed)
        assert raw[:4] == b"\x7fELF" and len(raw) == a.bytes
        assert a.nvrtc.startswith(f"{prebuilt.CUDA_MAJOR}.")
        assert a.ptxas_options == [f"-arch={a.target}"]  # byte-stable: no --split-compile
    assert total < 1 << 20  # what the repository carries


def test_the_key_covers_text_options_target_and_cuda_version(monkeypatch) -> None:
    base = prebuilt.key("vm", "sm_90")
    assert base == prebuilt.key("vm", "sm_90", cuda.source())
    assert prebuilt.key("vm", "sm_90", cuda.source() + " ") != base
    assert prebuilt.key("vm", "sm_80") != base
    assert prebuilt.key("compiler", "sm_90") != base
    monkeypatch.setattr(prebuilt, "CUDA_MAJOR", prebuilt.CUDA_MAJOR + 1)
    assert prebuilt.key("vm", "sm_90") != base
    monkeypatch.undo()
    monkeypatch.setattr(cuda, "OPTIONS", (*cuda.OPTIONS, "--extra"))
    assert prebuilt.key("vm", "sm_90") != base


def test_the_modules_name_their_entries_once() -> None:
    assert [m.name for m in gpu_check.MODULES] == ["vm", "compiler"]
    assert gpu_check.MODULES[0].entries == cuda.ENTRIES
    assert gpu_check.MODULES[1].entries == compiler_cuda.ENTRIES


def test_targets_a_device_runs() -> None:
    assert prebuilt.targets_for("90") == ["sm_90"]
    assert prebuilt.targets_for("86") == ["sm_86", "sm_80"]


# ---- loading, with a fake CuPy ------------------------------------------------------------------


class _FakeCupy:
    """What prebuilt.load and the modules' loaders call: the device's capability and driver,
    and RawModule, which records what it was given (and may refuse a file)."""

    def __init__(self, capability: str = "90", driver: int = 13000, refuse: bool = False) -> None:
        self.loaded: list[bytes] = []
        self.compiled: list[tuple[str, ...]] = []
        fake = self

        class RawModule:
            def __init__(self, code: str | None = None, path: str | None = None, **options):
                if path is not None:
                    if refuse:
                        raise RuntimeError("CUDA_ERROR_NO_BINARY_FOR_GPU")
                    fake.loaded.append(Path(path).read_bytes())
                    self.origin = "cubin"
                else:
                    fake.compiled.append(tuple(options.get("options", ())))
                    self.origin = "nvrtc"

            def get_function(self, name: str) -> str:
                return name

        self.RawModule = RawModule
        self.cuda = types.SimpleNamespace(
            runtime=types.SimpleNamespace(driverGetVersion=lambda: driver),
            Device=lambda: types.SimpleNamespace(compute_capability=capability),
        )


def _shipped_cubin(target: str) -> bytes:
    path = prebuilt.find("vm", target)
    assert path is not None
    return lzma.decompress(path.read_bytes())


def test_the_vm_loads_its_shipped_cubin(monkeypatch) -> None:
    fake = _FakeCupy("90")
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "_modules", {})
    mod = cuda.module()
    assert mod.origin == "cubin" and fake.loaded == [_shipped_cubin("sm_90")]
    assert prebuilt.last_load["vm"].startswith("prebuilt vm-sm_90-")
    assert cuda.module() is mod and len(fake.loaded) == 1  # once per process


@pytest.mark.parametrize(
    ("fake", "environ", "why"),
    [
        (_FakeCupy("75"), {}, "no prebuilt vm for sm_75"),
        (_FakeCupy("90", driver=12080), {}, "driver CUDA 12"),
        (_FakeCupy("90"), {"prebuilt": False}, "KILN_PREBUILT=0"),
    ],
)
def test_a_miss_compiles_with_nvrtc(monkeypatch, fake, environ, why) -> None:
    # the settings' [runtime] prebuilt, as an edge passes it down (configs.settings.apply)
    monkeypatch.setattr(prebuilt, "_prebuilt", environ.get("prebuilt", True))
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "_modules", {})
    assert cuda.module().origin == "nvrtc" and not fake.loaded
    assert fake.compiled == [cuda.OPTIONS]
    assert why in prebuilt.last_load["vm"]


def test_a_device_of_a_later_minor_version_takes_its_majors_cubin(monkeypatch) -> None:
    fake = _FakeCupy("86")
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "_modules", {})
    assert cuda.module().origin == "cubin" and fake.loaded == [_shipped_cubin("sm_80")]


def test_a_cubin_the_driver_refuses_is_compiled_instead_with_a_warning(monkeypatch) -> None:
    fake = _FakeCupy("90", refuse=True)
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "_modules", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cuda.module().origin == "nvrtc"
    assert any("did not load" in str(w.message) for w in caught)
    assert "refused: CUDA_ERROR_NO_BINARY_FOR_GPU" in prebuilt.last_load["vm"]


def test_edited_sources_miss(monkeypatch) -> None:
    fake = _FakeCupy("90")
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "_modules", {})
    text = cuda.source() + "\n/* edited */\n"
    monkeypatch.setattr(cuda, "source", lambda: text)
    assert cuda.module().origin == "nvrtc"


def test_the_compiler_loads_a_cached_cubin_and_compiles_on_a_miss(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    fake = _FakeCupy("90")
    monkeypatch.setattr(compiler_cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(compiler_cuda, "_modules", {})
    assert compiler_cuda.module().origin == "nvrtc"  # nothing cached: NVRTC
    # what `kiln gpu prebuild --module compiler --cache` leaves (a stand-in cubin: the real one
    # takes NVRTC and its ptxas about 1.5 minutes and 2 GB)
    folder = prebuilt.cache_root()
    assert folder == tmp_path / "device-code"
    digest = prebuilt.key("compiler", "sm_90")
    name = prebuilt.file_name("compiler", "sm_90", digest)
    folder.mkdir()
    packed = lzma.compress(b"\x7fELF stand-in")
    (folder / name).write_bytes(packed)
    import hashlib

    artifact = prebuilt.Artifact(
        "compiler", "sm_90", digest, name, 14, len(packed), hashlib.sha256(packed).hexdigest(),
        "13.0", ["-arch=sm_90", "-Xptxas=--split-compile=0"], 300.0, "2026-11-26",
    )  # fmt: skip
    prebuilt.add(folder, [artifact])
    assert prebuilt.drift(folder) == []
    monkeypatch.setattr(compiler_cuda, "_modules", {})
    assert compiler_cuda.module().origin == "cubin"
    assert fake.loaded == [b"\x7fELF stand-in"]
    assert prebuilt.last_load["compiler"] == f"prebuilt {name}"


def test_the_listing_command_checks_the_shipped_artifacts(capsys, monkeypatch, tmp_path) -> None:
    from api.cli import main

    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    assert main(["gpu", "prebuilt"]) == 0
    out = capsys.readouterr().out
    assert out.count("matches the sources") == sum(len(t) for t in prebuilt.SHIP.values())


def test_the_stack_check_needs_a_cached_compiler_build(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    with pytest.raises(LookupError, match="no cached build of the compiler"):
        compiler_cuda.stack_check("sm_90")


def test_the_kept_ptxas_report_reads_as_standalone_ptxas_prints_it() -> None:
    a = next(a for a in prebuilt.read_manifest() if a.target == "sm_90")
    log = (prebuilt.SHIPPED / f"{a.file}.ptxas.txt").read_text()
    frames = compiler_cuda.ptxas_frames(prebuilt.ptxas_report(log))
    kernels = gpu_check.parse_ptxas(log)
    assert set(cuda.ENTRIES) <= set(frames) and set(cuda.ENTRIES) == set(kernels)
    assert frames["kiln_run_items"] == kernels["kiln_run_items"].stack_frame > 0


@pytest.mark.slow  # NVRTC and its ptxas on the VM: 30-45 s of one core
def test_a_rebuild_gives_the_shipped_bytes(tmp_path) -> None:
    try:
        nvrtc = gpu_check.NVRTC()
    except gpu_check.ToolkitMissing as error:
        pytest.skip(str(error))
    a = next(a for a in prebuilt.read_manifest() if a.target == "sm_90")
    rebuilt = prebuilt.build("vm", "sm_90", tmp_path, nvrtc=nvrtc, keep_ptx=True)
    assert rebuilt.key == a.key and rebuilt.bytes == a.bytes
    assert lzma.decompress((tmp_path / rebuilt.file).read_bytes()) == lzma.decompress(
        (prebuilt.SHIPPED / a.file).read_bytes()
    )
    ptx = lzma.decompress((tmp_path / f"{rebuilt.file}.ptx.xz").read_bytes()).decode()
    assert all(f".entry {e}(" in ptx for e in cuda.ENTRIES)
