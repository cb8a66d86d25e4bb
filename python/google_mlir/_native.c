/*===- _native.c - CPython bindings: compile, load and call ---------------===*
 *
 * google_mlir._native: the compiler's C API (compile through the disk cache,
 * print a stage) and the runtime's (load an object, call a function on numpy
 * arrays). The extension links the runtime only: the compiler library (and
 * with it libMLIR and libLLVM) is loaded on the first compile, from the
 * directory that holds libgoogle_runtime. A call passes each array's memory as a memref descriptor without
 * copying, releases the GIL while the compiled code runs, and wraps each
 * result's runtime buffer in a numpy array without copying; the buffer goes
 * back to the pool when the array dies.
 *
 *===----------------------------------------------------------------------===*/

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "Compiler/google_compiler.h"
#include "google_runtime.h"

#include <dlfcn.h>
#include <string.h>

/* google_mlir.Error: a call or compile failed. */
static PyObject *Error;
static PyObject *CompileError;
/* An argument does not fit the function's signature: the Python side looks
 * for (or compiles) the right function. */
static PyObject *SignatureMismatch;

#define MAX_CALL_TENSORS 64

/* google_mlir.bfloat16: the dtype of bf16 arrays (uint16 bits). */
static PyArray_Descr *bfloat16_descr;

/*===----------------------------------------------------------------------===*
 * dtypes
 *===----------------------------------------------------------------------===*/

/* The runtime dtype of a numpy array, -1 when none; a uint16 array passes
 * for bf16 (its bits). */
static int runtime_dtype_of(PyArrayObject *array, google_rt_dtype expected) {
  switch (PyArray_TYPE(array)) {
  case NPY_FLOAT32: return GOOGLE_RT_F32;
  case NPY_FLOAT16: return GOOGLE_RT_F16;
  case NPY_FLOAT64: return GOOGLE_RT_F64;
  case NPY_INT32: return GOOGLE_RT_I32;
  case NPY_LONG:
  case NPY_LONGLONG: return GOOGLE_RT_I64;
  case NPY_BOOL: return GOOGLE_RT_I1;
  case NPY_INT8: return GOOGLE_RT_I8;
  case NPY_UINT16:
  case NPY_VOID:
    return expected == GOOGLE_RT_BF16 && PyArray_ITEMSIZE(array) == 2
               ? GOOGLE_RT_BF16
               : -1;
  default: return -1;
  }
}

static int numpy_type_of(google_rt_dtype dtype) {
  switch (dtype) {
  case GOOGLE_RT_F32: return NPY_FLOAT32;
  case GOOGLE_RT_F16: return NPY_FLOAT16;
  case GOOGLE_RT_BF16: return NPY_UINT16;
  case GOOGLE_RT_F64: return NPY_FLOAT64;
  case GOOGLE_RT_I32: return NPY_INT32;
  case GOOGLE_RT_I64: return NPY_INT64;
  case GOOGLE_RT_I1: return NPY_BOOL;
  case GOOGLE_RT_I8: return NPY_INT8;
  }
  return NPY_NOTYPE;
}

/* ("f32", (None, 784)) for tensor<?x784xf32>. */
static PyObject *tensor_type_tuple(const google_rt_tensor_type *type) {
  PyObject *shape = PyTuple_New(type->rank);
  if (!shape)
    return NULL;
  for (int32_t i = 0; i < type->rank; ++i) {
    PyObject *dim;
    if (type->shape[i] == GOOGLE_RT_DYNAMIC) {
      Py_INCREF(Py_None);
      dim = Py_None;
    } else {
      dim = PyLong_FromLongLong(type->shape[i]);
    }
    if (!dim) {
      Py_DECREF(shape);
      return NULL;
    }
    PyTuple_SET_ITEM(shape, i, dim);
  }
  return Py_BuildValue("(sN)", google_rt_dtype_name(type->dtype), shape);
}

/* Raises `Error` with the status's message and frees the status. */
static PyObject *raise_status(google_rt_status status) {
  PyErr_SetString(Error, google_rt_status_message(status));
  google_rt_status_free(status);
  return NULL;
}

/*===----------------------------------------------------------------------===*
 * Buffer: owns a runtime tensor behind numpy results
 *===----------------------------------------------------------------------===*/

typedef struct {
  PyObject_HEAD
  google_rt_tensor tensor;
} BufferObject;

