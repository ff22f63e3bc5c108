/// @file block.hpp
/// `tk::block<T, Rank>`: a handle to a block (tile) of values of element type `T`, the value every
/// TileKit operation takes and returns. Its element type and rank are C++ types, so misuse the
/// types can see fails to compile; its shape is known when the kernel is traced. The arithmetic,
/// bitwise, comparison and logical operators follow Triton's promotion and broadcasting rules and
/// record the user's source location.
#pragma once

#include <tk/detail/trace/semantics.hpp>

#include <source_location>
#include <type_traits>
#include <utility>

namespace tk {

template <element T, int Rank> class block;

/// Index tags for `x(tk::_, tk::newaxis)`: keep a dimension, or insert one of size 1.
struct all_t {};
struct newaxis_t {};
inline constexpr all_t _{};
inline constexpr newaxis_t newaxis{};

/// A rank-0 block: one value per program instance (`tk::i32`, `tk::f32`, ...).
template <class T> using scalar = block<T, 0>;
/// A pointer kernel parameter: `tk::ptr<float>`, `tk::ptr<const tk::half>`.
template <class T> using ptr = block<T *, 0>;

using i1 = scalar<bool>;
using i8 = scalar<std::int8_t>;
using i16 = scalar<std::int16_t>;
using i32 = scalar<std::int32_t>;
using i64 = scalar<std::int64_t>;
using u8 = scalar<std::uint8_t>;
using u16 = scalar<std::uint16_t>;
using u32 = scalar<std::uint32_t>;
using u64 = scalar<std::uint64_t>;
using f16 = scalar<half>;
using bf16 = scalar<bfloat16>;
using f32 = scalar<float>;
using f64 = scalar<double>;

/// A trace-time constant kernel parameter, Triton's `tl.constexpr`: its value is part of the
/// kernel's specialization and it behaves as a plain C++ value inside the kernel.
template <class T> struct constant {
  T value;
  constexpr constant(T v) : value(v) {}
  constexpr operator T() const { return value; }
};
/// `tk::constant(64)` is a `tk::constant<int>` (stated, so -Wctad-maybe-unsupported is quiet).
template <class T> constant(T) -> constant<T>;

namespace detail {

template <class X> struct block_info {
  static constexpr bool is_block = false;
};
template <class T, int R> struct block_info<block<T, R>> {
  static constexpr bool is_block = true;
  using element_type = T;
  static constexpr int rank = R;
};
template <class X> struct constant_info {
  static constexpr bool is_constant = false;
};
template <class T> struct constant_info<tk::constant<T>> {
  static constexpr bool is_constant = true;
  using type = T;
};

} // namespace detail

/// A block handle of any element type and rank.
template <class X>
concept any_block = detail::block_info<std::remove_cvref_t<X>>::is_block;

/// A value from the user's C++ code that may meet a block: a number, a `tk::half`,
/// `tk::bfloat16`, an fp8 type (`tk::f8e4m3`, `tk::f8e5m2`, `tk::f8e4b8`, `tk::f8e5b16`), or a
/// `tk::constant`.
template <class X>
concept literal =
    std::is_arithmetic_v<std::remove_cvref_t<X>> || std::is_same_v<std::remove_cvref_t<X>, half> ||
    std::is_same_v<std::remove_cvref_t<X>, bfloat16> ||
    std::is_same_v<std::remove_cvref_t<X>, f8e4m3> ||
    std::is_same_v<std::remove_cvref_t<X>, f8e5m2> ||
    std::is_same_v<std::remove_cvref_t<X>, f8e4b8> ||
    std::is_same_v<std::remove_cvref_t<X>, f8e5b16> ||
    detail::constant_info<std::remove_cvref_t<X>>::is_constant;

/// Either a block or a literal.
template <class X>
concept operand = any_block<X> || literal<X>;

namespace detail {

template <class X> constexpr auto unwrap_constant(const X &x) {
  if constexpr (constant_info<X>::is_constant)
    return x.value;
  else
    return x;
}

/// The element type an operand contributes: a block's, or a literal's canonical type.
template <class X> struct operand_traits;
template <any_block X> struct operand_traits<X> {
  using element_type = typename block_info<X>::element_type;
  static constexpr int rank = block_info<X>::rank;
  static constexpr dtype code = dtype_of<element_type>;
};
template <literal X> struct operand_traits<X> {
  using raw = std::remove_cvref_t<decltype(unwrap_constant(std::declval<X>()))>;
  using element_type = std::conditional_t<std::is_integral_v<raw>, canonical<raw>, raw>;
  static constexpr int rank = 0;
  static constexpr dtype code = std::is_same_v<raw, bool>       ? dtype::i1
                                : std::is_integral_v<raw>       ? dtype::weak_int
                                : std::is_floating_point_v<raw> ? dtype::weak_float
                                                                : dtype_of<element_type>;
};

template <class X> using element_of = typename operand_traits<std::remove_cvref_t<X>>::element_type;
template <class X> inline constexpr int rank_of = operand_traits<std::remove_cvref_t<X>>::rank;
template <class X> inline constexpr dtype code_of = operand_traits<std::remove_cvref_t<X>>::code;

template <class X> term to_operand(const X &x, loc_t loc) {
  if constexpr (any_block<X>) {
    return operand_of(x.v_, loc);
  } else {
    const auto raw = unwrap_constant(x);
    term o;
    o.literal = code_of<X>;
    if constexpr (std::is_integral_v<decltype(raw)>)
      o.i = std::int64_t(raw);
    else
      o.f = std::is_arithmetic_v<decltype(raw)> ? double(raw) : double(float(raw));
    return o;
  }
}

constexpr int max_rank(int a, int b) { return a > b ? a : b; }

template <class A, class B> inline constexpr int result_rank = max_rank(rank_of<A>, rank_of<B>);

/// The element type of `a op b` for arithmetic (non-pointer) operands.
template <class A, class B> using promoted = type_of<promote(code_of<A>, code_of<B>)>;

template <class A, class B>
inline constexpr bool has_pointer =
    std::is_pointer_v<element_of<A>> || std::is_pointer_v<element_of<B>>;

template <class T, class U> inline constexpr bool always_false = false;

/// Captures the source location of the expression an operand appears in (a default argument of
/// an implicit conversion is evaluated at the user's call site).
template <class B> struct located {
  const B &self;
  std::source_location loc;
  located(const B &b, std::source_location l = std::source_location::current()) : self(b), loc(l) {}
};
template <class B> struct located_mut {
  B &self;
  std::source_location loc;
  located_mut(B &b, std::source_location l = std::source_location::current()) : self(b), loc(l) {}
};

/// A C++ value a scalar handle can be made from: a number, `tk::half`, `tk::bfloat16`, an fp8
/// value, or a `tk::constant` of one (not of an enum).
template <class V>
concept number_like = std::is_arithmetic_v<decltype(unwrap_constant(std::declval<V>()))> ||
                      scalar_element<decltype(unwrap_constant(std::declval<V>()))>;

/// The scalar of element type `T` that `tk::i32 x = 0;` makes from the C++ value `v` (a number,
/// `tk::half`, ...; a `tk::constant` unwrapped): a constant of the kernel being traced, or the
/// value itself in the program instance being interpreted. The conversions that would surprise do
/// not compile; an integer that does not fit `T` is an error at `loc`, a float is rounded to `T`.
template <class T, class V> value_ref scalar_from(const V &v, loc_t loc) {
  constexpr bool to_bool = std::is_same_v<T, bool>, from_bool = std::is_same_v<V, bool>;
  constexpr bool from_integer = std::is_integral_v<V> && !from_bool;
  static_assert(!to_bool || from_bool,
                "tk: a tk::i1 scalar is made from a bool (true or false), not from a number; "
                "compare instead (tk::i1 nonzero = x != 0)");
  static_assert(to_bool || !from_bool,
                "tk: a bool does not make a numeric scalar; write the number (0 or 1), or "
                "tk::cast<T>(flag) for a tk::i1 flag");
  static_assert(to_bool || !std::is_integral_v<T> || from_integer,
                "tk: a floating-point value does not make an integer scalar; write an integer, "
                "or convert in the kernel with tk::cast<T>(x)");
  if (!current_context())
    fail(loc, "tk::scalar<", name(dtype_of<T>),
         "> made from a C++ value outside a kernel: a scalar handle is a value of a kernel "
         "being traced or run; create it inside the kernel's lambda (run through "
         "tk::jit(...).launch(...), .interpret(...) or .ir(...)), or keep a plain C++ number "
         "here");
  if constexpr (from_integer && std::is_integral_v<T> && !to_bool) {
    if (!std::in_range<canonical<T>>(canonical<V>(v)))
      fail(loc, "tk::scalar<", name(dtype_of<T>), "> made from ", canonical<V>(v),
           ", which does not fit in ", name(dtype_of<T>),
           "; use a wider scalar type (tk::i64, ...) or a value in range");
  }
  return materialize(to_operand(v, loc), elem_of<T>(), {}, loc);
}

template <class T, int R, class... Ix> auto index(const block<T, R> &x, loc_t loc);

/// The scalar a rank-R block compares with through its own `==` overloads; for a scalar itself,
/// a type nothing converts to (its same-type overload already covers it).
struct no_partner {};
template <class T, int R>
using scalar_partner = std::conditional_t<R == 0, no_partner, block<T, 0>>;
template <binop O, class A, class B> auto arith_op(const A &a, const B &b, loc_t loc);
template <binop O, class A, class B> auto bitwise_op(const A &a, const B &b, loc_t loc);
template <cmpop O, class A, class B> auto compare_op(const A &a, const B &b, loc_t loc);
template <binop O, class A, class B> auto logical_op(const A &a, const B &b, loc_t loc);

} // namespace detail

// The three forms of every binary operator: block ∘ block, block ∘ literal, literal ∘ block.
#define TK_BINARY_OPERATOR(OP, KIND, CODE)                                                         \
  template <class U, int R2>                                                                       \
  friend auto operator OP(detail::located<block> a, const block<U, R2> &b) {                       \
    return detail::KIND##_op<CODE>(a.self, b, a.loc);                                              \
  }                                                                                                \
  template <literal S> friend auto operator OP(detail::located<block> a, const S &b) {             \
    return detail::KIND##_op<CODE>(a.self, b, a.loc);                                              \
  }                                                                                                \
  template <literal S> friend auto operator OP(const S &a, detail::located<block> b) {             \
    return detail::KIND##_op<CODE>(a, b.self, b.loc);                                              \
  }

// `==` and `!=` between blocks take both operands through `located`, so that C++20's reversed
// candidate converts exactly like the normal one and the call is not ambiguous (clang's
// -Wambiguous-reversed-operator). Same-type and block-vs-scalar comparisons have such symmetric
// overloads; other mixes use the general form.
#define TK_EQUALITY_OPERATOR(OP, CODE)                                                             \
  friend block<bool, Rank> operator OP(detail::located<block> a, detail::located<block> b) {       \
    return detail::compare_op<CODE>(a.self, b.self, a.loc);                                        \
  }                                                                                                \
  friend block<bool, Rank> operator OP(detail::located<block> a,                                   \
                                       detail::located<detail::scalar_partner<T, Rank>> b) {       \
    return detail::compare_op<CODE>(a.self, b.self, a.loc);                                        \
  }                                                                                                \
  friend block<bool, Rank> operator OP(detail::located<detail::scalar_partner<T, Rank>> a,         \
                                       detail::located<block> b) {                                 \
    return detail::compare_op<CODE>(a.self, b.self, a.loc);                                        \
  }                                                                                                \
  template <class U, int R2>                                                                       \
    requires(!std::is_same_v<U, T> || (R2 != Rank && R2 != 0 && Rank != 0))                        \
  friend auto operator OP(detail::located<block> a, const block<U, R2> &b) {                       \
    return detail::compare_op<CODE>(a.self, b, a.loc);                                             \
  }                                                                                                \
  template <literal S> friend auto operator OP(detail::located<block> a, const S &b) {             \
    return detail::compare_op<CODE>(a.self, b, a.loc);                                             \
  }                                                                                                \
  template <literal S> friend auto operator OP(const S &a, detail::located<block> b) {             \
    return detail::compare_op<CODE>(a, b.self, b.loc);                                             \
  }

#define TK_COMPOUND_OPERATOR(OP, KIND, CODE)                                                       \
  template <operand X> friend block &operator OP## = (detail::located_mut<block> a, const X &b) {  \
    auto r = detail::KIND##_op<CODE>(a.self, b, a.loc);                                            \
    static_assert(decltype(r)::rank <= Rank,                                                       \
                  "tk: compound assignment would raise the block's rank; assign to a new "         \
                  "variable instead");                                                             \
    if (r.v_->shape != a.self.v_->shape)                                                           \
      detail::fail(a.loc, "compound assignment: the result has shape ",                            \
                   detail::to_string(r.v_->shape), " but the block has shape ",                    \
                   detail::to_string(a.self.v_->shape),                                            \
                   "; a compound assignment cannot change a block's shape, assign to a new "       \
                   "variable instead");                                                            \
    a.self.assign(detail::broadcast_to(detail::convert(r.v_, detail::elem_of<T>(), a.loc),         \
                                       a.self.v_->shape, a.loc));                                  \
    return a.self;                                                                                 \
  }

