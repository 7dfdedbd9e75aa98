#!/usr/bin/python3
"""Train gpurt's default model: a tiny llama on Jane Austen's novels.

The corpus comes from Debian's r-cran-janeaustenr package (the six novels,
public domain; packaged under the MIT licence). The script

  1. reads the novels from the package's R data (models/rdata.py, no R needed),
  2. learns a 512-token SentencePiece-style vocabulary with byte fallback:
     a byte-level BPE whose merge ranks become SPM scores, so llama.cpp's
     (and gpurt's) SPM encoder reproduces the tokenization used here,
  3. trains a llama (RMSNorm, RoPE on adjacent pairs, GQA, SwiGLU) for a
     bounded number of steps on the CPU,
  4. writes the raw weights and vocabulary to --out for models/export (Go),
     which writes the GGUF file with gpurt's own writer,
  5. prints a greedy reference generation from BOS.

Run it with Debian's python3 and python3-torch; see models/README.md.
"""

import argparse
import collections
import heapq
import json
import math
import os
import re
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdata  # noqa: E402

SPACE = "\u2581"
NOVELS = ["sensesensibility", "prideprejudice", "mansfieldpark", "emma", "northangerabbey", "persuasion"]
TOKEN_NORMAL, TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_BYTE = 1, 2, 3, 6
UNK, BOS, EOS = 0, 1, 2


# ---------------------------------------------------------------- corpus

def load_paragraphs(datadir):
    """The novels as a list of prose paragraphs, in novel order."""
    data = rdata.lazyload(os.path.join(datadir, "Rdata"))
    paragraphs = []
    for novel in NOVELS:
        cur = []
        for line in data[novel] + [""]:
            line = (line or "").strip()
            if line:
                cur.append(line)
                continue
            if cur:
                p = " ".join(cur)
                cur = []
                # Underscores mark italics in the e-texts; headings have no
                # lower-case letters or start with "Chapter".
                p = p.replace("_", "")
                if not re.search("[a-z]", p) or re.match(r"(?i)chapter\b", p):
                    continue
                paragraphs.append(re.sub(" +", " ", p))
    return paragraphs


# ---------------------------------------------------------------- tokenizer

def words(text):
    """SPM pre-processing: leading space, spaces as U+2581, split before each."""
    s = SPACE + text.replace(" ", SPACE)
    return re.findall(SPACE + "[^" + SPACE + "]*", s)


def train_bpe(paragraphs, vocab_size, min_char_count):
    """Returns the vocabulary as (tokens, scores, types)."""
    freq = collections.Counter()
    for p in paragraphs:
        freq.update(words(p))
    chars = collections.Counter()
    for w, n in freq.items():
        for c in w:
            chars[c] += n
    alphabet = sorted(c for c, n in chars.items() if n >= min_char_count)
    n_fixed = 3 + 256 + len(alphabet)
    n_merges = vocab_size - n_fixed
    if n_merges < 0:
        raise SystemExit("vocabulary of %d is too small for %d characters" % (vocab_size, len(alphabet)))
    # Words as symbol lists; characters outside the alphabet never merge.
    known = set(alphabet)
    seqs = [[c for c in w] for w in freq]
    counts = list(freq.values())
    merged = []
    have = set(alphabet)
    while len(merged) < n_merges:
        pairs = collections.Counter()
        for seq, n in zip(seqs, counts):
            for a, b in zip(seq, seq[1:]):
                if a in known and b in known:
                    pairs[a, b] += n
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        new = best[0] + best[1]
        known.add(new)
        if new not in have:
            have.add(new)
            merged.append(new)
        for seq in seqs:
            i = 0
            while i < len(seq) - 1:
                if seq[i] == best[0] and seq[i + 1] == best[1]:
                    seq[i:i + 2] = [new]
                i += 1
    tokens = ["<unk>", "<s>", "</s>"] + ["<0x%02X>" % b for b in range(256)]
    types = [TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_CONTROL] + [TOKEN_BYTE] * 256
    scores = [0.0] * len(tokens)
    # SPM scores: earlier merges score higher; single characters lowest.
    for rank, m in enumerate(merged):
        tokens.append(m)
        types.append(TOKEN_NORMAL)
        scores.append(-float(rank))
    for i, c in enumerate(alphabet):
        tokens.append(c)
        types.append(TOKEN_NORMAL)
        scores.append(-float(len(merged) + i))
    return tokens, scores, types


