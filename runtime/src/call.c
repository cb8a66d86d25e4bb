/*===- call.c - checking arguments and calling compiled functions ---------===*/

#include "gpu.h"
#include "module.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a failed check in the compiled code returns to, per thread. */
static _Thread_local jmp_buf *active_call;
static _Thread_local char check_message[512];
static _Thread_local google_rt_code failure_code;

/* Copies `message` into `buffer`, writing `actual` for "{0}" and
 * `expected` for "{1}"; truncates to `size`. */
static void format_check_message(const char *message, int64_t actual,
                                 int64_t expected, char *buffer,
                                 size_t size) {
  size_t used = 0;
  for (const char *p = message; *p && used + 1 < size;) {
    if (p[0] == '{' && (p[1] == '0' || p[1] == '1') && p[2] == '}') {
      int written = snprintf(buffer + used, size - used, "%lld",
                             (long long)(p[1] == '0' ? actual : expected));
      if (written < 0)
        break;
      used += (size_t)written < size - used ? (size_t)written
                                            : size - used - 1;
      p += 3;
      continue;
    }
    buffer[used++] = *p++;
  }
  buffer[used] = '\0';
}

/* Ends the running call with `check_message` as its error (outside a call:
 * prints it and aborts, as an assertion would). */
static _Noreturn void fail_call(google_rt_code code,
                                const char *what) {
  failure_code = code;
  if (active_call)
    longjmp(*active_call, 1);
  fprintf(stderr, "google-mlir: %s%s\n", what, check_message);
  abort();
}

void google_rt_check_failed(const char *message, int64_t actual,
                            int64_t expected) {
  format_check_message(message, actual, expected, check_message,
                       sizeof(check_message));
  fail_call(GOOGLE_RT_INVALID_ARGUMENT, "run-time check failed: ");
}

void google_rt_abort(const char *message) {
  fprintf(stderr, "google-mlir: run-time check failed: %s\n", message);
  abort();
}

void google_rt_fail_call(google_rt_code code, const char *format,
                         ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(check_message, sizeof(check_message), format, args);
  va_end(args);
  fail_call(code, "");
}

/* Runs the compiled entry; false with `*message` set when a check failed,
 * after freeing what the compiled code had allocated. */
static bool invoke(void (*entry)(void **), void **packed,
                   const char **message) {
  jmp_buf jump;
  jmp_buf *previous = active_call;
  if (setjmp(jump)) {
    active_call = previous;
    google_rt_pool_end_tracking(/*release=*/true);
    *message = check_message;
    return false;
  }
  active_call = &jump;
  google_rt_pool_begin_tracking();
  entry(packed);
  google_rt_pool_end_tracking(/*release=*/false);
  active_call = previous;
  return true;
}

static void format_tensor(const google_rt_tensor *tensor, char *buffer,
                          size_t size) {
  google_rt_tensor_type type = {tensor->dtype, tensor->rank, {0}};
  for (int32_t i = 0; i < tensor->rank && i < GOOGLE_RT_MAX_RANK; ++i)
    type.shape[i] = tensor->shape[i];
  google_rt_tensor_type_format(&type, buffer, size);
}

/* Checks `tensor` against `type`; `what` is "argument" or "result". */
static google_rt_status check_tensor(const google_rt_function *function,
                                     const char *what, size_t index,
                                     const google_rt_tensor_type *type,
                                     const google_rt_tensor *tensor) {
  bool matches = tensor->dtype == type->dtype && tensor->rank == type->rank;
  for (int32_t i = 0; matches && i < type->rank; ++i)
    matches = tensor->shape[i] >= 0 && (type->shape[i] == GOOGLE_RT_DYNAMIC ||
                                        type->shape[i] == tensor->shape[i]);
  if (!matches) {
    char expected[256], got[256];
    google_rt_tensor_type_format(type, expected, sizeof(expected));
    if (tensor->rank < 0 || tensor->rank > GOOGLE_RT_MAX_RANK)
      snprintf(got, sizeof(got), "a tensor of rank %d", (int)tensor->rank);
    else
      format_tensor(tensor, got, sizeof(got));
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s %s %zu: expected %s, got %s",
                                 function->name, what, index, expected, got);
  }
  if (!tensor->data && google_rt_tensor_num_elements(tensor) != 0)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s %s %zu: data is NULL", function->name,
                                 what, index);
  return NULL;
}

