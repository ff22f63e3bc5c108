/// @file run.cpp
/// Runs a random program through the public front end (program.hpp): each statement dispatches
/// on its operands' element types and ranks (a std::variant of tk::block types) and calls the tk
/// function the printed C++ (print.cpp) names, so that what runs is what the reproducer shows.
#include "program.hpp"

#include <array>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace tk_random {
namespace {

template <class X> struct info {
  static constexpr bool block = false;
};
template <class T, int R> struct info<tk::block<T, R>> {
  static constexpr bool block = true;
  using type = T;
  static constexpr int rank = R;
};

template <class T>
constexpr bool fp8_v = std::is_same_v<T, tk::f8e4m3> || std::is_same_v<T, tk::f8e5m2> ||
                       std::is_same_v<T, tk::f8e4b8> || std::is_same_v<T, tk::f8e5b16>;
template <class T>
constexpr bool float_v = std::is_floating_point_v<T> || std::is_same_v<T, tk::half> ||
                         std::is_same_v<T, tk::bfloat16> || fp8_v<T>;
/// The element types of dot_scaled operands (mx_element).
template <class T>
constexpr bool mx_v =
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, tk::f8e4m3> ||
    std::is_same_v<T, tk::f8e5m2> || std::is_same_v<T, tk::bfloat16> || std::is_same_v<T, tk::half>;
/// Float types the math functions take (not fp8, as in Triton).
template <class T> constexpr bool math_v = float_v<T> && !fp8_v<T>;
template <class T> constexpr bool int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class X> constexpr bool bool_block_v = false;
template <int R> constexpr bool bool_block_v<tk::block<bool, R>> = true;
/// Whether an atomic read-modify-write takes (value) or (value, mask) of these types.
template <class... A> constexpr bool rmw_arguments() {
  if constexpr (sizeof...(A) == 2)
    return bool_block_v<std::tuple_element_t<1, std::tuple<A...>>>;
  else
    return sizeof...(A) == 1;
}

[[noreturn]] void fail(const std::string &what) { throw std::logic_error("tk_random: " + what); }

template <ty T> using ctype = typename cpp_type<T>::type;

/// Calls `f(std::type_identity<C>{})` with the C++ type of `t`.
template <class F> decltype(auto) with_type(ty t, F &&f) {
  switch (t) {
  case ty::i1:
    return f(std::type_identity<bool>{});
  case ty::i8:
    return f(std::type_identity<std::int8_t>{});
  case ty::i16:
    return f(std::type_identity<std::int16_t>{});
  case ty::i32:
    return f(std::type_identity<std::int32_t>{});
  case ty::i64:
    return f(std::type_identity<std::int64_t>{});
  case ty::u8:
    return f(std::type_identity<std::uint8_t>{});
  case ty::u32:
    return f(std::type_identity<std::uint32_t>{});
  case ty::f16:
    return f(std::type_identity<tk::half>{});
  case ty::bf16:
    return f(std::type_identity<tk::bfloat16>{});
  case ty::f32:
    return f(std::type_identity<float>{});
  case ty::f64:
    break;
  case ty::f8e4m3:
    return f(std::type_identity<tk::f8e4m3>{});
  case ty::f8e5m2:
    return f(std::type_identity<tk::f8e5m2>{});
  case ty::f8e4b8:
    return f(std::type_identity<tk::f8e4b8>{});
  case ty::f8e5b16:
    return f(std::type_identity<tk::f8e5b16>{});
  }
  return f(std::type_identity<double>{});
}

/// The clamp bounds of a float → integer conversion (program.hpp: judged bit for bit).
template <class U> constexpr double clamp_lo() {
  if constexpr (std::is_unsigned_v<U>)
    return 0;
  else if constexpr (sizeof(U) == 1)
    return -100;
  else
    return -1e4;
}
template <class U> constexpr double clamp_hi() { return sizeof(U) == 1 ? 100 : 1e4; }
// (print.cpp spells the same bounds.)

struct runner {
  const program &p;
  std::vector<dyn> env;
  tk::ptr<std::uint8_t> in[2];
  tk::ptr<std::uint8_t> out;
  tk::i32 s0, s1, pid;
  const host_param &hd;     // the kernel's host-made descriptor
  std::vector<tk::i32> ivs; // the induction variables of the loops being run

  dyn &at(int id) { return env[std::size_t(id)]; }

  template <class X> void set(const stmt &s, X &&x) {
    using V = std::remove_cvref_t<X>;
    at(s.id).template emplace<V>(std::forward<X>(x));
    if (at(s.id).index() != dyn_index(s.type.t, s.type.rank()))
      fail("statement " + std::to_string(s.id) + " made a " + std::to_string(info<V>::rank) +
           "-d block of another type than planned (" + short_name(s.type.t) + ")");
    if (std::get<V>(at(s.id)).shape() != s.type.shape)
      fail("statement " + std::to_string(s.id) + " made a block of another shape than planned");
  }

  /// Calls `f(block)` with value `id`'s block.
  template <class F> void with(int id, F &&f) {
    std::visit(
        [&](auto &x) {
          if constexpr (info<std::remove_cvref_t<decltype(x)>>::block)
            f(x);
          else
            fail("value " + std::to_string(id) + " used before it was made");
        },
        at(id));
  }

  /// Calls `f(y)` with value `id` as a block of element T, of rank R or 0.
  template <class T, int R, class F> void with_like(int id, F &&f) {
    if (auto *y = std::get_if<tk::block<T, R>>(&at(id)))
      return f(*y);
    if constexpr (R != 0)
      if (auto *y0 = std::get_if<tk::block<T, 0>>(&at(id)))
        return f(*y0);
    fail("value " + std::to_string(id) + " has another type than its partner");
  }

  template <int R> static auto offsets_index(std::int64_t n0, std::int64_t n1) {
    if constexpr (R == 1)
      return tk::arange(0, n0);
    else
      return tk::arange(0, n0)(tk::_, tk::newaxis) * std::int32_t(n1) +
             tk::arange(0, n1)(tk::newaxis, tk::_);
  }

