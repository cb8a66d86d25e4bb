// The runtime header compiles as C++ (runtime_test.c checks it as C).
#include "google_runtime.h"

static_assert(sizeof(google_rt_memref_head) == 24, "memref head");

int main() {
  google_rt_tensor tensor;
  int64_t shape[1] = {4};
  float data[4] = {};
  google_rt_tensor_view(GOOGLE_RT_F32, 1, shape, data, &tensor);
  return google_rt_tensor_num_elements(&tensor) == 4 ? 0 : 1;
}
