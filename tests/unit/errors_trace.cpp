/// @file errors_trace.cpp
/// Runtime errors raised by operations inside a kernel body: one TEST_CASE per error, each checking
/// that a tk::error is thrown, what it says, and that it names the line of this file where the
/// offending statement is (each kernel sets `line = __LINE__ + 1;` just before that statement).
/// Errors are checked on both paths: `.ir()` and the interpreter (which traces each loop and branch
/// before it runs it, so that the checks of carried values are the same).
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view this_file = "errors_trace.cpp";

} // namespace

TEST_CASE("errors: operands whose shapes do not broadcast", "[errors]") {
  int line = 0;
  SECTION("binary operator") {
    auto k = tk::jit("k", [&] {
      auto a = tk::arange(0, 16);
      auto b = tk::arange(0, 32);
      line = __LINE__ + 1;
      auto c = a + b;
      (void)c;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "binary operation: shapes [16] and [32] do not broadcast (dimension 0 "
        "is 16 against 32)");
  }
  SECTION("2-D binary operator") {
    auto k = tk::jit("k", [&] {
      auto rows = tk::arange(0, 16)(tk::_, tk::newaxis);
      auto tile = tk::zeros<float>({8, 32});
      line = __LINE__ + 1;
      auto c = tile * rows;
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line, "shapes [8, 32] and [16, 1] do not broadcast");
  }
  SECTION("comparison") {
    auto k = tk::jit("k", [&] {
      auto a = tk::arange(0, 16);
      auto b = tk::arange(0, 32);
      line = __LINE__ + 1;
      auto c = a < b;
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "comparison: shapes [16] and [32] do not broadcast");
  }
  SECTION("tk::where") {
    auto k = tk::jit("k", [&] {
      auto a = tk::arange(0, 16);
      auto b = tk::arange(0, 32);
      line = __LINE__ + 1;
      auto c = tk::where(a > 3, a, b);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::where: shapes [16] and [32] do not broadcast");
  }
}

TEST_CASE("errors: a mask, other or value whose shape does not fit the pointers", "[errors]") {
  int line = 0;
  std::vector<float> buffer(64, 1.0f);
  float *out = buffer.data();
  SECTION("tk::load mask") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto a = tk::arange(0, 16);
      auto b = tk::arange(0, 32);
      line = __LINE__ + 1;
      auto x = tk::load(p + a, b < 8);
      (void)x;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::load: the mask of shape [32] and the pointer block of shape [16] do "
        "not broadcast (dimension 0 is 32 against 16)",
        out);
  }
  SECTION("tk::load other") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto a = tk::arange(0, 16);
      auto other = tk::zeros<float>({8, 32});
      line = __LINE__ + 1;
      auto x = tk::load(p + a, a < 8, other);
      (void)x;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::load: other of shape [8, 32] and the loaded block of shape [16] do "
        "not broadcast (dimension 1 is 32 against 16)",
        out);
  }
  SECTION("tk::store value") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto a = tk::arange(0, 16);
      auto v = tk::zeros<float>({32});
      line = __LINE__ + 1;
      tk::store(p + a, v);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [32] does not broadcast to the pointer "
        "block of shape [16] (dimension 0 is 32 against 16); only its dimensions "
        "of size 1 may stretch",
        out);
  }
  SECTION("tk::store value that would stretch the pointers") {
    // Broadcasting the pointers would make the 4 rows write one address each.
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto row = tk::arange(0, 16)(tk::newaxis, tk::_);
      auto v = tk::zeros<float>({4, 16});
      line = __LINE__ + 1;
      tk::store(p + row, v);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [4, 16] does not broadcast to the pointer "
        "block of shape [1, 16] (dimension 0 is 4 against 1)",
        out);
  }
  SECTION("tk::store value of a higher rank") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto v = tk::zeros<float>({2, 16});
      line = __LINE__ + 1;
      tk::store(p + tk::arange(0, 16), v);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [2, 16] does not broadcast to the pointer "
        "block of shape [16] (it has 2 dimensions, more than 1)",
        out);
  }
  SECTION("tk::store of a block through a scalar pointer") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto x = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::store(p + tk::program_id(0), x);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [16] does not broadcast to the pointer "
        "block of shape [] (it has 1 dimension, more than 0)",
        out);
  }
  SECTION("tk::store mask") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto a = tk::arange(0, 16);
      auto b = tk::arange(0, 32);
      line = __LINE__ + 1;
      tk::store(p + a, 1.0f, b < 8);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the mask of shape [32] does not broadcast to the pointer "
        "block of shape [16] (dimension 0 is 32 against 16)",
        out);
  }
}

