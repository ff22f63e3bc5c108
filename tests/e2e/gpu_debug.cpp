/// @file gpu_debug.cpp
/// Printing, assertions, compiler hints, cache hints and inline PTX on the GPU, against the
/// interpreter or the host:
///  - tk::device_print: the lines the GPU prints through vprintf, sorted, are the lines the
///    interpreter prints (blocks of one and two dimensions, several operands, signed, unsigned,
///    64-bit and f16 values, hex, a prefix with '%', no values);
///  - tk::inline_asm_elementwise: a packed f16 add (add.f16x2, two halves to a register) and an
///    int4 -> f16 unpack (prmt and lop3 with the 1024.0 bias), as quantized GEMMs do, against
///    the host; on the interpreter, the error naming the call's line;
///  - tk::memory_hints: a copy through every cache operator and eviction priority, and volatile
///    loads, gives its input;
///  - tk::multiple_of / max_contiguous: a gather through loaded slots gives the host's result,
///    and so does a copy from addresses the kernel loads, hinted 16-byte aligned;
///  - tk::device_assert (`assert` mode, a process of its own: a failed assert leaves the CUDA
///    context unusable): off by default, the kernel runs; on (launch_options::debug), the
///    launch or the download after it throws tk::error at the assert's line with its message,
///    program and element.
///
///   tk_e2e_gpu_debug [--interpreter] [assert]
///
/// --interpreter: the interpreter side only (no GPU needed; CI runs it). Otherwise, without a
/// usable GPU, prints `SKIPPED: <reason>` and exits 77. Prints a line per check; exits 1 on any
/// failure.
#include <tk/tk.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

int failures = 0, checks = 0;

void check(bool ok, const std::string &what) {
  ++checks;
  if (!ok)
    ++failures;
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  std::fflush(stdout);
}

/// What `body` writes to stdout (file descriptor 1: the GPU's printf writes there too).
template <class Body> std::string capture_stdout(Body &&body) {
  const std::string path = "tk_e2e_gpu_debug.stdout." + std::to_string(getpid());
  std::fflush(stdout);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const int saved = dup(1);
  dup2(fd, 1);
  close(fd);
  body();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  return text;
}