/* Blocks and copies in the memory of `device` (the host or the GPU of the
 * call running on this thread). */
static bool owns_block(google_rt_device device, const void *pointer) {
  return device.kind == GOOGLE_RT_DEVICE_HOST
             ? google_rt_pool_owns(pointer)
             : google_rt_device_pool_owns(pointer);
}

static void free_block(google_rt_device device, void *pointer) {
  if (device.kind == GOOGLE_RT_DEVICE_HOST)
    google_rt_pool_free(pointer);
  else
    google_rt_device_pool_free(pointer);
}

/* Copies between two tensors of one shape; on a GPU both must be
 * contiguous (the compiled code's results and runtime buffers are). */
static google_rt_status copy_within(google_rt_device device,
                                    const google_rt_tensor *source,
                                    google_rt_tensor *destination) {
  size_t element_size = google_rt_dtype_size(source->dtype);
  if (device.kind == GOOGLE_RT_DEVICE_HOST) {
    google_rt_strided_copy(element_size, source->rank, source->shape,
                           source->data, source->strides, destination->data,
                           destination->strides);
    return NULL;
  }
  if (!google_rt_tensor_is_contiguous(source) || !google_rt_tensor_is_contiguous(destination))
    return google_rt_make_status(GOOGLE_RT_INTERNAL,
                                 "a strided GPU tensor cannot be copied");
  return google_rt_gpu_copy(destination->data, source->data,
                            (size_t)google_rt_tensor_num_elements(source) *
                                element_size);
}

/* Writes the descriptor of a contiguous view of `data` into `descriptor`. */
static void fill_descriptor(int64_t *descriptor, void *data, int32_t rank,
                            const int64_t *shape) {
  google_rt_memref_head *head = (google_rt_memref_head *)descriptor;
  head->allocated = data;
  head->aligned = data;
  head->offset = 0;
  int64_t *sizes = descriptor + 3;
  memcpy(sizes, shape, (size_t)rank * sizeof(int64_t));
  google_rt_contiguous_strides(rank, shape, sizes + rank);
}

typedef struct call_frame {
  int64_t *descriptors;  /* all descriptors, back to back */
  void **packed;         /* the packed entry's pointer array */
  google_rt_tensor *temporaries; /* pooled copies of strided arguments */
  size_t num_temporaries;
  int64_t stack_descriptors[256];
  void *stack_packed[32];
} call_frame;

static void release_frame(call_frame *frame) {
  for (size_t i = 0; i < frame->num_temporaries; ++i)
    google_rt_tensor_release(&frame->temporaries[i]);
  free(frame->temporaries);
  if (frame->descriptors != frame->stack_descriptors)
    free(frame->descriptors);
  if (frame->packed != frame->stack_packed)
    free(frame->packed);
}

static google_rt_status init_frame(call_frame *frame,
                                   const google_rt_function *function) {
  size_t words = 0;
  for (size_t i = 0; i < function->num_args; ++i)
    words += 3 + 2 * (size_t)function->arg_types[i].rank;
  for (size_t i = 0; i < function->num_results; ++i)
    words += 3 + 2 * (size_t)function->result_types[i].rank;
  size_t pointers = function->num_args + function->num_results + 1;
  frame->temporaries = NULL;
  frame->num_temporaries = 0;
  frame->descriptors = words <= 256 ? frame->stack_descriptors
                                    : malloc(words * sizeof(int64_t));
  frame->packed =
      pointers <= 32 ? frame->stack_packed : malloc(pointers * sizeof(void *));
  if (!frame->descriptors || !frame->packed) {
    release_frame(frame);
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  }
  return NULL;
}

