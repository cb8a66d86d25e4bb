# RUN: %python -m pytest -q -p no:cacheprovider %s
"""`cmake --install` gives a working package: the installed extension, its
compiler and the objects it compiles use the installed libraries; `pip
install python/` installs the built package."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

import google_mlir

BUILD = pathlib.Path(google_mlir.__file__).resolve().parents[2]
SOURCE = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_installed_package_runs(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix",
                    str(prefix)], check=True, capture_output=True)
    package = prefix / "lib" / "python3" / "dist-packages"
    script = textwrap.dedent("""
        import numpy as np
        import google_mlir as gm

        print(gm.__file__)
        y = gm.jit(lambda x: gm.relu(x) * 2.0)(np.array([-1.0, 3.0],
                                                        np.float32))
        print(y.tolist())
        maps = open("/proc/self/maps").read()
        print(sorted({l.split()[-1] for l in maps.splitlines()
                      if "libgoogle_" in l}))
    """)
    env = dict(os.environ, PYTHONPATH=str(package),
               GOOGLE_MLIR_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", script], env=env,
                          capture_output=True, text=True, check=True)
    module, result, libraries = done.stdout.splitlines()
    assert module.startswith(str(package))
    assert result == "[0.0, 6.0]"
    assert eval(libraries) == [str(prefix / "lib" / "libgoogle_compiler.so"),
                               str(prefix / "lib" /
                                   "libgoogle_runtime.so.1")]


def test_pip_install(tmp_path):
    # pip builds in the source directory: give it a copy of setup.py.
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(SOURCE / "python" / "setup.py", source)
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install",
                    "--no-build-isolation", "--no-deps", "--no-index",
                    "--target", str(target), str(source)],
                   check=True, capture_output=True, cwd=tmp_path,
                   env=dict(os.environ, GOOGLE_MLIR_BUILD_DIR=str(BUILD),
                            GOOGLE_MLIR_PIP_USE_BUILT="1"))
    script = ("import numpy as np, google_mlir as gm; print(gm.__file__); "
              "print(gm.jit(lambda x: x - 1.0)(np.ones(2, np.float32)))")
    done = subprocess.run([sys.executable, "-c", script], check=True,
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(target),
                                   GOOGLE_MLIR_CACHE_DIR=str(tmp_path / "c")))
    module, result = done.stdout.splitlines()
    assert module.startswith(str(target)) and result == "[0. 0.]"
