/*===- module.c - loading compiled modules and reading their manifest -----===*
 *
 * A compiled module defines `google_mlir_manifest`, text of the form
 *
 *   google-mlir-manifest 1
 *   device <cuda|rocm>          (only for modules that run on a GPU)
 *   cpu <feature>...            (the CPU features the code was compiled for)
 *   func <name> <out|ret> <#args> <type>... <#results> <type>...
 *
 * (`%XX` in a name stands for the byte 0xXX: spaces, controls, `%`)
 * with one line per public function, and `_google_packed_<name>(void **)`.
 * `out`: results are out-parameters after the arguments; `ret`: the first
 * packed pointer receives the returned descriptors.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE /* asprintf, dladdr1 */

#include "gpu.h"
#include "module.h"

#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *next_token(const char **cursor, const char *end,
                              size_t *length) {
  const char *p = *cursor;
  while (p < end && (*p == ' ' || *p == '\t'))
    ++p;
  const char *start = p;
  while (p < end && *p != ' ' && *p != '\t' && *p != '\n')
    ++p;
  *length = (size_t)(p - start);
  *cursor = p;
  return *length ? start : NULL;
}

/* Arguments or results of one function, at most. */
enum { MAX_VALUES = 4096 };
/* Functions of one module, and bytes of one name, at most. */
enum { MAX_FUNCTIONS = 1 << 16, MAX_NAME = 1024 };

static bool parse_count(const char *token, size_t length, size_t *count) {
  if (!token || length == 0 || length > 4)
    return false;
  size_t value = 0;
  for (size_t i = 0; i < length; ++i) {
    if (token[i] < '0' || token[i] > '9')
      return false;
    value = value * 10 + (size_t)(token[i] - '0');
  }
  *count = value;
  return value <= MAX_VALUES;
}

