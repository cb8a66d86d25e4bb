/*===- types.c - element types, tensor types and strided copies -----------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  size_t size;
} dtypes[] = {
    [GOOGLE_RT_F32] = {"f32", 4}, [GOOGLE_RT_F16] = {"f16", 2},
    [GOOGLE_RT_BF16] = {"bf16", 2}, [GOOGLE_RT_F64] = {"f64", 8},
    [GOOGLE_RT_I32] = {"i32", 4}, [GOOGLE_RT_I64] = {"i64", 8},
    [GOOGLE_RT_I1] = {"i1", 1},   [GOOGLE_RT_I8] = {"i8", 1},
};
enum { NUM_DTYPES = sizeof(dtypes) / sizeof(dtypes[0]) };

size_t google_rt_dtype_size(google_rt_dtype dtype) {
  return (unsigned)dtype < NUM_DTYPES ? dtypes[dtype].size : 0;
}

const char *google_rt_dtype_name(google_rt_dtype dtype) {
  return (unsigned)dtype < NUM_DTYPES ? dtypes[dtype].name : "unknown";
}

size_t google_rt_tensor_type_format(const google_rt_tensor_type *type,
                                    char *buffer, size_t size) {
  char text[32 + GOOGLE_RT_MAX_RANK * 21];
  size_t n = 0;
  n += (size_t)snprintf(text + n, sizeof(text) - n, "tensor<");
  for (int32_t i = 0; i < type->rank && i < GOOGLE_RT_MAX_RANK; ++i) {
    if (type->shape[i] == GOOGLE_RT_DYNAMIC)
      n += (size_t)snprintf(text + n, sizeof(text) - n, "?x");
    else
      n += (size_t)snprintf(text + n, sizeof(text) - n, "%lldx",
                            (long long)type->shape[i]);
  }
  n += (size_t)snprintf(text + n, sizeof(text) - n, "%s>",
                        google_rt_dtype_name(type->dtype));
  if (size > 0) {
    size_t copied = n < size - 1 ? n : size - 1;
    memcpy(buffer, text, copied);
    buffer[copied] = '\0';
  }
  return n;
}

bool google_rt_parse_tensor_type(const char *text, size_t length,
                                 google_rt_tensor_type *type) {
  static const char prefix[] = "tensor<";
  size_t prefix_length = sizeof(prefix) - 1;
  if (length < prefix_length + 2 || strncmp(text, prefix, prefix_length) != 0 ||
      text[length - 1] != '>')
    return false;
  const char *p = text + prefix_length;
  const char *end = text + length - 1;
  type->rank = 0;
  for (;;) {
    /* Each dimension is `?x` or `<digits>x`; the rest is the dtype. */
    const char *x = memchr(p, 'x', (size_t)(end - p));
    if (!x)
      break;
    int64_t dim;
    if (x == p + 1 && *p == '?') {
      dim = GOOGLE_RT_DYNAMIC;
    } else {
      dim = 0;
      for (const char *d = p; d < x; ++d) {
        if (*d < '0' || *d > '9' || dim > (INT64_MAX - 9) / 10)
          return false;
        dim = dim * 10 + (*d - '0');
      }
      if (x == p)
        return false;
    }
    if (type->rank >= GOOGLE_RT_MAX_RANK)
      return false;
    type->shape[type->rank++] = dim;
    p = x + 1;
  }
  for (int i = 0; i < NUM_DTYPES; ++i) {
    size_t n = strlen(dtypes[i].name);
    if ((size_t)(end - p) == n && strncmp(p, dtypes[i].name, n) == 0) {
      type->dtype = (google_rt_dtype)i;
      return true;
    }
  }
  return false;
}

void google_rt_contiguous_strides(int32_t rank, const int64_t *shape,
                                  int64_t *strides) {
  int64_t stride = 1;
  for (int32_t i = rank - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape[i] > 0 ? shape[i] : 1;
  }
}

/* Copies `count` elements `source_stride` and `destination_stride`
 * elements apart. */
static void strided_run(size_t element_size, int64_t count,
                        const char *source, int64_t source_stride,
                        char *destination, int64_t destination_stride) {
#define GOOGLE_RT_RUN(type)                                                    \
  for (int64_t j = 0; j < count; ++j)                                          \
    memcpy(destination + j * destination_stride * (int64_t)sizeof(type),      \
           source + j * source_stride * (int64_t)sizeof(type), sizeof(type));  \
  return;
  switch (element_size) {
  case 1:
    GOOGLE_RT_RUN(uint8_t)
  case 2:
    GOOGLE_RT_RUN(uint16_t)
  case 4:
    GOOGLE_RT_RUN(uint32_t)
  case 8:
    GOOGLE_RT_RUN(uint64_t)
  default:
    for (int64_t j = 0; j < count; ++j)
      memcpy(destination + j * destination_stride * (int64_t)element_size,
             source + j * source_stride * (int64_t)element_size,
             element_size);
  }
#undef GOOGLE_RT_RUN
}