TEST_CASE("errors: a stored value larger than a descriptor's or block pointer's block",
          "[errors]") {
  // The same rule as tk::store's; before it, the interpreter wrote part of the value and the
  // trace recorded a tk.broadcast that shrinks.
  int line = 0;
  std::vector<float> buffer(512, -1.0f);
  float *out = buffer.data();
  SECTION("tensor descriptor") {
    auto k = tk::jit("k", [&](tk::ptr<float> o) {
      auto d = tk::make_tensor_descriptor(o, {16, 16}, {16, 1}, {16, 16});
      line = __LINE__ + 1;
      d.store({0, 0}, tk::zeros<float>({32, 32}));
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tensor_descriptor::store: the value of shape [32, 32] does not "
        "broadcast to the descriptor's block of shape [16, 16] (dimension 0 is "
        "32 against 16); only its dimensions of size 1 may stretch",
        out);
    CHECK(buffer[0] == -1.0f);
  }
  SECTION("tensor descriptor, a row stretched") {
    auto k = tk::jit("k", [&](tk::ptr<float> o) {
      auto d = tk::make_tensor_descriptor(o, {16, 16}, {16, 1}, {16, 16});
      d.store({0, 0}, tk::full<float>({1, 16}, 3.0f));
    });
    k.interpret(tk::grid(1), out);
    CHECK(buffer[15 * 16 + 15] == 3.0f);
  }
  SECTION("block pointer") {
    auto k = tk::jit("k", [&](tk::ptr<float> o) {
      auto p = tk::make_block_ptr(o + 256, {16}, {1}, {0}, {16});
      line = __LINE__ + 1;
      tk::store(p, tk::cast<float>(tk::arange(0, 32)));
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [32] does not broadcast to the block "
        "pointer's block of shape [16] (dimension 0 is 32 against 16)",
        out);
    CHECK(buffer[256] == -1.0f);
  }
  SECTION("block pointer, a value of a higher rank") {
    auto k = tk::jit("k", [&](tk::ptr<float> o) {
      auto p = tk::make_block_ptr(o, {16, 16}, {16, 1}, {0, 0}, {16, 16});
      line = __LINE__ + 1;
      tk::store(p, tk::zeros<float>({2, 16, 16}));
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::store: the value of shape [2, 16, 16] does not broadcast to the block "
        "pointer's block of shape [16, 16] (it has 3 dimensions, more than 2)",
        out);
  }
}

TEST_CASE("errors: tensor descriptor whose last stride is not the constant 1", "[errors]") {
  int line = 0;
  std::vector<float> buffer(1024, 1.0f);
  float *in = buffer.data();
  const std::string_view message =
      "tk::make_tensor_descriptor: the last stride must be the constant 1 (the last dimension "
      "contiguous), got ";
  SECTION("literal 2") {
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n) {
      line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(p, {n, n}, {64, 2}, {16, 16});
      d.store({0, 0}, 1.0f);
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        std::string(message) + "2; pass the literal 1, and for a tensor whose last dimension is "
                               "strided, load through pointer blocks or tk::make_block_ptr instead",
        in, 16);
  }
  SECTION("literal 0") {
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n) {
      line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(p, {n}, {0}, {16});
      d.store({0}, 1.0f);
    });
    tk_test::trace_and_interpret(this_file, k, line, std::string(message) + "0;", in, 16);
  }
  SECTION("tk::constant 2") {
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n, tk::constant<int> S) {
      line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(p, {n, n}, {64, S}, {16, 16});
      d.store({0, 0}, 1.0f);
    });
    tk_test::trace_and_interpret(this_file, k, line, std::string(message) + "2;", in, 16,
                                 tk::constant(2));
  }
  SECTION("kernel argument") {
    // A run-time stride is refused whatever its value, 1 included: the kernel is compiled once
    // for all of them.
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n, tk::i64 stride) {
      line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(p, {n, n}, {64, stride}, {16, 16});
      d.store({0, 0}, 1.0f);
    });
    for (std::int64_t stride : {1, 2})
      DYNAMIC_SECTION("stride " << stride) {
        tk_test::trace_and_interpret(this_file, k, line, std::string(message) + "a run-time value;",
                                     in, 16, stride);
      }
  }
  SECTION("scalar computed in the kernel") {
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n) {
      auto one = tk::program_id(0) + 1;
      line = __LINE__ + 1;
      auto d = tk::make_tensor_descriptor(p, {n}, {one}, {16});
      d.store({0}, 1.0f);
    });
    tk_test::trace_and_interpret(this_file, k, line, std::string(message) + "a run-time value;", in,
                                 16);
  }
  SECTION("the constant 1 is accepted") {
    auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n, tk::constant<int> S) {
      auto d = tk::make_tensor_descriptor(p, {n, n}, {64, S}, {16, 16});
      d.store({0, 0}, 2.0f);
    });
    CHECK(k.ir(in, 16, tk::constant(1)).find("tk.make_tensor_descriptor") != std::string::npos);
    k.interpret(tk::grid(1), in, 16, tk::constant(1));
    CHECK(buffer[64 + 3] == 2.0f);
  }
}

