/*===- google_compiler.h - C API over the google-mlir compiler -----------===*
 *
 * The compiler behind google-run, for callers that are not C++ (the Python
 * package): compile MLIR text through the on-disk compile cache into a
 * shared object that libgoogle_runtime loads, or print a pipeline stage.
 * Functions return NULL on success, else an error message that the caller
 * releases with google_compiler_free. Safe to call from several threads.
 *
 *===----------------------------------------------------------------------===*/

#ifndef GOOGLE_COMPILER_H
#define GOOGLE_COMPILER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct google_compiler_result {
  char *object_path;  /* the shared object to load (release with free) */
  char *key;          /* the cache key (release with free) */
  char *miss_reason;  /* why the disk cache missed, "" on a hit */
  int cache_hit;      /* loaded from the disk cache, nothing compiled */
  int temporary;      /* the cache was unusable: delete the file once loaded */
  double milliseconds; /* the whole call */
  double parse_ms, pipeline_ms, codegen_ms, link_ms;
} google_compiler_result;

/* Compiles `source` (`length` bytes, any stage the compiler accepts) with
 * the --google-extreme-pipeline options `pipeline` ("" for the defaults),
 * through the cache in `cache_directory` (NULL: GOOGLE_MLIR_CACHE_DIR or
 * its default). `name` labels error positions. `log` < 0 follows
 * GOOGLE_MLIR_LOG_COMPILES; 0 or 1 switches the cache's log lines. */
char *google_compiler_compile(const char *source, size_t length,
                              const char *name, const char *pipeline,
                              const char *cache_directory, int log,
                              google_compiler_result *result);
/* Releases the strings of `result`. */
void google_compiler_result_free(google_compiler_result *result);

/* Prints `source` at `stage` ("google", "optimized", "linalg", "llvm",
 * "llvm-ir") into a new string `*output` (release with
 * google_compiler_free). */
char *google_compiler_print_stage(const char *source, size_t length,
                                  const char *name, const char *pipeline,
                                  const char *stage, char **output);

/* The default cache directory (release with google_compiler_free). */
char *google_compiler_default_cache_directory(void);

void google_compiler_free(void *pointer);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GOOGLE_COMPILER_H */
