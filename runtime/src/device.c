/*===- device.c - GPUs, their memory and streams, and GPU calls -----------===*
 *
 * Device memory comes from a pool per device in power-of-two size classes,
 * like host memory. A block freed while a stream may still use it (during
 * a call) waits on that stream's pending list: the stream itself may reuse
 * it at once (its work runs in order), others only after the stream was
 * waited on.
 *
 *===----------------------------------------------------------------------===*/

#include "gpu.h"
#include "ptrmap.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  DEVICE_MIN_CLASS = 8,  /* 256 bytes, the drivers' alignment */
  DEVICE_NUM_CLASSES = 48,
  MAX_ORDINAL = 1024,
};
/* Freed device bytes kept for reuse per device, at most. */
static const uint64_t max_cached_device_bytes = (uint64_t)2 << 30;

const gpu_driver *google_rt_gpu_driver(google_rt_device_kind kind) {
  switch (kind) {
  case GOOGLE_RT_DEVICE_CUDA:
    return &google_rt_cuda_driver;
  case GOOGLE_RT_DEVICE_ROCM:
    return &google_rt_hip_driver;
  default:
    return NULL;
  }
}

const char *google_rt_device_kind_name(google_rt_device_kind kind) {
  switch (kind) {
  case GOOGLE_RT_DEVICE_HOST:
    return "host";
  case GOOGLE_RT_DEVICE_CUDA:
    return "cuda";
  case GOOGLE_RT_DEVICE_ROCM:
    return "rocm";
  }
  return "unknown";
}

const char *google_rt_device_format(google_rt_device device, char *buffer,
                                    size_t size) {
  if (device.kind == GOOGLE_RT_DEVICE_HOST)
    snprintf(buffer, size, "host");
  else
    snprintf(buffer, size, "%s:%d", google_rt_device_kind_name(device.kind),
             (int)device.ordinal);
  return buffer;
}

static bool same_device(google_rt_device a, google_rt_device b) {
  return a.kind == b.kind &&
         (a.kind == GOOGLE_RT_DEVICE_HOST || a.ordinal == b.ordinal);
}

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER;
/* Per kind: the device count once known (-1: not asked yet), and the
 * selected ordinal. */
static int32_t known_counts[3] = {1, -1, -1};
static int32_t selected[3];

static google_rt_status get_driver(google_rt_device_kind kind,
                                   const gpu_driver **driver) {
  *driver = google_rt_gpu_driver(kind);
  if (!*driver)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "unknown device kind %d", (int)kind);
  return (*driver)->init();
}

google_rt_status google_rt_device_count(google_rt_device_kind kind,
                                        int32_t *count) {
  *count = 0;
  if (kind == GOOGLE_RT_DEVICE_HOST) {
    *count = 1;
    return NULL;
  }
  pthread_mutex_lock(&device_lock);
  int32_t known = kind <= GOOGLE_RT_DEVICE_ROCM ? known_counts[kind] : -1;
  pthread_mutex_unlock(&device_lock);
  if (known >= 0) {
    *count = known;
    return NULL;
  }
  const gpu_driver *driver;
  google_rt_status status = get_driver(kind, &driver);
  if (!status)
    status = driver->device_count(count);
  if (status)
    return status;
  pthread_mutex_lock(&device_lock);
  known_counts[kind] = *count;
  pthread_mutex_unlock(&device_lock);
  return NULL;
}

/* The initialized driver of `device`, with the device current on this
 * thread; fails naming the device when there is no such GPU. */
static google_rt_status open_device(google_rt_device device,
                                    const gpu_driver **driver) {
  int32_t count;
  google_rt_status status = google_rt_device_count(device.kind, &count);
  if (status)
    return status;
  *driver = google_rt_gpu_driver(device.kind);
  if (count == 0)
    return google_rt_make_status(GOOGLE_RT_UNAVAILABLE,
                                 "no %s device found (the driver reports none)",
                                 (*driver)->name);
  if (device.ordinal < 0 || device.ordinal >= count)
    return google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "no device %s:%d: the %s driver reports %d device%s (0 to %d)",
        google_rt_device_kind_name(device.kind), (int)device.ordinal,
        (*driver)->name, (int)count, count == 1 ? "" : "s", (int)count - 1);
  return (*driver)->activate(device.ordinal);
}

google_rt_status
google_rt_device_get_properties(google_rt_device device,
                                google_rt_device_properties *properties) {
  memset(properties, 0, sizeof(*properties));
  if (device.kind == GOOGLE_RT_DEVICE_HOST) {
    snprintf(properties->name, sizeof(properties->name), "host CPU");
    properties->multiprocessors = google_rt_num_threads();
    return NULL;
  }
  const gpu_driver *driver;
  google_rt_status status = open_device(device, &driver);
  return status ? status : driver->properties(device.ordinal, properties);
}

