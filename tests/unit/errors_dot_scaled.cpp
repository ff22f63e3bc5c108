/// @file errors_dot_scaled.cpp
/// The errors of tk::dot_scaled: each names the line of this file where the offending call is, on
/// both paths (`.ir()` and the interpreter).
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include "expect_error.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace {

constexpr std::string_view this_file = "errors_dot_scaled.cpp";

} // namespace

TEST_CASE("errors: tk::dot_scaled with operands that do not fit their formats", "[errors][dot]") {
  int line = 0;
  SECTION("an element type that is not the format's") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<float>({32, 64});
      auto b = tk::zeros<std::uint8_t>({32, 32});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e4m3, b, std::nullopt,
                              tk::mx_format::e2m1);
      (void)c;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::dot_scaled: lhs_format e4m3 takes f8e4m3 (or 8-bit integer) elements, got f32");
  }
  SECTION("e2m1 in a wider integer") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<std::uint16_t>({32, 32});
      auto b = tk::zeros<std::uint8_t>({32, 32});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e2m1, b, std::nullopt,
                              tk::mx_format::e2m1);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::dot_scaled: lhs_format e2m1 takes 8-bit integer (two e2m1 "
                                 "values to a byte) elements, got u16");
  }
  SECTION("K that differs between the sides") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<std::uint8_t>({32, 32}); // 64 along K
      auto b = tk::zeros<tk::f8e4m3>({32, 32});   // 32 along K
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e2m1, b, std::nullopt,
                              tk::mx_format::e4m3);
      (void)c;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::dot_scaled: lhs holds 64 elements along K and rhs 32 (lhs [32, 32] in e2m1, rhs "
        "[32, 32] in e4m3)");
  }
  SECTION("a scale of the wrong shape") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<tk::f8e4m3>({32, 64});
      auto sa = tk::zeros<std::uint8_t>({32, 4});
      auto b = tk::zeros<tk::f8e4m3>({64, 32});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, sa, tk::mx_format::e4m3, b, std::nullopt, tk::mx_format::e4m3);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::dot_scaled: lhs_scale must be [32, 64 / 32] (one e8m0 "
                                 "exponent per 32 elements along K), got [32, 4]");
  }
  SECTION("a scale that is not bytes") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<tk::f8e4m3>({32, 64});
      auto b = tk::zeros<tk::f8e4m3>({64, 32});
      auto sb = tk::zeros<float>({32, 2});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e4m3, b, sb, tk::mx_format::e4m3);
      (void)c;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::dot_scaled: rhs_scale holds e8m0 exponents as 8-bit integers or e4m3 scales "
        "(f8e4m3), got f32");
  }
  SECTION("e4m3 scales (NVFP4) one per 32 elements instead of 16") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<std::uint8_t>({32, 32});
      auto b = tk::zeros<std::uint8_t>({32, 32});
      auto sb = tk::zeros<tk::f8e4m3>({32, 2});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e2m1, b, sb, tk::mx_format::e2m1);
      (void)c;
    });
    tk_test::trace_and_interpret(this_file, k, line,
                                 "tk::dot_scaled: rhs_scale must be [32, 64 / 16] (one e4m3 "
                                 "scale per 16 elements along K), got [32, 2]");
  }
  SECTION("packing along M of a format that is not e2m1") {
    auto k = tk::jit("k", [&] {
      auto a = tk::zeros<tk::f8e4m3>({32, 64});
      auto b = tk::zeros<tk::f8e4m3>({64, 32});
      line = __LINE__ + 1;
      auto c = tk::dot_scaled(a, std::nullopt, tk::mx_format::e4m3, b, std::nullopt,
                              tk::mx_format::e4m3, {.lhs_k_pack = false});
      (void)c;
    });
    tk_test::trace_and_interpret(
        this_file, k, line,
        "tk::dot_scaled: only an e2m1 lhs can be packed along M (lhs_k_pack = false)");
  }
}