static bool parse_types(const char **cursor, const char *end,
                        google_rt_tensor_type **types, size_t *count) {
  size_t length;
  const char *token = next_token(cursor, end, &length);
  if (!parse_count(token, length, count))
    return false;
  *types = calloc(*count ? *count : 1, sizeof(google_rt_tensor_type));
  if (!*types)
    return false;
  for (size_t i = 0; i < *count; ++i) {
    token = next_token(cursor, end, &length);
    if (!token || !google_rt_parse_tensor_type(token, length, &(*types)[i]))
      return false;
  }
  return true;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* The function name of a manifest token: `%XX` stands for the byte 0xXX
 * (names may hold spaces or any other byte but NUL). NULL when malformed. */
static char *decode_name(const char *token, size_t length) {
  char *name = malloc(length + 1);
  if (!name)
    return NULL;
  size_t used = 0;
  for (size_t i = 0; i < length; ++i) {
    if (token[i] != '%') {
      name[used++] = token[i];
      continue;
    }
    int high = i + 2 < length ? hex_digit(token[i + 1]) : -1;
    int low = i + 2 < length ? hex_digit(token[i + 2]) : -1;
    if (high < 0 || low < 0 || (high == 0 && low == 0)) {
      free(name);
      return NULL;
    }
    name[used++] = (char)(high * 16 + low);
    i += 2;
  }
  name[used] = '\0';
  return name;
}

/* Parses one `func` line into `function`. */
static bool parse_function(const char *line, const char *end,
                           google_rt_function *function) {
  const char *cursor = line;
  size_t length;
  const char *token = next_token(&cursor, end, &length);
  if (!token || length != 4 || strncmp(token, "func", 4) != 0)
    return false;
  token = next_token(&cursor, end, &length);
  if (!token || length > MAX_NAME)
    return false;
  function->name = decode_name(token, length);
  token = next_token(&cursor, end, &length);
  if (!function->name || !token || length != 3)
    return false;
  if (strncmp(token, "out", 3) == 0)
    function->results_out = true;
  else if (strncmp(token, "ret", 3) != 0)
    return false;
  if (!parse_types(&cursor, end, &function->arg_types, &function->num_args) ||
      !parse_types(&cursor, end, &function->result_types,
                   &function->num_results))
    return false;
  return next_token(&cursor, end, &length) == NULL;
}

/* Parses the manifest, `size` bytes at most (the object is untrusted: it
 * need not end with a newline, or even a NUL). */
google_rt_status google_rt_parse_manifest(google_rt_module *module,
                                          const char *manifest, size_t size) {
  static const char header[] = "google-mlir-manifest 1\n";
  const char *limit = memchr(manifest, '\0', size);
  if (!limit)
    return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                 "%s: the manifest is not terminated",
                                 module->path);
  if ((size_t)(limit - manifest) < sizeof(header) - 1 ||
      strncmp(manifest, header, sizeof(header) - 1) != 0)
    return google_rt_make_status(
        GOOGLE_RT_IO_ERROR,
        "%s: unsupported manifest version (expected 'google-mlir-manifest 1')",
        module->path);
  const char *p = manifest + sizeof(header) - 1;
  static const char cuda[] = "device cuda\n", rocm[] = "device rocm\n";
  if ((size_t)(limit - p) >= sizeof(cuda) - 1 &&
      strncmp(p, cuda, sizeof(cuda) - 1) == 0) {
    module->device.kind = GOOGLE_RT_DEVICE_CUDA;
    p += sizeof(cuda) - 1;
  } else if ((size_t)(limit - p) >= sizeof(rocm) - 1 &&
             strncmp(p, rocm, sizeof(rocm) - 1) == 0) {
    module->device.kind = GOOGLE_RT_DEVICE_ROCM;
    p += sizeof(rocm) - 1;
  }
  static const char cpu[] = "cpu ";
  if ((size_t)(limit - p) >= sizeof(cpu) - 1 &&
      strncmp(p, cpu, sizeof(cpu) - 1) == 0) {
    p += sizeof(cpu) - 1;
    const char *end = memchr(p, '\n', (size_t)(limit - p));
    if (!end)
      end = limit;
    google_rt_status lacking =
        google_rt_check_cpu_features(module->path, p, (size_t)(end - p));
    if (lacking)
      return lacking;
    p = end < limit ? end + 1 : end;
  }
  /* One function per line; the last line may lack its newline. */
  size_t lines = 0;
  for (const char *q = p; q < limit; ++q)
    lines += *q == '\n' || q + 1 == limit;
  if (lines > MAX_FUNCTIONS)
    return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                 "%s: the manifest lists more than %d "
                                 "functions",
                                 module->path, MAX_FUNCTIONS);
  module->functions = calloc(lines ? lines : 1, sizeof(google_rt_function));
  if (!module->functions)
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  while (p < limit) {
    const char *end = memchr(p, '\n', (size_t)(limit - p));
    if (!end)
      end = limit;
    if (end > p) {
      if (module->num_functions == lines)
        return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                     "%s: malformed manifest", module->path);
      google_rt_function *function = &module->functions[module->num_functions++];
      function->module = module;
      if (!parse_function(p, end, function))
        return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                     "%s: malformed manifest line '%.*s'",
                                     module->path,
                                     (int)(end - p > 200 ? 200 : end - p), p);
    }
    p = end < limit ? end + 1 : end;
  }
  return NULL;
}

static google_rt_status resolve_entries(google_rt_module *module) {
  for (size_t i = 0; i < module->num_functions; ++i) {
    google_rt_function *function = &module->functions[i];
    size_t length = strlen(GOOGLE_RT_PACKED_PREFIX) + strlen(function->name) + 1;
    char *symbol = malloc(length);
    if (!symbol)
      return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
    snprintf(symbol, length, "%s%s", GOOGLE_RT_PACKED_PREFIX, function->name);
    void *entry = dlsym(module->handle, symbol);
    free(symbol);
    if (!entry)
      return google_rt_make_status(
          GOOGLE_RT_IO_ERROR, "%s: no entry point for @%s in the object",
          module->path, function->name);
    *(void **)&function->entry = entry;
  }
  return NULL;
}

/* dlopen maps segments without checking them against the file size: a
 * truncated object would fault inside the loader. Check the ELF header and
 * every loaded segment first. */