google_rt_status google_rt_device_select(google_rt_device device) {
  if (device.kind == GOOGLE_RT_DEVICE_HOST)
    return NULL;
  const gpu_driver *driver;
  google_rt_status status = open_device(device, &driver);
  if (status)
    return status;
  pthread_mutex_lock(&device_lock);
  selected[device.kind] = device.ordinal;
  pthread_mutex_unlock(&device_lock);
  return NULL;
}

google_rt_device google_rt_device_selected(google_rt_device_kind kind) {
  google_rt_device device = {kind, 0};
  if (kind == GOOGLE_RT_DEVICE_CUDA || kind == GOOGLE_RT_DEVICE_ROCM) {
    pthread_mutex_lock(&device_lock);
    device.ordinal = selected[kind];
    pthread_mutex_unlock(&device_lock);
  }
  return device;
}

google_rt_status google_rt_gpu_open_device(google_rt_device device,
                                           const gpu_driver **driver) {
  return open_device(device, driver);
}

/*===----------------------------------------------------------------------===*
 * Streams
 *===----------------------------------------------------------------------===*/

typedef struct device_block device_block;

struct google_rt_stream_s {
  google_rt_device device;
  const gpu_driver *driver;
  void *native;
  /* Blocks freed while this stream may still read or write them. */
  device_block *pending;
  /* Made by mgpuStreamCreate outside a runtime call: mgpuStreamDestroy
   * frees it. */
  bool from_compiled_code;
};

static void release_pending(google_rt_stream *stream);

google_rt_status google_rt_stream_create(google_rt_device device,
                                         google_rt_stream **stream) {
  *stream = NULL;
  if (device.kind == GOOGLE_RT_DEVICE_HOST)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "streams are for GPUs, not the host");
  const gpu_driver *driver;
  google_rt_status status = open_device(device, &driver);
  if (status)
    return status;
  google_rt_stream *created = calloc(1, sizeof(google_rt_stream));
  if (!created)
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  created->device = device;
  created->driver = driver;
  status = driver->stream_create(&created->native);
  if (status) {
    free(created);
    return status;
  }
  *stream = created;
  return NULL;
}

google_rt_status google_rt_stream_wait(google_rt_stream *stream) {
  if (!stream)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT, "no stream");
  google_rt_status status = stream->driver->activate(stream->device.ordinal);
  if (!status)
    status = stream->driver->stream_synchronize(stream->native);
  /* Even after an error the stream's work has ended. */
  release_pending(stream);
  return status;
}

void google_rt_stream_free(google_rt_stream *stream) {
  if (!stream)
    return;
  google_rt_status_free(google_rt_stream_wait(stream));
  stream->driver->stream_destroy(stream->native);
  free(stream);
}

void *google_rt_gpu_stream_native(google_rt_stream *stream) {
  return stream->native;
}

const gpu_driver *google_rt_gpu_stream_driver(google_rt_stream *stream) {
  return stream->driver;
}

bool google_rt_gpu_stream_from_compiled_code(google_rt_stream *stream) {
  return stream->from_compiled_code;
}

void google_rt_gpu_stream_mark_from_compiled_code(google_rt_stream *stream) {
  stream->from_compiled_code = true;
}

/* Each thread's stream per GPU, for synchronous calls and copies; freed
 * when the thread exits. */
typedef struct thread_stream {
  google_rt_stream *stream;
  struct thread_stream *next;
} thread_stream;

static pthread_key_t thread_streams_key;
static pthread_once_t thread_streams_once = PTHREAD_ONCE_INIT;
static _Thread_local thread_stream *thread_streams;

static void free_thread_streams(void *list) {
  for (thread_stream *entry = list; entry;) {
    thread_stream *next = entry->next;
    google_rt_stream_free(entry->stream);
    free(entry);
    entry = next;
  }
}

static void create_thread_streams_key(void) {
  pthread_key_create(&thread_streams_key, free_thread_streams);
}

static google_rt_status get_thread_stream(google_rt_device device,
                                          google_rt_stream **stream) {
  for (thread_stream *entry = thread_streams; entry; entry = entry->next) {
    if (same_device(entry->stream->device, device)) {
      *stream = entry->stream;
      return NULL;
    }
  }
  thread_stream *entry = malloc(sizeof(thread_stream));
  if (!entry)
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  google_rt_status status = google_rt_stream_create(device, &entry->stream);
  if (status) {
    free(entry);
    return status;
  }
  pthread_once(&thread_streams_once, create_thread_streams_key);
  entry->next = thread_streams;
  thread_streams = entry;
  pthread_setspecific(thread_streams_key, thread_streams);
  *stream = entry->stream;
  return NULL;
}

