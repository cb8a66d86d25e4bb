/*===- mgpu.c - the GPU runtime functions that compiled host code calls ---===*
 *
 * MLIR's GPU lowering makes host code call mgpu* functions: device binaries
 * are loaded from a global constructor when the object is loaded, kernels
 * are launched on streams, device memory is allocated and copied. They
 * return nothing, so an error ends the running call (google_rt_fail_call),
 * or, while google_rt_module_load loads the object, fails that load.
 *
 * Inside a runtime call every stream the code asks for is the call's
 * stream: its work runs in order, the call waits for it once at the end
 * (or, for google_rt_call_async, the caller does), and the code's own
 * waits only matter outside asynchronous calls.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A device binary loaded onto a GPU. */
typedef struct gpu_module {
  const gpu_driver *driver;
  google_rt_device device;
  void *native;
} gpu_module;

/* While google_rt_module_load runs dlopen on this thread. */
static _Thread_local struct {
  bool active;
  google_rt_device device; /* the host: the selected GPU of each kind */
  google_rt_status error;
} loading;

/* The GPU of the binary loaded last: the one that mgpu calls made outside
 * a runtime call use. Loads may run on several threads: one word. */
static int64_t last_loaded = GOOGLE_RT_DEVICE_CUDA;

static void set_last_loaded(google_rt_device device) {
  __atomic_store_n(&last_loaded,
                   (int64_t)device.kind | (int64_t)device.ordinal << 32,
                   __ATOMIC_RELAXED);
}

static google_rt_device last_loaded_device(void) {
  int64_t word = __atomic_load_n(&last_loaded, __ATOMIC_RELAXED);
  google_rt_device device = {(google_rt_device_kind)(word & 0xffffffff),
                             (int32_t)(word >> 32)};
  return device;
}

void google_rt_gpu_load_begin(google_rt_device device) {
  loading.active = true;
  loading.device = device;
  loading.error = NULL;
}

google_rt_status google_rt_gpu_load_end(void) {
  loading.active = false;
  google_rt_status error = loading.error;
  loading.error = NULL;
  return error;
}

/* Ends the running call with `status`'s error (freeing it). */
static _Noreturn void fail_with(google_rt_status status) {
  char message[512];
  snprintf(message, sizeof(message), "%s", google_rt_status_message(status));
  google_rt_code code = google_rt_status_code(status);
  google_rt_status_free(status);
  google_rt_fail_call(code, "%s", message);
}

static void check(google_rt_status status) {
  if (status)
    fail_with(status);
}

/* The stream the code passes, or the running call's for NULL. */
static google_rt_stream *get_stream(void *stream) {
  if (stream)
    return stream;
  google_rt_stream *call = google_rt_gpu_call_stream();
  if (!call)
    google_rt_fail_call(GOOGLE_RT_INTERNAL,
                        "GPU work outside a runtime call needs a stream");
  return call;
}

/* NVIDIA fatbins and cubins, AMD code objects (ELF or bundled). */
static google_rt_device_kind binary_kind(const unsigned char *data,
                                         int64_t size) {
  static const unsigned char fatbin[] = {0x50, 0xED, 0x55, 0xBA};
  if (size >= 4 && memcmp(data, fatbin, 4) == 0)
    return GOOGLE_RT_DEVICE_CUDA;
  if (size >= 20 && memcmp(data, "\177ELF", 4) == 0) {
    unsigned machine = data[18] | (unsigned)data[19] << 8;
    if (machine == 190) /* EM_CUDA */
      return GOOGLE_RT_DEVICE_CUDA;
    if (machine == 224) /* EM_AMDGPU */
      return GOOGLE_RT_DEVICE_ROCM;
  }
  static const char bundle[] = "__CLANG_OFFLOAD_BUNDLE__";
  if (size >= (int64_t)sizeof(bundle) - 1 &&
      memcmp(data, bundle, sizeof(bundle) - 1) == 0)
    return GOOGLE_RT_DEVICE_ROCM;
  return GOOGLE_RT_DEVICE_HOST;
}

