"""pip install --no-build-isolation python/ : builds the package with CMake
(into ../build, or GOOGLE_MLIR_BUILD_DIR) and installs it;
GOOGLE_MLIR_PIP_USE_BUILT=1 installs what the build tree has without
building. The installed extension uses the libraries of that build tree;
for a self-contained install use `cmake --install build --prefix P`."""

import os
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(os.environ.get("GOOGLE_MLIR_BUILD_DIR",
                                       os.path.join(ROOT, "build")))


class BuildWithCMake(build_py):
    def run(self):
        if os.environ.get("GOOGLE_MLIR_PIP_USE_BUILT") == "1":
            return super().run()
        if not os.path.exists(os.path.join(BUILD, "build.ninja")):
            subprocess.run([os.path.join(ROOT, "scripts", "build.sh")],
                           check=True, env=dict(os.environ, BUILD_DIR=BUILD))
        subprocess.run(["cmake", "--build", BUILD, "--target",
                        "google_mlir_python"], check=True)
        super().run()


setup(
    name="google-mlir",
    version="0.1.0",
    description="@jit for numpy-style code through the google MLIR dialect",
    packages=["google_mlir"],
    package_dir={"google_mlir": os.path.relpath(
        os.path.join(BUILD, "python", "google_mlir"), HERE)},
    package_data={"google_mlir": ["_native*.so"]},
    python_requires=">=3.9",
    cmdclass={"build_py": BuildWithCMake},
)
