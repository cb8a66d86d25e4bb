/*===- module.h - the loaded module and function records ------------------===*/

#ifndef GOOGLE_RUNTIME_MODULE_H
#define GOOGLE_RUNTIME_MODULE_H

#include "internal.h"

#include <stdio.h>

struct google_rt_function_s {
  char *name;
  bool results_out; /* results are out-parameters, else returned */
  size_t num_args;
  size_t num_results;
  google_rt_tensor_type *arg_types;
  google_rt_tensor_type *result_types;
  void (*entry)(void **);
  const google_rt_module *module;
};

struct google_rt_module_s {
  void *handle;
  char *path;
  /* Where the functions run: the host, or the GPU the module's device
   * binaries were loaded onto. */
  google_rt_device device;
  size_t num_functions;
  google_rt_function *functions;
};

/* The checks of untrusted objects (also fuzzed on their own): the ELF
 * header and loaded segments against the file's size, before dlopen maps
 * it; and the manifest text, at most `size` bytes, into `module`. */
google_rt_status google_rt_check_elf(const char *path, FILE *file);
google_rt_status google_rt_parse_manifest(google_rt_module *module,
                                          const char *manifest, size_t size);

/* Fails naming the features of the space-separated list (`length` bytes)
 * that this CPU lacks; names the runtime cannot check are skipped. */
google_rt_status google_rt_check_cpu_features(const char *path,
                                              const char *features,
                                              size_t length);

#endif /* GOOGLE_RUNTIME_MODULE_H */
