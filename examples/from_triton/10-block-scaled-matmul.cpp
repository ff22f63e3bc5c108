/// @file 10-block-scaled-matmul.cpp
/// Block-scaled matmul, Triton's tutorial 10 (kernels/block_scaled_matmul.hpp): C = A x Bᵀ for
/// the tutorial's four formats, through `tk::dot_scaled`: MXFP8 x MXFP8, MXFP4 x MXFP4 and the
/// mix (fp8 activations, fp4 weights), every run of 32 values along K scaled by an e8m0 exponent,
/// and NVFP4, e2m1 with an e4m3 scale for every run of 16. Checks C against a double reference
/// that decodes the formats itself.
#include "example_support.hpp"
#include "kernels/block_scaled_matmul.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

/// An e2m1 value from its four bits: sign, two exponent bits, one mantissa bit.
double e2m1(unsigned bits) {
  static constexpr double magnitude[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (bits & 8 ? -1 : 1) * magnitude[bits & 7];
}

/// A matrix of R x K values of `format` as the kernel takes it (bytes, e2m1 two to a byte), its
/// scales' bytes and the values it stands for, in double. The scales are e8m0 exponents, one for
/// each run of `vec` = 32 values along K, or e4m3 values, one for each run of `vec` = 16.
struct mx_matrix {
  std::vector<std::uint8_t> bytes, scales;
  std::vector<double> values;

  mx_matrix(int rows, int K, tk::mx_format format, int vec, example::uniform &random) {
    const bool fp4 = format == tk::mx_format::e2m1;
    bytes.resize(std::size_t(rows) * std::size_t(fp4 ? K / 2 : K));
    scales.resize(std::size_t(rows) * std::size_t(K / vec));
    values.resize(std::size_t(rows) * std::size_t(K));
    // 2^-3 .. 2^3; as e4m3, (1 + m / 8) 2^(e - 7) for exponent fields e of 4 .. 10.
    for (auto &s : scales)
      s = vec == 32 ? std::uint8_t(124 + int(random() * 7))
                    : std::uint8_t((4 + int(random() * 7)) << 3 | int(random() * 8));
    for (auto &b : bytes)
      b = std::uint8_t(random() * 256);
    for (int r = 0; r < rows; ++r)
      for (int k = 0; k < K; ++k) {
        double v;
        if (fp4) {
          const std::uint8_t byte = bytes[std::size_t(r) * std::size_t(K / 2) + std::size_t(k / 2)];
          v = e2m1(k % 2 ? byte >> 4 : byte & 15u);
        } else {
          std::uint8_t &byte = bytes[std::size_t(r) * std::size_t(K) + std::size_t(k)];
          if ((byte & 0x7F) == 0x7F) // e4m3's NaN: keep the data finite
            byte &= 0xFE;
          v = double(float(std::bit_cast<tk::f8e4m3>(byte)));
        }
        const std::uint8_t s = scales[std::size_t(r) * std::size_t(K / vec) + std::size_t(k / vec)];
        values[std::size_t(r) * std::size_t(K) + std::size_t(k)] =
            v * (vec == 32 ? std::ldexp(1.0, s - 127) : double(float(tk::f8e4m3::from_bits(s))));
      }
  }
};

} // namespace

int main() {
  const example::target where = example::choose_target();
  const bool gpu = where.backend == tk::backend::gpu;
  const int M = gpu ? 512 : 96, N = gpu ? 512 : 80, K = gpu ? 1024 : 128;
  const int block_m = gpu ? 128 : 64, block_n = gpu ? 128 : 64, block_k = gpu ? 128 : 64;
  struct pairing {
    const char *name;
    tk::mx_format a, b;
    int vec; // values per scale: 32 (e8m0) or 16 (e4m3)
  };
  int status = 0;
  for (const pairing p : {pairing{"mxfp8", tk::mx_format::e4m3, tk::mx_format::e4m3, 32},
                          pairing{"mxfp4", tk::mx_format::e2m1, tk::mx_format::e2m1, 32},
                          pairing{"mixed", tk::mx_format::e4m3, tk::mx_format::e2m1, 32},
                          pairing{"nvfp4", tk::mx_format::e2m1, tk::mx_format::e2m1, 16}}) {
    example::uniform random(0.f, 1.f, 10);
    mx_matrix A(M, K, p.a, p.vec, random), B(N, K, p.b, p.vec, random);
    std::vector<float> c(std::size_t(M) * N);
    example::array<std::uint8_t> a_arg(where, A.bytes), b_arg(where, B.bytes);
    example::array<float> c_arg(where, c, example::output);
    // The scales' type tells the kernel their format: e8m0 bytes, or tk::f8e4m3 for NVFP4.
    const auto launch = [&]<class S>(std::vector<S> sa, std::vector<S> sb) {
      example::array<S> sa_arg(where, sa), sb_arg(where, sb);
      return example::time_ms([&] {
        examples::block_scaled_matmul.launch(
            tk::grid(tk::cdiv(M, block_m) * tk::cdiv(N, block_n)),
            {.num_warps = gpu ? 8 : 4, .backend = where.backend}, c_arg.arg(), a_arg.input(),
            sa_arg.input(), b_arg.input(), sb_arg.input(), M, N, K, tk::constant(p.a),
            tk::constant(p.b), tk::constant(block_m), tk::constant(block_n), tk::constant(block_k));
        c_arg.fetch();
      });
    };
    const auto as_e4m3 = [](const std::vector<std::uint8_t> &bytes) {
      std::vector<tk::f8e4m3> out;
      for (std::uint8_t b : bytes)
        out.push_back(tk::f8e4m3::from_bits(b));
      return out;
    };
    const double ms =
        p.vec == 16 ? launch(as_e4m3(A.scales), as_e4m3(B.scales)) : launch(A.scales, B.scales);
    // The scaled values are exact in bf16, their products in f32: only the f32 sums round,
    // within K 2^-24 of the sum of the products' magnitudes.
    double max_error = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double sum = 0, scale = 0;
        for (int k = 0; k < K; ++k) {
          const double t = A.values[std::size_t(i) * std::size_t(K) + std::size_t(k)] *
                           B.values[std::size_t(j) * std::size_t(K) + std::size_t(k)];
          sum += t;
          scale += std::fabs(t);
        }
        const double err =
            std::fabs(double(c[std::size_t(i) * std::size_t(N) + std::size_t(j)]) - sum) /
            std::max(scale, 1e-30);
        if (std::isnan(err) || err > max_error)
          max_error = err;
      }
    status |= example::report(
        ("block_scaled_matmul " + std::string(p.name)).c_str(),
        std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K) +
            (p.vec == 16 ? ", e4m3 scales per 16 along K" : ", e8m0 scales per 32 along K"),
        where, max_error, K * std::ldexp(1.0, -24), ms);
  }
  return status;
}