static void Buffer_dealloc(BufferObject *self) {
  google_rt_tensor_release(&self->tensor);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject BufferType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "google_mlir._native.Buffer",
    .tp_basicsize = sizeof(BufferObject),
    .tp_dealloc = (destructor)Buffer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A runtime buffer behind a result array.",
};

/* A numpy array over `tensor`'s memory, owning it; releases it on failure. */
static PyObject *wrap_result(google_rt_tensor *tensor) {
  npy_intp dims[GOOGLE_RT_MAX_RANK];
  for (int32_t i = 0; i < tensor->rank; ++i)
    dims[i] = (npy_intp)tensor->shape[i];
  BufferObject *owner = PyObject_New(BufferObject, &BufferType);
  if (!owner) {
    google_rt_tensor_release(tensor);
    return NULL;
  }
  owner->tensor = *tensor;
  PyArray_Descr *descr;
  if (tensor->dtype == GOOGLE_RT_BF16 && bfloat16_descr) {
    Py_INCREF(bfloat16_descr);
    descr = bfloat16_descr;
  } else {
    descr = PyArray_DescrFromType(numpy_type_of(tensor->dtype));
  }
  /* Empty results have no memory: numpy allocates its own. */
  void *data = google_rt_tensor_num_elements(tensor) ? tensor->data : NULL;
  PyObject *array = PyArray_NewFromDescr(&PyArray_Type, descr, tensor->rank,
                                         dims, NULL, data, NPY_ARRAY_CARRAY,
                                         NULL);
  if (!array || !data) {
    Py_DECREF(owner);
    return array;
  }
  if (PyArray_SetBaseObject((PyArrayObject *)array, (PyObject *)owner) < 0) {
    Py_DECREF(array);
    return NULL;
  }
  return array;
}

/*===----------------------------------------------------------------------===*
 * Module and Function
 *===----------------------------------------------------------------------===*/

typedef struct {
  PyObject_HEAD
  google_rt_module *module;
} ModuleObject;

typedef struct {
  PyObject_HEAD
  ModuleObject *owner;
  const google_rt_function *function;
  int unpack_single; /* one result: return it, not a 1-tuple */
} FunctionObject;

static PyTypeObject FunctionType;

static int Module_init(ModuleObject *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"path", "device", NULL};
  const char *path, *device_name = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|z", keywords, &path,
                                   &device_name))
    return -1;
  /* "cuda", "cuda:1", "rocm:0"; NULL: the module's default. */
  google_rt_device device = {GOOGLE_RT_DEVICE_HOST, 0};
  if (device_name) {
    const char *colon = strchr(device_name, ':');
    size_t kind_length = colon ? (size_t)(colon - device_name)
                               : strlen(device_name);
    char *end = NULL;
    long ordinal = colon ? strtol(colon + 1, &end, 10) : 0;
    if (kind_length == 4 && strncmp(device_name, "cuda", 4) == 0)
      device.kind = GOOGLE_RT_DEVICE_CUDA;
    else if (kind_length == 4 && strncmp(device_name, "rocm", 4) == 0)
      device.kind = GOOGLE_RT_DEVICE_ROCM;
    if (device.kind == GOOGLE_RT_DEVICE_HOST ||
        (colon && (end == colon + 1 || *end || ordinal < 0 ||
                   ordinal > INT32_MAX))) {
      PyErr_Format(PyExc_ValueError,
                   "unknown device '%s'; expected 'cuda', 'cuda:N', 'rocm' "
                   "or 'rocm:N'",
                   device_name);
      return -1;
    }
    device.ordinal = (int32_t)ordinal;
  }
  if (self->module) {
    PyErr_SetString(PyExc_RuntimeError, "module already loaded");
    return -1;
  }
  google_rt_status status;
  Py_BEGIN_ALLOW_THREADS
  status = google_rt_module_load_on(path, device, &self->module);
  Py_END_ALLOW_THREADS
  if (status) {
    raise_status(status);
    return -1;
  }
  return 0;
}

