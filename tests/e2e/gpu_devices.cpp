/// @file gpu_devices.cpp
/// Devices, warmup and specialization control on the GPU (label gpu; skipped, exit 77, without
/// one): the same kernel launched on every device the driver sees, from one thread and from one
/// thread per device, checked against the host; tk::device_guard, launch_options::device and
/// tk::on_device; kernel.warmup leaving nothing to compile for the launch after it; a kernel
/// compiled once for every value of an unspecialized integer.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

auto axpy = tk::jit("axpy", [](tk::ptr<float> y, tk::ptr<const float> x, tk::f32 a, tk::i32 n,
                               tk::constant<int> BLOCK) {
  auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
  auto mask = offs < n;
  tk::store(y + offs, a * tk::load(x + offs, mask) + tk::load(y + offs, mask), mask);
});

/// y = a x + y on the host, for x[i] = i and y[i] = 1.
std::vector<float> expected(int n, float a) {
  std::vector<float> y(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    y[std::size_t(i)] = a * float(i) + 1.0f;
  return y;
}

std::vector<float> ramp(int n) {
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    x[std::size_t(i)] = float(i);
  return x;
}

/// Runs axpy on device `d` with its buffers made there, through `launch_options::device`.
void run_on(int d, int n, float a) {
  tk::device_buffer<float> x(ramp(n), tk::on_device(d));
  tk::device_buffer<float> y(std::vector<float>(std::size_t(n), 1.0f), tk::on_device(d));
  CHECK(x.device() == d);
  axpy.launch(tk::grid(tk::cdiv(n, 256)), {.device = d}, y, x, a, n, tk::constant(256));
  CHECK(y.to_host() == expected(n, a));
}

} // namespace

TEST_CASE("devices: count and properties", "[gpu][device]") {
  const int count = tk::device_count();
  REQUIRE(count >= 1);
  std::printf("%d device(s)\n", count);
  for (int d = 0; d < count; ++d) {
    const tk::device_properties p = tk::get_device_properties(d);
    std::printf("device %d: %s (%s), %d SMs, %zu bytes, L2 %d bytes, %d kHz, bus %d bits\n", d,
                p.name.c_str(), p.target.c_str(), p.multiprocessor_count, p.total_memory,
                p.l2_cache_size, p.clock_rate_khz, p.memory_bus_width);
    CHECK(p.index == d);
    CHECK(!p.name.empty());
    CHECK(p.major >= 7);
    CHECK(p.multiprocessor_count > 0);
    CHECK(p.total_memory > (std::size_t{1} << 30));
    CHECK(p.l2_cache_size > 0);
    CHECK(p.max_shared_memory_per_block >= 48 * 1024);
    CHECK(p.warp_size == 32);
  }
  CHECK(tk::get_device_properties().index == tk::current_device());
}

TEST_CASE("devices: one kernel on every device from one thread", "[gpu][device]") {
  for (int d = 0; d < tk::device_count(); ++d)
    run_on(d, 10000 + d, 2.0f + float(d));
}

TEST_CASE("devices: one thread per device, at the same time", "[gpu][device]") {
  const int count = tk::device_count();
  std::vector<int> ok(std::size_t(count), 0);
  std::vector<std::thread> threads;
  for (int d = 0; d < count; ++d)
    threads.emplace_back([d, &ok] {
      // A thread of its own: no current context until the guard makes one.
      const tk::device_guard on(d);
      const int n = 1 << 16; // every partial sum below is exact in f32
      tk::device_buffer<float> x(ramp(n)), y(std::vector<float>(std::size_t(n), 1.0f));
      bool same = x.device() == d;
      for (int round = 0; round < 20; ++round)
        axpy.launch(tk::grid(tk::cdiv(n, 1024)), y, x, 0.5f, n, tk::constant(1024));
      std::vector<float> want(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i)
        want[std::size_t(i)] = 1.0f + 20 * 0.5f * float(i);
      ok[std::size_t(d)] = same && y.to_host() == want;
    });
  for (std::thread &t : threads)
    t.join();
  for (int d = 0; d < count; ++d) {
    INFO("device " << d);
    CHECK(ok[std::size_t(d)] == 1);
  }
}

