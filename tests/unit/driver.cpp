/// @file driver.cpp
/// The CUDA driver layer (tk/detail/runtime/driver.hpp) without a GPU: the real driver where there
/// is none, and a stand-in driver (tests/support/fake_cuda.cpp) for everything after loading.
#include "expect_error.hpp"

#include <catch2/catch.hpp>
#include <tk/detail/runtime/driver.hpp>

#include "scoped_env.hpp"
#include <cstdlib>
#include <optional>
#include <string>

namespace cu = tk::detail::cu;
using tk_test::expect_error;

using tk_test::scoped_env;

namespace {

bool real_driver_present() {
  std::string why;
  void *handle = tk::detail::os::open_library(cu::default_library, why);
  tk::detail::os::close_library(handle);
  return handle != nullptr;
}

#ifdef TK_TEST_FAKE_CUDA
const char *fake_targets(std::source_location) { return "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a"; }

tk::detail::owned<cu::driver> load_fake() {
  auto d = cu::driver::load(TK_TEST_FAKE_CUDA);
  d->backend_targets = fake_targets;
  return d;
}
#endif

} // namespace

TEST_CASE("without a CUDA driver, get_driver says so and how to go on", "[driver]") {
  if (real_driver_present()) {
    WARN("this machine has a CUDA driver; the no-driver error cannot be checked here");
    return;
  }
  int line = 0;
  for (int attempt = 0; attempt < 2; ++attempt) // the failure is remembered, and named again
    expect_error("driver.cpp", line,
                 "no CUDA driver: cannot load libcuda.so.1 (libcuda.so.1: cannot open shared "
                 "object file",
                 [&] {
                   line = __LINE__ + 1;
                   cu::get_driver();
                 });
  expect_error("driver.cpp", line,
               "); install the NVIDIA driver, or run on the CPU interpreter with TK_INTERPRET=1 "
               "or launch_options{.backend = tk::backend::interpreter}",
               [&] {
                 line = __LINE__ + 1;
                 cu::launch_context();
               });
  expect_error("driver.cpp", line, "no CUDA driver", [&] {
    line = __LINE__ + 1;
    cu::kind_of(0x1000);
  });
}

TEST_CASE("a driver that cannot be opened names the file", "[driver]") {
  int line = 0;
  expect_error("driver.cpp", line, "no CUDA driver: cannot load /nonexistent/libcuda.so.1 (", [&] {
    line = __LINE__ + 1;
    cu::driver::load("/nonexistent/libcuda.so.1");
  });
}

TEST_CASE("target names prefer the architecture-specific target", "[driver]") {
  const char *targets = "sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a sm_100a sm_120a";
  CHECK(cu::target_name(9, 0, targets) == "sm_90a");
  CHECK(cu::target_name(8, 6, targets) == "sm_86");
  CHECK(cu::target_name(7, 5, targets) == "sm_75");
  CHECK(cu::target_name(10, 0, targets) == "sm_100a");
  CHECK(cu::target_name(12, 0, targets) == "sm_120a");
  CHECK(cu::target_name(8, 7, targets).empty()); // whole names only: not "sm_8" of "sm_86"
  CHECK(cu::target_name(9, 0, "sm_75 sm_90") == "sm_90");
  CHECK(cu::target_name(9, 0, "sm_90a") == "sm_90a");
  CHECK(cu::target_name(9, 0, "").empty());
  CHECK(cu::driver::version_text(12080) == "12.8");
  CHECK(cu::driver::version_text(13000) == "13.0");
}

TEST_CASE("usable_on_device accepts every kind of device-visible memory", "[driver]") {
  CHECK(cu::usable_on_device(cu::pointer_kind::device));
  CHECK(cu::usable_on_device(cu::pointer_kind::host_registered));
  CHECK(cu::usable_on_device(cu::pointer_kind::managed));
  CHECK(!cu::usable_on_device(cu::pointer_kind::host));
}

#ifdef TK_TEST_FAKE_CUDA

TEST_CASE("a stand-in driver loads and resolves every function", "[driver]") {
  auto d = load_fake();
  CHECK(d->version == 12080);
  CHECK(d->device_count == 2);
  CHECK(d->library == TK_TEST_FAKE_CUDA);
  CHECK(d->mem_alloc != nullptr);
  CHECK(d->event_elapsed_time != nullptr);
  CHECK(d->describe(100) == "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  CHECK(d->describe(12345) == "CUresult 12345");
}

TEST_CASE("check names the call and the driver's error", "[driver]") {
  auto d = load_fake();
  CHECK_NOTHROW(d->check(cu::success, "cuMemAlloc"));
  int line = 0;
  expect_error("driver.cpp", line, "cuMemAlloc failed: CUDA_ERROR_INVALID_VALUE (invalid argument)",
               [&] {
                 line = __LINE__ + 1;
                 d->check(cu::error_invalid_value, "cuMemAlloc");
               });
}

TEST_CASE("an old driver is refused with the versions involved", "[driver]") {
  scoped_env version("FAKE_CUDA_VERSION", "11080");
  int line = 0;
  expect_error("driver.cpp", line,
               "the CUDA driver is too old: " TK_TEST_FAKE_CUDA
               " supports CUDA 11.8 and TileKit needs CUDA 12.0 or newer; update the NVIDIA "
               "driver (R525 or newer), or run on the CPU interpreter with TK_INTERPRET=1",
               [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_FAKE_CUDA);
               });
}

