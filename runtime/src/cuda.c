/*===- cuda.c - the CUDA driver API, loaded at run time -------------------===*
 *
 * libcuda.so.1 is opened on first use; no CUDA header is needed: the few
 * types and constants used here are the driver ABI's.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef int CUresult; /* 0: CUDA_SUCCESS */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

enum {
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_ASSERT = 710,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DISABLE_TIMING = 2,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  /* Shared memory a launch gets without asking: static plus dynamic. */
  DEFAULT_SHARED_BYTES = 48 * 1024,
  MAX_DEVICES = 64,
};

/* The driver's functions, by the symbol names of the current ABI. */
#define CUDA_FUNCTIONS(X)                                                      \
  X(cuInit, (unsigned))                                                        \
  X(cuDeviceGetCount, (int *))                                                 \
  X(cuDeviceGet, (CUdevice *, int))                                            \
  X(cuDeviceGetName, (char *, int, CUdevice))                                  \
  X(cuDeviceTotalMem_v2, (size_t *, CUdevice))                                 \
  X(cuDeviceGetAttribute, (int *, int, CUdevice))                              \
  X(cuDevicePrimaryCtxRetain, (CUcontext *, CUdevice))                         \
  X(cuCtxSetCurrent, (CUcontext))                                              \
  X(cuModuleLoadData, (CUmodule *, const void *))                              \
  X(cuModuleLoadDataEx,                                                        \
    (CUmodule *, const void *, unsigned, int *, void **))                      \
  X(cuModuleUnload, (CUmodule))                                                \
  X(cuModuleGetFunction, (CUfunction *, CUmodule, const char *))               \
  X(cuLaunchKernel, (CUfunction, unsigned, unsigned, unsigned, unsigned,       \
                     unsigned, unsigned, unsigned, CUstream, void **,          \
                     void **))                                                 \
  X(cuStreamCreate, (CUstream *, unsigned))                                    \
  X(cuStreamSynchronize, (CUstream))                                           \
  X(cuStreamDestroy_v2, (CUstream))                                            \
  X(cuStreamWaitEvent, (CUstream, CUevent, unsigned))                          \
  X(cuEventCreate, (CUevent *, unsigned))                                      \
  X(cuEventRecord, (CUevent, CUstream))                                        \
  X(cuEventSynchronize, (CUevent))                                             \
  X(cuEventDestroy_v2, (CUevent))                                              \
  X(cuMemAlloc_v2, (CUdeviceptr *, size_t))                                    \
  X(cuMemAllocManaged, (CUdeviceptr *, size_t, unsigned))                      \
  X(cuMemFree_v2, (CUdeviceptr))                                               \
  X(cuMemcpyAsync, (CUdeviceptr, CUdeviceptr, size_t, CUstream))              \
  X(cuMemsetD32Async, (CUdeviceptr, unsigned, size_t, CUstream))              \
  X(cuMemsetD16Async, (CUdeviceptr, unsigned short, size_t, CUstream))        \
  X(cuMemHostRegister_v2, (void *, size_t, unsigned))                          \
  X(cuMemHostUnregister, (void *))                                             \
  X(cuGetErrorName, (CUresult, const char **))                                 \
  X(cuGetErrorString, (CUresult, const char **))

static struct {
#define DECLARE(name, params) CUresult(*name) params;
  CUDA_FUNCTIONS(DECLARE)
#undef DECLARE
} cu;

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static google_rt_status init_error; /* the outcome of loading, kept */
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext contexts[MAX_DEVICES];
/* The device whose context is current on this thread, plus one (0: none). */
static _Thread_local int32_t current_device;

