/// @file disk_cache.cpp
/// The on-disk kernel cache (lib/Cache/DiskCache.h, the backend library's): keys, the entry format,
/// every kind of bad entry (a miss that a later store repairs), unwritable directories, the default
/// location per OS, and concurrent writers in threads and processes. Each test works in its own
/// temporary directory.
#include "Cache/DiskCache.h"
#include "Cache/KernelEntry.h"
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "scoped_env.hpp"
#include "temp_files.hpp"

#if !defined(_WIN32)
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace fs = std::filesystem;
using tk::cache::cache_key;
using tk::cache::cached_kernel;
using tk::cache::disk_cache;
using tk::cache::make_cache_key;

using tk_test::capture_stderr;
using tk_test::read_file;
using tk_test::scoped_env;
using tk_test::temp_dir;
using tk_test::write_file;

namespace {

/// A payload that says who wrote it, so that a reader can check it is complete and unmixed.
std::string payload_for(int writer, int iteration) {
  const std::string tag =
      "writer " + std::to_string(writer) + " iteration " + std::to_string(iteration) + ";";
  std::string out = tag;
  const std::size_t size = 1000 + static_cast<std::size_t>(writer) * 613 +
                           static_cast<std::size_t>(iteration % 7) * 4099;
  while (out.size() < size)
    out += static_cast<char>('a' + (out.size() * 7 + static_cast<std::size_t>(writer)) % 26);
  return out;
}

/// True when `bytes` is exactly one of the payloads `payload_for` makes.
bool is_complete_payload(const std::string &bytes) {
  int writer = -1, iteration = -1;
  if (std::sscanf(bytes.c_str(), "writer %d iteration %d;", &writer, &iteration) != 2)
    return false;
  return writer >= 0 && iteration >= 0 && bytes == payload_for(writer, iteration);
}

const cache_key some_key = make_cache_key({"ir text", "sm_90a", "num_warps=4", "backend 1.0"});

} // namespace

namespace Catch {
template <> struct StringMaker<cache_key> {
  static std::string convert(const cache_key &key) { return key.hex(); }
};
} // namespace Catch

TEST_CASE("cache: keys are 128-bit, hex is 32 digits", "[cache]") {
  const cache_key key{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
  CHECK(key.hex() == "0123456789abcdeffedcba9876543210");
  CHECK(cache_key{}.hex() == std::string(32, '0'));
  // The same parts always give the same key (it names files shared between processes).
  CHECK(make_cache_key({"a", "b"}) == make_cache_key({"a", "b"}));
}

TEST_CASE("cache: key depends on every part and on part boundaries", "[cache]") {
  const std::vector<std::string> base = {"module { tk.func ... }", "sm_90a", "num_warps=4",
                                         "num_stages=3", "backend 0.1"};
  auto key_of = [](const std::vector<std::string> &p) {
    return make_cache_key({p[0], p[1], p[2], p[3], p[4]});
  };
  const cache_key reference = key_of(base);
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::vector<std::string> changed = base;
    changed[i].back() = static_cast<char>(changed[i].back() ^ 1);
    INFO("part " << i);
    CHECK(key_of(changed) != reference);
  }
  CHECK(make_cache_key({"ab", "c"}) != make_cache_key({"a", "bc"}));
  CHECK(make_cache_key({"abc"}) != make_cache_key({"ab", "c"}));
  CHECK(make_cache_key({"a"}) != make_cache_key({"a", ""}));
  CHECK(make_cache_key({}) != make_cache_key({""}));
  CHECK(make_cache_key({"x", "y"}) != make_cache_key({"y", "x"}));
  // Both halves of the key vary, so the 30 digits in the file name carry ~120 bits.
  const cache_key a = make_cache_key({"a"}), b = make_cache_key({"b"});
  CHECK(a.hi != b.hi);
  CHECK(a.lo != b.lo);
}

