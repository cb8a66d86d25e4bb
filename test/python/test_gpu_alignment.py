# RUN: env GOOGLE_OPT=google-opt GOOGLE_RUN=google-run %python -m pytest -q -p no:cacheprovider %s
"""The GPU kernels that read A and B as 16-byte vectors (vector tiles,
tensor cores) run only when the buffers start at multiples of 16 bytes,
checked at run time; otherwise the shared-tile kernel runs on the same
tiles. Checked through the whole pipeline with the kernels run on the host
(google-opt --google-test-gpu-mapping-on-host), called on numpy memory
that starts one element past an aligned address (passed without a copy):
a vector kernel would read it misaligned."""

import os
import subprocess

import numpy as np
import pytest

from google_mlir import runtime

MODULE = """
func.func @vector_tiles(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>) -> tensor<128x256xf32> {
  %c = google.matmul %a, %b : tensor<128x64xf32>, tensor<64x256xf32> -> tensor<128x256xf32>
  return %c : tensor<128x256xf32>
}
func.func @tensor_cores(%a: tensor<2x128x64xf16>, %b: tensor<2x64x128xf16>) -> tensor<2x128x128xf16> {
  %c = google.matmul %a, %b : tensor<2x128x64xf16>, tensor<2x64x128xf16> -> tensor<2x128x128xf16>
  return %c : tensor<2x128x128xf16>
}
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory):
    directory = tmp_path_factory.mktemp("alignment")
    source = directory / "module.mlir"
    source.write_text(MODULE)
    lowered = subprocess.run(
        [os.environ["GOOGLE_OPT"], str(source),
         "--google-test-gpu-mapping-on-host=chip=sm_90"],
        check=True, capture_output=True, text=True).stdout
    (directory / "lowered.mlir").write_text(lowered)
    shared_object = directory / "module.so"
    subprocess.run([os.environ["GOOGLE_RUN"],
                    str(directory / "lowered.mlir"),
                    f"--emit-object={shared_object}"], check=True)
    return runtime.load(str(shared_object))


def place(array, aligned):
    """A copy of `array` at a 16-byte aligned address, or one element past
    one."""
    raw = np.empty(array.size + 16, array.dtype)
    start = -raw.ctypes.data % 16 // array.itemsize
    if not aligned:
        start += 1
    placed = raw[start:start + array.size].reshape(array.shape)
    placed[...] = array
    assert (placed.ctypes.data % 16 == 0) == aligned
    return placed


@pytest.mark.parametrize("aligned", [True, False])
def test_f32_vector_tiles(module, aligned):
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (128, 64)).astype(np.float32)
    b = rng.uniform(-1, 1, (64, 256)).astype(np.float32)
    result = module.function("vector_tiles")(place(a, aligned),
                                             place(b, aligned))
    np.testing.assert_allclose(result, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("aligned", [True, False])
def test_f16_tensor_cores(module, aligned):
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (2, 128, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (2, 64, 128)).astype(np.float16)
    result = module.function("tensor_cores")(place(a, aligned),
                                             place(b, aligned))
    expected = (a.astype(np.float32) @ b.astype(np.float32)).astype(
        np.float16)
    np.testing.assert_allclose(result.astype(np.float32),
                               expected.astype(np.float32), rtol=2e-3,
                               atol=2e-3)