/*===----------------------------------------------------------------------===*
 * Device memory
 *===----------------------------------------------------------------------===*/

struct device_block {
  void *pointer;
  size_t size; /* the class size, or the exact size of an unpooled block */
  google_rt_device device;
  bool pooled;
  device_block *next; /* on a free or pending list */
};

typedef struct device_pool {
  google_rt_device device;
  device_block *free_lists[DEVICE_NUM_CLASSES];
  uint64_t cached_bytes;
  struct device_pool *next;
} device_pool;

/* Guarded by device_lock: live blocks (pointer -> device_block *) and the
 * pools of free blocks. */
static ptrmap live_blocks;
static device_pool *pools;

/* The call running a device module on this thread. */
static _Thread_local struct {
  bool active;
  bool async;
  google_rt_stream *stream;
} gpu_call;

static int device_size_class(size_t size) {
  int c = DEVICE_MIN_CLASS;
  while (c < DEVICE_NUM_CLASSES && ((size_t)1 << c) < size)
    ++c;
  return c;
}

/* Caller holds device_lock. */
static device_pool *get_pool(google_rt_device device) {
  for (device_pool *pool = pools; pool; pool = pool->next)
    if (same_device(pool->device, device))
      return pool;
  device_pool *pool = calloc(1, sizeof(device_pool));
  if (pool) {
    pool->device = device;
    pool->next = pools;
    pools = pool;
  }
  return pool;
}

/* Takes a block of class `c` from `list`; caller holds device_lock. */
static device_block *take_block(device_block **list, google_rt_device device,
                                size_t size) {
  for (device_block **link = list; *link; link = &(*link)->next) {
    device_block *block = *link;
    if (block->size == size && same_device(block->device, device)) {
      *link = block->next;
      return block;
    }
  }
  return NULL;
}

/* Frees the cached blocks of `pool` back to the driver; caller holds
 * device_lock. */
static void trim_pool(device_pool *pool, const gpu_driver *driver) {
  for (int c = 0; c < DEVICE_NUM_CLASSES; ++c) {
    while (pool->free_lists[c]) {
      device_block *block = pool->free_lists[c];
      pool->free_lists[c] = block->next;
      driver->free(block->pointer);
      free(block);
    }
  }
  pool->cached_bytes = 0;
}

static google_rt_status allocate_block(google_rt_device device, size_t bytes,
                                       bool host_shared, void **pointer) {
  *pointer = NULL;
  const gpu_driver *driver;
  google_rt_status status = open_device(device, &driver);
  if (status)
    return status;
  int c = device_size_class(bytes ? bytes : 1);
  bool pooled = !host_shared && c < DEVICE_NUM_CLASSES;
  size_t size = pooled ? (size_t)1 << c : (bytes ? bytes : 1);
  google_rt_stream *stream =
      gpu_call.active && same_device(gpu_call.stream->device, device)
          ? gpu_call.stream
          : NULL;

  pthread_mutex_lock(&device_lock);
  device_pool *pool = get_pool(device);
  device_block *block = NULL;
  if (pooled && stream)
    block = take_block(&stream->pending, device, size);
  if (pooled && !block && pool && pool->free_lists[c]) {
    block = pool->free_lists[c];
    pool->free_lists[c] = block->next;
    pool->cached_bytes -= size;
  }
  pthread_mutex_unlock(&device_lock);

  if (!block) {
    block = calloc(1, sizeof(device_block));
    if (!block)
      return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
    status = driver->allocate(size, host_shared, &block->pointer);
    if (status && google_rt_status_code(status) == GOOGLE_RT_OUT_OF_MEMORY &&
        pool) {
      /* Cached blocks may be what the allocation lacks. */
      google_rt_status_free(status);
      pthread_mutex_lock(&device_lock);
      trim_pool(pool, driver);
      pthread_mutex_unlock(&device_lock);
      status = driver->allocate(size, host_shared, &block->pointer);
    }
    if (status) {
      free(block);
      return status;
    }
    block->size = size;
    block->device = device;
    block->pooled = pooled;
  }
  pthread_mutex_lock(&device_lock);
  bool recorded =
      ptrmap_insert(&live_blocks, block->pointer, (uint64_t)(uintptr_t)block);
  pthread_mutex_unlock(&device_lock);
  if (!recorded) {
    driver->free(block->pointer);
    free(block);
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  }
  *pointer = block->pointer;
  return NULL;
}

