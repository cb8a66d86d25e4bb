/*===- google_runtime_abi.h - what compiled objects and the runtime share -===*
 *
 * The names and limits that the compiler's passes emit and the runtime
 * looks for: the manifest, the entry points and the hooks that compiled code
 * calls. One header, included by the runtime (google_runtime.h) and by the
 * compiler (lib/Codegen), so the two cannot disagree. Macros only: it is
 * valid C99 and C++.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GOOGLE_RUNTIME_ABI_H
#define GOOGLE_RUNTIME_ABI_H

/* The most dimensions an argument or result may have. */
#define GOOGLE_RT_MAX_RANK 8

/* Name of the manifest global each compiled module defines. */
#define GOOGLE_RT_MANIFEST_SYMBOL "google_mlir_manifest"
/* Prefix of the packed entry point `void f(void **args)` per function. */
#define GOOGLE_RT_PACKED_PREFIX "_google_packed_"
/* The x86-64 CPU features (LLVM's names) that compiled code may use and the
 * runtime can detect: a module's manifest lists those it was compiled for
 * (`cpu ...`), and loading it on a CPU that lacks one fails with an error
 * naming it instead of a SIGILL later. */
#define GOOGLE_RT_X86_FEATURES                                                 \
  "sse3 ssse3 sse4.1 sse4.2 sse4a popcnt lzcnt movbe bmi bmi2 avx avx2 fma "   \
  "f16c avx512f avx512cd avx512bw avx512dq avx512vl avx512ifma avx512vbmi "    \
  "avx512vbmi2 avx512vnni avx512bitalg avx512vpopcntdq avx512bf16 "            \
  "avx512fp16 avxvnni gfni vaes vpclmulqdq"

/* Prefix of the C interface wrapper MLIR emits per function
 * (llvm.emit_c_interface), which the packed entry point calls. */
#define GOOGLE_RT_C_INTERFACE_PREFIX "_mlir_ciface_"

/* Hooks compiled code calls; the runtime defines them (an object built
 * without the runtime gets weak C-library stand-ins). */
/* void google_rt_check_failed(const char *message, int64_t actual,
 *                             int64_t expected): a run-time check failed. */
#define GOOGLE_RT_CHECK_FAILED_HOOK "google_rt_check_failed"
/* void google_rt_abort(const char *message): a check that cannot end the
 * call cleanly (it may fail inside a parallel region) failed: prints the
 * message and aborts the process. */
#define GOOGLE_RT_ABORT_HOOK "google_rt_abort"
/* int32_t google_rt_num_threads(void): threads for parallel loops. */
#define GOOGLE_RT_NUM_THREADS_HOOK "google_rt_num_threads"
/* MLIR's allocation functions (useGenericFunctions), served by the
 * runtime's pool. */
#define GOOGLE_RT_ALLOC_HOOK "_mlir_memref_to_llvm_alloc"
#define GOOGLE_RT_ALIGNED_ALLOC_HOOK "_mlir_memref_to_llvm_aligned_alloc"
#define GOOGLE_RT_FREE_HOOK "_mlir_memref_to_llvm_free"

#endif /* GOOGLE_RUNTIME_ABI_H */
