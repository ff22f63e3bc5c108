/// @file program.hpp
/// Random kernels for differential testing, in the spirit of Csmith and YARPGen: a seeded
/// generator of small TileKit programs (`generate`), their C++ source (`print_cpp`) and their
/// execution through the public front end (`run`), so that one program is traced, printed,
/// compiled for every target, interpreted and run on the GPU from the same description.
///
/// A program is a list of statements over values. Every value has a dtype and a shape of rank 0
/// to 2 (powers of two); statements are elementwise math, casts, comparisons and `where`, shape
/// changes, reductions and scans, `dot`, loads with random offsets, strides and masks, a loop
/// with carried values and an `if_`, the math library's functions (and a few of libdevice's, by
/// name), random numbers and atomics.
/// The kernel's parameters are fixed, so that one C++ lambda runs every program:
///
///     (tk::ptr<std::uint8_t> in0, tk::ptr<std::uint8_t> in1, tk::ptr<std::uint8_t> out,
///      tk::i32 s0, tk::i32 s1)
///
/// The inputs are byte buffers that the program reads as its two input dtypes; each result is
/// stored, row-major, at its own offset of `out` (one copy per program instance), and each
/// atomic statement updates a region of `out` of its own.
///
/// Results are compared as the generator tracks them: integers bit for bit; floats bit for bit
/// while only correctly rounded operations (+ - * /, sqrt_rn, div_rn, conversions, max, min,
/// where, rounding) made them from exact inputs, else within a bound the generator propagates
/// from the inputs' magnitude through each operation (reductions, math functions within their
/// documented ulps, dot, sums of atomic additions in any order).
#pragma once

#include <tk/tk.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace tk_random {

// ---------------------------------------------------------------------------------------------
// Types

enum class ty : std::uint8_t {
  i1,
  i8,
  i16,
  i32,
  i64,
  u8,
  u32,
  f16,
  bf16,
  f32,
  f64,
  f8e4m3,
  f8e5m2,
  f8e4b8, // fnuz: finite, no -0, 0x80 the only NaN
  f8e5b16
};
inline constexpr int kTypes = 15;

constexpr bool is_float(ty t) { return t >= ty::f16; }
constexpr bool is_fp8(ty t) {
  return t == ty::f8e4m3 || t == ty::f8e5m2 || t == ty::f8e4b8 || t == ty::f8e5b16;
}
constexpr bool is_int(ty t) { return t != ty::i1 && !is_float(t); }
constexpr bool is_unsigned(ty t) { return t == ty::u8 || t == ty::u32; }
constexpr int bytes_of(ty t) {
  constexpr int bytes[] = {1, 1, 2, 4, 8, 1, 4, 2, 2, 4, 8, 1, 1, 1, 1};
  return bytes[int(t)];
}
constexpr int bits_of(ty t) { return t == ty::i1 ? 1 : 8 * bytes_of(t); }
/// Unit roundoff of a float type.
constexpr double unit_roundoff(ty t) {
  switch (t) {
  case ty::f16:
    return 0x1p-11;
  case ty::bf16:
    return 0x1p-8;
  case ty::f32:
    return 0x1p-24;
  case ty::f64:
    return 0x1p-53;
  case ty::f8e4m3:
  case ty::f8e4b8:
    return 0x1p-4;
  case ty::f8e5m2:
  case ty::f8e5b16:
    return 0x1p-3;
  default:
    return 0;
  }
}
/// The largest finite value of a float type.
constexpr double max_finite(ty t) {
  switch (t) {
  case ty::f16:
    return 65504.0;
  case ty::bf16:
    return 3.38e38;
  case ty::f32:
    return 3.40e38;
  case ty::f8e4m3:
    return 448.0;
  case ty::f8e4b8:
    return 240.0;
  case ty::f8e5m2:
  case ty::f8e5b16:
    return 57344.0;
  default:
    return 1.79e308;
  }
}

const char *cpp_name(ty t);
const char *short_name(ty t);

