"""Training: `kiln neural train --config configs/neural-small.toml`.

Seeded and reproducible on one device (the data are a pure function of the config, torch is
seeded and set to deterministic algorithms); shows progress, logs the loss and the validation
accuracy (per token and per whole program, teacher-forced) to the console and to
`<checkpoint>.log.jsonl`, and saves a checkpoint that records the ISA it was trained for:
`vm.isa.isa_hash()` and the target vocabulary derived from the ISA. `load_checkpoint` refuses a
checkpoint made for another ISA with a clear error.

A config file has three tables, each key optional:

    [data]   seed, n_train, n_val, levels, size, depth, max_src, max_tgt  (neural.data.DataSpec)
    [model]  d_model, n_heads, enc_layers, dec_layers, d_ff, dropout      (neural.model.ModelConfig)
    [train]  seed, steps, batch_size, lr, warmup, weight_decay, eval_every, device, threads,
             checkpoint
"""

from __future__ import annotations

import json
import math
import time
import tomllib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from neural.data import DataSpec, Example, make_examples, source_key
from neural.tokens import PAD, TARGET_INDEX, TARGET_VOCAB, SourceVocab
from vm.isa import isa_extends, isa_hash

if TYPE_CHECKING:
    import torch

    from neural.model import Seq2Seq


