/*===- threads.c - how many threads the compiled code runs on -------------===*
 *
 * Large matmuls run their block loops on OpenMP threads; the compiled code
 * asks google_rt_num_threads how many. GOOGLE_MLIR_NUM_THREADS sets it (read
 * once); the default is every core this process may run on.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include "internal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

enum { MAX_THREADS = 1024 };

static int32_t available_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return CPU_COUNT(&set);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (int32_t)(online < MAX_THREADS ? online : MAX_THREADS)
                    : 1;
}

google_rt_status google_rt_read_num_threads(int32_t *count) {
  const char *text = getenv("GOOGLE_MLIR_NUM_THREADS");
  if (!text || !*text) {
    *count = available_cores();
    return NULL;
  }
  char *end;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (errno || *end || value < 1 || value > MAX_THREADS)
    return google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "GOOGLE_MLIR_NUM_THREADS must be an integer from 1 to %d, got '%s'",
        MAX_THREADS, text);
  *count = (int32_t)value;
  return NULL;
}

int32_t google_rt_num_threads(void) {
  static int32_t cached; /* 0: not read yet */
  int32_t count = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (count)
    return count;
  google_rt_status invalid = google_rt_read_num_threads(&count);
  if (invalid) {
    /* Module loads report it; code loaded anyway runs on one thread. */
    google_rt_status_free(invalid);
    count = 1;
  }
  __atomic_store_n(&cached, count, __ATOMIC_RELAXED);
  return count;
}
