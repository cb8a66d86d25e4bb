/* stream_triad.c - the memory bandwidth one core reaches, in GB/s.
 *
 * STREAM's triad in f32, a[i] = b[i] + s * c[i], over arrays far larger
 * than the caches, vectorized by the compiler (-O3 -march=native). Bytes
 * count as STREAM counts them: each array moved once (12 bytes an element).
 * bench/elementwise_bench.py builds it and prints its figure next to an
 * elementwise chain of the same shape (two inputs, one result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 16L << 20;
  if (n <= 0) {
    fprintf(stderr, "error: expected a positive element count\n");
    return 1;
  }
  float *a = aligned_alloc(64, n * sizeof(float));
  float *b = aligned_alloc(64, n * sizeof(float));
  float *c = aligned_alloc(64, n * sizeof(float));
  if (!a || !b || !c) {
    fprintf(stderr, "error: out of memory\n");
    return 1;
  }
  for (long i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = (float)(i % 7);
    c[i] = (float)(i % 5);
  }
  const float s = 0.5f;
  double best = 0;
  for (int repeat = 0; repeat < 10; ++repeat) {
    double start = now();
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + s * c[i];
    __asm__ volatile("" : : "r"(a) : "memory");
    double gbs = 3.0 * sizeof(float) * n / (now() - start) / 1e9;
    if (gbs > best)
      best = gbs;
  }
  /* Checked, so that the loop cannot be dropped. */
  if (a[n - 1] != b[n - 1] + s * c[n - 1]) {
    fprintf(stderr, "error: wrong triad result\n");
    return 1;
  }
  printf("%.2f\n", best);
  free(a);
  free(b);
  free(c);
  return 0;
}
