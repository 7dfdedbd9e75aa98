#!/usr/bin/python3
"""Load a llama GGUF file (F32 tensors) into train.py's PyTorch model and
decode greedily from BOS.

This checks the conventions gpurt relies on from an independent side: run on
stories260K it must print the reference sentence of shared/models/README.md
(so train.py's model matches llama GGUF semantics: adjacent-pair RoPE,
unpermuted Q/K, GQA, SwiGLU), and run on the exported default model it must
print the same tokens as train.py's reference (so the Go exporter wrote
every tensor where it belongs).

  /usr/bin/python3 models/check_gguf.py ../shared/models/stories260K.gguf 200
"""

import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train  # noqa: E402

SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}


class Reader:
    def __init__(self, data):
        self.b, self.off = data, 0

    def unpack(self, fmt):
        v = struct.unpack_from(fmt, self.b, self.off)
        self.off += struct.calcsize(fmt)
        return v[0]

    def string(self):
        n = self.unpack("<Q")
        s = self.b[self.off:self.off + n].decode("utf-8")
        self.off += n
        return s

    def value(self, t):
        if t in SCALARS:
            return self.unpack(SCALARS[t])
        if t == 8:
            return self.string()
        if t == 9:
            et, n = self.unpack("<I"), self.unpack("<Q")
            return [self.value(et) for _ in range(n)]
        raise ValueError("unknown GGUF value type %d" % t)


def read_gguf(path):
    data = open(path, "rb").read()
    r = Reader(data)
    assert data[:4] == b"GGUF", "not a GGUF file"
    r.off = 4
    version, n_tensors, n_kv = r.unpack("<I"), r.unpack("<Q"), r.unpack("<Q")
    assert version in (2, 3)
    kv = {}
    for _ in range(n_kv):
        k = r.string()
        kv[k] = r.value(r.unpack("<I"))
    infos = []
    for _ in range(n_tensors):
        name = r.string()
        nd = r.unpack("<I")
        ne = [r.unpack("<Q") for _ in range(nd)]
        typ, off = r.unpack("<I"), r.unpack("<Q")
        assert typ == 0, "%s: only F32 tensors are supported here" % name
        infos.append((name, ne, off))
    align = kv.get("general.alignment", 32)
    base = (r.off + align - 1) // align * align
    tensors = {}
    for name, ne, off in infos:
        n = int(np.prod(ne))
        a = np.frombuffer(data, dtype="<f4", count=n, offset=base + off)
        tensors[name] = torch.from_numpy(a.copy()).reshape(list(reversed(ne)))
    return kv, tensors


def load(path):
    kv, t = read_gguf(path)
    c = train.Config(
        dim=kv["llama.embedding_length"], n_layers=kv["llama.block_count"],
        n_heads=kv["llama.attention.head_count"], n_kv_heads=kv["llama.attention.head_count_kv"],
        ffn=kv["llama.feed_forward_length"], vocab=len(kv["tokenizer.ggml.tokens"]),
        ctx=kv["llama.context_length"], eps=kv["llama.attention.layer_norm_rms_epsilon"],
        rope_base=kv.get("llama.rope.freq_base", 10000.0))
    model = train.Llama(c)
    params = dict(model.gguf_tensors())
    if "output.weight" not in t:
        t["output.weight"] = t["token_embd.weight"]
    with torch.no_grad():
        for name, p in params.items():
            if tuple(p.shape) != tuple(t[name].shape):
                raise SystemExit("%s: shape %s, model wants %s" % (name, tuple(t[name].shape), tuple(p.shape)))
            p.copy_(t[name])
    spm = train.SPM(kv["tokenizer.ggml.tokens"], kv["tokenizer.ggml.scores"], kv["tokenizer.ggml.token_type"])
    return model, spm, kv


def main():
    path = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    model, spm, kv = load(path)
    bos = kv.get("tokenizer.ggml.bos_token_id", 1)
    ids = train.greedy(model, [bos], n)
    print("tokens:", ids)
    print("text: %r" % spm.decode(ids))


if __name__ == "__main__":
    main()
