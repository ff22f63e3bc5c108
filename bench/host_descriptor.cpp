/// @file host_descriptor.cpp
/// Descriptors made on the host against descriptors made in the kernel: the grouped f16 matmul
/// of examples/kernels/matmul.hpp (`matmul_descriptor`, B given N x K) and the same kernel whose
/// three descriptors are tk::host_tensor_descriptor launch arguments. Both should compile to the
/// same code (the launch encodes the same tensor maps), so their times should agree. Prints one
/// line per size: TFLOP/s of each (tk::do_bench medians) and the tensor maps each kernel has.
///
///   bench_host_descriptor [SIZE...]      (default 4096 8192: M = N = K = SIZE)
#include <kernels/matmul.hpp>

#include <tk/tk.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

/// examples::matmul_descriptor with its descriptors passed in; the blocks are theirs.
auto matmul_host =
    tk::jit("matmul_host_descriptor", [](tk::tensor_descriptor<float, 2> c_desc,
                                         tk::tensor_descriptor<const tk::half, 2> a_desc,
                                         tk::tensor_descriptor<const tk::half, 2> b_desc, tk::i32 M,
                                         tk::i32 N, tk::i32 K, tk::constant<int> GROUP_M) {
      const int BLOCK_M = int(a_desc.block_shape()[0]), BLOCK_K = int(a_desc.block_shape()[1]),
                BLOCK_N = int(b_desc.block_shape()[0]);
      auto [pid_m, pid_n] =
          examples::grouped_tile(tk::program_id(0), M, N, BLOCK_M, BLOCK_N, GROUP_M);
      auto acc = tk::zeros<float>({BLOCK_M, BLOCK_N});
      tk::for_range(0, tk::cdiv(K, BLOCK_K), [&](tk::i32 k) {
        auto a_tile = a_desc.load({pid_m * BLOCK_M, k * BLOCK_K});
        auto b_tile = b_desc.load({pid_n * BLOCK_N, k * BLOCK_K});
        acc = tk::dot(a_tile, tk::trans(b_tile), acc);
      });
      c_desc.store({pid_m * BLOCK_M, pid_n * BLOCK_N}, acc);
    });

} // namespace

int main(int argc, char **argv) {
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  std::vector<int> sizes;
  for (int k = 1; k < argc; ++k)
    sizes.push_back(std::atoi(argv[k]));
  if (sizes.empty())
    sizes = {4096, 8192};
  std::printf("%s\n", tk::gpu_name().c_str());
  constexpr int BM = 128, BN = 256, BK = 64, GROUP = 8;
  const tk::launch_options o{.num_warps = 8, .num_stages = 3, .backend = tk::backend::gpu};
  for (int n : sizes) {
    const std::size_t count = std::size_t(n) * std::size_t(n);
    std::vector<tk::half> host(count);
    for (std::size_t k = 0; k < count; ++k)
      host[k] = tk::half(float(int(k % 7) - 3) / 4.0f);
    tk::device_buffer<tk::half> a(host), b(host);
    tk::device_buffer<float> c(count);
    const tk::grid g(tk::cdiv(n, BM) * tk::cdiv(n, BN));
    const tk::host_tensor_descriptor ca(std::as_const(a), {n, n}, {n, 1}, {BM, BK});
    const tk::host_tensor_descriptor cb(std::as_const(b), {n, n}, {n, 1}, {BN, BK});
    const tk::host_tensor_descriptor cc(c, {n, n}, {n, 1}, {BM, BN});
    auto in_kernel = [&] {
      examples::matmul_descriptor.launch(g, o, c.data(), std::as_const(a).data(),
                                         std::as_const(b).data(), n, n, n, tk::constant(BM),
                                         tk::constant(BN), tk::constant(BK), tk::constant(GROUP));
    };
    auto on_host = [&] { matmul_host.launch(g, o, cc, ca, cb, n, n, n, tk::constant(GROUP)); };
    const int maps_in_kernel =
        examples::matmul_descriptor
            .compiled(o, c.data(), std::as_const(a).data(), std::as_const(b).data(), n, n, n,
                      tk::constant(BM), tk::constant(BN), tk::constant(BK), tk::constant(GROUP))
            .tensor_maps;
    const int maps_on_host =
        matmul_host.compiled(o, cc, ca, cb, n, n, n, tk::constant(GROUP)).tensor_maps;
    const double flops = 2.0 * double(n) * double(n) * double(n);
    const tk::bench_result r_kernel =
        tk::do_bench(in_kernel, {.return_mode = tk::return_mode::median});
    const tk::bench_result r_host = tk::do_bench(on_host, {.return_mode = tk::return_mode::median});
    std::printf("f16 %d^3: made in the kernel %.1f TFLOP/s (%d tensor maps), made on the host %.1f "
                "TFLOP/s (%d tensor maps), ratio %.3f\n",
                n, flops / r_kernel.ms * 1e-9, maps_in_kernel, flops / r_host.ms * 1e-9,
                maps_on_host, r_kernel.ms / r_host.ms);
  }
  return 0;
}
