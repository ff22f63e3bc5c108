/// @file device_buffer.cpp
/// tk::device_buffer where the interpreter runs the launches: host memory when TK_INTERPRET
/// selects the interpreter as the buffer is made, or when there is no usable driver or GPU, so
/// that a program written for the GPU (allocate, upload, launch, download) runs unchanged on the
/// interpreter. GPU launches refuse such a buffer (tests/unit/errors_device_memory.cpp).
#include "expect_error.hpp"
#include "scoped_env.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr std::string_view this_file = "device_buffer.cpp";
int store_line = 0;

auto scale = tk::jit("scale", [](tk::ptr<float> out, tk::ptr<const float> in, tk::f32 factor,
                                 tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  store_line = __LINE__ + 1;
  tk::store(out + offs, tk::load(in + offs, mask) * factor, mask);
});

/// Whether a CUDA driver that can run kernels loads here (a GPU, whatever the backend).
bool driver_usable() {
  try {
    (void)tk::detail::cu::get_driver();
    return true;
  } catch (const tk::error &) {
    return false;
  }
}

std::vector<float> ramp(int n, float factor = 1.0f) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    v[std::size_t(k)] = float(k) * factor;
  return v;
}

/// What a program written for the GPU does: allocate, upload, launch (where TK_INTERPRET and the
/// machine say), download.
std::vector<float> twice(const std::vector<float> &host) {
  const int n = int(host.size());
  tk::device_buffer<float> in(host), out(host.size());
  scale.launch(tk::grid(tk::cdiv(n, 32)), out, std::as_const(in), 2.0f, n, tk::constant(32));
  return out.to_host();
}

} // namespace

TEST_CASE("device_buffer: host memory when TK_INTERPRET selects the interpreter",
          "[device_buffer][interpreter]") {
  tk_test::scoped_env interpret("TK_INTERPRET", "1");
  const std::vector<float> in = ramp(100);
  tk::device_buffer<float> buffer(in);
  CHECK(buffer.on_host());
  CHECK(buffer.size() == 100);
  CHECK(reinterpret_cast<std::uintptr_t>(buffer.data()) % 256 == 0); // as cuMemAlloc aligns
  CHECK(buffer.to_host() == in);

  SECTION("a program written for the GPU runs on the interpreter") {
    CHECK(twice(in) == ramp(100, 2.0f));
  }
  SECTION("upload, fill_bytes and download") {
    buffer.fill_bytes(0);
    CHECK(buffer.to_host() == std::vector<float>(100, 0.0f));
    buffer.upload(std::vector<float>(10, 5.0f));
    std::vector<float> first(10);
    buffer.download(first);
    CHECK(first == std::vector<float>(10, 5.0f));
  }
  SECTION("launched as data(), a host pointer the interpreter can dereference") {
    tk::device_buffer<float> out(in.size());
    scale.launch(tk::grid(4), out.data(), buffer.data(), 3.0f, 100, tk::constant(32));
    CHECK(out.to_host() == ramp(100, 3.0f));
  }
  SECTION("accesses are checked against the buffer") {
    tk::device_buffer<float> out(50);
    tk_test::expect_error(
        this_file, store_line, "element 50 of launch argument 0, a buffer of 50 f32 elements",
        [&] { scale.launch(tk::grid(4), out, buffer, 1.0f, 100, tk::constant(32)); });
  }
  SECTION("an empty buffer") {
    tk::device_buffer<float> empty(std::size_t(0));
    CHECK(empty.on_host());
    CHECK(empty.data() == nullptr);
    CHECK(empty.to_host().empty());
  }
  SECTION("moved") {
    tk::device_buffer<float> moved(std::move(buffer));
    CHECK(moved.on_host());
    CHECK(moved.to_host() == in);
    buffer = std::move(moved);
    CHECK(buffer.to_host() == in);
  }
}

TEST_CASE("device_buffer: host memory on a machine without a usable GPU",
          "[device_buffer][interpreter]") {
  if (!driver_usable()) {
    tk_test::scoped_env interpret("TK_INTERPRET", nullptr);
    const std::vector<float> in = ramp(70);
    tk::device_buffer<float> buffer(in);
    CHECK(buffer.on_host());
    tk::device_buffer<float> out(in.size());
    scale.interpret(tk::grid(3), out, buffer, 2.0f, 70, tk::constant(32));
    CHECK(out.to_host() == ramp(70, 2.0f));
    // A GPU launch fails for want of the GPU, as it would with any other argument.
    int line = 0;
    tk_test::expect_error(this_file, line, "cannot launch kernel 'scale' on the GPU: ", [&] {
      line = __LINE__ + 1;
      scale.launch(tk::grid(3), {.backend = tk::backend::gpu}, out, buffer, 2.0f, 70,
                   tk::constant(32));
    });
  } else {
    WARN("this machine has a GPU; device buffers are GPU memory unless TK_INTERPRET is set");
  }
}
