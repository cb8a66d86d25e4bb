"""The example MLP from Python: @gm.jit traces it, compiles it once for any
batch size, and runs it on numpy arrays; checked against numpy."""

import numpy as np

import google_mlir as gm


@gm.jit(dynamic_dims={"x": [0]})
def mlp(x, w1, b1, w2, b2):
    h = gm.relu(x @ w1 + b1)
    return gm.softmax(gm.relu(h @ w2 + b2))


def mlp_numpy(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0)
    logits = np.maximum(h @ w2 + b2, 0)
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def main():
    rng = np.random.default_rng(0)
    weights = [rng.uniform(-0.2, 0.2, s).astype(np.float32)
               for s in [(64, 128), (128,), (128, 10), (10,)]]
    print(mlp.lower(np.zeros((1, 64), np.float32), *weights))
    for batch in (1, 8, 100):
        x = rng.standard_normal((batch, 64)).astype(np.float32)
        y = mlp(x, *weights)
        np.testing.assert_allclose(y, mlp_numpy(x, *weights), rtol=1e-5,
                                   atol=1e-6)
        print(f"batch {batch}: matches numpy; first row "
              f"{np.array2string(y[0], precision=3)}")
    print(f"compiled {mlp.num_compiled} time(s) for 3 batch sizes")


if __name__ == "__main__":
    main()