template <ty T> struct cpp_type;
template <> struct cpp_type<ty::i1> {
  using type = bool;
};
template <> struct cpp_type<ty::i8> {
  using type = std::int8_t;
};
template <> struct cpp_type<ty::i16> {
  using type = std::int16_t;
};
template <> struct cpp_type<ty::i32> {
  using type = std::int32_t;
};
template <> struct cpp_type<ty::i64> {
  using type = std::int64_t;
};
template <> struct cpp_type<ty::u8> {
  using type = std::uint8_t;
};
template <> struct cpp_type<ty::u32> {
  using type = std::uint32_t;
};
template <> struct cpp_type<ty::f16> {
  using type = tk::half;
};
template <> struct cpp_type<ty::bf16> {
  using type = tk::bfloat16;
};
template <> struct cpp_type<ty::f32> {
  using type = float;
};
template <> struct cpp_type<ty::f64> {
  using type = double;
};
template <> struct cpp_type<ty::f8e4m3> {
  using type = tk::f8e4m3;
};
template <> struct cpp_type<ty::f8e5m2> {
  using type = tk::f8e5m2;
};
template <> struct cpp_type<ty::f8e4b8> {
  using type = tk::f8e4b8;
};
template <> struct cpp_type<ty::f8e5b16> {
  using type = tk::f8e5b16;
};

using shape_t = std::vector<std::int64_t>;

struct vtype {
  ty t = ty::i32;
  shape_t shape;
  int rank() const { return int(shape.size()); }
  std::int64_t numel() const {
    std::int64_t n = 1;
    for (auto d : shape)
      n *= d;
    return n;
  }
  bool operator==(const vtype &) const = default;
};

/// What the comparison may expect of a float value: bit-exact, or within `err + rel * |x|` of
/// the interpreter's value x; `scale` bounds its magnitude where it is finite. `rel` is kept
/// only on the value a math function returns (its documented ulps); an operation on the value
/// takes it as the absolute `err + rel * scale`.
struct bound {
  bool exact = true;
  double scale = 0;
  double err = 0;
  double rel = 0;
  /// It may be NaN or infinite (at the same elements on both sides): a math function outside
  /// its domain, or an exact value that may have overflowed. NaNs need not have the same bits
  /// (the host's default NaN has its sign bit set, the GPU's not), so sign bits, atomic max and
  /// min on the bit patterns and compare-and-swap only take values without.
  bool special = false;
  /// A zero in it may be +0 on one side and -0 on the other (maxnum and minnum choose either
  /// of two zeros, sums may start from +0): `tk::signbit` and `tk::atan2` only take values
  /// without.
  bool loose_zero = false;
};

// ---------------------------------------------------------------------------------------------
// Statements

