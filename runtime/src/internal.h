/*===- internal.h - shared by the runtime's translation units -------------===*/

#ifndef GOOGLE_RUNTIME_INTERNAL_H
#define GOOGLE_RUNTIME_INTERNAL_H

#include "google_runtime.h"

#include <stdarg.h>
#include <stdbool.h>

/* A status with a printf-formatted message. */
google_rt_status google_rt_make_status(google_rt_code code, const char *format,
                                       ...)
    __attribute__((format(printf, 2, 3)));

/* Pooled allocation, 64-byte aligned (or `alignment` when larger). */
void *google_rt_pool_alloc(size_t size, size_t alignment);
/* False when `pointer` is not a live block of the host pool. */
bool google_rt_pool_free(void *pointer);
/* True when `pointer` is a live block returned by google_rt_pool_alloc. */
bool google_rt_pool_owns(const void *pointer);

/* Ends the compiled function running on this thread with an error of its
 * call (printf-formatted); outside a call, prints it and aborts. */
_Noreturn void google_rt_fail_call(google_rt_code code,
                                   const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* While a compiled function runs, the blocks it allocates are recorded on
 * this thread, so that a failed check can free them. */
void google_rt_pool_begin_tracking(void);
/* Stops recording; with `release`, frees the recorded blocks still live
 * (host or device). */
void google_rt_pool_end_tracking(bool release);
/* Records a block (host or device) the running compiled function
 * allocated; false when out of memory. No-op outside a call. */
bool google_rt_pool_track(void *pointer);
void google_rt_pool_untrack(void *pointer);

/* Copies a strided tensor of `rank` dims into another with the same shape.
 * Strides count elements. */
void google_rt_strided_copy(size_t element_size, int32_t rank,
                            const int64_t *shape, const char *source,
                            const int64_t *source_strides, char *destination,
                            const int64_t *destination_strides);

/* The thread count GOOGLE_MLIR_NUM_THREADS asks for (default: the cores
 * this process may use); an error when it is not a valid count. */
google_rt_status google_rt_read_num_threads(int32_t *count);
/* GOOGLE_MLIR_POOL_LIMIT: the freed bytes the pool keeps for reuse. */
google_rt_status google_rt_read_pool_limit(uint64_t *bytes);

/* GOOGLE_MLIR_POISON_BUFFERS=1 (read once): buffers the compiled code
 * allocates, on the host or a GPU, come filled with 0xFF bytes (a NaN in
 * every float type, -1 in every integer), so that code reading elements
 * nothing wrote shows NaNs or wrong values instead of stale ones. */
bool google_rt_poison_buffers(void);
enum { GOOGLE_RT_POISON_BYTE = 0xFF };

/* Bytes of a contiguous tensor; fails on a bad rank, dtype or extent, or
 * a size that overflows. */
google_rt_status google_rt_tensor_bytes(google_rt_dtype dtype, int32_t rank,
                                        const int64_t *shape, uint64_t *bytes);

/* Row-major strides for `shape`. */
void google_rt_contiguous_strides(int32_t rank, const int64_t *shape,
                                  int64_t *strides);

/* Parses "tensor<2x?xf32>" (or "tensor<f32>"); false when malformed. */
/* Row-major with no gaps (extents of 1 may have any stride). */
bool google_rt_tensor_is_contiguous(const google_rt_tensor *tensor);

bool google_rt_parse_tensor_type(const char *text, size_t length,
                                 google_rt_tensor_type *type);

/* Called by the compiled code; exported from the library. */
#define GOOGLE_RT_ABI __attribute__((visibility("default")))
GOOGLE_RT_ABI void *_mlir_memref_to_llvm_alloc(size_t size);
GOOGLE_RT_ABI void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                       size_t size);
GOOGLE_RT_ABI void _mlir_memref_to_llvm_free(void *pointer);
/* A run-time check in the compiled code failed; does not return. The
 * message says "{0}" and "{1}" where `actual` and `expected` belong. */
GOOGLE_RT_ABI void google_rt_check_failed(const char *message, int64_t actual,
                                          int64_t expected);
/* A check that may fail inside a parallel region failed: prints `message`
 * and aborts the process (a bounds check of check-bounds=true). */
GOOGLE_RT_ABI _Noreturn void google_rt_abort(const char *message);
/* Threads for the compiled code's parallel loops (read once). */
GOOGLE_RT_ABI int32_t google_rt_num_threads(void);
GOOGLE_RT_ABI void memrefCopy(int64_t element_size,
                              google_rt_unranked_memref *source,
                              google_rt_unranked_memref *destination);

#endif /* GOOGLE_RUNTIME_INTERNAL_H */