static void Module_dealloc(ModuleObject *self) {
  if (self->module)
    google_rt_module_free(self->module);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Module_function_names(ModuleObject *self,
                                       PyObject *Py_UNUSED(ignored)) {
  size_t count = google_rt_module_num_functions(self->module);
  PyObject *names = PyList_New((Py_ssize_t)count);
  for (size_t i = 0; names && i < count; ++i) {
    PyObject *name = PyUnicode_FromString(
        google_rt_function_name(google_rt_module_function(self->module, i)));
    if (!name) {
      Py_CLEAR(names);
      break;
    }
    PyList_SET_ITEM(names, (Py_ssize_t)i, name);
  }
  return names;
}

static PyObject *Module_function(ModuleObject *self, PyObject *args,
                                 PyObject *kwargs) {
  static char *keywords[] = {"name", "unpack_single", NULL};
  const char *name;
  int unpack_single = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s|p", keywords, &name,
                                   &unpack_single))
    return NULL;
  const google_rt_function *function;
  google_rt_status status =
      google_rt_module_lookup(self->module, name, &function);
  if (status)
    return raise_status(status);
  FunctionObject *result = PyObject_New(FunctionObject, &FunctionType);
  if (!result)
    return NULL;
  Py_INCREF(self);
  result->owner = self;
  result->function = function;
  result->unpack_single = unpack_single;
  return (PyObject *)result;
}

static PyMethodDef Module_methods[] = {
    {"function_names", (PyCFunction)Module_function_names, METH_NOARGS,
     "The public functions, in module order."},
    {"function", (PyCFunction)(void (*)(void))Module_function,
     METH_VARARGS | METH_KEYWORDS,
     "function(name, unpack_single=True): the callable function `name`."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ModuleType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "google_mlir._native.Module",
    .tp_basicsize = sizeof(ModuleObject),
    .tp_dealloc = (destructor)Module_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Module(path): a compiled shared object, loaded.",
    .tp_methods = Module_methods,
    .tp_init = (initproc)Module_init,
    .tp_new = PyType_GenericNew,
};

static void Function_dealloc(FunctionObject *self) {
  Py_XDECREF(self->owner);
  PyObject_Free(self);
}

/* Raises SignatureMismatch(index, reason) and returns -1. */
static int mismatch(size_t index, const char *reason) {
  PyObject *value = Py_BuildValue("(ns)", (Py_ssize_t)index, reason);
  if (value) {
    PyErr_SetObject(SignatureMismatch, value);
    Py_DECREF(value);
  }
  return -1;
}

/* Fills `tensor` with a view of `object` when it fits `type`. */
static int view_argument(PyObject *object, const google_rt_tensor_type *type,
                         size_t index, google_rt_tensor *tensor) {
  /* Subclasses (masked arrays, matrices) go the slow path, which checks
   * them; so do arrays in the other byte order or not aligned to their
   * element (the slow path converts them). */
  if (!PyArray_CheckExact(object))
    return mismatch(index, "not a plain numpy array");
  PyArrayObject *array = (PyArrayObject *)object;
  if (!PyArray_ISNOTSWAPPED(array))
    return mismatch(index, "byte order");
  if (!PyArray_ISALIGNED(array))
    return mismatch(index, "alignment");
  int dtype = runtime_dtype_of(array, type->dtype);
  if (dtype != (int)type->dtype)
    return mismatch(index, "dtype");
  int rank = PyArray_NDIM(array);
  if (rank != type->rank)
    return mismatch(index, "rank");
  const npy_intp *dims = PyArray_DIMS(array);
  const npy_intp *strides = PyArray_STRIDES(array);
  npy_intp itemsize = PyArray_ITEMSIZE(array);
  tensor->dtype = (google_rt_dtype)dtype;
  tensor->rank = rank;
  tensor->data = PyArray_DATA(array);
  tensor->buffer = NULL;
  tensor->device.kind = GOOGLE_RT_DEVICE_HOST;
  tensor->device.ordinal = 0;
  for (int i = 0; i < rank; ++i) {
    if (type->shape[i] != GOOGLE_RT_DYNAMIC && type->shape[i] != dims[i])
      return mismatch(index, "shape");
    if (strides[i] % itemsize)
      return mismatch(index, "strides");
    tensor->shape[i] = dims[i];
    tensor->strides[i] = strides[i] / itemsize;
  }
  return 0;
}

static PyObject *wrap_results(FunctionObject *self, google_rt_tensor *results,
                              size_t num_results);

static PyObject *Function_call(FunctionObject *self, PyObject *args,
                               PyObject *kwargs) {
  const google_rt_function *function = self->function;
  size_t num_args = google_rt_function_num_args(function);
  size_t num_results = google_rt_function_num_results(function);
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    mismatch(0, "keyword arguments");
    return NULL;
  }
  if ((size_t)PyTuple_GET_SIZE(args) != num_args) {
    mismatch(0, "number of arguments");
    return NULL;
  }
  /* Descriptors on the stack for the usual counts, else on the heap. */
  google_rt_tensor stack_tensors[MAX_CALL_TENSORS];
  google_rt_tensor stack_results[MAX_CALL_TENSORS];
  google_rt_tensor *tensors = stack_tensors, *results = stack_results;
  if (num_args > MAX_CALL_TENSORS || num_results > MAX_CALL_TENSORS) {
    tensors = PyMem_Calloc(num_args ? num_args : 1, sizeof(*tensors));
    results = PyMem_Calloc(num_results ? num_results : 1, sizeof(*results));
    if (!tensors || !results) {
      PyMem_Free(tensors);
      PyMem_Free(results);
      return PyErr_NoMemory();
    }
  }
  google_rt_status status = NULL;
  int viewed = 1;
  for (size_t i = 0; viewed && i < num_args; ++i)
    viewed = view_argument(PyTuple_GET_ITEM(args, i),
                           google_rt_function_arg_type(function, i), i,
                           &tensors[i]) == 0;
  if (viewed) {
    memset(results, 0, num_results * sizeof(results[0]));
    Py_BEGIN_ALLOW_THREADS
    status = google_rt_call(function, tensors, num_args, results, num_results);
    Py_END_ALLOW_THREADS
  }
  if (tensors != stack_tensors)
    PyMem_Free(tensors);
  if (!viewed || status) {
    if (results != stack_results)
      PyMem_Free(results);
    return viewed ? raise_status(status) : NULL;
  }
  PyObject *wrapped = wrap_results(self, results, num_results);
  if (results != stack_results)
    PyMem_Free(results);
  return wrapped;
}

