"""google-mlir from Python: @jit traces numpy-style code into the google
dialect, compiles it once per signature (cached in memory and on disk) and
calls the compiled code on numpy arrays without copying.

    import google_mlir as gm

    @gm.jit
    def mlp(x, w, b):
        return gm.relu(x @ w + b)
"""

from ._native import CompileError, Error
from ._autodiff import grad, value_and_grad, vjp
from ._vmap import vmap
from ._control import cond, fori_loop, scan, while_loop
from ._jit import (JitFunction, clear_caches, disable_jit, jit,
                   set_debug_nans)
from ._ops import (ELEMENTWISE_FUNCTIONS, arange, avg_pool2d, broadcast_to,
                   cast, clip, conv2d, full, full_like, gelu, iota, matmul,
                   max_pool2d, ones, ones_like, softmax, split, transpose,
                   zeros, zeros_like)
from ._trace import Tracer, bfloat16, from_bfloat16, to_bfloat16
from . import _native as _native_module

_native_module.set_bfloat16_dtype(bfloat16)

__version__ = "0.1.0"

# gm.relu, gm.exp, gm.erf, gm.maximum, ...: the elementwise ops of the
# dialect, from its op table.
globals().update(ELEMENTWISE_FUNCTIONS)

__all__ = sorted([
    "CompileError", "Error", "JitFunction", "Tracer", "arange", "avg_pool2d",
    "bfloat16", "broadcast_to", "cast", "clear_caches", "clip", "conv2d",
    "from_bfloat16", "grad", "iota", "max_pool2d",
    "full", "full_like", "to_bfloat16", "disable_jit", "gelu", "jit",
    "matmul", "ones", "ones_like", "set_debug_nans", "softmax", "split",
    "transpose", "value_and_grad", "vjp", "vmap", "cond", "fori_loop",
    "scan", "while_loop",
    "zeros", "zeros_like",
    *ELEMENTWISE_FUNCTIONS,
])
