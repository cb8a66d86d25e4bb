# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Small models end to end against numpy."""

import numpy as np

import google_mlir as gm


def test_mlp(rng):
    @gm.jit
    def mlp(x, w1, b1, w2, b2):
        h = gm.relu(x @ w1 + b1)
        return gm.softmax(h @ w2 + b2)

    args = [rng.standard_normal(s).astype(np.float32) * 0.1 for s in
            [(32, 784), (784, 256), (256,), (256, 10), (10,)]]
    x, w1, b1, w2, b2 = args
    h = np.maximum(x @ w1 + b1, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(mlp(*args), e / e.sum(axis=-1, keepdims=True),
                               rtol=1e-4, atol=1e-6)
    # The fused matmul+bias+relu is what the optimizer made of it.
    assert "google.matmul_bias_relu" in mlp.lower(*args, stage="optimized")


def attention_numpy(q, k, v):
    scores = q @ np.transpose(k, (0, 2, 1)) / np.sqrt(q.shape[-1])
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def test_attention(rng):
    @gm.jit
    def attention(q, k, v):
        scale = 1.0 / np.sqrt(q.shape[-1])
        scores = q @ gm.transpose(k, (0, 2, 1)) * scale
        return gm.softmax(scores, axis=-1) @ v

    q, k, v = (rng.standard_normal((2, 16, 32)).astype(np.float32)
               for _ in range(3))
    np.testing.assert_allclose(attention(q, k, v), attention_numpy(q, k, v),
                               rtol=1e-4, atol=1e-5)


def test_attention_with_projections(rng):
    wq, wk, wv = (rng.standard_normal((32, 32)).astype(np.float32) * 0.2
                  for _ in range(3))

    @gm.jit
    def layer(x):
        q, k, v = x @ wq, x @ wk, x @ wv
        scores = q @ k.transpose(0, 2, 1) / np.float32(np.sqrt(32))
        return gm.softmax(scores) @ v

    x = rng.standard_normal((3, 8, 32)).astype(np.float32)
    expected = attention_numpy(x @ wq, x @ wk, x @ wv)
    np.testing.assert_allclose(layer(x), expected, rtol=1e-4, atol=1e-5)


def test_layer_norm(rng):
    @gm.jit
    def layer_norm(x, gamma, beta):
        mean = x.mean(axis=-1, keepdims=True)
        centered = x - mean
        variance = (centered * centered).mean(axis=-1, keepdims=True)
        return centered / gm.sqrt(variance + 1e-5) * gamma + beta

    x = rng.standard_normal((16, 64)).astype(np.float32) * 3 + 1
    gamma = rng.standard_normal(64).astype(np.float32)
    beta = rng.standard_normal(64).astype(np.float32)
    mean = x.mean(axis=-1, keepdims=True)
    expected = (x - mean) / np.sqrt(x.var(axis=-1, keepdims=True) + 1e-5) * \
        gamma + beta
    np.testing.assert_allclose(layer_norm(x, gamma, beta), expected,
                               rtol=1e-4, atol=1e-4)


def test_nested_jit_is_inlined(rng):
    @gm.jit
    def dense(x, w):
        return gm.tanh(x @ w)

    @gm.jit
    def two_layers(x, w1, w2):
        return dense(dense(x, w1), w2)

    x = rng.standard_normal((4, 8)).astype(np.float32)
    w1 = rng.standard_normal((8, 8)).astype(np.float32)
    w2 = rng.standard_normal((8, 2)).astype(np.float32)
    np.testing.assert_allclose(two_layers(x, w1, w2),
                               np.tanh(np.tanh(x @ w1) @ w2), rtol=1e-5,
                               atol=1e-6)
    assert dense.num_compiled == 0