enum class op : std::uint8_t {
  load,      // a0: input 0/1; shape; i: offset base, program stride, strides, mask kind; f: other
  desc_load, // a0: input 0/1; shape (the block); i: base, rows, columns, row stride, start row,
             // start column; a1: 1 where s0 is added to the start column at run time; a2: 1
             // for a gather (rank 2) of the rows (arange(0, n0) * j0 + j1) % j2 - 2
  full,      // shape, f: value
  arange,    // shape {n}
  pid,       // tk::program_id(0)
  param,     // a0: 0 for s0, 1 for s1
  unary,     // a0: unary kind; arg 0
  binary,    // a0: binary kind; args 0, 1 (1 may be a scalar of the same type)
  literal,   // a0: binary kind; a1: 0 x op lit, 1 lit op x; arg 0; f: literal
  compare,   // a0: compare kind; args 0, 1
  where,     // args: condition, a, b
  cast,      // arg 0, to type `to`; a0: 1 where a float is clamped before becoming an integer
  expand,    // arg 0, a0: axis
  broadcast, // arg 0, to shape
  reshape,   // arg 0, to shape
  trans,     // arg 0
  flip,      // arg 0; a0: dim
  unzip,     // arg 0; a0: which half of tk::split(tk::reshape(x, [..., n / 2, 2]))
  zip,       // args 0, 1 (one type and shape): tk::interleave
  cat,       // args 0, 1 (one type and shape): tk::cat
  gather,    // arg 0; a0: axis; indices (arange(0, n) * a1 + a2) % n along it (a1 odd)
  sort,      // arg 0; a0: dim; a1: 1 descending
  reduce,    // a0: reduce kind; a1: axis (-1: all); a2: 1 for tk::keep_dims; arg 0
  scan,      // a0: 0 cumsum, 1 cumprod; a1: axis; a2: reverse; arg 0
  dot,       // args a, b (and acc); a0: input precision for f32, a1: max_num_imprecise_acc
             // (0: none), a2: batches (the operands [a2 m, k], [a2 k, n]; i[0] m, i[1] k).
             // i[2] = 1: tk::dot_scaled, i[3] / i[4] the formats of a / b (mx_kind), i[5] bit
             // 0 / 1: a / b scaled by e8m0 exponents 125 + (3 row + k / 32) % 5 (mx_scale);
             // bit 2: by e4m3 scales 0.25 + 0.5 ((3 row + k / 16) % 5) instead (NVFP4's)
  loop,      // i[0]: trip count (or -1: s1); body; carried; a2: 1 with tk::range_options
             // {num_stages j[0], loop_unroll_factor j[1], flatten j[2]}
  branch,    // arg 0: condition; body (then), else_body; carried
  assign,    // inside a region: carried value arg 0 := arg 1
  math,      // a0: math_fn; a1: form (0 on the operands as they are, 1 inside the function's
             // domain: math_domain); a2: the NaN mode of maximum / minimum / clamp (0 none
             // given, 1 propagate_nan::none, 2 ::all), fdiv's ieee_rounding (0 none given, 1
             // false, 2 true), pow's literal exponent (1: f); args; f, g: literals; i[0..2]:
             // softmax's dim, keep_dims, ieee_rounding
  random,    // a0: random_kind; a1: which of randint4x's four; a2: the seed (0 s0, 1 s1, 2 the
             // literal i[0], 3 the integer scalar arg 1); arg 0: the offsets; i[1]: rounds
             // (0: the default)
  atomic,    // a0: atomic_kind; a1: sem (4: none given); a2: scope (3: none given); to: the
             // pointee (j[4]: u64, its values i64 blocks bitcast); the address of lane k
             // (row-major) is region + ((k * i[2] + i[3]) % i[1] + pid * i[4]), or with i[5]
             // = 1 region + ((int32(arg) & (i[1] - 1)) + pid * i[4]); i[0]: the region's byte
             // offset in out; j[0]: 1 where the value is the literal f; j[1]: the mask (0 none,
             // 1 an i1 arg, 2 k < j[2]; for atomic_cas: where the compared value is the
             // element loaded from the address, else the last arg); j[3]: the region's result
             // id; j[5]: the most updates an address of the region sees. args, in order: the
             // value (j[0] = 0), the mask (j[1] = 1), the index source (i[5] = 1), cas's
             // other compared value. The value it defines (id >= 0) is the old values, where
             // no two updates share an address.
  gdc,       // a0: 0 tk::gdc_wait, 1 tk::gdc_launch_dependents; no value
};

/// The formats of a dot_scaled operand (op::dot with i[2] = 1): e2m1 as bytes of two along K.
enum mx_kind : int { mx_e2m1, mx_e4m3, mx_e5m2, mx_bf16, mx_fp16 };
inline constexpr ty mx_element[] = {ty::u8, ty::f8e4m3, ty::f8e5m2, ty::bf16, ty::f16};

