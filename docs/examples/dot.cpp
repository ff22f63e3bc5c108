/// @file dot.cpp
/// docs/writing-kernels.md: tk::dot, tk::dot_scaled and a matmul main loop.
#include "doc_examples.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

// [snippet:matmul]
// C[M, N] = A[M, K] x B[K, N], row-major, f16 inputs, f32 accumulation; one BM x BN tile of C
// per program. M, N, K are multiples of the block sizes here (mask the edges otherwise).
auto matmul =
    tk::jit("matmul", [](tk::ptr<float> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                         tk::i32 M, tk::i32 N, tk::i32 K, tk::constant<int> BM,
                         tk::constant<int> BN, tk::constant<int> BK) {
      auto rm = tk::program_id(0) * BM + tk::arange(0, BM);
      auto rn = tk::program_id(1) * BN + tk::arange(0, BN);
      auto rk = tk::arange(0, BK);
      auto a_ptrs = a + rm(tk::_, tk::newaxis) * K + rk(tk::newaxis, tk::_); // [BM, BK]
      auto b_ptrs = b + rk(tk::_, tk::newaxis) * N + rn(tk::newaxis, tk::_); // [BK, BN]
      auto acc = tk::zeros<float>({BM, BN});
      tk::for_range(0, K, BK, [&] {
        acc = tk::dot(tk::load(a_ptrs), tk::load(b_ptrs), acc); // acc += a_tile x b_tile
        a_ptrs += BK;                                           // next tiles along K
        b_ptrs += BK * N;
      });
      tk::store(c + rm(tk::_, tk::newaxis) * N + rn(tk::newaxis, tk::_), acc);
      (void)M;
    });
// [/snippet]

// [snippet:dot_precision]
auto dots = tk::jit("dots", [](tk::ptr<float> out, tk::ptr<const float> a,
                               tk::ptr<std::int32_t> iout, tk::ptr<const std::int8_t> ia) {
  auto offs = tk::arange(0, 16)(tk::_, tk::newaxis) * 16 + tk::arange(0, 16); // [16, 16]
  auto x = tk::load(a + offs);
  auto fast = tk::dot(x, x);                               // f32 inputs rounded to TF32
  auto close = tk::dot(x, x, tk::input_precision::tf32x3); // three TF32 passes
  auto exact = tk::dot(x, x, tk::input_precision::ieee);   // full f32 products
  tk::store(out + offs, exact - fast);
  tk::store(out + 256 + offs, exact - close);
  auto q = tk::load(ia + offs);
  tk::store(iout + offs, tk::dot(q, q)); // i8 x i8 -> i32, exact
});
// [/snippet]

// [snippet:dot_fp8]
// fp8 inputs (here e4m3 activations and e5m2 weights, given N x K: K contiguous, which the
// sm_90 tensor cores need for 8-bit operands) accumulate in f32; the products are exact.
auto fp8_dot = tk::jit(
    "fp8_dot", [](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> x, tk::ptr<const tk::f8e5m2> w_t) {
      auto r = tk::arange(0, 32);
      auto k = tk::arange(0, 64);
      auto a = tk::load(x + r(tk::_, tk::newaxis) * 64 + k(tk::newaxis, tk::_));   // [32, 64]
      auto b = tk::load(w_t + k(tk::_, tk::newaxis) + r(tk::newaxis, tk::_) * 64); // [64, 32]
      tk::store(out + r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_), tk::dot(a, b));
    });
// [/snippet]

// [snippet:dot_batched]
// Four [16, 32] x [32, 16] products at once (one per head, say), f16 in and f16 out: Triton's
// batched tl.dot with out_dtype=tl.float16.
auto batched = tk::jit(
    "batched", [](tk::ptr<tk::half> out, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b) {
      auto h = tk::arange(0, 4)(tk::_, tk::newaxis, tk::newaxis);    // [4, 1, 1]
      auto r16 = tk::arange(0, 16)(tk::newaxis, tk::_, tk::newaxis); // [1, 16, 1]
      auto r32 = tk::arange(0, 32)(tk::newaxis, tk::_, tk::newaxis); // [1, 32, 1]
      auto c16 = tk::arange(0, 16)(tk::newaxis, tk::newaxis, tk::_); // [1, 1, 16]
      auto c32 = tk::arange(0, 32)(tk::newaxis, tk::newaxis, tk::_); // [1, 1, 32]
      auto x = tk::load(a + h * 512 + r16 * 32 + c32);               // [4, 16, 32]
      auto y = tk::load(b + h * 512 + r32 * 16 + c16);               // [4, 32, 16]
      tk::store(out + h * 256 + r16 * 16 + c16, tk::dot<tk::half>(x, y));
    });
// [/snippet]

