/* fma_peak.c - the FMA peak of one core, in f32 GFLOP/s.
 *
 * 16 independent vector accumulators, each updated by a fused multiply-add
 * per iteration: enough chains to hide the FMA latency on every x86 core
 * with AVX-512 (or AVX2, built without it). bench/matmul_bench.py builds it
 * with the host's -march and prints what it measures next to the matmuls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__AVX512F__)
#define LANES 16
#else
#define LANES 8
#endif

typedef float vec __attribute__((vector_size(LANES * 4)));

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 100000000L;
  vec acc[16], a, b;
  for (int l = 0; l < LANES; ++l) {
    a[l] = 0.999999f;
    b[l] = 1e-7f;
  }
  for (int i = 0; i < 16; ++i)
    acc[i] = a * (float)i;
  double best = 0;
  for (int repeat = 0; repeat < 5; ++repeat) {
    double start = now();
    for (long n = 0; n < iterations; ++n) {
#pragma clang loop unroll(full)
      for (int i = 0; i < 16; ++i) {
        acc[i] = __builtin_elementwise_fma(acc[i], a, b);
        __asm__ volatile("" : "+v"(acc[i]));
      }
    }
    double gflops = 2.0 * 16 * LANES * iterations / (now() - start) / 1e9;
    if (gflops > best)
      best = gflops;
  }
  float sum = 0;
  for (int i = 0; i < 16; ++i)
    sum += acc[i][0];
  printf("%.1f %d %g\n", best, LANES * 32, sum);
  return 0;
}
