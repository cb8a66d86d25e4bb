/*===- gpu.h - GPU drivers behind one interface ---------------------------===*
 *
 * The CUDA driver (libcuda.so.1) and HIP (libamdhip64.so) are loaded with
 * dlopen on first use, so the runtime builds and runs without either. Each
 * is a table of the few operations the runtime needs; every operation
 * returns a status naming the driver's error.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GOOGLE_RUNTIME_GPU_H
#define GOOGLE_RUNTIME_GPU_H

#include "internal.h"

typedef struct gpu_driver {
  google_rt_device_kind kind;
  const char *name; /* "CUDA", "ROCm" */

  /* Loads and initializes the driver (once; later calls return the same
   * outcome). */
  google_rt_status (*init)(void);
  google_rt_status (*device_count)(int32_t *count);
  google_rt_status (*properties)(int32_t ordinal,
                                 google_rt_device_properties *properties);
  /* Makes device `ordinal` current on the calling thread. */
  google_rt_status (*activate)(int32_t ordinal);

  /* `jit`: `blob` is PTX text that the driver compiles at `opt_level`. */
  google_rt_status (*module_load)(const void *blob, bool jit,
                                  int32_t opt_level, void **module);
  void (*module_unload)(void *module);
  google_rt_status (*module_function)(void *module, const char *name,
                                      void **function);
  google_rt_status (*launch)(void *function, const uint32_t grid[3],
                             const uint32_t block[3], uint32_t shared_bytes,
                             void *stream, void **params);

  google_rt_status (*stream_create)(void **stream);
  google_rt_status (*stream_synchronize)(void *stream);
  void (*stream_destroy)(void *stream);
  google_rt_status (*stream_wait_event)(void *stream, void *event);
  google_rt_status (*event_create)(void **event);
  google_rt_status (*event_record)(void *event, void *stream);
  google_rt_status (*event_synchronize)(void *event);
  void (*event_destroy)(void *event);

  google_rt_status (*allocate)(size_t bytes, bool host_shared, void **pointer);
  void (*free)(void *pointer);
  /* Any direction: the drivers tell host from device pointers. */
  google_rt_status (*copy)(void *destination, const void *source,
                           size_t bytes, void *stream);
  google_rt_status (*fill32)(void *destination, uint32_t value, size_t count,
                             void *stream);
  google_rt_status (*fill16)(void *destination, uint16_t value, size_t count,
                             void *stream);
  google_rt_status (*host_register)(void *pointer, size_t bytes);
  void (*host_unregister)(void *pointer);
  /* A TMA tensor map (CUDA 12's cuTensorMapEncodeTiled) of the row-major
   * `rank`-dimensional array at `address` (`sizes` and `strides`, in
   * elements, outermost first) read in boxes of `box` elements, into the
   * 128 bytes at `map`; NULL where the driver has none. `data_type`,
   * `interleave`, `swizzle`, `l2_promotion` and `oob_fill` are the driver
   * API's enumerators. */
  google_rt_status (*encode_tensor_map)(
      void *map, int64_t data_type, int64_t rank, void *address,
      const int64_t *sizes, const int64_t *strides, const int64_t *box,
      int64_t element_bytes, int64_t interleave, int64_t swizzle,
      int64_t l2_promotion, int64_t oob_fill);
} gpu_driver;

extern const gpu_driver google_rt_cuda_driver;
extern const gpu_driver google_rt_hip_driver;

/* The driver for `kind`, NULL for the host. */
const gpu_driver *google_rt_gpu_driver(google_rt_device_kind kind);

/* "cuda:0", "rocm:1", "host" into `buffer`. */
const char *google_rt_device_format(google_rt_device device, char *buffer,
                                    size_t size);

/*===----------------------------------------------------------------------===*
 * Devices, device memory, streams and calls (device.c)
 *===----------------------------------------------------------------------===*/

/* The initialized driver of `device`, with the device current on this
 * thread; fails naming the device when there is no such GPU. */
/* Loads a GPU driver library at run time: the first of `libraries` (a NULL-
 * terminated list) that dlopen finds, with each of `symbols[i]` resolved
 * into `*slots[i]`. NULL on success, else an UNAVAILABLE status: "no
 * `driver` found (`libraries[0]`)" or "`driver` (`library`) lacks X: it is
 * too old". */
google_rt_status google_rt_gpu_load_driver(const char *driver,
                                           const char *const *libraries,
                                           const char *const *symbols,
                                           void **const *slots, size_t count);

google_rt_status google_rt_gpu_open_device(google_rt_device device,
                                           const gpu_driver **driver);

/* Pooled device memory on `device` (256-byte aligned). */
google_rt_status google_rt_device_pool_alloc(google_rt_device device,
                                             size_t bytes, void **pointer);
/* Memory both the host and `device` can reach (not pooled). */
google_rt_status google_rt_device_pool_alloc_shared(google_rt_device device,
                                                    size_t bytes,
                                                    void **pointer);
/* Returns a device block to its pool; during a call on its device the
 * block waits on the call's stream (which may reuse it) until the stream
 * is waited on. False when `pointer` is not a live device block. */
bool google_rt_device_pool_free(void *pointer);
bool google_rt_device_pool_owns(const void *pointer);