  /// `index * stride`: a literal stride, or s0 where the stride is -1.
  template <int R>
  tk::block<std::int32_t, R> scaled(const tk::block<std::int32_t, R> &index, std::int64_t stride) {
    return stride < 0 ? index * s0 : index * std::int32_t(stride);
  }

  template <class T, int R> void load(const stmt &s) {
    const std::int64_t n0 = R > 0 ? s.type.shape[0] : 1, n1 = R > 1 ? s.type.shape[1] : 1;
    auto base = tk::bitcast<T *>(in[s.a0]);
    auto start = std::int32_t(s.i[0]) + pid * std::int32_t(s.i[1]);
    const T other = T(s.f);
    if constexpr (R == 0) {
      set(s, tk::load(base + start));
    } else {
      auto offs = [&] {
        if constexpr (R == 1)
          return start + scaled(tk::arange(0, n0), s.i[2]);
        else
          return start + scaled(tk::arange(0, n0)(tk::_, tk::newaxis), s.i[2]) +
                 scaled(tk::arange(0, n1)(tk::newaxis, tk::_), s.i[3]);
      }();
      switch (s.i[4]) {
      case 0:
        set(s, tk::load(base + offs));
        break;
      case 1:
        set(s, tk::load(base + offs, offs < std::int32_t(s.i[5]), other));
        break;
      default:
        if constexpr (R == 1)
          set(s, tk::load(base + offs, tk::arange(0, n0) < std::int32_t(s.i[5]), other));
        else
          set(s, tk::load(base + offs,
                          (tk::arange(0, n0)(tk::_, tk::newaxis) < std::int32_t(s.i[5])) &
                              (tk::arange(0, n1)(tk::newaxis, tk::_) < std::int32_t(s.a1)),
                          other));
      }
    }
  }

  template <class T, int R> void desc_load(const stmt &s) {
    auto base = tk::bitcast<T *>(in[s.a0]) + std::int32_t(s.i[0]);
    tk::i32 col = tk::full<std::int32_t>(std::int32_t(s.i[5]));
    if (s.a1)
      col = s0 + std::int32_t(s.i[5]);
    const tk::padding pad = s.j[3] ? tk::padding::nan : tk::padding::zero;
    if constexpr (R == 2) {
      if (s.j[4])
        return host_desc_load<T>(s, col);
    }
    if constexpr (R == 1) {
      auto d = tk::make_tensor_descriptor(base, {s.i[2]}, {1}, {s.type.shape[0]}, pad);
      set(s, d.load({col}));
    } else if (s.a2 == 1) {
      auto d = tk::make_tensor_descriptor(base, {s.i[1], s.i[2]}, {s.i[3], 1},
                                          {std::int64_t(1), s.type.shape[1]}, pad);
      auto rows = (tk::arange(0, s.type.shape[0]) * std::int32_t(s.j[0]) + std::int32_t(s.j[1])) %
                      std::int32_t(s.j[2]) -
                  2;
      set(s, d.gather(rows, col));
    } else {
      auto d = tk::make_tensor_descriptor(base, {s.i[1], s.i[2]}, {s.i[3], 1},
                                          {s.type.shape[0], s.type.shape[1]}, pad);
      set(s, d.load({std::int32_t(s.i[4]), col}));
    }
  }

  /// desc_load `s` through the kernel's host-made descriptor (program::host): its blocks of
  /// unsigned integers T's width bitcast to T, or of T itself.
  template <class T> void host_desc_load(const stmt &s, const tk::i32 &col) {
    std::visit(
        [&]<class E>(const tk::tensor_descriptor<const E, 2> &d) {
          if constexpr (sizeof(E) != sizeof(T)) {
            fail("a host descriptor of another width than its load's type");
          } else {
            auto as_t = [](const auto &x) {
              if constexpr (std::is_same_v<E, T>)
                return x;
              else
                return tk::bitcast<T>(x);
            };
            if (s.a2 == 1) {
              auto rows =
                  (tk::arange(0, s.type.shape[0]) * std::int32_t(s.j[0]) + std::int32_t(s.j[1])) %
                      std::int32_t(s.j[2]) -
                  2;
              set(s, as_t(d.gather(rows, col)));
            } else {
              set(s, as_t(d.load({std::int32_t(s.i[4]), col})));
            }
          }
        },
        hd);
  }

  template <class T> void full(const stmt &s) {
    const T v = T(s.f);
    switch (s.type.rank()) {
    case 0:
      return set(s, tk::full<T>(v));
    case 1: {
      const std::int64_t shape[1] = {s.type.shape[0]};
      return set(s, tk::full<T>(shape, v));
    }
    default: {
      const std::int64_t shape[2] = {s.type.shape[0], s.type.shape[1]};
      return set(s, tk::full<T>(shape, v));
    }
    }
  }

  template <class T, int R> void unary(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (!std::is_same_v<T, bool>) {
      switch (s.a0) {
      case u_neg:
        return set(s, -x);
      case u_abs:
        return set(s, tk::abs(x));
      case u_not:
        if constexpr (int_v<T>)
          return set(s, ~x);
        break;
      default:
        if constexpr (math_v<T>) {
          switch (s.a0) {
          case u_exp:
            return set(s, tk::exp(tk::clamp(x, -4, 4)));
          case u_log:
            return set(s, tk::log(tk::abs(x) + 1));
          case u_sqrt:
            return set(s, tk::sqrt(tk::abs(x) + 1));
          case u_sin:
            return set(s, tk::sin(x));
          case u_cos:
            return set(s, tk::cos(x));
          case u_sigmoid:
            return set(s, tk::sigmoid(x));
          case u_floor:
            return set(s, tk::floor(x));
          case u_ceil:
            return set(s, tk::ceil(x));
          }
        }
      }
    }
    fail("unary kind " + std::to_string(s.a0) + " on " + short_name(s.type.t));
  }