google_rt_status google_rt_device_pool_alloc(google_rt_device device,
                                             size_t bytes, void **pointer) {
  return allocate_block(device, bytes, false, pointer);
}

google_rt_status google_rt_device_pool_alloc_shared(google_rt_device device,
                                                    size_t bytes,
                                                    void **pointer) {
  return allocate_block(device, bytes, true, pointer);
}

/* Puts `block` on its pool's free list, or back to the driver; caller
 * holds device_lock. */
static void cache_block(device_block *block) {
  device_pool *pool = get_pool(block->device);
  const gpu_driver *driver = google_rt_gpu_driver(block->device.kind);
  if (block->pooled && pool &&
      pool->cached_bytes + block->size <= max_cached_device_bytes) {
    int c = device_size_class(block->size);
    block->next = pool->free_lists[c];
    pool->free_lists[c] = block;
    pool->cached_bytes += block->size;
    return;
  }
  driver->activate(block->device.ordinal);
  driver->free(block->pointer);
  free(block);
}

bool google_rt_device_pool_free(void *pointer) {
  pthread_mutex_lock(&device_lock);
  ptrmap_entry *entry = ptrmap_find(&live_blocks, pointer);
  if (!entry) {
    pthread_mutex_unlock(&device_lock);
    return false;
  }
  device_block *block = (device_block *)(uintptr_t)entry->value;
  ptrmap_erase(&live_blocks, entry);
  if (gpu_call.active && same_device(gpu_call.stream->device, block->device)) {
    block->next = gpu_call.stream->pending;
    gpu_call.stream->pending = block;
  } else {
    cache_block(block);
  }
  pthread_mutex_unlock(&device_lock);
  return true;
}

bool google_rt_device_pool_owns(const void *pointer) {
  pthread_mutex_lock(&device_lock);
  bool owned = ptrmap_find(&live_blocks, pointer) != NULL;
  pthread_mutex_unlock(&device_lock);
  return owned;
}

static void release_pending(google_rt_stream *stream) {
  pthread_mutex_lock(&device_lock);
  while (stream->pending) {
    device_block *block = stream->pending;
    stream->pending = block->next;
    cache_block(block);
  }
  pthread_mutex_unlock(&device_lock);
}

/*===----------------------------------------------------------------------===*
 * Calls
 *===----------------------------------------------------------------------===*/

google_rt_status google_rt_gpu_call_begin(google_rt_device device,
                                          google_rt_stream *stream,
                                          bool async) {
  const gpu_driver *driver;
  google_rt_status status = open_device(device, &driver);
  if (status)
    return status;
  if (!stream) {
    status = get_thread_stream(device, &stream);
    if (status)
      return status;
  } else if (!same_device(stream->device, device)) {
    char have[32], need[32];
    return google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "the stream is on %s; the function runs on %s",
        google_rt_device_format(stream->device, have, sizeof(have)),
        google_rt_device_format(device, need, sizeof(need)));
  }
  gpu_call.active = true;
  gpu_call.async = async;
  gpu_call.stream = stream;
  return NULL;
}

google_rt_status google_rt_gpu_call_end(bool failed) {
  google_rt_stream *stream = gpu_call.stream;
  bool wait = !gpu_call.async || failed;
  gpu_call.active = false;
  gpu_call.stream = NULL;
  return wait ? google_rt_stream_wait(stream) : NULL;
}

google_rt_stream *google_rt_gpu_call_stream(void) {
  return gpu_call.active ? gpu_call.stream : NULL;
}

google_rt_device google_rt_gpu_call_device(void) {
  google_rt_device host = {GOOGLE_RT_DEVICE_HOST, 0};
  return gpu_call.active ? gpu_call.stream->device : host;
}

bool google_rt_gpu_call_is_async(void) {
  return gpu_call.active && gpu_call.async;
}

google_rt_status google_rt_poison(google_rt_device device, void *data,
                                  uint64_t bytes) {
  if (device.kind == GOOGLE_RT_DEVICE_HOST) {
    memset(data, GOOGLE_RT_POISON_BYTE, (size_t)bytes);
    return NULL;
  }
  google_rt_stream *stream = gpu_call.stream;
  uint64_t words = bytes / 4;
  google_rt_status status = NULL;
  if (words)
    status = stream->driver->fill32(data, 0x01010101u * GOOGLE_RT_POISON_BYTE,
                                    (size_t)words, stream->native);
  if (!status && bytes % 4 >= 2)
    status = stream->driver->fill16((char *)data + 4 * words,
                                    0x0101u * GOOGLE_RT_POISON_BYTE, 1,
                                    stream->native);
  return status;
}