TEST_CASE("cache: store then load round trip, and an absent key is a miss", "[cache]") {
  temp_dir dir;
  const disk_cache cache(dir.path() / "nested" / "cache", "backend 1.0");
  CHECK(cache.directory() == dir.path() / "nested" / "cache");
  CHECK_FALSE(cache.load(some_key, "cubin").has_value());

  std::string binary = "\x7f"
                       "ELF";
  binary += std::string(1, '\0') + std::string(5000, '\xab');
  REQUIRE(cache.store(some_key, "cubin", binary));
  CHECK(cache.load(some_key, "cubin") == binary);

  // The kind is part of the entry's name: another kind is another entry.
  CHECK_FALSE(cache.load(some_key, "tune").has_value());
  REQUIRE(cache.store(some_key, "tune", "BLOCK=128"));
  CHECK(cache.load(some_key, "tune") == "BLOCK=128");
  CHECK(cache.load(some_key, "cubin") == binary);

  // Another key is a miss; an empty payload is a valid entry.
  const cache_key other = make_cache_key({"other"});
  CHECK_FALSE(cache.load(other, "cubin").has_value());
  REQUIRE(cache.store(other, "cubin", ""));
  CHECK(cache.load(other, "cubin") == "");

  // A later store replaces the entry.
  REQUIRE(cache.store(some_key, "cubin", "newer"));
  CHECK(cache.load(some_key, "cubin") == "newer");

  // No temporary files are left behind.
  for (const auto &entry : fs::recursive_directory_iterator(cache.directory()))
    CHECK(entry.path().filename().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("cache: entry file names are short", "[cache]") {
  const disk_cache cache("/cache", "p");
  const fs::path path = cache.entry_path(some_key, "cubin");
  const std::string hex = some_key.hex();
  CHECK(path.parent_path().filename() == hex.substr(0, 2));
  CHECK(path.filename() == hex.substr(2) + ".cubin");
  CHECK(path.parent_path().parent_path() == fs::path("/cache"));
  // A kind that is not 1-16 characters of [a-z0-9_-] names no entry (and is never a path).
  CHECK(cache.entry_path(some_key, "").empty());
  CHECK(cache.entry_path(some_key, "../x").empty());
  CHECK(cache.entry_path(some_key, "Cubin").empty());
  CHECK_FALSE(cache.load(some_key, "../x"));
  CHECK_FALSE(cache.store(some_key, "../x", "payload"));
}

TEST_CASE("cache: a bad entry is a miss and a store replaces it", "[cache]") {
  temp_dir dir;
  const disk_cache cache(dir.path(), "backend 1.0");
  const std::string payload = "cubin bytes \x01\x02\x03 and more cubin bytes";
  REQUIRE(cache.store(some_key, "cubin", payload));
  const fs::path path = cache.entry_path(some_key, "cubin");
  const std::string good = read_file(path);
  REQUIRE(good.size() > payload.size());
  const std::size_t header = good.size() - payload.size();
  REQUIRE(good.substr(header) == payload);

  // Each damaged entry must be a miss, then repaired by the store that follows the recompile.
  auto expect_miss_then_repair = [&](const std::string &what) {
    INFO(what);
    CHECK_FALSE(cache.load(some_key, "cubin").has_value());
    REQUIRE(cache.store(some_key, "cubin", payload));
    CHECK(cache.load(some_key, "cubin") == payload);
    CHECK(read_file(path) == good);
  };

  SECTION("flipped payload byte (checksum)") {
    for (std::size_t at : {header, header + 5, good.size() - 1}) {
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0x10);
      write_file(path, bad);
      expect_miss_then_repair("flipped byte at " + std::to_string(at));
    }
  }
  SECTION("flipped header byte") {
    for (std::size_t at = 0; at < header; ++at) {
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0x01);
      write_file(path, bad);
      expect_miss_then_repair("flipped byte at " + std::to_string(at));
    }
  }
  SECTION("truncated file") {
    for (std::size_t length :
         {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{8},
          std::size_t{20}, header - 1, header, header + 1, good.size() - 1}) {
      write_file(path, good.substr(0, length));
      expect_miss_then_repair("truncated to " + std::to_string(length) + " bytes");
    }
  }
  SECTION("trailing bytes") {
    write_file(path, good + "x");
    expect_miss_then_repair("one byte appended");
  }
  SECTION("wrong magic") {
    std::string bad = good;
    bad.replace(0, 4, "TKC0");
    write_file(path, bad);
    expect_miss_then_repair("wrong magic");
  }
  SECTION("other format version") {
    std::string bad = good;
    bad[4] = 2; // the little-endian u32 after the magic
    write_file(path, bad);
    expect_miss_then_repair("format version 2");
  }
  SECTION("other producer version") {
    const disk_cache older(dir.path(), "backend 0.9");
    REQUIRE(older.store(some_key, "cubin", payload));
    CHECK(older.load(some_key, "cubin") == payload);
    expect_miss_then_repair("written by backend 0.9");
    // ...and the other way round.
    CHECK_FALSE(older.load(some_key, "cubin").has_value());
  }
  SECTION("an entry echoing another key (hash collision or misplaced file)") {
    const cache_key other = make_cache_key({"something else"});
    REQUIRE(cache.store(other, "cubin", payload));
    fs::rename(cache.entry_path(other, "cubin"), path);
    expect_miss_then_repair("entry of another key");
  }
  SECTION("an entry of another kind under this name") {
    REQUIRE(cache.store(some_key, "tune", payload));
    fs::copy_file(cache.entry_path(some_key, "tune"), path, fs::copy_options::overwrite_existing);
    expect_miss_then_repair("entry of another kind");
  }
  SECTION("a directory where the file should be") {
    fs::remove(path);
    fs::create_directories(path / "inside");
    write_file(path / "inside" / "file", "x");
    expect_miss_then_repair("directory");
  }
  SECTION("garbage bytes") {
    std::mt19937 random(1234);
    for (std::size_t length : {std::size_t{5}, std::size_t{64}, good.size(), std::size_t{10000}}) {
      std::string bad(length, '\0');
      for (char &c : bad)
        c = static_cast<char>(random());
      write_file(path, bad);
      expect_miss_then_repair(std::to_string(length) + " garbage bytes");
    }
    // Garbage behind a valid magic and version, with huge lengths.
    std::string bad = good.substr(0, 8) + std::string(64, '\xff');
    write_file(path, bad);
    expect_miss_then_repair("0xff after the version");
  }
}