DEFAULT_CONFIG = "configs/neural-small.toml"


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: another ISA, or not a kiln neural checkpoint."""


@dataclass(frozen=True)
class TrainSpec:
    seed: int = 0
    steps: int = 2000
    batch_size: int = 32
    lr: float = 1e-3
    warmup: int = 100
    weight_decay: float = 0.01
    eval_every: int = 200
    device: str = "auto"
    threads: int = 1
    checkpoint: str = "neural/checkpoints/model.pt"
    # seconds of training (data excluded) after which it stops at the end of a step, evaluates and
    # saves, as at the last step (0: none): a run that must fit a device's loan
    max_seconds: float = 0.0
    data_processes: int = 1  # processes making the data (0: one per core; the same data)


@dataclass(frozen=True)
class Config:
    data: DataSpec = field(default_factory=DataSpec)
    model: dict[str, Any] = field(default_factory=dict)  # ModelConfig fields but the vocabularies
    train: TrainSpec = field(default_factory=TrainSpec)
    path: str = ""


def _take(cls: type, table: dict[str, Any], where: str) -> dict[str, Any]:
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(
            f"{where}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    return table


def load_config(path: str | Path) -> Config:
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: {e}") from None
    from neural.model import ModelConfig  # noqa: PLC0415  (torch only once a config is used)

    data = _take(DataSpec, raw.get("data", {}), f"{path} [data]")
    if "levels" in data:
        data["levels"] = tuple(data["levels"])
    model = _take(ModelConfig, raw.get("model", {}), f"{path} [model]")
    train = _take(TrainSpec, raw.get("train", {}), f"{path} [train]")
    return Config(DataSpec(**data), model, TrainSpec(**train), str(path))


def pick_device(name: str) -> str:
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


# ---- batches -----------------------------------------------------------------------------------


def encode_sources(
    vocab: SourceVocab, examples: list[list[str]], device: str
) -> tuple[torch.Tensor, torch.Tensor]:
    import torch

    S = max(len(toks) for toks in examples)
    src = torch.full((len(examples), S), PAD, dtype=torch.long)
    for i, toks in enumerate(examples):
        src[i, : len(toks)] = torch.tensor(vocab.ids(toks))
    src = src.to(device)
    return src, src == PAD  # (B, S), (B, S)


def batch_tensors(
    vocab: SourceVocab, batch: list[Example], device: str
) -> tuple[torch.Tensor, ...]:
    import torch

    src, src_pad = encode_sources(vocab, [ex.src for ex in batch], device)
    T = max(len(ex.tgt) for ex in batch) - 1
    tgt_in = torch.full((len(batch), T), PAD, dtype=torch.long)
    tgt_out = torch.full((len(batch), T), PAD, dtype=torch.long)
    for i, ex in enumerate(batch):
        ids = torch.tensor([TARGET_INDEX[t] for t in ex.tgt])
        tgt_in[i, : len(ids) - 1] = ids[:-1]
        tgt_out[i, : len(ids) - 1] = ids[1:]
    return src, src_pad, tgt_in.to(device), tgt_out.to(device)


# ---- checkpoints -------------------------------------------------------------------------------


@dataclass
class Checkpoint:
    model: Seq2Seq
    src_vocab: SourceVocab
    config: dict[str, Any]
    metrics: dict[str, Any]
    path: str = ""
    train_keys: frozenset[str] = frozenset()  # neural.data.source_key of each training program


def save_checkpoint(
    path: Path,
    model: Seq2Seq,
    vocab: SourceVocab,
    config: Config,
    metrics: dict[str, Any],
    train_keys: list[str],
) -> None:
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    state = {
        k: v.detach().to("cpu", copy=True).half() if v.is_floating_point() else v.cpu()
        for k, v in model.state_dict().items()
    }
    torch.save(
        {
            "kind": "kiln-neural",
            "isa_hash": isa_hash(),
            "target_vocab": TARGET_VOCAB,
            "source_vocab": vocab.tokens,
            "model_config": model.cfg.to_dict(),
            "config": {
                "data": asdict(config.data),
                "model": config.model,
                "train": asdict(config.train),
                "path": config.path,
            },
            "metrics": metrics,
            "train_keys": train_keys,
            "state_dict": state,
        },
        path,
    )


def _compatible(trained_isa: int, trained_vocab: list[str]) -> bool:
    """Whether a model trained for ISA `trained_isa` with `trained_vocab` runs on this kiln: the
    same ISA, or one with opcodes and traps appended since (`vm.isa.isa_extends`), whose target
    vocabulary keeps every token id the model knows (new opcodes' tokens come last; the model
    never emits them until it is retrained)."""
    if trained_isa == isa_hash():
        return trained_vocab == TARGET_VOCAB
    return isa_extends(trained_isa) and TARGET_VOCAB[: len(trained_vocab)] == trained_vocab


def locate(path: Path) -> Path:
    """`path` as given, or, when it is relative and not there, under the directory kiln is
    installed in: the shipped `neural/checkpoints/small.pt` is package data, found from any
    working directory."""
    if path.is_absolute() or path.exists():
        return path
    installed = Path(__file__).resolve().parent.parent / path
    return installed if installed.exists() else path


def load_checkpoint(path: str | Path, device: str = "cpu") -> Checkpoint:
    """Load a checkpoint for this kiln's ISA; CheckpointError says why one cannot be used."""
    import torch

    from neural.model import ModelConfig, Seq2Seq

    try:
        blob = torch.load(locate(Path(path)), map_location="cpu", weights_only=False)
    except FileNotFoundError:
        raise CheckpointError(
            f"{path}: no such checkpoint "
            "(train one: kiln neural train --config configs/neural-small.toml)"
        ) from None
    except Exception as e:  # noqa: BLE001 - torch raises many kinds for a bad file
        raise CheckpointError(
            f"{path}: not a readable checkpoint ({type(e).__name__}: {e})"
        ) from None
    if not isinstance(blob, dict) or blob.get("kind") != "kiln-neural":
        raise CheckpointError(f"{path}: not a kiln neural checkpoint")
    if not _compatible(blob["isa_hash"], blob["target_vocab"]):
        ops_then = {t[3:] for t in blob["target_vocab"] if t.startswith("op:")}
        ops_now = {t[3:] for t in TARGET_VOCAB if t.startswith("op:")}
        change = ", ".join(
            [f"+{o}" for o in sorted(ops_now - ops_then)]
            + [f"-{o}" for o in sorted(ops_then - ops_now)]
        )
        raise CheckpointError(
            f"{path} was trained for ISA 0x{blob['isa_hash']:08x}, "
            f"this kiln has ISA 0x{isa_hash():08x}"
            f"{' (opcodes ' + change + ')' if change else ''}: retrain it with "
            f"kiln neural train --config {blob['config'].get('path') or DEFAULT_CONFIG}"
        )
    model = Seq2Seq(ModelConfig(**blob["model_config"]))
    model.load_state_dict(
        {k: v.float() if v.is_floating_point() else v for k, v in blob["state_dict"].items()}
    )
    model.to(device).eval()
    return Checkpoint(
        model,
        SourceVocab(blob["source_vocab"]),
        blob["config"],
        blob["metrics"],
        str(path),
        frozenset(blob.get("train_keys", ())),
    )


