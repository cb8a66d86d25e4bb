# RUN: %python -m pytest -q -p no:cacheprovider %s
"""Compiles once per signature: in memory, on disk across processes, and
once for every batch size with dynamic_dims; misses explain themselves."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import google_mlir as gm


@pytest.fixture
def log(monkeypatch, capfd):
    monkeypatch.setenv("GOOGLE_MLIR_LOG_COMPILES", "1")

    def lines():
        return [l for l in capfd.readouterr().err.splitlines()
                if l.startswith("google-mlir:")]
    return lines


def f32(*shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape)


def test_in_memory_cache_per_signature(cache_dir, log):
    @gm.jit
    def scale(x):
        return x * 2.0 + 1.0

    scale(f32(2, 3))
    scale(f32(2, 3))
    scale(f32(2, 3) + 1)
    assert scale.num_compiled == 1
    lines = log()
    assert len(lines) == 1
    assert lines[0].startswith("google-mlir: compiled scale(x: f32[2,3]) in ")
    assert "cache miss: first call" in lines[0]

    scale(f32(4, 3))
    scale(f32(4, 3).astype(np.float64))
    assert scale.num_compiled == 3
    shape_line, dtype_line = log()
    assert "cache miss: x: shape (2, 3) -> (4, 3)" in shape_line
    assert "cache miss: x: dtype f32 -> f64" in dtype_line
    assert "of 2 compiled signatures" in dtype_line

    # The first signature is still cached.
    np.testing.assert_array_equal(scale(f32(2, 3)), f32(2, 3) * 2 + 1)
    assert scale.num_compiled == 3 and log() == []


def test_static_arguments_are_part_of_the_key(cache_dir, log):
    @gm.jit(static_argnames="axis")
    def total(x, axis):
        return x.sum(axis=axis)

    x = f32(3, 4)
    np.testing.assert_array_equal(total(x, 0), x.sum(axis=0))
    np.testing.assert_array_equal(total(x, axis=1), x.sum(axis=1))
    np.testing.assert_array_equal(total(x, 1), x.sum(axis=1))
    assert total.num_compiled == 2
    assert "cache miss: static axis: 0 -> 1" in log()[1]


def test_disk_cache_is_shared_by_functions_and_survives_clear(cache_dir, log):
    def body(x):
        return gm.tanh(x) * 3.0

    first, second = gm.jit(body), gm.jit(body)
    first(f32(5))
    second(f32(5))
    first.clear_cache()
    first(f32(5))
    compiled, hit, hit_again = log()
    assert compiled.startswith("google-mlir: compiled body(x: f32[5])")
    assert "google-mlir: cache hit for body(x: f32[5]) on disk" in hit
    assert "on disk" in hit_again
    assert len(list(cache_dir.glob("*.so"))) == 1


SCRIPT = textwrap.dedent("""
    import numpy as np
    import google_mlir as gm

    @gm.jit
    def mlp(x, w, b):
        return gm.relu(x @ w + b)

    x = np.ones((4, 8), np.float32)
    w = np.full((8, 3), 0.5, np.float32)
    b = np.arange(3, dtype=np.float32)
    print(mlp(x, w, b).tolist())