TEST_CASE("errors: a NaN-padded tensor descriptor of integers", "[errors]") {
  int line = 0;
  std::vector<std::int32_t> buffer(256, 1);
  auto k = tk::jit("k", [&](tk::ptr<std::int32_t> p) {
    line = __LINE__ + 1;
    auto d = tk::make_tensor_descriptor(p, {16, 16}, {16, 1}, {16, 16}, tk::padding::nan);
    d.store({0, 0}, d.load({0, 0}) + 1);
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::make_tensor_descriptor: padding::nan needs a tensor of floats, got i32", buffer.data());
  CHECK(buffer == std::vector<std::int32_t>(256, 1));
}

TEST_CASE("errors: a tensor descriptor assigned one of another padding", "[errors]") {
  // A loop carrying the variable would read with either padding.
  int line = 0;
  std::vector<float> buffer(64, 1.0f);
  auto k = tk::jit("k", [&](tk::ptr<float> p) {
    auto d = tk::make_tensor_descriptor(p, {16}, {1}, {16}, tk::padding::nan);
    tk::for_range(0, 4, [&](tk::i32 i) {
      d.store({0}, d.load({0}) + 1.0f);
      line = __LINE__ + 1;
      d = tk::make_tensor_descriptor(p + i * 16, {16}, {1}, {16});
    });
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::make_tensor_descriptor: a descriptor padded with zeros is "
                               "assigned to one padded with NaN; a descriptor variable keeps one "
                               "padding",
                               buffer.data());
}

TEST_CASE("errors: compound assignment that would grow the block", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto row = tk::zeros<float>({1, 16});
    auto tile = tk::zeros<float>({8, 16});
    line = __LINE__ + 1;
    row += tile;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "compound assignment: the result has shape [8, 16]");
}

TEST_CASE("errors: tk::arange with a size that is not a power of two", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::constant<int> BLOCK) {
    line = __LINE__ + 1;
    auto cols = tk::arange(0, BLOCK);
    (void)cols;
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::arange(0, 100): the range holds 100 values, which is not a power "
      "of two; round the block size up with tk::next_pow2",
      tk::constant<int>(100));
}

TEST_CASE("errors: tk::arange whose end is not greater than its start", "[errors]") {
  int line = 0;
  SECTION("empty range") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto cols = tk::arange(16, 16);
      (void)cols;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::arange(16, 16): end must be greater than start");
  }
  SECTION("reversed range") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto cols = tk::arange(32, 0);
      (void)cols;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::arange(32, 0): end must be greater than start");
  }
}

TEST_CASE("errors: tk::arange bounds beyond 32 bits", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    const std::int64_t start = std::int64_t(1) << 31;
    line = __LINE__ + 1;
    auto cols = tk::arange(start, start + 16);
    (void)cols;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::arange(2147483648, 2147483664): bounds must fit in 32 bits");
}

TEST_CASE("errors: block with more than 2^20 elements", "[errors]") {
  int line = 0;
  SECTION("tk::arange") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto cols = tk::arange(0, 1 << 21);
      (void)cols;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::arange: a block may hold at most 1048576 elements, shape [2097152] "
        "has 2097152");
  }
  SECTION("tk::zeros") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto tile = tk::zeros<float>({2048, 1024});
      (void)tile;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "a block may hold at most 1048576 elements, shape [2048, 1024]");
  }
}

