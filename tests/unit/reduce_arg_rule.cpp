/// @file reduce_arg_rule.cpp
/// argmax/argmin combine (value, index) pairs by one rule written twice: as ops (traced, run by
/// the GPU) and evaluated directly (the interpreter). Both must agree on every pair of special
/// values, and the rule must be associative and commutative, so no reduction order changes the
/// result.
#include <catch2/catch.hpp>
#include <tk/tk.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace {

namespace d = tk::detail;

struct pair {
  double value;
  std::int32_t index;
};

/// The float/int (value, index) scalars of `p`.
std::vector<d::value_ref> make(const pair &p, tk::dtype type) {
  const d::loc_t loc = std::source_location::current();
  return {d::const_value({type}, {}, p.value, std::int64_t(p.value), loc),
          d::const_value({tk::dtype::i32}, {}, 0, p.index, loc)};
}

/// What the direct rule keeps, as a pair.
pair fast(bool greater, const pair &a, const pair &b, tk::dtype type) {
  const auto x = make(a, type), y = make(b, type);
  return d::arg_keeps_lhs(greater, *x[0], *x[1], *y[0], *y[1]) ? a : b;
}

bool same(const pair &a, const pair &b) {
  return a.index == b.index && (a.value == b.value || (a.value != a.value && b.value != b.value));
}

} // namespace

TEST_CASE("argmax/argmin: the interpreter's rule is the traced ops' and an order",
          "[interpreter]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  int checked = 0;
  auto k = tk::jit("k", [&] {
    const d::loc_t loc = std::source_location::current();
    for (const tk::dtype type : {tk::dtype::f32, tk::dtype::i32}) {
      std::vector<pair> pairs;
      const std::vector<double> values = type == tk::dtype::f32
                                             ? std::vector<double>{nan, -inf, -1, -0.0, 0, 2, inf}
                                             : std::vector<double>{-3, -1, 0, 2};
      for (std::int32_t index = 0; index < 3; ++index)
        for (double v : values)
          pairs.push_back({v, index});
      for (const bool greater : {true, false}) {
        for (const auto &a : pairs)
          for (const auto &b : pairs) {
            const auto as_pair = [&](const std::vector<d::value_ref> &ops) {
              return pair{type == tk::dtype::f32 ? ops[0]->f[0] : double(ops[0]->i[0]),
                          std::int32_t(ops[1]->i[0])};
            };
            const pair by_ops =
                as_pair(d::arg_combine_ops(greater, true, make(a, type), make(b, type), loc));
            const pair direct = fast(greater, a, b, type);
            INFO("greater " << greater << " (" << a.value << ", " << a.index << ") vs (" << b.value
                            << ", " << b.index << ")");
            CHECK(same(by_ops, direct));
            // tk::tie_break::any: the same value, and either index only where the values tie.
            const pair any =
                as_pair(d::arg_combine_ops(greater, false, make(a, type), make(b, type), loc));
            const bool tie = a.value == b.value || (a.value != a.value && b.value != b.value);
            if (tie)
              CHECK((same(any, a) || same(any, b)));
            else
              CHECK(same(any, direct));
            if (a.index != b.index)
              CHECK(same(direct, fast(greater, b, a, type)));
            for (const auto &c : pairs) {
              if (a.index == b.index || b.index == c.index || a.index == c.index)
                continue;
              CHECK(same(fast(greater, fast(greater, a, b, type), c, type),
                         fast(greater, a, fast(greater, b, c, type), type)));
              ++checked;
            }
          }
      }
    }
  });
  k.interpret(tk::grid(1));
  CHECK(checked > 1000);
}