/// The math library's functions in op::math (docs/writing-kernels.md's math table).
enum math_fn : int {
  m_tanh,
  m_tan,
  m_asin,
  m_acos,
  m_atan,
  m_sinh,
  m_cosh,
  m_asinh,
  m_acosh,
  m_atanh,
  m_erf,
  m_erfc,
  m_cbrt,
  m_log10,
  m_log1p,
  m_expm1,
  m_exp2,
  m_exp10,
  m_sqrt,
  m_sqrt_rn,
  m_rsqrt,
  m_trunc,
  m_round,
  m_rint,
  m_pow,
  m_atan2,
  m_hypot,
  m_fdiv,
  m_div_rn,
  m_isnan,
  m_isinf,
  m_signbit,
  m_maximum,
  m_minimum,
  m_clamp,
  m_finite, // tk::where(tk::isnan(x) | tk::isinf(x), f, x)
  m_softmax,
  // libdevice by name (tk::libdevice::<name>: tk.extern_elementwise of __nv_<name>f / __nv_<name>)
  m_ld_exp,
  m_ld_log2,
  m_ld_fmod,     // exact operands only: fmod jumps where x crosses a multiple of y
  m_ld_copysign, // the sign from an exact operand without loose zeros or NaNs
  m_count
};

/// How an operand is brought inside a function's domain (op::math with a1 = 1).
enum class wrap : std::uint8_t {
  none,      // x
  clamp,     // tk::clamp(x, lo, hi)
  abs_plus,  // tk::abs(x) + lo
  abs,       // tk::abs(x)
  abs_clamp, // tk::clamp(tk::abs(x), lo, hi)
};
struct math_domain {
  wrap w = wrap::none;
  double lo = 0, hi = 0;
};

struct math_def {
  const char *name; // tk::<name>
  int arity;
  math_domain domain[2]; // of the operands, in the form inside the domain
};
const math_def &math_of(int fn);

enum random_kind : int { rnd_rand, rnd_randn, rnd_randint, rnd_randint4x, rnd_count };

enum atomic_kind : int { at_add, at_max, at_min, at_and, at_or, at_xor, at_xchg, at_cas, at_count };

enum unary_kind : int {
  u_neg,
  u_abs,
  u_not,
  u_exp,
  u_log,
  u_sqrt,
  u_sin,
  u_cos,
  u_sigmoid,
  u_floor,
  u_ceil,
  u_count
};
enum binary_kind : int {
  b_add,
  b_sub,
  b_mul,
  b_div,
  b_rem,
  b_max,
  b_min,
  b_and,
  b_or,
  b_xor,
  b_shl,
  b_shr,
  b_count
};
enum compare_kind : int { c_lt, c_le, c_gt, c_ge, c_eq, c_ne, c_count };
/// r_custom: a user combine (tk::maximum) through tk::reduce; r_argmax and later are exact-only.
enum reduce_kind : int { r_sum, r_max, r_min, r_xor, r_or, r_custom, r_argmax, r_argmin, r_count };

struct stmt {
  op kind;
  int id = -1;           // the value it defines (-1: none)
  vtype type;            // of that value
  bound b;               // of that value
  std::vector<int> args; // value ids
  int a0 = 0, a1 = 0, a2 = 0;
  std::int64_t i[6] = {}; // load geometry, loop trip count
  std::int64_t j[6] = {}; // atomics
  /// An atomic through a tensor descriptor (d[0] = 1) instead of pointers: its region viewed as
  /// a [d[1], d[2]] tensor (rank 1: [d[2]]) of row stride d[5], the block at (d[3], d[4]).
  std::int64_t d[6] = {};
  double f = 0;     // a literal, `other`, a full's value
  double g = 0;     // a second literal (clamp's upper bound)
  ty to = ty::i32;  // cast target, load dtype
  shape_t to_shape; // broadcast / reshape target
  std::vector<stmt> body, else_body;
};