// [snippet:dot_scaled]
// An MXFP4 weight (e2m1, two values to a byte, packed along K) times fp8 activations, each run
// of 32 along K of both scaled by an e8m0 exponent: Triton's tl.dot_scaled.
auto mx_dot = tk::jit("mx_dot", [](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> x,
                                   tk::ptr<const std::uint8_t> x_scale,
                                   tk::ptr<const std::uint8_t> w, // [K / 2, N] bytes
                                   tk::ptr<const std::uint8_t> w_scale) {
  auto r = tk::arange(0, 32), k = tk::arange(0, 64);
  auto a = tk::load(x + r(tk::_, tk::newaxis) * 64 + k(tk::newaxis, tk::_));  // [32, 64]
  auto sa = tk::load(x_scale + r(tk::_, tk::newaxis) * 2 + tk::arange(0, 2)); // [32, 64 / 32]
  auto b = tk::load(w + tk::arange(0, 32)(tk::_, tk::newaxis) * 32 + r);      // [64 / 2, 32]
  auto sb = tk::load(w_scale + r(tk::_, tk::newaxis) * 2 + tk::arange(0, 2)); // [N, 64 / 32]
  auto c = tk::dot_scaled(a, sa, tk::mx_format::e4m3, b, sb, tk::mx_format::e2m1);
  tk::store(out + r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_), c);
});
// [/snippet]

// [snippet:nvfp4]
// NVFP4: e2m1 on both sides, each run of 16 along K scaled by an f8e4m3 value. The scales'
// type is what says so.
auto nvfp4_dot = tk::jit("nvfp4_dot", [](tk::ptr<float> out, tk::ptr<const std::uint8_t> a,
                                         tk::ptr<const tk::f8e4m3> a_scale,
                                         tk::ptr<const std::uint8_t> b, // [K / 2, N] bytes
                                         tk::ptr<const tk::f8e4m3> b_scale) {
  auto r = tk::arange(0, 32);
  auto s = tk::arange(0, 4)(tk::newaxis, tk::_);
  auto x = tk::load(a + r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_)); // [32, 64 / 2]
  auto y = tk::load(b + r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_)); // [64 / 2, 32]
  auto sx = tk::load(a_scale + r(tk::_, tk::newaxis) * 4 + s);               // [32, 64 / 16]
  auto sy = tk::load(b_scale + r(tk::_, tk::newaxis) * 4 + s);               // [N, 64 / 16]
  auto c = tk::dot_scaled(x, sx, tk::mx_format::e2m1, y, sy, tk::mx_format::e2m1);
  tk::store(out + r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_), c);
});
// [/snippet]

} // namespace

DOC_EXAMPLE("dot.matmul") {
  const int M = 32, N = 32, K = 64;
  std::vector<tk::half> a(std::size_t(M * K)), b(std::size_t(K * N));
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      a[std::size_t(i * K + k)] = tk::half(double((i + k) % 5 - 2));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j)
      b[std::size_t(k * N + j)] = tk::half(double((k * j) % 3 - 1));
  std::vector<float> c(std::size_t(M * N));
  // [snippet:matmul_launch]
  matmul.interpret(tk::grid(M / 16, N / 16), c.data(), a.data(), b.data(), M, N, K, 16, 16, 16);
  // [/snippet]
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int k = 0; k < K; ++k)
        want += float(a[std::size_t(i * K + k)]) * float(b[std::size_t(k * N + j)]);
      doc::check(c[std::size_t(i * N + j)] == want, "matmul");
    }
}

DOC_EXAMPLE("dot.precision") {
  std::vector<float> a(256), out(512);
  std::vector<std::int8_t> ia(256);
  std::vector<std::int32_t> iout(256);
  for (std::size_t k = 0; k < 256; ++k) {
    a[k] = 1.0f + float(k) / 4096.0f; // more mantissa bits than TF32's 10
    ia[k] = std::int8_t(int(k % 255) - 127);
  }
  dots.interpret(tk::grid(1), out.data(), a.data(), iout.data(), ia.data());
  float tf32_error = 0, tf32x3_error = 0;
  for (std::size_t k = 0; k < 256; ++k) {
    tf32_error = std::max(tf32_error, std::fabs(out[k]));
    tf32x3_error = std::max(tf32x3_error, std::fabs(out[256 + k]));
  }
  doc::check(tf32_error > 0, "TF32 rounds the inputs");
  doc::check(tf32x3_error < tf32_error / 100, "tf32x3 is close to ieee");
  std::int32_t want = 0;
  for (int k = 0; k < 16; ++k)
    want += std::int32_t(ia[std::size_t(k)]) * std::int32_t(ia[std::size_t(k * 16)]);
  doc::check(iout[0] == want, "i8 dot");
}

