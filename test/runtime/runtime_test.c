/*===- runtime_test.c - the runtime's C API against a compiled module -----===*
 *
 * Usage: runtime_test MODULE.so (test/google-run/Inputs/two_functions.mlir)
 *        runtime_test --checks MODULE.so (a module whose @add checks sizes)
 * Prints one "PASS: <what>" line per check; exits 1 on the first failure.
 *
 *===----------------------------------------------------------------------===*/

#include "google_runtime.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT(cond, what)                                                     \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL: %s (%s:%d: %s)\n", what, __FILE__, __LINE__,      \
              #cond);                                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static void pass(const char *what) { printf("PASS: %s\n", what); }

/* Expects `status` to fail with `code` and a message containing `text`. */
static void expect_error(google_rt_status status, google_rt_code code,
                         const char *text, const char *what) {
  EXPECT(status != NULL, what);
  EXPECT(google_rt_status_code(status) == code, what);
  const char *message = google_rt_status_message(status);
  if (!strstr(message, text)) {
    fprintf(stderr, "FAIL: %s: message '%s' lacks '%s'\n", what, message,
            text);
    exit(1);
  }
  google_rt_status_free(status);
  pass(what);
}

static const google_rt_function *lookup(google_rt_module *module,
                                        const char *name) {
  const google_rt_function *function = NULL;
  google_rt_status status = google_rt_module_lookup(module, name, &function);
  EXPECT(status == NULL && function != NULL, "lookup");
  return function;
}

/* @scale(x: ?x3, s: scalar) on `rows` rows of value `value`. */
static void call_scale(const google_rt_function *scale, int rows, float value,
                       float factor) {
  float x[64 * 3];
  for (int i = 0; i < rows * 3; ++i)
    x[i] = value + (float)i;
  int64_t shape[2] = {rows, 3};
  google_rt_tensor args[2], result;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape, x, &args[0]);
  google_rt_tensor_view(GOOGLE_RT_F32, 0, NULL, &factor, &args[1]);
  memset(&result, 0, sizeof(result));
  google_rt_status status = google_rt_call(scale, args, 2, &result, 1);
  EXPECT(status == NULL, "call @scale");
  EXPECT(result.rank == 2 && result.shape[0] == rows && result.shape[1] == 3,
         "@scale result shape");
  EXPECT(result.buffer != NULL, "@scale result is runtime-owned");
  const float *out = result.data;
  for (int i = 0; i < rows * 3; ++i)
    EXPECT(out[i] == x[i] * factor, "@scale values");
  google_rt_tensor_release(&result);
}

typedef struct {
  const google_rt_function *scale;
  int id;
} thread_args;

static void *thread_main(void *opaque) {
  thread_args *args = opaque;
  for (int i = 0; i < 200; ++i)
    call_scale(args->scale, 1 + (args->id + i) % 16, (float)args->id,
               (float)(i % 5));
  return NULL;
}

