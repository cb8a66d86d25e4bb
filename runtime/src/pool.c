/*===- pool.c - pooled, aligned buffers and the compiled code's hooks -----===*
 *
 * Blocks come in power-of-two size classes from 64 bytes up; a freed block
 * goes on its class's free list and serves the next request of that class,
 * so repeated calls do not reach malloc. A registry of live blocks answers
 * "did the runtime allocate this pointer?", which decides who owns a result.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"
#include "ptrmap.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
  MIN_CLASS = 6, /* 64 bytes */
  NUM_CLASSES = 48,
  BASE_ALIGNMENT = 64,
};
/* Freed bytes kept for reuse at most (GOOGLE_MLIR_POOL_LIMIT); the rest
 * goes back to the system. */
static const uint64_t default_cached_bytes = (uint64_t)256 << 20;
static uint64_t max_cached_bytes; /* read on first use */
static bool limit_read;

typedef struct free_block {
  struct free_block *next;
} free_block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_block *free_lists[NUM_CLASSES];
/* Live blocks: (size << 1) | pooled, where size is the class size, or the
 * exact size of an unpooled block. */
static ptrmap blocks;
static google_rt_pool_stats stats;

/* Blocks allocated by the compiled function running on this thread: the
 * first ones inline, the rest in a heap array that grows (and is freed when
 * the call ends). */
enum { INLINE_TRACKED = 64 };
static _Thread_local struct {
  bool active;
  size_t count, capacity;
  void *inline_blocks[INLINE_TRACKED];
  void **blocks;
} tracked;

bool google_rt_pool_track(void *pointer) {
  if (!tracked.active || !pointer)
    return true;
  if (!tracked.blocks) {
    tracked.blocks = tracked.inline_blocks;
    tracked.capacity = INLINE_TRACKED;
  }
  if (tracked.count == tracked.capacity) {
    size_t capacity = tracked.capacity * 2;
    void **grown = malloc(capacity * sizeof(void *));
    if (!grown)
      return false;
    memcpy(grown, tracked.blocks, tracked.count * sizeof(void *));
    if (tracked.blocks != tracked.inline_blocks)
      free(tracked.blocks);
    tracked.blocks = grown;
    tracked.capacity = capacity;
  }
  tracked.blocks[tracked.count++] = pointer;
  return true;
}

void google_rt_pool_untrack(void *pointer) {
  if (!tracked.active)
    return;
  for (size_t i = tracked.count; i-- > 0;) {
    if (tracked.blocks[i] == pointer) {
      tracked.blocks[i] = tracked.blocks[--tracked.count];
      return;
    }
  }
}

static int size_class(size_t size) {
  int c = MIN_CLASS;
  while (c < NUM_CLASSES && ((size_t)1 << c) < size)
    ++c;
  return c;
}

void *google_rt_pool_alloc(size_t size, size_t alignment) {
  if (size == 0)
    size = 1;
  bool pooled = alignment <= BASE_ALIGNMENT;
  int c = size_class(size);
  if (c >= NUM_CLASSES)
    return NULL;
  size_t block_size = pooled ? (size_t)1 << c : size;
  pthread_mutex_lock(&lock);
  void *pointer = NULL;
  if (pooled && free_lists[c]) {
    free_block *block = free_lists[c];
    free_lists[c] = block->next;
    pointer = block;
    stats.bytes_cached -= block_size;
    ++stats.reused_allocations;
  } else {
    size_t align = pooled ? BASE_ALIGNMENT : alignment;
    if (posix_memalign(&pointer, align, block_size) != 0)
      pointer = NULL;
    if (pointer)
      ++stats.system_allocations;
  }
  if (pointer &&
      !ptrmap_insert(&blocks, pointer, ((uint64_t)block_size << 1) | pooled)) {
    free(pointer);
    pointer = NULL;
  }
  if (pointer)
    stats.bytes_in_use += block_size;
  pthread_mutex_unlock(&lock);
  return pointer;
}