google_rt_status google_rt_gpu_copy(void *destination, const void *source,
                                    size_t bytes) {
  if (!bytes)
    return NULL;
  google_rt_stream *stream = gpu_call.stream;
  return stream->driver->copy(destination, source, bytes, stream->native);
}

/*===----------------------------------------------------------------------===*
 * Tensors on devices
 *===----------------------------------------------------------------------===*/

google_rt_status google_rt_tensor_alloc_on(google_rt_device device,
                                           google_rt_dtype dtype, int32_t rank,
                                           const int64_t *shape,
                                           google_rt_tensor *tensor) {
  if (device.kind == GOOGLE_RT_DEVICE_HOST)
    return google_rt_tensor_alloc(dtype, rank, shape, tensor);
  uint64_t bytes;
  google_rt_status status = google_rt_tensor_bytes(dtype, rank, shape, &bytes);
  if (status)
    return status;
  void *data;
  status = google_rt_device_pool_alloc(device, (size_t)bytes, &data);
  if (status)
    return status;
  google_rt_tensor_view(dtype, rank, shape, data, tensor);
  tensor->buffer = data;
  tensor->device = device;
  return NULL;
}

google_rt_status google_rt_tensor_copy(const google_rt_tensor *source,
                                       google_rt_tensor *destination) {
  if (!source || !destination)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT, "no tensor");
  bool same = source->dtype == destination->dtype &&
              source->rank == destination->rank && source->rank >= 0 &&
              source->rank <= GOOGLE_RT_MAX_RANK;
  for (int32_t i = 0; same && i < source->rank; ++i)
    same = source->shape[i] == destination->shape[i];
  if (!same)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "google_rt_tensor_copy: the tensors differ "
                                 "in dtype or shape");
  size_t element_size = google_rt_dtype_size(source->dtype);
  int64_t count = google_rt_tensor_num_elements(source);
  if (count == 0)
    return NULL;
  bool source_host = source->device.kind == GOOGLE_RT_DEVICE_HOST;
  bool destination_host = destination->device.kind == GOOGLE_RT_DEVICE_HOST;
  if (source_host && destination_host) {
    google_rt_strided_copy(element_size, source->rank, source->shape,
                           source->data, source->strides, destination->data,
                           destination->strides);
    return NULL;
  }
  if ((!source_host && !google_rt_tensor_is_contiguous(source)) ||
      (!destination_host && !google_rt_tensor_is_contiguous(destination)))
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "google_rt_tensor_copy: GPU tensors must be "
                                 "contiguous");
  if (!source_host && !destination_host &&
      !same_device(source->device, destination->device)) {
    char from[32], to[32];
    return google_rt_make_status(
        GOOGLE_RT_INVALID_ARGUMENT,
        "google_rt_tensor_copy: cannot copy from %s to %s directly; copy "
        "through the host",
        google_rt_device_format(source->device, from, sizeof(from)),
        google_rt_device_format(destination->device, to, sizeof(to)));
  }
  /* A strided host side goes through a contiguous host copy. */
  google_rt_tensor staging = {0};
  const void *from = source->data;
  void *to = destination->data;
  google_rt_status status = NULL;
  if ((source_host && !google_rt_tensor_is_contiguous(source)) ||
      (destination_host && !google_rt_tensor_is_contiguous(destination))) {
    status = google_rt_tensor_alloc(source->dtype, source->rank, source->shape,
                                    &staging);
    if (status)
      return status;
    if (source_host) {
      google_rt_strided_copy(element_size, source->rank, source->shape,
                             source->data, source->strides, staging.data,
                             staging.strides);
      from = staging.data;
    } else {
      to = staging.data;
    }
  }
  google_rt_device device = source_host ? destination->device : source->device;
  google_rt_stream *stream;
  status = get_thread_stream(device, &stream);
  if (!status)
    status = stream->driver->activate(device.ordinal);
  if (!status)
    status = stream->driver->copy(to, from, (size_t)count * element_size,
                                  stream->native);
  google_rt_status waited = status ? NULL : google_rt_stream_wait(stream);
  if (waited)
    status = waited;
  if (!status && to == staging.data && staging.data)
    google_rt_strided_copy(element_size, destination->rank, destination->shape,
                           staging.data, staging.strides, destination->data,
                           destination->strides);
  google_rt_tensor_release(&staging);
  return status;
}
