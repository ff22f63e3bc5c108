/// @file errors_device_memory.cpp
/// GPU launches refuse pointer arguments the GPU cannot reach, naming the argument, what it was
/// passed as and what to pass instead (tk::detail::check_device_memory, which every GPU launch
/// calls after loading the driver). Without a GPU: the stand-in driver
/// (tests/support/fake_cuda.cpp), which knows the device pointer 0x1000 and no host memory.
#include "expect_error.hpp"
#include "scoped_env.hpp"

#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <array>
#include <cstdint>
#include <source_location>
#include <span>
#include <string_view>
#include <vector>

#ifdef TK_TEST_FAKE_CUDA

namespace cu = tk::detail::cu;

namespace {

constexpr std::string_view this_file = "errors_device_memory.cpp";

const char *fake_targets(std::source_location) { return "sm_75 sm_80 sm_90 sm_90a"; }

tk::detail::owned<cu::driver> load_fake() {
  auto d = cu::driver::load(TK_TEST_FAKE_CUDA);
  d->backend_targets = fake_targets;
  return d;
}

/// Launch arguments (a tk::ptr<float>, then a tk::i32) described as a launch describes them,
/// then checked as a GPU launch checks them, at `where`.
template <class A> void check(const cu::driver &driver, A &pointer, std::source_location where) {
  using params = std::tuple<tk::ptr<float>, tk::i32>;
  int n = 16;
  const std::array<tk::detail::launch_argument, 2> args{
      tk::detail::describe_launch_argument<std::tuple_element_t<0, params>>(pointer, 0, where),
      tk::detail::describe_launch_argument<std::tuple_element_t<1, params>>(n, 1, where)};
  tk::detail::check_device_memory(driver, args, where);
}

} // namespace

TEST_CASE("errors: a std::vector or std::span for a GPU launch", "[errors][launch]") {
  auto driver = load_fake();
  std::vector<float> host(16);
  int line = 0;
  SECTION("std::vector") {
    tk_test::expect_error(
        this_file, line,
        "launch argument 0 (a std::vector, for the kernel's parameter 0, a tk::ptr of float) is "
        "host memory the GPU cannot reach; pass a tk::device_buffer<float> made from it, which "
        "copies it to the GPU, or a device pointer of your own (cudaMalloc, cuMemAlloc, managed "
        "or registered host memory)",
        [&] {
          line = __LINE__ + 1;
          check(*driver, host, std::source_location::current());
        });
  }
  SECTION("std::span") {
    std::span<float> span(host);
    tk_test::expect_error(this_file, line,
                          "launch argument 0 (a std::span, for the kernel's parameter 0, a "
                          "tk::ptr of float) is host memory the GPU cannot reach; pass a "
                          "tk::device_buffer<float> made from it",
                          [&] {
                            line = __LINE__ + 1;
                            check(*driver, span, std::source_location::current());
                          });
  }
}

TEST_CASE("errors: a host pointer for a GPU launch", "[errors][launch]") {
  auto driver = load_fake();
  std::vector<float> host(16);
  float *pointer = host.data();
  int line = 0;
  tk_test::expect_error(
      this_file, line,
      "launch argument 0 (a pointer, for the kernel's parameter 0, a tk::ptr of float) is host "
      "memory the GPU cannot reach; pass device memory: a tk::device_buffer<float>, or a pointer "
      "of your own from cudaMalloc or cuMemAlloc, managed or registered host memory",
      [&] {
        line = __LINE__ + 1;
        check(*driver, pointer, std::source_location::current());
      });
}

TEST_CASE("errors: a tk::device_buffer made for the interpreter, launched on the GPU",
          "[errors][launch][device_buffer]") {
  auto driver = load_fake();
  tk_test::scoped_env interpret("TK_INTERPRET", "1");
  tk::device_buffer<float> buffer(16);
  REQUIRE(buffer.on_host());
  int line = 0;
  tk_test::expect_error(this_file, line,
                        "launch argument 0 (a tk::device_buffer, for the kernel's parameter 0, a "
                        "tk::ptr of float) is host memory: the buffer was made while TK_INTERPRET "
                        "selected the interpreter; make it with TK_INTERPRET unset to launch on "
                        "the GPU, or launch on the interpreter",
                        [&] {
                          line = __LINE__ + 1;
                          check(*driver, buffer, std::source_location::current());
                        });
}

TEST_CASE("errors: a tk::host_tensor_descriptor over host memory for a GPU launch",
          "[errors][launch][descriptor]") {
  auto driver = load_fake();
  std::vector<float> host(64);
  // A kernel (tk::i32, tk::tensor_descriptor<float, 1>): the descriptor's base is launch
  // argument 1 of 4 (base, size, block constant), named as the kernel's parameter 1.
  const tk::host_tensor_descriptor desc(host, {64}, {1}, {16});
  int n = 16, line = 0;
  tk_test::expect_error(
      this_file, line,
      "launch argument 1 (a tk::host_tensor_descriptor over a std::vector, for the kernel's "
      "parameter 1, a tk::tensor_descriptor of float) is host memory the GPU cannot reach; pass a "
      "tk::device_buffer<float> made from it",
      [&] {
        line = __LINE__ + 1;
        const std::source_location where = std::source_location::current();
        using params = std::tuple<tk::i32, tk::tensor_descriptor<float, 1>>;
        const auto args =
            tk::detail::describe_arguments<params>(where, std::index_sequence<0, 1>{}, n, desc);
        static_assert(args.size() == 4);
        tk::detail::check_device_memory(*driver, args, where);
      });
}

TEST_CASE("errors: device memory passes the check", "[errors][launch]") {
  auto driver = load_fake();
  auto *device = reinterpret_cast<float *>(std::uintptr_t(0x1000)); // the stand-in's device memory
  CHECK_NOTHROW(check(*driver, device, std::source_location::current()));
}

#endif