  template <class T, class X, class Y> void binary(const stmt &s, const X &x, const Y &y) {
    if constexpr (std::is_same_v<T, bool>) {
      switch (s.a0) {
      case b_and:
        return set(s, x & y);
      case b_or:
        return set(s, x | y);
      case b_xor:
        return set(s, x ^ y);
      }
    } else {
      switch (s.a0) {
      case b_add:
        return set(s, x + y);
      case b_sub:
        return set(s, x - y);
      case b_mul:
        return set(s, x * y);
      case b_div:
        if constexpr (float_v<T>)
          return set(s, x / (tk::abs(y) + 1));
        else
          return set(s, x / ((y & 7) + 1));
      case b_max:
        return set(s, tk::maximum(x, y));
      case b_min:
        return set(s, tk::minimum(x, y));
      default:
        if constexpr (int_v<T>) {
          constexpr int mask = int(8 * sizeof(T)) - 1;
          switch (s.a0) {
          case b_rem:
            return set(s, x % ((y & 7) + 1));
          case b_and:
            return set(s, x & y);
          case b_or:
            return set(s, x | y);
          case b_xor:
            return set(s, x ^ y);
          case b_shl:
            return set(s, x << (y & mask));
          case b_shr:
            return set(s, x >> (y & mask));
          }
        }
      }
    }
    fail("binary kind " + std::to_string(s.a0) + " on " + short_name(s.type.t));
  }

  template <class T, int R> void literal(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (!std::is_same_v<T, bool>) {
      auto go = [&](auto lit) {
        const bool left = s.a1 == 1;
        switch (s.a0) {
        case b_add:
          return left ? set(s, lit + x) : set(s, x + lit);
        case b_sub:
          return left ? set(s, lit - x) : set(s, x - lit);
        case b_mul:
          return left ? set(s, lit * x) : set(s, x * lit);
        case b_div:
          return set(s, x / lit);
        case b_max:
          return left ? set(s, tk::maximum(lit, x)) : set(s, tk::maximum(x, lit));
        case b_min:
          return left ? set(s, tk::minimum(lit, x)) : set(s, tk::minimum(x, lit));
        }
        fail("literal kind " + std::to_string(s.a0));
      };
      if constexpr (float_v<T>)
        return go(s.f);
      else
        return go(int(s.f));
    }
    fail("a literal operation on i1");
  }

  template <class X, class Y> void compare(const stmt &s, const X &x, const Y &y) {
    switch (s.a0) {
    case c_lt:
      return set(s, x < y);
    case c_le:
      return set(s, x <= y);
    case c_gt:
      return set(s, x > y);
    case c_ge:
      return set(s, x >= y);
    case c_eq:
      return set(s, x == y);
    default:
      return set(s, x != y);
    }
  }

  template <class U, class T, int R> void cast(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (float_v<T> && int_v<U>) // s.a0: the generator asked for the clamp
      set(s, tk::cast<U>(tk::clamp(x, clamp_lo<U>(), clamp_hi<U>())));
    else
      set(s, tk::cast<U>(x));
  }

  template <class T, int R> void shape_op(const stmt &s, const tk::block<T, R> &x) {
    switch (s.kind) {
    case op::expand:
      if constexpr (R < 2)
        return set(s, tk::expand_dims(x, s.a0));
      break;
    case op::trans:
      if constexpr (R == 2)
        return set(s, tk::trans(x));
      break;
    case op::broadcast:
      if constexpr (R == 2) {
        const std::int64_t shape[2] = {s.to_shape[0], s.to_shape[1]};
        return set(s, tk::broadcast_to(x, shape));
      }
      break;
    case op::flip:
      if constexpr (R > 0)
        return set(s, tk::flip(x, s.a0));
      break;
    case op::sort:
      if constexpr (R > 0)
        return set(s, tk::sort(x, s.a0, s.a1 != 0));
      break;
    case op::unzip:
      if constexpr (R > 0) {
        auto pairs = [&] {
          if constexpr (R == 1) {
            const std::int64_t shape[2] = {s.type.shape[0], 2};
            return tk::reshape(x, shape);
          } else {
            const std::int64_t shape[3] = {s.type.shape[0], s.type.shape[1], 2};
            return tk::reshape(x, shape);
          }
        }();
        auto [lo, hi] = tk::split(pairs);
        return set(s, s.a0 ? hi : lo);
      }
      break;
    case op::gather:
      if constexpr (R == 1 || R == 2) {
        const std::int64_t n = s.type.shape[std::size_t(s.a0)];
        auto index = (tk::arange(0, n) * s.a1 + s.a2) % n;
        if constexpr (R == 1) {
          return set(s, tk::gather(x, index, s.a0));
        } else {
          const std::int64_t shape[2] = {s.type.shape[0], s.type.shape[1]};
          return set(
              s, tk::gather(x, tk::broadcast_to(tk::expand_dims(index, 1 - s.a0), shape), s.a0));
        }
      }
      break;
    default: // reshape
      if constexpr (R > 0) {
        if (s.to_shape.size() == 1) {
          const std::int64_t shape[1] = {s.to_shape[0]};
          return set(s, tk::reshape(x, shape));
        }
        const std::int64_t shape[2] = {s.to_shape[0], s.to_shape[1]};
        return set(s, tk::reshape(x, shape));
      }
    }
    fail("shape operation on a rank " + std::to_string(R) + " block");
  }