/// A result stored to `out`: value `id` at byte `offset` (per program instance: + pid * bytes).
struct result {
  int id;
  vtype type;
  bound b;
  std::int64_t offset, bytes;
  std::int64_t masked_tail = 0; // the last elements of each copy are not stored
  bool from_i1 = false;         // an i1 value, stored as tk::cast<std::int8_t>
  /// Stored through a tensor descriptor (else through pointers): the value's copy viewed as a
  /// [rows, cols] tensor (rank 1: [1, cols]) of row stride shape[1], the block written at
  /// (start_row, start_col); elements outside the tensor are not written.
  bool desc = false;
  std::int64_t rows = 0, cols = 0, start_row = 0, start_col = 0;
  /// Rank 2 through a descriptor of one-row blocks instead: `desc.scatter` of row r of the value
  /// to row (r * row_step) % shape[0] + start_row (row_step odd: no row written twice).
  bool scatter = false;
  std::int64_t row_step = 1;
  /// The region of out that the atomic statement of region id `id` updates (type.shape:
  /// {elements}, all program instances' together), its elements set by make_output first.
  bool atomic = false;
  /// Whether element k of a copy is written.
  bool stored(std::int64_t k) const {
    if (atomic)
      return true;
    if (!desc)
      return k < type.numel() - masked_tail;
    const std::int64_t n1 = type.rank() > 1 ? type.shape[1] : type.numel();
    const std::int64_t n0 = type.rank() > 1 ? type.shape[0] : 1;
    const std::int64_t r = k / n1, c = k % n1;
    if (scatter) {
      bool row_written = false;
      for (std::int64_t v = 0; v < n0; ++v)
        row_written = row_written || (v * row_step) % n0 + start_row == r;
      return row_written && r < rows && c < cols && c - start_col >= 0 && c - start_col < n1;
    }
    return r < rows && c < cols && r - start_row >= 0 && r - start_row < n0 && c - start_col >= 0 &&
           c - start_col < n1;
  }
};

/// The element types a kernel's host-made descriptor parameter may have: unsigned integers of
/// the loaded type's width (the block bitcast to it after the load) or, for NaN padding, that
/// float type itself.
enum class host_elem : std::uint8_t { u8, u16, u32, u64, f16, bf16, f32, f64 };

/// The kernel's last parameter, a `tk::tensor_descriptor<const E, 2>` made on the host for each
/// launch: input `which` from byte `offset` as a [rows, cols] tensor of row stride `stride`, in
/// blocks of [block0, block1]. A desc_load with j[4] = 1 loads through it; where none does, it
/// is a [1, 16] tensor of bytes at in0 that the kernel does not read.
struct host_descriptor {
  host_elem elem = host_elem::u8;
  int which = 0;
  std::int64_t offset = 0, rows = 1, cols = 16, stride = 16, block0 = 1, block1 = 16;
  bool nan = false;
};

/// Calls `f(std::type_identity<E>{})` with the C++ element type of `e`.
template <class F> decltype(auto) with_host_elem(host_elem e, F &&f) {
  switch (e) {
  case host_elem::u8:
    return f(std::type_identity<std::uint8_t>{});
  case host_elem::u16:
    return f(std::type_identity<std::uint16_t>{});
  case host_elem::u32:
    return f(std::type_identity<std::uint32_t>{});
  case host_elem::u64:
    return f(std::type_identity<std::uint64_t>{});
  case host_elem::f16:
    return f(std::type_identity<tk::half>{});
  case host_elem::bf16:
    return f(std::type_identity<tk::bfloat16>{});
  case host_elem::f32:
    return f(std::type_identity<float>{});
  default:
    return f(std::type_identity<double>{});
  }
}

struct program {
  std::uint64_t seed = 0;
  int grid = 1; // program instances
  ty input[2] = {ty::f32, ty::f32};
  std::int64_t input_bytes = 16384;
  std::int32_t s0 = 3, s1 = 2; // the scalar arguments
  std::vector<stmt> body;
  std::vector<result> results;
  std::int64_t out_bytes = 0;
  int values = 0; // ids 0 .. values-1
  int num_warps = 4;
  host_descriptor host;
  bool launch_pdl = false; // launched with launch_options::launch_pdl
};

/// A random program from `seed`.
program generate(std::uint64_t seed);

/// The program as the C++ of a tk::jit kernel.
std::string print_cpp(const program &p);

/// The inputs the program reads (deterministic in the seed).
std::vector<std::uint8_t> make_input(const program &p, int which);

/// A comparison of the interpreter's `expected` output with `actual`: "" when they agree, else
/// what differs (the first few elements).
std::string compare(const program &p, const std::vector<std::uint8_t> &expected,
                    const std::vector<std::uint8_t> &actual);

/// The byte `out` starts as (so that unstored elements compare equal).
inline constexpr std::uint8_t kOutFill = 0xA5;