google_rt_status google_rt_read_pool_limit(uint64_t *bytes) {
  const char *text = getenv("GOOGLE_MLIR_POOL_LIMIT");
  *bytes = default_cached_bytes;
  if (!text || !*text)
    return NULL;
  char *end;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  unsigned shift = 0;
  switch (*end) {
  case 'K': case 'k': shift = 10; ++end; break;
  case 'M': case 'm': shift = 20; ++end; break;
  case 'G': case 'g': shift = 30; ++end; break;
  default: break;
  }
  if (errno || *end || text[0] == '-' || end == text ||
      value > (UINT64_MAX >> shift))
    return google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "GOOGLE_MLIR_POOL_LIMIT must be a byte count (with an optional K, M "
        "or G suffix), got '%s'",
        text);
  *bytes = (uint64_t)value << shift;
  return NULL;
}

/* The limit, read once (under `lock`); an invalid value is reported by
 * module loads and means the default here. */
static uint64_t cached_bytes_limit(void) {
  if (!limit_read) {
    google_rt_status invalid = google_rt_read_pool_limit(&max_cached_bytes);
    if (invalid) {
      google_rt_status_free(invalid);
      max_cached_bytes = default_cached_bytes;
    }
    limit_read = true;
  }
  return max_cached_bytes;
}

bool google_rt_pool_free(void *pointer) {
  if (!pointer)
    return false;
  pthread_mutex_lock(&lock);
  ptrmap_entry *slot = ptrmap_find(&blocks, pointer);
  if (!slot) {
    pthread_mutex_unlock(&lock);
    return false;
  }
  size_t size = (size_t)(slot->value >> 1);
  bool pooled = slot->value & 1;
  ptrmap_erase(&blocks, slot);
  stats.bytes_in_use -= size;
  if (pooled && stats.bytes_cached + size <= cached_bytes_limit()) {
    int c = size_class(size);
    free_block *block = pointer;
    block->next = free_lists[c];
    free_lists[c] = block;
    stats.bytes_cached += size;
    pointer = NULL;
  }
  pthread_mutex_unlock(&lock);
  free(pointer);
  return true;
}

/* A block of the host pool or, failing that, of a device pool. The
 * compiled code never frees foreign memory. */
static void free_any_block(void *pointer) {
  if (!google_rt_pool_free(pointer))
    google_rt_device_pool_free(pointer);
}

bool google_rt_pool_owns(const void *pointer) {
  pthread_mutex_lock(&lock);
  bool owned = ptrmap_find(&blocks, pointer) != NULL;
  pthread_mutex_unlock(&lock);
  return owned;
}

void google_rt_pool_get_stats(google_rt_pool_stats *out) {
  pthread_mutex_lock(&lock);
  *out = stats;
  pthread_mutex_unlock(&lock);
}

void google_rt_pool_trim(void) {
  pthread_mutex_lock(&lock);
  for (int c = 0; c < NUM_CLASSES; ++c) {
    while (free_lists[c]) {
      free_block *block = free_lists[c];
      free_lists[c] = block->next;
      free(block);
    }
  }
  stats.bytes_cached = 0;
  pthread_mutex_unlock(&lock);
}

google_rt_status google_rt_tensor_bytes(google_rt_dtype dtype, int32_t rank,
                                        const int64_t *shape,
                                        uint64_t *bytes) {
  if (rank < 0 || rank > GOOGLE_RT_MAX_RANK)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "rank %d is outside [0, %d]", (int)rank,
                                 GOOGLE_RT_MAX_RANK);
  size_t element_size = google_rt_dtype_size(dtype);
  if (element_size == 0)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "unknown dtype %d", (int)dtype);
  *bytes = element_size;
  for (int32_t i = 0; i < rank; ++i) {
    if (shape[i] < 0)
      return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                   "dimension %d is negative", (int)i);
    if (shape[i] && *bytes > (UINT64_MAX >> 1) / (uint64_t)shape[i])
      return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY,
                                   "tensor size overflows");
    *bytes *= (uint64_t)shape[i];
  }
  return NULL;
}

