/// @file basics.cpp
/// docs/writing-kernels.md: a first kernel, kernel parameters, generic kernels.
#include "doc_examples.hpp"

#include <cstdint>
#include <vector>

namespace {

// [snippet:vector_add]
auto add = tk::jit("add", [](tk::ptr<float> out, tk::ptr<const float> a, tk::ptr<const float> b,
                             tk::i32 n, tk::constant<int> BLOCK) {
  auto pid = tk::program_id(0);                   // which program instance am I?
  auto offs = pid * BLOCK + tk::arange(0, BLOCK); // the BLOCK elements it handles
  auto mask = offs < n;                           // the last block may run past the end
  auto x = tk::load(a + offs, mask);
  auto y = tk::load(b + offs, mask);
  tk::store(out + offs, x + y, mask);
});
// [/snippet]

// [snippet:vector_add_gpu]
// On the GPU: copy the inputs to device memory, launch, copy the result back.
[[maybe_unused]] std::vector<float> add_on_gpu(const std::vector<float> &a,
                                               const std::vector<float> &b) {
  const int n = int(a.size());
  tk::device_buffer<float> da(a), db(b), dout(a.size());
  add.launch(tk::grid(tk::cdiv(n, 256)), dout.data(), da.data(), db.data(), n, 256);
  return dout.to_host(); // waits for the launch (on the default stream)
}
// [/snippet]

// [snippet:saxpy]
// out = alpha * x + y: a pointer to write, pointers to read, two run-time scalars and a
// trace-time constant.
auto saxpy = tk::jit("saxpy", [](tk::ptr<float> out, tk::ptr<const float> x, tk::ptr<const float> y,
                                 tk::f32 alpha, tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto xv = tk::load(x + offs, mask);
  auto yv = tk::load(y + offs, mask);
  tk::store(out + offs, alpha * xv + yv, mask);
});
// [/snippet]

// [snippet:generic]
// `auto` parameters take their types from the launch arguments: float* -> tk::ptr<float>,
// const tk::half* -> tk::ptr<const tk::half>, int -> tk::i32, double -> tk::f64, ...
auto scale = tk::jit("scale", [](auto out, auto in, auto factor, auto n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  auto x = tk::load(in + offs, mask);
  tk::store(out + offs, x * factor, mask); // converted to out's element type
});
// [/snippet]

} // namespace

DOC_EXAMPLE("basics.vector_add") {
  // [snippet:vector_add_launch]
  const int n = 1000;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), out(n);
  constexpr int BLOCK = 256;
  add.launch(tk::grid(tk::cdiv(n, BLOCK)), {.backend = tk::backend::interpreter}, out.data(),
             a.data(), b.data(), n, BLOCK);
  // [/snippet]
  for (float v : out)
    doc::check(v == 3.0f, "1 + 2 == 3");
}

DOC_EXAMPLE("basics.saxpy") {
  const int n = 300;
  std::vector<float> x(n), y(n), out(n);
  for (int i = 0; i < n; ++i) {
    x[std::size_t(i)] = float(i);
    y[std::size_t(i)] = 1.0f;
  }
  // [snippet:saxpy_launch]
  saxpy.interpret(tk::grid(tk::cdiv(n, 128)), out.data(), x.data(), y.data(), 2.0f, n, 128);
  // [/snippet]
  for (int i = 0; i < n; ++i)
    doc::check(out[std::size_t(i)] == 2.0f * float(i) + 1.0f, "saxpy");
}

DOC_EXAMPLE("basics.generic") {
  const int n = 100;
  std::vector<float> xf(n, 1.5f), yf(n);
  std::vector<tk::half> xh(n, tk::half(1.5)), yh(n);
  // [snippet:generic_launch]
  // Two specializations of one kernel: f32 buffers with an f32 factor, f16 buffers with an
  // f32 factor (x * factor is computed in f32, then stored as f16). A tk::constant must be
  // passed as one: a plain int would select tk::i32.
  const float *in_f = xf.data();
  const tk::half *in_h = xh.data();
  scale.interpret(tk::grid(1), yf.data(), in_f, 2.0f, n, tk::constant<int>(128));
  scale.interpret(tk::grid(1), yh.data(), in_h, 2.0f, n, tk::constant<int>(128));
  // [/snippet]
  for (int i = 0; i < n; ++i) {
    doc::check(yf[std::size_t(i)] == 3.0f, "f32 specialization");
    doc::check(float(yh[std::size_t(i)]) == 3.0f, "f16 specialization");
  }
}

DOC_EXAMPLE("basics.errors") {
  // [snippet:errors]
  auto bad = tk::jit("bad", [](tk::ptr<float> out) {
    auto offs = tk::arange(0, 100); // not a power of two
    tk::store(out + offs, 0.0f);
  });
  float buffer[128];
  std::string message;
  try {
    bad.interpret(tk::grid(1), buffer);
  } catch (const tk::error &e) {
    // e.what():  ".../basics.cpp:<line>:<column>: error: tk::arange(0, 100): the range holds
    //             100 values, which is not a power of two; ..."
    // e.where(): the std::source_location of the tk::arange call
    message = e.message(); // the same, without the location
  }
  // [/snippet]
  doc::check(message.find("power of two") != std::string::npos, message);
}