static void *load_failed(google_rt_status status) {
  if (loading.active && !loading.error) {
    loading.error = status;
  } else {
    if (!loading.active)
      fprintf(stderr, "google-mlir: %s\n", google_rt_status_message(status));
    google_rt_status_free(status);
  }
  return NULL;
}

static void *load_binary(const void *data, int64_t size, bool jit,
                         int32_t opt_level) {
  google_rt_device_kind kind =
      jit ? GOOGLE_RT_DEVICE_CUDA : binary_kind(data, size);
  if (kind == GOOGLE_RT_DEVICE_HOST)
    return load_failed(google_rt_make_status(
        GOOGLE_RT_IO_ERROR, "unknown device binary format (expected a CUDA "
                            "fatbin or cubin, or an AMDGPU code object)"));
  google_rt_device device = google_rt_device_selected(kind);
  if (loading.active && loading.device.kind != GOOGLE_RT_DEVICE_HOST) {
    if (loading.device.kind != kind)
      return load_failed(google_rt_make_status(
          GOOGLE_RT_INVALID_ARGUMENT,
          "its kernels are for %s, not for the requested %s:%d",
          google_rt_device_kind_name(kind),
          google_rt_device_kind_name(loading.device.kind),
          loading.device.ordinal));
    device = loading.device;
  }
  const gpu_driver *driver;
  google_rt_status status = google_rt_gpu_open_device(device, &driver);
  if (status)
    return load_failed(status);
  gpu_module *module = malloc(sizeof(gpu_module));
  if (!module)
    return load_failed(
        google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory"));
  module->driver = driver;
  module->device = device;
  status = driver->module_load(data, jit, opt_level, &module->native);
  if (status) {
    free(module);
    char where[32];
    google_rt_status detailed = google_rt_make_status(
        google_rt_status_code(status), "cannot load the kernels onto %s: %s",
        google_rt_device_format(device, where, sizeof(where)),
        google_rt_status_message(status));
    google_rt_status_free(status);
    return load_failed(detailed);
  }
  set_last_loaded(device);
  return module;
}

void *mgpuModuleLoad(void *data, int64_t size) {
  return load_binary(data, size, false, 0);
}

void *mgpuModuleLoadJIT(void *data, int32_t opt_level) {
  return load_binary(data, (int64_t)strlen(data), true, opt_level);
}

void mgpuModuleUnload(void *handle) {
  gpu_module *module = handle;
  if (!module)
    return;
  if (!module->driver->activate(module->device.ordinal))
    module->driver->module_unload(module->native);
  free(module);
}

void *mgpuModuleGetFunction(void *handle, const char *name) {
  gpu_module *module = handle;
  if (!module)
    google_rt_fail_call(GOOGLE_RT_UNAVAILABLE,
                        "the module's kernels are not loaded");
  void *function = NULL;
  check(module->driver->module_function(module->native, name, &function));
  return function;
}

void mgpuLaunchKernel(void *function, int64_t grid_x, int64_t grid_y,
                      int64_t grid_z, int64_t block_x, int64_t block_y,
                      int64_t block_z, int32_t shared_bytes, void *stream,
                      void **params, void **extra, int64_t num_params) {
  (void)extra;
  (void)num_params;
  /* An empty range (a dynamic extent of 0) launches nothing. */
  if (grid_x <= 0 || grid_y <= 0 || grid_z <= 0 || block_x <= 0 ||
      block_y <= 0 || block_z <= 0)
    return;
  const int64_t limit = UINT32_MAX;
  if (grid_x > limit || grid_y > limit || grid_z > limit || block_x > limit ||
      block_y > limit || block_z > limit || shared_bytes < 0)
    google_rt_fail_call(GOOGLE_RT_INVALID_ARGUMENT,
                        "a kernel launch of %lld x %lld x %lld blocks of "
                        "%lld x %lld x %lld threads is larger than GPUs allow",
                        (long long)grid_x, (long long)grid_y,
                        (long long)grid_z, (long long)block_x,
                        (long long)block_y, (long long)block_z);
  google_rt_stream *queue = get_stream(stream);
  uint32_t grid[3] = {(uint32_t)grid_x, (uint32_t)grid_y, (uint32_t)grid_z};
  uint32_t block[3] = {(uint32_t)block_x, (uint32_t)block_y,
                       (uint32_t)block_z};
  check(google_rt_gpu_stream_driver(queue)->launch(
      function, grid, block, (uint32_t)shared_bytes,
      google_rt_gpu_stream_native(queue), params));
}

void mgpuLaunchClusterKernel(void *function, int64_t cluster_x,
                             int64_t cluster_y, int64_t cluster_z,
                             int64_t grid_x, int64_t grid_y, int64_t grid_z,
                             int64_t block_x, int64_t block_y, int64_t block_z,
                             int32_t shared_bytes, void *stream, void **params,
                             void **extra) {
  google_rt_fail_call(GOOGLE_RT_INVALID_ARGUMENT,
                      "thread block cluster launches are not supported");
}

void *mgpuStreamCreate(void) {
  google_rt_stream *call = google_rt_gpu_call_stream();
  if (call)
    return call;
  google_rt_stream *stream;
  check(google_rt_stream_create(last_loaded_device(), &stream));
  google_rt_gpu_stream_mark_from_compiled_code(stream);
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  if (stream && google_rt_gpu_stream_from_compiled_code(stream))
    google_rt_stream_free(stream);
}

void mgpuStreamSynchronize(void *stream) {
  google_rt_stream *queue = get_stream(stream);
  if (queue == google_rt_gpu_call_stream() && google_rt_gpu_call_is_async())
    return;
  check(google_rt_gpu_stream_driver(queue)->stream_synchronize(
      google_rt_gpu_stream_native(queue)));
}

/* The driver of the running call, or of the last binary loaded. */
static const gpu_driver *current_driver(void) {
  google_rt_stream *call = google_rt_gpu_call_stream();
  if (call)
    return google_rt_gpu_stream_driver(call);
  const gpu_driver *driver;
  check(google_rt_gpu_open_device(last_loaded_device(), &driver));
  return driver;
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  google_rt_stream *queue = get_stream(stream);
  check(google_rt_gpu_stream_driver(queue)->stream_wait_event(
      google_rt_gpu_stream_native(queue), event));
}

void *mgpuEventCreate(void) {
  void *event = NULL;
  check(current_driver()->event_create(&event));
  return event;
}

void mgpuEventDestroy(void *event) { current_driver()->event_destroy(event); }

void mgpuEventSynchronize(void *event) {
  /* The code waits before host work, which never touches device data; an
   * asynchronous call leaves waiting to its caller. */
  if (google_rt_gpu_call_is_async())
    return;
  check(current_driver()->event_synchronize(event));
}

void mgpuEventRecord(void *event, void *stream) {
  google_rt_stream *queue = get_stream(stream);
  check(google_rt_gpu_stream_driver(queue)->event_record(
      event, google_rt_gpu_stream_native(queue)));
}

/* The GPU the running call is on. */
static google_rt_device call_device(void) {
  google_rt_stream *call = google_rt_gpu_call_stream();
  if (!call)
    google_rt_fail_call(GOOGLE_RT_INTERNAL,
                        "GPU memory is allocated outside a runtime call");
  return google_rt_gpu_call_device();
}

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared) {
  (void)stream; /* the call's: see get_stream */
  google_rt_device device = call_device();
  void *pointer = NULL;
  google_rt_status status =
      host_shared
          ? google_rt_device_pool_alloc_shared(device, (size_t)bytes, &pointer)
          : google_rt_device_pool_alloc(device, (size_t)bytes, &pointer);
  if (status) {
    char where[32], message[400];
    snprintf(message, sizeof(message), "%s",
             google_rt_status_message(status));
    google_rt_status_free(status);
    google_rt_fail_call(GOOGLE_RT_OUT_OF_MEMORY,
                        "cannot allocate %llu bytes on %s for a buffer of the "
                        "compiled code: %s",
                        (unsigned long long)bytes,
                        google_rt_device_format(device, where, sizeof(where)),
                        message);
  }
  if (!google_rt_pool_track(pointer)) {
    google_rt_device_pool_free(pointer);
    google_rt_fail_call(GOOGLE_RT_OUT_OF_MEMORY,
                        "out of memory (recording the call's buffers)");
  }
  if (google_rt_poison_buffers())
    check(google_rt_poison(device, pointer, bytes));
  return pointer;
}