TEST_CASE("a stub driver is called a stub, not an old driver", "[driver]") {
  // What the toolkit's stubs/libcuda.so answers to every call.
  scoped_env stub("FAKE_CUDA_VERSION_RESULT", "34");
  int line = 0;
  expect_error("driver.cpp", line,
               TK_TEST_FAKE_CUDA " is the CUDA toolkit's stub library, not a driver: it lets "
                                 "programs link, but cannot run kernels (cuDriverGetVersion "
                                 "returned CUDA_ERROR_STUB_LIBRARY); install the NVIDIA driver, "
                                 "remove the toolkit's stubs directory from LD_LIBRARY_PATH, or "
                                 "run on the CPU interpreter with TK_INTERPRET=1",
               [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_FAKE_CUDA);
               });
}

TEST_CASE("a driver lacking a function names it", "[driver]") {
  scoped_env missing("FAKE_CUDA_MISSING", "cuLaunchKernel");
  int line = 0;
  expect_error("driver.cpp", line,
               "the CUDA driver " TK_TEST_FAKE_CUDA
               " (CUDA 12.8) lacks cuLaunchKernel; update the NVIDIA driver, or run on the CPU "
               "interpreter",
               [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_FAKE_CUDA);
               });
}

TEST_CASE("a driver that cannot initialize means no GPU", "[driver]") {
  scoped_env init("FAKE_CUDA_INIT", "100");
  int line = 0;
  expect_error("driver.cpp", line,
               "no GPU: the CUDA driver failed to initialize (CUDA_ERROR_NO_DEVICE (no "
               "CUDA-capable device is detected)); check that nvidia-smi lists a GPU, or run on "
               "the CPU interpreter",
               [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_FAKE_CUDA);
               });
}

TEST_CASE("a driver that sees no device means no GPU", "[driver]") {
  scoped_env devices("FAKE_CUDA_DEVICES", "0");
  int line = 0;
  {
    scoped_env visible("CUDA_VISIBLE_DEVICES", nullptr);
    expect_error("driver.cpp", line,
                 "no GPU: the CUDA driver sees no device; check that nvidia-smi lists a GPU, or "
                 "run on the CPU interpreter",
                 [&] {
                   line = __LINE__ + 1;
                   cu::driver::load(TK_TEST_FAKE_CUDA);
                 });
  }
  scoped_env visible("CUDA_VISIBLE_DEVICES", "");
  expect_error("driver.cpp", line,
               "no GPU: the CUDA driver sees no device (CUDA_VISIBLE_DEVICES=\"\"); check", [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_FAKE_CUDA);
               });
}

TEST_CASE("the launch context is the current one, else device 0's primary context", "[driver]") {
  auto d = load_fake();
  cu::context none = nullptr;
  REQUIRE(d->ctx_set_current(none) == cu::success);
  const cu::context primary = d->launch_context();
  REQUIRE(primary != nullptr);
  cu::context current = nullptr;
  REQUIRE(d->ctx_get_current(&current) == cu::success);
  CHECK(current == primary); // made current for this thread
  CHECK(d->launch_context() == primary);
  CHECK(d->device_of(primary).ordinal == 0);

  // A context the user made current (here: device 1's primary context) is used as it is.
  cu::context other = nullptr;
  REQUIRE(d->device_primary_ctx_retain(&other, 101) == cu::success);
  REQUIRE(d->ctx_set_current(other) == cu::success);
  CHECK(d->launch_context() == other);
  CHECK(d->device_of(other).ordinal == 1);
  // A context that is not current is asked about without changing the current one.
  CHECK(d->device_of(primary).ordinal == 0);
  REQUIRE(d->ctx_get_current(&current) == cu::success);
  CHECK(current == other);
  REQUIRE(d->ctx_set_current(none) == cu::success);
}

TEST_CASE("device information is queried and cached per device", "[driver]") {
  auto d = load_fake();
  const cu::device_info &info = d->device_at(1);
  CHECK(info.ordinal == 1);
  CHECK(info.handle == 101);
  CHECK(info.name == "Fake GPU 1");
  CHECK(info.major == 9);
  CHECK(info.minor == 0);
  CHECK(info.target == "sm_90a");
  CHECK(info.sm_count == 132);
  CHECK(info.max_shared_bytes == 49152);
  CHECK(info.max_shared_bytes_optin == 232448);
  CHECK(&d->device_at(1) == &info);
  {
    scoped_env cc("FAKE_CUDA_CC", "8.6");
    CHECK(d->device_at(1).target == "sm_90a"); // cached
    CHECK(d->device_at(0).target == "sm_86");
  }
}

