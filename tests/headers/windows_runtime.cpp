/// @file windows_runtime.cpp
/// Compiled for Windows (x86_64-w64-mingw32, test headers.mingw) and linked into a .exe that is not
/// run: instantiates the GPU runtime's entry points, so that the Windows branches of
/// tk/detail/runtime/{os,driver,backend_loader,launch}.hpp are compiled, not only parsed, and so
/// are those of the backend library's disk cache (lib/Cache, compiled into the same .exe).
#include <tk/tk.hpp>

#include "Cache/DiskCache.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

auto scale = tk::jit(
    "scale", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n, tk::constant<int> BLOCK) {
      auto offsets = tk::program_id(0) * BLOCK + tk::arange(0, BLOCK);
      auto mask = offsets < n;
      tk::store(out + offsets, tk::load(in + offsets, mask) * 2.0f, mask);
    });

auto scale_tuned =
    tk::autotune(scale, {.configs = {{.num_warps = 4}, {.num_warps = 8}}, .key = {2}});

} // namespace

int main(int argc, char **) {
  // Everything below is compiled and linked; it only runs on a Windows machine with a GPU when
  // asked to (an argument), which the test never does.
  const std::string cache_dir = tk::cache::disk_cache::default_directory();
  std::printf("cache directory: %s\n", cache_dir.c_str());
  if (argc < 2)
    return 0;
  const std::string why = tk::gpu_unavailable_reason();
  if (!why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const tk::detail::cu::driver &driver = tk::detail::cu::get_driver();
  std::printf("driver %s, CUDA %d\n", driver.library.c_str(), driver.version);
  const int n = 1000;
  std::vector<float> host(n, 1.0f);
  tk::device_buffer<float> in(host), out(host.size());
  scale.launch(tk::grid(tk::cdiv(n, 256)), out.data(), in.data(), n, tk::constant(256));
  scale_tuned.launch(tk::grid(tk::cdiv(n, 256)), out.data(), in.data(), n, tk::constant(256));
  const std::vector<float> result = out.to_host();
  if (const tk::cache::disk_cache cache(cache_dir, "probe"); !cache_dir.empty()) {
    const auto key = tk::cache::make_cache_key({"windows"});
    cache.store(key, "probe", "bytes");
    (void)cache.load(key, "probe");
  }
  return result[0] == 2.0f ? 0 : 1;
}