class SPM:
    """llama.cpp's SentencePiece encoder, exactly as llama/tokenizer.go does it."""

    def __init__(self, tokens, scores, types):
        self.tokens, self.scores, self.types = tokens, scores, types
        self.pieces = {}
        self.bytes = {}
        for i, (t, ty) in enumerate(zip(tokens, types)):
            if ty == TOKEN_NORMAL and t not in self.pieces:
                self.pieces[t] = i
            elif ty == TOKEN_BYTE:
                self.bytes[int(t[3:5], 16)] = i
        self.cache = {}

    def encode(self, text, bos=True):
        out = [BOS] if bos else []
        if not text:
            return out
        for w in words(text):
            ids = self.cache.get(w)
            if ids is None:
                ids = self.cache[w] = self._encode(w)
            out += ids
        return out

    def _encode(self, text):
        # Symbols: [start, length, prev, next]; merge the best-scoring pair
        # (leftmost on ties) whose concatenation is a token, until none is.
        syms = [[i, 1, i - 1, i + 1] for i in range(len(text))]
        syms[-1][3] = -1
        heap = []

        def push(l, r):
            a, b = syms[l], syms[r]
            s = text[a[0]:b[0] + b[1]]
            if s in self.pieces:
                heapq.heappush(heap, (-self.scores[self.pieces[s]], l, r, len(s)))

        for i in range(1, len(syms)):
            push(i - 1, i)
        while heap:
            _, l, r, size = heapq.heappop(heap)
            a, b = syms[l], syms[r]
            if a[1] == 0 or b[1] == 0 or a[1] + b[1] != size:
                continue
            a[1] += b[1]
            b[1] = 0
            a[3] = b[3]
            if b[3] >= 0:
                syms[b[3]][2] = l
            if a[2] >= 0:
                push(a[2], l)
            if a[3] >= 0:
                push(l, a[3])
        out = []
        i = 0
        while i >= 0:
            s = text[syms[i][0]:syms[i][0] + syms[i][1]]
            if s in self.pieces:
                out.append(self.pieces[s])
            else:
                out += [self.bytes.get(b, UNK) for b in s.encode("utf-8")]
            i = syms[i][3]
        return out

    def decode(self, ids):
        out = bytearray()
        prev = -1
        for i in ids:
            ty = self.types[i]
            if ty == TOKEN_BYTE:
                p = bytes([int(self.tokens[i][3:5], 16)])
            elif ty == TOKEN_NORMAL:
                p = self.tokens[i].replace(SPACE, " ").encode("utf-8")
            else:
                p = b""
            if (prev < 0 or prev == BOS) and p.startswith(b" "):
                p = p[1:]
            out += p
            if p or i == BOS:
                prev = i
        return out.decode("utf-8", errors="replace")


# ---------------------------------------------------------------- model

class Config:
    def __init__(self, **kw):
        self.dim = kw["dim"]
        self.n_layers = kw["n_layers"]
        self.n_heads = kw["n_heads"]
        self.n_kv_heads = kw["n_kv_heads"]
        self.ffn = kw["ffn"]
        self.vocab = kw["vocab"]
        self.ctx = kw["ctx"]
        self.eps = kw.get("eps", 1e-5)
        self.rope_base = kw.get("rope_base", 10000.0)
        self.head_dim = self.dim // self.n_heads

    def to_dict(self):
        return dict(self.__dict__)


def rope_tables(head_dim, n, base):
    inv = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
    ang = torch.arange(n, dtype=torch.float64)[:, None] * inv[None, :]
    return torch.cos(ang).float(), torch.sin(ang).float()