/* Makes a contiguous pooled copy of a strided argument. */
static google_rt_status copy_to_contiguous(call_frame *frame,
                                           const google_rt_tensor *tensor,
                                           void **data) {
  if (!frame->temporaries) {
    frame->temporaries = calloc(GOOGLE_RT_MAX_RANK * 4, sizeof(google_rt_tensor));
    if (!frame->temporaries)
      return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  }
  if (frame->num_temporaries == GOOGLE_RT_MAX_RANK * 4)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "too many strided arguments");
  google_rt_tensor *copy = &frame->temporaries[frame->num_temporaries];
  google_rt_status status =
      google_rt_tensor_alloc(tensor->dtype, tensor->rank, tensor->shape, copy);
  if (status)
    return status;
  ++frame->num_temporaries;
  google_rt_strided_copy(google_rt_dtype_size(tensor->dtype), tensor->rank,
                         tensor->shape, tensor->data, tensor->strides,
                         copy->data, copy->strides);
  *data = copy->data;
  return NULL;
}

/* Per result of a call: whether the caller provided its buffer (never
 * freed here), whether the call allocated one for it, the compiled code's
 * block behind it (to spot a block returned twice), and the buffer it is
 * computed in apart from the caller's (`apart.data` non-NULL; see
 * overlaps_earlier). */
typedef struct result_state {
  bool provided, allocated;
  const void *block;
  google_rt_tensor apart;
} result_state;

/* The bytes `tensor` spans: [*low, *high). Empty when it has no elements. */
static void byte_span(const google_rt_tensor *tensor, uintptr_t *low,
                      uintptr_t *high) {
  int64_t first = 0, last = 0;
  for (int32_t i = 0; i < tensor->rank; ++i) {
    if (tensor->shape[i] == 0) {
      *low = *high = 0;
      return;
    }
    int64_t reach = (tensor->shape[i] - 1) * tensor->strides[i];
    if (reach < 0)
      first += reach;
    else
      last += reach;
  }
  int64_t size = (int64_t)google_rt_dtype_size(tensor->dtype);
  *low = (uintptr_t)tensor->data + (uintptr_t)(first * size);
  *high = (uintptr_t)tensor->data + (uintptr_t)((last + 1) * size);
}

static bool spans_overlap(const google_rt_tensor *a,
                          const google_rt_tensor *b) {
  uintptr_t a_low, a_high, b_low, b_high;
  byte_span(a, &a_low, &a_high);
  byte_span(b, &b_low, &b_high);
  return a_low < a_high && b_low < b_high && a_low < b_high && b_low < a_high;
}

/* Whether the caller's buffer for result `index` overlaps the memory of an
 * argument or of an earlier result the caller provided. Compiled code
 * assumes its buffers distinct (it may write a result before it has read
 * an argument: a reduction starts from its fill), so such a result is
 * computed in a buffer of its own and copied over after the call. */
static bool overlaps_earlier(const google_rt_tensor *args, size_t num_args,
                             const google_rt_tensor *results, size_t index) {
  for (size_t i = 0; i < num_args; ++i)
    if (spans_overlap(&results[index], &args[i]))
      return true;
  for (size_t i = 0; i < index; ++i)
    if (results[i].data && spans_overlap(&results[index], &results[i]))
      return true;
  return false;
}

/* Takes the returned descriptor of result `index` into `result`. */

