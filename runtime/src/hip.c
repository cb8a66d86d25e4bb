/*===- hip.c - the HIP runtime API for AMD GPUs, loaded at run time -------===*
 *
 * libamdhip64.so is opened on first use; no HIP header is needed: the few
 * types and constants used here are the library's ABI. Device properties
 * are limited to what stable entry points give (name and memory), since
 * hipDeviceProp_t's layout changes between HIP versions.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef int hipError_t; /* 0: hipSuccess */
typedef void *hipModule_t, *hipFunction_t, *hipStream_t, *hipEvent_t;

enum {
  hipErrorOutOfMemory = 2,
  hipMemcpyDefault = 4,
  hipStreamNonBlocking = 1,
  hipEventDisableTiming = 2,
  hipMemAttachGlobal = 1,
};

#define HIP_FUNCTIONS(X)                                                       \
  X(hipInit, hipError_t, (unsigned))                                           \
  X(hipGetDeviceCount, hipError_t, (int *))                                    \
  X(hipDeviceGetName, hipError_t, (char *, int, int))                          \
  X(hipDeviceTotalMem, hipError_t, (size_t *, int))                            \
  X(hipSetDevice, hipError_t, (int))                                           \
  X(hipModuleLoadData, hipError_t, (hipModule_t *, const void *))              \
  X(hipModuleUnload, hipError_t, (hipModule_t))                                \
  X(hipModuleGetFunction, hipError_t,                                          \
    (hipFunction_t *, hipModule_t, const char *))                              \
  X(hipModuleLaunchKernel, hipError_t,                                         \
    (hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,          \
     unsigned, unsigned, hipStream_t, void **, void **))                       \
  X(hipStreamCreateWithFlags, hipError_t, (hipStream_t *, unsigned))           \
  X(hipStreamSynchronize, hipError_t, (hipStream_t))                           \
  X(hipStreamDestroy, hipError_t, (hipStream_t))                               \
  X(hipStreamWaitEvent, hipError_t, (hipStream_t, hipEvent_t, unsigned))       \
  X(hipEventCreateWithFlags, hipError_t, (hipEvent_t *, unsigned))             \
  X(hipEventRecord, hipError_t, (hipEvent_t, hipStream_t))                     \
  X(hipEventSynchronize, hipError_t, (hipEvent_t))                             \
  X(hipEventDestroy, hipError_t, (hipEvent_t))                                 \
  X(hipMalloc, hipError_t, (void **, size_t))                                  \
  X(hipMallocManaged, hipError_t, (void **, size_t, unsigned))                 \
  X(hipFree, hipError_t, (void *))                                             \
  X(hipMemcpyAsync, hipError_t,                                                \
    (void *, const void *, size_t, int, hipStream_t))                          \
  X(hipMemsetD32Async, hipError_t, (void *, int, size_t, hipStream_t))         \
  X(hipMemsetD16Async, hipError_t,                                             \
    (void *, unsigned short, size_t, hipStream_t))                             \
  X(hipHostRegister, hipError_t, (void *, size_t, unsigned))                   \
  X(hipHostUnregister, hipError_t, (void *))                                   \
  X(hipGetErrorName, const char *, (hipError_t))                               \
  X(hipGetErrorString, const char *, (hipError_t))

static struct {
#define DECLARE(name, result, params) result(*name) params;
  HIP_FUNCTIONS(DECLARE)
#undef DECLARE
} hip;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static google_rt_status init_error;
/* The device current on this thread, plus one (0: none set here). */
static _Thread_local int32_t current_device;

static google_rt_status hip_error(hipError_t result, const char *what) {
  const char *name = hip.hipGetErrorName ? hip.hipGetErrorName(result) : NULL;
  const char *message =
      hip.hipGetErrorString ? hip.hipGetErrorString(result) : NULL;
  return google_rt_make_status(
      result == hipErrorOutOfMemory ? GOOGLE_RT_OUT_OF_MEMORY
                                    : GOOGLE_RT_INTERNAL,
      "HIP error %s (%s) in %s", name ? name : "(unknown)",
      message ? message : "no description", what);
}

#define CHECK(call, what)                                                      \
  do {                                                                         \
    hipError_t result_ = (call);                                               \
    if (result_ != 0)                                                          \
      return hip_error(result_, what);                                         \
  } while (0)

static void load_runtime(void) {
  static const char *const libraries[] = {
      "libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", NULL};
#define NAME(name, result, params) #name,
#define SLOT(name, result, params) (void **)&hip.name,
  static const char *const symbols[] = {HIP_FUNCTIONS(NAME)};
  void **const slots[] = {HIP_FUNCTIONS(SLOT)};
#undef NAME
#undef SLOT
  init_error = google_rt_gpu_load_driver("ROCm driver", libraries, symbols,
                                         slots,
                                         sizeof(slots) / sizeof(slots[0]));
  if (init_error)
    return;
  hipError_t result = hip.hipInit(0);
  if (result != 0) {
    google_rt_status error = hip_error(result, "hipInit");
    init_error = google_rt_make_status(
        GOOGLE_RT_UNAVAILABLE, "the HIP runtime did not initialize: %s",
        google_rt_status_message(error));
    google_rt_status_free(error);
  }
}

static google_rt_status init(void) {
  pthread_once(&init_once, load_runtime);
  return init_error ? google_rt_make_status(
                          google_rt_status_code(init_error), "%s",
                          google_rt_status_message(init_error))
                    : NULL;
}