  template <class T, int R> void reduce(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (R > 0) {
      const bool all = s.a1 < 0;
      // tk::keep_dims where the generator asked for it (s.a2), along axis s.a1.
      auto along = [&](auto f) {
        if (s.a2)
          set(s, f(tk::keep_dims));
        else
          set(s, f());
      };
#define TK_RANDOM_REDUCE(CALL)                                                                     \
  return all ? set(s, tk::CALL(x)) : along([&](auto... keep) { return tk::CALL(x, s.a1, keep...); })
      switch (s.a0) {
      case r_sum:
        if constexpr (!std::is_same_v<T, bool>)
          TK_RANDOM_REDUCE(sum);
        break;
      case r_max:
        TK_RANDOM_REDUCE(max);
      case r_min:
        TK_RANDOM_REDUCE(min);
      case r_xor:
        if constexpr (std::is_integral_v<T>)
          TK_RANDOM_REDUCE(xor_sum);
        break;
      case r_or:
        if constexpr (std::is_integral_v<T>)
          TK_RANDOM_REDUCE(reduce_or);
        break;
      case r_custom:
        return along([&](auto... keep) {
          return tk::reduce(x, s.a1, [](auto l, auto r) { return tk::maximum(l, r); }, keep...);
        });
      case r_argmax:
        return along([&](auto... keep) { return tk::argmax(x, s.a1, keep...); });
      case r_argmin:
        return along([&](auto... keep) { return tk::argmin(x, s.a1, keep...); });
      }
#undef TK_RANDOM_REDUCE
    }
    fail("reduction kind " + std::to_string(s.a0));
  }

  template <class T, int R> void scan(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (R > 0 && !std::is_same_v<T, bool>) {
      if (s.a0 == 0)
        return set(s, tk::cumsum(x, s.a1, s.a2 != 0));
      return set(s, tk::cumprod(x, s.a1, s.a2 != 0));
    }
    fail("scan of a rank-0 or i1 block");
  }

  template <class T> void dot(const stmt &s, const tk::block<T, 2> &a) {
    if constexpr (std::is_same_v<T, tk::half> || std::is_same_v<T, tk::bfloat16> ||
                  std::is_same_v<T, float> || std::is_same_v<T, std::int8_t> ||
                  std::is_same_v<T, tk::f8e4m3> || std::is_same_v<T, tk::f8e5m2>) {
      const auto &b = std::get<tk::block<T, 2>>(at(s.args[1]));
      const tk::dot_options options{.input_precision = tk::input_precision(s.a0),
                                    .max_num_imprecise_acc =
                                        s.a1 ? std::optional<int>(s.a1) : std::nullopt};
      const std::int64_t batch = s.a2, m = s.i[0], k = s.i[1], n = s.type.shape[1];
      // A batched product: its 2-D operands reshaped to 3-D, the result back to 2-D.
      auto product = [&](auto &&multiply) {
        if (batch <= 1)
          return set(s, multiply(a, b));
        auto in3 = [&](const auto &x, std::int64_t rows, std::int64_t cols) {
          const std::int64_t shape[3] = {batch, rows, cols};
          return tk::reshape(x, shape);
        };
        const std::int64_t flat[2] = {batch * m, n};
        set(s, tk::reshape(multiply(in3(a, m, k), in3(b, k, n)), flat));
      };
      constexpr bool fp8 = std::is_same_v<T, tk::f8e4m3> || std::is_same_v<T, tk::f8e5m2>;
      if (s.args.size() == 2) {
        if constexpr (std::is_same_v<T, tk::half> || fp8)
          if (s.type.t == ty::f16)
            return product(
                [&](const auto &x, const auto &y) { return tk::dot<tk::half>(x, y, options); });
        return product([&](const auto &x, const auto &y) { return tk::dot(x, y, options); });
      }
      return with(s.args[2], [&](const auto &c) {
        using C = std::remove_cvref_t<decltype(c)>;
        using E = typename info<C>::type;
        using Default = std::conditional_t<std::is_same_v<T, std::int8_t>, std::int32_t, float>;
        if constexpr (info<C>::rank == 2 &&
                      (std::is_same_v<E, Default> ||
                       (std::is_same_v<E, tk::half> && (std::is_same_v<T, tk::half> || fp8)))) {
          product([&](const auto &x, const auto &y) {
            if constexpr (info<std::remove_cvref_t<decltype(x)>>::rank == 2) {
              return tk::dot(x, y, c, options);
            } else {
              const std::int64_t shape[3] = {batch, m, n};
              return tk::dot(x, y, tk::reshape(c, shape), options);
            }
          });
        } else {
          fail("a dot's accumulator of rank " + std::to_string(info<C>::rank));
        }
      });
    }
    fail("a dot of " + std::string(short_name(s.type.t)) + " operands");
  }

  /// tk::dot_scaled (op::dot with i[2] = 1): the operands as their formats, the generator's
  /// scales.
  void dot_scaled(const stmt &s) {
    const std::int64_t m = s.i[0], k = s.i[1], n = s.type.shape[1];
    constexpr tk::mx_format formats[] = {tk::mx_format::e2m1, tk::mx_format::e4m3,
                                         tk::mx_format::e5m2, tk::mx_format::bf16,
                                         tk::mx_format::fp16};
    const tk::mx_format lf = formats[s.i[3]], rf = formats[s.i[4]];
    auto scale = [&](std::int64_t rows) {
      auto r = tk::arange(0, rows)(tk::_, tk::newaxis);
      auto c = tk::arange(0, k / 32)(tk::newaxis, tk::_);
      return tk::cast<std::uint8_t>((r * 3 + c) % 5 + 125);
    };
    auto e4m3_scale = [&](std::int64_t rows) { // NVFP4's: one per 16
      auto r = tk::arange(0, rows)(tk::_, tk::newaxis);
      auto c = tk::arange(0, k / 16)(tk::newaxis, tk::_);
      return tk::cast<tk::f8e4m3>(tk::cast<float>((r * 3 + c) % 5) * 0.5f + 0.25f);
    };
    with(s.args[0], [&]<class A, int RA>(const tk::block<A, RA> &a) {
      with(s.args[1], [&]<class B, int RB>(const tk::block<B, RB> &b) {
        if constexpr (RA == 2 && RB == 2 && mx_v<A> && mx_v<B>) {
          auto product = [&](const auto &sa, const auto &sb) {
            if (s.args.size() == 2)
              return set(s, tk::dot_scaled(a, sa, lf, b, sb, rf));
            const auto &c = std::get<tk::block<float, 2>>(at(s.args[2]));
            set(s, tk::dot_scaled(a, sa, lf, b, sb, rf, c));
          };
          const bool ls = s.i[5] & 1, rs = s.i[5] & 2, e4m3 = s.i[5] & 4;
          if (ls && rs && e4m3)
            product(e4m3_scale(m), e4m3_scale(n));
          else if (ls && rs)
            product(scale(m), scale(n));
          else if (ls && e4m3)
            product(e4m3_scale(m), std::nullopt);
          else if (ls)
            product(scale(m), std::nullopt);
          else if (rs && e4m3)
            product(std::nullopt, e4m3_scale(n));
          else if (rs)
            product(std::nullopt, scale(n));
          else
            product(std::nullopt, std::nullopt);
        } else {
          fail("a dot_scaled of " + std::string(short_name(s.type.t)) + " operands");
        }
      });
    });
  }