TEST_CASE("devices: the guard restores the context before it", "[gpu][device]") {
  const int count = tk::device_count();
  tk::set_device(0);
  {
    const tk::device_guard on_last(count - 1);
    CHECK(tk::current_device() == count - 1);
    tk::device_buffer<float> x(16);
    CHECK(x.device() == count - 1);
  }
  CHECK(tk::current_device() == 0);
}

TEST_CASE("devices: a device that does not exist is named", "[gpu][device]") {
  const int count = tk::device_count();
  std::vector<float> host(16, 0.0f);
  tk::device_buffer<float> x(host);
  try {
    axpy.launch(tk::grid(1), {.device = count}, x, x, 1.0f, 16, tk::constant(16));
    FAIL("no error");
  } catch (const tk::error &e) {
    CHECK(e.message().find("device " + std::to_string(count) +
                           " does not exist: the CUDA driver sees") != std::string::npos);
  }
}

TEST_CASE("warmup: the launch after it compiles nothing", "[gpu][warmup]") {
  const int n = 4096;
  tk::device_buffer<float> x(ramp(n)), y(std::vector<float>(std::size_t(n), 1.0f));
  auto fresh = tk::jit("axpy_warm", [](tk::ptr<float> y, tk::ptr<const float> x, tk::f32 a,
                                       tk::i32 n, tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto mask = offs < n;
    tk::store(y + offs, a * tk::load(x + offs, mask) + tk::load(y + offs, mask), mask);
  });
  const auto before = tk::detail::kernels_loaded();
  fresh.warmup({.num_warps = 8}, y, x, 2.0f, n, tk::constant(512));
  CHECK(tk::detail::kernels_loaded() == before + 1);
  CHECK(y.to_host() == std::vector<float>(std::size_t(n), 1.0f)); // nothing ran
  fresh.launch(tk::grid(n / 512), {.num_warps = 8}, y, x, 2.0f, n, tk::constant(512));
  CHECK(tk::detail::kernels_loaded() == before + 1);
  CHECK(y.to_host() == expected(n, 2.0f));
  // Other options or another divisibility of n are other kernels.
  fresh.launch(tk::grid(n / 512), {.num_warps = 4}, y, x, 2.0f, n, tk::constant(512));
  CHECK(tk::detail::kernels_loaded() == before + 2);
}

TEST_CASE("specialization: an unspecialized integer compiles one kernel for all its values",
          "[gpu][specialization]") {
  auto body = [](tk::ptr<float> y, tk::ptr<const float> x, tk::f32 a, tk::i32 n,
                 tk::constant<int> BLOCK) {
    auto offs = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
    auto mask = offs < n;
    tk::store(y + offs, a * tk::load(x + offs, mask) + tk::load(y + offs, mask), mask);
  };
  auto specialized = tk::jit("axpy_specialized", body);
  auto once = tk::jit("axpy_once", body, {.do_not_specialize = {3}});
  const auto before = tk::detail::kernels_loaded();
  for (int n : {1, 1000, 1001, 1002, 1004, 1008, 1024}) {
    tk::device_buffer<float> x(ramp(n)), y1(std::vector<float>(std::size_t(n), 1.0f)),
        y2(std::vector<float>(std::size_t(n), 1.0f));
    specialized.launch(tk::grid(tk::cdiv(n, 256)), y1, x, 3.0f, n, tk::constant(256));
    once.launch(tk::grid(tk::cdiv(n, 256)), y2, x, 3.0f, n, tk::constant(256));
    CHECK(y1.to_host() == expected(n, 3.0f));
    CHECK(y2.to_host() == expected(n, 3.0f));
  }
  const auto compiled = tk::detail::kernels_loaded() - before;
  std::printf("7 values of n: %llu kernels compiled (6 specialized, 1 not)\n",
              static_cast<unsigned long long>(compiled));
  CHECK(compiled == 6 + 1); // 1; 1000 (8); 1001 (1); 1002 (2); 1004 (4); 1008 and 1024 (16)
}
