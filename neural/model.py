"""The neural compiler's model: a small encoder-decoder transformer, source -> bytecode tokens.

The whole model is this file (nanoGPT style): `ModelConfig`, the blocks, and `Seq2Seq` with a
teacher-forced `forward` for training (equation 4, cross-entropy over the target tokens) and an
incremental `decode_step` with a key/value cache for sampling. Pre-LayerNorm blocks, learned
position embeddings, tied decoder input/output embeddings. Shapes: B batch, S source length,
T target length, D model width, H heads.

torch is imported here; import this module only where torch is needed.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass(frozen=True)
class ModelConfig:
    src_vocab: int
    tgt_vocab: int
    d_model: int = 128
    n_heads: int = 4
    enc_layers: int = 2
    dec_layers: int = 2
    d_ff: int = 512
    dropout: float = 0.0
    max_src: int = 512
    max_tgt: int = 768

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig, causal: bool) -> None:
        super().__init__()
        assert cfg.d_model % cfg.n_heads == 0
        self.h, self.causal, self.dropout = cfg.n_heads, causal, cfg.dropout
        self.max_len = cfg.max_tgt
        self.q = nn.Linear(cfg.d_model, cfg.d_model)
        self.kv = nn.Linear(cfg.d_model, 2 * cfg.d_model)
        self.out = nn.Linear(cfg.d_model, cfg.d_model)

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        B, N, D = x.shape
        return x.view(B, N, self.h, D // self.h).transpose(1, 2)  # (B, H, N, D/H)

    def forward(
        self,
        x: torch.Tensor,  # (B, T, D) queries
        memory: torch.Tensor | None = None,  # (B, S, D) keys/values for cross-attention
        key_pad: torch.Tensor | None = None,  # (B, S) True where padding
        cache: dict[str, Any] | None = None,
    ) -> torch.Tensor:
        B, T, D = x.shape
        q = self._heads(self.q(x))  # (B, H, T, D/H)
        if memory is not None and cache is not None and "k" in cache:
            k, v = cache["k"], cache["v"]  # cross-attention keys are computed once
        else:
            k, v = self.kv(x if memory is None else memory).split(D, dim=2)
            k, v = self._heads(k), self._heads(v)  # (B, H, N, D/H)
            if cache is not None and memory is not None:
                cache["k"], cache["v"] = k, v
            elif cache is not None:  # self-attention: write this step into preallocated buffers
                n = int(cache.get("n", 0))
                if "k" not in cache:
                    shape = (B, self.h, self.max_len, D // self.h)
                    cache["k"], cache["v"] = k.new_empty(shape), v.new_empty(shape)
                cache["k"][:, :, n : n + T] = k
                cache["v"][:, :, n : n + T] = v
                cache["n"] = n + T
                k, v = cache["k"][:, :, : n + T], cache["v"][:, :, : n + T]  # (B, H, n+T, D/H)
        mask = None
        if key_pad is not None:
            mask = ~key_pad[:, None, None, :]  # (B, 1, 1, S) True where attended
        causal = self.causal and cache is None and T > 1
        y = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=mask,
            is_causal=causal,
            dropout_p=self.dropout if self.training else 0.0,
        )  # (B, H, T, D/H)
        return self.out(y.transpose(1, 2).reshape(B, T, D))


class FeedForward(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(cfg.d_model, cfg.d_ff),
            nn.GELU(),
            nn.Linear(cfg.d_ff, cfg.d_model),
            nn.Dropout(cfg.dropout),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class EncoderBlock(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attn, self.ff = Attention(cfg, causal=False), FeedForward(cfg)

    def forward(self, x: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        h = self.ln1(x)
        x = x + self.attn(h, memory=h, key_pad=pad)  # (B, S, D)
        return x + self.ff(self.ln2(x))


class DecoderBlock(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.ln1, self.ln2, self.ln3 = (nn.LayerNorm(cfg.d_model) for _ in range(3))
        self.self_attn = Attention(cfg, causal=True)
        self.cross_attn = Attention(cfg, causal=False)
        self.ff = FeedForward(cfg)

    def forward(
        self,
        y: torch.Tensor,  # (B, T, D)
        memory: torch.Tensor,  # (B, S, D)
        src_pad: torch.Tensor,  # (B, S)
        cache: dict[str, dict[str, Any]] | None = None,
    ) -> torch.Tensor:
        y = y + self.self_attn(self.ln1(y), cache=None if cache is None else cache["self"])
        y = y + self.cross_attn(
            self.ln2(y),
            memory=memory,
            key_pad=src_pad,
            cache=None if cache is None else cache["cross"],
        )
        return y + self.ff(self.ln3(y))


class Seq2Seq(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.src_emb = nn.Embedding(cfg.src_vocab, cfg.d_model)
        self.src_pos = nn.Embedding(cfg.max_src, cfg.d_model)
        self.tgt_emb = nn.Embedding(cfg.tgt_vocab, cfg.d_model)
        self.tgt_pos = nn.Embedding(cfg.max_tgt, cfg.d_model)
        self.encoder = nn.ModuleList(EncoderBlock(cfg) for _ in range(cfg.enc_layers))
        self.decoder = nn.ModuleList(DecoderBlock(cfg) for _ in range(cfg.dec_layers))
        self.enc_ln, self.dec_ln = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.tgt_vocab, bias=False)
        self.head.weight = self.tgt_emb.weight  # tied
        self.apply(self._init)

    @staticmethod
    def _init(m: nn.Module) -> None:
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, std=0.02)
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=0.02)

    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def encode(self, src: torch.Tensor, src_pad: torch.Tensor) -> torch.Tensor:
        S = src.shape[1]
        pos = torch.arange(S, device=src.device)
        x = self.src_emb(src) * math.sqrt(self.cfg.d_model) + self.src_pos(pos)  # (B, S, D)
        for block in self.encoder:
            x = block(x, src_pad)
        return self.enc_ln(x)  # (B, S, D)

    def forward(
        self,
        src: torch.Tensor,  # (B, S) token ids
        src_pad: torch.Tensor,  # (B, S) True at padding
        tgt_in: torch.Tensor,  # (B, T) <bos> + target[:-1]
    ) -> torch.Tensor:
        memory = self.encode(src, src_pad)
        T = tgt_in.shape[1]
        pos = torch.arange(T, device=tgt_in.device)
        y = self.tgt_emb(tgt_in) * math.sqrt(self.cfg.d_model) + self.tgt_pos(pos)  # (B, T, D)
        for block in self.decoder:
            y = block(y, memory, src_pad)
        return self.head(self.dec_ln(y))  # (B, T, V) logits

    def new_cache(self) -> list[dict[str, dict[str, Any]]]:
        return [{"self": {}, "cross": {}} for _ in self.decoder]

    def decode_step(
        self,
        token: torch.Tensor,  # (B,) the last token
        position: int,
        memory: torch.Tensor,  # (B, S, D)
        src_pad: torch.Tensor,  # (B, S)
        cache: list[dict[str, dict[str, Any]]],
    ) -> torch.Tensor:
        pos = torch.full((1,), position, device=token.device, dtype=torch.long)
        y = self.tgt_emb(token[:, None]) * math.sqrt(self.cfg.d_model) + self.tgt_pos(
            pos
        )  # (B, 1, D)
        for block, c in zip(self.decoder, cache, strict=True):
            y = block(y, memory, src_pad, cache=c)
        return self.head(self.dec_ln(y))[:, 0]  # (B, V) logits
