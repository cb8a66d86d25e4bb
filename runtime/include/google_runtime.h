/*===- google_runtime.h - load and run google-mlir compiled modules -------===*
 *
 * A C99 library with no dependency on LLVM or MLIR. It loads a shared object
 * that the google-mlir compiler emitted, lists and looks up its functions,
 * checks arguments against the signature recorded in the object, and calls
 * functions on tensors passed as MLIR memref descriptors without copying.
 *
 * Modules compiled for a GPU (target=nvvm or rocdl) run through the CUDA
 * driver (libcuda.so.1) or HIP (libamdhip64.so), loaded on first use: the
 * library builds and runs without them, and says so when one is needed.
 *
 * Every fallible call returns a google_rt_status: NULL on success, otherwise
 * an error the caller releases with google_rt_status_free. The library never
 * aborts or exits. Modules and functions are immutable once loaded: calls on
 * different modules, and concurrent calls of one function, are thread-safe.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GOOGLE_RUNTIME_H
#define GOOGLE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "google_runtime_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

typedef enum google_rt_code {
  GOOGLE_RT_OK = 0,
  GOOGLE_RT_INVALID_ARGUMENT = 1, /* wrong count, shape, rank or dtype */
  GOOGLE_RT_NOT_FOUND = 2,        /* unknown function, missing file */
  GOOGLE_RT_IO_ERROR = 3,         /* unreadable or malformed file */
  GOOGLE_RT_OUT_OF_MEMORY = 4,
  GOOGLE_RT_UNAVAILABLE = 5,      /* e.g. no GPU driver */
  GOOGLE_RT_INTERNAL = 6,
} google_rt_code;

/* NULL means success. */
typedef struct google_rt_status_s *google_rt_status;

google_rt_code google_rt_status_code(google_rt_status status);
/* The message, owned by the status; "" for success. */
const char *google_rt_status_message(google_rt_status status);
void google_rt_status_free(google_rt_status status);

/*===----------------------------------------------------------------------===*
 * Element types and tensor types
 *===----------------------------------------------------------------------===*/

typedef enum google_rt_dtype {
  GOOGLE_RT_F32 = 0,
  GOOGLE_RT_F16 = 1,
  GOOGLE_RT_BF16 = 2,
  GOOGLE_RT_F64 = 3,
  GOOGLE_RT_I32 = 4,
  GOOGLE_RT_I64 = 5,
  GOOGLE_RT_I1 = 6, /* bool, one byte per element */
  GOOGLE_RT_I8 = 7,
} google_rt_dtype;

#define GOOGLE_RT_DYNAMIC (-1)

/* Bytes per element. */
size_t google_rt_dtype_size(google_rt_dtype dtype);
/* "f32", "bf16", "i1", ... */
const char *google_rt_dtype_name(google_rt_dtype dtype);

/* A tensor type: `shape[i]` is GOOGLE_RT_DYNAMIC for `?`. */
typedef struct google_rt_tensor_type {
  google_rt_dtype dtype;
  int32_t rank;
  int64_t shape[GOOGLE_RT_MAX_RANK];
} google_rt_tensor_type;

/* Writes "tensor<?x512xf32>" into `buffer` (always NUL-terminated when
 * `size` > 0); returns the length the full text needs. */
size_t google_rt_tensor_type_format(const google_rt_tensor_type *type,
                                    char *buffer, size_t size);

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

typedef enum google_rt_device_kind {
  GOOGLE_RT_DEVICE_HOST = 0,
  GOOGLE_RT_DEVICE_CUDA = 1, /* NVIDIA GPUs, through libcuda.so.1 */
  GOOGLE_RT_DEVICE_ROCM = 2, /* AMD GPUs, through libamdhip64.so */
} google_rt_device_kind;

/* Where memory lives and code runs: the host (all zero) or GPU `ordinal`
 * of a driver. */
typedef struct google_rt_device {
  google_rt_device_kind kind;
  int32_t ordinal;
} google_rt_device;

/* "host", "cuda", "rocm". */
const char *google_rt_device_kind_name(google_rt_device_kind kind);

/* The GPUs a driver reports. Fails with GOOGLE_RT_UNAVAILABLE when the
 * driver does not load ("no CUDA driver found (libcuda.so.1)") or does not
 * initialize; 0 devices is a success. The host counts as one device. */
google_rt_status google_rt_device_count(google_rt_device_kind kind,
                                        int32_t *count);

typedef struct google_rt_device_properties {
  char name[256];
  char arch[32];           /* "sm_90", "gfx942": the pipeline's `chip` */
  uint64_t total_memory;   /* bytes */
  int32_t multiprocessors; /* SMs or compute units */
} google_rt_device_properties;