std::vector<std::string> sorted_lines(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

const tk::launch_options interpreter{.backend = tk::backend::interpreter};
const tk::launch_options gpu{.backend = tk::backend::gpu};

// ---------------------------------------------------------------------------------------------
// Printing

const auto print_kernel =
    tk::jit("print_kernel", [](tk::ptr<const std::int32_t> a, tk::ptr<const float> b,
                               tk::ptr<const std::uint64_t> c, tk::ptr<const tk::half> h) {
      auto pid = tk::program_id(0);
      auto i = tk::arange(0, 16);
      auto x = tk::load(a + pid * 16 + i);
      auto y = tk::load(b + pid * 16 + i);
      tk::device_print("x and y", x, y);
      auto rows = tk::arange(0, 4)(tk::_, tk::newaxis), cols = tk::arange(0, 8)(tk::newaxis, tk::_);
      tk::device_print("c", tk::load(c + rows * 8 + cols));
      tk::device_print(tk::hex, "bits", tk::load(h + i));
      tk::device_print("unsigned", tk::cast<std::uint32_t>(x));
      tk::device_print("pid", pid);
      tk::device_print("done 100%");
    });

void test_print(bool on_gpu) {
  std::vector<std::int32_t> a(32);
  std::vector<float> b(32);
  std::vector<std::uint64_t> c(32);
  std::vector<tk::half> h(16);
  for (int k = 0; k < 32; ++k) {
    a[std::size_t(k)] = (k - 10) * 1000003;
    b[std::size_t(k)] = float(k) * 0.25f - 3.0f;
    c[std::size_t(k)] = (std::uint64_t(1) << 40) * std::uint64_t(k) + 7;
  }
  for (int k = 0; k < 16; ++k)
    h[std::size_t(k)] = tk::half(float(k) - 7.5f);
  const std::string expected =
      capture_stdout([&] { print_kernel.launch(tk::grid(2), interpreter, a, b, c, h); });
  const auto want = sorted_lines(expected);
  check(want.size() == 2 * (32 + 32 + 16 + 16 + 1 + 1),
        "print: the interpreter prints one line per element (" + std::to_string(want.size()) + ")");
  check(expected.find("pid (1, 0, 0) idx (3, 7) c: 34084860461063\n") != std::string::npos &&
            expected.find("pid (0, 0, 0) idx (15) bits: 0x4780\n") != std::string::npos &&
            expected.find("pid (0, 0, 0) idx (10) x and y: (operand 0) 0\n") != std::string::npos &&
            expected.find("pid (0, 0, 0) idx ( 0) x and y: (operand 1) -3.000000\n") !=
                std::string::npos &&
            expected.find("pid (1, 0, 0) done 100%") != std::string::npos,
        "print: the interpreter's format");
  if (!on_gpu)
    return;
  tk::device_buffer<std::int32_t> da(a);
  tk::device_buffer<float> db(b);
  tk::device_buffer<std::uint64_t> dc(c);
  tk::device_buffer<tk::half> dh(h);
  const std::string printed = capture_stdout([&] {
    print_kernel.launch(tk::grid(2), gpu, da.data(), db.data(), dc.data(), dh.data());
    da.download(a); // waits for the kernel, which flushes its printf buffer
  });
  const auto got = sorted_lines(printed);
  check(got == want, "print: the GPU prints the interpreter's lines (" +
                         std::to_string(got.size()) + " of " + std::to_string(want.size()) + ")");
  if (got != want)
    for (std::size_t k = 0; k < std::min<std::size_t>(got.size(), want.size()); ++k)
      if (got[k] != want[k]) {
        std::printf("  first difference: GPU \"%s\", interpreter \"%s\"\n", got[k].c_str(),
                    want[k].c_str());
        break;
      }
}

// ---------------------------------------------------------------------------------------------
// Inline PTX

int asm_line = 0;

const auto packed_add = tk::jit(
    "packed_add", [](tk::ptr<tk::half> out, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b) {
      auto i = tk::program_id(0) * 1024 + tk::arange(0, 1024);
      auto x = tk::load(a + i), y = tk::load(b + i);
      asm_line = __LINE__ + 1;
      auto sum = tk::inline_asm_elementwise<tk::half>("add.f16x2 $0, $1, $2;", "=r,r,r",
                                                      std::tuple{x, y}, true, 2);
      tk::store(out + i, sum);
    });

/// Two int4 per byte (low nibble first) -> two f16 blocks: prmt spreads two bytes into the
/// halves of a word, lop3 puts each nibble under the exponent of 1024.0 (0x6400), sub.f16x2
/// takes the bias off.
const auto unpack_int4 = tk::jit("unpack_int4", [](tk::ptr<tk::half> lo, tk::ptr<tk::half> hi,
                                                   tk::ptr<const std::uint8_t> packed) {
  auto i = tk::program_id(0) * 512 + tk::arange(0, 512);
  auto bytes = tk::load(packed + i);
  auto [l, h] =
      tk::inline_asm_elementwise<tk::half, tk::half>("{\n"
                                                     ".reg .b32 t, u, c;\n"
                                                     "cvt.u32.u16 t, $2;\n"
                                                     "prmt.b32 t, t, 0, 0x4140;\n"
                                                     "mov.b32 c, 0x64006400;\n"
                                                     "lop3.b32 $0, t, 0x000f000f, c, 0xea;\n"
                                                     "sub.f16x2 $0, $0, c;\n"
                                                     "shr.u32 u, t, 4;\n"
                                                     "lop3.b32 $1, u, 0x000f000f, c, 0xea;\n"
                                                     "sub.f16x2 $1, $1, c;\n"
                                                     "}",
                                                     "=r,=r,h", std::tuple{bytes}, true, 2);
  tk::store(lo + i, l);
  tk::store(hi + i, h);
});

void test_inline_asm(bool on_gpu) {
  const std::size_t n = 4096;
  std::vector<tk::half> a(n), b(n), out(n);
  for (std::size_t k = 0; k < n; ++k) {
    a[k] = tk::half(float(int(k % 129) - 64) * 0.25f); // sums exact in f16
    b[k] = tk::half(float(int(k % 61) - 30) * 0.5f);
  }
  try {
    packed_add.launch(tk::grid(int(n / 1024)), interpreter, out, a, b);
    check(false, "inline asm: the interpreter refuses it");
  } catch (const tk::error &e) {
    check(std::string(e.what()).find("cannot run on the interpreter") != std::string::npos &&
              int(e.where().line()) == asm_line,
          "inline asm: the interpreter refuses it at the call's line");
  }
  if (!on_gpu)
    return;
  tk::device_buffer<tk::half> dout(out);
  packed_add.launch(tk::grid(int(n / 1024)), gpu, dout.data(),
                    tk::device_buffer<tk::half>(a).data(), tk::device_buffer<tk::half>(b).data());
  dout.download(out);
  bool ok = true;
  for (std::size_t k = 0; k < n; ++k)
    ok = ok && float(out[k]) == float(a[k]) + float(b[k]);
  check(ok, "inline asm: add.f16x2 with pack 2 adds every element");

  std::vector<std::uint8_t> packed(n);
  for (std::size_t k = 0; k < n; ++k)
    packed[k] = std::uint8_t((k * 37 + 11) & 0xff);
  tk::device_buffer<tk::half> dlo(n), dhi(n);
  unpack_int4.launch(tk::grid(int(n / 512)), gpu, dlo.data(), dhi.data(),
                     tk::device_buffer<std::uint8_t>(packed).data());
  std::vector<tk::half> lo(n), hi(n);
  dlo.download(lo);
  dhi.download(hi);
  ok = true;
  for (std::size_t k = 0; k < n; ++k)
    ok = ok && float(lo[k]) == float(packed[k] & 15) && float(hi[k]) == float(packed[k] >> 4);
  check(ok, "inline asm: int4 -> f16 unpack with prmt and lop3, two results, pack 2");
}

// ---------------------------------------------------------------------------------------------
// Cache hints and compiler hints

const auto hinted_copy =
    tk::jit("hinted_copy", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
      auto i = tk::program_id(0) * 1024 + tk::arange(0, 1024);
      auto m = i < n;
      auto a = tk::load(in + i, m, 0.0f, {.cache_modifier = tk::cache_modifier::cg});
      auto b = tk::load(in + i, m, 0.0f, {.cache_modifier = tk::cache_modifier::ca});
      auto c = tk::load(in + i, m, 0.0f, {.cache_modifier = tk::cache_modifier::cs});
      auto d = tk::load(in + i, m, 0.0f, {.cache_modifier = tk::cache_modifier::cv});
      auto e = tk::load(in + i, m, 0.0f, {.eviction_policy = tk::eviction_policy::evict_first});
      auto f = tk::load(in + i, m, 0.0f, {.eviction_policy = tk::eviction_policy::evict_last});
      auto g = tk::load(in + i, m, 0.0f, {.is_volatile = true});
      auto all = a + b + c + d + e + f + g; // exact: seven times a small multiple of 1/2
      tk::store(out + i, all, m, {.cache_modifier = tk::cache_modifier::wt});
      tk::store(out + n + i, a, m, {.cache_modifier = tk::cache_modifier::cs});
      tk::store(out + 2 * n + i, g, m, {.eviction_policy = tk::eviction_policy::evict_first});
      tk::store(out + 3 * n + i, f, m, {.cache_modifier = tk::cache_modifier::wb});
    });