template <element T, int Rank> class block : public detail::handle_base {
  static_assert(Rank >= 0 && Rank <= 8, "tk::block: rank must be between 0 and 8");

public:
  using element_type = T;
  static constexpr int rank = Rank;

  /// An empty handle; assign a value before using it.
  block() = default;
  explicit block(detail::value_ref v) : handle_base(std::move(v)) {}
  block(const block &) = default;
  block(block &&) noexcept = default;
  block &operator=(const block &) = default;
  block &operator=(block &&) noexcept = default;

  /// A scalar from a C++ value, inside a kernel: `tk::i32 count = 0;`, `tk::f32 acc = 0;`,
  /// `tk::i1 done = false;`, `tk::i32 n = BLOCK;` (a `tk::constant`). The value becomes a
  /// constant of the kernel (`arith.constant` in its IR). An integer must fit `T` (else
  /// `tk::error` at this line) and a float is rounded to `T`; a float for an integer scalar, a
  /// number for a `tk::i1` or a bool for a number does not compile. Outside a kernel it throws
  /// `tk::error` naming this line.
  template <literal V>
    requires(Rank == 0 && !std::is_pointer_v<T> && detail::number_like<V>)
  block(const V &value, std::source_location loc = std::source_location::current()) // NOLINT
      : handle_base(detail::scalar_from<T>(detail::unwrap_constant(value), loc)) {}

  /// Pointers convert to pointers to const of the same rank, as in C++ (a store through them
  /// then does not compile): a `tk::ptr<const T>` parameter takes a `T *` argument also where
  /// other parameters are `auto`.
  template <class U>
    requires(std::is_pointer_v<U> && std::is_pointer_v<T> && !std::is_same_v<U, T> &&
             std::is_same_v<T, const std::remove_pointer_t<U> *>)
  block(const block<U, Rank> &pointers) // NOLINT: converts implicitly, like T * to const T *
      : handle_base(static_cast<const detail::handle_base &>(pointers)) {}

  /// Blocks of different element types or ranks never convert implicitly.
  template <class U, int R2>
    requires(!std::is_same_v<block<U, R2>, block> &&
             !(R2 == Rank && std::is_pointer_v<U> && std::is_pointer_v<T> &&
               std::is_same_v<T, const std::remove_pointer_t<U> *>))
  block(const block<U, R2> &) {
    static_assert(detail::always_false<U, T>,
                  "tk: a block of another element type or rank cannot be converted implicitly; "
                  "use tk::cast<T>(x) to change the element type and tk::reshape / "
                  "tk::expand_dims / tk::broadcast_to to change the shape");
  }

  /// The block's shape (known once the kernel is traced or interpreted).
  const std::vector<std::int64_t> &
  shape(std::source_location loc = std::source_location::current()) const {
    return detail::operand_of(v_, loc).v->shape;
  }
  std::int64_t numel(std::source_location loc = std::source_location::current()) const {
    return detail::operand_of(v_, loc).v->size();
  }

  /// New-axis indexing, Triton's `x[:, None]`: `x(tk::_, tk::newaxis)`.
  template <class A>
  auto operator()(A, std::source_location loc = std::source_location::current()) const {
    return detail::index<T, Rank, A>(*this, loc);
  }
  template <class A, class B>
  auto operator()(A, B, std::source_location loc = std::source_location::current()) const {
    return detail::index<T, Rank, A, B>(*this, loc);
  }
  template <class A, class B, class C>
  auto operator()(A, B, C, std::source_location loc = std::source_location::current()) const {
    return detail::index<T, Rank, A, B, C>(*this, loc);
  }
  template <class A, class B, class C, class D>
  auto operator()(A, B, C, D, std::source_location loc = std::source_location::current()) const {
    return detail::index<T, Rank, A, B, C, D>(*this, loc);
  }

  // Data-dependent control flow needs tk::if_ / tk::where; a block never converts to `bool`.
  // (No deleted `explicit operator bool` either: the built-in `!`, `&&` and `||` would consider
  // it and make `!x` ambiguous and `x || true` pick the deleted conversion.)

  TK_BINARY_OPERATOR(+, arith, detail::binop::add)
  TK_BINARY_OPERATOR(-, arith, detail::binop::sub)
  TK_BINARY_OPERATOR(*, arith, detail::binop::mul)
  TK_BINARY_OPERATOR(/, arith, detail::binop::div)
  TK_BINARY_OPERATOR(%, arith, detail::binop::rem)
  TK_BINARY_OPERATOR(&, bitwise, detail::binop::bit_and)
  TK_BINARY_OPERATOR(|, bitwise, detail::binop::bit_or)
  TK_BINARY_OPERATOR(^, bitwise, detail::binop::bit_xor)
  TK_BINARY_OPERATOR(<<, bitwise, detail::binop::shl)
  TK_BINARY_OPERATOR(>>, bitwise, detail::binop::shr)
  TK_BINARY_OPERATOR(<, compare, detail::cmpop::lt)
  TK_BINARY_OPERATOR(<=, compare, detail::cmpop::le)
  TK_BINARY_OPERATOR(>, compare, detail::cmpop::gt)
  TK_BINARY_OPERATOR(>=, compare, detail::cmpop::ge)
  TK_EQUALITY_OPERATOR(==, detail::cmpop::eq)
  TK_EQUALITY_OPERATOR(!=, detail::cmpop::ne)
  TK_BINARY_OPERATOR(&&, logical, detail::binop::bit_and)
  TK_BINARY_OPERATOR(||, logical, detail::binop::bit_or)

  TK_COMPOUND_OPERATOR(+, arith, detail::binop::add)
  TK_COMPOUND_OPERATOR(-, arith, detail::binop::sub)
  TK_COMPOUND_OPERATOR(*, arith, detail::binop::mul)
  TK_COMPOUND_OPERATOR(/, arith, detail::binop::div)
  TK_COMPOUND_OPERATOR(%, arith, detail::binop::rem)
  TK_COMPOUND_OPERATOR(&, bitwise, detail::binop::bit_and)
  TK_COMPOUND_OPERATOR(|, bitwise, detail::binop::bit_or)
  TK_COMPOUND_OPERATOR(^, bitwise, detail::binop::bit_xor)
  TK_COMPOUND_OPERATOR(<<, bitwise, detail::binop::shl)
  TK_COMPOUND_OPERATOR(>>, bitwise, detail::binop::shr)

  friend block operator+(detail::located<block> a) { return a.self; }
  friend block operator-(detail::located<block> a) {
    static_assert(!std::is_pointer_v<T>, "tk: a pointer block cannot be negated");
    if constexpr (std::is_pointer_v<T>)
      return a.self;
    else
      return detail::arith_op<detail::binop::sub>(T{}, a.self, a.loc);
  }
  friend block operator~(detail::located<block> a) {
    static_assert(std::is_integral_v<T>, "tk: operator~ needs an integer block");
    if constexpr (!std::is_integral_v<T>)
      return a.self;
    else
      return detail::bitwise_op<detail::binop::bit_xor>(a.self, T(-1), a.loc);
  }
  friend block<bool, Rank> operator!(detail::located<block> a) {
    return detail::compare_op<detail::cmpop::eq>(a.self, T{}, a.loc);
  }
};