def rope(x, cos, sin):
    """Rotate adjacent pairs (x0,x1), (x2,x3), ...: ggml's mode 0 (normal)."""
    # x: [B, T, H, D]; cos/sin: [T, D/2]
    xp = x.float().reshape(*x.shape[:-1], -1, 2)
    x0, x1 = xp[..., 0], xp[..., 1]
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    return torch.stack((x0 * c - x1 * s, x0 * s + x1 * c), dim=-1).reshape(x.shape)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.attn_norm = RMSNorm(c.dim, c.eps)
        self.wq = nn.Linear(c.dim, c.n_heads * c.head_dim, bias=False)
        self.wk = nn.Linear(c.dim, c.n_kv_heads * c.head_dim, bias=False)
        self.wv = nn.Linear(c.dim, c.n_kv_heads * c.head_dim, bias=False)
        self.wo = nn.Linear(c.n_heads * c.head_dim, c.dim, bias=False)
        self.ffn_norm = RMSNorm(c.dim, c.eps)
        self.w1 = nn.Linear(c.dim, c.ffn, bias=False)  # gate
        self.w3 = nn.Linear(c.dim, c.ffn, bias=False)  # up
        self.w2 = nn.Linear(c.ffn, c.dim, bias=False)  # down

    def forward(self, x, cos, sin):
        c = self.c
        B, T, _ = x.shape
        h = self.attn_norm(x)
        q = rope(self.wq(h).view(B, T, c.n_heads, c.head_dim), cos, sin)
        k = rope(self.wk(h).view(B, T, c.n_kv_heads, c.head_dim), cos, sin)
        v = self.wv(h).view(B, T, c.n_kv_heads, c.head_dim)
        # GQA: query head i uses KV head i // (n_heads / n_kv_heads), as
        # ggml's broadcasting in mul_mat does.
        rep = c.n_heads // c.n_kv_heads
        k = k.repeat_interleave(rep, dim=2)
        v = v.repeat_interleave(rep, dim=2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c.head_dim))
        att = att.masked_fill(~torch.ones(T, T, dtype=torch.bool).tril(), float("-inf"))
        a = F.softmax(att, dim=-1) @ v
        x = x + self.wo(a.transpose(1, 2).reshape(B, T, -1))
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class Llama(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.tok_embd = nn.Embedding(c.vocab, c.dim)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.norm = RMSNorm(c.dim, c.eps)
        self.output = nn.Linear(c.dim, c.vocab, bias=False)
        cos, sin = rope_tables(c.head_dim, c.ctx, c.rope_base)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02
                if name.endswith("wo.weight") or name.endswith("w2.weight"):
                    std = 0.02 / math.sqrt(2 * c.n_layers)
                nn.init.normal_(p, mean=0.0, std=std)

    def forward(self, idx):
        T = idx.shape[1]
        x = self.tok_embd(idx)
        for b in self.blocks:
            x = b(x, self.cos[:T], self.sin[:T])
        return self.output(self.norm(x))

    def gguf_tensors(self):
        """(gguf name, tensor) pairs; PyTorch's [out, in] is ggml's ne = [in, out]."""
        yield "token_embd.weight", self.tok_embd.weight
        for i, b in enumerate(self.blocks):
            p = "blk.%d." % i
            yield p + "attn_norm.weight", b.attn_norm.weight
            yield p + "attn_q.weight", b.wq.weight
            yield p + "attn_k.weight", b.wk.weight
            yield p + "attn_v.weight", b.wv.weight
            yield p + "attn_output.weight", b.wo.weight
            yield p + "ffn_norm.weight", b.ffn_norm.weight
            yield p + "ffn_gate.weight", b.w1.weight
            yield p + "ffn_up.weight", b.w3.weight
            yield p + "ffn_down.weight", b.w2.weight
        yield "output_norm.weight", self.norm.weight
        yield "output.weight", self.output.weight


@torch.no_grad()
def greedy(model, prompt, n):
    """Greedy decoding, recomputing the whole prefix each step (no cache)."""
    model.eval()
    ids = list(prompt)
    for _ in range(n):
        logits = model(torch.tensor([ids[-model.c.ctx:]]))[0, -1]
        ids.append(int(torch.argmax(logits)))
    return ids


# ---------------------------------------------------------------- training

def batches(stream, seq, batch, gen):
    n = stream.numel() - seq - 1
    while True:
        ix = torch.randint(0, n, (batch,), generator=gen)
        x = torch.stack([stream[i:i + seq] for i in ix])
        y = torch.stack([stream[i + 1:i + seq + 1] for i in ix])
        yield x, y


@torch.no_grad()
def evaluate(model, stream, seq, batch, iters, seed):
    model.eval()
    gen = torch.Generator().manual_seed(seed)
    it = batches(stream, seq, batch, gen)
    total = 0.0
    for _ in range(iters):
        x, y = next(it)
        total += F.cross_entropy(model(x).view(-1, model.c.vocab), y.view(-1)).item()
    model.train()
    return total / iters


def lr_at(step, total, peak, warmup):
    if step < warmup:
        return peak * (step + 1) / warmup
    frac = (step - warmup) / max(1, total - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, frac))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="/usr/lib/R/site-library/janeaustenr/data",
                    help="janeaustenr's data directory (holding Rdata.rdx and Rdata.rdb)")
    ap.add_argument("--out", required=True, help="directory for the raw weights and vocabulary")
    ap.add_argument("--steps", type=int, default=0, help="training steps (0: as many as fit in --minutes)")
    ap.add_argument("--minutes", type=float, default=9.0,
                    help="budget in CPU minutes per thread when --steps is 0 (CPU time, so a busy machine does not shrink it)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=2)
    ap.add_argument("--ffn", type=int, default=352)
    ap.add_argument("--seq", type=int, default=256, help="training (and declared context) length")
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--gen", type=int, default=40, help="tokens of greedy reference output")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    t0 = time.time()

    paragraphs = load_paragraphs(args.data)
    n_chars = sum(len(p) for p in paragraphs)
    tokens, scores, types = train_bpe(paragraphs, args.vocab, min_char_count=20)
    spm = SPM(tokens, scores, types)
    # Each paragraph is a document: BOS, then its text.
    ids = []
    for p in paragraphs:
        ids += spm.encode(p, bos=True)
    assert spm.decode(spm.encode(paragraphs[0])) == paragraphs[0]
    stream = torch.tensor(ids, dtype=torch.long)
    split = int(len(ids) * 0.98)
    train, val = stream[:split], stream[split:]
    print("corpus: %d paragraphs, %d characters, %d tokens (%.2f chars/token); vocab %d; %.0fs"
          % (len(paragraphs), n_chars, len(ids), n_chars / len(ids), len(tokens), time.time() - t0), flush=True)

    c = Config(dim=args.dim, n_layers=args.layers, n_heads=args.heads, n_kv_heads=args.kv_heads,
               ffn=args.ffn, vocab=len(tokens), ctx=args.seq)
    model = Llama(c)
    n_params = sum(p.numel() for p in model.parameters())
    print("model: %d parameters (%.2f MiB as f32)" % (n_params, n_params * 4 / 2**20), flush=True)

    decay = [p for p in model.parameters() if p.dim() == 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95))
    gen = torch.Generator().manual_seed(args.seed)
    it = batches(train, args.seq, args.batch, gen)
    total = args.steps
    warmup = 30
    start, cpu_start = time.time(), time.process_time()
    step = 0
    loss_avg = None
    while True:
        if total == 0 and step == 10:
            per = (time.process_time() - cpu_start) / step / args.threads
            total = max(20, int(args.minutes * 60 / per))
            print("%.2f CPU-seconds per step and thread: %d steps fit in %.1f minutes" % (per, total, args.minutes), flush=True)
        if total and step >= total:
            break
        lr = lr_at(step, total or 1000, args.lr, warmup)
        for g in opt.param_groups:
            g["lr"] = lr
        x, y = next(it)
        loss = F.cross_entropy(model(x).view(-1, c.vocab), y.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        loss_avg = loss.item() if loss_avg is None else 0.95 * loss_avg + 0.05 * loss.item()
        step += 1
        if step % 50 == 0:
            print("step %d/%d  loss %.3f  lr %.2e  %.0fs" % (step, total, loss_avg, lr, time.time() - start), flush=True)
    train_loss = evaluate(model, train, args.seq, args.batch, 20, 1)
    val_loss = evaluate(model, val, args.seq, args.batch, 20, 2)
    minutes = (time.time() - start) / 60
    cpu_minutes = (time.process_time() - cpu_start) / 60
    print("trained %d steps (%d tokens) in %.1f minutes (%.1f CPU minutes): train loss %.3f, validation loss %.3f"
          % (total, total * args.batch * args.seq, minutes, cpu_minutes, train_loss, val_loss), flush=True)

    os.makedirs(args.out, exist_ok=True)
    tensors = []
    for name, p in model.gguf_tensors():
        t = p.detach().float().contiguous()
        fname = name + ".f32"
        t.numpy().astype("<f4").tofile(os.path.join(args.out, fname))
        tensors.append({"name": name, "ne": list(reversed(t.shape)), "file": fname})
    ref = greedy(model, [BOS], args.gen)
    meta = {
        "name": "gpurt-austen",
        "config": c.to_dict(),
        "tokens": tokens, "scores": scores, "token_types": types,
        "bos": BOS, "eos": EOS, "unk": UNK,
        "tensors": tensors,
        "training": {
            "steps": total, "batch": args.batch, "seq": args.seq, "lr": args.lr, "seed": args.seed,
            "threads": args.threads, "minutes": round(minutes, 1), "cpu_minutes": round(cpu_minutes, 1), "tokens_seen": total * args.batch * args.seq,
            "train_loss": round(train_loss, 3), "validation_loss": round(val_loss, 3),
            "corpus_tokens": len(ids), "corpus_chars": n_chars, "paragraphs": len(paragraphs),
            "parameters": n_params,
        },
        "reference": {"greedy_from_bos": ref, "text": spm.decode(ref)},
    }
    with open(os.path.join(args.out, "model.json"), "w") as f:
        json.dump(meta, f, indent=1)
    print("greedy from BOS (%d tokens): %s" % (args.gen, ref))
    print("text: %r" % spm.decode(ref))


if __name__ == "__main__":
    main()
