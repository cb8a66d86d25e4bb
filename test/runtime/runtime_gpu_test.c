/*===- runtime_gpu_test.c - the runtime's device API ----------------------===*
 *
 *   runtime_gpu_test nodriver
 *     without libcuda.so.1: every device entry point fails cleanly.
 *   runtime_gpu_test fake MODULE.so
 *     with the stand-in libcuda.so.1 (test/runtime/fake-cuda), MODULE.so
 *     compiled with target=nvvm and holding @identity(tensor<?x3xf32>):
 *     device tensors, copies both ways, streams, zero-copy and
 *     asynchronous calls.
 *   runtime_gpu_test devices MODULE.so CPU_MODULE.so
 *     with FAKE_CUDA_DEVICES=2: a module loaded onto a chosen GPU, the
 *     selection left alone, and modules for another device refused.
 *
 *===----------------------------------------------------------------------===*/

#include "google_runtime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(condition, what)                                                \
  do {                                                                         \
    if (!(condition)) {                                                        \
      printf("FAIL: %s (line %d)\n", what, __LINE__);                          \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void pass(const char *what) { printf("PASS: %s\n", what); }

/* Prints and frees an expected error. */
static void expect_error(google_rt_status status, google_rt_code code,
                         const char *what) {
  EXPECT(status != NULL, what);
  if (!status)
    return;
  EXPECT(google_rt_status_code(status) == code, what);
  printf("%s: %s\n", what, google_rt_status_message(status));
  google_rt_status_free(status);
}

static void expect_ok(google_rt_status status, const char *what) {
  if (status) {
    printf("FAIL: %s: %s\n", what, google_rt_status_message(status));
    ++failures;
    google_rt_status_free(status);
  }
}

static void no_driver(void) {
  int32_t count = -1;
  expect_error(google_rt_device_count(GOOGLE_RT_DEVICE_CUDA, &count),
               GOOGLE_RT_UNAVAILABLE, "cuda count");
  EXPECT(count == 0, "no devices counted");
  expect_error(google_rt_device_count(GOOGLE_RT_DEVICE_ROCM, &count),
               GOOGLE_RT_UNAVAILABLE, "rocm count");
  google_rt_device cuda = {GOOGLE_RT_DEVICE_CUDA, 0};
  google_rt_tensor tensor;
  int64_t shape[1] = {4};
  expect_error(google_rt_tensor_alloc_on(cuda, GOOGLE_RT_F32, 1, shape,
                                         &tensor),
               GOOGLE_RT_UNAVAILABLE, "alloc on cuda");
  google_rt_stream *stream = NULL;
  expect_error(google_rt_stream_create(cuda, &stream), GOOGLE_RT_UNAVAILABLE,
               "stream on cuda");
  EXPECT(stream == NULL, "no stream made");
  expect_error(google_rt_device_select(cuda), GOOGLE_RT_UNAVAILABLE,
               "select cuda");
  EXPECT(google_rt_device_count(GOOGLE_RT_DEVICE_HOST, &count) == NULL &&
             count == 1,
         "the host is one device");
  pass("no driver");
}

/* Calls of one function from several threads: each has its own stream,
 * the device pool is shared. */
static const google_rt_function *concurrent_function;
static int concurrent_failures;

static void *call_repeatedly(void *seed) {
  int64_t shape[2] = {(int64_t)(intptr_t)seed % 5, 3};
  float host[15];
  for (int i = 0; i < 15; ++i)
    host[i] = (float)((intptr_t)seed * 100 + i);
  for (int call = 0; call < 200; ++call) {
    google_rt_tensor argument, result;
    google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, host, &argument);
    memset(&result, 0, sizeof(result));
    google_rt_status status =
        google_rt_call(concurrent_function, &argument, 1, &result, 1);
    if (status || memcmp(result.data, host,
                         (size_t)(shape[0] * shape[1]) * sizeof(float)) != 0)
      __atomic_add_fetch(&concurrent_failures, 1, __ATOMIC_RELAXED);
    google_rt_status_free(status);
    google_rt_tensor_release(&result);
  }
  return NULL;
}

static void fake_driver(const char *path) {
  google_rt_device cuda = {GOOGLE_RT_DEVICE_CUDA, 0};
  int32_t count = 0;
  expect_ok(google_rt_device_count(GOOGLE_RT_DEVICE_CUDA, &count), "count");
  EXPECT(count == 1, "one fake device");
  google_rt_device_properties properties;
  expect_ok(google_rt_device_get_properties(cuda, &properties), "properties");
  EXPECT(strcmp(properties.arch, "sm_90") == 0, "arch");
  google_rt_device missing = {GOOGLE_RT_DEVICE_CUDA, 5};
  expect_error(google_rt_device_select(missing), GOOGLE_RT_INVALID_ARGUMENT,
               "select cuda:5");
  pass("devices");

  /* Host -> device -> host, strided host side included. */
  int64_t shape[2] = {2, 3};
  float host[6] = {1, 2, 3, 4, 5, 6}, back[6] = {0};
  google_rt_tensor source, on_device, destination;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, host, &source);
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, back, &destination);
  expect_ok(google_rt_tensor_alloc_on(cuda, GOOGLE_RT_F32, 2, shape,
                                      &on_device),
            "alloc on device");
  EXPECT(on_device.device.kind == GOOGLE_RT_DEVICE_CUDA && on_device.buffer,
         "device tensor");
  expect_ok(google_rt_tensor_copy(&source, &on_device), "copy in");
  expect_ok(google_rt_tensor_copy(&on_device, &destination), "copy out");
  EXPECT(memcmp(host, back, sizeof(host)) == 0, "round trip");
  float transposed[6] = {0};
  google_rt_tensor columns;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, transposed, &columns);
  columns.strides[0] = 1;
  columns.strides[1] = 2;
  expect_ok(google_rt_tensor_copy(&on_device, &columns), "copy to strided");
  EXPECT(transposed[1] == 4 && transposed[2] == 2, "strided host copy");
  int64_t other[2] = {3, 2};
  google_rt_tensor wrong;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, other, back, &wrong);
  expect_error(google_rt_tensor_copy(&on_device, &wrong),
               GOOGLE_RT_INVALID_ARGUMENT, "copy to another shape");
  pass("device tensors and copies");

  google_rt_module *module = NULL;
  expect_ok(google_rt_module_load(path, &module), "load");
  if (!module)
    return;
  google_rt_device where = google_rt_module_device(module);
  EXPECT(where.kind == GOOGLE_RT_DEVICE_CUDA && where.ordinal == 0,
         "module device");
  const google_rt_function *identity = NULL;
  expect_ok(google_rt_module_lookup(module, "identity", &identity), "lookup");

  /* Host in, host out. */
  google_rt_tensor result;
  memset(&result, 0, sizeof(result));
  expect_ok(google_rt_call(identity, &source, 1, &result, 1), "host call");
  EXPECT(result.device.kind == GOOGLE_RT_DEVICE_HOST &&
             memcmp(result.data, host, sizeof(host)) == 0,
         "host result");
  google_rt_tensor_release(&result);

  /* Device in, device out: no copy through the host. */
  memset(&result, 0, sizeof(result));
  result.device = cuda;
  expect_ok(google_rt_call(identity, &on_device, 1, &result, 1),
            "device call");
  EXPECT(result.device.kind == GOOGLE_RT_DEVICE_CUDA && result.buffer &&
             result.data != on_device.data,
         "device result");
  memset(back, 0, sizeof(back));
  expect_ok(google_rt_tensor_copy(&result, &destination), "copy result");
  EXPECT(memcmp(host, back, sizeof(host)) == 0, "device result values");
  google_rt_tensor_release(&result);

  /* A device result the caller places over the argument: computed apart,
   * then copied over. */
  result = on_device;
  expect_ok(google_rt_call(identity, &on_device, 1, &result, 1),
            "device call over its argument");
  memset(back, 0, sizeof(back));
  expect_ok(google_rt_tensor_copy(&on_device, &destination), "copy back");
  EXPECT(memcmp(host, back, sizeof(host)) == 0, "values over the argument");
  pass("calls");

  /* A strided device argument is refused; a device tensor for a host
   * module too (checked by the host tests' module elsewhere). */
  google_rt_tensor strided = on_device;
  strided.strides[0] = 1;
  strided.strides[1] = 2;
  memset(&result, 0, sizeof(result));
  expect_error(google_rt_call(identity, &strided, 1, &result, 1),
               GOOGLE_RT_INVALID_ARGUMENT, "strided device argument");
  google_rt_device rocm = {GOOGLE_RT_DEVICE_ROCM, 0};
  memset(&result, 0, sizeof(result));
  result.device = rocm;
  expect_error(google_rt_call(identity, &source, 1, &result, 1),
               GOOGLE_RT_INVALID_ARGUMENT, "result on another device");
  pass("device argument checks");

  /* Asynchronous: enqueue, then wait. */
  google_rt_stream *stream = NULL;
  expect_ok(google_rt_stream_create(cuda, &stream), "stream");
  memset(&result, 0, sizeof(result));
  memset(back, 0, sizeof(back));
  result = destination;
  expect_ok(google_rt_call_async(identity, &source, 1, &result, 1, stream),
            "async call");
  expect_ok(google_rt_stream_wait(stream), "wait");
  EXPECT(memcmp(host, back, sizeof(host)) == 0, "async result");
  memset(&result, 0, sizeof(result));
  expect_error(google_rt_call_async(identity, &source, 1, &result, 1, NULL),
               GOOGLE_RT_INVALID_ARGUMENT, "async without a stream");
  google_rt_stream_free(stream);
  pass("asynchronous calls");

  concurrent_function = identity;
  pthread_t threads[4];
  for (intptr_t i = 0; i < 4; ++i)
    pthread_create(&threads[i], NULL, call_repeatedly, (void *)(i + 1));
  for (int i = 0; i < 4; ++i)
    pthread_join(threads[i], NULL);
  EXPECT(concurrent_failures == 0, "concurrent calls");
  pass("concurrent calls from 4 threads");

  google_rt_tensor_release(&on_device);
  google_rt_module_free(module);
}