static void test_module(const char *path) {
  google_rt_module *module = NULL;
  expect_error(google_rt_module_load("/nonexistent/module.so", &module),
               GOOGLE_RT_NOT_FOUND, "cannot open module", "load missing file");
  EXPECT(module == NULL, "no module on failure");

  google_rt_status status = google_rt_module_load(path, &module);
  if (status)
    fprintf(stderr, "%s\n", google_rt_status_message(status));
  EXPECT(status == NULL && module != NULL, "load");
  pass("load");

  EXPECT(google_rt_module_num_functions(module) == 2, "two functions");
  EXPECT(strcmp(google_rt_function_name(google_rt_module_function(module, 0)),
                "scale") == 0,
         "first is @scale");
  EXPECT(google_rt_module_function(module, 2) == NULL, "out of range");
  pass("list functions");

  const google_rt_function *scale = lookup(module, "scale");
  const google_rt_function *stats = lookup(module, "@stats");
  char text[64];
  EXPECT(google_rt_function_num_args(scale) == 2 &&
             google_rt_function_num_results(scale) == 1,
         "@scale arity");
  google_rt_tensor_type_format(google_rt_function_arg_type(scale, 0), text,
                               sizeof(text));
  EXPECT(strcmp(text, "tensor<?x3xf32>") == 0, "@scale argument 0 type");
  google_rt_tensor_type_format(google_rt_function_result_type(stats, 2), text,
                               sizeof(text));
  EXPECT(strcmp(text, "tensor<2x1x3xf32>") == 0, "@stats result 2 type");
  EXPECT(google_rt_function_arg_type(scale, 2) == NULL, "no argument 2");
  pass("signatures");

  const google_rt_function *missing = NULL;
  expect_error(google_rt_module_lookup(module, "nope", &missing),
               GOOGLE_RT_NOT_FOUND,
               "no function @nope in the module; its public functions are: "
               "@scale, @stats",
               "lookup unknown function");

  /* Argument checks. */
  float data[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape23[2] = {2, 3}, shape32[2] = {3, 2};
  google_rt_tensor arg, results[3];
  memset(results, 0, sizeof(results));
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape32, data, &arg);
  expect_error(google_rt_call(stats, &arg, 1, results, 3),
               GOOGLE_RT_INVALID_ARGUMENT,
               "@stats argument 0: expected tensor<2x3xf32>, got "
               "tensor<3x2xf32>",
               "wrong shape");
  google_rt_tensor_view(GOOGLE_RT_F64, 2, shape23, data, &arg);
  expect_error(google_rt_call(stats, &arg, 1, results, 3),
               GOOGLE_RT_INVALID_ARGUMENT,
               "expected tensor<2x3xf32>, got tensor<2x3xf64>", "wrong dtype");
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape23, data, &arg);
  expect_error(google_rt_call(stats, &arg, 1, results, 3),
               GOOGLE_RT_INVALID_ARGUMENT,
               "expected tensor<2x3xf32>, got tensor<2xf32>", "wrong rank");
  expect_error(google_rt_call(stats, &arg, 0, results, 3),
               GOOGLE_RT_INVALID_ARGUMENT, "@stats: expected 1 arguments, got 0",
               "wrong count");
  expect_error(google_rt_call(NULL, &arg, 1, results, 3),
               GOOGLE_RT_INVALID_ARGUMENT, "no function", "no function");

  /* Static results into caller buffers (no copy), and runtime-allocated. */
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape23, data, &arg);
  float sum = 0, maxima[3] = {0}, reshaped[6] = {0};
  int64_t shape3[1] = {3}, shape213[3] = {2, 1, 3};
  google_rt_tensor_view(GOOGLE_RT_F32, 0, NULL, &sum, &results[0]);
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape3, maxima, &results[1]);
  google_rt_tensor_view(GOOGLE_RT_F32, 3, shape213, reshaped, &results[2]);
  status = google_rt_call(stats, &arg, 1, results, 3);
  EXPECT(status == NULL, "call @stats");
  EXPECT(sum == 21 && maxima[0] == 4 && maxima[2] == 6 && reshaped[5] == 6,
         "@stats values in caller buffers");
  EXPECT(results[0].buffer == NULL, "caller buffers stay caller-owned");
  pass("results into caller buffers");

  /* Results the caller places over the argument (and over each other):
   * the sum starts from 0 and the maxima from -inf in their buffers, which
   * would clobber x before it is read; each is computed apart and copied
   * over after the call. */
  float shared[6] = {1, 2, 3, 4, 5, 6};
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape23, shared, &arg);
  google_rt_tensor_view(GOOGLE_RT_F32, 0, NULL, &shared[0], &results[0]);
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape3, &shared[3], &results[1]);
  google_rt_tensor_view(GOOGLE_RT_F32, 3, shape213, reshaped, &results[2]);
  status = google_rt_call(stats, &arg, 1, results, 3);
  EXPECT(status == NULL, "call @stats over its argument");
  EXPECT(shared[0] == 21 && shared[3] == 4 && shared[4] == 5 &&
             shared[5] == 6 && shared[1] == 2 && reshaped[0] == 1 &&
             reshaped[3] == 4,
         "@stats values over its argument");
  float overlapping[6] = {0};
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape23, data, &arg);
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape3, &overlapping[0], &results[1]);
  google_rt_tensor_view(GOOGLE_RT_F32, 3, shape213, overlapping, &results[2]);
  google_rt_tensor_view(GOOGLE_RT_F32, 0, NULL, &sum, &results[0]);
  status = google_rt_call(stats, &arg, 1, results, 3);
  EXPECT(status == NULL && overlapping[0] == 1 && overlapping[5] == 6,
         "the later of two overlapping results is written last");
  pass("results overlapping arguments");

  memset(results, 0, sizeof(results));
  status = google_rt_call(stats, &arg, 1, results, 3);
  EXPECT(status == NULL && results[0].buffer && results[1].buffer,
         "runtime-allocated results");
  EXPECT(*(float *)results[0].data == 21, "@stats sum");
  for (int i = 0; i < 3; ++i)
    google_rt_tensor_release(&results[i]);
  pass("runtime-allocated results");

  /* A strided argument: the transpose of a 3x2 matrix as a 2x3 view. */
  float column_major[6] = {1, 4, 2, 5, 3, 6};
  google_rt_tensor strided;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape23, column_major, &strided);
  strided.strides[0] = 1;
  strided.strides[1] = 2;
  memset(results, 0, sizeof(results));
  status = google_rt_call(stats, &strided, 1, results, 3);
  EXPECT(status == NULL, "call with a strided argument");
  EXPECT(((float *)results[1].data)[0] == 4 &&
             ((float *)results[2].data)[1] == 2,
         "strided argument values");
  for (int i = 0; i < 3; ++i)
    google_rt_tensor_release(&results[i]);
  pass("strided argument");

  /* Dynamic results; the pool serves repeated calls without new blocks. */
  call_scale(scale, 4, 1, 2);
  google_rt_pool_stats before, after;
  google_rt_pool_get_stats(&before);
  for (int i = 0; i < 1000; ++i)
    call_scale(scale, 4, (float)i, 3);
  google_rt_pool_get_stats(&after);
  EXPECT(after.system_allocations == before.system_allocations,
         "no new system allocations");
  EXPECT(after.reused_allocations >= before.reused_allocations + 1000,
         "blocks are reused");
  EXPECT(after.bytes_in_use == before.bytes_in_use, "no leak");
  pass("pooled allocation reuse");

  pthread_t threads[8];
  thread_args args[8];
  for (int i = 0; i < 8; ++i) {
    args[i] = (thread_args){scale, i};
    EXPECT(pthread_create(&threads[i], NULL, thread_main, &args[i]) == 0,
           "thread start");
  }
  for (int i = 0; i < 8; ++i)
    pthread_join(threads[i], NULL);
  pass("concurrent calls from 8 threads");

  google_rt_module_free(module);
  pass("unload");
}

