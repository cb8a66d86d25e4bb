/*===- driver.c - loading a GPU driver library at run time ---------------===*
 *
 * The CUDA driver and HIP are dlopen'ed on first use (the runtime builds and
 * runs without them); both back ends resolve their entry points here.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"

#include <dlfcn.h>

google_rt_status google_rt_gpu_load_driver(const char *driver,
                                           const char *const *libraries,
                                           const char *const *symbols,
                                           void **const *slots, size_t count) {
  void *library = NULL;
  const char *const *name = libraries;
  for (; *name && !library; ++name)
    library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return google_rt_make_status(GOOGLE_RT_UNAVAILABLE, "no %s found (%s)",
                                 driver, libraries[0]);
  for (size_t i = 0; i < count; ++i)
    if (!(*slots[i] = dlsym(library, symbols[i])))
      return google_rt_make_status(GOOGLE_RT_UNAVAILABLE,
                                   "the %s (%s) lacks %s: it is too old",
                                   driver, name[-1], symbols[i]);
  return NULL;
}