const auto slot_gather = tk::jit("slot_gather", [](tk::ptr<float> out, tk::ptr<const float> table,
                                                   tk::ptr<const std::int32_t> slots) {
  auto i = tk::program_id(0) * 1024 + tk::arange(0, 1024);
  auto slot = tk::max_contiguous(tk::multiple_of(tk::load(slots + i), 4), 4);
  tk::store(out + i, tk::load(table + slot));
});

/// A vector argument: itself on the interpreter; on the GPU a device copy, copied back after
/// the launch. Other arguments pass as they are.
template <class T> struct mirrored {
  std::vector<T> &host;
  std::optional<tk::device_buffer<T>> device;
};
template <class T> mirrored<T> mirror(std::vector<T> &h, bool on_gpu) {
  mirrored<T> m{h, {}};
  if (on_gpu)
    m.device.emplace(h);
  return m;
}
template <class A> A mirror(A &a, bool) { return a; }
template <class T> T *device_side(mirrored<T> &m) { return m.device->data(); }
template <class A> A device_side(A &a) { return a; }
template <class T> std::vector<T> &host_side(mirrored<T> &m) { return m.host; }
template <class A> A host_side(A &a) { return a; }
template <class T> void copy_back(mirrored<T> &m) {
  if (m.device)
    m.device->download(m.host);
}
template <class A> void copy_back(A &) {}