# ---- the loop ----------------------------------------------------------------------------------


def evaluate(
    model: Seq2Seq, vocab: SourceVocab, examples: list[Example], device: str, batch_size: int = 32
) -> dict[str, float]:
    """Teacher-forced validation: loss, token accuracy, and whole-program accuracy (every token
    of the target predicted by argmax)."""
    import torch
    import torch.nn.functional as F

    model.eval()
    total_loss = correct = tokens = exact = 0.0
    with torch.no_grad():
        for i in range(0, len(examples), batch_size):
            src, src_pad, tgt_in, tgt_out = batch_tensors(
                vocab, examples[i : i + batch_size], device
            )
            logits = model(src, src_pad, tgt_in)  # (B, T, V)
            mask = tgt_out != PAD
            total_loss += F.cross_entropy(
                logits.transpose(1, 2), tgt_out, ignore_index=PAD, reduction="sum"
            ).item()
            hit = (logits.argmax(-1) == tgt_out) & mask
            correct += hit.sum().item()
            tokens += mask.sum().item()
            exact += (hit | ~mask).all(dim=1).sum().item()
    model.train()
    return {
        "val_loss": total_loss / tokens,
        "val_token_acc": correct / tokens,
        "val_program_acc": exact / len(examples),
    }


def train(config: Config, *, progress: bool = True, log: Any = print) -> Path:
    """Train per `config`, save the checkpoint, and return its path."""
    import random

    import torch
    import torch.nn.functional as F

    from neural.model import ModelConfig, Seq2Seq

    spec = config.train
    torch.set_num_threads(spec.threads)
    torch.manual_seed(spec.seed)
    torch.use_deterministic_algorithms(True, warn_only=True)
    device = pick_device(spec.device)
    started = time.perf_counter()
    train_set = make_examples(config.data, "train", processes=spec.data_processes)
    val_set = make_examples(config.data, "val", processes=spec.data_processes)
    data_s = time.perf_counter() - started
    vocab = SourceVocab.build(ex.src for ex in train_set.examples)
    log(
        f"data: {len(train_set.examples)} train, {len(val_set.examples)} val programs "
        f"(skipped {train_set.skipped or 'none'}), made in {time.perf_counter() - started:.1f}s"
    )
    model_cfg = ModelConfig(
        src_vocab=len(vocab.tokens),
        tgt_vocab=len(TARGET_VOCAB),
        max_src=config.data.max_src,
        max_tgt=config.data.max_tgt,
        **config.model,
    )
    model = Seq2Seq(model_cfg).to(device)
    log(f"model: {model.n_params() / 1e6:.2f}M parameters on {device}, ISA 0x{isa_hash():08x}")
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [
            {"params": decay, "weight_decay": spec.weight_decay},
            {"params": no_decay, "weight_decay": 0.0},
        ],
        lr=spec.lr,
    )

    def lr_at(step: int) -> float:
        if step < spec.warmup:
            return spec.lr * (step + 1) / spec.warmup
        t = (step - spec.warmup) / max(1, spec.steps - spec.warmup)
        return spec.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))

    rng = random.Random(spec.seed)
    order: list[int] = []
    out = Path(spec.checkpoint)
    log_path = out.with_suffix(".log.jsonl")
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = log_path.open("w")
    history: list[dict[str, Any]] = []
    metrics: dict[str, Any] = {}
    bar = _Progress(spec.steps, progress)
    model.train()
    training = time.perf_counter()
    out_of_time = False
    tokens = 0  # target tokens trained on
    for step in range(spec.steps):
        if len(order) < spec.batch_size:
            fresh = list(range(len(train_set.examples)))
            rng.shuffle(fresh)
            order += fresh
        batch = [train_set.examples[j] for j in order[: spec.batch_size]]
        del order[: spec.batch_size]
        src, src_pad, tgt_in, tgt_out = batch_tensors(vocab, batch, device)
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        logits = model(src, src_pad, tgt_in)  # (B, T, V)
        loss = F.cross_entropy(logits.transpose(1, 2), tgt_out, ignore_index=PAD)  # equation 4
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        bar.update(step + 1, loss.item())
        tokens += int((tgt_out != PAD).sum())
        out_of_time = spec.max_seconds > 0 and time.perf_counter() - training >= spec.max_seconds
        if (step + 1) % spec.eval_every == 0 or step + 1 == spec.steps or out_of_time:
            metrics = {
                "step": step + 1,
                "loss": loss.item(),
                **evaluate(model, vocab, val_set.examples, device),
                "elapsed_s": time.perf_counter() - started,
            }
            history.append(metrics)
            log_file.write(json.dumps(metrics) + "\n")
            log_file.flush()
            bar.note(
                f"step {step + 1}: loss {metrics['loss']:.4f}  "
                f"val loss {metrics['val_loss']:.4f}  "
                f"val token acc {metrics['val_token_acc']:.3f}  "
                f"val program acc {metrics['val_program_acc']:.3f}"
            )
        if out_of_time:
            log(f"stopped after step {step + 1} of {spec.steps}: max_seconds {spec.max_seconds:g}")
            break
    train_s = time.perf_counter() - training
    bar.close()
    log_file.close()
    final = {
        **metrics,
        "history": history,
        "train_programs": len(train_set.examples),
        "skipped": train_set.skipped,
        "device": device,
        "device_name": _device_name(device),
        "steps_planned": spec.steps,
        "stopped_by_time": out_of_time,
        "data_s": round(data_s, 2),
        "train_s": round(train_s, 2),
        "target_tokens_per_s": round(tokens / train_s, 1) if train_s > 0 else 0.0,
        "parameters": model.n_params(),
    }
    keys = sorted({source_key(ex.src) for ex in train_set.examples})
    save_checkpoint(out, model, vocab, config, final, keys)
    log(
        f"saved {out} ({out.stat().st_size / 1e6:.1f} MB) "
        f"after {time.perf_counter() - started:.0f}s; log {log_path}"
    )
    return out


def _device_name(device: str) -> str:
    """The accelerator's own name where training ran on one, else the device string."""
    if device.startswith("cuda"):
        import torch

        return str(torch.cuda.get_device_name(torch.device(device)))
    return device


class _Progress:
    """A rich progress bar when asked for (and rich is there), else periodic lines."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled = total, enabled
        self.rich: Any = None
        if enabled:
            try:
                from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

                self.rich = Progress(
                    TextColumn("train"),
                    BarColumn(),
                    TextColumn("{task.completed}/{task.total} loss {task.fields[loss]:.4f}"),
                    TimeRemainingColumn(),
                )
                self.task = self.rich.add_task("train", total=total, loss=float("nan"))
                self.rich.start()
            except ImportError:
                self.rich = None

    def update(self, step: int, loss: float) -> None:
        if self.rich is not None:
            self.rich.update(self.task, completed=step, loss=loss)

    def note(self, text: str) -> None:
        if self.rich is not None:
            self.rich.console.print(text)
        else:
            print(text, flush=True)

    def close(self) -> None:
        if self.rich is not None:
            self.rich.stop()
