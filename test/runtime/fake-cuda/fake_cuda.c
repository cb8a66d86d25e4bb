/*===- fake_cuda.c - a stand-in libcuda.so.1 for the runtime's tests ------===*
 *
 * A test double, used only by tests (LD_LIBRARY_PATH): it reports devices,
 * keeps "device" memory in host memory, copies and fills it, loads any
 * binary, and records kernel launches without running them (it cannot run
 * GPU code). What the runtime does around kernels, its copies, pools,
 * streams and error reporting, can so be tested without a GPU.
 *
 * Environment:
 *   FAKE_CUDA_DEVICES=N      devices reported (default 1)
 *   FAKE_CUDA_FAIL=fn=code   make entry point `fn` return error `code`
 *   FAKE_CUDA_LOG=path       append one line per launch, load and
 *                            allocation to `path`
 *
 *===----------------------------------------------------------------------===*/

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

static CUresult injected(const char *function) {
  const char *fail = getenv("FAKE_CUDA_FAIL");
  size_t length = strlen(function);
  if (fail && strncmp(fail, function, length) == 0 && fail[length] == '=')
    return atoi(fail + length + 1);
  return 0;
}

static void record(const char *format, ...) {
  const char *path = getenv("FAKE_CUDA_LOG");
  if (!path)
    return;
  FILE *log = fopen(path, "a");
  if (!log)
    return;
  va_list args;
  va_start(args, format);
  vfprintf(log, format, args);
  va_end(args);
  fputc('\n', log);
  fclose(log);
}

#define FAIL_IF_INJECTED(name)                                                 \
  do {                                                                         \
    CUresult code_ = injected(name);                                           \
    if (code_)                                                                 \
      return code_;                                                            \
  } while (0)

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case 2: *name = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
  case 100: *name = "CUDA_ERROR_NO_DEVICE"; return 0;
  case 200: *name = "CUDA_ERROR_INVALID_IMAGE"; return 0;
  case 700: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
  case 710: *name = "CUDA_ERROR_ASSERT"; return 0;
  case 719: *name = "CUDA_ERROR_LAUNCH_FAILED"; return 0;
  default: *name = "CUDA_ERROR_UNKNOWN"; return 0;
  }
}

CUresult cuGetErrorString(CUresult error, const char **message) {
  switch (error) {
  case 2: *message = "out of memory"; return 0;
  case 100: *message = "no CUDA-capable device is detected"; return 0;
  case 200: *message = "device kernel image is invalid"; return 0;
  case 700: *message = "an illegal memory access was encountered"; return 0;
  case 710: *message = "device-side assert triggered"; return 0;
  case 719: *message = "unspecified launch failure"; return 0;
  default: *message = "unknown error"; return 0;
  }
}

static int devices(void) {
  const char *count = getenv("FAKE_CUDA_DEVICES");
  return count ? atoi(count) : 1;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  FAIL_IF_INJECTED("cuInit");
  return 0;
}
CUresult cuDeviceGetCount(int *count) {
  *count = devices();
  return 0;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  if (ordinal < 0 || ordinal >= devices())
    return 101; /* CUDA_ERROR_INVALID_DEVICE */
  *device = ordinal;
  return 0;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  snprintf(name, (size_t)length, "Fake CUDA device %d", device);
  return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  (void)device;
  *bytes = (size_t)1 << 30;
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? 9 : attribute == 76 ? 0 : attribute == 16 ? 2 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = (void *)(uintptr_t)(device + 1);
  return 0;
}
CUresult cuCtxSetCurrent(void *context) {
  (void)context;
  return 0;
}

typedef struct fake_module {
  size_t loads;
} fake_module;

CUresult cuModuleLoadData(void **module, const void *image) {
  (void)image;
  FAIL_IF_INJECTED("cuModuleLoadData");
  *module = calloc(1, sizeof(fake_module));
  record("load");
  return 0;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned count,
                            int *options, void **values) {
  (void)count;
  (void)options;
  (void)values;
  FAIL_IF_INJECTED("cuModuleLoadDataEx");
  *module = calloc(1, sizeof(fake_module));
  record("load ptx %.20s", (const char *)image);
  return 0;
}
CUresult cuModuleUnload(void *module) {
  free(module);
  record("unload");
  return 0;
}
/* Function handles are their names, kept for the launch log. */
enum { MAX_FUNCTIONS = 256, MAX_NAME = 128 };
static char function_names[MAX_FUNCTIONS][MAX_NAME];
static int num_functions;

CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  (void)module;
  FAIL_IF_INJECTED("cuModuleGetFunction");
  for (int i = 0; i < num_functions; ++i) {
    if (strcmp(function_names[i], name) == 0) {
      *function = function_names[i];
      return 0;
    }
  }
  if (num_functions == MAX_FUNCTIONS || strlen(name) >= MAX_NAME)
    return 500; /* CUDA_ERROR_NOT_FOUND */
  strcpy(function_names[num_functions], name);
  *function = function_names[num_functions++];
  return 0;
}
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  (void)stream;
  (void)params;
  (void)extra;
  FAIL_IF_INJECTED("cuLaunchKernel");
  record("launch %s grid=(%u,%u,%u) block=(%u,%u,%u) shared=%u",
         (const char *)function, gx, gy, gz, bx, by, bz, shared);
  return 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  (void)flags;
  *stream = malloc(1);
  return 0;
}
CUresult cuStreamSynchronize(void *stream) {
  (void)stream;
  FAIL_IF_INJECTED("cuStreamSynchronize");
  return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
  free(stream);
  return 0;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  (void)stream;
  (void)event;
  (void)flags;
  return 0;
}
CUresult cuEventCreate(void **event, unsigned flags) {
  (void)flags;
  *event = malloc(1);
  return 0;
}
CUresult cuEventRecord(void *event, void *stream) {
  (void)event;
  (void)stream;
  return 0;
}
CUresult cuEventSynchronize(void *event) {
  (void)event;
  return 0;
}
CUresult cuEventDestroy_v2(void *event) {
  free(event);
  return 0;
}
CUresult cuMemAlloc_v2(unsigned long long *pointer, size_t bytes) {
  FAIL_IF_INJECTED("cuMemAlloc");
  void *memory = NULL;
  if (posix_memalign(&memory, 256, bytes ? bytes : 1) != 0)
    return 2;
  /* Garbage, as device memory would hold. */
  memset(memory, 0x7f, bytes);
  *pointer = (unsigned long long)(uintptr_t)memory;
  record("alloc %zu", bytes);
  return 0;
}
CUresult cuMemAllocManaged(unsigned long long *pointer, size_t bytes,
                           unsigned flags) {
  (void)flags;
  return cuMemAlloc_v2(pointer, bytes);
}
CUresult cuMemFree_v2(unsigned long long pointer) {
  free((void *)(uintptr_t)pointer);
  record("free");
  return 0;
}
CUresult cuMemcpyAsync(unsigned long long destination,
                       unsigned long long source, size_t bytes, void *stream) {
  (void)stream;
  FAIL_IF_INJECTED("cuMemcpyAsync");
  memmove((void *)(uintptr_t)destination, (const void *)(uintptr_t)source,
          bytes);
  return 0;
}
CUresult cuMemsetD32Async(unsigned long long destination, unsigned value,
                          size_t count, void *stream) {
  (void)stream;
  unsigned *words = (unsigned *)(uintptr_t)destination;
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  return 0;
}
CUresult cuMemsetD16Async(unsigned long long destination, unsigned short value,
                          size_t count, void *stream) {
  (void)stream;
  unsigned short *halves = (unsigned short *)(uintptr_t)destination;
  for (size_t i = 0; i < count; ++i)
    halves[i] = value;
  return 0;
}
CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  (void)pointer;
  (void)bytes;
  (void)flags;
  return 0;
}
CUresult cuMemHostUnregister(void *pointer) {
  (void)pointer;
  return 0;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  FAIL_IF_INJECTED("cuFuncSetAttribute");
  record("attribute %s %d=%d", (const char *)function, attribute, value);
  return 0;
}
CUresult cuTensorMapEncodeTiled(void *map, int type, unsigned rank,
                                void *address, const uint64_t *dims,
                                const uint64_t *strides, const uint32_t *box,
                                const uint32_t *element_strides, int interleave,
                                int swizzle, int promotion, int fill) {
  (void)element_strides;
  FAIL_IF_INJECTED("cuTensorMapEncodeTiled");
  /* The address only: the same array gets the same map. */
  memset(map, 0, 128);
  memcpy(map, &address, sizeof(address));
  char shape[160] = "";
  for (unsigned i = 0; i < rank; ++i)
    snprintf(shape + strlen(shape), sizeof(shape) - strlen(shape), "%s%llu/%u",
             i ? " " : "", (unsigned long long)dims[i], box[i]);
  char steps[96] = "";
  for (unsigned i = 0; i + 1 < rank; ++i)
    snprintf(steps + strlen(steps), sizeof(steps) - strlen(steps), "%s%llu",
             i ? " " : "", (unsigned long long)strides[i]);
  record("tensor map type=%d dims/box=[%s] strides=[%s] interleave=%d "
         "swizzle=%d l2=%d fill=%d aligned=%d",
         type, shape, steps, interleave, swizzle, promotion, fill,
         (int)((uintptr_t)address % 16 == 0));
  return 0;
}