void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  google_rt_pool_untrack(pointer);
  google_rt_device_pool_free(pointer);
}

void mgpuMemcpy(void *destination, void *source, uint64_t bytes,
                void *stream) {
  if (!bytes)
    return;
  google_rt_stream *queue = get_stream(stream);
  check(google_rt_gpu_stream_driver(queue)->copy(
      destination, source, (size_t)bytes, google_rt_gpu_stream_native(queue)));
}

void mgpuMemset32(void *destination, uint32_t value, uint64_t count,
                  void *stream) {
  if (!count)
    return;
  google_rt_stream *queue = get_stream(stream);
  check(google_rt_gpu_stream_driver(queue)->fill32(
      destination, value, (size_t)count, google_rt_gpu_stream_native(queue)));
}

void mgpuMemset16(void *destination, uint16_t value, uint64_t count,
                  void *stream) {
  if (!count)
    return;
  google_rt_stream *queue = get_stream(stream);
  check(google_rt_gpu_stream_driver(queue)->fill16(
      destination, value, (size_t)count, google_rt_gpu_stream_native(queue)));
}

void mgpuMemHostRegister(void *pointer, uint64_t bytes) {
  check(current_driver()->host_register(pointer, (size_t)bytes));
}

void mgpuMemHostUnregister(void *pointer) {
  current_driver()->host_unregister(pointer);
}