#if !defined(_WIN32)
TEST_CASE("cache: TK_DEBUG=1 says why an entry was not used", "[cache]") {
  temp_dir dir;
  const disk_cache cache(dir.path(), "backend 1.0");
  REQUIRE(cache.store(some_key, "cubin", "payload bytes"));
  const fs::path path = cache.entry_path(some_key, "cubin");
  std::string bad = read_file(path);
  bad.back() = static_cast<char>(bad.back() ^ 1);
  write_file(path, bad);

  {
    scoped_env debug("TK_DEBUG", nullptr);
    CHECK(capture_stderr([&] { CHECK_FALSE(cache.load(some_key, "cubin")); }).empty());
  }
  scoped_env debug("TK_DEBUG", "1");
  const std::string log = capture_stderr([&] { CHECK_FALSE(cache.load(some_key, "cubin")); });
  CHECK(log ==
        "tk: cache entry " + path.string() + " is corrupted (checksum mismatch); recompiling\n");

  // An absent entry is an ordinary miss: nothing to say.
  CHECK(capture_stderr([&] {
          CHECK_FALSE(cache.load(make_cache_key({"absent"}), "cubin"));
        }).empty());

  write_file(path, "");
  CHECK(capture_stderr([&] { CHECK_FALSE(cache.load(some_key, "cubin")); }) ==
        "tk: cache entry " + path.string() + " is corrupted (truncated); recompiling\n");

  const disk_cache newer(dir.path(), "backend 2.0");
  REQUIRE(newer.store(some_key, "cubin", "x"));
  CHECK(capture_stderr([&] { CHECK_FALSE(cache.load(some_key, "cubin")); }) ==
        "tk: cache entry " + path.string() +
            " is stale (written by 'backend 2.0', expected 'backend 1.0'); recompiling\n");
}