static google_rt_status take_returned(const google_rt_function *function,
                                      google_rt_device device, size_t index,
                                      const int64_t *descriptor,
                                      result_state *states,
                                      google_rt_tensor *result) {
  const google_rt_tensor_type *type = &function->result_types[index];
  const google_rt_memref_head *head = (const google_rt_memref_head *)descriptor;
  const int64_t *sizes = descriptor + 3;
  const int64_t *strides = sizes + type->rank;
  size_t element_size = google_rt_dtype_size(type->dtype);
  google_rt_tensor returned;
  memset(&returned, 0, sizeof(returned));
  returned.dtype = type->dtype;
  returned.rank = type->rank;
  returned.data = (char *)head->aligned + head->offset * (int64_t)element_size;
  memcpy(returned.shape, sizes, (size_t)type->rank * sizeof(int64_t));
  memcpy(returned.strides, strides, (size_t)type->rank * sizeof(int64_t));
  returned.device = device;
  /* A block the compiled code allocated belongs to the caller now; a result
   * aliasing an argument, a constant or an earlier result is copied. */
  bool owned = owns_block(device, head->allocated);
  for (size_t i = 0; owned && i < index; ++i)
    owned = states[i].block != head->allocated;
  google_rt_status status = check_tensor(function, "result", index, type,
                                         &returned);
  if (status) {
    states[index].block = NULL;
    if (owned)
      free_block(device, head->allocated);
    return status;
  }
  if (owned && google_rt_tensor_is_contiguous(&returned) && !result->data) {
    returned.buffer = head->allocated;
    states[index].block = head->allocated;
    *result = returned;
    return NULL;
  }
  states[index].block = owned ? head->allocated : NULL;
  if (result->data) {
    status = check_tensor(function, "result", index, type, result);
    if (!status) {
      bool same_shape = result->rank == returned.rank;
      for (int32_t i = 0; same_shape && i < returned.rank; ++i)
        same_shape = result->shape[i] == returned.shape[i];
      if (!same_shape) {
        char got[256], need[256];
        format_tensor(result, got, sizeof(got));
        format_tensor(&returned, need, sizeof(need));
        status = google_rt_make_status(
            GOOGLE_RT_INVALID_ARGUMENT,
            "@%s result %zu: the provided buffer is %s, the result is %s",
            function->name, index, got, need);
      }
    }
    if (!status)
      status = copy_within(device, &returned, result);
  } else {
    google_rt_tensor copy;
    status = google_rt_tensor_alloc_on(device, returned.dtype, returned.rank,
                                       returned.shape, &copy);
    if (!status) {
      status = copy_within(device, &returned, &copy);
      if (status)
        google_rt_tensor_release(&copy);
      else
        *result = copy;
    }
  }
  if (owned)
    free_block(device, head->allocated);
  return status;
}

/* Checks the call's arguments and caller-provided results against the
 * signature; on the host, whatever their memory. */
static google_rt_status check_call(const google_rt_function *function,
                                   const google_rt_tensor *args,
                                   size_t num_args,
                                   const google_rt_tensor *results,
                                   size_t num_results) {
  if (!function)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT, "no function");
  if (num_args != function->num_args)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s: expected %zu arguments, got %zu",
                                 function->name, function->num_args, num_args);
  if (num_results != function->num_results)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s: expected %zu results, got %zu",
                                 function->name, function->num_results,
                                 num_results);
  if ((num_args && !args) || (num_results && !results))
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s: NULL argument or result array",
                                 function->name);
  for (size_t i = 0; i < num_args; ++i) {
    google_rt_status status =
        check_tensor(function, "argument", i, &function->arg_types[i], &args[i]);
    if (status)
      return status;
  }
  for (size_t i = 0; i < num_results; ++i) {
    if (!results[i].data)
      continue;
    google_rt_status status = check_tensor(function, "result", i,
                                           &function->result_types[i],
                                           &results[i]);
    if (status)
      return status;
    if (!google_rt_tensor_is_contiguous(&results[i]))
      return google_rt_make_status(
          GOOGLE_RT_INVALID_ARGUMENT,
          "@%s result %zu: the provided buffer must be contiguous",
          function->name, i);
  }
  return NULL;
}

