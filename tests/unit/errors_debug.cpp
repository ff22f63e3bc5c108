/// @file errors_debug.cpp
/// The errors of the debugging and hint functions, each at the user's line, while tracing
/// (`.ir`) and on the interpreter alike: tk::device_print of values of different shapes; hints
/// with a value count that is not the block's rank, or values outside [1, 2^30]; the memory
/// hints PTX cannot express (a load's cache operator on a store and the other way around, a
/// volatile store, a cache operator with an eviction priority, a volatile load with either);
/// tk::inline_asm_elementwise on the interpreter, and a `pack` that does not divide the block.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_debug.cpp";

/// Checks that both tracing the kernel and running it on the interpreter fail at `line` with
/// `message`; `k` takes one float buffer.
template <class K> void expect_both(const int &line, std::string_view message, const K &k) {
  std::vector<float> buffer(64, 0.0f);
  SECTION("traced") {
    tk_test::expect_error(this_file, line, message, [&] { (void)k.ir(buffer.data()); });
  }
  SECTION("interpreted") {
    tk_test::expect_error(this_file, line, message, [&] { k.interpret(tk::grid(1), buffer); });
  }
}

} // namespace

TEST_CASE("device_print: values of different shapes", "[errors][debug]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<float> p) {
    auto x = tk::load(p + tk::arange(0, 4));
    auto y = tk::load(p + tk::arange(0, 8));
    line = __LINE__ + 1;
    tk::device_print("xy", x, y);
  });
  expect_both(line,
              "tk::device_print: the values must have one shape, got [4] and [8]; print them in "
              "separate calls",
              k);
}

TEST_CASE("hints: one value per dimension, each in [1, 2^30]", "[errors][debug][hints]") {
  int line = 0;
  SECTION("multiple_of: one value for a 2-D block") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 4)(tk::_, tk::newaxis) * 16 + tk::arange(0, 16)(tk::newaxis, tk::_);
      line = __LINE__ + 1;
      auto hinted = tk::multiple_of(offs, 16);
      tk::store(p + hinted, 0.0f);
    });
    expect_both(line, "tk::multiple_of: needs one value per dimension of the block (2), got 1", k);
  }
  SECTION("max_contiguous: two values for a 1-D block") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto offs = tk::max_contiguous(tk::arange(0, 16), {16, 16});
      tk::store(p + offs, 0.0f);
    });
    expect_both(line, "tk::max_contiguous: needs one value per dimension of the block (1), got 2",
                k);
  }
  SECTION("max_constancy: two values for a scalar") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto i = tk::max_constancy(tk::program_id(0), {1, 1});
      tk::store(p + i, 0.0f);
    });
    expect_both(line, "tk::max_constancy: needs one value per dimension of the block (1), got 2",
                k);
  }
  SECTION("multiple_of 0") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto offs = tk::multiple_of(tk::arange(0, 16), 0);
      tk::store(p + offs, 0.0f);
    });
    expect_both(line, "tk::multiple_of: values must be between 1 and 2^30, got 0", k);
  }
  SECTION("max_contiguous -4 along the second dimension") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 4)(tk::_, tk::newaxis) * 16 + tk::arange(0, 16)(tk::newaxis, tk::_);
      line = __LINE__ + 1;
      auto hinted = tk::max_contiguous(offs, {1, -4});
      tk::store(p + hinted, 0.0f);
    });
    expect_both(line, "tk::max_contiguous: values must be between 1 and 2^30, got -4", k);
  }
  SECTION("max_constancy 2^31") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto offs = tk::max_constancy(tk::arange(0, 16), std::int64_t(1) << 31);
      tk::store(p + offs, 0.0f);
    });
    expect_both(line, "tk::max_constancy: values must be between 1 and 2^30, got 2147483648", k);
  }
}

