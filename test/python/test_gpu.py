# RUN: %python -m pytest -q -p no:cacheprovider %s
"""@jit(target="cuda"/"rocm"): compiled for the GPU, numpy arrays copied to
the device and back. Without a GPU: the driver's absence is a clear error,
and the stand-in CUDA driver of the tests (test/runtime/fake-cuda: device
memory in host memory, kernels not run) checks the calls' plumbing."""

import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import google_mlir as gm

FAKE_CUDA = (pathlib.Path(gm.__file__).resolve().parents[2] / "test" /
             "fake-cuda")


def driver_works(kind):
    try:
        return bool(gm._native.devices(kind))
    except gm.Error:
        return False


HAVE_CUDA = driver_works("cuda")


def test_unknown_target():
    with pytest.raises(ValueError, match="unknown target 'tpu'; expected "
                       "'cpu', 'cuda' or 'rocm'"):
        gm.jit(target="tpu")(lambda x: x)


@pytest.mark.skipif(HAVE_CUDA, reason="a CUDA driver is present")
def test_no_cuda_driver(cache_dir):
    @gm.jit(target="cuda")
    def relu(x):
        return gm.relu(x)

    with pytest.raises(gm.Error, match=r"no CUDA driver found "
                       r"\(libcuda\.so\.1\)"):
        relu(np.ones((2, 3), np.float32))


@pytest.mark.skipif(driver_works("rocm"), reason="a ROCm driver is present")
def test_no_rocm_driver(cache_dir):
    with pytest.raises(gm.Error, match=r"no ROCm driver found"):
        gm.jit(target="rocm")(lambda x: x * 2.0)(np.ones(3, np.float32))


def run_with_fake_cuda(code, cache_dir, **env):
    script = cache_dir.parent / "script.py"
    script.write_text(textwrap.dedent(code))
    environment = dict(os.environ, LD_LIBRARY_PATH=str(FAKE_CUDA),
                       GOOGLE_MLIR_CACHE_DIR=str(cache_dir), **env)
    return subprocess.run([sys.executable, str(script)], env=environment,
                          capture_output=True, text=True)


@pytest.mark.skipif(not FAKE_CUDA.is_dir(), reason="no fake CUDA driver")
def test_copies_through_the_device(cache_dir):
    # No kernels: a reshape and a returned argument are copies, which the
    # stand-in driver performs, so the values are real.
    done = run_with_fake_cuda("""
        import numpy as np, google_mlir as gm
        @gm.jit(target="cuda")
        def flat(x):
            return x.reshape(6), x
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        a, b = flat(x)
        assert a.tolist() == [0, 1, 2, 3, 4, 5], a
        assert (b == x).all() and not np.shares_memory(b, x)
        a, b = flat(x.T.copy().T)   # a strided argument
        assert a.tolist() == [0, 1, 2, 3, 4, 5], a
        print("ok", gm._native.devices("cuda"))
        """, cache_dir)
    assert done.returncode == 0, done.stderr
    assert "ok [('Fake CUDA device 0', 'sm_90', 1073741824)]" in done.stdout


@pytest.mark.skipif(not FAKE_CUDA.is_dir(), reason="no fake CUDA driver")
def test_runtime_loads_onto_a_chosen_gpu(cache_dir):
    done = run_with_fake_cuda("""
        import numpy as np, google_mlir as gm
        from google_mlir import runtime
        source = (
            "func.func @twice(%x: tensor<2x3xf32>) -> "
            "(tensor<2x3xf32>, tensor<6xf32>) {\\n"
            "  %0 = google.reshape %x : tensor<2x3xf32> -> tensor<6xf32>\\n"
            "  return %x, %0 : tensor<2x3xf32>, tensor<6xf32>\\n}\\n")
        info = gm._native_module.compile(source, "twice", "target=nvvm",
                                         None, 0)
        module = runtime.load(info["path"], device="cuda:1")
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        a, b = module.function("twice")(x)
        assert (a == x).all() and b.tolist() == list(range(6)), (a, b)
        for device, error in (("cuda:5", runtime.Error),
                              ("rocm:0", runtime.Error),
                              ("tpu:0", ValueError), ("cuda:x", ValueError)):
            try:
                runtime.load(info["path"], device=device)
                print("loaded on", device)
            except error as e:
                print(device, "->", e)
        print("ok")
        """, cache_dir, FAKE_CUDA_DEVICES="2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "ok", done.stdout
    assert "no device cuda:5" in lines[0], lines[0]
    assert "requested rocm:0" in lines[1], lines[1]
    assert lines[2].startswith("tpu:0 -> unknown device 'tpu:0'")
    assert lines[3].startswith("cuda:x -> unknown device 'cuda:x'")


@pytest.mark.skipif(not FAKE_CUDA.is_dir(), reason="no fake CUDA driver")
def test_kernel_errors_raise(cache_dir):
    done = run_with_fake_cuda("""
        import numpy as np, google_mlir as gm
        @gm.jit(target="cuda")
        def relu(x):
            return gm.relu(x)
        try:
            relu(np.ones((2, 3), np.float32))
        except gm.Error as error:
            print("error:", error)
        """, cache_dir, FAKE_CUDA_FAIL="cuLaunchKernel=719")
    assert done.returncode == 0, done.stderr
    assert ("error: @relu: CUDA error CUDA_ERROR_LAUNCH_FAILED (unspecified "
            "launch failure) in cuLaunchKernel") in done.stdout


@pytest.mark.skipif(not HAVE_CUDA, reason="needs a CUDA GPU")
def test_mlp_on_cuda(cache_dir, rng):
    @gm.jit(target="cuda", dynamic_dims={"x": [0]})
    def mlp(x, w1, b1, w2):
        return gm.softmax(gm.relu(x @ w1 + b1) @ w2)

    w1 = rng.standard_normal((64, 32)).astype(np.float32)
    b1 = rng.standard_normal(32).astype(np.float32)
    w2 = rng.standard_normal((32, 10)).astype(np.float32)
    for batch in (1, 7, 100):
        x = rng.standard_normal((batch, 64)).astype(np.float32)
        h = np.maximum(x @ w1 + b1, 0) @ w2
        e = np.exp(h - h.max(axis=1, keepdims=True))
        np.testing.assert_allclose(mlp(x, w1, b1, w2),
                                   e / e.sum(axis=1, keepdims=True),
                                   rtol=1e-4, atol=1e-5)