/// Launches `k` on the GPU or the interpreter.
template <class K, class... A> void launch_both(bool on_gpu, const K &k, tk::grid g, A &...a) {
  std::tuple<decltype(mirror(a, on_gpu))...> args{mirror(a, on_gpu)...};
  std::apply(
      [&](auto &...m) {
        if (on_gpu)
          k.launch(g, gpu, device_side(m)...);
        else
          k.launch(g, interpreter, host_side(m)...);
        (copy_back(m), ...);
      },
      args);
}

void test_hints(bool on_gpu) {
  const int n = 3000;
  std::vector<float> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(4 * n), -1.0f);
  for (int k = 0; k < n; ++k)
    in[std::size_t(k)] = float(k) * 0.5f - 100.0f; // exact sums: multiples of 1/2, small
  launch_both(on_gpu, hinted_copy, tk::grid(tk::cdiv(n, 1024)), out, in, n);
  bool ok = true;
  for (int k = 0; k < n; ++k)
    for (int part = 0; part < 4; ++part)
      ok = ok && out[std::size_t(part * n + k)] == in[std::size_t(k)] * (part == 0 ? 7.0f : 1.0f);
  check(ok, std::string("memory hints: every cache operator, eviction priority and volatile load "
                        "copies its input (") +
                (on_gpu ? "GPU" : "interpreter") + ")");

  // Pages of 4 rows: slot runs of 4 consecutive values starting at multiples of 4.
  const int rows = 8192;
  std::vector<float> table(static_cast<std::size_t>(rows));
  for (int k = 0; k < rows; ++k)
    table[std::size_t(k)] = float(k);
  std::vector<std::int32_t> slots(4096);
  for (int page = 0; page < 1024; ++page)
    for (int r = 0; r < 4; ++r)
      slots[std::size_t(page * 4 + r)] = ((page * 389) % (rows / 4)) * 4 + r;
  std::vector<float> gathered(4096);
  launch_both(on_gpu, slot_gather, tk::grid(4), gathered, table, slots);
  ok = true;
  for (std::size_t k = 0; k < slots.size(); ++k)
    ok = ok && gathered[k] == table[std::size_t(slots[k])];
  check(ok, std::string("hints: a gather through hinted slots (") +
                (on_gpu ? "GPU" : "interpreter") + ")");
}

/// Row p of `out` is the 256 floats at the address rows[p], which the kernel loads: only the
/// hint says the address is 16-byte aligned (the copies are then 16-byte vectors).
const auto row_copy = tk::jit("row_copy", [](tk::ptr<float> out, tk::ptr<const std::int64_t> rows) {
  auto row = tk::multiple_of(tk::cast<float *>(tk::load(rows + tk::program_id(0))), 16);
  auto offs = tk::arange(0, 256);
  tk::store(out + tk::program_id(0) * 256 + offs, tk::load(row + offs));
});