  // -- math functions ---------------------------------------------------------------------------

  /// Operand `x` brought inside a function's domain (math_domain), as print.cpp writes it.
  template <class T, int R>
  static tk::block<T, R> wrapped(const math_domain &d, const tk::block<T, R> &x) {
    switch (d.w) {
    case wrap::none:
      break;
    case wrap::clamp:
      return tk::clamp(x, d.lo, d.hi);
    case wrap::abs_plus:
      return tk::abs(x) + d.lo;
    case wrap::abs:
      return tk::abs(x);
    case wrap::abs_clamp:
      return tk::clamp(tk::abs(x), d.lo, d.hi);
    }
    return x;
  }
  static tk::propagate_nan nan_of(int a2) {
    return a2 == 2 ? tk::propagate_nan::all : tk::propagate_nan::none;
  }

  template <class T, int R> void math1(const stmt &s, const tk::block<T, R> &x) {
    if constexpr (!std::is_same_v<T, bool>) {
      if (s.a0 == m_clamp) {
        if constexpr (!fp8_v<T>) {
          auto go = [&](auto lo, auto hi) {
            if (s.a2 == 0)
              return set(s, tk::clamp(x, lo, hi));
            return set(s, tk::clamp(x, lo, hi, nan_of(s.a2)));
          };
          if constexpr (float_v<T>)
            return go(s.f, s.g);
          else
            return go(int(s.f), int(s.g));
        }
      }
      if constexpr (math_v<T>) {
        const auto a = wrapped(s.a1 ? math_of(s.a0).domain[0] : math_domain{}, x);
        switch (s.a0) {
        case m_tanh:
          return set(s, tk::tanh(a));
        case m_tan:
          return set(s, tk::tan(a));
        case m_asin:
          return set(s, tk::asin(a));
        case m_acos:
          return set(s, tk::acos(a));
        case m_atan:
          return set(s, tk::atan(a));
        case m_sinh:
          return set(s, tk::sinh(a));
        case m_cosh:
          return set(s, tk::cosh(a));
        case m_asinh:
          return set(s, tk::asinh(a));
        case m_acosh:
          return set(s, tk::acosh(a));
        case m_atanh:
          return set(s, tk::atanh(a));
        case m_erf:
          return set(s, tk::erf(a));
        case m_erfc:
          return set(s, tk::erfc(a));
        case m_cbrt:
          return set(s, tk::cbrt(a));
        case m_log10:
          return set(s, tk::log10(a));
        case m_log1p:
          return set(s, tk::log1p(a));
        case m_expm1:
          return set(s, tk::expm1(a));
        case m_exp2:
          return set(s, tk::exp2(a));
        case m_exp10:
          return set(s, tk::exp10(a));
        case m_sqrt:
          return set(s, tk::sqrt(a));
        case m_sqrt_rn:
          return set(s, tk::sqrt_rn(a));
        case m_rsqrt:
          return set(s, tk::rsqrt(a));
        case m_trunc:
          return set(s, tk::trunc(a));
        case m_round:
          return set(s, tk::round(a));
        case m_rint:
          return set(s, tk::rint(a));
        case m_pow: // a literal exponent
          return set(s, tk::pow(a, s.f));
        case m_isnan:
          return set(s, tk::isnan(a));
        case m_isinf:
          return set(s, tk::isinf(a));
        case m_signbit:
          return set(s, tk::signbit(a));
        case m_finite:
          return set(s, tk::where(tk::isnan(a) | tk::isinf(a), s.f, a));
        case m_ld_exp:
          return set(s, tk::libdevice::exp(a));
        case m_ld_log2:
          return set(s, tk::libdevice::log2(a));
        case m_softmax:
          if constexpr (R > 0)
            return set(s, tk::softmax(a, int(s.i[0]), s.i[1] != 0, s.i[2] != 0));
          break;
        }
      }
    }
    fail(std::string("tk::") + math_of(s.a0).name + " on " + short_name(s.type.t));
  }

  template <class T, class X, class Y> void math2(const stmt &s, const X &x, const Y &y) {
    if constexpr (!std::is_same_v<T, bool>) {
      if (s.a0 == m_maximum)
        return set(s, tk::maximum(x, y, nan_of(s.a2)));
      if (s.a0 == m_minimum)
        return set(s, tk::minimum(x, y, nan_of(s.a2)));
      if constexpr (math_v<T>) {
        const math_def &d = math_of(s.a0);
        const auto a = wrapped(s.a1 ? d.domain[0] : math_domain{}, x);
        const auto b = wrapped(s.a1 ? d.domain[1] : math_domain{}, y);
        switch (s.a0) {
        case m_pow:
          return set(s, tk::pow(a, b));
        case m_atan2:
          return set(s, tk::atan2(a, b));
        case m_hypot:
          return set(s, tk::hypot(a, b));
        case m_fdiv:
          if (s.a2 == 0)
            return set(s, tk::fdiv(a, b));
          return set(s, tk::fdiv(a, b, s.a2 == 2));
        case m_div_rn:
          return set(s, tk::div_rn(a, b));
        case m_ld_fmod:
          return set(s, tk::libdevice::fmod(a, b));
        case m_ld_copysign:
          return set(s, tk::libdevice::copysign(a, b));
        }
      }
    }
    fail(std::string("tk::") + math_of(s.a0).name + " on " + short_name(s.type.t));
  }