TEST_CASE("errors: tk::full with a shape that is not a power of two", "[errors]") {
  int line = 0;
  SECTION("tk::full") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto tile = tk::full<float>({3, 4}, 1.0f);
      (void)tile;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::full: every dimension of a block must be a power of two, got shape "
        "[3, 4]");
  }
  SECTION("tk::zeros") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto tile = tk::zeros<int>({48});
      (void)tile;
    });
    tk_test::trace_and_interpret(
        this_file, k, line, "every dimension of a block must be a power of two, got shape [48]");
  }
}

TEST_CASE("errors: reduction axis out of range", "[errors]") {
  int line = 0;
  SECTION("tk::sum") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto s = tk::sum(x, 1);
      (void)s;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::sum: axis 1 is out of range for a block of rank 1 (valid: -1 to 0)");
  }
  SECTION("tk::max with keep_dims") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16, 16});
      line = __LINE__ + 1;
      auto s = tk::max(x, 2, tk::keep_dims);
      (void)s;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::max: axis 2 is out of range for a block of rank 2");
  }
  SECTION("tk::argmax") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16, 16});
      line = __LINE__ + 1;
      auto s = tk::argmax(x, 5);
      (void)s;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::argmax: axis 5 is out of range for a block of rank 2");
  }
  SECTION("tk::cumsum") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto s = tk::cumsum(x, 1);
      (void)s;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::cumsum: axis 1 is out of range for a block of rank 1");
  }
  SECTION("tk::reduce") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto s = tk::reduce(x, 3, [](tk::i32 a, tk::i32 b) { return a + b; });
      (void)s;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::reduce: axis 3 is out of range for a block of rank 1");
  }
}

TEST_CASE("errors: negative reduction axis out of range", "[errors]") {
  int line = 0;
  SECTION("tk::sum") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16, 16});
      line = __LINE__ + 1;
      auto s = tk::sum(x, -3);
      (void)s;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::sum: axis -3 is out of range for a block of rank 2 (valid: -2 to 1)");
  }
  SECTION("tk::min") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto s = tk::min(x, -2);
      (void)s;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::min: axis -2 is out of range for a block of rank 1");
  }
}

TEST_CASE("errors: tk::dot inner dimensions differ", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto a = tk::zeros<float>({16, 32});
    auto b = tk::zeros<float>({16, 16});
    line = __LINE__ + 1;
    auto c = tk::dot(a, b);
    (void)c;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::dot: inner dimensions differ: a is [16, 32], b is [16, 16]");
}

TEST_CASE("errors: tk::dot dimension below 16", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto a = tk::zeros<tk::half>({8, 16});
    auto b = tk::zeros<tk::half>({16, 16});
    line = __LINE__ + 1;
    auto c = tk::dot(a, b);
    (void)c;
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::dot: every dimension must be at least 16 (tensor-core tiles), got a "
      "[8, 16] and b [16, 16]");
}

TEST_CASE("errors: a batched tk::dot of two batch sizes", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto a = tk::zeros<tk::half>({2, 16, 16});
    auto b = tk::zeros<tk::half>({4, 16, 16});
    line = __LINE__ + 1;
    auto c = tk::dot(a, b);
    (void)c;
  });
  tk_test::trace_and_interpret(
      this_file, k, line, "tk::dot: the batch sizes differ: a is [2, 16, 16], b is [4, 16, 16]");
}

TEST_CASE("errors: tk::dot max_num_imprecise_acc above K", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto a = tk::zeros<tk::f8e4m3>({16, 32});
    auto b = tk::zeros<tk::f8e4m3>({32, 16});
    line = __LINE__ + 1;
    auto c = tk::dot(a, b, {.max_num_imprecise_acc = 64});
    (void)c;
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::dot: max_num_imprecise_acc must be from 0 to K = 32, got 64");
}

TEST_CASE("errors: tk::dot accumulator of the wrong shape", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto a = tk::zeros<float>({16, 32});
    auto b = tk::zeros<float>({32, 64});
    auto acc = tk::zeros<float>({16, 32});
    line = __LINE__ + 1;
    acc = tk::dot(a, b, acc);
  });
  tk_test::trace_and_interpret(this_file, k, line,
                               "tk::dot: the accumulator is [16, 32] but a x b is [16, 64]");
}