google_rt_status
google_rt_device_get_properties(google_rt_device device,
                                google_rt_device_properties *properties);

/* The GPU of its kind that modules loaded from now on run on (default:
 * ordinal 0). Fails when there is no such device. */
google_rt_status google_rt_device_select(google_rt_device device);
/* The selected GPU of `kind` ({kind, 0} unless one was selected). */
google_rt_device google_rt_device_selected(google_rt_device_kind kind);

/*===----------------------------------------------------------------------===*
 * Tensors and buffers
 *===----------------------------------------------------------------------===*/

/* A strided view of memory. `data` points at element [0, ..., 0]; `strides`
 * count elements. `buffer` is the runtime buffer that owns the memory, or
 * NULL when the memory belongs to the caller. `device` says where the
 * memory is (zero: the host). */
typedef struct google_rt_tensor {
  google_rt_dtype dtype;
  int32_t rank;
  void *data;
  int64_t shape[GOOGLE_RT_MAX_RANK];
  int64_t strides[GOOGLE_RT_MAX_RANK];
  void *buffer;
  google_rt_device device;
} google_rt_tensor;

/* Fills `tensor` as a contiguous row-major view of caller-owned `data`. */
void google_rt_tensor_view(google_rt_dtype dtype, int32_t rank,
                           const int64_t *shape, void *data,
                           google_rt_tensor *tensor);

/* Allocates a contiguous tensor from the pooled, 64-byte aligned allocator.
 * Its contents are uninitialized. */
google_rt_status google_rt_tensor_alloc(google_rt_dtype dtype, int32_t rank,
                                        const int64_t *shape,
                                        google_rt_tensor *tensor);

/* Allocates a contiguous tensor on `device` from the runtime's pool of
 * device memory (or the host pool for the host). Uninitialized. */
google_rt_status google_rt_tensor_alloc_on(google_rt_device device,
                                           google_rt_dtype dtype, int32_t rank,
                                           const int64_t *shape,
                                           google_rt_tensor *tensor);

/* Copies `source` into `destination`, which must have its dtype and shape,
 * between any two devices (host to GPU, GPU to host, within a GPU). Host
 * tensors may be strided; GPU tensors must be contiguous. Returns when the
 * copy is done. */
google_rt_status google_rt_tensor_copy(const google_rt_tensor *source,
                                       google_rt_tensor *destination);

/* Returns a runtime-owned tensor's memory to its pool; no-op for views. */
void google_rt_tensor_release(google_rt_tensor *tensor);

/* Number of elements (product of the shape). */
int64_t google_rt_tensor_num_elements(const google_rt_tensor *tensor);

/* Allocation statistics of the pool, for tests and tuning. */
typedef struct google_rt_pool_stats {
  uint64_t system_allocations; /* blocks obtained from the system */
  uint64_t reused_allocations; /* requests served from a free list */
  uint64_t bytes_in_use;
  uint64_t bytes_cached;       /* freed blocks kept for reuse */
} google_rt_pool_stats;

void google_rt_pool_get_stats(google_rt_pool_stats *stats);
/* Returns the cached free blocks to the system. The pool keeps at most
 * GOOGLE_MLIR_POOL_LIMIT freed bytes (a byte count with an optional K, M or
 * G suffix; default 256M; 0 keeps none); module loads fail on an invalid
 * value. */
void google_rt_pool_trim(void);

/*===----------------------------------------------------------------------===*
 * Modules and functions
 *===----------------------------------------------------------------------===*/

typedef struct google_rt_module_s google_rt_module;
typedef struct google_rt_function_s google_rt_function;

/* Loads a shared object emitted by the compiler. A module compiled for a
 * GPU loads its device binaries onto the selected GPU of its kind; without
 * the driver or a device this fails with GOOGLE_RT_UNAVAILABLE. */
google_rt_status google_rt_module_load(const char *path,
                                       google_rt_module **module);
/* Loads it onto `device`: a GPU of the module's kind (its functions run
 * there), independently of the selection; the host means
 * google_rt_module_load. A module for the CPU, or for another kind of GPU,
 * fails with GOOGLE_RT_INVALID_ARGUMENT. */
google_rt_status google_rt_module_load_on(const char *path,
                                          google_rt_device device,
                                          google_rt_module **module);
/* Unloads the module; its functions become invalid. */
void google_rt_module_free(google_rt_module *module);

/* Where the module's functions run and their tensors live: the host, or
 * the GPU the module was loaded onto. */
google_rt_device google_rt_module_device(const google_rt_module *module);

size_t google_rt_module_num_functions(const google_rt_module *module);
/* The i-th public function in module order, NULL when out of range. */
const google_rt_function *google_rt_module_function(
    const google_rt_module *module, size_t index);