google_rt_status google_rt_tensor_alloc(google_rt_dtype dtype, int32_t rank,
                                        const int64_t *shape,
                                        google_rt_tensor *tensor) {
  uint64_t bytes;
  google_rt_status status = google_rt_tensor_bytes(dtype, rank, shape, &bytes);
  if (status)
    return status;
  google_rt_tensor_view(dtype, rank, shape, NULL, tensor);
  void *data = google_rt_pool_alloc((size_t)bytes, BASE_ALIGNMENT);
  if (!data)
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY,
                                 "cannot allocate %llu bytes",
                                 (unsigned long long)bytes);
  tensor->data = data;
  tensor->buffer = data;
  return NULL;
}

void google_rt_tensor_release(google_rt_tensor *tensor) {
  if (!tensor || !tensor->buffer)
    return;
  free_any_block(tensor->buffer);
  tensor->buffer = NULL;
  tensor->data = NULL;
}

/*===----------------------------------------------------------------------===*
 * Functions the compiled code calls (finalize-memref-to-llvm with generic
 * allocation functions, and memref.copy of strided memrefs).
 *===----------------------------------------------------------------------===*/

void google_rt_pool_begin_tracking(void) {
  tracked.active = true;
  tracked.count = 0;
}

void google_rt_pool_end_tracking(bool release) {
  tracked.active = false;
  if (release)
    for (size_t i = 0; i < tracked.count; ++i)
      free_any_block(tracked.blocks[i]);
  tracked.count = 0;
  if (tracked.blocks != tracked.inline_blocks)
    free(tracked.blocks);
  tracked.blocks = NULL;
  tracked.capacity = 0;
}

static pthread_once_t poison_once = PTHREAD_ONCE_INIT;
static bool poison;

static void read_poison(void) {
  const char *text = getenv("GOOGLE_MLIR_POISON_BUFFERS");
  poison = text && strcmp(text, "1") == 0;
}

bool google_rt_poison_buffers(void) {
  pthread_once(&poison_once, read_poison);
  return poison;
}

/* A block for the compiled code, or the end of its call: compiled code
 * does not check for NULL. */
static void *allocate_for_compiled_code(size_t size, size_t alignment) {
  void *pointer = google_rt_pool_alloc(size, alignment);
  if (!pointer)
    google_rt_fail_call(GOOGLE_RT_OUT_OF_MEMORY,
                        "cannot allocate %zu bytes for a buffer of the "
                        "compiled code",
                        size);
  if (!google_rt_pool_track(pointer)) {
    google_rt_pool_free(pointer);
    google_rt_fail_call(GOOGLE_RT_OUT_OF_MEMORY,
                        "out of memory (recording the call's buffers)");
  }
  if (google_rt_poison_buffers())
    memset(pointer, GOOGLE_RT_POISON_BYTE, size);
  return pointer;
}

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return allocate_for_compiled_code(size, BASE_ALIGNMENT);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return allocate_for_compiled_code(size, alignment);
}

/* GPU modules free device buffers through this hook too. */
void _mlir_memref_to_llvm_free(void *pointer) {
  google_rt_pool_untrack(pointer);
  free_any_block(pointer);
}

void memrefCopy(int64_t element_size, google_rt_unranked_memref *source,
                google_rt_unranked_memref *destination) {
  int32_t rank = (int32_t)source->rank;
  const google_rt_memref_head *src = source->descriptor;
  const google_rt_memref_head *dst = destination->descriptor;
  const int64_t *src_sizes = (const int64_t *)(src + 1);
  const int64_t *dst_sizes = (const int64_t *)(dst + 1);
  google_rt_strided_copy(
      (size_t)element_size, rank, src_sizes,
      (const char *)src->aligned + src->offset * element_size, src_sizes + rank,
      (char *)dst->aligned + dst->offset * element_size, dst_sizes + rank);
}