#undef TK_BINARY_OPERATOR
#undef TK_COMPOUND_OPERATOR
#undef TK_EQUALITY_OPERATOR

namespace detail {

template <binop O, class A, class B> auto arith_op(const A &a, const B &b, loc_t loc) {
  constexpr int R = result_rank<A, B>;
  if constexpr (has_pointer<A, B>) {
    using EA = element_of<A>;
    using EB = element_of<B>;
    static_assert(O == binop::add || O == binop::sub,
                  "tk: pointer blocks support only + and - with an integer offset");
    static_assert(!(std::is_pointer_v<EA> && std::is_pointer_v<EB>),
                  "tk: two pointers cannot be added or subtracted; offset one pointer by an "
                  "integer block instead");
    using Offset = std::conditional_t<std::is_pointer_v<EA>, EB, EA>;
    static_assert((std::is_pointer_v<EA> && std::is_pointer_v<EB>) ||
                      (std::is_integral_v<Offset> && !std::is_same_v<Offset, bool>),
                  "tk: a pointer offset must be an integer block or integer literal; convert a "
                  "float offset with tk::cast<int>(x)");
    static_assert(std::is_pointer_v<EA> || O == binop::add,
                  "tk: `integer - pointer` is not defined; write `pointer - integer`");
    using P = std::conditional_t<std::is_pointer_v<EA>, EA, EB>;
    return block<P, R>(arith(O, to_operand(a, loc), to_operand(b, loc), loc));
  } else {
    using T = promoted<A, B>;
    static_assert(O != binop::rem || !std::is_same_v<T, bool>, "tk: % is not defined for i1");
    return block<T, R>(arith(O, to_operand(a, loc), to_operand(b, loc), loc));
  }
}

template <binop O, class A, class B> auto bitwise_op(const A &a, const B &b, loc_t loc) {
  using EA = element_of<A>;
  using EB = element_of<B>;
  static_assert(std::is_integral_v<EA> && std::is_integral_v<EB>,
                "tk: bitwise operators and shifts need integer or boolean blocks; convert floats "
                "with tk::cast or reinterpret them with tk::bitcast");
  return block<promoted<A, B>, result_rank<A, B>>(
      arith(O, to_operand(a, loc), to_operand(b, loc), loc));
}

template <cmpop O, class A, class B> auto compare_op(const A &a, const B &b, loc_t loc) {
  static_assert(std::is_pointer_v<element_of<A>> == std::is_pointer_v<element_of<B>>,
                "tk: a pointer block can only be compared with another pointer block");
  return block<bool, result_rank<A, B>>(compare(O, to_operand(a, loc), to_operand(b, loc), loc));
}

template <binop O, class A, class B> auto logical_op(const A &a, const B &b, loc_t loc) {
  static_assert(!has_pointer<A, B>, "tk: && and || need boolean or numeric blocks");
  return block<bool, result_rank<A, B>>(logical(O, to_operand(a, loc), to_operand(b, loc), loc));
}

template <class... Ix>
inline constexpr bool index_tags =
    (... && (std::is_same_v<Ix, all_t> || std::is_same_v<Ix, newaxis_t>));

template <class T, int R, class... Ix> auto index(const block<T, R> &x, loc_t loc) {
  static_assert(index_tags<Ix...>, "tk: index a block with tk::_ and tk::newaxis only");
  constexpr int kept = (0 + ... + int(std::is_same_v<Ix, all_t>));
  static_assert(!index_tags<Ix...> || kept == R,
                "tk: give one tk::_ per dimension of the block, plus any tk::newaxis");
  constexpr int N = int(sizeof...(Ix));
  value_ref v = operand_of(x.v_, loc).v;
  int axis = 0;
  ((v = std::is_same_v<Ix, newaxis_t> ? expand_dims(v, axis, loc) : v, ++axis), ...);
  return block<T, N>(v);
}

} // namespace detail
} // namespace tk