/* The first element of a memref and its bytes (sizes times element). */
static void *memref_extent(int64_t rank, void *descriptor,
                           int64_t element_size, uint64_t *bytes) {
  const google_rt_memref_head *head = descriptor;
  const int64_t *sizes = (const int64_t *)(head + 1);
  uint64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= (uint64_t)sizes[i];
  *bytes = count * (uint64_t)element_size;
  return (char *)head->aligned + head->offset * element_size;
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t element_size) {
  uint64_t bytes;
  void *pointer = memref_extent(rank, descriptor, element_size, &bytes);
  mgpuMemHostRegister(pointer, bytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t element_size) {
  uint64_t bytes;
  mgpuMemHostUnregister(memref_extent(rank, descriptor, element_size, &bytes));
}

void mgpuSetDefaultDevice(int32_t ordinal) {
  google_rt_device device = {last_loaded_device().kind, ordinal};
  check(google_rt_device_select(device));
}

/*===----------------------------------------------------------------------===*
 * TMA tensor maps (the wgmma kernels', see nvgpu.tma.create.descriptor)
 *===----------------------------------------------------------------------===*/

enum { TENSOR_MAP_BYTES = 128, TENSOR_MAP_CACHE = 64 };

/* Tensor maps live in device memory, where kernels read them. A function
 * called in a loop makes the same maps again: they are kept, the least
 * recently used given back when the cache is full (a pooled block, which
 * the pool reuses only after the work queued on it). */
typedef struct tensor_map_entry {
  google_rt_device device;
  _Alignas(64) unsigned char map[TENSOR_MAP_BYTES];
  void *on_device;
  uint64_t used;
} tensor_map_entry;

static pthread_mutex_t tensor_map_lock = PTHREAD_MUTEX_INITIALIZER;
static tensor_map_entry tensor_maps[TENSOR_MAP_CACHE];
static uint64_t tensor_map_clock;

/* The bytes per element of the driver's CUtensorMapDataType, 0 if
 * unknown. */
static int64_t tensor_map_element_bytes(int64_t data_type) {
  static const int64_t bytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  return data_type >= 0 && data_type < (int64_t)(sizeof(bytes) / sizeof(*bytes))
             ? bytes[data_type]
             : 0;
}

/* The device copy of `map` on `device`, made (and copied on `queue`) when
 * the cache has none. */
static google_rt_status find_tensor_map(google_rt_device device,
                                        const unsigned char *map,
                                        const gpu_driver *driver,
                                        google_rt_stream *queue,
                                        void **on_device) {
  pthread_mutex_lock(&tensor_map_lock);
  tensor_map_entry *slot = &tensor_maps[0];
  for (int i = 0; i < TENSOR_MAP_CACHE; ++i) {
    tensor_map_entry *entry = &tensor_maps[i];
    if (entry->on_device && entry->device.kind == device.kind &&
        entry->device.ordinal == device.ordinal &&
        memcmp(entry->map, map, TENSOR_MAP_BYTES) == 0) {
      entry->used = ++tensor_map_clock;
      *on_device = entry->on_device;
      pthread_mutex_unlock(&tensor_map_lock);
      return NULL;
    }
    if (!slot->on_device)
      continue;
    if (!entry->on_device || entry->used < slot->used)
      slot = entry;
  }
  google_rt_status status = NULL;
  void *block = NULL;
  status = google_rt_device_pool_alloc(device, TENSOR_MAP_BYTES, &block);
  if (!status)
    status = driver->copy(block, map, TENSOR_MAP_BYTES,
                          google_rt_gpu_stream_native(queue));
  if (status) {
    if (block)
      google_rt_device_pool_free(block);
    pthread_mutex_unlock(&tensor_map_lock);
    return status;
  }
  if (slot->on_device)
    google_rt_device_pool_free(slot->on_device);
  slot->device = device;
  memcpy(slot->map, map, TENSOR_MAP_BYTES);
  slot->on_device = block;
  slot->used = ++tensor_map_clock;
  *on_device = block;
  pthread_mutex_unlock(&tensor_map_lock);
  return NULL;
}

/* A tensor map of the ranked memref `descriptor` points to (allocated and
 * aligned pointers, offset, sizes, strides), read in boxes of `box`
 * elements; returns its address on the call's GPU. Upstream's NVGPU
 * lowering calls it with the driver API's enumerators. */
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                     int64_t data_type, int64_t interleave,
                                     int64_t swizzle, int64_t l2_promotion,
                                     int64_t oob_fill, int64_t *box) {
  google_rt_stream *queue = get_stream(NULL);
  const gpu_driver *driver = google_rt_gpu_stream_driver(queue);
  if (!driver->encode_tensor_map)
    google_rt_fail_call(GOOGLE_RT_INVALID_ARGUMENT,
                        "TMA tensor maps (wgmma=true kernels) need a CUDA "
                        "GPU, not %s",
                        driver->name);
  int64_t element_bytes = tensor_map_element_bytes(data_type);
  if (!element_bytes)
    google_rt_fail_call(GOOGLE_RT_INVALID_ARGUMENT,
                        "a TMA tensor map of unknown data type %lld",
                        (long long)data_type);
  struct {
    char *allocated, *aligned;
    int64_t offset;
    int64_t sizes_and_strides[];
  } *memref = descriptor;
  _Alignas(64) unsigned char map[TENSOR_MAP_BYTES];
  memset(map, 0, sizeof(map));
  const int64_t *sizes = memref->sizes_and_strides;
  check(driver->encode_tensor_map(
      map, data_type, rank, memref->aligned + memref->offset * element_bytes,
      sizes, sizes + rank, box, element_bytes, interleave, swizzle,
      l2_promotion, oob_fill));
  void *on_device = NULL;
  check(find_tensor_map(call_device(), map, driver, queue, &on_device));
  return on_device;
}