/* The results of a call as one array (unpacked) or a tuple; each result
 * is released if it cannot be wrapped. */
static PyObject *wrap_results(FunctionObject *self, google_rt_tensor *results,
                              size_t num_results) {
  if (num_results == 1 && self->unpack_single)
    return wrap_result(&results[0]);
  PyObject *tuple = PyTuple_New((Py_ssize_t)num_results);
  if (!tuple) {
    for (size_t i = 0; i < num_results; ++i)
      google_rt_tensor_release(&results[i]);
    return NULL;
  }
  for (size_t i = 0; i < num_results; ++i) {
    PyObject *array = wrap_result(&results[i]);
    if (!array) {
      for (size_t j = i + 1; j < num_results; ++j)
        google_rt_tensor_release(&results[j]);
      Py_DECREF(tuple);
      return NULL;
    }
    PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, array);
  }
  return tuple;
}

static PyObject *Function_get_name(FunctionObject *self, void *closure) {
  return PyUnicode_FromString(google_rt_function_name(self->function));
}

static PyObject *types_list(FunctionObject *self, int results) {
  const google_rt_function *function = self->function;
  size_t count = results ? google_rt_function_num_results(function)
                         : google_rt_function_num_args(function);
  PyObject *list = PyList_New((Py_ssize_t)count);
  for (size_t i = 0; list && i < count; ++i) {
    PyObject *type = tensor_type_tuple(
        results ? google_rt_function_result_type(function, i)
                : google_rt_function_arg_type(function, i));
    if (!type) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, type);
  }
  return list;
}

static PyObject *Function_get_arg_types(FunctionObject *self, void *closure) {
  return types_list(self, 0);
}

static PyObject *Function_get_result_types(FunctionObject *self,
                                           void *closure) {
  return types_list(self, 1);
}

