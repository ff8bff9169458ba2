#!/usr/bin/python3
"""Trains Hisha's network (feature set KB9) and writes the net file the engine reads.

The data: `hisha gensfen` records turned into feature indices by `hisha nnue features DATA OUT`
(docs/nnue.md), read here through numpy.memmap. The model is the engine's architecture in float:

    acc[p] = ft_bias + sum of ft rows of p's active features     (p: side to move, other side)
    x = [clip(acc[stm]), clip(acc[other])]  (clip to 0..1)  -> L2 -> clip -> L3 -> clip -> 1
    value = that + psqt[stm] - psqt[other]      (psqt[p]: one number a feature, summed)

The linear psqt term starts at the material values (half a piece's value for an own piece, minus
half for an enemy one: psqt[stm] - psqt[other] is then the material balance), so that the layers
learn what material does not say (network.h).

with a factoriser: each feature also sums a row shared by its (piece, square) or hand slot in
every king bucket, so that what one bucket learns reaches the others; on export the shared rows
are added into each bucket's rows. The value is out * eval_scale centipawns; the loss is the
mean squared error between sigmoid(value / scale) and
    lambda * (result + 1) / 2 + (1 - lambda) * sigmoid(search score / scale).
Adam; hidden weights are kept within what int8 at x64 can hold, so quantising changes little.

Quantised export (network.h): feature rows and bias x127 (int16), hidden weights x64 (int8),
hidden biases x127x64 (int32). `quantised_eval` computes in numpy exactly what the engine does.

Usage: train.py --features F.ftr --out NET.nnue [--validation V.ftr | --val-fraction 0.05]
                [--epochs N | --steps N] [--batch B] [--lr LR] [--lambda L] [--scale S]
                [--l1 N] [--l2 N] [--l3 N] [--seed S] [--threads T] [--checkpoint CKPT.pt]
                [--resume CKPT.pt | --init NET.nnue] [--compare OUT.txt]
Debian's python3-torch (1.13) runs under /usr/bin/python3.
"""
import argparse
import math
import struct
import sys
import time
import zlib

import numpy as np
import torch
from torch import nn

FEATURE_MAGIC = b"HISHAFTR"
NET_MAGIC = b"HISHANNU"
NET_VERSION = 2  # reads 1 (no psqt term) and 2
FEATURE_SET_ID = 1
SLOTS = 40
PAD = 0xFFFF
RECORD = np.dtype([("score", "<i2"), ("result", "i1"), ("pad", "u1"), ("f", "<u2", (2, SLOTS))])
ACTIVATION_ONE = 127
WEIGHT_SCALE = 64
OUTPUT_DIVISOR = ACTIVATION_ONE * WEIGHT_SCALE
MAX_HIDDEN_WEIGHT = 127 / WEIGHT_SCALE
VALUE_LIMIT = 19999  # the engine clamps evaluations to +-(VALUE_KNOWN_WIN - 1)


def fail(msg):
    sys.exit(f"train.py: {msg}")