TEST_CASE("errors: tk::reshape to a different number of elements", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto x = tk::arange(0, 16);
    line = __LINE__ + 1;
    auto y = tk::reshape(x, {4, 8});
    (void)y;
  });
  tk_test::trace_and_interpret(
      this_file, k, line, "tk::reshape: cannot reshape [16] (16 elements) to [4, 8] (32 elements)");
}

TEST_CASE("errors: tk::permute with an invalid order", "[errors]") {
  int line = 0;
  SECTION("repeated dimension") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16, 32});
      line = __LINE__ + 1;
      auto y = tk::permute(x, {0, 0});
      (void)y;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::permute: the order must list each dimension 0..1 exactly once, got "
        "[0, 0]");
  }
  SECTION("dimension out of range") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({2, 4, 8});
      line = __LINE__ + 1;
      auto y = tk::permute(x, {2, 3, 0});
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "each dimension 0..2 exactly once, got [2, 3, 0]");
  }
}

TEST_CASE("errors: tk::expand_dims with an axis out of range", "[errors]") {
  int line = 0;
  SECTION("too large") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto y = tk::expand_dims(x, 2);
      (void)y;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::expand_dims: axis 2 is out of range for a block of rank 2 (valid: "
        "-2 to 1)");
  }
  SECTION("negative") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto y = tk::expand_dims(x, -3);
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line, "tk::expand_dims: axis -3 is out of range");
  }
}

TEST_CASE("errors: tk::broadcast_to an incompatible shape", "[errors]") {
  int line = 0;
  SECTION("dimensions differ") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto y = tk::broadcast_to(x, {4, 32});
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::broadcast_to: shapes [16] and [4, 32] do not broadcast");
  }
  SECTION("target smaller than the block") {
    auto k = tk::jit("k", [&] {
      auto x = tk::arange(0, 16);
      line = __LINE__ + 1;
      auto y = tk::broadcast_to(x, {1});
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::broadcast_to: shape [16] cannot be broadcast to [1]");
  }
}

TEST_CASE("errors: tk::program_id axis out of range", "[errors]") {
  int line = 0;
  SECTION("tk::program_id(3)") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto pid = tk::program_id(3);
      (void)pid;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::program_id: axis must be 0, 1 or 2, got 3");
  }
  SECTION("tk::num_programs(-1)") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      auto n = tk::num_programs(-1);
      (void)n;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::num_programs: axis must be 0, 1 or 2, got -1");
  }
}