static PyGetSetDef Function_getset[] = {
    {"name", (getter)Function_get_name, NULL, "The function's name.", NULL},
    {"arg_types", (getter)Function_get_arg_types, NULL,
     "[(dtype, shape)] per argument; None for a dynamic dimension.", NULL},
    {"result_types", (getter)Function_get_result_types, NULL,
     "[(dtype, shape)] per result.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject FunctionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "google_mlir._native.Function",
    .tp_basicsize = sizeof(FunctionObject),
    .tp_dealloc = (destructor)Function_dealloc,
    .tp_call = (ternaryfunc)Function_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled function: call it with numpy arrays.",
    .tp_getset = Function_getset,
};

/*===----------------------------------------------------------------------===*
 * Compiler
 *===----------------------------------------------------------------------===*/

/* The compiler's C API, resolved when first needed. */
static struct {
  void *handle;
  __typeof__(google_compiler_compile) *compile;
  __typeof__(google_compiler_result_free) *result_free;
  __typeof__(google_compiler_print_stage) *print_stage;
  __typeof__(google_compiler_default_cache_directory) *default_cache_directory;
  __typeof__(google_compiler_free) *free;
} compiler;

/* libgoogle_compiler.so next to libgoogle_runtime (the build tree's lib/,
 * or an install prefix's), in a new string; NULL when not found. */
static char *compiler_library_path(void) {
  Dl_info info;
  if (!dladdr((void *)&google_rt_module_load, &info) || !info.dli_fname)
    return NULL;
  const char *slash = strrchr(info.dli_fname, '/');
  size_t directory = slash ? (size_t)(slash - info.dli_fname + 1) : 0;
  static const char kName[] = "libgoogle_compiler.so";
  char *path = malloc(directory + sizeof(kName));
  if (!path)
    return NULL;
  memcpy(path, info.dli_fname, directory);
  memcpy(path + directory, kName, sizeof(kName));
  return path;
}

/* Loads the compiler (with the GIL held); sets an exception on failure. */
static int load_compiler(void) {
  if (compiler.handle)
    return 0;
  char *path = compiler_library_path();
  if (!path) {
    PyErr_SetString(Error, "cannot locate libgoogle_compiler.so (it is "
                           "installed next to libgoogle_runtime)");
    return -1;
  }
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    PyErr_Format(Error, "cannot load the compiler: %s", dlerror());
    free(path);
    return -1;
  }
  free(path);
#define RESOLVE(field, symbol)                                                 \
  compiler.field = (__typeof__(compiler.field))dlsym(handle, #symbol);         \
  if (!compiler.field) {                                                       \
    PyErr_Format(Error, "the compiler library lacks %s", #symbol);             \
    dlclose(handle);                                                           \
    return -1;                                                                 \
  }
  RESOLVE(compile, google_compiler_compile)
  RESOLVE(result_free, google_compiler_result_free)
  RESOLVE(print_stage, google_compiler_print_stage)
  RESOLVE(default_cache_directory, google_compiler_default_cache_directory)
  RESOLVE(free, google_compiler_free)
#undef RESOLVE
  compiler.handle = handle;
  return 0;
}

static PyObject *raise_compile_error(char *message) {
  PyErr_SetString(CompileError, message);
  compiler.free(message);
  return NULL;
}

static PyObject *native_compile(PyObject *module, PyObject *args,
                                PyObject *kwargs) {
  static char *keywords[] = {"source", "name", "pipeline", "cache_dir", "log",
                             NULL};
  const char *source, *name, *pipeline, *cache_dir = NULL;
  Py_ssize_t length;
  int log = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#ss|zi", keywords, &source,
                                   &length, &name, &pipeline, &cache_dir, &log))
    return NULL;
  if (load_compiler() < 0)
    return NULL;
  google_compiler_result result;
  char *error;
  Py_BEGIN_ALLOW_THREADS
  error = compiler.compile(source, (size_t)length, name, pipeline, cache_dir,
                           log, &result);
  Py_END_ALLOW_THREADS
  if (error)
    return raise_compile_error(error);
  PyObject *dict = Py_BuildValue(
      "{s:s,s:s,s:s,s:O,s:O,s:d,s:d,s:d,s:d,s:d}", "path", result.object_path,
      "key", result.key, "miss_reason", result.miss_reason, "hit",
      result.cache_hit ? Py_True : Py_False, "temporary",
      result.temporary ? Py_True : Py_False, "ms", result.milliseconds,
      "parse_ms", result.parse_ms, "pipeline_ms", result.pipeline_ms,
      "codegen_ms", result.codegen_ms, "link_ms", result.link_ms);
  compiler.result_free(&result);
  return dict;
}