TEST_CASE("cache: an unwritable directory is not an error", "[cache]") {
  temp_dir dir;
  scoped_env debug("TK_DEBUG", "1");

  SECTION("below a regular file (unwritable for everyone, root included)") {
    write_file(dir.path() / "file", "not a directory");
    const disk_cache cache(dir.path() / "file" / "cache", "backend 1.0");
    tk::cache::reset_unwritable_warning();
    const std::string log = capture_stderr([&] {
      CHECK_FALSE(cache.store(some_key, "cubin", "payload"));
      CHECK_FALSE(cache.store(some_key, "cubin", "payload"));
      CHECK_FALSE(cache.store(make_cache_key({"other"}), "tune", "payload"));
      CHECK_FALSE(cache.load(some_key, "cubin").has_value());
    });
    const std::string expected_start =
        "tk: cache directory " + cache.directory() + " is not writable (";
    const std::string expected_end = "); compiled kernels will not be cached\n";
    INFO(log);
    REQUIRE(log.size() > expected_start.size() + expected_end.size());
    CHECK(log.substr(0, expected_start.size()) == expected_start);
    CHECK(log.substr(log.size() - expected_end.size()) == expected_end);
    // Once per process, however many stores fail.
    CHECK(log.find("tk:", 1) == std::string::npos);
  }

  SECTION("read-only directory (chmod 0555)") {
    const disk_cache cache(dir.path() / "cache", "backend 1.0");
    REQUIRE(cache.store(some_key, "cubin", "payload"));
    const cache_key other = make_cache_key({"other"});
    for (const auto &entry : fs::recursive_directory_iterator(cache.directory()))
      if (entry.is_directory())
        fs::permissions(entry.path(), fs::perms(0555));
    fs::permissions(cache.directory(), fs::perms(0555));

    // Root (and some file systems) ignore permission bits; check what the OS actually does.
    const fs::path probe = fs::path(cache.entry_path(some_key, "cubin")).parent_path() / "probe";
    const bool writable = std::ofstream(probe).is_open();
    fs::remove(probe);

    tk::cache::reset_unwritable_warning();
    const std::string log = capture_stderr([&] {
      CHECK(cache.load(some_key, "cubin") == "payload");
      if (writable) {
        WARN("the read-only directory is still writable here (running as root?): checking that "
             "store works, not that it fails");
        CHECK(cache.store(other, "cubin", "other payload"));
        CHECK(cache.load(other, "cubin") == "other payload");
        CHECK(cache.store(some_key, "cubin", "new payload"));
        CHECK(cache.load(some_key, "cubin") == "new payload");
      } else {
        CHECK_FALSE(cache.store(other, "cubin", "other payload"));  // needs a new subdirectory
        CHECK_FALSE(cache.store(some_key, "cubin", "new payload")); // existing subdirectory
        CHECK_FALSE(cache.load(other, "cubin").has_value());
        CHECK(cache.load(some_key, "cubin") == "payload");
      }
    });
    if (writable) {
      CHECK(log.empty());
    } else {
      CHECK(log.find("tk: cache directory " + cache.directory() + " is not writable (") == 0);
      CHECK(log.find("Permission denied") != std::string::npos);
    }
  }
}
#endif