google_rt_status google_rt_check_elf(const char *path, FILE *file) {
  Elf64_Ehdr header;
  if (fseek(file, 0, SEEK_END) != 0)
    return google_rt_make_status(GOOGLE_RT_IO_ERROR, "cannot read '%s'", path);
  long size = ftell(file);
  rewind(file);
  if (size < (long)sizeof(header) ||
      fread(&header, sizeof(header), 1, file) != 1 ||
      memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                 "'%s' is not a shared object (no ELF header)",
                                 path);
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN ||
      header.e_phentsize != sizeof(Elf64_Phdr))
    return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                 "'%s' is not a 64-bit shared object", path);
  uint64_t table_end =
      header.e_phoff + (uint64_t)header.e_phnum * sizeof(Elf64_Phdr);
  if (header.e_phoff > (uint64_t)size || table_end > (uint64_t)size)
    return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                 "'%s' is truncated (program headers)", path);
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    if (fseek(file, (long)(header.e_phoff + i * sizeof(Elf64_Phdr)),
              SEEK_SET) != 0 ||
        fread(&segment, sizeof(segment), 1, file) != 1)
      return google_rt_make_status(GOOGLE_RT_IO_ERROR, "cannot read '%s'",
                                   path);
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC)
      continue;
    if (segment.p_offset > (uint64_t)size ||
        segment.p_filesz > (uint64_t)size - segment.p_offset)
      return google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                   "'%s' is truncated (segment %u ends past "
                                   "the end of the file)",
                                   path, (unsigned)i);
  }
  return NULL;
}

google_rt_status google_rt_module_load(const char *path,
                                       google_rt_module **out) {
  google_rt_device host = {GOOGLE_RT_DEVICE_HOST, 0};
  return google_rt_module_load_on(path, host, out);
}

google_rt_status google_rt_module_load_on(const char *path,
                                          google_rt_device device,
                                          google_rt_module **out) {
  if (out)
    *out = NULL;
  if (!out)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT, "no module out");
  if (!path)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT, "no module path");
  int32_t threads;
  google_rt_status bad_threads = google_rt_read_num_threads(&threads);
  if (bad_threads)
    return bad_threads;
  uint64_t pool_limit;
  google_rt_status bad_limit = google_rt_read_pool_limit(&pool_limit);
  if (bad_limit)
    return bad_limit;
  FILE *file = fopen(path, "rb");
  if (!file)
    return google_rt_make_status(GOOGLE_RT_NOT_FOUND,
                                 "cannot open module '%s'", path);
  google_rt_status invalid = google_rt_check_elf(path, file);
  fclose(file);
  if (invalid)
    return invalid;
  google_rt_module *module = calloc(1, sizeof(google_rt_module));
  if (!module)
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  module->path = strdup(path);
  /* A name without a slash would make dlopen search library paths. */
  char *relative = NULL;
  if (!strchr(path, '/') && asprintf(&relative, "./%s", path) < 0)
    relative = NULL;
  /* A GPU module loads its device binaries from its constructors. */
  google_rt_gpu_load_begin(device);
  module->handle = dlopen(relative ? relative : path, RTLD_NOW | RTLD_LOCAL);
  google_rt_status device_error = google_rt_gpu_load_end();
  free(relative);
  if (!module->handle) {
    google_rt_status_free(device_error);
    const char *reason = dlerror();
    google_rt_status status = google_rt_make_status(
        GOOGLE_RT_IO_ERROR, "cannot load module '%s': %s", path,
        reason ? reason : "unknown error");
    google_rt_module_free(module);
    return status;
  }
  if (device_error) {
    google_rt_status status = google_rt_make_status(
        google_rt_status_code(device_error), "cannot load module '%s': %s",
        path, google_rt_status_message(device_error));
    google_rt_status_free(device_error);
    google_rt_module_free(module);
    return status;
  }
  const char *manifest = dlsym(module->handle, GOOGLE_RT_MANIFEST_SYMBOL);
  /* The symbol's size bounds the text. */
  Dl_info info;
  void *entry = NULL;
  google_rt_status status;
  if (!manifest)
    status = google_rt_make_status(
        GOOGLE_RT_IO_ERROR, "'%s' is not a google-mlir module (no %s symbol)",
        path, GOOGLE_RT_MANIFEST_SYMBOL);
  else if (!dladdr1(manifest, &info, &entry, RTLD_DL_SYMENT) || !entry ||
           ((const ElfW(Sym) *)entry)->st_size == 0)
    status = google_rt_make_status(GOOGLE_RT_IO_ERROR,
                                   "%s: the manifest has no size", path);
  else
    status = google_rt_parse_manifest(module, manifest,
                            ((const ElfW(Sym) *)entry)->st_size);
  if (!status)
    status = resolve_entries(module);
  /* Its functions run on the selected GPU, whether or not the module has
   * kernels: the driver and the device must be there. */
  if (!status && device.kind != GOOGLE_RT_DEVICE_HOST &&
      module->device.kind != device.kind)
    status = google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "module '%s' runs on %s, not on the requested %s:%d", path,
        module->device.kind == GOOGLE_RT_DEVICE_HOST
            ? "the CPU"
            : google_rt_device_kind_name(module->device.kind),
        google_rt_device_kind_name(device.kind), device.ordinal);
  if (!status && module->device.kind != GOOGLE_RT_DEVICE_HOST) {
    module->device = device.kind == GOOGLE_RT_DEVICE_HOST
                         ? google_rt_device_selected(module->device.kind)
                         : device;
    const gpu_driver *driver;
    google_rt_status unavailable =
        google_rt_gpu_open_device(module->device, &driver);
    if (unavailable) {
      status = google_rt_make_status(
          google_rt_status_code(unavailable), "cannot load module '%s': %s",
          path, google_rt_status_message(unavailable));
      google_rt_status_free(unavailable);
    }
  }
  if (status) {
    google_rt_module_free(module);
    return status;
  }
  *out = module;
  return NULL;
}