/// The output buffer as a launch starts with it: kOutFill, and in each atomic region small
/// values of its type (deterministic in the seed).
std::vector<std::uint8_t> make_output(const program &p);

/// The magnitude of the float values make_output puts in atomic regions (multiples of 1/8;
/// integers are in [-8, 8], unsigned ones in [0, 16]).
inline constexpr double kAtomicInitFloat = 4;

// ---------------------------------------------------------------------------------------------
// Execution through the front end

template <class T, int R> using B = tk::block<T, R>;

#define TK_RANDOM_RANKS(T) B<T, 0>, B<T, 1>, B<T, 2>
using dyn =
    std::variant<std::monostate, TK_RANDOM_RANKS(bool), TK_RANDOM_RANKS(std::int8_t),
                 TK_RANDOM_RANKS(std::int16_t), TK_RANDOM_RANKS(std::int32_t),
                 TK_RANDOM_RANKS(std::int64_t), TK_RANDOM_RANKS(std::uint8_t),
                 TK_RANDOM_RANKS(std::uint32_t), TK_RANDOM_RANKS(tk::half),
                 TK_RANDOM_RANKS(tk::bfloat16), TK_RANDOM_RANKS(float), TK_RANDOM_RANKS(double),
                 TK_RANDOM_RANKS(tk::f8e4m3), TK_RANDOM_RANKS(tk::f8e5m2),
                 TK_RANDOM_RANKS(tk::f8e4b8), TK_RANDOM_RANKS(tk::f8e5b16)>;
#undef TK_RANDOM_RANKS

/// The variant index of a value of type `t` and rank `rank`.
constexpr std::size_t dyn_index(ty t, int rank) { return 1 + std::size_t(t) * 3 + rank; }

/// The kernel's host-made descriptor parameter, of one of the host_elem types.
using host_param = std::variant<
    tk::tensor_descriptor<const std::uint8_t, 2>, tk::tensor_descriptor<const std::uint16_t, 2>,
    tk::tensor_descriptor<const std::uint32_t, 2>, tk::tensor_descriptor<const std::uint64_t, 2>,
    tk::tensor_descriptor<const tk::half, 2>, tk::tensor_descriptor<const tk::bfloat16, 2>,
    tk::tensor_descriptor<const float, 2>, tk::tensor_descriptor<const double, 2>>;

/// Runs program `p` inside a kernel body (tracing or interpreting).
void run(const program &p, tk::ptr<std::uint8_t> in0, tk::ptr<std::uint8_t> in1,
         tk::ptr<std::uint8_t> out, tk::i32 s0, tk::i32 s1, const host_param &hd);

/// Calls `f(kernel, make_descriptor)` with the kernel that runs program `p` (`p` must outlive
/// it) and a function that makes its descriptor argument from the address of input `p.host.which`
/// (host memory for the interpreter, device memory for the GPU). Kernels of different programs
/// need different names (the runtime caches compiled kernels by name and arguments).
template <class F> decltype(auto) with_kernel(const program &p, F &&f) {
  return with_host_elem(p.host.elem, [&]<class E>(std::type_identity<E>) -> decltype(auto) {
    auto kernel = tk::jit("random_" + std::to_string(p.seed),
                          [&p](tk::ptr<std::uint8_t> in0, tk::ptr<std::uint8_t> in1,
                               tk::ptr<std::uint8_t> out, tk::i32 s0, tk::i32 s1,
                               tk::tensor_descriptor<const E, 2> hd) {
                            run(p, in0, in1, out, s0, s1, host_param(hd));
                          });
    auto make_descriptor = [&p](const std::uint8_t *input) {
      const host_descriptor &h = p.host;
      return tk::host_tensor_descriptor(reinterpret_cast<const E *>(input + h.offset),
                                        {h.rows, h.cols}, {h.stride, 1}, {h.block0, h.block1},
                                        h.nan ? tk::padding::nan : tk::padding::zero);
    };
    return f(kernel, make_descriptor);
  });
}

} // namespace tk_random