/* "CUDA error CUDA_ERROR_X (message) in what". */
static google_rt_status cuda_error(CUresult result, const char *what) {
  const char *name = NULL, *message = NULL;
  if (cu.cuGetErrorName)
    cu.cuGetErrorName(result, &name);
  if (cu.cuGetErrorString)
    cu.cuGetErrorString(result, &message);
  /* A failed cf.assert in a kernel (check-bounds=true): __assertfail. */
  const char *hint =
      result == CUDA_ERROR_ASSERT
          ? ": a run-time check in a kernel failed (the driver printed which "
            "above); the device's context is lost for this process"
          : "";
  return google_rt_make_status(
      result == CUDA_ERROR_OUT_OF_MEMORY ? GOOGLE_RT_OUT_OF_MEMORY
                                         : GOOGLE_RT_INTERNAL,
      "CUDA error %s (%s) in %s%s", name ? name : "(unknown)",
      message ? message : "no description", what, hint);
}

#define CHECK(call, what)                                                      \
  do {                                                                         \
    CUresult result_ = (call);                                                 \
    if (result_ != 0)                                                          \
      return cuda_error(result_, what);                                        \
  } while (0)

static void load_driver(void) {
  static const char *const libraries[] = {"libcuda.so.1", NULL};
#define NAME(name, params) #name,
#define SLOT(name, params) (void **)&cu.name,
  static const char *const symbols[] = {CUDA_FUNCTIONS(NAME)};
  void **const slots[] = {CUDA_FUNCTIONS(SLOT)};
#undef NAME
#undef SLOT
  init_error = google_rt_gpu_load_driver("CUDA driver", libraries, symbols,
                                         slots,
                                         sizeof(slots) / sizeof(slots[0]));
  if (init_error)
    return;
  CUresult result = cu.cuInit(0);
  if (result != 0) {
    google_rt_status error = cuda_error(result, "cuInit");
    init_error = google_rt_make_status(
        GOOGLE_RT_UNAVAILABLE, "the CUDA driver did not initialize: %s",
        google_rt_status_message(error));
    google_rt_status_free(error);
  }
}

static google_rt_status init(void) {
  pthread_once(&init_once, load_driver);
  return init_error ? google_rt_make_status(
                          google_rt_status_code(init_error), "%s",
                          google_rt_status_message(init_error))
                    : NULL;
}

static google_rt_status device_count(int32_t *count) {
  int value = 0;
  CHECK(cu.cuDeviceGetCount(&value), "cuDeviceGetCount");
  *count = value;
  return NULL;
}

