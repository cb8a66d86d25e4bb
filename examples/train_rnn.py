"""Training an RNN with gm.scan and gradients from the compiler.

A tanh cell (hidden 128) reads sequences of 64 steps, batch 32, of a
synthetic task: each step carries a value and a marker, and the target is
the sum of the two marked values (the "adding problem"), read out from the
last hidden state. One training step (forward scan, backward scan, the Adam
update) is one compiled function: the sequence loop is a google.while, not
unrolled. The first step's gradients are checked against hand-written
NumPy backpropagation through time, and per-example gradient norms come
from gm.vmap(gm.grad(...)).

    PYTHONPATH=build/python /usr/bin/python3 examples/train_rnn.py
"""

import sys
import time

import numpy as np

import google_mlir as gm

HIDDEN, STEPS, BATCH = 128, 64, 32
LEARNING_RATE = 3e-3


def make_batch(rng, steps=STEPS, batch=BATCH):
    """(steps, batch, 2) inputs: a value in [0, 1) and a 0/1 marker (two
    per sequence, in its last quarter); targets: the sum of the marked
    values."""
    values = rng.random((steps, batch)).astype(np.float32)
    markers = np.zeros((steps, batch), np.float32)
    for b in range(batch):
        markers[steps - 1 - rng.choice(steps // 4, 2, replace=False), b] = 1.0
    xs = np.stack([values, markers], axis=-1)
    return xs, (values * markers).sum(axis=0).astype(np.float32)


def init_params(seed=0):
    rng = np.random.default_rng(seed)
    f32 = np.float32
    return {"wx": (rng.standard_normal((2, HIDDEN)) * 0.5).astype(f32),
            "wh": (rng.standard_normal((HIDDEN, HIDDEN)) /
                   np.sqrt(HIDDEN)).astype(f32),
            "b": np.zeros(HIDDEN, f32),
            "wo": (rng.standard_normal((HIDDEN, 1)) * 0.1).astype(f32),
            "bo": np.zeros(1, f32)}


def loss_fn(params, xs, targets):
    """Mean squared error of the readout of the last hidden state."""
    def cell(h, x):
        h = np.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
        return h, None

    h0 = np.zeros((xs.shape[1], HIDDEN), np.float32)
    h, _ = gm.scan(cell, h0, xs)
    prediction = (h @ params["wo"] + params["bo"]).reshape(-1)
    return np.mean((prediction - targets) ** 2)


def adam(params, grads, state, step):
    """One Adam update (traced: part of the compiled step)."""
    b1, b2, eps = 0.9, 0.999, 1e-8
    new_params, new_state = {}, {}
    for k in params:
        m = state["m"][k] * b1 + grads[k] * (1 - b1)
        v = state["v"][k] * b2 + grads[k] * grads[k] * (1 - b2)
        m_hat = m / (1 - b1 ** step)
        v_hat = v / (1 - b2 ** step)
        new_params[k] = params[k] - LEARNING_RATE * m_hat / (
            np.sqrt(v_hat) + eps)
        new_state.setdefault("m", {})[k] = m
        new_state.setdefault("v", {})[k] = v
    return new_params, new_state


@gm.jit(donate_argnums=(0, 1))
def train_step(params, state, xs, targets, step):
    """`step` (an array: a Python int would be static, one compile per
    value) counts from 1 for Adam's bias correction."""
    loss, grads = gm.value_and_grad(loss_fn)(params, xs, targets)
    params, state = adam(params, grads, state, step)
    return params, state, loss


def per_example_grad_norms(params, xs, targets):
    """|d loss_b / d params| for each sequence b (vmap over the batch)."""
    def single(params, x, target):
        return loss_fn(params, x[:, None, :], target[None])
    grads = gm.vmap(gm.grad(single), in_axes=(None, 1, 0))(params, xs,
                                                          targets)
    return np.sqrt(sum((g.reshape(g.shape[0], -1) ** 2).sum(axis=1)
                       for g in grads.values()))


def numpy_grads(params, xs, targets):
    """Backpropagation through time by hand, in float64."""
    p = {k: v.astype(np.float64) for k, v in params.items()}
    hs = [np.zeros((xs.shape[1], HIDDEN))]
    for x in xs:
        hs.append(np.tanh(x @ p["wx"] + hs[-1] @ p["wh"] + p["b"]))
    prediction = (hs[-1] @ p["wo"] + p["bo"]).reshape(-1)
    d_pred = 2 * (prediction - targets) / len(targets)
    grads = {"wo": hs[-1].T @ d_pred[:, None], "bo": d_pred.sum(keepdims=True)}
    dh = d_pred[:, None] @ p["wo"].T
    for k in ("wx", "wh", "b"):
        grads[k] = np.zeros_like(p[k])
    for t in range(len(xs) - 1, -1, -1):
        dz = dh * (1 - hs[t + 1] ** 2)
        grads["wx"] += xs[t].T @ dz
        grads["wh"] += hs[t].T @ dz
        grads["b"] += dz.sum(axis=0)
        dh = dz @ p["wh"].T
    return grads


def main(steps=300, log=print):
    rng = np.random.default_rng(0)
    params = init_params()
    xs, targets = make_batch(rng)

    # The compiler's gradients against NumPy's BPTT at the start.
    grads = gm.jit(gm.grad(loss_fn))(params, xs, targets)
    reference = numpy_grads(params, xs, targets)
    worst = max(np.abs(grads[k] - reference[k]).max() /
                (np.abs(reference[k]).max() + 1e-12) for k in grads)
    log(f"gradients vs NumPy BPTT: worst relative difference {worst:.2e}")
    if worst > 1e-3:
        raise SystemExit(f"error: gradients differ from NumPy's ({worst})")

    norms = per_example_grad_norms(params, xs, targets)
    log(f"per-example gradient norms (vmap of grad): min {norms.min():.3f}, "
        f"max {norms.max():.3f} over {len(norms)} sequences")

    state = {"m": {k: np.zeros_like(v) for k, v in params.items()},
             "v": {k: np.zeros_like(v) for k, v in params.items()}}
    start = time.perf_counter()
    first = None
    for step in range(1, steps + 1):
        xs, targets = make_batch(rng)
        params, state, loss = train_step(params, state, xs, targets,
                                         np.float32(step))
        first = float(loss) if first is None else first
        if step % 50 == 0:
            log(f"step {step:4d}: loss {float(loss):.4f}")
    seconds = time.perf_counter() - start
    test_xs, test_targets = make_batch(np.random.default_rng(1), batch=256)
    test_loss = float(gm.jit(loss_fn)(params, test_xs, test_targets))
    baseline = float(np.mean((test_targets - test_targets.mean()) ** 2))
    log(f"{steps} steps in {seconds:.1f} s; test loss {test_loss:.4f} "
        f"(first step {first:.4f}; predicting the mean: about "
        f"{baseline:.4f})")
    return test_loss, baseline


if __name__ == "__main__":
    test_loss, baseline = main()
    if not test_loss < 0.5 * baseline:
        sys.exit(f"error: the RNN did not learn (test loss {test_loss:.4f}, "
                 f"the mean predictor's {baseline:.4f})")
