"""configs/cluster/: the Ray cluster launcher YAMLs and the KubeRay manifest parse, name the
resources the farm needs (one actor per GPU, each asking num_gpus=1 and num_cpus=1), install
kiln, and docs/DEPLOY.md gives the command that starts each and the one that runs a job on it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / "configs" / "cluster"
DEPLOY = ROOT / "docs" / "DEPLOY.md"
LAUNCHER_FILES = ("ray-single-node.yaml", "ray-multi-node.yaml")


def load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((CLUSTER / name).read_text())
    assert isinstance(data, dict), name
    return data


def gpu_node_types(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: node
        for name, node in config["available_node_types"].items()
        if node.get("resources", {}).get("GPU", 0) > 0
    }


@pytest.mark.parametrize("name", LAUNCHER_FILES)
def test_launcher_yaml_names_gpus_and_a_cpu_per_gpu(name: str) -> None:
    config = load(name)
    for key in ("cluster_name", "provider", "available_node_types", "head_node_type"):
        assert key in config, f"{name}: no {key}"
    assert config["head_node_type"] in config["available_node_types"]
    gpu_types = gpu_node_types(config)
    assert gpu_types, f"{name}: no node type declares a GPU"
    for node in gpu_types.values():
        resources = node["resources"]
        assert resources["CPU"] >= resources["GPU"], "one CPU per GPU actor"
        assert node["node_config"]["InstanceType"]
    setup = " ".join(config["setup_commands"])
    assert "pip install" in setup and "kiln[gpu]" in setup
    assert any("ray start --head" in c for c in config["head_start_ray_commands"])


def test_single_node_is_one_gpu_machine() -> None:
    config = load("ray-single-node.yaml")
    assert config["max_workers"] == 0
    assert list(gpu_node_types(config)) == [config["head_node_type"]]
    gpus = config["available_node_types"][config["head_node_type"]]["resources"]["GPU"]
    assert gpus >= 2, "a multi-GPU node"
    assert any(f"--num-gpus={gpus}" in c for c in config["head_start_ray_commands"])


def test_multi_node_has_a_cpu_head_and_gpu_workers() -> None:
    config = load("ray-multi-node.yaml")
    head = config["available_node_types"][config["head_node_type"]]
    assert head["resources"]["GPU"] == 0, "no worker actor on the head"
    workers = gpu_node_types(config)
    assert workers and config["head_node_type"] not in workers
    for node in workers.values():
        assert 1 <= node["min_workers"] <= node["max_workers"] <= config["max_workers"]
    assert any("ray start --address=" in c for c in config["worker_start_ray_commands"])


def test_kuberay_manifest_declares_gpu_workers() -> None:
    manifest = load("kuberay.yaml")
    assert manifest["apiVersion"] == "ray.io/v1" and manifest["kind"] == "RayCluster"
    spec = manifest["spec"]
    assert spec["headGroupSpec"]["rayStartParams"]["num-gpus"] == "0"
    images = {c["image"] for c in spec["headGroupSpec"]["template"]["spec"]["containers"]}
    for group in spec["workerGroupSpecs"]:
        assert group["minReplicas"] <= group["replicas"] <= group["maxReplicas"]
        (container,) = group["template"]["spec"]["containers"]
        images.add(container["image"])
        limits = container["resources"]["limits"]
        gpus = int(limits["nvidia.com/gpu"])
        assert gpus >= 1
        assert int(group["rayStartParams"]["num-gpus"]) == gpus
        assert int(limits["cpu"]) >= gpus, "one CPU per GPU actor"
    assert len(images) == 1, "head and workers run the same kiln image"
    dockerfile = (CLUSTER / "Dockerfile").read_text()
    assert "kiln[gpu]" in dockerfile
    assert f"-t {images.pop()}" in dockerfile, "the Dockerfile builds the manifest's image"


@pytest.mark.parametrize("name", [*LAUNCHER_FILES, "kuberay.yaml"])
def test_each_file_says_how_to_start_it_and_run_a_job(name: str) -> None:
    text = (CLUSTER / name).read_text()
    start = (
        f"kubectl apply -f configs/cluster/{name}"
        if name == "kuberay.yaml"
        else (f"ray up configs/cluster/{name}")
    )
    docs = DEPLOY.read_text()
    for where in (text, docs):
        assert start in where
        assert "kiln farm check --address auto" in where
        assert re.search(r"kiln eval \S+ .*--address auto", where)
    assert f"configs/cluster/{name}" in docs
