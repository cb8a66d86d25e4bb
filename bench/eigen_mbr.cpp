// eigen_mbr.cpp - relu(A * B + bias) in f32 with Eigen 3, for
// bench/matmul_bench.py: reads A (MxK), B (KxN) and bias (N) as raw
// row-major f32 files, runs CALLS times on THREADS threads (Eigen's
// OpenMP), writes the last result and prints the median seconds per call.
//
//   eigen_mbr M K N CALLS THREADS a.bin b.bin bias.bin out.bin
#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

using Matrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

static bool read(const char *path, float *data, size_t count) {
  std::ifstream in(path, std::ios::binary);
  return bool(in.read(reinterpret_cast<char *>(data), count * sizeof(float)));
}

int main(int argc, char **argv) {
  if (argc != 10) {
    std::fprintf(stderr, "usage: eigen_mbr M K N CALLS THREADS a b bias out\n");
    return 2;
  }
  long m = std::atol(argv[1]), k = std::atol(argv[2]), n = std::atol(argv[3]);
  int calls = std::atoi(argv[4]);
  Eigen::setNbThreads(std::atoi(argv[5]));
  Matrix a(m, k), b(k, n), out(m, n);
  Eigen::RowVectorXf bias(n);
  if (!read(argv[6], a.data(), m * k) || !read(argv[7], b.data(), k * n) ||
      !read(argv[8], bias.data(), n)) {
    std::fprintf(stderr, "eigen_mbr: cannot read the inputs\n");
    return 1;
  }
  std::vector<double> times;
  for (int i = 0; i <= calls; ++i) {
    auto start = std::chrono::steady_clock::now();
    out.noalias() = a * b;
    out = (out.rowwise() + bias).cwiseMax(0.0f);
    std::chrono::duration<double> time =
        std::chrono::steady_clock::now() - start;
    if (i) // the first call warms up
      times.push_back(time.count());
  }
  std::ofstream result(argv[9], std::ios::binary);
  result.write(reinterpret_cast<const char *>(out.data()),
               m * n * sizeof(float));
  std::nth_element(times.begin(), times.begin() + times.size() / 2,
                   times.end());
  std::printf("%.9g\n", times[times.size() / 2]);
  return 0;
}
