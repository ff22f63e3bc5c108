/// @file errors_atomics.cpp
/// The errors of the atomics: on the interpreter, lanes outside the buffer argument their pointer
/// points into, null pointers and (checked mode) misaligned addresses, each named with the
/// operation, the lane and the user's line, as loads and stores are; while tracing, values and
/// masks that do not broadcast to the pointers.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_atomics.cpp";

} // namespace

TEST_CASE("interpreter: atomics outside a buffer argument name the operation and the lane",
          "[errors][atomics]") {
  int line = 0;
  std::vector<std::int32_t> small(5, 0);
  SECTION("atomic_add past the end") {
    auto k = tk::jit("k", [&](tk::ptr<std::int32_t> p) {
      line = __LINE__ + 1;
      tk::atomic_add(p + tk::arange(0, 8), 1);
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_add: lane 5 (index [5] of the [8] block) writes out of "
                          "bounds: element 5 of launch argument 0, a buffer of 5 i32 elements; "
                          "mask the lane off",
                          [&] { k.interpret(tk::grid(1), small); });
    // The lanes before the first bad one were updated, as a store writes them.
    CHECK(small == std::vector<std::int32_t>(5, 1));
  }
  SECTION("atomic_cas before the start, through a scalar pointer") {
    auto k = tk::jit("k", [&](tk::ptr<std::int32_t> lock) {
      line = __LINE__ + 1;
      auto old = tk::atomic_cas(lock - 1, 0, 1);
      (void)old;
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_cas: the scalar writes out of bounds: element -1 of launch "
                          "argument 0, a buffer of 5 i32 elements",
                          [&] { k.interpret(tk::grid(1), small); });
  }
  SECTION("atomic_max in a 2-D block, the mask letting a lane through") {
    std::vector<float> grid_values(12, 0.0f);
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto rows = tk::arange(0, 4)(tk::_, tk::newaxis), cols = tk::arange(0, 4)(tk::newaxis, tk::_);
      auto offsets = rows * 4 + cols;
      line = __LINE__ + 1;
      tk::atomic_max(p + offsets, 1.0f, offsets < 13);
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_max: lane 12 (index [3, 0] of the [4, 4] block) writes out "
                          "of bounds: element 12 of launch argument 0, a buffer of 12 f32 "
                          "elements",
                          [&] { k.interpret(tk::grid(1), grid_values); });
  }
  SECTION("masked-off lanes are never checked") {
    auto k = tk::jit("k", [](tk::ptr<std::int32_t> p) {
      auto offs = tk::arange(0, 64);
      tk::atomic_xor(p + offs, 3, offs < 5);
    });
    k.interpret(tk::grid(1), small);
    CHECK(small == std::vector<std::int32_t>(5, 3));
  }
}

TEST_CASE("interpreter: atomics through a null pointer", "[errors][atomics]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<std::int32_t> p) {
    auto offs = tk::arange(0, 4);
    line = __LINE__ + 1;
    tk::atomic_or(p + offs, 1, offs >= 2);
  });
  tk_test::expect_error(this_file, line,
                        "tk::atomic_or: null pointer at element 2 of the block (mask the lane off "
                        "or pass a valid pointer)",
                        [&] { k.interpret(tk::grid(1), static_cast<std::int32_t *>(nullptr)); });
}

TEST_CASE("interpreter: checked mode reports misaligned atomics", "[errors][atomics]") {
  int line = 0;
  alignas(8) std::int32_t raw[4] = {};
  auto k = tk::jit("k", [&](tk::ptr<std::int64_t> p) {
    line = __LINE__ + 1;
    auto old = tk::atomic_xchg(p, 1);
    (void)old;
  });
  auto *misaligned = reinterpret_cast<std::int64_t *>(raw + 1);
  tk_test::expect_error(this_file, line, "tk::atomic_xchg: the scalar writes address", [&] {
    k.launch(tk::grid(1), {.backend = tk::backend::interpreter, .checked = true}, misaligned);
  });
}

TEST_CASE("trace: an atomic's value and mask may not enlarge the pointers", "[errors][atomics]") {
  int line = 0;
  float buffer[32] = {};
  SECTION("a value of more elements than the pointers") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto v = tk::zeros<float>({32});
      line = __LINE__ + 1;
      tk::atomic_add(p + tk::arange(0, 16), v);
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_add: the value of shape [32] does not broadcast to the "
                          "pointer block of shape [16]",
                          [&] { (void)k.ir(buffer); });
  }
  SECTION("a block of values through a scalar pointer") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto v = tk::zeros<float>({4});
      line = __LINE__ + 1;
      auto old = tk::atomic_xchg(p, v);
      (void)old;
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_xchg: the value of shape [4] does not broadcast to the "
                          "pointer block of shape []",
                          [&] { (void)k.ir(buffer); });
  }
  SECTION("a mask of another shape") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 16);
      auto wide = tk::arange(0, 32) < 3;
      line = __LINE__ + 1;
      tk::atomic_min(p + offs, 1.0f, wide);
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_min: the mask of shape [32] does not broadcast to the "
                          "pointer block of shape [16]",
                          [&] { (void)k.ir(buffer); });
  }
  SECTION("a compared value of another shape") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto offs = tk::arange(0, 16);
      auto cmp = tk::zeros<float>({8});
      line = __LINE__ + 1;
      auto old = tk::atomic_cas(p + offs, cmp, 1.0f);
      (void)old;
    });
    tk_test::expect_error(this_file, line,
                          "tk::atomic_cas: the compared value of shape [8] does not broadcast to "
                          "the pointer block of shape [16]",
                          [&] { (void)k.ir(buffer); });
  }
}

TEST_CASE("errors: tensor-descriptor atomics", "[errors][atomics][descriptor]") {
  int line = 0;
  std::vector<std::int32_t> buffer(256, 0);
  SECTION("a value larger than the descriptor's block") {
    auto k = tk::jit("k", [&](tk::ptr<std::int32_t> p) {
      auto d = tk::make_tensor_descriptor(p, {16, 16}, {16, 1}, {16, 16});
      line = __LINE__ + 1;
      d.atomic_max({0, 0}, tk::zeros<std::int32_t>({32, 16}));
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tensor_descriptor::atomic_max: the value of shape [32, 16] does "
                                 "not broadcast to the descriptor's block of shape [16, 16]",
                                 buffer.data());
    CHECK(buffer == std::vector<std::int32_t>(256, 0));
  }
  SECTION("a tensor larger than its buffer argument") {
    std::vector<std::int32_t> small(100, 0);
    auto k = tk::jit("k", [&](tk::ptr<std::int32_t> p) {
      auto d = tk::make_tensor_descriptor(p, {16, 16}, {16, 1}, {16, 16});
      line = __LINE__ + 1;
      d.atomic_add({0, 0}, 1);
    });
    tk_test::expect_error(this_file, line,
                          "tensor_descriptor::atomic_add: lane 100 (index [6, 4] of the [16, 16] "
                          "block) writes out of bounds",
                          [&] { k.interpret(tk::grid(1), small); });
    // The elements before the first outside the buffer were updated, lane after lane.
    CHECK(small == std::vector<std::int32_t>(100, 1));
  }
}