/* Runs `function` on tensors in the memory of `device`, where it runs. */
static google_rt_status call_on(const google_rt_function *function,
                                google_rt_device device,
                                const google_rt_tensor *args, size_t num_args,
                                google_rt_tensor *results,
                                size_t num_results) {
  call_frame frame;
  google_rt_status status = init_frame(&frame, function);
  if (status)
    return status;
  int64_t *next = frame.descriptors;
  size_t packed = 0;
  int64_t *returned = NULL;
  if (!function->results_out && num_results) {
    returned = next;
    frame.packed[packed++] = returned;
    for (size_t i = 0; i < num_results; ++i)
      next += 3 + 2 * function->result_types[i].rank;
  }
  for (size_t i = 0; i < num_args && !status; ++i) {
    void *data = args[i].data;
    /* GPU arguments were made contiguous before. */
    if (!google_rt_tensor_is_contiguous(&args[i]))
      status = copy_to_contiguous(&frame, &args[i], &data);
    fill_descriptor(next, data, args[i].rank, args[i].shape);
    frame.packed[packed++] = next;
    next += 3 + 2 * args[i].rank;
  }
  result_state stack_states[16];
  result_state *states =
      num_results <= 16 ? stack_states
                        : calloc(num_results, sizeof(result_state));
  if (!states) {
    release_frame(&frame);
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  }
  memset(states, 0, (num_results <= 16 ? 16 : num_results) *
                        sizeof(result_state));
  for (size_t i = 0; i < num_results; ++i)
    states[i].provided = results[i].data != NULL;
  if (function->results_out) {
    for (size_t i = 0; i < num_results && !status; ++i) {
      const google_rt_tensor_type *type = &function->result_types[i];
      void *data = results[i].data;
      if (!data) {
        status = google_rt_tensor_alloc_on(device, type->dtype, type->rank,
                                           type->shape, &results[i]);
        states[i].allocated = status == NULL;
        data = results[i].data;
      } else if (overlaps_earlier(args, num_args, results, i)) {
        status = google_rt_tensor_alloc_on(device, type->dtype, type->rank,
                                           type->shape, &states[i].apart);
        data = states[i].apart.data;
      }
      /* The code writes every element of its results (`data` overlaps no
       * argument). */
      if (!status && google_rt_poison_buffers()) {
        uint64_t bytes = 0;
        status = google_rt_tensor_bytes(type->dtype, type->rank, type->shape,
                                        &bytes);
        if (!status)
          status = google_rt_poison(device, data, bytes);
      }
      fill_descriptor(next, data, type->rank, type->shape);
      frame.packed[packed++] = next;
      next += 3 + 2 * type->rank;
    }
  }
  const char *check = NULL;
  if (!status && !invoke(function->entry, frame.packed, &check)) {
    status = google_rt_make_status(failure_code, "@%s: %s", function->name,
                                   check);
    returned = NULL; /* nothing valid was returned */
  }

  if (!status && returned) {
    const int64_t *descriptor = returned;
    size_t taken = 0;
    for (; taken < num_results && !status; ++taken) {
      status = take_returned(function, device, taken, descriptor, states,
                             &results[taken]);
      descriptor += 3 + 2 * function->result_types[taken].rank;
    }
    if (status) {
      /* Release what this call handed over, and the compiled code's blocks
       * not looked at yet; the caller's own buffers stay. */
      for (size_t i = 0; i + 1 < taken; ++i)
        if (!states[i].provided)
          google_rt_tensor_release(&results[i]);
      for (size_t i = taken; i < num_results; ++i) {
        const google_rt_memref_head *head =
            (const google_rt_memref_head *)descriptor;
        bool shared = false;
        for (size_t j = 0; j < taken; ++j)
          shared |= states[j].block == head->allocated;
        if (!shared && owns_block(device, head->allocated))
          free_block(device, head->allocated);
        descriptor += 3 + 2 * function->result_types[i].rank;
      }
    }
  }
  for (size_t i = 0; i < num_results; ++i) {
    if (!states[i].apart.data)
      continue;
    if (!status)
      status = copy_within(device, &states[i].apart, &results[i]);
    google_rt_tensor_release(&states[i].apart);
  }
  if (status)
    for (size_t i = 0; i < num_results; ++i)
      if (states[i].allocated)
        google_rt_tensor_release(&results[i]);
  if (states != stack_states)
    free(states);
  release_frame(&frame);
  return status;
}

/* The per-call state of a GPU function: what it is called with, and
 * where its results go. */
typedef struct staging {
  google_rt_tensor *args;    /* on the device */
  google_rt_tensor *results; /* on the device */
  bool *arg_copied;          /* args[i] is a device copy of a host tensor */
  bool *to_host;             /* results[i] is copied back to the host */
  bool *provided;            /* the caller gave results[i]'s buffer */
} staging;

static void free_staging(staging *stage, size_t num_args) {
  for (size_t i = 0; stage->arg_copied && i < num_args; ++i)
    if (stage->arg_copied[i])
      google_rt_tensor_release(&stage->args[i]);
  free(stage->args);
  free(stage->results);
  free(stage->arg_copied);
  free(stage->to_host);
  free(stage->provided);
}

/* Copies host arguments to `device` on the call's stream; device ones must
 * already be there, contiguous. */
