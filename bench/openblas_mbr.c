// openblas_mbr.c - relu(A * B + bias) in f32 with OpenBLAS's cblas_sgemm
// and a bias + relu loop, for bench/matmul_bench.py: reads A (MxK), B (KxN)
// and bias (N) as raw row-major f32 files, runs CALLS times, writes the
// last result and prints the median seconds per call. OpenBLAS
// (libopenblas0-pthread) is loaded at run time, so no -dev package is
// needed; OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE choose its threads
// and kernel.
//
//   openblas_mbr M K N CALLS a.bin b.bin bias.bin out.bin
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { RowMajor = 101, NoTrans = 111 };
typedef void Sgemm(int order, int transA, int transB, int m, int n, int k,
                   float alpha, const float *a, int lda, const float *b,
                   int ldb, float beta, float *c, int ldc);

static int readFloats(const char *path, float *data, size_t count) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return 0;
  size_t got = fread(data, sizeof(float), count, file);
  fclose(file);
  return got == count;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int compare(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv) {
  if (argc != 9) {
    fprintf(stderr, "usage: openblas_mbr M K N CALLS a b bias out\n");
    return 2;
  }
  long m = atol(argv[1]), k = atol(argv[2]), n = atol(argv[3]);
  int calls = atoi(argv[4]);
  void *library = dlopen("libopenblas.so.0", RTLD_NOW);
  Sgemm *sgemm = library ? (Sgemm *)dlsym(library, "cblas_sgemm") : NULL;
  if (!sgemm) {
    fprintf(stderr, "openblas_mbr: cannot load cblas_sgemm from "
                    "libopenblas.so.0 (libopenblas0-pthread)\n");
    return 1;
  }
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n),
        *bias = malloc(sizeof(float) * n), *c = malloc(sizeof(float) * m * n);
  double *times = malloc(sizeof(double) * (calls > 0 ? calls : 1));
  if (!a || !b || !bias || !c || !times || calls <= 0 ||
      !readFloats(argv[5], a, m * k) || !readFloats(argv[6], b, k * n) ||
      !readFloats(argv[7], bias, n)) {
    fprintf(stderr, "openblas_mbr: cannot read the inputs\n");
    return 1;
  }
  for (int call = 0; call <= calls; ++call) {
    double start = now();
    sgemm(RowMajor, NoTrans, NoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) {
        float v = c[i * n + j] + bias[j];
        c[i * n + j] = v > 0.0f ? v : 0.0f;
      }
    if (call) // the first call warms up
      times[call - 1] = now() - start;
  }
  FILE *out = fopen(argv[8], "wb");
  if (!out || fwrite(c, sizeof(float), m * n, out) != (size_t)(m * n)) {
    fprintf(stderr, "openblas_mbr: cannot write %s\n", argv[8]);
    return 1;
  }
  fclose(out);
  qsort(times, calls, sizeof(double), compare);
  printf("%.9g\n", times[calls / 2]);
  return 0;
}