TEST_CASE("memory hints PTX cannot express", "[errors][debug][memory_hints]") {
  int line = 0;
  SECTION("a store with a load's cache operator: ca") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      tk::store(p + tk::arange(0, 16), 1.0f, {.cache_modifier = tk::cache_modifier::ca});
    });
    expect_both(line, "tk::store: cache_modifier ca is for loads; a store takes wb, cg, cs or wt",
                k);
  }
  SECTION("a masked store with cv") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 16);
      line = __LINE__ + 1;
      tk::store(p + offs, 1.0f, offs < 4, {.cache_modifier = tk::cache_modifier::cv});
    });
    expect_both(line, "tk::store: cache_modifier cv is for loads; a store takes wb, cg, cs or wt",
                k);
  }
  SECTION("a load with a store's cache operator: wb") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto x = tk::load(p + tk::arange(0, 16), {.cache_modifier = tk::cache_modifier::wb});
      tk::store(p + tk::arange(0, 16), x);
    });
    expect_both(line, "tk::load: cache_modifier wb is for stores; a load takes ca, cg, cs or cv",
                k);
  }
  SECTION("a masked load with other and wt") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto x = tk::load(p + offs, offs < 4, 0.0f, {.cache_modifier = tk::cache_modifier::wt});
      tk::store(p + offs, x);
    });
    expect_both(line, "tk::load: cache_modifier wt is for stores; a load takes ca, cg, cs or cv",
                k);
  }
  SECTION("a volatile store") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      tk::store(p, 1.0f, {.is_volatile = true});
    });
    expect_both(line, "tk::store: is_volatile applies to loads only, as in Triton", k);
  }
  SECTION("a load with a cache operator and an eviction priority") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto x = tk::load(p + offs, offs < 4,
                        {.cache_modifier = tk::cache_modifier::cg,
                         .eviction_policy = tk::eviction_policy::evict_first});
      tk::store(p + offs, x);
    });
    expect_both(line,
                "tk::load: give a cache_modifier or an eviction_policy, not both (PTX's ld takes "
                "one or the other)",
                k);
  }
  SECTION("a store with a cache operator and an eviction priority") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      tk::store(p + tk::arange(0, 16), 1.0f,
                {.cache_modifier = tk::cache_modifier::wt,
                 .eviction_policy = tk::eviction_policy::evict_last});
    });
    expect_both(line,
                "tk::store: give a cache_modifier or an eviction_policy, not both (PTX's st "
                "takes one or the other)",
                k);
  }
  SECTION("a volatile load with a cache operator") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto x = tk::load(p, {.cache_modifier = tk::cache_modifier::cv, .is_volatile = true});
      tk::store(p + 1, x);
    });
    expect_both(line, "tk::load: a volatile load takes no cache_modifier or eviction_policy", k);
  }
  SECTION("a volatile load with an eviction priority") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto x = tk::load(p + tk::arange(0, 16),
                        {.eviction_policy = tk::eviction_policy::evict_first, .is_volatile = true});
      tk::store(p + tk::arange(0, 16), x);
    });
    expect_both(line, "tk::load: a volatile load takes no cache_modifier or eviction_policy", k);
  }
}

TEST_CASE("inline_asm_elementwise: the interpreter cannot run PTX", "[errors][debug][inline_asm]") {
  int line = 0;
  std::vector<float> buffer(16, 1.0f);
  auto k = tk::jit("k", [&](tk::ptr<float> p) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(p + offs);
    line = __LINE__ + 1;
    auto y = tk::inline_asm_elementwise<float>("mov.b32 $0, $1;", "=r,r", std::tuple{x}, true, 1);
    tk::store(p + offs, y);
  });
  tk_test::expect_error(this_file, line,
                        "tk::inline_asm_elementwise cannot run on the interpreter: it runs PTX, "
                        "which only the GPU can; launch on the GPU, or write the computation with "
                        "block operations (bit shifts, tk::bitcast, tk::where) where the "
                        "interpreter must run it",
                        [&] { k.interpret(tk::grid(1), buffer); });
  // Nothing was stored.
  CHECK(buffer == std::vector<float>(16, 1.0f));
  // Tracing it is fine.
  CHECK(k.ir(buffer.data()).find("\"tk.inline_asm\"") != std::string::npos);
}

TEST_CASE("inline_asm_elementwise: pack must be positive and divide the block",
          "[errors][debug][inline_asm]") {
  int line = 0;
  std::vector<float> buffer(16, 1.0f);
  // `size` floats through one mov.b32, `pack` at a time.
  auto copy_through_asm = [&](int size, int pack) {
    return tk::jit("k", [&line, size, pack](tk::ptr<float> p) {
      auto offs = tk::arange(0, size);
      auto x = std::tuple{tk::load(p + offs)};
      line = __LINE__ + 1;
      auto y = tk::inline_asm_elementwise<float>("mov.b32 $0, $1;", "=r,r", x, true, pack);
      tk::store(p + offs, y);
    });
  };
  SECTION("pack 8 for 4 elements") {
    tk_test::expect_error(this_file, line,
                          "tk::inline_asm_elementwise: pack 8 does not divide the block's 4 "
                          "elements",
                          [&] { (void)copy_through_asm(4, 8).ir(buffer.data()); });
  }
  SECTION("pack 0") {
    tk_test::expect_error(this_file, line,
                          "tk::inline_asm_elementwise: pack must be at least 1, got 0",
                          [&] { (void)copy_through_asm(4, 0).ir(buffer.data()); });
  }
  SECTION("pack 4 for 16 elements is fine") {
    CHECK(copy_through_asm(16, 4).ir(buffer.data()).find("pack = 4 : i32") != std::string::npos);
  }
  SECTION("pack 2 for a scalar") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      line = __LINE__ + 1;
      auto y = tk::inline_asm_elementwise<float>("mov.b32 $0, $1;", "=r,r", std::tuple{tk::load(p)},
                                                 true, 2);
      tk::store(p, y);
    });
    tk_test::expect_error(this_file, line,
                          "tk::inline_asm_elementwise: pack 2 does not divide the block's 1 "
                          "elements",
                          [&] { (void)k.ir(buffer.data()); });
  }
  SECTION("arguments that do not broadcast") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto x = tk::load(p + tk::arange(0, 4));
      auto y = tk::load(p + tk::arange(0, 8));
      line = __LINE__ + 1;
      auto z = tk::inline_asm_elementwise<float>("add.f32 $0, $1, $2;", "=r,r,r", std::tuple{x, y},
                                                 true, 1);
      (void)z;
    });
    tk_test::expect_error(this_file, line, "tk::inline_asm_elementwise",
                          [&] { (void)k.ir(buffer.data()); });
  }
}