static google_rt_status stage_args(const google_rt_function *function,
                                   google_rt_device device,
                                   const google_rt_tensor *args,
                                   size_t num_args, staging *stage) {
  char where[32], need[32];
  for (size_t i = 0; i < num_args; ++i) {
    const google_rt_tensor *arg = &args[i];
    if (arg->device.kind != GOOGLE_RT_DEVICE_HOST) {
      if (arg->device.kind != device.kind ||
          arg->device.ordinal != device.ordinal)
        return google_rt_make_status(
            GOOGLE_RT_INVALID_ARGUMENT,
            "@%s argument %zu: the tensor is on %s; the function runs on %s",
            function->name, i,
            google_rt_device_format(arg->device, where, sizeof(where)),
            google_rt_device_format(device, need, sizeof(need)));
      if (!google_rt_tensor_is_contiguous(arg))
        return google_rt_make_status(
            GOOGLE_RT_INVALID_ARGUMENT,
            "@%s argument %zu: a tensor on %s must be contiguous",
            function->name, i,
            google_rt_device_format(device, need, sizeof(need)));
      stage->args[i] = *arg;
      continue;
    }
    google_rt_status status = google_rt_tensor_alloc_on(
        device, arg->dtype, arg->rank, arg->shape, &stage->args[i]);
    if (status) {
      google_rt_status named = google_rt_make_status(
          google_rt_status_code(status), "@%s argument %zu: %s",
          function->name, i, google_rt_status_message(status));
      google_rt_status_free(status);
      return named;
    }
    stage->arg_copied[i] = true;
    size_t bytes = (size_t)google_rt_tensor_num_elements(arg) *
                   google_rt_dtype_size(arg->dtype);
    if (google_rt_tensor_is_contiguous(arg)) {
      status = google_rt_gpu_copy(stage->args[i].data, arg->data, bytes);
    } else {
      /* The driver has copied pageable memory once the copy returns. */
      google_rt_tensor packed;
      status = google_rt_tensor_alloc(arg->dtype, arg->rank, arg->shape,
                                      &packed);
      if (status)
        return status;
      google_rt_strided_copy(google_rt_dtype_size(arg->dtype), arg->rank,
                             arg->shape, arg->data, arg->strides, packed.data,
                             packed.strides);
      status = google_rt_gpu_copy(stage->args[i].data, packed.data, bytes);
      google_rt_tensor_release(&packed);
    }
    if (status)
      return status;
  }
  return NULL;
}

/* Copies the results wanted on the host there (into the caller's buffer,
 * or a new one) and releases their device buffers. */
static google_rt_status return_to_host(google_rt_tensor *results,
                                       size_t num_results, staging *stage) {
  google_rt_status status = NULL;
  for (size_t i = 0; i < num_results; ++i) {
    if (!stage->to_host[i])
      continue;
    google_rt_tensor *on_device = &stage->results[i];
    if (!status && !stage->provided[i])
      status = google_rt_tensor_alloc(on_device->dtype, on_device->rank,
                                      on_device->shape, &results[i]);
    if (!status)
      status = google_rt_gpu_copy(
          results[i].data, on_device->data,
          (size_t)google_rt_tensor_num_elements(on_device) *
              google_rt_dtype_size(on_device->dtype));
    google_rt_tensor_release(on_device);
  }
  return status;
}

/* Runs a GPU function: host arguments go to the device first, results the
 * caller wants on the host come back after. */