void *google_rt_gpu_stream_native(google_rt_stream *stream);
const gpu_driver *google_rt_gpu_stream_driver(google_rt_stream *stream);
bool google_rt_gpu_stream_from_compiled_code(google_rt_stream *stream);
void google_rt_gpu_stream_mark_from_compiled_code(google_rt_stream *stream);

/* Starts a call on `device` using `stream` (NULL: this thread's stream for
 * the device). `async`: the compiled code's waits are left to
 * google_rt_stream_wait. */
google_rt_status google_rt_gpu_call_begin(google_rt_device device,
                                          google_rt_stream *stream,
                                          bool async);
/* Ends the call; a synchronous or failed one waits for its stream and
 * returns the first error of its work. */
google_rt_status google_rt_gpu_call_end(bool failed);
/* The stream of the call running on this thread, NULL outside one, and
 * the call's device. */
google_rt_stream *google_rt_gpu_call_stream(void);
google_rt_device google_rt_gpu_call_device(void);
bool google_rt_gpu_call_is_async(void);

/* Fills `bytes` at `data` on `device` with GOOGLE_RT_POISON_BYTE (see
 * google_rt_poison_buffers); on a GPU on the running call's stream, an
 * odd last byte left as it was (the drivers fill 16- and 32-bit words). */
google_rt_status google_rt_poison(google_rt_device device, void *data,
                                  uint64_t bytes);

/* Copies `bytes` between host and device (or within a device) on the
 * running call's stream. */
google_rt_status google_rt_gpu_copy(void *destination, const void *source,
                                    size_t bytes);

/* While google_rt_module_load runs dlopen: the module constructors load
 * device binaries onto the selected GPU, and the first error they hit is
 * kept for the load to report. */
/* Around dlopen of a module: its device binaries load onto `device` (a
 * GPU), or onto the selected GPU of their kind when `device` is the host. */
void google_rt_gpu_load_begin(google_rt_device device);
google_rt_status google_rt_gpu_load_end(void);

/*===----------------------------------------------------------------------===*
 * The ABI that GPU modules' host code calls (mgpu.c; LLVM 22 signatures)
 *===----------------------------------------------------------------------===*/

GOOGLE_RT_ABI void *mgpuModuleLoad(void *data, int64_t size);
GOOGLE_RT_ABI void *mgpuModuleLoadJIT(void *data, int32_t opt_level);
GOOGLE_RT_ABI void mgpuModuleUnload(void *module);
GOOGLE_RT_ABI void *mgpuModuleGetFunction(void *module, const char *name);
GOOGLE_RT_ABI void mgpuLaunchKernel(void *function, int64_t grid_x,
                                    int64_t grid_y, int64_t grid_z,
                                    int64_t block_x, int64_t block_y,
                                    int64_t block_z, int32_t shared_bytes,
                                    void *stream, void **params, void **extra,
                                    int64_t num_params);
GOOGLE_RT_ABI void mgpuLaunchClusterKernel(
    void *function, int64_t cluster_x, int64_t cluster_y, int64_t cluster_z,
    int64_t grid_x, int64_t grid_y, int64_t grid_z, int64_t block_x,
    int64_t block_y, int64_t block_z, int32_t shared_bytes, void *stream,
    void **params, void **extra);
GOOGLE_RT_ABI void *mgpuStreamCreate(void);
GOOGLE_RT_ABI void mgpuStreamDestroy(void *stream);
GOOGLE_RT_ABI void mgpuStreamSynchronize(void *stream);
GOOGLE_RT_ABI void mgpuStreamWaitEvent(void *stream, void *event);
GOOGLE_RT_ABI void *mgpuEventCreate(void);
GOOGLE_RT_ABI void mgpuEventDestroy(void *event);
GOOGLE_RT_ABI void mgpuEventSynchronize(void *event);
GOOGLE_RT_ABI void mgpuEventRecord(void *event, void *stream);
GOOGLE_RT_ABI void *mgpuMemAlloc(uint64_t bytes, void *stream,
                                 bool host_shared);
GOOGLE_RT_ABI void mgpuMemFree(void *pointer, void *stream);
GOOGLE_RT_ABI void mgpuMemcpy(void *destination, void *source, uint64_t bytes,
                              void *stream);
GOOGLE_RT_ABI void mgpuMemset32(void *destination, uint32_t value,
                                uint64_t count, void *stream);
GOOGLE_RT_ABI void mgpuMemset16(void *destination, uint16_t value,
                                uint64_t count, void *stream);
GOOGLE_RT_ABI void mgpuMemHostRegister(void *pointer, uint64_t bytes);
GOOGLE_RT_ABI void mgpuMemHostUnregister(void *pointer);
GOOGLE_RT_ABI void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                             int64_t element_size);
GOOGLE_RT_ABI void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                               int64_t element_size);
GOOGLE_RT_ABI void mgpuSetDefaultDevice(int32_t ordinal);
GOOGLE_RT_ABI void *mgpuTensorMapEncodeTiledMemref(
    int64_t rank, void *descriptor, int64_t data_type, int64_t interleave,
    int64_t swizzle, int64_t l2_promotion, int64_t oob_fill, int64_t *box);

#endif /* GOOGLE_RUNTIME_GPU_H */