TEST_CASE("errors: block handle used without a value", "[errors]") {
  int line = 0;
  std::vector<float> buffer(16, 1.0f);
  float *out = buffer.data();
  const char *message =
      "this block handle holds no value: it was default-constructed or moved from";
  SECTION("binary operator") {
    auto k = tk::jit("k", [&] {
      tk::block<float, 1> x;
      line = __LINE__ + 1;
      auto y = x * 2.0f;
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line, message);
  }
  SECTION("math function") {
    auto k = tk::jit("k", [&] {
      tk::block<float, 1> x;
      line = __LINE__ + 1;
      auto y = tk::exp(x);
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line, message);
  }
  SECTION("reduction") {
    auto k = tk::jit("k", [&] {
      tk::block<float, 2> x;
      line = __LINE__ + 1;
      auto y = tk::sum(x, 0);
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line, message);
  }
  SECTION("tk::zeros_like") {
    auto k = tk::jit("k", [&] {
      tk::block<float, 2> x;
      line = __LINE__ + 1;
      auto y = tk::zeros_like(x);
      (void)y;
    });
    tk_test::trace_and_interpret(this_file, k, line, message);
  }
  SECTION("shape()") {
    auto k = tk::jit("k", [&] {
      tk::block<float, 2> x;
      line = __LINE__ + 1;
      auto rows = x.shape()[0];
      (void)rows;
    });
    tk_test::trace_and_interpret(this_file, k, line, message);
  }
  SECTION("moved-from value stored") {
    auto k = tk::jit("k", [&](tk::ptr<float> p) {
      auto cols = tk::arange(0, 16);
      auto x = tk::zeros<float>({16});
      auto y = std::move(x);
      (void)y;
      line = __LINE__ + 1;
      tk::store(p + cols, x);
    });
    tk_test::trace_and_interpret(this_file, k, line, message, out);
  }
}

TEST_CASE("errors: TileKit operation called outside of a kernel", "[errors]") {
  int line = 0;
  const char *message = "TileKit operations run only inside a kernel";
  SECTION("tk::arange") {
    tk_test::expect_error(this_file, line, message, [&] {
      line = __LINE__ + 1;
      auto cols = tk::arange(0, 16);
      (void)cols;
    });
  }
  SECTION("tk::program_id") {
    tk_test::expect_error(this_file, line, message, [&] {
      line = __LINE__ + 1;
      auto pid = tk::program_id(0);
      (void)pid;
    });
  }
  SECTION("tk::zeros") {
    tk_test::expect_error(this_file, line, message, [&] {
      line = __LINE__ + 1;
      auto z = tk::zeros<float>({16});
      (void)z;
    });
  }
}

TEST_CASE("errors: tk::for_range carries a handle that has no value before the loop", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    tk::block<float, 1> acc;
    line = __LINE__ + 1;
    tk::for_range(0, 4, [&](tk::i32) { acc = tk::zeros<float>({16}); });
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::for_range: a block handle assigned in the body has no value before it; "
      "initialize it (e.g. with tk::zeros) before the tk::for_range");
}

TEST_CASE("errors: tk::for_range body leaves a carried handle without a value", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    auto acc = tk::zeros<float>({16});
    line = __LINE__ + 1;
    tk::for_range(0, 4, [&](tk::i32) { acc = tk::block<float, 1>(); });
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::for_range: a carried block handle was left without a value by the body");
}

TEST_CASE("errors: loop-carried value changes shape", "[errors]") {
  int line = 0;
  SECTION("tk::for_range") {
    auto k = tk::jit("k", [&] {
      auto acc = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::for_range(0, 4, [&](tk::i32) { acc = tk::zeros<float>({32}); });
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::for_range: a carried value changes from f32 [16] to f32 [32] in the body; a "
        "carried value must keep its type and shape");
  }
  SECTION("tk::while_") {
    auto k = tk::jit("k", [&] {
      auto acc = tk::zeros<float>({16});
      auto i = tk::program_id(0);
      line = __LINE__ + 1;
      tk::while_([&] { return i < 4; },
                 [&] {
                   acc = tk::zeros<float>({32});
                   i = i + 1;
                 });
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::while_: a carried value changes from f32 [16] to f32 [32]");
  }
}

TEST_CASE("errors: a carried value that changes shape where the interpreter runs no such code",
          "[errors]") {
  // The interpreter checks each loop and branch as the trace does, whatever it runs: a loop of no
  // iterations, the branch not taken.
  int line = 0;
  SECTION("tk::for_range of no iterations") {
    auto k = tk::jit("k", [&](tk::i32 n) {
      auto acc = tk::zeros<float>({16});
      line = __LINE__ + 1;
      tk::for_range(0, n, [&](tk::i32) { acc = tk::zeros<float>({8}); });
    });
    tk_test::trace_and_interpret(
        this_file, k, line, "tk::for_range: a carried value changes from f32 [16] to f32 [8]", 0);
  }
  SECTION("tk::while_ whose condition is false at once") {
    auto k = tk::jit("k", [&] {
      auto acc = tk::zeros<std::int32_t>({16});
      auto i = tk::program_id(0);
      line = __LINE__ + 1;
      tk::while_([&] { return i > 4; },
                 [&] {
                   acc = tk::zeros<std::int32_t>({8});
                   i = i + 1;
                 });
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::while_: a carried value changes from i32 [16] to i32 [8]");
  }
  SECTION("tk::if_, the branch not taken") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16});
      auto pid = tk::program_id(0);
      line = __LINE__ + 1;
      tk::if_(pid == 1, [&] { x = tk::zeros<float>({32}); }, [&] { x = x + 1.0f; });
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::if_: a carried value changes from f32 [32] to f32 [16]");
  }
  SECTION("tk::if_, a result of another type in the branch not taken") {
    auto k = tk::jit("k", [&] {
      auto pid = tk::program_id(0);
      line = __LINE__ + 1;
      auto x = tk::if_(
          pid == 0, [&] { return tk::zeros<float>({16}); }, [&] { return tk::zeros<float>({8}); });
      (void)x;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::if_: a carried value changes from f32 [16] to f32 [8]");
  }
}

TEST_CASE("tk::for_range, tk::while_, tk::if_: the interpreter still runs them as written",
          "[errors]") {
  // Checking a loop or branch by tracing it first leaves the program instance's values alone.
  std::vector<float> out(16, 0.0f);
  auto k = tk::jit("k", [&](tk::ptr<float> p, tk::i32 n) {
    auto cols = tk::arange(0, 16);
    auto acc = tk::zeros<float>({16});
    tk::for_range(0, n, [&](tk::i32 i) { acc = acc + tk::cast<float>(i); });
    auto j = tk::program_id(0);
    tk::while_([&] { return j < 3; },
               [&] {
                 acc = acc * 2.0f;
                 j = j + 1;
               });
    auto r = tk::if_(n > 2, [&] { return acc + 1.0f; }, [&] { return acc - 1.0f; });
    tk::store(p + cols, r + tk::cast<float>(cols));
  });
  k.interpret(tk::grid(1), out, 4);
  // (0 + 1 + 2 + 3) * 2^3 + 1 + col
  CHECK(out[0] == 49.0f);
  CHECK(out[15] == 64.0f);
}

TEST_CASE("errors: tk::for_range step that is not positive", "[errors]") {
  int line = 0;
  SECTION("literal step 0") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      tk::for_range(0, 4, 0, [&](tk::i32) {});
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::for_range: the step must be positive, got 0");
  }
  SECTION("literal step -1") {
    auto k = tk::jit("k", [&] {
      line = __LINE__ + 1;
      tk::for_range(4, 0, -1, [&](tk::i32) {});
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::for_range: the step must be positive, got -1");
  }
  SECTION("step computed in the kernel (interpreter)") {
    auto k = tk::jit("k", [&] {
      auto step = tk::program_id(0);
      line = __LINE__ + 1;
      tk::for_range(0, 4, step, [&](tk::i32) {});
    });
    tk_test::expect_error(this_file, line, "tk::for_range: the step must be positive, got 0",
                          [&] { k.interpret(tk::grid(1)); });
  }
}

TEST_CASE("errors: tk::if_ assigns a handle without a value in only one branch", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&] {
    tk::block<float, 1> x;
    auto pid = tk::program_id(0);
    line = __LINE__ + 1;
    tk::if_(pid == 0, [&] { x = tk::zeros<float>({16}); });
  });
  tk_test::trace_and_interpret(
      this_file, k, line,
      "tk::if_: a block handle assigned in only one branch has no value before the if");
}

TEST_CASE("errors: tk::if_ branches disagree on a shape", "[errors]") {
  int line = 0;
  SECTION("assigned handle") {
    auto k = tk::jit("k", [&] {
      auto x = tk::zeros<float>({16});
      auto pid = tk::program_id(0);
      line = __LINE__ + 1;
      tk::if_(pid == 0, [&] { x = tk::zeros<float>({32}); });
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::if_: a carried value changes from f32 [32] to f32 [16]");
  }
  SECTION("returned blocks") {
    auto k = tk::jit("k", [&] {
      auto pid = tk::program_id(0);
      line = __LINE__ + 1;
      auto x = tk::if_(
          pid == 0, [&] { return tk::zeros<float>({16}); }, [&] { return tk::zeros<float>({32}); });
      (void)x;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::if_: a carried value changes from f32 [16] to f32 [32]");
  }
}

TEST_CASE("errors: tk::load through a null pointer (interpreter)", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<const float> in, tk::i32 offset) {
    auto cols = tk::arange(0, 16);
    line = __LINE__ + 1;
    auto x = tk::load(in + offset + cols);
    (void)x;
  });
  const float *null = nullptr;
  SECTION("null pointer") {
    tk_test::expect_error(this_file, line,
                          "tk::load: null pointer dereferenced at element 0 of the block (mask "
                          "the lane off or pass a valid pointer)",
                          [&] { k.interpret(tk::grid(1), null, 0); });
  }
  SECTION("null pointer plus an offset") {
    tk_test::expect_error(this_file, line, "tk::load: null pointer dereferenced at element 0",
                          [&] { k.interpret(tk::grid(1), null, 100); });
  }
}

TEST_CASE("errors: tk::store through a null pointer (interpreter)", "[errors]") {
  int line = 0;
  auto k = tk::jit("k", [&](tk::ptr<float> out) {
    auto cols = tk::arange(0, 16);
    line = __LINE__ + 1;
    tk::store(out + cols, 1.0f, cols >= 4);
  });
  float *null = nullptr;
  tk_test::expect_error(this_file, line,
                        "tk::store: null pointer at element 4 of the block (mask the lane off or "
                        "pass a valid pointer)",
                        [&] { k.interpret(tk::grid(1), null); });
}