TEST_CASE("cache: default directory", "[cache]") {
  SECTION("TK_CACHE_DIR wins") {
    scoped_env cache_dir("TK_CACHE_DIR", "/some/where/tk");
    scoped_env xdg("XDG_CACHE_HOME", "/xdg");
    CHECK(disk_cache::default_directory() == fs::path("/some/where/tk"));
  }
#if defined(__linux__) || (!defined(_WIN32) && !defined(__APPLE__))
  SECTION("XDG_CACHE_HOME, then HOME") {
    scoped_env cache_dir("TK_CACHE_DIR", nullptr);
    {
      scoped_env xdg("XDG_CACHE_HOME", "/xdg/cache");
      scoped_env home("HOME", "/home/someone");
      CHECK(disk_cache::default_directory() == fs::path("/xdg/cache/tilekit"));
    }
    {
      scoped_env xdg("XDG_CACHE_HOME", nullptr);
      scoped_env home("HOME", "/home/someone");
      CHECK(disk_cache::default_directory() == fs::path("/home/someone/.cache/tilekit"));
    }
    {
      // Empty and relative values are ignored, as the XDG specification asks.
      scoped_env xdg("XDG_CACHE_HOME", "relative/cache");
      scoped_env home("HOME", "/home/someone");
      CHECK(disk_cache::default_directory() == fs::path("/home/someone/.cache/tilekit"));
    }
    {
      scoped_env empty("TK_CACHE_DIR", "");
      scoped_env xdg("XDG_CACHE_HOME", "");
      scoped_env home("HOME", nullptr);
      CHECK(disk_cache::default_directory().empty());
    }
  }
#elif defined(__APPLE__)
  SECTION("HOME/Library/Caches") {
    scoped_env cache_dir("TK_CACHE_DIR", nullptr);
    scoped_env home("HOME", "/Users/someone");
    CHECK(disk_cache::default_directory() == fs::path("/Users/someone/Library/Caches/tilekit"));
  }
#else
  SECTION("LOCALAPPDATA") {
    scoped_env cache_dir("TK_CACHE_DIR", nullptr);
    scoped_env local("LOCALAPPDATA", "C:\\Users\\someone\\AppData\\Local");
    CHECK(disk_cache::default_directory() ==
          fs::path("C:\\Users\\someone\\AppData\\Local") / "tilekit");
  }
#endif
}

TEST_CASE("cache: concurrent threads see whole entries only", "[cache]") {
  temp_dir dir;
  const disk_cache cache(dir.path(), "backend 1.0");
  constexpr int threads = 8, iterations = 200;
  std::atomic<int> failed_stores{0}, misses{0}, torn{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      for (int i = 0; i < iterations; ++i) {
        if (!cache.store(some_key, "cubin", payload_for(t, i)))
          ++failed_stores;
        const std::optional<std::string> loaded = cache.load(some_key, "cubin");
        if (!loaded)
          ++misses;
        else if (!is_complete_payload(*loaded))
          ++torn;
      }
    });
  for (std::thread &worker : workers)
    worker.join();
  CHECK(torn == 0);
#if !defined(_WIN32)
  // POSIX rename replaces the name atomically: once written, the entry never disappears. (On
  // Windows a replace can fail while a reader has the file open; that is a failed store.)
  CHECK(failed_stores == 0);
  CHECK(misses == 0);
#endif
  const std::optional<std::string> last = cache.load(some_key, "cubin");
  REQUIRE(last);
  CHECK(is_complete_payload(*last));
}

#if !defined(_WIN32)
TEST_CASE("cache: concurrent processes see whole entries only", "[cache]") {
  temp_dir dir;
  const disk_cache cache(dir.path(), "backend 1.0");
  constexpr int children = 4, iterations = 200;
  std::fflush(nullptr);
  std::vector<pid_t> pids;
  for (int c = 0; c < children; ++c) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Child: no Catch2 here; the exit status says what went wrong.
      int status = 0;
      for (int i = 0; i < iterations; ++i) {
        if (!cache.store(some_key, "cubin", payload_for(c, i)))
          status |= 1;
        const std::optional<std::string> loaded = cache.load(some_key, "cubin");
        if (!loaded)
          status |= 2;
        else if (!is_complete_payload(*loaded))
          status |= 4;
      }
      _exit(status);
    }
    pids.push_back(pid);
  }
  for (const pid_t pid : pids) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    INFO("child exit status: 1 failed store, 2 miss, 4 torn entry");
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  const std::optional<std::string> last = cache.load(some_key, "cubin");
  REQUIRE(last);
  CHECK(is_complete_payload(*last));
  std::size_t files = 0;
  for (const auto &entry : fs::recursive_directory_iterator(dir.path()))
    files += entry.is_regular_file();
  CHECK(files == 1); // no temporary file left behind
}
#endif