/* Fails with GOOGLE_RT_NOT_FOUND, listing the public functions. */
google_rt_status google_rt_module_lookup(const google_rt_module *module,
                                         const char *name,
                                         const google_rt_function **function);

const char *google_rt_function_name(const google_rt_function *function);
size_t google_rt_function_num_args(const google_rt_function *function);
size_t google_rt_function_num_results(const google_rt_function *function);
const google_rt_tensor_type *
google_rt_function_arg_type(const google_rt_function *function, size_t index);
const google_rt_tensor_type *
google_rt_function_result_type(const google_rt_function *function,
                               size_t index);

/* Calls `function`. Each argument is checked against the signature (count,
 * dtype, rank, every static dimension) and passed as a memref descriptor
 * pointing at its memory: contiguous tensors are not copied, others are
 * copied into a pooled buffer for the call.
 *
 * For each result: when `results[i].data` is non-NULL the caller provides
 * contiguous memory whose dtype and shape must match the result; when it is
 * NULL (zero-initialize the struct) the runtime fills `results[i]` with a
 * runtime-owned tensor, released with google_rt_tensor_release. A caller's
 * buffer may overlap an argument or another result (an update in place):
 * that result is computed in a buffer of its own and copied over once the
 * call is done, as if the arguments had been read first. On failure
 * no runtime-owned result is left. A size check that fails inside the
 * compiled code (two dynamic extents that must agree) is an error of the
 * call. */
google_rt_status google_rt_call(const google_rt_function *function,
                                const google_rt_tensor *args, size_t num_args,
                                google_rt_tensor *results, size_t num_results);

/* A function of a GPU module runs on the module's device. Arguments on
 * that device are passed without copying (they must be contiguous); host
 * arguments are copied to the device for the call. A result the caller
 * provides may be on the host or the device; a result the runtime
 * allocates goes where `results[i].device` says (zero: the host, copied
 * back after the call). */

/* A queue of work on one GPU. */
typedef struct google_rt_stream_s google_rt_stream;

google_rt_status google_rt_stream_create(google_rt_device device,
                                         google_rt_stream **stream);
/* Waits for everything enqueued on `stream`; returns the first error the
 * work hit since the last wait (a kernel that faulted, say). */
google_rt_status google_rt_stream_wait(google_rt_stream *stream);
/* Waits for the stream, then frees it. */
void google_rt_stream_free(google_rt_stream *stream);

/* Like google_rt_call, but only enqueues the GPU work on `stream` and
 * returns: argument checks and the compiled code's run-time size checks
 * fail here, errors of the GPU work in google_rt_stream_wait. Results are
 * filled (shapes, pointers) at once; their contents, and host arguments'
 * copies, are ready after the wait: keep host arguments and results alive
 * until then. For host modules, the call runs to completion. */
google_rt_status google_rt_call_async(const google_rt_function *function,
                                      const google_rt_tensor *args,
                                      size_t num_args,
                                      google_rt_tensor *results,
                                      size_t num_results,
                                      google_rt_stream *stream);

/*===----------------------------------------------------------------------===*
 * ABI shared with the compiled code (not for direct use)
 *===----------------------------------------------------------------------===*/

/* The head of an MLIR memref descriptor of rank R; R sizes and then R
 * strides (int64_t each) follow `offset`. */
typedef struct google_rt_memref_head {
  void *allocated;
  void *aligned;
  int64_t offset;
} google_rt_memref_head;

/* An unranked memref as MLIR's runtime functions receive it. */
typedef struct google_rt_unranked_memref {
  int64_t rank;
  void *descriptor;
} google_rt_unranked_memref;

#if defined(__cplusplus)
static_assert(sizeof(google_rt_memref_head) == 24, "memref descriptor head");
static_assert(sizeof(google_rt_unranked_memref) == 16, "unranked memref");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(google_rt_memref_head) == 24, "memref descriptor head");
_Static_assert(sizeof(google_rt_unranked_memref) == 16, "unranked memref");
#else /* C99: an array of negative size fails to compile */
typedef char google_rt_memref_head_is_24_bytes
    [sizeof(google_rt_memref_head) == 24 ? 1 : -1];
typedef char google_rt_unranked_memref_is_16_bytes
    [sizeof(google_rt_unranked_memref) == 16 ? 1 : -1];
#endif

/* 1 when the CPU running this has `feature` (a name from
 * GOOGLE_RT_X86_FEATURES) and the operating system saves its registers;
 * 0 otherwise, also for names it does not know. */
int google_rt_cpu_has_feature(const char *feature);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GOOGLE_RUNTIME_H */