TEST_CASE("device properties beyond what compiling needs are read when the driver has them",
          "[driver][device]") {
  auto d = load_fake();
  const cu::device_info &info = d->device_at(1);
  CHECK(info.total_memory == std::size_t{80} << 30);
  CHECK(info.l2_cache_bytes == 52428800 + 1);
  CHECK(info.clock_khz == 0); // the stand-in does not answer: left 0, not an error
}

TEST_CASE("each device has its primary context, retained once", "[driver][device]") {
  auto d = load_fake();
  cu::context none = nullptr;
  REQUIRE(d->ctx_set_current(none) == cu::success);
  const cu::context zero = d->device_context(0), one = d->device_context(1);
  CHECK(zero != one);
  CHECK(d->device_context(1) == one);
  CHECK(d->device_of(one).ordinal == 1);
  CHECK(d->current_context() == nullptr); // not made current
  CHECK(d->launch_context() == zero);     // device 0's, when the thread has none
  REQUIRE(d->ctx_set_current(none) == cu::success);
}

TEST_CASE("a device the driver does not have is named with the ones it has", "[driver][device]") {
  auto d = load_fake();
  int line = 0;
  for (int ordinal : {2, -1})
    expect_error("driver.cpp", line,
                 "device " + std::to_string(ordinal) +
                     " does not exist: the CUDA driver sees 2 devices (0 to 1)",
                 [&] {
                   line = __LINE__ + 1;
                   d->device_context(ordinal);
                 });
  scoped_env one("FAKE_CUDA_DEVICES", "1");
  scoped_env visible("CUDA_VISIBLE_DEVICES", "3");
  auto single = load_fake();
  expect_error("driver.cpp", line,
               "device 1 does not exist: the CUDA driver sees 1 device (0); "
               "CUDA_VISIBLE_DEVICES=\"3\"",
               [&] {
                 line = __LINE__ + 1;
                 single->device_context(1);
               });
}

TEST_CASE("scoped_context makes a context current for its scope only when it is not",
          "[driver][device]") {
  auto d = load_fake();
  cu::context none = nullptr;
  REQUIRE(d->ctx_set_current(none) == cu::success);
  const cu::context zero = d->launch_context(), one = d->device_context(1);
  {
    const cu::scoped_context in_one(*d, one, std::source_location::current());
    CHECK(d->current_context() == one);
  }
  CHECK(d->current_context() == zero);
  {
    const cu::scoped_context in_zero(*d, zero, std::source_location::current());
    CHECK(d->current_context() == zero);
  }
  CHECK(d->current_context() == zero);
  REQUIRE(d->ctx_set_current(none) == cu::success);
}

TEST_CASE("GPUs older than sm_75 are refused", "[driver]") {
  scoped_env cc("FAKE_CUDA_CC", "7.0");
  auto d = load_fake();
  int line = 0;
  for (int attempt = 0; attempt < 2; ++attempt)
    expect_error("driver.cpp", line,
                 "GPU Fake GPU 0 is sm_70; TileKit needs sm_75 or newer; run on the CPU "
                 "interpreter with TK_INTERPRET=1",
                 [&] {
                   line = __LINE__ + 1;
                   d->device_at(0);
                 });
}

TEST_CASE("GPUs the backend has no target for are refused", "[driver]") {
  scoped_env cc("FAKE_CUDA_CC", "10.3");
  auto d = load_fake();
  int line = 0;
  expect_error("driver.cpp", line,
               "GPU Fake GPU 0 is sm_103, which this TileKit backend cannot compile for (its "
               "targets: sm_75 sm_80 sm_86 sm_89 sm_90 sm_90a); use a newer TileKit, or run on "
               "the CPU interpreter",
               [&] {
                 line = __LINE__ + 1;
                 d->device_at(0);
               });
}

TEST_CASE("pointer kinds come from the driver, and unknown addresses are host memory", "[driver]") {
  auto d = load_fake();
  CHECK(d->kind_of(0x1000) == cu::pointer_kind::device);
  CHECK(d->kind_of(0x2000) == cu::pointer_kind::host_registered);
  CHECK(d->kind_of(0x3000) == cu::pointer_kind::managed);
  CHECK(d->kind_of(0x4000) == cu::pointer_kind::host); // HOST type but no device address
  int local = 0;
  CHECK(d->kind_of(reinterpret_cast<cu::deviceptr>(&local)) == cu::pointer_kind::host);
}

#endif // TK_TEST_FAKE_CUDA

#ifdef TK_TEST_CUDA_STUB // the CUDA toolkit's stub, where CMake found one
TEST_CASE("the CUDA toolkit's stub libcuda.so is named as the stub it is", "[driver]") {
  int line = 0;
  expect_error("driver.cpp", line,
               TK_TEST_CUDA_STUB " is the CUDA toolkit's stub library, not a driver: it lets "
                                 "programs link, but cannot run kernels (cuDriverGetVersion "
                                 "returned CUDA_ERROR_STUB_LIBRARY); install the NVIDIA driver",
               [&] {
                 line = __LINE__ + 1;
                 cu::driver::load(TK_TEST_CUDA_STUB);
               });
}
#endif
