/// @file interpreter_buffers.cpp
/// Buffers as launch arguments: a std::vector or std::span (host memory, the interpreter) or a
/// tk::device_buffer (GPU memory; the interpreter runs on a host copy and copies it back) passed
/// by reference for a tk::ptr<T> parameter, with its extent known to the interpreter. Built with
/// TK_TEST_ON_GPU, the device_buffer cases run on the GPU and on the interpreter and must agree.
#include "expect_error.hpp"
#include "interpreter_support.hpp"

#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace {

auto scale = tk::jit("scale", [](tk::ptr<float> out, tk::ptr<const float> in, tk::f32 factor,
                                 tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  tk::store(out + offs, tk::load(in + offs, mask) * factor, mask);
});

std::vector<float> ramp(int n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    v[std::size_t(k)] = float(k);
  return v;
}

std::vector<float> scaled(const std::vector<float> &in, float factor) {
  std::vector<float> v(in);
  for (auto &x : v)
    x *= factor;
  return v;
}

} // namespace

TEST_CASE("interpreter: std::vector, std::span and tk::device_buffer as launch arguments",
          "[interpreter][numerics]") {
  const int n = 100;
  const auto in = ramp(n);
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> out(n, -1.0f);
    scale.interpret(tk::grid(4), out, in, 2.0f, n, tk::constant<int>(32));
    TK_CHECK_EQUAL(out, scaled(in, 2.0f));
    scale.interpret(tk::grid(4), std::span<float>(out), std::span<const float>(in), 3.0f, n,
                    tk::constant<int>(32));
    TK_CHECK_EQUAL(out, scaled(in, 3.0f));
  } else {
    tk::device_buffer<float> d_in(in), d_out(static_cast<std::size_t>(n));
    d_out.fill_bytes(0xFF);
    scale.launch(tk::grid(4), {.backend = tk::backend::gpu}, d_out, std::as_const(d_in), 2.0f, n,
                 tk::constant<int>(32));
    TK_CHECK_EQUAL(d_out.to_host(), scaled(in, 2.0f));
    // The interpreter reads a host copy of each device_buffer and writes it back afterwards.
    scale.interpret(tk::grid(4), d_out, d_in, 3.0f, n, tk::constant<int>(32));
    TK_CHECK_EQUAL(d_out.to_host(), scaled(in, 3.0f));
    CHECK(d_in.to_host() == in);
  }
}

TEST_CASE("interpreter: an access outside a tk::device_buffer or std::vector argument",
          "[interpreter][numerics]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<float> out, tk::constant<int> BLOCK) {
    line = __LINE__ + 1;
    tk::store(out + tk::arange(0, BLOCK), 1.0f);
  });
  const char *message = "tk::store: lane 100 (index [100] of the [128] block) writes out of "
                        "bounds: element 100 of launch argument 0, a buffer of 100 f32 elements";
  if constexpr (!tk_test::on_gpu) {
    std::vector<float> out(100);
    tk_test::expect_error("interpreter_buffers.cpp", line, message,
                          [&] { k.interpret(tk::grid(1), out, tk::constant<int>(128)); });
  } else {
    tk::device_buffer<float> out(100);
    tk_test::expect_error("interpreter_buffers.cpp", line, message,
                          [&] { k.interpret(tk::grid(1), out, tk::constant<int>(128)); });
  }
}