class FeatureFile:
    """A feature file: header, then fixed records (numpy memmap)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            head = f.read(32)
        if len(head) < 32 or head[:8] != FEATURE_MAGIC:
            fail(f"{path}: not a feature file of `hisha nnue features` (bad header)")
        version, fs, per_bucket, features, slots, count = struct.unpack("<6I", head[8:32])
        if version != 1 or fs != FEATURE_SET_ID or slots != SLOTS:
            fail(f"{path}: version {version}, feature set {fs}, {slots} slots; expected 1, {FEATURE_SET_ID}, {SLOTS}")
        self.per_bucket, self.features = per_bucket, features
        self.data = np.memmap(path, dtype=RECORD, mode="r", offset=32)
        if len(self.data) != count:
            fail(f"{path}: the header counts {count} records, the file holds {len(self.data)}")

    def __len__(self):
        return len(self.data)

    def batch(self, idx):
        rec = self.data[np.sort(idx)]
        f = rec["f"].astype(np.int64)
        f[f == PAD] = self.features
        return (torch.from_numpy(f[:, 0]), torch.from_numpy(f[:, 1]),
                torch.from_numpy(rec["score"].astype(np.float32)), torch.from_numpy(rec["result"].astype(np.float32)))


# The material values of the classical evaluation (src/engine/evaluate.cpp, EvalParams::defaults):
# on the board by piece kind (PAWN .. DRAGON, the king 0), in hand by type (P L N S B R G), each
# further piece of a kind in hand worth a little less.
BOARD_VALUES = [90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395]
HAND_VALUES = [99, 346, 445, 544, 940, 1089, 594]
HAND_SLOTS = [18, 4, 4, 4, 2, 2, 4]
PIECE_KINDS, SQUARES = 14, 81


def material_rows(per_bucket, eval_scale):
    """The psqt start: a feature's half material value, + for own pieces, - for enemy ones, in
    the network's output units (centipawns / eval_scale); rows per (piece, square) and hand slot."""
    rows = np.zeros(per_bucket, np.float32)
    for side, sign in ((0, 1), (1, -1)):
        for kind in range(PIECE_KINDS):
            at = (side * PIECE_KINDS + kind) * SQUARES
            rows[at:at + SQUARES] = sign * BOARD_VALUES[kind] / 2
        base = 2 * PIECE_KINDS * SQUARES + side * sum(HAND_SLOTS)
        for t, (value, slots) in enumerate(zip(HAND_VALUES, HAND_SLOTS)):
            for n in range(slots):  # the (n+1)-th piece of the type, worth a little less than the n-th
                rows[base + sum(HAND_SLOTS[:t]) + n] = sign * (value * max(70, 100 - 6 * n) // 100) / 2
    return rows / eval_scale


class Model(nn.Module):
    def __init__(self, features, per_bucket, l1, l2, l3, eval_scale=600):
        super().__init__()
        self.features, self.per_bucket = features, per_bucket
        self.ft = nn.EmbeddingBag(features + 1, l1, mode="sum", padding_idx=features)
        self.fact = nn.EmbeddingBag(per_bucket + 1, l1, mode="sum", padding_idx=per_bucket)
        self.psqt = nn.EmbeddingBag(features + 1, 1, mode="sum", padding_idx=features)
        self.psqt_fact = nn.EmbeddingBag(per_bucket + 1, 1, mode="sum", padding_idx=per_bucket)
        self.ft_bias = nn.Parameter(torch.full((l1,), 0.25))
        self.h1 = nn.Linear(2 * l1, l2)
        self.h2 = nn.Linear(l2, l3)
        self.out = nn.Linear(l3, 1)
        with torch.no_grad():
            self.ft.weight.uniform_(-0.02, 0.02)
            self.fact.weight.uniform_(-0.02, 0.02)
            self.ft.weight[features].zero_()
            self.fact.weight[per_bucket].zero_()
            self.psqt.weight.zero_()
            self.psqt_fact.weight[:per_bucket, 0] = torch.from_numpy(material_rows(per_bucket, eval_scale))
            self.psqt_fact.weight[per_bucket].zero_()

    def shared(self, f):
        return torch.where(f == self.features, torch.full_like(f, self.per_bucket), f % self.per_bucket)

    def accumulate(self, f):
        return self.ft(f) + self.fact(self.shared(f)) + self.ft_bias

    def linear(self, f):
        return (self.psqt(f) + self.psqt_fact(self.shared(f)))[:, 0]

    def forward(self, us, them):
        x = torch.cat([self.accumulate(us).clamp(0, 1), self.accumulate(them).clamp(0, 1)], dim=1)
        x = self.h1(x).clamp(0, 1)
        x = self.h2(x).clamp(0, 1)
        return self.out(x)[:, 0] + self.linear(us) - self.linear(them)

    def clip(self):
        with torch.no_grad():
            for layer in (self.h1, self.h2, self.out):
                layer.weight.clamp_(-MAX_HIDDEN_WEIGHT, MAX_HIDDEN_WEIGHT)


def loss_fn(model, batch, eval_scale, scale, lam):
    us, them, score, result = batch
    value = model(us, them) * eval_scale
    target = lam * (result + 1) / 2 + (1 - lam) * torch.sigmoid(score / scale)
    return torch.mean((torch.sigmoid(value / scale) - target) ** 2)



def quantise(model, eval_scale):
    """The integer parameters of the engine's net (numpy)."""
    with torch.no_grad():
        F, P = model.features, model.per_bucket
        local = np.arange(F) % P
        ft = model.ft.weight[:F].numpy() + model.fact.weight[:P].numpy()[local]
        psqt = model.psqt.weight[:F, 0].numpy() + model.psqt_fact.weight[:P, 0].numpy()[local]
        q = {
            "ft_w": np.clip(np.rint(ft * ACTIVATION_ONE), -32768, 32767).astype(np.int16),
            "psqt": np.clip(np.rint(psqt * eval_scale), -32768, 32767).astype(np.int16),
            "ft_b": np.clip(np.rint(model.ft_bias.numpy() * ACTIVATION_ONE), -32768, 32767).astype(np.int16),
        }
        for name, layer in (("1", model.h1), ("2", model.h2), ("o", model.out)):
            q["w" + name] = np.clip(np.rint(layer.weight.numpy() * WEIGHT_SCALE), -127, 127).astype(np.int8)
            # The engine shifts a hidden sum right by 6 (a floor); half a step added to the bias
            # makes that a rounding, as the float model has it (no bias of -1/2 a step a unit).
            half = WEIGHT_SCALE // 2 if name != "o" else 0
            q["b" + name] = np.clip(np.rint(layer.bias.numpy() * OUTPUT_DIVISOR) + half, -2**31, 2**31 - 1).astype(np.int32)
    return q


def quantised_eval(q, us, them, features, eval_scale):
    """The engine's integer evaluation of feature rows (int64 arrays [B, 40], padding = features)."""
    ft_w = q.get("_ft_w64")
    if ft_w is None:  # the rows as int64 with a zero row for padding, made once
        ft_w = q["_ft_w64"] = np.concatenate([q["ft_w"].astype(np.int64), np.zeros((1, q["ft_w"].shape[1]), np.int64)])

    def acc(f):
        s = q["ft_b"].astype(np.int64) + ft_w[f].sum(axis=1)
        return (s + 32768) % 65536 - 32768  # int16 arithmetic wraps

    x = np.concatenate([np.clip(acc(us), 0, 127), np.clip(acc(them), 0, 127)], axis=1)
    y = x @ q["w1"].astype(np.int64).T + q["b1"]
    x = np.clip(y >> 6, 0, 127)
    y = x @ q["w2"].astype(np.int64).T + q["b2"]
    x = np.clip(y >> 6, 0, 127)
    out = x @ q["wo"].astype(np.int64)[0] + q["bo"][0]
    num = out * eval_scale
    value = np.sign(num) * (np.abs(num) // OUTPUT_DIVISOR)  # C++ division rounds toward zero
    psqt = np.concatenate([q["psqt"].astype(np.int64), np.zeros(1, np.int64)])
    value += psqt[us].sum(axis=1) - psqt[them].sum(axis=1)
    return np.clip(value, -VALUE_LIMIT, VALUE_LIMIT)


def write_net(path, q, eval_scale, description):
    l1 = q["ft_b"].shape[0]
    l2, l3 = q["b1"].shape[0], q["b2"].shape[0]
    body = b"".join(a.astype(a.dtype.newbyteorder("<")).tobytes() for a in (
        q["ft_b"], q["ft_w"], q["psqt"], q["b1"], q["w1"], q["b2"], q["w2"], q["bo"], q["wo"]))
    desc = description.encode("utf-8")[:4096]
    crc = zlib.crc32(desc + body) & 0xFFFFFFFF
    head = NET_MAGIC + struct.pack("<6IiIQI", NET_VERSION, FEATURE_SET_ID, q["ft_w"].shape[0], l1, l2, l3, eval_scale,
                                   len(desc), len(body), crc)
    head += b"\0" * (64 - len(head))
    with open(path, "wb") as f:
        f.write(head + desc + body)


def read_net(path):
    """The integer parameters and eval scale of a net file written by write_net (checked)."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 64 or blob[:8] != NET_MAGIC:
        fail(f"{path}: not a Hisha net file (bad header)")
    version, fs, features, l1, l2, l3, eval_scale, desc_len, body_len, crc = struct.unpack("<6IiIQI", blob[8:52])
    if version not in (1, NET_VERSION) or fs != FEATURE_SET_ID:
        fail(f"{path}: version {version}, feature set {fs}; expected 1 or {NET_VERSION}, {FEATURE_SET_ID}")
    if len(blob) != 64 + desc_len + body_len:
        fail(f"{path}: {len(blob)} bytes, the header says {64 + desc_len + body_len}")
    if zlib.crc32(blob[64:]) & 0xFFFFFFFF != crc:
        fail(f"{path}: CRC-32 mismatch (corrupt file)")
    q, at = {"psqt": np.zeros(features, np.int16)}, 64 + desc_len
    linear = (("psqt", "<i2", (features,)),) if version >= 2 else ()
    for name, dtype, shape in (("ft_b", "<i2", (l1,)), ("ft_w", "<i2", (features, l1))) + linear + (
                               ("b1", "<i4", (l2,)), ("w1", "i1", (l2, 2 * l1)), ("b2", "<i4", (l3,)),
                               ("w2", "i1", (l3, l2)), ("bo", "<i4", (1,)), ("wo", "i1", (1, l3))):
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        q[name] = np.frombuffer(blob, dtype=dtype, count=int(np.prod(shape)), offset=at).reshape(shape)
        at += n
    return q, eval_scale


def init_from_net(model, path, eval_scale):
    """Starts the float model at a net's values (the factoriser's shared rows at zero; a net of
    version 1 has no psqt term: it stays at zero, so the model starts at that net's values)."""
    q, scale = read_net(path)
    if scale != eval_scale:
        fail(f"{path}: eval scale {scale}, this run's is {eval_scale}")
    if q["ft_w"].shape != (model.features, model.ft.weight.shape[1]) or q["w1"].shape != model.h1.weight.shape \
            or q["w2"].shape != model.h2.weight.shape:
        fail(f"{path}: layer sizes {q['ft_w'].shape[1]}x2-{q['w1'].shape[0]}-{q['w2'].shape[0]}-1 differ from this run's")
    with torch.no_grad():
        model.ft.weight[:model.features] = torch.from_numpy(q["ft_w"].astype(np.float32) / ACTIVATION_ONE)
        model.fact.weight.zero_()
        model.psqt.weight[:model.features, 0] = torch.from_numpy(q["psqt"].astype(np.float32) / eval_scale)
        model.psqt_fact.weight.zero_()
        model.ft_bias.copy_(torch.from_numpy(q["ft_b"].astype(np.float32) / ACTIVATION_ONE))
        for name, layer in (("1", model.h1), ("2", model.h2), ("o", model.out)):
            layer.weight.copy_(torch.from_numpy(q["w" + name].astype(np.float32) / WEIGHT_SCALE))
            half = WEIGHT_SCALE // 2 if name != "o" else 0  # (quantise() adds it)
            layer.bias.copy_(torch.from_numpy((q["b" + name].astype(np.float64) - half) / OUTPUT_DIVISOR))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", required=True, help="training data (hisha nnue features)")
    ap.add_argument("--validation", help="validation data; default: the last --val-fraction of the training file")
    ap.add_argument("--val-fraction", type=float, default=0.05)
    ap.add_argument("--out", required=True, help="the net file to write")
    ap.add_argument("--epochs", type=float, default=10)
    ap.add_argument("--steps", type=int, default=0, help="stop after this many batches (overrides --epochs)")
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5, help="weight of the game result in the target")
    ap.add_argument("--scale", type=float, default=600, help="centipawns per logit unit of the target")
    ap.add_argument("--eval-scale", type=int, default=600, help="centipawns per unit of the network's output")
    ap.add_argument("--l1", type=int, help="default: the --init net's, else 256")
    ap.add_argument("--l2", type=int, help="default: the --init net's, else 32")
    ap.add_argument("--l3", type=int, help="default: the --init net's, else 32")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--checkpoint", help="save the float model here after each epoch")
    ap.add_argument("--resume", help="start from this checkpoint")
    ap.add_argument("--init", help="start from this net file (the committed net: its values, a new optimiser)")
    ap.add_argument("--compare", help="write 'float quantised' values of the validation positions here")
    ap.add_argument("--last", action="store_true",
                    help="export the model of the last epoch (default: of the epoch with the lowest validation loss)")
    a = ap.parse_args()
    # Layer sizes not given: those of the net training starts from (--init), else 256x2-32-32.
    given = {"l1": a.l1, "l2": a.l2, "l3": a.l3}
    if a.init and None in given.values():
        q, _ = read_net(a.init)
        given = {"l1": a.l1 or q["ft_w"].shape[1], "l2": a.l2 or q["w1"].shape[0], "l3": a.l3 or q["w2"].shape[0]}
    a.l1, a.l2, a.l3 = given["l1"] or 256, given["l2"] or 32, given["l3"] or 32
    for n, v in (("--l1", a.l1), ("--l2", a.l2), ("--l3", a.l3)):
        if v % 32 or v < 32 or v > (2048 if n == "--l1" else 256):
            fail(f"{n} {v}: a multiple of 32, at most {2048 if n == '--l1' else 256}")
    if not 0 <= a.lam <= 1:
        fail(f"--lambda {a.lam}: from 0 to 1")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)

    data = FeatureFile(a.features)
    if a.validation:
        val = FeatureFile(a.validation)
        train_idx, val_idx, val_src = np.arange(len(data)), np.arange(len(val)), val
    else:
        n_val = max(1, int(len(data) * a.val_fraction)) if len(data) > 1 else 0
        train_idx, val_idx, val_src = np.arange(len(data) - n_val), np.arange(len(data) - n_val, len(data)), data
    if len(train_idx) == 0:
        fail(f"{a.features}: no training records")
    model = Model(data.features, data.per_bucket, a.l1, a.l2, a.l3, a.eval_scale)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    if a.init and a.resume:
        fail("--init and --resume: one or the other")
    if a.init:
        init_from_net(model, a.init, a.eval_scale)
    if a.resume:
        ck = torch.load(a.resume)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
    batch = min(a.batch, len(train_idx))
    steps_per_epoch = max(1, len(train_idx) // batch)
    total_steps = a.steps if a.steps else int(math.ceil(a.epochs * steps_per_epoch))

    def evaluate_loss(src, idx):
        if len(idx) == 0:
            return float("nan")
        model.eval()
        with torch.no_grad():
            total = 0.0
            for s in range(0, len(idx), 8192):
                part = idx[s:s + 8192]
                total += loss_fn(model, src.batch(part), a.eval_scale, a.scale, a.lam).item() * len(part)
        model.train()
        return total / len(idx)

    print(f"train.py: {len(train_idx)} training and {len(val_idx)} validation positions, "
          f"{a.l1}x2-{a.l2}-{a.l3}-1, batch {batch}, {total_steps} steps", flush=True)
    step, epoch, t0 = 0, 0, time.time()
    best_loss, best_state, best_epoch = float("inf"), None, 0
    if a.init or a.resume:  # what a pass must beat
        print(f"epoch 0: validation loss {evaluate_loss(val_src, val_idx):.6f} of the starting net", flush=True)
    while step < total_steps:
        perm = rng.permutation(train_idx)
        running, count = 0.0, 0
        for s in range(0, len(perm) - batch + 1, batch):
            loss = loss_fn(model, data.batch(perm[s:s + batch]), a.eval_scale, a.scale, a.lam)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clip()
            running += loss.item()
            count += 1
            step += 1
            if step >= total_steps:
                break
        epoch += 1
        val_loss = evaluate_loss(val_src, val_idx)
        print(f"epoch {epoch}: step {step}, train loss {running / max(count, 1):.6f}, "
              f"validation loss {val_loss:.6f}, {time.time() - t0:.0f} s", flush=True)
        if not a.last and val_loss < best_loss:
            best_loss, best_epoch = val_loss, epoch
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        if a.checkpoint:
            torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "args": vars(a)}, a.checkpoint)

    exported = epoch
    if best_state is not None and best_epoch != epoch:
        model.load_state_dict(best_state)
        exported = best_epoch
        print(f"train.py: exporting epoch {best_epoch}, the lowest validation loss ({best_loss:.6f})", flush=True)
    q = quantise(model, a.eval_scale)
    desc = (f"KB9 {a.l1}x2-{a.l2}-{a.l3}-1; {len(train_idx)} positions of {a.features}, epoch {exported} of {epoch} "
            f"({step} steps of {batch} in all), "
            f"lambda {a.lam}, scale {a.scale}; validation loss {evaluate_loss(val_src, val_idx):.6f}")
    write_net(a.out, q, a.eval_scale, desc)
    print(f"train.py: wrote {a.out}", flush=True)

    # Float against quantised: on the validation positions, and with --compare on every position of
    # the training file, in file order (as `hisha nnue eval` prints them).
    model.eval()

    def values(src, idx):
        fl, qv = [], []
        for s in range(0, len(idx), 1024):  # the int64 gather of quantised_eval is B x 40 x L1
            us, them, _, _ = src.batch(idx[s:s + 1024])
            with torch.no_grad():
                fl.append(np.clip(model(us, them).numpy() * a.eval_scale, -VALUE_LIMIT, VALUE_LIMIT))
            qv.append(quantised_eval(q, us.numpy(), them.numpy(), data.features, a.eval_scale))
        return np.concatenate(fl), np.concatenate(qv)

    idx, src = (val_idx, val_src) if len(val_idx) else (train_idx, data)
    fl, qv = values(src, idx)
    diff = np.abs(fl - qv)
    print(f"float vs quantised on {len(idx)} positions: mean |diff| {diff.mean():.2f} cp, max {diff.max():.2f} cp",
          flush=True)
    if a.compare:
        fl, qv = values(data, np.arange(len(data)))
        with open(a.compare, "w") as f:
            for x, y in zip(fl, qv):
                f.write(f"{x:.3f} {int(y)}\n")

if __name__ == "__main__":
    main()
