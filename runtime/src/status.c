/*===- status.c - errors with runtime-owned messages ----------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct google_rt_status_s {
  google_rt_code code;
  char message[];
};

/* Returned when even the status cannot be allocated. */
static struct {
  google_rt_code code;
  char message[32];
} out_of_memory_status = {GOOGLE_RT_OUT_OF_MEMORY, "out of memory"};

google_rt_status google_rt_make_status(google_rt_code code, const char *format,
                                       ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (length < 0)
    length = 0;
  struct google_rt_status_s *status =
      malloc(sizeof(struct google_rt_status_s) + (size_t)length + 1);
  if (!status) {
    va_end(args);
    return (google_rt_status)&out_of_memory_status;
  }
  status->code = code;
  vsnprintf(status->message, (size_t)length + 1, format, args);
  va_end(args);
  return status;
}

google_rt_code google_rt_status_code(google_rt_status status) {
  return status ? status->code : GOOGLE_RT_OK;
}

const char *google_rt_status_message(google_rt_status status) {
  return status ? status->message : "";
}

void google_rt_status_free(google_rt_status status) {
  if (status && status != (google_rt_status)&out_of_memory_status)
    free(status);
}
