# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GOOGLE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.google_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "e2e.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

lib = config.llvm_lib_dir
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(lib, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(lib, "libmlir_c_runner_utils.so")))
config.substitutions.append(
    ("%google_runtime", os.path.join(config.google_obj_root, "lib",
                                     "libgoogle_runtime.so")))
config.substitutions.append(("%e2e", os.path.join(
    config.test_source_root, "e2e", "e2e.py")))

# One compile cache for the suite: tests share it, as processes would.
config.environment["GOOGLE_MLIR_CACHE_DIR"] = os.path.join(
    config.test_exec_root, "compile-cache")
config.environment.pop("GOOGLE_MLIR_LOG_COMPILES", None)
# LLVM compiles each module whole, on one thread: lit already runs a test
# per core, and compiling in parts beside it took the suite from 170 to
# 280 s (CPU time 3.4 -> 6.4 min), and probably the sanitizer stage from
# 650 to 1220 s.
# test/e2e/split-codegen.mlir and CI's gradient difftest compile in parts.
config.environment["GOOGLE_MLIR_COMPILE_THREADS"] = "1"
config.environment.pop("GOOGLE_MLIR_COMPILE_PART_MIN", None)
config.environment.pop("GOOGLE_E2E_OPT_LEVELS", None)

# lit -Dmemcheck=DIR: the e2e tests compile their functions into objects
# in DIR, for a CPU valgrind can emulate (no AVX-512), and write their
# cases there instead of running them; scripts/check-memory.sh then runs
# them all in one process under valgrind (test/e2e/run_objects.py): the
# runtime and the compiled code, not the compiler (the sanitizer build
# covers that).
memcheck = lit_config.params.get("memcheck")
if memcheck:
    config.environment["GOOGLE_E2E_COLLECT"] = os.path.abspath(memcheck)
    config.environment["GOOGLE_E2E_PIPELINE_OPTIONS"] = "chip=haswell"
    # The default level only: valgrind is slow (the sanitizer build and the
    # plain suite cover every level).
    config.environment["GOOGLE_E2E_OPT_LEVELS"] = "3"
    config.environment["GOOGLE_MLIR_CACHE_DIR"] = os.path.join(
        config.test_exec_root, "compile-cache-memcheck")

# A sanitizer build (scripts/check-sanitizers.sh): its runtime catches
# signals, so tests of upstream crashes do not apply.
if "address" in getattr(config, "google_sanitize", ""):
    config.available_features.add("asan")

# GPU features. `cuda-toolkit`: the CUDA toolkit (ptxas, fatbinary) that
# NVVM kernels compile with, found as the compiler finds it. `cuda` and
# `rocm`: a driver loads and a device answers, so GPU code can run.
# The toolkit the tests see is the one the features below describe
# (CUDA_HOME=<an empty directory> hides it: .ci/run does so once).
for variable in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"):
    if variable in os.environ:
        config.environment[variable] = os.environ[variable]


def find_cuda_toolkit():
    for variable in ("CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"):
        if os.environ.get(variable):
            return os.environ[variable]
    return "/usr/local/cuda"


cuda_toolkit = find_cuda_toolkit()
if all(os.access(os.path.join(cuda_toolkit, "bin", tool), os.X_OK)
       for tool in ("ptxas", "fatbinary")):
    config.available_features.add("cuda-toolkit")
config.substitutions.append(("%cuda_toolkit", cuda_toolkit))
config.substitutions.append(
    ("%ptxas", os.path.join(cuda_toolkit, "bin", "ptxas")))


def gpu_devices(library, init, count):
    """Devices a GPU driver reports, 0 when it does not load or answer."""
    import ctypes
    try:
        driver = ctypes.CDLL(library)
        if init and getattr(driver, init)(0) != 0:
            return 0
        devices = ctypes.c_int(0)
        if getattr(driver, count)(ctypes.byref(devices)) != 0:
            return 0
        return devices.value
    except (OSError, AttributeError):
        return 0


if gpu_devices("libcuda.so.1", "cuInit", "cuDeviceGetCount") > 0:
    config.available_features.add("cuda")
if gpu_devices("libamdhip64.so", None, "hipGetDeviceCount") > 0:
    config.available_features.add("rocm")

# The stand-in libcuda.so.1 (test/runtime/fake-cuda): `env
# LD_LIBRARY_PATH=%fake_cuda ...` runs the runtime's CUDA path without a GPU.
config.substitutions.append(
    ("%fake_cuda", os.path.join(config.google_obj_root, "test", "fake-cuda")))

tools = [
    "google-opt",
    "google-run",
    "runtime_test",
    "runtime_gpu_test",
    "runtime_header_cpp",
    "reference_test",
    "mlir-runner",
    "mlir-translate",
    "llvm-readelf",
    "llvm-nm",
    "llvm-objdump",
    ToolSubst("%python", config.python_executable, unresolved="fatal"),
]
llvm_config.add_tool_substitutions(
    tools, [config.google_tools_dir, config.llvm_tools_dir])