static google_rt_status properties(int32_t ordinal,
                                   google_rt_device_properties *out) {
  CUdevice device;
  CHECK(cu.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  CHECK(cu.cuDeviceGetName(out->name, (int)sizeof(out->name), device),
        "cuDeviceGetName");
  size_t bytes = 0;
  CHECK(cu.cuDeviceTotalMem_v2(&bytes, device), "cuDeviceTotalMem");
  out->total_memory = bytes;
  int major = 0, minor = 0, units = 0;
  CHECK(cu.cuDeviceGetAttribute(
            &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
        "cuDeviceGetAttribute");
  CHECK(cu.cuDeviceGetAttribute(
            &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
        "cuDeviceGetAttribute");
  CHECK(cu.cuDeviceGetAttribute(
            &units, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
        "cuDeviceGetAttribute");
  snprintf(out->arch, sizeof(out->arch), "sm_%d%d", major, minor);
  out->multiprocessors = units;
  return NULL;
}

static google_rt_status activate(int32_t ordinal) {
  if (current_device == ordinal + 1)
    return NULL;
  if (ordinal < 0 || ordinal >= MAX_DEVICES)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "no CUDA device %d", (int)ordinal);
  pthread_mutex_lock(&context_lock);
  CUresult result = 0;
  if (!contexts[ordinal]) {
    CUdevice device;
    result = cu.cuDeviceGet(&device, ordinal);
    if (result == 0)
      result = cu.cuDevicePrimaryCtxRetain(&contexts[ordinal], device);
  }
  CUcontext context = contexts[ordinal];
  pthread_mutex_unlock(&context_lock);
  if (result != 0)
    return cuda_error(result, "cuDevicePrimaryCtxRetain");
  CHECK(cu.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  current_device = ordinal + 1;
  return NULL;
}

static google_rt_status module_load(const void *blob, bool jit,
                                    int32_t opt_level, void **module) {
  if (!jit) {
    CHECK(cu.cuModuleLoadData(module, blob), "cuModuleLoadData");
    return NULL;
  }
  char log[1024] = "";
  int options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                   CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {(void *)(intptr_t)(opt_level < 0   ? 0
                                       : opt_level > 4 ? 4
                                                       : opt_level),
                    log, (void *)(intptr_t)sizeof(log)};
  CUresult result = cu.cuModuleLoadDataEx(module, blob, 3, options, values);
  if (result == 0)
    return NULL;
  google_rt_status error = cuda_error(result, "cuModuleLoadDataEx (PTX JIT)");
  if (!log[0])
    return error;
  log[sizeof(log) - 1] = '\0';
  google_rt_status detailed =
      google_rt_make_status(google_rt_status_code(error), "%s: %s",
                            google_rt_status_message(error), log);
  google_rt_status_free(error);
  return detailed;
}

static void module_unload(void *module) { cu.cuModuleUnload(module); }

static google_rt_status module_function(void *module, const char *name,
                                        void **function) {
  CHECK(cu.cuModuleGetFunction(function, module, name), "cuModuleGetFunction");
  return NULL;
}

/* Driver functions that not every driver the runtime runs with has (CUDA
 * 12's tensor maps), or that only some kernels need: looked up on first
 * use. NULL when absent. */
static void *optional_function(const char *name) {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  void *function = library ? dlsym(library, name) : NULL;
  if (library)
    dlclose(library);
  return function;
}

typedef CUresult (*set_attribute_fn)(CUfunction, int, int);
typedef CUresult (*encode_tiled_fn)(void *, int, unsigned, void *,
                                    const uint64_t *, const uint64_t *,
                                    const uint32_t *, const uint32_t *, int,
                                    int, int, int);
static set_attribute_fn func_set_attribute;
static encode_tiled_fn tensor_map_encode_tiled;
static pthread_once_t optional_once = PTHREAD_ONCE_INIT;

static void load_optional(void) {
  func_set_attribute =
      (set_attribute_fn)optional_function("cuFuncSetAttribute");
  tensor_map_encode_tiled =
      (encode_tiled_fn)optional_function("cuTensorMapEncodeTiled");
}

static google_rt_status launch(void *function, const uint32_t grid[3],
                               const uint32_t block[3], uint32_t shared_bytes,
                               void *stream, void **params) {
  /* More shared memory than a launch gets by default must be allowed for
   * the function first. */
  if (shared_bytes > DEFAULT_SHARED_BYTES) {
    pthread_once(&optional_once, load_optional);
    if (!func_set_attribute)
      return google_rt_make_status(
          GOOGLE_RT_UNAVAILABLE,
          "the CUDA driver lacks cuFuncSetAttribute, which a kernel using "
          "%u bytes of shared memory needs",
          shared_bytes);
    CHECK(func_set_attribute(function,
                             CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             (int)shared_bytes),
          "cuFuncSetAttribute (dynamic shared memory)");
  }
  CHECK(cu.cuLaunchKernel(function, grid[0], grid[1], grid[2], block[0],
                          block[1], block[2], shared_bytes, stream, params,
                          NULL),
        "cuLaunchKernel");
  return NULL;
}

static google_rt_status stream_create(void **stream) {
  CHECK(cu.cuStreamCreate(stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return NULL;
}

static google_rt_status stream_synchronize(void *stream) {
  CHECK(cu.cuStreamSynchronize(stream), "cuStreamSynchronize");
  return NULL;
}

static void stream_destroy(void *stream) { cu.cuStreamDestroy_v2(stream); }

static google_rt_status stream_wait_event(void *stream, void *event) {
  CHECK(cu.cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
  return NULL;
}

static google_rt_status event_create(void **event) {
  CHECK(cu.cuEventCreate(event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return NULL;
}

static google_rt_status event_record(void *event, void *stream) {
  CHECK(cu.cuEventRecord(event, stream), "cuEventRecord");
  return NULL;
}

static google_rt_status event_synchronize(void *event) {
  CHECK(cu.cuEventSynchronize(event), "cuEventSynchronize");
  return NULL;
}

static void event_destroy(void *event) { cu.cuEventDestroy_v2(event); }

static google_rt_status allocate(size_t bytes, bool host_shared,
                                 void **pointer) {
  CUdeviceptr device = 0;
  if (host_shared)
    CHECK(cu.cuMemAllocManaged(&device, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    CHECK(cu.cuMemAlloc_v2(&device, bytes), "cuMemAlloc");
  *pointer = (void *)(uintptr_t)device;
  return NULL;
}

static void release(void *pointer) {
  cu.cuMemFree_v2((CUdeviceptr)(uintptr_t)pointer);
}

static google_rt_status copy(void *destination, const void *source,
                             size_t bytes, void *stream) {
  CHECK(cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)destination,
                         (CUdeviceptr)(uintptr_t)source, bytes, stream),
        "cuMemcpyAsync");
  return NULL;
}

static google_rt_status fill32(void *destination, uint32_t value, size_t count,
                               void *stream) {
  CHECK(cu.cuMemsetD32Async((CUdeviceptr)(uintptr_t)destination, value, count,
                            stream),
        "cuMemsetD32Async");
  return NULL;
}

static google_rt_status fill16(void *destination, uint16_t value, size_t count,
                               void *stream) {
  CHECK(cu.cuMemsetD16Async((CUdeviceptr)(uintptr_t)destination, value, count,
                            stream),
        "cuMemsetD16Async");
  return NULL;
}

static google_rt_status host_register(void *pointer, size_t bytes) {
  CHECK(cu.cuMemHostRegister_v2(pointer, bytes, 0), "cuMemHostRegister");
  return NULL;
}

static void host_unregister(void *pointer) { cu.cuMemHostUnregister(pointer); }

static google_rt_status
encode_tensor_map(void *map, int64_t data_type, int64_t rank, void *address,
                  const int64_t *sizes, const int64_t *strides,
                  const int64_t *box, int64_t element_bytes, int64_t interleave,
                  int64_t swizzle, int64_t l2_promotion, int64_t oob_fill) {
  enum { MAX_RANK = 5 };
  pthread_once(&optional_once, load_optional);
  if (!tensor_map_encode_tiled)
    return google_rt_make_status(
        GOOGLE_RT_UNAVAILABLE,
        "the CUDA driver lacks cuTensorMapEncodeTiled (TMA, which wgmma=true "
        "kernels use, needs CUDA 12 or later)");
  if (rank < 1 || rank > MAX_RANK)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "a TMA tensor map of rank %lld: expected 1 "
                                 "to %d",
                                 (long long)rank, MAX_RANK);
  /* The driver takes the innermost dimension first, and the byte strides
   * of all but it. */
  uint64_t dims[MAX_RANK], byte_strides[MAX_RANK];
  uint32_t boxes[MAX_RANK], element_strides[MAX_RANK];
  for (int64_t i = 0; i < rank; ++i) {
    int64_t outer = rank - 1 - i;
    dims[i] = (uint64_t)sizes[outer];
    boxes[i] = (uint32_t)box[outer];
    element_strides[i] = 1;
    if (i > 0)
      byte_strides[i - 1] = (uint64_t)(strides[outer] * element_bytes);
  }
  CHECK(tensor_map_encode_tiled(map, (int)data_type, (unsigned)rank, address,
                                dims, byte_strides, boxes, element_strides,
                                (int)interleave, (int)swizzle,
                                (int)l2_promotion, (int)oob_fill),
        "cuTensorMapEncodeTiled");
  return NULL;
}

const gpu_driver google_rt_cuda_driver = {
    .kind = GOOGLE_RT_DEVICE_CUDA,
    .name = "CUDA",
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
    .encode_tensor_map = encode_tensor_map,
};
