/*===- RuntimeObjectFuzzer.c - the runtime's checks of untrusted objects --===*
 *
 * libFuzzer target: the bytes as an object file for the ELF checks the
 * runtime runs before dlopen, and as the manifest text of a loaded object.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE /* fmemopen */

#include "../runtime/src/module.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size) {
    FILE *file = fmemopen((void *)(uintptr_t)data, size, "rb");
    if (file) {
      google_rt_status_free(google_rt_check_elf("fuzz.so", file));
      fclose(file);
    }
  }
  google_rt_module *module = calloc(1, sizeof(google_rt_module));
  if (!module)
    return 0;
  module->path = strdup("fuzz.so");
  google_rt_status_free(
      google_rt_parse_manifest(module, (const char *)data, size));
  google_rt_module_free(module);
  return 0;
}
