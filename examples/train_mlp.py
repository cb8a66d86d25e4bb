"""Training an MLP (64 -> 256 -> 10) on scikit-learn's digits with
gradients from the compiler: each step is one compiled function,
gm.jit(value_and_grad(cross-entropy) + the SGD update). The same model is
trained with hand-written NumPy backpropagation from the same initial
weights on the same minibatches; both must reach the same test accuracy
(within 1%), and the losses must agree step by step.

    PYTHONPATH=build/python /usr/bin/python3 examples/train_mlp.py
"""

import sys
import time

import numpy as np

import google_mlir as gm

LEARNING_RATE = 0.5
BATCH = 250
EPOCHS = 60


def load_digits():
    """8x8 images flattened to 64 floats in [0, 1], labels; the first
    1,500 for training, the rest (297) for testing."""
    from sklearn.datasets import load_digits as sklearn_digits
    digits = sklearn_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    return (x[:1500], y[:1500]), (x[1500:], y[1500:])


def init_params(seed=0):
    rng = np.random.default_rng(seed)
    w1 = (rng.standard_normal((64, 256)) * np.sqrt(2 / 64)).astype(np.float32)
    w2 = (rng.standard_normal((256, 10)) * np.sqrt(2 / 256)).astype(
        np.float32)
    return [w1, np.zeros(256, np.float32), w2, np.zeros(10, np.float32)]


def loss_fn(params, x, onehot):
    """Mean softmax cross-entropy (traced by gm.value_and_grad)."""
    w1, b1, w2, b2 = params
    h = gm.relu(x @ w1 + b1)
    logits = h @ w2 + b2
    top = np.max(logits, axis=-1, keepdims=True)
    log_z = top + np.log(np.sum(np.exp(logits - top), axis=-1,
                                keepdims=True))
    return -np.mean(np.sum(onehot * (logits - log_z), axis=-1))


@gm.jit
def train_step(w1, b1, w2, b2, x, onehot):
    loss, grads = gm.value_and_grad(loss_fn)((w1, b1, w2, b2), x, onehot)
    updated = [p - LEARNING_RATE * g for p, g in
               zip((w1, b1, w2, b2), grads)]
    return (*updated, loss)


@gm.jit
def predict(w1, b1, w2, b2, x):
    return (gm.relu(x @ w1 + b1) @ w2 + b2).argmax(axis=-1)


# ---- the same training with hand-written backpropagation ----

def numpy_step(params, x, onehot):
    w1, b1, w2, b2 = params
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    logits = h @ w2 + b2
    shifted = logits - logits.max(axis=-1, keepdims=True)
    probabilities = np.exp(shifted)
    probabilities /= probabilities.sum(axis=-1, keepdims=True)
    loss = -np.mean(np.sum(onehot * np.log(probabilities), axis=-1))
    d_logits = (probabilities - onehot) / len(x)
    d_w2 = h.T @ d_logits
    d_b2 = d_logits.sum(axis=0)
    d_pre = (d_logits @ w2.T) * (pre > 0)
    d_w1 = x.T @ d_pre
    d_b1 = d_pre.sum(axis=0)
    grads = (d_w1, d_b1, d_w2, d_b2)
    return [p - LEARNING_RATE * g for p, g in zip(params, grads)], loss


def numpy_predict(params, x):
    w1, b1, w2, b2 = params
    return (np.maximum(x @ w1 + b1, 0) @ w2 + b2).argmax(axis=-1)


def train(step, params, x, y):
    order = np.random.default_rng(1)
    onehot = np.eye(10, dtype=np.float32)[y]
    losses = []
    for _ in range(EPOCHS):
        permutation = order.permutation(len(x))
        for start in range(0, len(x) - BATCH + 1, BATCH):
            batch = permutation[start:start + BATCH]
            params, loss = step(params, x[batch], onehot[batch])
            losses.append(float(loss))
    return params, losses


def compiled_step(params, x, onehot):
    *params, loss = train_step(*params, x, onehot)
    return params, loss


def main():
    (train_x, train_y), (test_x, test_y) = load_digits()
    start = time.perf_counter()
    params, losses = train(compiled_step, init_params(), train_x, train_y)
    compiled_seconds = time.perf_counter() - start
    start = time.perf_counter()
    reference, reference_losses = train(numpy_step, init_params(), train_x,
                                        train_y)
    numpy_seconds = time.perf_counter() - start
    np.testing.assert_allclose(losses, reference_losses, rtol=2e-3,
                               atol=1e-4)
    accuracy = float(np.mean(predict(*params, test_x) == test_y))
    reference_accuracy = float(np.mean(numpy_predict(reference, test_x) ==
                                       test_y))
    print(f"MLP 64-256-10 on digits, {len(losses)} SGD steps of {BATCH}: "
          f"loss {losses[0]:.3f} -> {losses[-1]:.3f}; test accuracy "
          f"{accuracy:.1%} (hand-written NumPy backprop: "
          f"{reference_accuracy:.1%}); training took {compiled_seconds:.2f} s "
          f"compiled (first step's compile included), "
          f"{numpy_seconds:.2f} s in NumPy; train_step compiled "
          f"{train_step.num_compiled} time(s)")
    return accuracy, reference_accuracy


if __name__ == "__main__":
    accuracy, reference_accuracy = main()
    sys.exit(0 if accuracy > 0.9 and
             abs(accuracy - reference_accuracy) <= 0.01 else 1)
