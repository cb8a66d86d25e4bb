"""A LeNet-style CNN on scikit-learn's 8x8 digits, compiled with @gm.jit.

Two convolutions (3x3, "SAME") with relu, max and average pooling, two
dense layers and a softmax. The convolutions keep random weights (fixed
seed); the last layer is fitted in closed form (ridge regression on the
compiled network's features of the training images), which reaches about
85% test accuracy. Every compiled result is checked against an
independent NumPy implementation.

    PYTHONPATH=build/python /usr/bin/python3 examples/cnn_digits.py
"""

import sys

import numpy as np

import google_mlir as gm

SHAPES = {"c1": (3, 3, 1, 8), "b1": (8,), "c2": (3, 3, 8, 16), "b2": (16,),
          "w3": (64, 64), "b3": (64,), "w4": (64, 10), "b4": (10,)}


def init_weights(seed=0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    weights = {}
    for name, shape in SHAPES.items():
        fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
        scale = np.sqrt(2.0 / fan_in) if len(shape) > 1 else 0.05
        weights[name] = (rng.standard_normal(shape) * scale).astype(dtype)
    return weights


def features(x, c1, b1, c2, b2, w3, b3):
    """x: N x 8 x 8 x 1 -> N x 64 (traced or numpy-eager)."""
    h = gm.relu(gm.conv2d(x, c1, padding="SAME") + b1)   # N x 8 x 8 x 8
    h = gm.max_pool2d(h, 2)                               # N x 4 x 4 x 8
    h = gm.relu(gm.conv2d(h, c2, padding="SAME") + b2)   # N x 4 x 4 x 16
    h = gm.avg_pool2d(h, 2)                               # N x 2 x 2 x 16
    return gm.relu(h.reshape(-1, 64) @ w3 + b3)


def lenet_logits(x, c1, b1, c2, b2, w3, b3, w4, b4):
    """The class scores before the softmax."""
    return features(x, c1, b1, c2, b2, w3, b3) @ w4 + b4


def lenet(x, c1, b1, c2, b2, w3, b3, w4, b4):
    """Class probabilities, predicted classes and the last features."""
    h = features(x, c1, b1, c2, b2, w3, b3)
    logits = h @ w4 + b4
    return gm.softmax(logits, axis=-1), logits.argmax(axis=-1), h


def compile_lenet(options=""):
    """The CNN for any batch size (one compilation)."""
    return gm.jit(lenet, dynamic_dims={"x": [0]}, options=options)


# ---- an independent NumPy reference ----

def conv_same_numpy(x, w):
    """3x3 "SAME" convolution of NHWC x HWIO by im2col."""
    kh, kw, cin, cout = w.shape
    padded = np.pad(x, ((0, 0), (kh // 2, kh // 2), (kw // 2, kw // 2),
                        (0, 0)))
    n, h, wd, _ = x.shape
    cols = np.stack([padded[:, i:i + h, j:j + wd, :]
                     for i in range(kh) for j in range(kw)], axis=3)
    return cols.reshape(n, h, wd, kh * kw * cin) @ w.reshape(-1, cout)


def pool_numpy(x, reduce):
    n, h, w, c = x.shape
    return reduce(x.reshape(n, h // 2, 2, w // 2, 2, c), axis=(2, 4))


def lenet_numpy(x, c1, b1, c2, b2, w3, b3, w4, b4):
    h = np.maximum(conv_same_numpy(x, c1) + b1, 0)
    h = pool_numpy(h, np.max)
    h = np.maximum(conv_same_numpy(h, c2) + b2, 0)
    h = pool_numpy(h, np.mean)
    h = np.maximum(h.reshape(len(x), -1) @ w3 + b3, 0)
    logits = h @ w4 + b4
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True), logits.argmax(axis=-1), h


def load_digits():
    """Images scaled to [0, 1] as N x 8 x 8 x 1 float32, and labels; the
    first 1,500 for training, the rest (297) for testing."""
    from sklearn.datasets import load_digits as sklearn_digits
    digits = sklearn_digits()
    images = (digits.images / 16.0).astype(np.float32)[..., None]
    labels = digits.target.astype(np.int64)
    return (images[:1500], labels[:1500]), (images[1500:], labels[1500:])


def fit_readout(h, labels, weights, ridge=1e-2):
    """The last layer by ridge regression onto one-hot labels."""
    targets = np.eye(10)[labels]
    design = np.concatenate([h, np.ones((len(h), 1))], axis=1).astype(
        np.float64)
    solution = np.linalg.solve(design.T @ design +
                               ridge * np.eye(design.shape[1]),
                               design.T @ targets)
    weights = dict(weights)
    weights["w4"] = solution[:-1].astype(np.float32)
    weights["b4"] = solution[-1].astype(np.float32)
    return weights


def main():
    (train_x, train_y), (test_x, test_y) = load_digits()
    weights = init_weights()
    model = compile_lenet()
    args = [weights[name] for name in SHAPES]
    _, _, train_h = model(train_x, *args)
    np.testing.assert_allclose(train_h, lenet_numpy(train_x, *args)[2],
                               rtol=1e-4, atol=1e-5)
    weights = fit_readout(train_h, train_y, weights)
    args = [weights[name] for name in SHAPES]
    probabilities, predicted, _ = model(test_x, *args)
    expected, expected_classes, _ = lenet_numpy(test_x, *args)
    np.testing.assert_allclose(probabilities, expected, rtol=1e-4,
                               atol=1e-5)
    accuracy = float(np.mean(predicted == test_y))
    agree = float(np.mean(predicted == expected_classes))
    print(f"LeNet on digits: {len(test_x)} test images, accuracy "
          f"{accuracy:.1%} (NumPy agrees on {agree:.1%} of the classes; "
          f"compiled {model.num_compiled} time(s) for 2 batch sizes)")
    for batch in (1, 7):
        p, _, _ = model(test_x[:batch], *args)
        np.testing.assert_allclose(p, expected[:batch], rtol=1e-4,
                                   atol=1e-5)
    print("batches of 1 and 7 match NumPy too")
    return accuracy


if __name__ == "__main__":
    sys.exit(0 if main() > 0.8 else 1)