static google_rt_status device_count(int32_t *count) {
  int value = 0;
  CHECK(hip.hipGetDeviceCount(&value), "hipGetDeviceCount");
  *count = value;
  return NULL;
}

static google_rt_status properties(int32_t ordinal,
                                   google_rt_device_properties *out) {
  CHECK(hip.hipDeviceGetName(out->name, (int)sizeof(out->name), ordinal),
        "hipDeviceGetName");
  size_t bytes = 0;
  CHECK(hip.hipDeviceTotalMem(&bytes, ordinal), "hipDeviceTotalMem");
  out->total_memory = bytes;
  out->arch[0] = '\0';
  out->multiprocessors = 0;
  return NULL;
}

static google_rt_status activate(int32_t ordinal) {
  if (current_device == ordinal + 1)
    return NULL;
  CHECK(hip.hipSetDevice(ordinal), "hipSetDevice");
  current_device = ordinal + 1;
  return NULL;
}

static google_rt_status module_load(const void *blob, bool jit,
                                    int32_t opt_level, void **module) {
  (void)opt_level;
  if (jit)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "ROCm cannot compile PTX");
  CHECK(hip.hipModuleLoadData(module, blob), "hipModuleLoadData");
  return NULL;
}

static void module_unload(void *module) { hip.hipModuleUnload(module); }

static google_rt_status module_function(void *module, const char *name,
                                        void **function) {
  CHECK(hip.hipModuleGetFunction(function, module, name),
        "hipModuleGetFunction");
  return NULL;
}

static google_rt_status launch(void *function, const uint32_t grid[3],
                               const uint32_t block[3], uint32_t shared_bytes,
                               void *stream, void **params) {
  CHECK(hip.hipModuleLaunchKernel(function, grid[0], grid[1], grid[2],
                                  block[0], block[1], block[2], shared_bytes,
                                  stream, params, NULL),
        "hipModuleLaunchKernel");
  return NULL;
}

static google_rt_status stream_create(void **stream) {
  CHECK(hip.hipStreamCreateWithFlags(stream, hipStreamNonBlocking),
        "hipStreamCreateWithFlags");
  return NULL;
}

static google_rt_status stream_synchronize(void *stream) {
  CHECK(hip.hipStreamSynchronize(stream), "hipStreamSynchronize");
  return NULL;
}

static void stream_destroy(void *stream) { hip.hipStreamDestroy(stream); }

static google_rt_status stream_wait_event(void *stream, void *event) {
  CHECK(hip.hipStreamWaitEvent(stream, event, 0), "hipStreamWaitEvent");
  return NULL;
}

static google_rt_status event_create(void **event) {
  CHECK(hip.hipEventCreateWithFlags(event, hipEventDisableTiming),
        "hipEventCreateWithFlags");
  return NULL;
}

static google_rt_status event_record(void *event, void *stream) {
  CHECK(hip.hipEventRecord(event, stream), "hipEventRecord");
  return NULL;
}

static google_rt_status event_synchronize(void *event) {
  CHECK(hip.hipEventSynchronize(event), "hipEventSynchronize");
  return NULL;
}

static void event_destroy(void *event) { hip.hipEventDestroy(event); }

static google_rt_status allocate(size_t bytes, bool host_shared,
                                 void **pointer) {
  if (host_shared)
    CHECK(hip.hipMallocManaged(pointer, bytes, hipMemAttachGlobal),
          "hipMallocManaged");
  else
    CHECK(hip.hipMalloc(pointer, bytes), "hipMalloc");
  return NULL;
}

static void release(void *pointer) { hip.hipFree(pointer); }

static google_rt_status copy(void *destination, const void *source,
                             size_t bytes, void *stream) {
  CHECK(hip.hipMemcpyAsync(destination, source, bytes, hipMemcpyDefault,
                           stream),
        "hipMemcpyAsync");
  return NULL;
}

static google_rt_status fill32(void *destination, uint32_t value, size_t count,
                               void *stream) {
  CHECK(hip.hipMemsetD32Async(destination, (int)value, count, stream),
        "hipMemsetD32Async");
  return NULL;
}

static google_rt_status fill16(void *destination, uint16_t value, size_t count,
                               void *stream) {
  CHECK(hip.hipMemsetD16Async(destination, value, count, stream),
        "hipMemsetD16Async");
  return NULL;
}

static google_rt_status host_register(void *pointer, size_t bytes) {
  CHECK(hip.hipHostRegister(pointer, bytes, 0), "hipHostRegister");
  return NULL;
}

static void host_unregister(void *pointer) { hip.hipHostUnregister(pointer); }

const gpu_driver google_rt_hip_driver = {
    .kind = GOOGLE_RT_DEVICE_ROCM,
    .name = "ROCm",
    .init = init,
    .device_count = device_count,
    .properties = properties,
    .activate = activate,
    .module_load = module_load,
    .module_unload = module_unload,
    .module_function = module_function,
    .launch = launch,
    .stream_create = stream_create,
    .stream_synchronize = stream_synchronize,
    .stream_destroy = stream_destroy,
    .stream_wait_event = stream_wait_event,
    .event_create = event_create,
    .event_record = event_record,
    .event_synchronize = event_synchronize,
    .event_destroy = event_destroy,
    .allocate = allocate,
    .free = release,
    .copy = copy,
    .fill32 = fill32,
    .fill16 = fill16,
    .host_register = host_register,
    .host_unregister = host_unregister,
};