static PyObject *native_print_stage(PyObject *module, PyObject *args,
                                    PyObject *kwargs) {
  static char *keywords[] = {"source", "name", "pipeline", "stage", NULL};
  const char *source, *name, *pipeline, *stage;
  Py_ssize_t length;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "s#sss", keywords, &source,
                                   &length, &name, &pipeline, &stage))
    return NULL;
  if (load_compiler() < 0)
    return NULL;
  char *output, *error;
  Py_BEGIN_ALLOW_THREADS
  error = compiler.print_stage(source, (size_t)length, name, pipeline, stage,
                               &output);
  Py_END_ALLOW_THREADS
  if (error)
    return raise_compile_error(error);
  PyObject *text = PyUnicode_FromString(output);
  compiler.free(output);
  return text;
}

static PyObject *native_default_cache_dir(PyObject *module,
                                          PyObject *Py_UNUSED(ignored)) {
  if (load_compiler() < 0)
    return NULL;
  char *path = compiler.default_cache_directory();
  PyObject *text = PyUnicode_FromString(path ? path : "");
  compiler.free(path);
  return text;
}

static PyObject *native_compiler_library(PyObject *module,
                                         PyObject *Py_UNUSED(ignored)) {
  char *path = compiler_library_path();
  if (!path)
    Py_RETURN_NONE;
  PyObject *text = PyUnicode_DecodeFSDefault(path);
  free(path);
  return text;
}

static PyObject *native_compiler_loaded(PyObject *module,
                                        PyObject *Py_UNUSED(ignored)) {
  return PyBool_FromLong(compiler.handle != NULL);
}

static PyObject *native_pool_stats(PyObject *module,
                                   PyObject *Py_UNUSED(ignored)) {
  google_rt_pool_stats stats;
  google_rt_pool_get_stats(&stats);
  return Py_BuildValue("{s:K,s:K,s:K,s:K}", "system_allocations",
                       (unsigned long long)stats.system_allocations,
                       "reused_allocations",
                       (unsigned long long)stats.reused_allocations,
                       "bytes_in_use", (unsigned long long)stats.bytes_in_use,
                       "bytes_cached", (unsigned long long)stats.bytes_cached);
}

static PyObject *native_pool_trim(PyObject *module,
                                  PyObject *Py_UNUSED(ignored)) {
  google_rt_pool_trim();
  Py_RETURN_NONE;
}

static PyObject *native_cpu_has_feature(PyObject *module, PyObject *arg) {
  const char *feature = PyUnicode_AsUTF8(arg);
  if (!feature)
    return NULL;
  return PyBool_FromLong(google_rt_cpu_has_feature(feature));
}

static PyObject *native_cpu_features(PyObject *module,
                                     PyObject *Py_UNUSED(ignored)) {
  PyObject *names = PyUnicode_FromString(GOOGLE_RT_X86_FEATURES);
  if (!names)
    return NULL;
  PyObject *all = PyUnicode_Split(names, NULL, -1);
  Py_DECREF(names);
  if (!all)
    return NULL;
  PyObject *present = PyList_New(0);
  for (Py_ssize_t i = 0; present && i < PyList_GET_SIZE(all); ++i) {
    PyObject *name = PyList_GET_ITEM(all, i);
    if (google_rt_cpu_has_feature(PyUnicode_AsUTF8(name)) &&
        PyList_Append(present, name) < 0)
      Py_CLEAR(present);
  }
  Py_DECREF(all);
  return present;
}

static PyObject *native_set_bfloat16_dtype(PyObject *module,
                                           PyObject *dtype) {
  PyArray_Descr *descr;
  if (!PyArray_DescrConverter(dtype, &descr))
    return NULL;
  if (descr->elsize != 2) {
    Py_DECREF(descr);
    PyErr_SetString(PyExc_ValueError, "a bf16 dtype has 2 bytes");
    return NULL;
  }
  Py_XSETREF(bfloat16_descr, descr);
  Py_RETURN_NONE;
}

/* devices("cuda") -> the GPUs the driver reports, as (name, arch, bytes)
 * tuples; raises Error when the driver is missing. */