/* A failed run-time check inside the compiled code becomes an error of the
 * call; the process goes on. */
static void test_checks(const char *path) {
  google_rt_module *module = NULL;
  EXPECT(google_rt_module_load(path, &module) == NULL, "load");
  const google_rt_function *add = lookup(module, "add");
  float a[32] = {0}, b[24] = {0};
  int64_t shape_a[2] = {4, 8}, shape_b[2] = {3, 8};
  google_rt_tensor args[2], result;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_a, a, &args[0]);
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_b, b, &args[1]);
  memset(&result, 0, sizeof(result));
  expect_error(google_rt_call(add, args, 2, &result, 1),
               GOOGLE_RT_INVALID_ARGUMENT,
               "@add: google.add: dimension 0 of operand #1 is 3, expected 4",
               "failed check is an error status");
  EXPECT(result.buffer == NULL, "no result on failure");
  shape_b[0] = 4;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_a, b, &args[1]);
  EXPECT(google_rt_call(add, args, 2, &result, 1) == NULL,
         "the next call works");
  google_rt_tensor_release(&result);
  pass("calls after a failed check");

  /* Buffers allocated before the failed check go back to the pool. */
  const google_rt_function *exp_add = lookup(module, "exp_add");
  shape_b[0] = 3;
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_b, b, &args[1]);
  google_rt_pool_stats before, after;
  google_rt_pool_get_stats(&before);
  for (int i = 0; i < 10; ++i) {
    google_rt_status status = google_rt_call(exp_add, args, 2, &result, 1);
    EXPECT(status != NULL, "@exp_add fails");
    google_rt_status_free(status);
  }
  google_rt_pool_get_stats(&after);
  EXPECT(after.bytes_in_use == before.bytes_in_use, "no block left in use");
  pass("nothing leaks from a failed check");

  /* A failed call leaves the caller's own result buffers alone, even those
   * the runtime allocated for the caller earlier. */
  const google_rt_function *pair = lookup(module, "pair");
  int64_t shape_2x8[2] = {2, 8}, shape_3x8[2] = {3, 8};
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_2x8, a, &args[0]);
  google_rt_tensor results[2];
  EXPECT(google_rt_tensor_alloc(GOOGLE_RT_F32, 2, shape_2x8, &results[0]) ==
             NULL,
         "allocate the first result");
  float wrong[24];
  google_rt_tensor_view(GOOGLE_RT_F32, 2, shape_3x8, wrong, &results[1]);
  void *first_buffer = results[0].buffer, *first_data = results[0].data;
  google_rt_pool_get_stats(&before);
  expect_error(google_rt_call(pair, args, 1, results, 2),
               GOOGLE_RT_INVALID_ARGUMENT,
               "@pair result 1: the provided buffer is tensor<3x8xf32>, the "
               "result is tensor<2x8xf32>",
               "a provided result of the wrong shape");
  google_rt_pool_get_stats(&after);
  EXPECT(results[0].buffer == first_buffer && results[0].data == first_data,
         "the caller's descriptor is kept");
  EXPECT(after.bytes_in_use == before.bytes_in_use,
         "the caller's block stays in use");
  google_rt_tensor_release(&results[0]);
  pass("a failed call keeps the caller's result buffers");
  google_rt_module_free(module);
}