static google_rt_status call_on_gpu(const google_rt_function *function,
                                    google_rt_device device,
                                    const google_rt_tensor *args,
                                    size_t num_args, google_rt_tensor *results,
                                    size_t num_results,
                                    google_rt_stream *stream, bool async) {
  char where[32], need[32];
  for (size_t i = 0; i < num_results; ++i) {
    google_rt_device at = results[i].device;
    if (at.kind != GOOGLE_RT_DEVICE_HOST &&
        (at.kind != device.kind || at.ordinal != device.ordinal))
      return google_rt_make_status(
          GOOGLE_RT_INVALID_ARGUMENT,
          "@%s result %zu: the tensor is on %s; the function runs on %s",
          function->name, i, google_rt_device_format(at, where, sizeof(where)),
          google_rt_device_format(device, need, sizeof(need)));
  }
  size_t arg_slots = num_args ? num_args : 1;
  size_t result_slots = num_results ? num_results : 1;
  staging stage = {calloc(arg_slots, sizeof(google_rt_tensor)),
                   calloc(result_slots, sizeof(google_rt_tensor)),
                   calloc(arg_slots, sizeof(bool)),
                   calloc(result_slots, sizeof(bool)),
                   calloc(result_slots, sizeof(bool))};
  if (!stage.args || !stage.results || !stage.arg_copied || !stage.to_host ||
      !stage.provided) {
    free_staging(&stage, 0);
    return google_rt_make_status(GOOGLE_RT_OUT_OF_MEMORY, "out of memory");
  }
  for (size_t i = 0; i < num_results; ++i) {
    stage.provided[i] = results[i].data != NULL;
    stage.to_host[i] = results[i].device.kind == GOOGLE_RT_DEVICE_HOST;
    if (!stage.to_host[i])
      stage.results[i] = results[i];
    stage.results[i].device = device;
  }
  google_rt_status status = google_rt_gpu_call_begin(device, stream, async);
  if (status) {
    free_staging(&stage, 0);
    return status;
  }
  status = stage_args(function, device, args, num_args, &stage);
  if (!status)
    status = call_on(function, device, stage.args, num_args, stage.results,
                     num_results);
  /* call_on leaves no runtime-owned result when it fails. */
  bool have_results = status == NULL;
  if (!status)
    status = return_to_host(results, num_results, &stage);
  google_rt_status ended = google_rt_gpu_call_end(status != NULL);
  if (!status)
    status = ended;
  else
    google_rt_status_free(ended);
  for (size_t i = 0; i < num_results; ++i) {
    if (stage.provided[i])
      continue;
    if (!status && !stage.to_host[i])
      results[i] = stage.results[i];
    else if (status && have_results)
      google_rt_tensor_release(stage.to_host[i] ? &results[i]
                                                : &stage.results[i]);
  }
  free_staging(&stage, num_args);
  return status;
}

static google_rt_status call_function(const google_rt_function *function,
                                      const google_rt_tensor *args,
                                      size_t num_args,
                                      google_rt_tensor *results,
                                      size_t num_results,
                                      google_rt_stream *stream, bool async) {
  google_rt_status status =
      check_call(function, args, num_args, results, num_results);
  if (status)
    return status;
  google_rt_device device = function->module->device;
  if (device.kind == GOOGLE_RT_DEVICE_HOST) {
    for (size_t i = 0; i < num_args; ++i)
      if (args[i].device.kind != GOOGLE_RT_DEVICE_HOST)
        return google_rt_make_status(
            GOOGLE_RT_INVALID_ARGUMENT,
            "@%s argument %zu: the tensor is on a GPU; the function runs on "
            "the host",
            function->name, i);
    for (size_t i = 0; i < num_results; ++i)
      if (results[i].device.kind != GOOGLE_RT_DEVICE_HOST)
        return google_rt_make_status(
            GOOGLE_RT_INVALID_ARGUMENT,
            "@%s result %zu: the function runs on the host, not a GPU",
            function->name, i);
    return call_on(function, device, args, num_args, results, num_results);
  }
  return call_on_gpu(function, device, args, num_args, results, num_results,
                     stream, async);
}

google_rt_status google_rt_call(const google_rt_function *function,
                                const google_rt_tensor *args, size_t num_args,
                                google_rt_tensor *results,
                                size_t num_results) {
  return call_function(function, args, num_args, results, num_results, NULL,
                       false);
}

google_rt_status google_rt_call_async(const google_rt_function *function,
                                      const google_rt_tensor *args,
                                      size_t num_args,
                                      google_rt_tensor *results,
                                      size_t num_results,
                                      google_rt_stream *stream) {
  if (!stream && function && function->module->device.kind !=
                                 GOOGLE_RT_DEVICE_HOST)
    return google_rt_make_status(GOOGLE_RT_INVALID_ARGUMENT,
                                 "@%s: an asynchronous call needs a stream",
                                 function->name);
  return call_function(function, args, num_args, results, num_results, stream,
                       true);
}