  void math(const stmt &s) {
    with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &x) {
      if (s.args.size() == 1)
        return math1(s, x);
      with_like<T, R>(s.args[1], [&](const auto &y) { math2<T>(s, x, y); });
    });
  }

  // -- random numbers -------------------------------------------------------------------------

  void random(const stmt &s) {
    with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &offsets) {
      if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t>) {
        const int rounds = s.i[1] ? int(s.i[1]) : tk::philox_rounds;
        auto go = [&](const auto &seed) {
          switch (s.a0) {
          case rnd_rand:
            return set(s, tk::rand(seed, offsets, rounds));
          case rnd_randn:
            return set(s, tk::randn(seed, offsets, rounds));
          case rnd_randint:
            return set(s, tk::randint(seed, offsets, rounds));
          default:
            return set(s, tk::randint4x(seed, offsets, rounds)[std::size_t(s.a1)]);
          }
        };
        switch (s.a2) {
        case 0:
          return go(s0);
        case 1:
          return go(s1);
        case 2:
          return go(std::int64_t(s.i[0]));
        default:
          return with(s.args[1], [&]<class S, int RS>(const tk::block<S, RS> &seed) {
            if constexpr (RS == 0 && int_v<S>)
              go(seed);
            else
              fail("a seed that is not an integer scalar");
          });
        }
      } else {
        fail("random numbers from offsets of " + std::string(short_name(s.type.t)));
      }
    });
  }

  // -- atomics --------------------------------------------------------------------------------

  /// Calls the atomic `s.a0` on `ptr` with `args` (the value and the mask, or for atomic_cas
  /// the compared value and the value), with the memory ordering and scope it names; keeps the
  /// old values where s.id >= 0.
  template <class P, class Ptr, class... A>
  void atomic_call(const stmt &s, const Ptr &ptr, const A &...args) {
    auto with_options = [&](auto op, const auto &...front) {
      const auto sem = tk::sem(s.a1);
      const auto sc = tk::scope(s.a2);
      if (s.a1 < 4 && s.a2 < 3)
        return op(ptr, front..., sem, sc);
      if (s.a1 < 4)
        return op(ptr, front..., sem);
      if (s.a2 < 3)
        return op(ptr, front..., sc);
      return op(ptr, front...);
    };
    auto done = [&](const auto &old) {
      if (s.id < 0)
        return;
      if constexpr (std::is_same_v<P, std::uint64_t>)
        set(s, tk::bitcast<std::int64_t>(old));
      else
        set(s, old);
    };
    constexpr bool integer = std::is_integral_v<P>;
    constexpr bool wide = integer || std::is_same_v<P, float> || std::is_same_v<P, double>;
    if (s.a0 == at_cas) {
      if constexpr (wide && sizeof...(A) == 2)
        return done(with_options([](auto &&...a) { return tk::atomic_cas(a...); }, args...));
    } else if constexpr (rmw_arguments<A...>()) {
      switch (s.a0) {
      case at_add:
        return done(with_options([](auto &&...a) { return tk::atomic_add(a...); }, args...));
      case at_max:
        if constexpr (wide)
          return done(with_options([](auto &&...a) { return tk::atomic_max(a...); }, args...));
        break;
      case at_min:
        if constexpr (wide)
          return done(with_options([](auto &&...a) { return tk::atomic_min(a...); }, args...));
        break;
      case at_and:
        if constexpr (integer)
          return done(with_options([](auto &&...a) { return tk::atomic_and(a...); }, args...));
        break;
      case at_or:
        if constexpr (integer)
          return done(with_options([](auto &&...a) { return tk::atomic_or(a...); }, args...));
        break;
      case at_xor:
        if constexpr (integer)
          return done(with_options([](auto &&...a) { return tk::atomic_xor(a...); }, args...));
        break;
      case at_xchg:
        if constexpr (wide)
          return done(with_options([](auto &&...a) { return tk::atomic_xchg(a...); }, args...));
        break;
      }
    }
    fail("an atomic of kind " + std::to_string(s.a0) + " on " + short_name(s.to));
  }

  /// The atomic `s.a0` through descriptor `d` on the block at `start`.
  template <class P, class D, class S, class A>
  void desc_atomic_call(const stmt &s, const D &d, const S &start, const A &value) {
    constexpr bool integer = std::is_integral_v<P>;
    constexpr bool wide = integer || std::is_same_v<P, float> || std::is_same_v<P, double>;
    switch (s.a0) {
    case at_add:
      return d.atomic_add(start, value);
    case at_max:
      if constexpr (wide)
        return d.atomic_max(start, value);
      break;
    case at_min:
      if constexpr (wide)
        return d.atomic_min(start, value);
      break;
    case at_and:
      if constexpr (integer)
        return d.atomic_and(start, value);
      break;
    case at_or:
      if constexpr (integer)
        return d.atomic_or(start, value);
      break;
    case at_xor:
      if constexpr (integer)
        return d.atomic_xor(start, value);
      break;
    }
    fail("a descriptor atomic of kind " + std::to_string(s.a0) + " on " + short_name(s.to));
  }

  /// An atomic statement on pointee P (u64: values V = i64, bitcast) over a block of rank R.
  template <class P, class V, int R> void atomic_rank(const stmt &s) {
    const std::int64_t n0 = R > 0 ? s.type.shape[0] : 1, n1 = R > 1 ? s.type.shape[1] : 1;
    auto region = tk::bitcast<P *>(out + std::int32_t(s.i[0]));
    std::size_t next = 0;
    const int value_id = s.j[0] ? -1 : s.args[next++];
    const int mask_id = s.j[1] == 1 ? s.args[next++] : -1;
    const int index_id = s.i[5] == 1 ? s.args[next++] : -1;
    auto as_p = [](const auto &v) {
      if constexpr (std::is_same_v<P, V>)
        return v;
      else
        return tk::bitcast<P>(v);
    };
    auto with_value = [&](auto f) {
      if (value_id < 0) {
        if constexpr (float_v<P>)
          return f(s.f);
        else
          return f(int(s.f));
      }
      with_like<V, R>(value_id, [&](const auto &v) { f(as_p(v)); });
    };
    auto with_pointers = [&](auto f) {
      if constexpr (R == 0) {
        const std::int32_t index = std::int32_t(s.i[3] % s.i[1]);
        if (s.i[4])
          return f(region + (index + pid * std::int32_t(s.i[4])));
        if (index_id >= 0)
          fail("a scalar atomic with a data index");
        return f(region + index);
      } else {
        auto q = offsets_index<R>(n0, n1);
        auto index = [&] {
          if (index_id < 0)
            return (q * std::int32_t(s.i[2]) + std::int32_t(s.i[3])) % std::int32_t(s.i[1]);
          tk::block<std::int32_t, R> x;
          with(index_id, [&]<class I, int RI>(const tk::block<I, RI> &y) {
            if constexpr (RI == R && int_v<I>)
              x = tk::cast<std::int32_t>(y) & std::int32_t(s.i[1] - 1);
            else
              fail("an atomic's index of another shape");
          });
          return x;
        }();
        if (s.i[4])
          return f(region + (index + pid * std::int32_t(s.i[4])), q);
        return f(region + index, q);
      }
    };
    if constexpr (R > 0) {
      if (s.d[0]) {
        auto base = s.i[4] ? region + pid * std::int32_t(s.i[4]) : region;
        return with_value([&](const auto &value) {
          if constexpr (R == 1) {
            auto d = tk::make_tensor_descriptor(base, {s.d[2]}, {1}, {n0});
            desc_atomic_call<P>(s, d, std::array<tk::index, 1>{std::int32_t(s.d[4])}, value);
          } else {
            auto d = tk::make_tensor_descriptor(base, {s.d[1], s.d[2]}, {s.d[5], 1}, {n0, n1});
            desc_atomic_call<P>(
                s, d, std::array<tk::index, 2>{std::int32_t(s.d[3]), std::int32_t(s.d[4])}, value);
          }
        });
      }
    }
    with_pointers([&](const auto &ptr, const auto &...q) {
      with_value([&](const auto &value) {
        if (s.a0 == at_cas) {
          const auto loaded = tk::load(ptr);
          if (s.j[1] == 0)
            return atomic_call<P>(s, ptr, loaded, value);
          auto other = as_p(std::get<tk::block<V, R>>(at(s.args.back())));
          if (s.j[1] == 2) {
            if constexpr (sizeof...(q) == 1)
              return atomic_call<P>(s, ptr, tk::where((q < std::int32_t(s.j[2]))..., loaded, other),
                                    value);
            fail("a scalar atomic_cas selecting lanes");
          }
          return with_like<bool, R>(mask_id, [&](const auto &m) {
            atomic_call<P>(s, ptr, tk::where(m, loaded, other), value);
          });
        }
        if (s.j[1] == 0)
          return atomic_call<P>(s, ptr, value);
        if (s.j[1] == 2) {
          if constexpr (sizeof...(q) == 1)
            return atomic_call<P>(s, ptr, value, (q < std::int32_t(s.j[2]))...);
          fail("a scalar atomic masking lanes");
        }
        with_like<bool, R>(mask_id, [&](const auto &m) { atomic_call<P>(s, ptr, value, m); });
      });
    });
  }

  template <class P, class V> void atomic_of(const stmt &s) {
    switch (s.type.rank()) {
    case 0:
      return atomic_rank<P, V, 0>(s);
    case 1:
      return atomic_rank<P, V, 1>(s);
    default:
      return atomic_rank<P, V, 2>(s);
    }
  }

  void atomic(const stmt &s) {
    switch (s.to) {
    case ty::i32:
      return atomic_of<std::int32_t, std::int32_t>(s);
    case ty::u32:
      return atomic_of<std::uint32_t, std::uint32_t>(s);
    case ty::i64:
      if (s.j[4])
        return atomic_of<std::uint64_t, std::int64_t>(s);
      return atomic_of<std::int64_t, std::int64_t>(s);
    case ty::f16:
      return atomic_of<tk::half, tk::half>(s);
    case ty::bf16:
      return atomic_of<tk::bfloat16, tk::bfloat16>(s);
    case ty::f32:
      return atomic_of<float, float>(s);
    case ty::f64:
      return atomic_of<double, double>(s);
    default:
      fail("an atomic on " + std::string(short_name(s.to)));
    }
  }

  void exec(const std::vector<stmt> &body) {
    for (const stmt &s : body)
      exec(s);
  }

  void exec(const stmt &s) {
    switch (s.kind) {
    case op::load:
      return with_type(s.to, [&]<class T>(std::type_identity<T>) {
        if constexpr (!std::is_same_v<T, bool>) {
          switch (s.type.rank()) {
          case 0:
            return load<T, 0>(s);
          case 1:
            return load<T, 1>(s);
          default:
            return load<T, 2>(s);
          }
        }
      });
    case op::desc_load:
      return with_type(s.to, [&]<class T>(std::type_identity<T>) {
        if constexpr (!std::is_same_v<T, bool>) {
          if (s.type.rank() == 1)
            return desc_load<T, 1>(s);
          return desc_load<T, 2>(s);
        }
      });
    case op::full:
      return with_type(s.type.t, [&]<class T>(std::type_identity<T>) { full<T>(s); });
    case op::arange:
      return set(s, tk::arange(0, s.type.shape[0]));
    case op::pid:
      return set(s, tk::program_id(0));
    case op::param:
      return set(s, s.a0 == 0 ? s0 : s.a0 == 1 ? s1 : ivs.back());
    case op::unary:
      return with(s.args[0], [&](const auto &x) { unary(s, x); });
    case op::binary:
      return with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &x) {
        with_like<T, R>(s.args[1], [&](const auto &y) { binary<T>(s, x, y); });
      });
    case op::literal:
      return with(s.args[0], [&](const auto &x) { literal(s, x); });
    case op::compare:
      return with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &x) {
        with_like<T, R>(s.args[1], [&](const auto &y) { compare(s, x, y); });
      });
    case op::where:
      return with(s.args[1], [&]<class T, int R>(const tk::block<T, R> &a) {
        const auto &c = std::get<tk::block<bool, R>>(at(s.args[0]));
        with_like<T, R>(s.args[2], [&](const auto &b) { set(s, tk::where(c, a, b)); });
      });
    case op::cast:
      return with(s.args[0], [&](const auto &x) {
        with_type(s.to, [&]<class U>(std::type_identity<U>) { cast<U>(s, x); });
      });
    case op::expand:
    case op::broadcast:
    case op::reshape:
    case op::trans:
    case op::flip:
    case op::unzip:
    case op::gather:
    case op::sort:
      return with(s.args[0], [&](const auto &x) { shape_op(s, x); });
    case op::zip:
    case op::cat:
      return with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &x) {
        with_like<T, R>(s.args[1], [&](const auto &y) {
          if constexpr (R > 0 &&
                        std::is_same_v<std::remove_cvref_t<decltype(y)>, tk::block<T, R>>) {
            if (s.kind == op::zip)
              set(s, tk::interleave(x, y));
            else
              set(s, tk::cat(x, y));
          } else {
            fail("interleave or cat of scalars, or of blocks of two shapes");
          }
        });
      });
    case op::reduce:
      return with(s.args[0], [&](const auto &x) { reduce(s, x); });
    case op::scan:
      return with(s.args[0], [&](const auto &x) { scan(s, x); });
    case op::dot:
      if (s.i[2])
        return dot_scaled(s);
      return with(s.args[0], [&]<class T, int R>(const tk::block<T, R> &a) {
        if constexpr (R == 2)
          dot(s, a);
        else
          fail("a dot of a rank " + std::to_string(R) + " block");
      });
    case op::loop: {
      auto body = [&](tk::i32 k) {
        ivs.push_back(k);
        exec(s.body);
        ivs.pop_back();
      };
      const tk::range_options options{.num_stages = s.a2 ? int(s.j[0]) : -1,
                                      .loop_unroll_factor = s.a2 ? int(s.j[1]) : 0,
                                      .flatten = s.a2 && s.j[2] != 0};
      if (s.i[0] < 0)
        return tk::for_range(0, s1, options, body);
      return tk::for_range(0, int(s.i[0]), options, body);
    }
    case op::branch: {
      const auto &c = std::get<tk::block<bool, 0>>(at(s.args[0]));
      return tk::if_(c, [&] { exec(s.body); }, [&] { exec(s.else_body); });
    }
    case op::assign:
      return with(s.args[0], [&]<class T, int R>(tk::block<T, R> &c) {
        c = std::get<tk::block<T, R>>(at(s.args[1]));
      });
    case op::math:
      return math(s);
    case op::random:
      return random(s);
    case op::atomic:
      return atomic(s);
    case op::gdc:
      return s.a0 ? tk::gdc_launch_dependents() : tk::gdc_wait();
    }
  }

  void store(const result &r) {
    if (r.atomic) // updated in place by its atomic statement
      return;
    auto start = std::int32_t(r.offset) + pid * std::int32_t(r.bytes);
    with(r.id, [&]<class T, int R>(const tk::block<T, R> &v) {
      using S = std::conditional_t<std::is_same_v<T, bool>, std::int8_t, T>;
      auto value = [&] {
        if constexpr (std::is_same_v<T, bool>)
          return tk::cast<S>(v);
        else
          return v;
      }();
      auto base = tk::bitcast<S *>(out + start);
      if constexpr (R == 0) {
        tk::store(base, value);
      } else if (r.desc) {
        if constexpr (R == 1) {
          auto d = tk::make_tensor_descriptor(base, {r.cols}, {1}, {r.type.shape[0]});
          d.store({std::int32_t(r.start_col)}, value);
        } else if (r.scatter) {
          auto d = tk::make_tensor_descriptor(base, {r.rows, r.cols}, {r.type.shape[1], 1},
                                              {std::int64_t(1), r.type.shape[1]});
          auto rows = (tk::arange(0, r.type.shape[0]) * std::int32_t(r.row_step)) %
                          std::int32_t(r.type.shape[0]) +
                      std::int32_t(r.start_row);
          d.scatter(value, rows, std::int32_t(r.start_col));
        } else {
          auto d = tk::make_tensor_descriptor(base, {r.rows, r.cols}, {r.type.shape[1], 1},
                                              {r.type.shape[0], r.type.shape[1]});
          d.store({std::int32_t(r.start_row), std::int32_t(r.start_col)}, value);
        }
      } else {
        const std::int64_t n0 = r.type.shape[0], n1 = R > 1 ? r.type.shape[1] : 1;
        auto index = offsets_index<R>(n0, n1);
        if (r.masked_tail > 0)
          tk::store(base + index, value, index < std::int32_t(r.type.numel() - r.masked_tail));
        else
          tk::store(base + index, value);
      }
    });
  }
};

} // namespace

void run(const program &p, tk::ptr<std::uint8_t> in0, tk::ptr<std::uint8_t> in1,
         tk::ptr<std::uint8_t> out, tk::i32 s0, tk::i32 s1, const host_param &hd) {
  runner r{
      p, std::vector<dyn>(std::size_t(p.values)), {in0, in1}, out, s0, s1, tk::program_id(0), hd,
      {}};
  r.exec(p.body);
  for (const result &res : p.results)
    r.store(res);
}

} // namespace tk_random
