"""`kiln gpu check | prebuild | prebuilt` (registered by `api.cli`): the GPU tooling that needs
no GPU, `vm.gpu_check`'s build-and-budget check and `vm.prebuilt`'s device code built ahead."""

from __future__ import annotations

from typing import Any

from vm import gpu_check, prebuilt


def register(sub: Any) -> None:
    gpu = sub.add_parser("gpu", help="GPU tooling that needs no GPU")
    gpu_sub = gpu.add_subparsers(dest="gpu_command", required=True)
    gpu_check.register(gpu_sub)
    prebuilt.register(gpu_sub)
