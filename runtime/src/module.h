/*===- module.h - the loaded module and function records ------------------===*/

#ifndef GOOGLE_RUNTIME_MODULE_H
#define GOOGLE_RUNTIME_MODULE_H

#include "internal.h"

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
  size_t num_functions;
  google_rt_function *functions;
};

#endif /* GOOGLE_RUNTIME_MODULE_H */
