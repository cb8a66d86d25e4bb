/*===- cpu.c - the CPU features a compiled module needs --------------------===*
 *
 * Compiled code for a CPU with features this one lacks dies with SIGILL at
 * its first such instruction. The manifest lists the features the module
 * was compiled for; loading checks them here, with CPUID.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include "module.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

typedef enum { EAX, EBX, ECX, EDX } cpuid_register;
/* Register state the OS must save (XCR0 bits) before a feature is usable. */
enum { STATE_NONE = 0, STATE_AVX = 0x6, STATE_AVX512 = 0xE6 };

typedef struct {
  const char *name;
  unsigned leaf, subleaf;
  cpuid_register reg;
  unsigned bit;
  unsigned state;
} x86_feature;

static const x86_feature x86_features[] = {
    {"sse3", 1, 0, ECX, 0, STATE_NONE},
    {"ssse3", 1, 0, ECX, 9, STATE_NONE},
    {"fma", 1, 0, ECX, 12, STATE_AVX},
    {"sse4.1", 1, 0, ECX, 19, STATE_NONE},
    {"sse4.2", 1, 0, ECX, 20, STATE_NONE},
    {"movbe", 1, 0, ECX, 22, STATE_NONE},
    {"popcnt", 1, 0, ECX, 23, STATE_NONE},
    {"avx", 1, 0, ECX, 28, STATE_AVX},
    {"f16c", 1, 0, ECX, 29, STATE_AVX},
    {"bmi", 7, 0, EBX, 3, STATE_NONE},
    {"avx2", 7, 0, EBX, 5, STATE_AVX},
    {"bmi2", 7, 0, EBX, 8, STATE_NONE},
    {"avx512f", 7, 0, EBX, 16, STATE_AVX512},
    {"avx512dq", 7, 0, EBX, 17, STATE_AVX512},
    {"avx512ifma", 7, 0, EBX, 21, STATE_AVX512},
    {"avx512cd", 7, 0, EBX, 28, STATE_AVX512},
    {"avx512bw", 7, 0, EBX, 30, STATE_AVX512},
    {"avx512vl", 7, 0, EBX, 31, STATE_AVX512},
    {"avx512vbmi", 7, 0, ECX, 1, STATE_AVX512},
    {"avx512vbmi2", 7, 0, ECX, 6, STATE_AVX512},
    {"gfni", 7, 0, ECX, 8, STATE_NONE},
    {"vaes", 7, 0, ECX, 9, STATE_AVX},
    {"vpclmulqdq", 7, 0, ECX, 10, STATE_AVX},
    {"avx512vnni", 7, 0, ECX, 11, STATE_AVX512},
    {"avx512bitalg", 7, 0, ECX, 12, STATE_AVX512},
    {"avx512vpopcntdq", 7, 0, ECX, 14, STATE_AVX512},
    {"avx512fp16", 7, 0, EDX, 23, STATE_AVX512},
    {"avxvnni", 7, 1, EAX, 4, STATE_AVX},
    {"avx512bf16", 7, 1, EAX, 5, STATE_AVX512},
    {"lzcnt", 0x80000001, 0, ECX, 5, STATE_NONE},
    {"sse4a", 0x80000001, 0, ECX, 6, STATE_NONE},
};

/* The register state the OS saves (XCR0), 0 without XSAVE. */
static unsigned long long saved_state(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) /* OSXSAVE */
    return 0;
  unsigned lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((unsigned long long)hi << 32) | lo;
}

int google_rt_cpu_has_feature(const char *name) {
  for (size_t i = 0; i < sizeof(x86_features) / sizeof(x86_features[0]); ++i) {
    const x86_feature *feature = &x86_features[i];
    if (strcmp(feature->name, name) != 0)
      continue;
    unsigned regs[4];
    if (__get_cpuid_max(feature->leaf & 0x80000000u, NULL) < feature->leaf ||
        !__get_cpuid_count(feature->leaf, feature->subleaf, &regs[EAX],
                           &regs[EBX], &regs[ECX], &regs[EDX]))
      return 0;
    if (!(regs[feature->reg] & (1u << feature->bit)))
      return 0;
    return (saved_state() & feature->state) == feature->state;
  }
  return 0;
}

#else
int google_rt_cpu_has_feature(const char *name) {
  (void)name;
  return 0;
}
#endif

/* The runtime checks the names it knows (GOOGLE_RT_X86_FEATURES). */
static bool is_checked(const char *name, size_t length) {
  const char *list = GOOGLE_RT_X86_FEATURES;
  for (const char *p = list; *p;) {
    const char *end = strchr(p, ' ');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (n == length && strncmp(p, name, length) == 0)
      return true;
    p += n + (end ? 1 : 0);
  }
  return false;
}

google_rt_status google_rt_check_cpu_features(const char *path,
                                              const char *features,
                                              size_t length) {
  char missing[512] = "";
  size_t used = 0;
  int count = 0;
  for (size_t i = 0; i < length;) {
    while (i < length && features[i] == ' ')
      ++i;
    size_t start = i;
    while (i < length && features[i] != ' ')
      ++i;
    size_t n = i - start;
    char name[32];
    if (n == 0 || n >= sizeof(name) || !is_checked(features + start, n))
      continue; /* a feature this runtime cannot check */
    memcpy(name, features + start, n);
    name[n] = '\0';
    if (google_rt_cpu_has_feature(name))
      continue;
    if (used + n + 3 < sizeof(missing)) {
      if (count)
        used += (size_t)snprintf(missing + used, sizeof(missing) - used, ", ");
      used += (size_t)snprintf(missing + used, sizeof(missing) - used, "%s",
                               name);
    }
    ++count;
  }
  if (!count)
    return NULL;
  const char *base = strrchr(path, '/');
  return google_rt_make_status(
      GOOGLE_RT_UNAVAILABLE,
      "%s needs %s, which this CPU lacks (compile it for this CPU: "
      "chip=host)",
      base ? base + 1 : path, missing);
}