void google_rt_strided_copy(size_t element_size, int32_t rank,
                            const int64_t *shape, const char *source,
                            const int64_t *source_strides, char *destination,
                            const int64_t *destination_strides) {
  for (int32_t i = 0; i < rank; ++i)
    if (shape[i] == 0)
      return;
  if (rank > 64)
    return;
  /* Extents of 1 dropped, and a dimension merged into the one before it
   * where both sides are dense across the two: a padded NHWC image with
   * C = 1 copies runs of W elements, not single elements. */
  int64_t extents[64], from[64], to[64];
  int32_t dims = 0;
  for (int32_t i = 0; i < rank; ++i) {
    if (shape[i] == 1)
      continue;
    if (dims > 0 && from[dims - 1] == source_strides[i] * shape[i] &&
        to[dims - 1] == destination_strides[i] * shape[i]) {
      extents[dims - 1] *= shape[i];
      from[dims - 1] = source_strides[i];
      to[dims - 1] = destination_strides[i];
      continue;
    }
    extents[dims] = shape[i];
    from[dims] = source_strides[i];
    to[dims] = destination_strides[i];
    ++dims;
  }
  if (dims == 0) {
    memcpy(destination, source, element_size);
    return;
  }
  /* Innermost dimension by memcpy when both sides are dense there. */
  int64_t inner = extents[dims - 1];
  bool dense_inner = from[dims - 1] == 1 && to[dims - 1] == 1;
  int64_t index[64] = {0};
  int64_t src_offset = 0, dst_offset = 0;
  for (;;) {
    if (dense_inner)
      memcpy(destination + dst_offset * (int64_t)element_size,
             source + src_offset * (int64_t)element_size,
             (size_t)inner * element_size);
    else
      strided_run(element_size, inner,
                  source + src_offset * (int64_t)element_size, from[dims - 1],
                  destination + dst_offset * (int64_t)element_size,
                  to[dims - 1]);
    int32_t d = dims - 2;
    for (; d >= 0; --d) {
      src_offset += from[d];
      dst_offset += to[d];
      if (++index[d] < extents[d])
        break;
      src_offset -= from[d] * extents[d];
      dst_offset -= to[d] * extents[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

void google_rt_tensor_view(google_rt_dtype dtype, int32_t rank,
                           const int64_t *shape, void *data,
                           google_rt_tensor *tensor) {
  memset(tensor, 0, sizeof(*tensor));
  tensor->dtype = dtype;
  tensor->rank = rank;
  tensor->data = data;
  for (int32_t i = 0; i < rank && i < GOOGLE_RT_MAX_RANK; ++i)
    tensor->shape[i] = shape[i];
  google_rt_contiguous_strides(rank, tensor->shape, tensor->strides);
}

bool google_rt_tensor_is_contiguous(const google_rt_tensor *tensor) {
  int64_t expected = 1;
  for (int32_t i = tensor->rank - 1; i >= 0; --i) {
    if (tensor->shape[i] > 1 && tensor->strides[i] != expected)
      return false;
    expected *= tensor->shape[i];
  }
  return true;
}

int64_t google_rt_tensor_num_elements(const google_rt_tensor *tensor) {
  /* An empty tensor may have huge extents: look for a zero first. */
  for (int32_t i = 0; i < tensor->rank; ++i)
    if (tensor->shape[i] == 0)
      return 0;
  int64_t count = 1;
  for (int32_t i = 0; i < tensor->rank; ++i)
    if (__builtin_mul_overflow(count, tensor->shape[i], &count))
      return INT64_MAX;
  return count;
}

/* The conversions LLVM's x86 backend calls for bf16 on CPUs without
 * AVX512-BF16 (compiler-rt's names; Debian 12's libgcc lacks them): the
 * kernels of the GPU mapping run on the host hold bf16 values. */
GOOGLE_RT_ABI __bf16 __truncsfbf2(float value);
GOOGLE_RT_ABI float __extendbfsf2(__bf16 value);

__bf16 __truncsfbf2(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t rounded;
  if ((bits & 0x7fffffffu) > 0x7f800000u) /* NaN: kept, quiet */
    rounded = (uint16_t)((bits >> 16) | 0x40u);
  else /* to nearest, ties to even */
    rounded = (uint16_t)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  __bf16 result;
  memcpy(&result, &rounded, sizeof(result));
  return result;
}

float __extendbfsf2(__bf16 value) {
  uint16_t half;
  memcpy(&half, &value, sizeof(half));
  uint32_t bits = (uint32_t)half << 16;
  float result;
  memcpy(&result, &bits, sizeof(result));
  return result;
}
