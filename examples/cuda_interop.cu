/// @file cuda_interop.cu
/// TileKit inside a CUDA program: memory from cudaMalloc, CUDA kernels and a TileKit kernel on one
/// cudaStream_t, in stream order, then checked against plain C++.
///
///   CUDA:     x[r][c] = (r * 7 + c * 13) % 101 / 10 - 5   (fills x)
///   TileKit:  y = softmax(x), row by row                   (launch_options{.stream = stream})
///   CUDA:     y = y * cols                                 (post-processes y in place)
///
/// Built by nvcc (C++20) with the CUDA runtime linked statically, so that it runs wherever the
/// other examples run: with only the NVIDIA driver and the TileKit backend library. Without a
/// GPU, or with TK_INTERPRET=1 (the interpreter cannot run the CUDA kernels), it prints
/// `SKIPPED: <reason>` and exits 77.
#include "kernels/softmax.hpp"

#include <tk/tk.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

__global__ void fill(float *x, int rows, int cols) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols)
    x[i] = float((i / cols * 7 + i % cols * 13) % 101) / 10.0f - 5.0f;
}

__global__ void scale(float *y, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= factor;
}

int skipped(const std::string &why) {
  std::printf("SKIPPED: %s\n", why.c_str());
  return 77;
}

bool check(cudaError_t status, const char *what) {
  if (status == cudaSuccess)
    return true;
  std::fprintf(stderr, "cuda_interop: %s failed: %s\n", what, cudaGetErrorString(status));
  return false;
}

} // namespace

int main() {
  if (tk::interpret_requested())
    return skipped("TK_INTERPRET=1 asks for the CPU interpreter, which cannot run CUDA kernels");
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty())
    return skipped(why);
  int devices = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess)
    return skipped(std::string("the CUDA runtime cannot use the GPU: ") +
                   cudaGetErrorString(status));

  const int rows = 1000, cols = 781, n = rows * cols;
  float *x = nullptr, *y = nullptr;
  cudaStream_t stream = nullptr;
  if (!check(cudaMalloc(&x, sizeof(float) * n), "cudaMalloc") ||
      !check(cudaMalloc(&y, sizeof(float) * n), "cudaMalloc") ||
      !check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate"))
    return 1;

  std::vector<float> result(n);
  try {
    fill<<<(n + 255) / 256, 256, 0, stream>>>(x, rows, cols);
    if (!check(cudaGetLastError(), "fill<<<>>>"))
      return 1;
    // cudaStream_t is CUstream_st *, the stream type TileKit takes.
    examples::softmax.launch(tk::grid(rows), {.num_warps = 4, .stream = stream}, y, x, cols, cols,
                             tk::next_pow2(cols));
    scale<<<(n + 255) / 256, 256, 0, stream>>>(y, n, float(cols));
    if (!check(cudaGetLastError(), "scale<<<>>>") ||
        !check(cudaMemcpyAsync(result.data(), y, sizeof(float) * n, cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync") ||
        !check(cudaStreamSynchronize(stream), "cudaStreamSynchronize"))
      return 1;
  } catch (const tk::error &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  cudaStreamDestroy(stream);
  cudaFree(x);
  cudaFree(y);

  double max_error = 0;
  std::vector<double> row(cols);
  for (int r = 0; r < rows; ++r) {
    double largest = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      row[std::size_t(c)] = double(float((i / cols * 7 + i % cols * 13) % 101) / 10.0f - 5.0f);
      largest = std::fmax(largest, row[std::size_t(c)]);
    }
    for (double &v : row)
      sum += (v = std::exp(v - largest));
    for (int c = 0; c < cols; ++c) {
      const double expected = row[std::size_t(c)] / sum * cols;
      const double err = std::fabs(double(result[std::size_t(r * cols + c)]) - expected);
      if (std::isnan(err) || err > max_error)
        max_error = err;
    }
  }
  // Values are below ~120 (softmax * cols); f32 exp and sum over 781 columns.
  const double tolerance = 1e-4;
  std::printf("cuda_interop: %d x %d f32, CUDA fill -> TileKit softmax -> CUDA scale on one "
              "stream, on %s: max error %.3g (tolerance %.1g) %s\n",
              rows, cols, tk::gpu_name().c_str(), max_error, tolerance,
              max_error <= tolerance ? "OK" : "FAILED");
  return max_error <= tolerance ? 0 : 1;
}