DOC_EXAMPLE("dot.fp8") {
  std::vector<tk::f8e4m3> x(32 * 64);
  std::vector<tk::f8e5m2> w_t(32 * 64);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = tk::f8e4m3(float(int(i % 13) - 6) * 0.375f); // multiples of 3/8: exact in e4m3
    w_t[i] = tk::f8e5m2(float(int(i % 7) - 3) * 0.25f); // exact in e5m2
  }
  std::vector<float> out(32 * 32);
  fp8_dot.interpret(tk::grid(1), out.data(), x.data(), w_t.data());
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float want = 0;
      for (int k = 0; k < 64; ++k)
        want += float(x[std::size_t(i * 64 + k)]) * float(w_t[std::size_t(j * 64 + k)]);
      doc::check(out[std::size_t(i * 32 + j)] == want, "fp8 dot");
    }
}

DOC_EXAMPLE("dot.dot_scaled") {
  std::vector<tk::f8e4m3> x(32 * 64);
  std::vector<std::uint8_t> x_scale(32 * 2), w(32 * 32), w_scale(32 * 2);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = tk::f8e4m3(float(int(i % 9) - 4) * 0.5f);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = std::uint8_t((i * 7) % 256); // two e2m1 codes: low nibble k = 2j, high k = 2j + 1
  for (std::size_t i = 0; i < x_scale.size(); ++i) {
    x_scale[i] = std::uint8_t(126 + i % 3); // 2^-1, 2^0, 2^1
    w_scale[i] = std::uint8_t(127 - i % 2);
  }
  std::vector<float> out(32 * 32);
  mx_dot.interpret(tk::grid(1), out.data(), x.data(), x_scale.data(), w.data(), w_scale.data());
  const float fp4[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float want = 0;
      for (int k = 0; k < 64; ++k) {
        const std::uint8_t byte = w[std::size_t((k / 2) * 32 + j)];
        const float wk = fp4[k % 2 ? byte >> 4 : byte & 15] *
                         std::ldexp(1.0f, w_scale[std::size_t(j * 2 + k / 32)] - 127);
        const float xk = float(x[std::size_t(i * 64 + k)]) *
                         std::ldexp(1.0f, x_scale[std::size_t(i * 2 + k / 32)] - 127);
        want += xk * wk; // every value here is exact in bf16, every sum exact in f32
      }
      doc::check(out[std::size_t(i * 32 + j)] == want, "dot_scaled");
    }
}

DOC_EXAMPLE("dot.nvfp4") {
  std::vector<std::uint8_t> a(32 * 32), b(32 * 32);
  std::vector<tk::f8e4m3> a_scale(32 * 4), b_scale(32 * 4);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = std::uint8_t((i * 5) % 256);
    b[i] = std::uint8_t((i * 11 + 3) % 256);
  }
  for (std::size_t i = 0; i < a_scale.size(); ++i) {
    a_scale[i] = tk::f8e4m3(0.25f + 0.5f * float(i % 5)); // 0.25 .. 2.25: exact in e4m3
    b_scale[i] = tk::f8e4m3(1.5f - 0.5f * float(i % 3));
  }
  std::vector<float> out(32 * 32);
  nvfp4_dot.interpret(tk::grid(1), out.data(), a.data(), a_scale.data(), b.data(), b_scale.data());
  const float fp4[16] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6, -0.0f, -0.5f, -1, -1.5f, -2, -3, -4, -6};
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float want = 0;
      for (int k = 0; k < 64; ++k) {
        const std::uint8_t ab = a[std::size_t(i * 32 + k / 2)],
                           bb = b[std::size_t((k / 2) * 32 + j)];
        const float ak =
            fp4[k % 2 ? ab >> 4 : ab & 15] * float(a_scale[std::size_t(i * 4 + k / 16)]);
        const float bk =
            fp4[k % 2 ? bb >> 4 : bb & 15] * float(b_scale[std::size_t(j * 4 + k / 16)]);
        want += ak * bk; // exact in bf16 and f32, as above
      }
      doc::check(out[std::size_t(i * 32 + j)] == want, "nvfp4 dot_scaled");
    }
}

DOC_EXAMPLE("dot.batched") {
  std::vector<tk::half> a(4 * 16 * 32), b(4 * 32 * 16), out(4 * 16 * 16);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = tk::half(double(int(i % 5) - 2));
    b[i] = tk::half(double(int(i % 3) - 1) * 0.5);
  }
  batched.interpret(tk::grid(1), out.data(), a.data(), b.data());
  for (int h = 0; h < 4; ++h)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        float want = 0; // small integers and halves: exact in f16
        for (int k = 0; k < 32; ++k)
          want += float(a[std::size_t(h * 512 + i * 32 + k)]) *
                  float(b[std::size_t(h * 512 + k * 16 + j)]);
        doc::check(float(out[std::size_t(h * 256 + i * 16 + j)]) == want, "batched dot");
      }
}