static PyObject *native_devices(PyObject *self, PyObject *arg) {
  (void)self;
  const char *kind_name = PyUnicode_AsUTF8(arg);
  if (!kind_name)
    return NULL;
  google_rt_device_kind kind;
  if (strcmp(kind_name, "cuda") == 0)
    kind = GOOGLE_RT_DEVICE_CUDA;
  else if (strcmp(kind_name, "rocm") == 0)
    kind = GOOGLE_RT_DEVICE_ROCM;
  else {
    PyErr_Format(PyExc_ValueError, "unknown device kind '%s'", kind_name);
    return NULL;
  }
  int32_t count = 0;
  google_rt_status status;
  Py_BEGIN_ALLOW_THREADS status = google_rt_device_count(kind, &count);
  Py_END_ALLOW_THREADS if (status) return raise_status(status);
  PyObject *list = PyList_New(0);
  for (int32_t i = 0; list && i < count; ++i) {
    google_rt_device device = {kind, i};
    google_rt_device_properties properties;
    status = google_rt_device_get_properties(device, &properties);
    if (status) {
      Py_DECREF(list);
      return raise_status(status);
    }
    PyObject *entry = Py_BuildValue("(ssK)", properties.name, properties.arch,
                                    (unsigned long long)properties.total_memory);
    if (!entry || PyList_Append(list, entry) < 0) {
      Py_XDECREF(entry);
      Py_DECREF(list);
      return NULL;
    }
    Py_DECREF(entry);
  }
  return list;
}

static PyMethodDef native_methods[] = {
    {"devices", native_devices, METH_O,
     "devices(kind) -> [(name, arch, total_memory)] of the 'cuda' or 'rocm' "
     "driver; raises Error without the driver."},
    {"set_bfloat16_dtype", native_set_bfloat16_dtype, METH_O,
     "The dtype that bf16 results get."},
    {"compile", (PyCFunction)(void (*)(void))native_compile,
     METH_VARARGS | METH_KEYWORDS,
     "compile(source, name, pipeline, cache_dir=None, log=-1) -> dict: the "
     "shared object for `source`, from the disk cache or compiled."},
    {"print_stage", (PyCFunction)(void (*)(void))native_print_stage,
     METH_VARARGS | METH_KEYWORDS,
     "print_stage(source, name, pipeline, stage) -> str"},
    {"default_cache_dir", native_default_cache_dir, METH_NOARGS,
     "The cache directory used when none is given."},
    {"compiler_library", native_compiler_library, METH_NOARGS,
     "The compiler library's path (without loading it), or None."},
    {"compiler_loaded", native_compiler_loaded, METH_NOARGS,
     "Whether the compiler library has been loaded."},
    {"pool_stats", native_pool_stats, METH_NOARGS,
     "The runtime buffer pool's counters."},
    {"pool_trim", native_pool_trim, METH_NOARGS,
     "Returns the pool's cached free buffers to the system."},
    {"cpu_features", native_cpu_features, METH_NOARGS,
     "The x86 features (of GOOGLE_RT_X86_FEATURES) this CPU has."},
    {"cpu_has_feature", native_cpu_has_feature, METH_O,
     "cpu_has_feature(name) -> whether this CPU has the x86 feature."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "_native",
    "google-mlir's compiler and runtime, for google_mlir.", -1, native_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) {
  import_array();
  if (PyType_Ready(&BufferType) < 0 || PyType_Ready(&ModuleType) < 0 ||
      PyType_Ready(&FunctionType) < 0)
    return NULL;
  PyObject *module = PyModule_Create(&native_module);
  if (!module)
    return NULL;
  Error = PyErr_NewExceptionWithDoc(
      "google_mlir.Error", "A compiled call or a compile failed.",
      PyExc_RuntimeError, NULL);
  CompileError = PyErr_NewExceptionWithDoc(
      "google_mlir.CompileError", "The compiler rejected a module.", Error,
      NULL);
  SignatureMismatch = PyErr_NewException(
      "google_mlir._native.SignatureMismatch", PyExc_TypeError, NULL);
  if (!Error || !CompileError || !SignatureMismatch ||
      PyModule_AddObjectRef(module, "Error", Error) < 0 ||
      PyModule_AddObjectRef(module, "CompileError", CompileError) < 0 ||
      PyModule_AddObjectRef(module, "SignatureMismatch", SignatureMismatch) <
          0 ||
      PyModule_AddObjectRef(module, "Buffer", (PyObject *)&BufferType) < 0 ||
      PyModule_AddObjectRef(module, "Module", (PyObject *)&ModuleType) < 0 ||
      PyModule_AddObjectRef(module, "Function", (PyObject *)&FunctionType) <
          0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
