"""Training examples/cnn_digits.py's LeNet-style CNN end to end on
scikit-learn's digits with gradients from the compiler: convolutions, max
and average pooling, dense layers and the softmax cross-entropy are all
differentiated by --google-differentiate inside one jitted SGD step. With
PyTorch installed (Debian's python3-torch), the same model trained by
torch's autograd from the same weights on the same minibatches must agree
loss by loss over the first 20 steps (later, float32 rounding in other
orders lets the two trajectories drift apart).

    PYTHONPATH=build/python /usr/bin/python3 examples/train_cnn.py
"""

import sys
import time

import numpy as np

import google_mlir as gm

import cnn_digits

LEARNING_RATE = 0.2
BATCH = 100
EPOCHS = 30


def loss_fn(params, x, onehot):
    logits = cnn_digits.lenet_logits(x, *params)
    top = np.max(logits, axis=-1, keepdims=True)
    log_z = top + np.log(np.sum(np.exp(logits - top), axis=-1,
                                keepdims=True))
    return -np.mean(np.sum(onehot * (logits - log_z), axis=-1))


@gm.jit
def train_step(c1, b1, c2, b2, w3, b3, w4, b4, x, onehot):
    params = (c1, b1, c2, b2, w3, b3, w4, b4)
    loss, grads = gm.value_and_grad(loss_fn)(params, x, onehot)
    return (*[p - LEARNING_RATE * g for p, g in zip(params, grads)], loss)


@gm.jit
def predict(c1, b1, c2, b2, w3, b3, w4, b4, x):
    return cnn_digits.lenet_logits(x, c1, b1, c2, b2, w3, b3, w4,
                                   b4).argmax(axis=-1)


def torch_losses(params, batches):
    """The same training with torch's autograd (None without torch)."""
    try:
        import torch
    except ImportError:
        return None
    functional = torch.nn.functional
    tensors = [torch.from_numpy(p.copy()).requires_grad_() for p in params]
    losses = []
    for x, onehot in batches:
        c1, b1, c2, b2, w3, b3, w4, b4 = tensors
        oihw = lambda w: w.permute(3, 2, 0, 1)  # noqa: E731
        h = torch.from_numpy(x).permute(0, 3, 1, 2)
        h = functional.relu(functional.conv2d(h, oihw(c1), b1, padding=1))
        h = functional.max_pool2d(h, 2)
        h = functional.relu(functional.conv2d(h, oihw(c2), b2, padding=1))
        h = functional.avg_pool2d(h, 2)
        h = h.permute(0, 2, 3, 1).reshape(h.shape[0], -1)
        logits = functional.relu(h @ w3 + b3) @ w4 + b4
        loss = -(torch.from_numpy(onehot) *
                 torch.log_softmax(logits, dim=-1)).sum(dim=-1).mean()
        grads = torch.autograd.grad(loss, tensors)
        with torch.no_grad():
            tensors = [(t - LEARNING_RATE * g).requires_grad_()
                       for t, g in zip(tensors, grads)]
        losses.append(float(loss))
    return losses


def main():
    (train_x, train_y), (test_x, test_y) = cnn_digits.load_digits()
    weights = cnn_digits.init_weights()
    params = [weights[name] for name in cnn_digits.SHAPES]
    onehot = np.eye(10, dtype=np.float32)[train_y]
    order = np.random.default_rng(1)
    batches = []
    for _ in range(EPOCHS):
        permutation = order.permutation(len(train_x))
        for start in range(0, len(train_x) - BATCH + 1, BATCH):
            batch = permutation[start:start + BATCH]
            batches.append((train_x[batch], onehot[batch]))
    start = time.perf_counter()
    losses = []
    for x, targets in batches:
        *params, loss = train_step(*params, x, targets)
        losses.append(float(loss))
    seconds = time.perf_counter() - start
    accuracy = float(np.mean(predict(*params, test_x) == test_y))
    reference = torch_losses([weights[name] for name in cnn_digits.SHAPES],
                             batches)
    if reference is not None:
        # Rounding differences grow over many steps (float32, other
        # summation orders): the first 20 steps must agree closely.
        np.testing.assert_allclose(losses[:20], reference[:20], rtol=1e-3,
                                   atol=1e-4)
    print(f"LeNet on digits trained end to end: {len(losses)} SGD steps of "
          f"{BATCH}, loss {losses[0]:.3f} -> {losses[-1]:.3f}, test "
          f"accuracy {accuracy:.1%} in {seconds:.2f} s (first step's "
          "compile included); "
          + ("PyTorch's autograd agrees on the first 20 losses"
             if reference else "PyTorch not installed: no autograd "
             "comparison"))
    return accuracy


if __name__ == "__main__":
    sys.exit(0 if main() > 0.85 else 1)