""")


def test_new_process_loads_from_disk_without_compiling(cache_dir, tmp_path):
    script = tmp_path / "model.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, GOOGLE_MLIR_LOG_COMPILES="1")

    def run():
        done = subprocess.run([sys.executable, str(script)], env=env,
                              capture_output=True, text=True, check=True)
        return done.stdout, done.stderr

    out1, err1 = run()
    out2, err2 = run()
    assert out1 == out2 == str([[4.0, 5.0, 6.0]] * 4) + "\n"
    assert "google-mlir: compiled mlp(" in err1
    assert "google-mlir: cache hit for mlp(" in err2
    assert "compiled" not in err2


def test_dynamic_batch_compiles_once(cache_dir, log, rng):
    w = rng.standard_normal((16, 4)).astype(np.float32)

    @gm.jit(dynamic_dims={"x": [0]})
    def classify(x, w):
        return gm.softmax(gm.relu(x @ w))

    for batch in (1, 7, 64, 1000, 0):
        x = rng.standard_normal((batch, 16)).astype(np.float32)
        h = np.maximum(x @ w, 0)
        e = np.exp(h - h.max(axis=-1, keepdims=True)) if batch else h
        expected = e / e.sum(axis=-1, keepdims=True) if batch else h
        got = classify(x, w)
        assert got.shape == (batch, 4)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert classify.num_compiled == 1
    (line,) = log()
    assert "classify(x: f32[?,16], w: f32[16,4])" in line
    assert "tensor<?x16xf32>" in classify.lower(f32(3, 16), w)
    # A static dimension still has to match.
    with pytest.raises(ValueError, match=r"not aligned"):
        classify(f32(3, 15), w)


def test_unusable_cache_directory_still_runs(tmp_path, monkeypatch, capfd):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("GOOGLE_MLIR_CACHE_DIR", str(blocker / "cache"))
    f = gm.jit(lambda x: x - 1.0)
    np.testing.assert_array_equal(f(f32(3)), f32(3) - 1)
    assert "cannot use the cache directory" in capfd.readouterr().err


def _maps_mlir(code, env):
    """Runs `code` in a new Python; whether it ended with libMLIR mapped."""
    probe = code + textwrap.dedent("""
        import google_mlir._native as native
        maps = open("/proc/self/maps").read()
        print("libMLIR" in maps, "libLLVM" in maps, native.compiler_loaded())
    """)
    done = subprocess.run([sys.executable, "-c", probe], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.split()[-3:], done.stderr


def test_runtime_imports_without_the_compiler(cache_dir):
    mapped, _ = _maps_mlir("import google_mlir.runtime\n", dict(os.environ))
    assert mapped == ["False", "False", "False"]


def test_disk_cache_hit_needs_no_compiler(cache_dir, tmp_path):
    """A new process that hits the disk cache loads the object with the
    runtime alone (the cache's index); a changed entry goes back through the
    compiler, which rebuilds it."""
    env = dict(os.environ, GOOGLE_MLIR_LOG_COMPILES="1")
    mapped, err = _maps_mlir(SCRIPT, env)
    assert mapped == ["True", "True", "True"] and "compiled mlp(" in err
    mapped, err = _maps_mlir(SCRIPT, env)
    assert mapped == ["False", "False", "False"], err
    assert "cache hit for mlp(" in err
    # Entries the compiler must look at again.
    index = cache_dir / "index"
    (record,) = index.iterdir()
    entry = cache_dir / record.read_text().split()[0]
    with open(entry, "ab") as f:
        f.write(b"\0")
    mapped, err = _maps_mlir(SCRIPT, env)
    assert mapped[2] == "True" and "compiled mlp(" in err, err
    record.write_text("../outside 1 2\n")
    mapped, err = _maps_mlir(SCRIPT, env)
    assert mapped[2] == "True" and "cache hit for mlp(" in err, err
    mapped, err = _maps_mlir(SCRIPT, env)
    assert mapped[2] == "False", err


@pytest.mark.parametrize("variables", [
    {"GOOGLE_MLIR_CACHE_DIR": "/tmp/gm-explicit"},
    {"GOOGLE_MLIR_CACHE_DIR": "", "XDG_CACHE_HOME": "/tmp/xdg"},
    {"GOOGLE_MLIR_CACHE_DIR": "", "XDG_CACHE_HOME": "relative",
     "HOME": "/tmp/home"},
])
def test_index_uses_the_compilers_default_directory(variables):
    code = textwrap.dedent("""
        from google_mlir import _cache, _native
        print(_cache.default_directory() == _native.default_cache_dir())
    """)
    env = dict(os.environ, **variables)
    done = subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"


def test_runtime_loads_and_calls_a_compiled_object(cache_dir, tmp_path):
    source = textwrap.dedent("""
        func.func @scale(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
          %0 = google.add %x, %x : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
          return %0 : tensor<?x3xf32>
        }
    """)
    info = gm._native_module.compile(source, "scale", "", str(cache_dir), 0)
    from google_mlir import runtime
    scale = runtime.load(info["path"]).function("scale")
    x = f32(2, 3)
    np.testing.assert_array_equal(scale(x), 2 * x)
    not_an_object = tmp_path / "scale.mlir"
    not_an_object.write_text(source)
    with pytest.raises(runtime.Error):
        runtime.load(str(not_an_object))
