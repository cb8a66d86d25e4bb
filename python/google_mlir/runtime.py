"""google_mlir.runtime: load compiled modules and call them, with the
runtime library only (no compiler, no libMLIR), as iree.runtime is apart
from iree.compiler.

    from google_mlir import runtime
    module = runtime.load("mlp.so")       # google-run --emit-object, or the
    mlp = module.function("mlp")          # cache's entries
    y = mlp(x, w1, b1, w2, b2)            # numpy arrays in and out

A function checks its arguments against the signature compiled into the
object and passes numpy memory to the compiled code without copying.
"""

from ._native import Error, Function, Module, devices, pool_stats, pool_trim


def load(path, device=None):
    """The compiled module (a shared object with its manifest) at `path`;
    raises Error naming what is wrong (not an object of this compiler, a
    CPU feature this machine lacks, no GPU driver for a GPU module).

    device: for a GPU module, the GPU it runs on ("cuda:1", "rocm"; default
    the first of its kind); a module for another device is an Error."""
    return Module(path, device)


__all__ = ["Error", "Function", "Module", "devices", "load", "pool_stats",
           "pool_trim"]