void google_rt_module_free(google_rt_module *module) {
  if (!module)
    return;
  for (size_t i = 0; i < module->num_functions; ++i) {
    free(module->functions[i].name);
    free(module->functions[i].arg_types);
    free(module->functions[i].result_types);
  }
  free(module->functions);
  if (module->handle)
    dlclose(module->handle);
  free(module->path);
  free(module);
}

google_rt_device google_rt_module_device(const google_rt_module *module) {
  google_rt_device host = {GOOGLE_RT_DEVICE_HOST, 0};
  return module ? module->device : host;
}

size_t google_rt_module_num_functions(const google_rt_module *module) {
  return module ? module->num_functions : 0;
}

const google_rt_function *google_rt_module_function(
    const google_rt_module *module, size_t index) {
  if (!module || index >= module->num_functions)
    return NULL;
  return &module->functions[index];
}

google_rt_status google_rt_module_lookup(const google_rt_module *module,
                                         const char *name,
                                         const google_rt_function **function) {
  *function = NULL;
  if (!module || !name)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "no module or function name");
  if (name[0] == '@')
    ++name;
  for (size_t i = 0; i < module->num_functions; ++i) {
    if (strcmp(module->functions[i].name, name) == 0) {
      *function = &module->functions[i];
      return NULL;
    }
  }
  /* List what there is. */
  size_t length = 1;
  for (size_t i = 0; i < module->num_functions; ++i)
    length += strlen(module->functions[i].name) + 3;
  char *list = malloc(length);
  if (!list)
    return google_rt_make_status(GOOGLE_RT_NOT_FOUND,
                                 "no function @%s in the module", name);
  list[0] = '\0';
  for (size_t i = 0; i < module->num_functions; ++i) {
    if (i)
      strcat(list, ", ");
    strcat(list, "@");
    strcat(list, module->functions[i].name);
  }
  google_rt_status status = google_rt_make_status(
      GOOGLE_RT_NOT_FOUND,
      "no function @%s in the module; its public functions are: %s", name,
      module->num_functions ? list : "(none)");
  free(list);
  return status;
}

const char *google_rt_function_name(const google_rt_function *function) {
  return function->name;
}
size_t google_rt_function_num_args(const google_rt_function *function) {
  return function->num_args;
}
size_t google_rt_function_num_results(const google_rt_function *function) {
  return function->num_results;
}
const google_rt_tensor_type *
google_rt_function_arg_type(const google_rt_function *function, size_t index) {
  return index < function->num_args ? &function->arg_types[index] : NULL;
}
const google_rt_tensor_type *
google_rt_function_result_type(const google_rt_function *function,
                               size_t index) {
  return index < function->num_results ? &function->result_types[index] : NULL;
}
