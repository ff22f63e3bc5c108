/// @file device.cpp
/// Picking the GPU (tk/device.hpp) where there is none: what a program written for several
/// GPUs does on the interpreter, and the errors for devices that cannot exist. The driver side,
/// on a stand-in driver with two devices, is in tests/unit/driver.cpp; the GPU side in
/// tests/e2e/gpu_devices.cpp.
#include "expect_error.hpp"
#include "scoped_env.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <vector>

namespace {

using tk_test::expect_error;
using tk_test::scoped_env;

auto add_one = tk::jit("add_one", [](tk::ptr<float> x, tk::i32 n, tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  tk::store(x + offs, tk::load(x + offs, offs < n) + 1.0f, offs < n);
});

} // namespace

TEST_CASE("without a GPU there are no devices, and asking for one says why", "[device]") {
  if (tk::device_count() > 0) {
    WARN("this machine has a usable CUDA driver; the no-GPU answers cannot be checked here");
    return;
  }
  int line = 0;
  expect_error("device.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    (void)tk::get_device_properties(0);
  });
  expect_error("device.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    (void)tk::current_device();
  });
  expect_error("device.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    tk::set_device(1);
  });
}

TEST_CASE("where launches run on the interpreter, device choices leave the program unchanged",
          "[device]") {
  scoped_env interpret("TK_INTERPRET", "1");
  std::vector<float> host(100, 1.0f);
  {
    const tk::device_guard on_second(1); // nothing to switch: launches run on the host
    tk::device_buffer<float> x(host, tk::on_device(1));
    CHECK(x.on_host());
    CHECK(x.device() == -1);
    add_one.launch(tk::grid(2), {.device = 1}, x, 100, tk::constant(64));
    CHECK(x.to_host() == std::vector<float>(100, 2.0f));
    tk::device_buffer<float> empty(0, tk::on_device(0));
    CHECK(empty.size() == 0);
  }
}

TEST_CASE("a negative device index is refused where it is written", "[device][errors]") {
  scoped_env interpret("TK_INTERPRET", "1");
  std::vector<float> host(10, 0.0f);
  int line = 0;
  expect_error("device.cpp", line, "tk::on_device(-2): a device index is 0 or more", [&] {
    line = __LINE__ + 1;
    tk::device_buffer<float> x(16, tk::on_device(-2));
  });
  expect_error("device.cpp", line,
               "launch_options::device is -3; it must be a device index (0 for the first GPU) or "
               "-1, the thread's current device",
               [&] {
                 line = __LINE__ + 1;
                 add_one.launch(tk::grid(1), {.device = -3}, host, 10, tk::constant(16));
               });
}