TEST_CASE("cache: cached_kernel serialization", "[cache]") {
  cached_kernel kernel;
  kernel.binary = std::string("\x7f"
                              "ELF\0\0\x01",
                              7) +
                  std::string(300, '\x5a');
  kernel.kernel_name = "matmul_kernel";
  kernel.target = "sm_90a";
  kernel.threads_per_block = 128;
  kernel.dynamic_shared_bytes = 49152;
  kernel.binary_kind = cached_kernel::cubin;
  tk::cache::tensor_map_recipe map; // a 2-D map: sizes from arguments 2 and 3, a row stride of 64
  map.rank = 2;
  map.element_bytes = 2;
  map.base_arg = 1;
  map.shape_arg = {2, 3, 0, 0, 0};
  map.stride_arg = {-1, -1, 0, 0, 0};
  map.stride = {64, 1, 0, 0, 0};
  map.box = {64, 32, 0, 0, 0};
  kernel.tensor_maps = {map, map};
  kernel.tensor_maps[1].base_arg = 0;
  kernel.tensor_maps[1].swizzle = 128;

  const std::string bytes = tk::cache::serialize(kernel);
  const std::optional<cached_kernel> back = tk::cache::deserialize(bytes);
  REQUIRE(back);
  CHECK(*back == kernel);

  // Fixed little-endian layout, independent of the host and of struct layout.
  CHECK(bytes.substr(0, 10) == std::string("\x04\x00\x80\x00\x00\x00\x00\xc0\x00\x00", 10));

  SECTION("every truncation is rejected") {
    for (std::size_t length = 0; length < bytes.size(); ++length) {
      INFO("length " << length);
      CHECK_FALSE(tk::cache::deserialize(std::string_view(bytes).substr(0, length)));
    }
  }
  SECTION("trailing bytes, other versions and unknown binary kinds are rejected") {
    CHECK_FALSE(tk::cache::deserialize(bytes + '\0'));
    std::string other = bytes;
    other[0] = 1; // the format before tensor maps
    CHECK_FALSE(tk::cache::deserialize(other));
    other = bytes;
    other[0] = 2; // the format before swizzled maps
    CHECK_FALSE(tk::cache::deserialize(other));
    other = bytes;
    other[0] = 3; // the format before resources
    CHECK_FALSE(tk::cache::deserialize(other));
    other = bytes;
    other[0] = 5;
    CHECK_FALSE(tk::cache::deserialize(other));
    other = bytes;
    other[other.size() - 4] = 16; // the last map's swizzle: not a TMA mode
    CHECK_FALSE(tk::cache::deserialize(other));
    other = bytes;
    other[1] = 2;
    CHECK_FALSE(tk::cache::deserialize(other));
  }
  SECTION("empty strings and PTX") {
    cached_kernel ptx;
    ptx.binary_kind = cached_kernel::ptx;
    const std::optional<cached_kernel> round = tk::cache::deserialize(tk::cache::serialize(ptx));
    REQUIRE(round);
    CHECK(*round == ptx);
  }
  SECTION("through the disk cache") {
    temp_dir dir;
    const disk_cache cache(dir.path(), "backend 1.0");
    REQUIRE(cache.store(some_key, "cubin", bytes));
    const std::optional<std::string> loaded = cache.load(some_key, "cubin");
    REQUIRE(loaded);
    CHECK(tk::cache::deserialize(*loaded) == kernel);
  }
}
