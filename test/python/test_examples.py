# RUN: %python -m pytest -q -p no:cacheprovider %s
"""The models of examples/ end to end: the LeNet-style CNN on
scikit-learn's digits and the GPT-style decoder block, against NumPy at
every opt-level, and compiled for NVVM and ROCDL; the MLP trained with the
compiler's gradients against hand-written NumPy backpropagation; the RNN
trained through gm.scan."""

import os
import sys

import numpy as np
import pytest

import google_mlir as gm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "examples"))
import cnn_digits  # noqa: E402
import gpt_block  # noqa: E402
import train_cnn  # noqa: E402
import train_mlp  # noqa: E402
import train_rnn  # noqa: E402

OPT_LEVELS = ["0", "1", "2", "3"]


def digits_or_skip():
    pytest.importorskip("sklearn", reason="the digits come with "
                        "python3-sklearn")
    return cnn_digits.load_digits()


@pytest.mark.parametrize("level", OPT_LEVELS)
def test_cnn_matches_numpy(level):
    (train_x, _), (test_x, _) = digits_or_skip()
    weights = cnn_digits.init_weights()
    args = [weights[name] for name in cnn_digits.SHAPES]
    model = cnn_digits.compile_lenet(f"opt-level={level}")
    for images in (test_x[:1], train_x[:64]):
        probabilities, classes, features = model(images, *args)
        expected, _, expected_features = cnn_digits.lenet_numpy(images, *args)
        np.testing.assert_allclose(features, expected_features, rtol=1e-4,
                                   atol=1e-5)
        np.testing.assert_allclose(probabilities, expected, rtol=1e-4,
                                   atol=1e-6)
        np.testing.assert_array_equal(classes,
                                      np.argmax(probabilities, axis=-1))
    assert model.num_compiled == 1


def test_cnn_classifies_digits():
    """Random convolutions and a fitted readout: most test digits right."""
    digits_or_skip()
    assert cnn_digits.main() > 0.8


@pytest.mark.parametrize("level", OPT_LEVELS)
@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_gpt_block_matches_numpy(level, dtype):
    error = gpt_block.check(2, 16, np.float32 if dtype == "f32" else
                            gm.bfloat16, options=f"opt-level={level}")
    assert error < (1e-5 if dtype == "f32" else 5e-2), error


@pytest.mark.parametrize("target", ["cuda", "rocm"])
def test_models_compile_for_gpus(target):
    """Both models lower to host code launching device binaries (checked on
    a GPU by the e2e GPU tests when one is present)."""
    weights = cnn_digits.init_weights()
    cnn = gm.jit(cnn_digits.lenet, target=target)
    text = cnn.lower(np.zeros((4, 8, 8, 1), np.float32),
                     *[weights[n] for n in cnn_digits.SHAPES], stage="llvm")
    assert "gpu.binary" in text and "gpu.launch_func" in text
    parameters = gpt_block.init_parameters(dtype=gm.bfloat16)
    block = gm.jit(gpt_block.gpt_block, target=target)
    text = block.lower(np.zeros((2, 16), np.int64),
                       *[parameters[n] for n in gpt_block.PARAMETERS],
                       stage="llvm")
    assert "gpu.binary" in text and "gpu.launch_func" in text
    # The training step: forward, gradients and update.
    step = gm.jit(train_mlp.train_step.__wrapped__, target=target)
    text = step.lower(*train_mlp.init_params(),
                      np.zeros((32, 64), np.float32),
                      np.zeros((32, 10), np.float32), stage="llvm")
    assert "gpu.binary" in text and "gpu.launch_func" in text


@pytest.mark.parametrize("level", OPT_LEVELS)
def test_training_step_matches_numpy_backprop(level):
    (train_x, train_y), _ = digits_or_skip()
    x = train_x.reshape(len(train_x), -1)[:64]
    onehot = np.eye(10, dtype=np.float32)[train_y[:64]]
    params = train_mlp.init_params()
    step = gm.jit(train_mlp.train_step.__wrapped__,
                  options=f"opt-level={level}")
    *updated, loss = step(*params, x, onehot)
    expected, expected_loss = train_mlp.numpy_step(params, x, onehot)
    np.testing.assert_allclose(loss, expected_loss, rtol=1e-5)
    for got, want in zip(updated, expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_training_reaches_numpy_accuracy():
    digits_or_skip()
    accuracy, reference_accuracy = train_mlp.main()
    assert accuracy > 0.9
    assert abs(accuracy - reference_accuracy) <= 0.01


def test_cnn_trains_end_to_end():
    """Convolutions, pools, dense layers and the loss differentiated in one
    jitted step (checked against torch's autograd when torch is there)."""
    digits_or_skip()
    assert train_cnn.main() > 0.85


@pytest.mark.parametrize("level", OPT_LEVELS)
def test_cnn_training_step_matches_numpy_backprop(level):
    """The compiled CNN step against hand-written backpropagation (im2col,
    first-maximum pooling gradients), the benchmark's contender."""
    (train_x, train_y), _ = digits_or_skip()
    onehot = np.eye(10, dtype=np.float32)[train_y[:32]]
    weights = cnn_digits.init_weights()
    params = [weights[name] for name in cnn_digits.SHAPES]
    step = gm.jit(train_cnn.train_step.__wrapped__,
                  options=f"opt-level={level}")
    *updated, loss = step(*params, train_x[:32], onehot)
    expected, expected_loss = train_cnn.numpy_step(params, train_x[:32],
                                                   onehot)
    np.testing.assert_allclose(loss, expected_loss, rtol=1e-5)
    for got, want in zip(updated, expected):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_rnn_trains_with_scan():
    """A scan-based RNN: gradients against NumPy BPTT (inside main), the
    per-example norms from vmap(grad), and a model better than the mean
    predictor after a short training."""
    lines = []
    test_loss, baseline = train_rnn.main(steps=150, log=lines.append)
    assert test_loss < 0.7 * baseline, lines
    assert any("per-example gradient norms" in line for line in lines)
