"""A GPT-style decoder block compiled with @gm.jit: token embedding (a
gather), causal multi-head self-attention (iota + compare + select mask,
heads by reshape and transpose), layer norms, a GELU MLP and residuals,
checked against NumPy at f32 and with bf16 weights.

    PYTHONPATH=build/python /usr/bin/python3 examples/gpt_block.py
"""

import math
import sys

import numpy as np

import google_mlir as gm

VOCAB, WIDTH, HEADS, HIDDEN = 96, 64, 4, 256


def parameter_shapes(vocab=VOCAB, width=WIDTH, hidden=HIDDEN):
    return {"embedding": (vocab, width), "ln1_scale": (width,),
            "ln1_bias": (width,), "wq": (width, width),
            "wk": (width, width), "wv": (width, width), "wo": (width, width),
            "ln2_scale": (width,), "ln2_bias": (width,),
            "w1": (width, hidden), "b1": (hidden,), "w2": (hidden, width),
            "b2": (width,)}


# The parameters in the order gpt_block takes them.
PARAMETERS = parameter_shapes()


def init_parameters(seed=0, dtype=np.float32, **sizes):
    rng = np.random.default_rng(seed)
    parameters = {}
    for name, shape in parameter_shapes(**sizes).items():
        if name.endswith("scale"):
            value = 1 + 0.1 * rng.standard_normal(shape)
        elif len(shape) == 1:
            value = 0.1 * rng.standard_normal(shape)
        else:
            value = rng.standard_normal(shape) / math.sqrt(shape[0])
        value = value.astype(np.float32)
        parameters[name] = gm.to_bfloat16(value) if dtype == gm.bfloat16 \
            else value.astype(dtype)
    return parameters


def layer_norm(x, scale, bias, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    variance = (centered * centered).mean(axis=-1, keepdims=True)
    return centered * gm.rsqrt(variance + eps) * scale + bias


def attention(x, wq, wk, wv, wo):
    batch, length, width = x.shape
    depth = width // HEADS

    def heads(m):  # B x T x D -> (B * H) x T x depth
        return (x @ m).reshape(batch, length, HEADS, depth).transpose(
            0, 2, 1, 3).reshape(batch * HEADS, length, depth)

    q, k, v = heads(wq), heads(wk), heads(wv)
    scores = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(depth))
    # Causal: query i sees keys j <= i.
    rows = gm.iota((length, length), 0)
    columns = gm.iota((length, length), 1)
    scores = np.where(columns <= rows, scores, -1e9)
    mixed = gm.softmax(scores, axis=-1) @ v
    mixed = mixed.reshape(batch, HEADS, length, depth).transpose(
        0, 2, 1, 3).reshape(batch, length, width)
    return mixed @ wo


def gpt_block(tokens, embedding, ln1_scale, ln1_bias, wq, wk, wv, wo,
              ln2_scale, ln2_bias, w1, b1, w2, b2):
    """tokens: B x T int64 -> B x T x WIDTH."""
    x = embedding[tokens]
    x = x + attention(layer_norm(x, ln1_scale, ln1_bias), wq, wk, wv, wo)
    h = gm.gelu(layer_norm(x, ln2_scale, ln2_bias) @ w1 + b1)
    return x + h @ w2 + b2


def compile_block(options=""):
    return gm.jit(gpt_block, options=options)


# ---- NumPy, in float64 ----

def gpt_block_numpy(tokens, embedding, ln1_scale, ln1_bias, wq, wk, wv, wo,
                    ln2_scale, ln2_bias, w1, b1, w2, b2):
    from math import erf
    f = lambda a: a.astype(np.float64)  # noqa: E731

    def norm(x, scale, bias):
        mean = x.mean(axis=-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(variance + 1e-5) * f(scale) + f(bias)

    x = f(embedding)[tokens]
    batch, length, width = x.shape
    depth = width // HEADS
    h = norm(x, ln1_scale, ln1_bias)
    q, k, v = [(h @ f(m)).reshape(batch, length, HEADS, depth)
               .transpose(0, 2, 1, 3) for m in (wq, wk, wv)]
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(depth)
    scores = np.where(np.tril(np.ones((length, length), bool)), scores, -1e9)
    p = np.exp(scores - scores.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    mixed = (p @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
    x = x + mixed @ f(wo)
    pre = norm(x, ln2_scale, ln2_bias) @ f(w1) + f(b1)
    gelu = 0.5 * pre * (1 + np.vectorize(erf)(pre / math.sqrt(2)))
    return x + gelu @ f(w2) + f(b2)


def check(batch, length, dtype, options="", seed=1):
    """Runs the compiled block once; returns the largest error relative to
    the output's scale."""
    parameters = init_parameters(dtype=dtype)
    tokens = np.random.default_rng(seed).integers(0, VOCAB, (batch, length))
    block = compile_block(options)
    args = [parameters[name] for name in PARAMETERS]
    got = block(tokens, *args)
    want = gpt_block_numpy(tokens, *[gm.from_bfloat16(a) if
                                     a.dtype == gm.bfloat16 else a
                                     for a in args])
    if got.dtype == gm.bfloat16:
        got = gm.from_bfloat16(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


def main():
    f32 = check(2, 16, np.float32)
    bf16 = check(2, 16, gm.bfloat16)
    print(f"GPT block (width {WIDTH}, {HEADS} heads, batch 2, sequence 16): "
          f"largest error relative to the output's scale {f32:.1e} at f32, "
          f"{bf16:.1e} with bf16 weights")
    return f32 < 1e-5 and bf16 < 5e-2


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