static void load_on_devices(const char *path, const char *cpu_path) {
  google_rt_device second = {GOOGLE_RT_DEVICE_CUDA, 1};
  google_rt_module *module = NULL;
  expect_ok(google_rt_module_load_on(path, second, &module), "load on cuda:1");
  if (!module)
    return;
  google_rt_device where = google_rt_module_device(module);
  EXPECT(where.kind == GOOGLE_RT_DEVICE_CUDA && where.ordinal == 1,
         "module on cuda:1");
  EXPECT(google_rt_device_selected(GOOGLE_RT_DEVICE_CUDA).ordinal == 0,
         "the selection is left alone");
  google_rt_module *first = NULL;
  expect_ok(google_rt_module_load(path, &first), "load on the selected");
  if (first)
    EXPECT(google_rt_module_device(first).ordinal == 0, "module on cuda:0");
  google_rt_module_free(first);
  const google_rt_function *identity = NULL;
  expect_ok(google_rt_module_lookup(module, "identity", &identity), "lookup");
  int64_t shape[2] = {2, 3};
  float host[6] = {1, 2, 3, 4, 5, 6};
  google_rt_tensor source, result;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, host, &source);
  memset(&result, 0, sizeof(result));
  result.device = second;
  expect_ok(google_rt_call(identity, &source, 1, &result, 1), "call");
  EXPECT(result.device.kind == GOOGLE_RT_DEVICE_CUDA &&
             result.device.ordinal == 1,
         "result on cuda:1");
  google_rt_tensor_release(&result);
  google_rt_module_free(module);
  pass("load on a chosen GPU");

  google_rt_device missing = {GOOGLE_RT_DEVICE_CUDA, 7};
  google_rt_device rocm = {GOOGLE_RT_DEVICE_ROCM, 0};
  expect_error(google_rt_module_load_on(path, missing, &module),
               GOOGLE_RT_INVALID_ARGUMENT, "load on cuda:7");
  expect_error(google_rt_module_load_on(path, rocm, &module),
               GOOGLE_RT_INVALID_ARGUMENT, "cuda module on rocm:0");
  expect_error(google_rt_module_load_on(cpu_path, second, &module),
               GOOGLE_RT_INVALID_ARGUMENT, "cpu module on cuda:1");
  EXPECT(module == NULL, "no module on failure");
  pass("load on the wrong device");
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "nodriver") == 0)
    no_driver();
  else if (argc == 3 && strcmp(argv[1], "fake") == 0)
    fake_driver(argv[2]);
  else if (argc == 4 && strcmp(argv[1], "devices") == 0)
    load_on_devices(argv[2], argv[3]);
  else {
    fprintf(stderr, "usage: runtime_gpu_test nodriver | fake MODULE.so | "
                    "devices MODULE.so CPU_MODULE.so\n");
    return 2;
  }
  printf("%s\n", failures ? "FAILED" : "OK");
  return failures != 0;
}