void test_pointer_hints(bool on_gpu) {
  const int count = 8;
  std::vector<float> data(std::size_t(count) * 256 + 4), out(std::size_t(count) * 256, -1.0f);
  for (std::size_t k = 0; k < data.size(); ++k)
    data[k] = float(k) * 0.25f;
  const auto address = [](const float *p) {
    return std::int64_t(reinterpret_cast<std::uintptr_t>(p));
  };
  // Rows in reverse order, 16-byte aligned on the GPU (cudaMalloc) and on the host (a vector of
  // floats at an offset of 256 floats from its start, which malloc aligns to 16).
  std::vector<std::int64_t> rows(count);
  if (on_gpu) {
    tk::device_buffer<float> device_data(data), device_out(out);
    for (int p = 0; p < count; ++p)
      rows[std::size_t(p)] = address(device_data.data() + (count - 1 - p) * 256);
    tk::device_buffer<std::int64_t> device_rows(rows);
    row_copy.launch(tk::grid(count), gpu, device_out.data(), std::as_const(device_rows).data());
    device_out.download(out);
  } else {
    for (int p = 0; p < count; ++p)
      rows[std::size_t(p)] = address(data.data() + (count - 1 - p) * 256);
    row_copy.launch(tk::grid(count), {.backend = tk::backend::interpreter, .checked = true}, out,
                    rows);
  }
  bool ok = true;
  for (int p = 0; p < count; ++p)
    for (int k = 0; k < 256; ++k)
      ok = ok && out[std::size_t(p * 256 + k)] == data[std::size_t((count - 1 - p) * 256 + k)];
  check(ok, std::string("hints: rows copied from loaded, hinted addresses (") +
                (on_gpu ? "GPU" : "interpreter") + ")");
}

// ---------------------------------------------------------------------------------------------
// Assertions

int assert_line = 0;

const auto checked_scale =
    tk::jit("checked_scale", [](tk::ptr<float> out, tk::ptr<const float> in) {
      auto i = tk::program_id(0) * 128 + tk::arange(0, 128);
      auto x = tk::load(in + i);
      assert_line = __LINE__ + 1;
      tk::device_assert(x >= 0.0f, "inputs must not be negative");
      tk::store(out + i, x * 2.0f);
    });

void test_assert(bool on_gpu) {
  std::vector<float> in(512, 1.0f), out(512);
  in[2 * 128 + 5] = -1.0f; // program 2, element 5
  // Off by default: the kernel runs.
  launch_both(on_gpu, checked_scale, tk::grid(4), out, in);
  check(out[0] == 2.0f && out[2 * 128 + 5] == -2.0f, "assert: off by default, the kernel runs");
  const tk::launch_options debug{.backend = on_gpu ? tk::backend::gpu : tk::backend::interpreter,
                                 .debug = true};
  try {
    if (on_gpu) {
      tk::device_buffer<float> dout(out), din(in);
      checked_scale.launch(tk::grid(4), debug, dout.data(), din.data());
      dout.download(out);
    } else {
      checked_scale.launch(tk::grid(4), debug, out, in);
    }
    check(false, "assert: with debug, a failed assert throws");
  } catch (const tk::error &e) {
    const std::string what = e.what();
    std::printf("  %s\n", what.c_str());
    check(int(e.where().line()) == assert_line &&
              what.find("inputs must not be negative") != std::string::npos &&
              what.find("(2, 0, 0)") != std::string::npos,
          "assert: the error names the assert's line, its message and the program");
    if (on_gpu)
      check(what.find("element 5") != std::string::npos, "assert: ... and the element");
  }
}

} // namespace

int main(int argc, char **argv) {
  bool interpreter_only = false, asserts = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--interpreter") == 0)
      interpreter_only = true;
    else if (std::strcmp(argv[i], "assert") == 0)
      asserts = true;
  }
  if (!interpreter_only) {
    if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
      std::printf("SKIPPED: %s\n", why.c_str());
      return 77;
    }
    std::printf("running on %s\n", tk::gpu_name().c_str());
  }
  const bool on_gpu = !interpreter_only;
  try {
    if (asserts) {
      test_assert(on_gpu); // last: a failed assert leaves the CUDA context unusable
    } else {
      test_print(on_gpu);
      test_inline_asm(on_gpu);
      test_hints(on_gpu);
      test_pointer_hints(on_gpu);
      if (interpreter_only)
        test_assert(false);
    }
  } catch (const std::exception &e) {
    check(false, std::string("unexpected exception: ") + e.what());
  }
  std::printf("%d failure(s) in %d checks\n", failures, checks);
  return failures ? 1 : 0;
}
