"""Training examples/cnn_digits.py's LeNet-style CNN end to end on
scikit-learn's digits with gradients from the compiler: convolutions, max
and average pooling, dense layers and the softmax cross-entropy are all
differentiated by --google-differentiate inside one jitted SGD step. With
PyTorch installed (Debian's python3-torch), the same model trained by
torch's autograd from the same weights on the same minibatches must agree
loss by loss over the first 20 steps (later, float32 rounding in other
orders lets the two trajectories drift apart). `numpy_step` is the same
step with hand-written NumPy backpropagation (im2col convolutions), the
benchmark's contender and the tests' oracle.

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


def _im2col(x):
    """3x3 "SAME" patches of NHWC x: N x H x W x (9 C), (i, j, c) order as
    an HWIO filter reshaped to (9 C) x F."""
    n, h, w, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    return np.stack([padded[:, i:i + h, j:j + w, :] for i in range(3)
                     for j in range(3)], axis=3).reshape(n, h, w, 9 * c)


def _col2im(columns, c):
    """The adjoint of _im2col: N x H x W x (9 C) -> N x H x W x C."""
    n, h, w, _ = columns.shape
    columns = columns.reshape(n, h, w, 9, c)
    padded = np.zeros((n, h + 2, w + 2, c), columns.dtype)
    for k in range(9):
        i, j = divmod(k, 3)
        padded[:, i:i + h, j:j + w, :] += columns[:, :, :, k, :]
    return padded[:, 1:-1, 1:-1, :]


def _windows(x):
    """N x H x W x C -> N x H/2 x W/2 x C x 4 (each 2x2 window, row-major)."""
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).transpose(
        0, 1, 3, 5, 2, 4).reshape(n, h // 2, w // 2, c, 4)


def _unwindows(x):
    n, h, w, c, _ = x.shape
    return x.reshape(n, h, w, c, 2, 2).transpose(0, 1, 4, 2, 5, 3).reshape(
        n, 2 * h, 2 * w, c)


def numpy_step(params, x, onehot):
    """One SGD step with hand-written backpropagation: the updated
    parameters and the loss (float32 throughout)."""
    c1, b1, c2, b2, w3, b3, w4, b4 = params
    n = len(x)
    columns1 = _im2col(x)
    z1 = columns1 @ c1.reshape(-1, 8) + b1
    a1 = np.maximum(z1, 0)
    windows = _windows(a1)
    first_max = windows.argmax(axis=-1)           # the first maximal element
    p1 = windows.max(axis=-1)
    columns2 = _im2col(p1)
    z2 = columns2 @ c2.reshape(-1, 16) + b2
    a2 = np.maximum(z2, 0)
    flat = _windows(a2).mean(axis=-1).reshape(n, 64)
    z3 = flat @ w3 + b3
    a3 = np.maximum(z3, 0)
    logits = a3 @ w4 + b4
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = -np.mean(np.sum(onehot * log_p, axis=-1))

    d_logits = (np.exp(log_p) - onehot) / np.float32(n)
    d_w4, d_b4 = a3.T @ d_logits, d_logits.sum(axis=0)
    d_z3 = (d_logits @ w4.T) * (z3 > 0)
    d_w3, d_b3 = flat.T @ d_z3, d_z3.sum(axis=0)
    d_p2 = (d_z3 @ w3.T).reshape(n, 2, 2, 16)
    d_a2 = _unwindows(np.repeat(d_p2[..., None] * np.float32(0.25), 4,
                                axis=-1))
    d_z2 = (d_a2 * (z2 > 0)).reshape(-1, 16)
    d_c2 = (columns2.reshape(-1, 72).T @ d_z2).reshape(c2.shape)
    d_b2 = d_z2.sum(axis=0)
    d_p1 = _col2im((d_z2 @ c2.reshape(-1, 16).T).reshape(n, 4, 4, 72), 8)
    picked = first_max[..., None] == np.arange(4)
    d_a1 = _unwindows(picked * d_p1[..., None])
    d_z1 = (d_a1 * (z1 > 0)).reshape(-1, 8)
    d_c1 = (columns1.reshape(-1, 9).T @ d_z1).reshape(c1.shape)
    d_b1 = d_z1.sum(axis=0)
    grads = (d_c1, d_b1, d_c2, d_b2, d_w3, d_b3, d_w4, d_b4)
    return [p - np.float32(LEARNING_RATE) * g.astype(p.dtype)
            for p, g in zip(params, grads)], loss


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