/* memrefCopy, the compiled code's copy between views (exported by the
 * runtime; MLIR's CRunnerUtils signature). */
void memrefCopy(int64_t element_size, google_rt_unranked_memref *source,
                google_rt_unranked_memref *destination);

/* A rank-4 descriptor: the head, then sizes and strides. */
typedef struct {
  google_rt_memref_head head;
  int64_t sizes[4];
  int64_t strides[4];
} memref4;

/* Copies into views that need the copy's dimension merging (unit
 * extents, rows dense on both sides) and a transposed one (strided
 * innermost), at 4- and 2-byte elements. */
static void test_memref_copy(void) {
  /* 2 x 3 x 4 x 1 (NHWC, C = 1) into the interior of 2 x 5 x 6 x 1. */
  float source[24], padded[60];
  for (int i = 0; i < 24; ++i)
    source[i] = (float)i + 1;
  memset(padded, 0, sizeof(padded));
  memref4 from = {{source, source, 0}, {2, 3, 4, 1}, {12, 4, 1, 1}};
  memref4 into = {{padded, padded, 7}, {2, 3, 4, 1}, {30, 6, 1, 1}};
  google_rt_unranked_memref a = {4, &from}, b = {4, &into};
  memrefCopy(4, &a, &b);
  int ok = 1;
  for (int n = 0; n < 2; ++n)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 6; ++x) {
        int inside = y >= 1 && y <= 3 && x >= 1 && x <= 4;
        float want = inside ? source[n * 12 + (y - 1) * 4 + (x - 1)] : 0;
        ok &= padded[n * 30 + y * 6 + x] == want;
      }
  EXPECT(ok, "memrefCopy into a padded view");
  /* A 3 x 4 transpose of 16-bit elements: strided innermost. */
  uint16_t matrix[12], transposed[12];
  for (int i = 0; i < 12; ++i)
    matrix[i] = (uint16_t)(100 + i);
  memref4 rows = {{matrix, matrix, 0}, {1, 3, 1, 4}, {12, 4, 4, 1}};
  memref4 columns = {{transposed, transposed, 0}, {1, 3, 1, 4}, {12, 1, 1, 3}};
  google_rt_unranked_memref c = {4, &rows}, d = {4, &columns};
  memrefCopy(2, &c, &d);
  ok = 1;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      ok &= transposed[j * 3 + i] == matrix[i * 4 + j];
  EXPECT(ok, "memrefCopy into a transposed view");
  pass("memrefCopy of padded and transposed views");
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--checks") == 0)
    test_checks(argv[2]);
  else if (argc == 2) {
    test_module(argv[1]);
    test_memref_copy();
  }
  else {
    fprintf(stderr, "usage: runtime_test [--checks] MODULE.so\n");
    return 2;
  }
  return 0;
}
