/// @file golden_kernels.hpp
/// The kernels behind the printed-IR golden files (tests/golden/<family>.mlir).
///
/// Shared by tests/unit/ir_golden.cpp (compares the printed IR with the golden files) and
/// tests/ir/print_all.cpp (prints it for the tk-opt check, ir.print_all). Every kernel is traced
/// with `.ir(...)` only; pointers are never dereferenced.
///
/// Writing rules, so that the goldens do not depend on the compiler:
///  - C++ leaves the evaluation order of function arguments and of the operands of an overloaded
///    operator unspecified (GCC goes right to left, Clang left to right). An expression therefore
///    holds at most ONE sub-expression that records ops; everything else is a named handle, a
///    kernel parameter or a literal.
///  - Locations are part of the goldens: editing this file moves them. Regenerate with
///    TK_UPDATE_GOLDEN=1 and review the diff (see tests/README.md).
#pragma once

#include <tk/tk.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tk_golden {

/// Device-pointer stand-ins. Only their addresses matter (16-byte alignment -> tk.divisibility).
struct buffers {
  alignas(64) static inline float f32[8];
  alignas(64) static inline double f64[8];
  alignas(64) static inline tk::half f16[8];
  alignas(64) static inline tk::bfloat16 bf16[8];
  alignas(64) static inline std::int8_t i8[8];
  alignas(64) static inline std::int16_t i16[8];
  alignas(64) static inline std::int32_t i32[8];
  alignas(64) static inline std::int64_t i64[8];
  alignas(64) static inline std::uint8_t u8[8];
  alignas(64) static inline std::uint32_t u32[8];
  alignas(64) static inline bool i1[8];
};

struct kernel_case {
  const char *family;
  const char *name;
  std::function<std::string()> ir;
};

// ---------------------------------------------------------------------------------------------
// params: kernel signatures and specialization attributes

inline std::string params_pointer_types() {
  auto k = tk::jit("pointer_types",
                   [](tk::ptr<float>, tk::ptr<const double>, tk::ptr<tk::half>,
                      tk::ptr<tk::bfloat16>, tk::ptr<std::int8_t>, tk::ptr<std::int16_t>,
                      tk::ptr<const std::int32_t>, tk::ptr<std::int64_t>, tk::ptr<std::uint8_t>,
                      tk::ptr<std::uint32_t>, tk::ptr<bool>) {});
  const auto *cf64 = buffers::f64;
  const auto *ci32 = buffers::i32;
  return k.ir(buffers::f32, cf64, buffers::f16, buffers::bf16, buffers::i8, buffers::i16, ci32,
              buffers::i64, buffers::u8, buffers::u32, buffers::i1);
}

inline std::string params_scalar_types() {
  auto k = tk::jit("scalar_types", [](tk::i1, tk::i8, tk::i16, tk::i32, tk::i64, tk::u8, tk::u16,
                                      tk::u32, tk::u64, tk::f16, tk::bf16, tk::f32, tk::f64) {});
  return k.ir(true, std::int8_t(1), std::int16_t(2), 3, std::int64_t(4), std::uint8_t(5),
              std::uint16_t(6), 7u, std::uint64_t(8), tk::half(1.0), tk::bfloat16(2.0), 3.0f, 4.0);
}

// Pointers aligned to 16 bytes and integers divisible by 16 get {tk.divisibility = 16 : i32};
// misaligned or null pointers and other integers get nothing. Floats never do.
inline std::string params_divisibility() {
  auto k = tk::jit("divisibility", [](tk::ptr<float>, tk::ptr<float>, tk::ptr<float>, tk::i32,
                                      tk::i32, tk::i32, tk::i64, tk::f32) {});
  return k.ir(buffers::f32, buffers::f32 + 1, static_cast<float *>(nullptr), 64, 65, 0,
              std::int64_t(-32), 16.0f);
}

// tk::constant parameters are folded into the IR and are not function arguments.
inline std::string params_constants() {
  auto k = tk::jit("constants",
                   [](tk::ptr<float> out, tk::constant<int> BLOCK, tk::constant<float> scale) {
                     auto offs = tk::arange(0, BLOCK);
                     auto x = tk::cast<float>(offs);
                     auto y = x * scale;
                     tk::store(out + offs, y);
                   });
  return k.ir(buffers::f32, tk::constant<int>(64), tk::constant<float>(0.5f));
}

// Generic kernels: `auto` parameters take their types from the launch arguments.
inline std::string params_generic_f32() {
  auto k = tk::jit("generic_f32", [](auto out, auto in, auto n, tk::constant<int> BLOCK) {
    auto offs = tk::arange(0, BLOCK);
    auto mask = offs < n;
    auto x = tk::load(in + offs, mask);
    tk::store(out + offs, x, mask);
  });
  const float *in = buffers::f32;
  return k.ir(buffers::f32, in, std::int64_t(100), tk::constant<int>(128));
}

inline std::string params_generic_f16() {
  auto k = tk::jit("generic_f16", [](auto out, auto in, auto n, tk::constant<int> BLOCK) {
    auto offs = tk::arange(0, BLOCK);
    auto mask = offs < n;
    auto x = tk::load(in + offs, mask);
    tk::store(out + offs, x, mask);
  });
  const tk::half *in = buffers::f16;
  return k.ir(buffers::f16, in, 96u, tk::constant<int>(128));
}

// ---------------------------------------------------------------------------------------------
// creation: program ids, ranges, constants

inline std::string creation_program_id() {
  auto k = tk::jit("program_id", [](tk::ptr<std::int32_t> out) {
    auto x = tk::program_id(0);
    auto y = tk::program_id(1);
    auto z = tk::program_id(2);
    auto nx = tk::num_programs(0);
    auto ny = tk::num_programs(1);
    auto nz = tk::num_programs(2);
    auto zy = z * ny + y;
    auto linear = zy * nx + x;
    tk::store(out + linear, nz);
  });
  return k.ir(buffers::i32);
}

inline std::string creation_arange() {
  auto k = tk::jit("arange", [](tk::ptr<std::int32_t> out) {
    auto a = tk::arange(0, 128);
    auto b = tk::arange(32, 64);
    auto one = tk::arange(7, 8);
    tk::store(out + a, a);
    tk::store(out + b, b);
    tk::store(out + one, one);
  });
  return k.ir(buffers::i32);
}

inline std::string creation_full() {
  auto k = tk::jit("full", [](tk::ptr<float> out, tk::f32 x) {
    auto a = tk::full<float>({16, 32}, 1.5f);
    auto b = tk::zeros<tk::half>({64});
    auto c = tk::zeros<std::int32_t>({4, 4});
    auto d = tk::full<std::int8_t>({8}, -1);
    auto e = tk::full<float>({32}, x);
    auto f = tk::zeros_like(a);
    auto g = tk::full<bool>({16}, true);
    auto h = tk::full<float>({4}, -tk::inf<float>());
    auto i = tk::full<double>({2}, 0.1);
    auto j = tk::full<tk::half>({2}, tk::half(0.1));
    auto l = tk::full<tk::bfloat16>({2}, tk::bfloat16(3.0));
    auto m = tk::full<std::uint32_t>({2}, 0xFFFFFFFFu);
    auto n = tk::full<float>({2}, 1e20f);
    auto o = tk::full<tk::half>({2}, tk::half(tk::inf<double>()));
    auto p = tk::full<float>({2}, 0.1f); // the shortest text that reads back as the same f32
    auto q = tk::full<tk::bfloat16>({2}, tk::bfloat16(0.1));
    auto r = tk::full<bool>(true); // a scalar i1 constant is a BoolAttr: no ` : i1` after it
    (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h, (void)i, (void)j,
        (void)l, (void)m, (void)n, (void)o, (void)p, (void)q, (void)r, (void)out;
  });
  return k.ir(buffers::f32, 2.0f);
}

// ---------------------------------------------------------------------------------------------
// memory: loads, stores, pointer arithmetic

inline std::string memory_load_store() {
  auto k = tk::jit("load_store", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n,
                                    tk::constant<int> BLOCK) {
    auto pid = tk::program_id(0);
    auto start = pid * BLOCK;
    auto offs = start + tk::arange(0, BLOCK);
    auto mask = offs < n;
    auto in_ptrs = in + offs;
    auto a = tk::load(in_ptrs);
    auto b = tk::load(in_ptrs, mask);
    auto c = tk::load(in_ptrs, mask, 1.0f);
    auto d = tk::load(in_ptrs, mask, -tk::inf<float>());
    auto e = tk::load(in_ptrs, mask, a);
    auto out_ptrs = out + offs;
    tk::store(out_ptrs, b);
    tk::store(out_ptrs, c, mask);
    tk::store(out_ptrs, 0.0f, mask);
    (void)d, (void)e;
  });
  return k.ir(buffers::f32, buffers::f32, 1000, tk::constant<int>(128));
}

// Stored values are converted to the pointee type; `other` too.
inline std::string memory_convert() {
  auto k = tk::jit("convert", [](tk::ptr<tk::half> out, tk::ptr<const std::int8_t> in) {
    auto offs = tk::arange(0, 16);
    auto mask = offs < 10;
    auto in_ptrs = in + offs;
    auto x = tk::load(in_ptrs, mask, 3);
    auto y = tk::cast<float>(x);
    auto out_ptrs = out + offs;
    tk::store(out_ptrs, y, mask);
    tk::store(out_ptrs, 2, mask);
  });
  return k.ir(buffers::f16, buffers::i8);
}

inline std::string memory_pointer_arith() {
  auto k = tk::jit("pointer_arith", [](tk::ptr<float> p, tk::i64 off, tk::i32 stride) {
    auto offs = tk::arange(0, 16);
    auto a = p + offs; // ptr + i32 block: splat, addptr
    auto b = offs + p; // i32 block + ptr
    auto c = a - 4;    // ptr - literal: offsets negated (0 - 4)
    auto d = p + off;  // scalar ptr + i64 scalar
    auto wide = tk::cast<std::int64_t>(offs);
    auto e = p + wide; // i64 offsets
    auto f = p - offs; // ptr - block: 0 - offs
    a += 8;            // compound assignment
    auto u = tk::cast<std::uint32_t>(offs);
    auto g = p + u;              // unsigned offsets: extui to i64 (addptr reads them as signed)
    auto h = p - u;              // 0 - extui(u) in i64
    auto big = p + 5000000000LL; // a literal beyond i32: i64
    auto rows = tk::arange(0, 8);
    auto r = rows(tk::_, tk::newaxis);
    auto row_offs = r * stride;
    auto base = p + row_offs; // [8, 1] pointers
    auto cols = tk::arange(0, 16);
    auto tile = base + cols(tk::newaxis, tk::_); // [8, 16] pointers
    auto x = tk::load(tile);
    tk::store(tile, x);
    (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h, (void)big;
  });
  return k.ir(buffers::f32, std::int64_t(3), 64);
}

inline std::string memory_scalar() {
  auto k = tk::jit("scalar", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 i) {
    auto x = tk::load(in);
    auto p = in + i;
    auto y = tk::load(p);
    auto s = x + y;
    tk::store(out, s);
    auto q = out + 1;
    tk::store(q, 2.0f);
    auto valid = i < 10;
    tk::store(q, s, valid);
  });
  return k.ir(buffers::f32, buffers::f32, 5);
}

inline std::string memory_pointer_select() {
  auto k =
      tk::jit("pointer_select", [](tk::ptr<float> a, tk::ptr<float> b, tk::ptr<std::int64_t> out) {
        auto offs = tk::arange(0, 16);
        auto odd = (offs % 2) == 1;
        auto pa = a + offs;
        auto pb = b + offs;
        auto p = tk::where(odd, pa, pb);
        auto first = pa < pb;
        auto addr = tk::cast<std::int64_t>(p);
        auto back = tk::cast<float *>(addr);
        auto ip = tk::bitcast<std::int32_t *>(back);
        auto nonnull = tk::cast<bool>(p);        // via i64: != 0
        auto low = tk::cast<std::int32_t>(p);    // via i64: trunci
        auto from_i32 = tk::cast<float *>(offs); // extsi to i64 first
        auto oo = out + offs;
        tk::store(oo, addr, first);
        (void)ip, (void)nonnull, (void)low, (void)from_i32;
      });
  return k.ir(buffers::f32, buffers::f32, buffers::i64);
}

// ---------------------------------------------------------------------------------------------
// arith: promotion, integer semantics, comparisons, logical ops, where

// Weak literals take the block's type; blocks of different types promote (Triton's rules).
inline std::string arith_promotion() {
  auto k =
      tk::jit("promotion", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<tk::bfloat16> pb,
                              tk::ptr<std::int8_t> pi8, tk::ptr<std::uint8_t> pu8,
                              tk::ptr<std::int32_t> pi32, tk::ptr<std::uint32_t> pu32,
                              tk::ptr<std::int64_t> pi64, tk::ptr<double> pf64) {
        auto offs = tk::arange(0, 16);
        auto f = tk::load(pf + offs);
        auto h = tk::load(ph + offs);
        auto b = tk::load(pb + offs);
        auto i8 = tk::load(pi8 + offs);
        auto u8 = tk::load(pu8 + offs);
        auto i32 = tk::load(pi32 + offs);
        auto u32 = tk::load(pu32 + offs);
        auto i64 = tk::load(pi64 + offs);
        auto f64 = tk::load(pf64 + offs);
        auto r0 = i32 + 1;             // i32: weak int literal
        auto r1 = i32 + 1.5f;          // f32: weak float literal with int block -> sitofp
        auto r2 = h + 1.0;             // f16: weak float keeps the float block's type
        auto r3 = h + 2;               // f16
        auto r4 = h + f;               // f32: extf
        auto r5 = h + b;               // f32: f16 and bf16 meet in f32
        auto r6 = i8 + i32;            // i32: extsi
        auto r7 = u8 + i32;            // i32: extui (narrower unsigned -> signed wins)
        auto r8 = u32 + i32;           // u32: same width, unsigned wins (bitcast i32 to i32)
        auto r9 = i64 + u32;           // i64: extui
        auto r10 = f + f64;            // f64
        auto r11 = i32 + h;            // f16: sitofp
        auto r12 = u8 + tk::half(1.0); // f16: a tk::half literal is strong; uitofp
        auto r13 = i8 * 300;           // i8: the literal wraps to 44
        auto r14 = u32 - 1;            // u32
        auto r15 = 2.0 * f;            // literal on the left
        auto r16 = i64 + 1.0;          // f32: float literal with an integer block
        (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8,
            (void)r9, (void)r10, (void)r11, (void)r12, (void)r13, (void)r14, (void)r15, (void)r16;
      });
  return k.ir(buffers::f32, buffers::f16, buffers::bf16, buffers::i8, buffers::u8, buffers::i32,
              buffers::u32, buffers::i64, buffers::f64);
}

// / and % round toward zero (divsi/remsi), unsigned types use divui/remui/shrui,
// tk::floordiv rounds toward negative infinity.
inline std::string arith_integer() {
  auto k = tk::jit("integer",
                   [](tk::ptr<std::int32_t> pi, tk::ptr<std::uint32_t> pu, tk::ptr<float> pf) {
                     auto offs = tk::arange(0, 16);
                     auto i = tk::load(pi + offs);
                     auto u = tk::load(pu + offs);
                     auto f = tk::load(pf + offs);
                     auto q0 = i / 3;
                     auto q1 = u / 3;
                     auto q2 = f / 3;
                     auto m0 = i % 3;
                     auto m1 = u % 3;
                     auto m2 = f % 3;
                     auto d0 = tk::floordiv(i, 3);
                     auto d1 = tk::floordiv(u, 3);
                     auto d2 = tk::floordiv(f, 3);
                     auto s0 = i << 2;
                     auto s1 = i >> 2;
                     auto s2 = u >> 2;
                     auto b0 = i & 7;
                     auto b1 = i | u;
                     auto b2 = i ^ 5;
                     auto n0 = ~i;
                     auto n1 = ~u;
                     auto n2 = -i;
                     auto n3 = -f;
                     auto c0 = tk::cdiv(i, 4);
                     i *= 3;
                     i -= u; // computed in u32 and converted back to i32
                     f += 1;
                     i += 2.5f; // computed in f32, converted back with fptosi
                     tk::store(pi + offs, i);
                     (void)q0, (void)q1, (void)q2, (void)m0, (void)m1, (void)m2, (void)d0, (void)d1,
                         (void)d2, (void)s0, (void)s1, (void)s2, (void)b0, (void)b1, (void)b2,
                         (void)n0, (void)n1, (void)n2, (void)n3, (void)c0;
                   });
  return k.ir(buffers::i32, buffers::u32, buffers::f32);
}

inline std::string arith_compare() {
  auto k = tk::jit("compare", [](tk::ptr<std::int32_t> pi, tk::ptr<std::uint32_t> pu,
                                 tk::ptr<float> pf, tk::ptr<bool> out) {
    auto offs = tk::arange(0, 16);
    auto i = tk::load(pi + offs);
    auto u = tk::load(pu + offs);
    auto f = tk::load(pf + offs);
    auto o = out + offs;
    tk::store(o, i < 1);
    tk::store(o, i <= 1);
    tk::store(o, i > 1);
    tk::store(o, i >= 1);
    tk::store(o, i == 1);
    tk::store(o, i != 1);
    tk::store(o, u < 1);
    tk::store(o, u <= 1);
    tk::store(o, u > 1);
    tk::store(o, u >= 1);
    tk::store(o, f < 1);
    tk::store(o, f <= 1);
    tk::store(o, f > 1);
    tk::store(o, f >= 1);
    tk::store(o, f == 1);
    tk::store(o, f != 1);
    tk::store(o, i < u);   // promoted to u32: ult
    tk::store(o, 0.5 < i); // promoted to f32: olt
  });
  return k.ir(buffers::i32, buffers::u32, buffers::f32, buffers::i1);
}

inline std::string arith_logical() {
  auto k = tk::jit("logical", [](tk::ptr<std::int32_t> pi, tk::ptr<float> pf, tk::ptr<bool> out) {
    auto offs = tk::arange(0, 16);
    auto i = tk::load(pi + offs);
    auto f = tk::load(pf + offs);
    auto a = i > 0;
    auto b = f < 2;
    auto o = out + offs;
    tk::store(o, a && b);
    tk::store(o, a || b);
    tk::store(o, !a);
    tk::store(o, a && f); // a float operand is tested against zero (cmpf une)
    tk::store(o, i || true);
    tk::store(o, a ^ b);
    tk::store(o, !f); // f == 0
  });
  return k.ir(buffers::i32, buffers::f32, buffers::i1);
}

inline std::string arith_where() {
  auto k = tk::jit("where", [](tk::ptr<float> pf, tk::ptr<std::int32_t> pi, tk::i1 flag) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto i = tk::load(pi + offs);
    auto c = f > 0;
    auto w0 = tk::where(c, f, 0.0f); // f32
    auto w1 = tk::where(c, i, f);    // f32: sitofp
    auto w2 = tk::where(c, 1, 2);    // i32 constants
    auto w3 = tk::where(flag, f, i); // scalar condition: splat
    auto rows = offs(tk::_, tk::newaxis);
    auto w4 = tk::where(c, rows, 0); // [16, 16]: broadcast
    (void)w0, (void)w1, (void)w2, (void)w3, (void)w4;
  });
  return k.ir(buffers::f32, buffers::i32, true);
}

// ---------------------------------------------------------------------------------------------
// casts: tk::cast and tk::bitcast

inline std::string casts_float() {
  auto k = tk::jit("cast_float", [](tk::ptr<float> pf, tk::ptr<tk::half> ph,
                                    tk::ptr<tk::bfloat16> pb, tk::ptr<double> pd) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto b = tk::load(pb + offs);
    auto d = tk::load(pd + offs);
    auto c0 = tk::cast<float>(h);        // extf
    auto c1 = tk::cast<tk::half>(f);     // truncf
    auto c2 = tk::cast<tk::bfloat16>(h); // extf to f32, truncf to bf16
    auto c3 = tk::cast<tk::half>(b);     // extf to f32, truncf to f16
    auto c4 = tk::cast<double>(f);       // extf
    auto c5 = tk::cast<float>(d);        // truncf
    auto c6 = tk::cast<float>(f);        // no op
    (void)c0, (void)c1, (void)c2, (void)c3, (void)c4, (void)c5, (void)c6;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::bf16, buffers::f64);
}

inline std::string casts_int() {
  auto k = tk::jit("cast_int", [](tk::ptr<std::int8_t> pi8, tk::ptr<std::uint8_t> pu8,
                                  tk::ptr<std::int32_t> pi32, tk::ptr<std::uint32_t> pu32,
                                  tk::ptr<std::int64_t> pi64, tk::ptr<float> pf) {
    auto offs = tk::arange(0, 16);
    auto i8 = tk::load(pi8 + offs);
    auto u8 = tk::load(pu8 + offs);
    auto i32 = tk::load(pi32 + offs);
    auto u32 = tk::load(pu32 + offs);
    auto i64 = tk::load(pi64 + offs);
    auto f = tk::load(pf + offs);
    auto c0 = tk::cast<std::int32_t>(i8);   // extsi
    auto c1 = tk::cast<std::int32_t>(u8);   // extui
    auto c2 = tk::cast<std::int16_t>(i64);  // trunci
    auto c3 = tk::cast<std::uint32_t>(i32); // same width: bitcast i32 to i32
    auto c4 = tk::cast<float>(i32);         // sitofp
    auto c5 = tk::cast<float>(u32);         // uitofp
    auto c6 = tk::cast<std::int32_t>(f);    // fptosi
    auto c7 = tk::cast<std::uint8_t>(f);    // fptoui
    auto c8 = tk::cast<bool>(i32);          // cmpi ne 0
    auto c9 = tk::cast<bool>(f);            // cmpf une 0.0
    auto c10 = tk::cast<std::int32_t>(c8);  // i1 is unsigned: extui
    auto c11 = tk::cast<float>(c8);         // uitofp
    auto c12 = tk::cast<std::int64_t>(u32); // extui
    (void)c0, (void)c1, (void)c2, (void)c3, (void)c4, (void)c5, (void)c6, (void)c7, (void)c9,
        (void)c10, (void)c11, (void)c12;
  });
  return k.ir(buffers::i8, buffers::u8, buffers::i32, buffers::u32, buffers::i64, buffers::f32);
}

inline std::string casts_bitcast() {
  auto k = tk::jit("bitcast", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<std::int32_t> pi,
                                 tk::ptr<tk::bfloat16> pb) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto i = tk::load(pi + offs);
    auto b = tk::load(pb + offs);
    auto c0 = tk::bitcast<std::int32_t>(f);
    auto c1 = tk::bitcast<float>(i);
    auto c2 = tk::bitcast<std::int16_t>(h);
    auto c3 = tk::bitcast<std::uint16_t>(b);
    auto c4 = tk::bitcast<tk::bfloat16>(h);
    auto c5 = tk::bitcast<std::uint32_t>(i);
    auto c6 = tk::bitcast<std::int32_t *>(pf); // pointer to pointer: tk.bitcast
    (void)c0, (void)c1, (void)c2, (void)c3, (void)c4, (void)c5, (void)c6;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::i32, buffers::bf16);
}

// ---------------------------------------------------------------------------------------------
// math

inline std::string math_unary() {
  auto k = tk::jit("unary", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<std::int32_t> pi,
                               tk::ptr<std::uint32_t> pu) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto i = tk::load(pi + offs);
    auto u = tk::load(pu + offs);
    auto r0 = tk::exp(f);
    auto r1 = tk::exp2(f);
    auto r2 = tk::log(f);
    auto r3 = tk::log2(f);
    auto r4 = tk::sqrt(f);
    auto r5 = tk::rsqrt(f);
    auto r6 = tk::abs(f);
    auto r7 = tk::abs(i); // absi
    auto r8 = tk::abs(u); // unsigned: no op
    auto r9 = tk::sin(f);
    auto r10 = tk::cos(f);
    auto r11 = tk::erf(f);
    auto r12 = tk::floor(f);
    auto r13 = tk::ceil(f);
    auto r14 = tk::exp(h); // f16 stays f16
    auto r15 = tk::sigmoid(f);
    auto r16 = tk::sigmoid(h);
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8,
        (void)r9, (void)r10, (void)r11, (void)r12, (void)r13, (void)r14, (void)r15, (void)r16;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::i32, buffers::u32);
}

inline std::string math_binary() {
  auto k = tk::jit("binary", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<std::int32_t> pi,
                                tk::ptr<std::uint32_t> pu) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto i = tk::load(pi + offs);
    auto u = tk::load(pu + offs);
    auto r0 = tk::fma(f, f, f);
    auto r1 = tk::fma(h, 2, 1.0); // f16
    auto r2 = tk::fma(h, f, 0);   // f32
    auto r3 = tk::maximum(f, 0.0f);
    auto r4 = tk::minimum(f, h); // f32
    auto r5 = tk::maximum(i, 3); // maxsi
    auto r6 = tk::minimum(u, 3); // minui
    auto r7 = tk::maximum(2, i); // literal first
    auto r8 = tk::clamp(f, -1.0f, 1.0f);
    auto r9 = tk::clamp(i, 0, 255);
    auto r10 = tk::clamp(h, f, 6.0); // computed in f32, back to f16
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8,
        (void)r9, (void)r10;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::i32, buffers::u32);
}

// ---------------------------------------------------------------------------------------------
// shapes

inline std::string shapes_broadcast() {
  auto k = tk::jit("broadcast", [](tk::ptr<float> out, tk::f32 s) {
    auto rows = tk::arange(0, 8);
    auto cols = tk::arange(0, 16);
    auto r = rows(tk::_, tk::newaxis); // [8, 1]
    auto c = cols(tk::newaxis, tk::_); // [1, 16]
    auto rc = r * 16 + c;              // [8, 16]: both sides broadcast
    auto x = tk::cast<float>(rc);
    auto y = x + s;    // scalar: splat
    auto z = x * cols; // [16] against [8, 16]: expand_dims, broadcast
    auto b0 = tk::broadcast_to(cols, {8, 16});
    auto b1 = tk::broadcast_to(cols, {2, 4, 16}); // rank + 2: reshape, broadcast
    auto b2 = tk::broadcast_to(s, {4, 4});        // scalar: splat
    auto b3 = tk::broadcast_to(r, {8, 32});
    auto b4 = tk::broadcast_to(cols, {16}); // same shape: no op
    tk::store(out + rc, y);
    (void)z, (void)b0, (void)b1, (void)b2, (void)b3, (void)b4;
  });
  return k.ir(buffers::f32, 1.0f);
}

inline std::string shapes_expand_dims() {
  auto k = tk::jit("expand_dims", [](tk::ptr<float> out) {
    auto x = tk::arange(0, 16);
    auto a = tk::expand_dims(x, 0);              // [1, 16]
    auto b = tk::expand_dims(x, 1);              // [16, 1]
    auto c = tk::expand_dims(x, -1);             // [16, 1]
    auto d = x(tk::_, tk::newaxis);              // [16, 1]
    auto e = x(tk::newaxis, tk::_);              // [1, 16]
    auto f = x(tk::newaxis, tk::_, tk::newaxis); // [1, 16, 1]
    auto g = b(tk::_, tk::_, tk::newaxis);       // [16, 1, 1]
    auto h = tk::expand_dims(b, 1);              // [16, 1, 1]
    (void)a, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h, (void)out;
  });
  return k.ir(buffers::f32);
}

inline std::string shapes_reshape_trans() {
  auto k = tk::jit("reshape_trans", [](tk::ptr<float> in, tk::ptr<float> out) {
    auto rows = tk::arange(0, 16);
    auto cols = tk::arange(0, 32);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 32;
    auto offs = ro + cols(tk::newaxis, tk::_); // [16, 32]
    auto x = tk::load(in + offs);
    auto flat = tk::reshape(x, {512});
    auto cube = tk::reshape(flat, {8, 4, 16});
    auto t = tk::trans(x);                 // [32, 16]
    auto p = tk::permute(cube, {2, 0, 1}); // [16, 8, 4]
    auto back = tk::reshape(p, {16, 32});
    auto same = tk::permute(x, {0, 1});
    tk::store(out + offs, back);
    (void)t, (void)same;
  });
  return k.ir(buffers::f32, buffers::f32);
}

// ---------------------------------------------------------------------------------------------
// reductions

inline std::string reductions_basic() {
  auto k = tk::jit("reductions", [](tk::ptr<float> pf, tk::ptr<std::int32_t> pi,
                                    tk::ptr<std::uint32_t> pu, tk::ptr<std::int8_t> pc) {
    auto rows = tk::arange(0, 8);
    auto cols = tk::arange(0, 16);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 16;
    auto offs = ro + cols(tk::newaxis, tk::_); // [8, 16]
    auto f = tk::load(pf + offs);
    auto i = tk::load(pi + cols);
    auto u = tk::load(pu + cols);
    auto c = tk::load(pc + cols);
    auto s0 = tk::sum(f, 0);                // [16]
    auto s1 = tk::sum(f, 1);                // [8]
    auto s2 = tk::sum(f, -1);               // [8]
    auto s3 = tk::sum(f, 1, tk::keep_dims); // [8, 1]
    auto s4 = tk::sum(f);                   // reduce-all: reshape, scalar
    auto s5 = tk::sum(i);                   // 1-D: scalar
    auto s6 = tk::sum(c, 0);                // i8 accumulates in i32
    auto m0 = tk::max(f, 1);
    auto m1 = tk::min(f, 0, tk::keep_dims); // [1, 16]
    auto m2 = tk::max(i, 0);                // maxsi
    auto m3 = tk::min(u, 0);                // minui
    auto m4 = tk::max(f);
    (void)s0, (void)s1, (void)s2, (void)s3, (void)s4, (void)s5, (void)s6, (void)m0, (void)m1,
        (void)m2, (void)m3, (void)m4;
  });
  return k.ir(buffers::f32, buffers::i32, buffers::u32, buffers::i8);
}

inline std::string reductions_arg() {
  auto k = tk::jit("argmax", [](tk::ptr<float> pf, tk::ptr<std::int32_t> out) {
    auto rows = tk::arange(0, 8);
    auto cols = tk::arange(0, 16);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 16;
    auto offs = ro + cols(tk::newaxis, tk::_);
    auto f = tk::load(pf + offs);
    auto v = tk::load(pf + cols);
    auto a0 = tk::argmax(v, 0); // scalar
    auto a1 = tk::argmin(f, 1); // [8]
    tk::store(out, a0);
    tk::store(out + rows, a1);
  });
  return k.ir(buffers::f32, buffers::i32);
}

inline std::string reductions_combine() {
  auto k = tk::jit("reduce_combine", [](tk::ptr<float> pf, tk::ptr<std::int32_t> pi) {
    auto rows = tk::arange(0, 8);
    auto cols = tk::arange(0, 16);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 16;
    auto offs = ro + cols(tk::newaxis, tk::_);
    auto f = tk::load(pf + offs);
    auto i = tk::load(pi + cols);
    auto prod = tk::reduce(f, 1, [](tk::f32 a, tk::f32 b) { return a * b; });
    auto absmax = tk::reduce(f, 0, [](tk::f32 a, tk::f32 b) {
      auto aa = tk::abs(a);
      auto ab = tk::abs(b);
      return tk::maximum(aa, ab);
    });
    auto bits = tk::reduce(i, 0, [](tk::i32 a, tk::i32 b) { return a | b; });
    (void)prod, (void)absmax, (void)bits;
  });
  return k.ir(buffers::f32, buffers::i32);
}

// ---------------------------------------------------------------------------------------------
// scans

inline std::string scans_basic() {
  auto k = tk::jit("scans", [](tk::ptr<float> pf, tk::ptr<std::int8_t> pc) {
    auto rows = tk::arange(0, 8);
    auto cols = tk::arange(0, 16);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 16;
    auto offs = ro + cols(tk::newaxis, tk::_);
    auto f = tk::load(pf + offs);
    auto v = tk::load(pf + cols);
    auto c = tk::load(pc + cols);
    auto s0 = tk::cumsum(v); // axis 0
    auto s1 = tk::cumsum(f, 1);
    auto s2 = tk::cumsum(f, 0, true); // reverse
    auto s3 = tk::cumsum(c);          // i8 accumulates in i32
    auto p0 = tk::cumprod(v);
    auto p1 = tk::cumprod(f, -1, true);
    (void)s0, (void)s1, (void)s2, (void)s3, (void)p0, (void)p1;
  });
  return k.ir(buffers::f32, buffers::i8);
}

inline std::string scans_associative() {
  auto k = tk::jit("associative_scan", [](tk::ptr<float> pf, tk::ptr<std::int32_t> pi) {
    auto cols = tk::arange(0, 16);
    auto v = tk::load(pf + cols);
    auto i = tk::load(pi + cols);
    auto running_max =
        tk::associative_scan(v, 0, [](tk::f32 a, tk::f32 b) { return tk::maximum(a, b); });
    auto suffix_xor = tk::associative_scan(i, 0, [](tk::i32 a, tk::i32 b) { return a ^ b; }, true);
    (void)running_max, (void)suffix_xor;
  });
  return k.ir(buffers::f32, buffers::i32);
}

// ---------------------------------------------------------------------------------------------
// dot

inline std::string dot_kinds() {
  auto k = tk::jit("dot", [](tk::ptr<tk::half> ph, tk::ptr<tk::bfloat16> pb, tk::ptr<float> pf,
                             tk::ptr<std::int8_t> pc) {
    auto rows = tk::arange(0, 16);
    auto cols = tk::arange(0, 32);
    auto r = rows(tk::_, tk::newaxis);
    auto ro = r * 32;
    auto offs = ro + cols(tk::newaxis, tk::_); // [16, 32]
    auto h = tk::load(ph + offs);
    auto b = tk::load(pb + offs);
    auto f = tk::load(pf + offs);
    auto c = tk::load(pc + offs);
    auto ht = tk::trans(h); // [32, 16]
    auto bt = tk::trans(b);
    auto ft = tk::trans(f);
    auto ct = tk::trans(c);
    auto d0 = tk::dot(h, ht); // f16 x f16 -> f32, zero accumulator
    auto acc16 = tk::zeros<tk::half>({16, 16});
    auto d1 = tk::dot(h, ht, acc16);                           // f16 accumulator
    auto d2 = tk::dot(b, bt);                                  // bf16 -> f32
    auto d3 = tk::dot(f, ft);                                  // f32: tf32 by default
    auto d4 = tk::dot(f, ft, tk::input_precision::ieee);       // f32: ieee
    auto d5 = tk::dot(f, ft, d3, tk::input_precision::ieee);   // with accumulator
    auto d6 = tk::dot(c, ct);                                  // i8 -> i32
    auto d7 = tk::dot(h, ht, d0);                              // f32 accumulator
    auto d8 = tk::dot(f, ft, d4, tk::input_precision::tf32x3); // f32: three tf32 passes
    auto d9 = tk::dot(h, ht, tk::input_precision::tf32x3);     // f16: no effect (ieee)
    (void)d1, (void)d2, (void)d5, (void)d6, (void)d7, (void)d8, (void)d9;
  });
  return k.ir(buffers::f16, buffers::bf16, buffers::f32, buffers::i8);
}

// ---------------------------------------------------------------------------------------------
// control flow

inline std::string control_for_plain() {
  auto k = tk::jit("for_plain", [](tk::ptr<float> out, tk::i32 n) {
    auto offs = tk::arange(0, 16);
    tk::for_range(0, n, [&](tk::i32 i) { // no carried values
      auto base = out + i;
      tk::store(base + offs, 1.0f);
    });
    tk::for_range(0, 8, 2, [&] { // body without induction variable
      tk::store(out + offs, 2.0f);
    });
  });
  return k.ir(buffers::f32, 100);
}

inline std::string control_for_carried() {
  auto k = tk::jit("for_carried", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
    auto offs = tk::arange(0, 16);
    auto acc = tk::zeros<float>({16});
    tk::for_range(0, n, [&](tk::i32 i) { // one carried value
      auto p = in + i;
      auto x = tk::load(p + offs);
      acc = acc + x;
    });
    tk::store(out + offs, acc);
  });
  return k.ir(buffers::f32, buffers::f32, 100);
}

// A matmul main loop: three carried values, two of them pointer blocks advanced with +=.
inline std::string control_for_matmul() {
  auto k =
      tk::jit("for_matmul", [](tk::ptr<float> c, tk::ptr<const tk::half> a,
                               tk::ptr<const tk::half> b, tk::i32 K, tk::i32 lda, tk::i32 ldb) {
        auto rm = tk::arange(0, 32);
        auto rn = tk::arange(0, 32);
        auto rk = tk::arange(0, 16);
        auto a_rows = rm(tk::_, tk::newaxis);
        auto a_row_offs = a_rows * lda;
        auto a_offs = a_row_offs + rk(tk::newaxis, tk::_); // [32, 16]
        auto b_rows = rk(tk::_, tk::newaxis);
        auto b_row_offs = b_rows * ldb;
        auto b_offs = b_row_offs + rn(tk::newaxis, tk::_); // [16, 32]
        auto a_ptrs = a + a_offs;
        auto b_ptrs = b + b_offs;
        auto acc = tk::zeros<float>({32, 32});
        auto b_step = ldb * 16;
        tk::for_range(0, K, 16, [&](tk::i32) {
          auto x = tk::load(a_ptrs);
          auto y = tk::load(b_ptrs);
          acc = tk::dot(x, y, acc);
          a_ptrs += 16;
          b_ptrs += b_step;
        });
        auto c_rows = rm(tk::_, tk::newaxis);
        auto c_row_offs = c_rows * 32;
        auto c_offs = c_row_offs + rn(tk::newaxis, tk::_);
        tk::store(c + c_offs, acc);
      });
  return k.ir(buffers::f32, buffers::f16, buffers::f16, 256, 256, 32);
}

inline std::string control_for_nested() {
  auto k = tk::jit("for_nested", [](tk::ptr<float> out, tk::i32 n, tk::i64 m) {
    auto total = tk::zeros<float>({16});
    tk::i32 count = n; // a scalar carried through both loops
    tk::for_range(0, n, [&](tk::i32 i) {
      auto row = tk::zeros<float>({16});
      tk::for_range(std::int64_t(0), m, [&](tk::i64 j) { // i64 induction variable
        auto jj = tk::cast<float>(j);
        row += jj;
        count += 1;
      });
      auto fi = tk::cast<float>(i);
      auto scaled = row * fi;
      total = total + scaled;
    });
    auto offs = tk::arange(0, 16);
    auto o = out + offs;
    tk::store(o, total);
    tk::store(out, count);
  });
  return k.ir(buffers::f32, 4, std::int64_t(8));
}

inline std::string control_if() {
  auto k = tk::jit("if_", [](tk::ptr<float> out, tk::i32 n, tk::f32 s) {
    auto offs = tk::arange(0, 16);
    auto x = tk::zeros<float>({16});
    auto big = n > 10;
    // yields a value
    auto y = tk::if_(big, [&] { return x + 1.0f; }, [&] { return x - 1.0f; });
    // assigns handles: both branches, then only one
    tk::f32 scale = s;
    tk::if_(
        big,
        [&] {
          x = y * 2.0f;
          scale = s * 4.0f;
        },
        [&] { x = y; });
    // no else branch
    auto small = n < 4;
    tk::if_(small, [&] { tk::store(out + offs, x); });
    tk::if_(small, [&] { x += scale; });
    // a value and an assigned handle at once
    auto z = tk::if_(
        big,
        [&] {
          scale = scale * s;
          return y;
        },
        [&] { return x; });
    tk::store(out + offs, z);
  });
  return k.ir(buffers::f32, 20, 0.5f);
}

inline std::string control_while() {
  auto k = tk::jit("while_", [](tk::ptr<float> out, tk::ptr<const std::int32_t> flag, tk::i32 n) {
    tk::i32 i = n;
    auto acc = tk::zeros<float>({16});
    tk::while_([&] { return i > 0; },
               [&] {
                 auto fi = tk::cast<float>(i);
                 acc = acc + fi;
                 i = i - 1;
               });
    // nothing carried: waits until memory changes
    tk::while_(
        [&] {
          auto f = tk::load(flag);
          return f == 0;
        },
        [&] {});
    auto offs = tk::arange(0, 16);
    tk::store(out + offs, acc);
  });
  return k.ir(buffers::f32, buffers::i32, 10);
}

// ---------------------------------------------------------------------------------------------
// memory, later additions (here so that the kernels above keep their lines in the golden files)

// Tensor descriptors: a block loaded and stored through descriptors of run-time shape and
// strides (tk.make_tensor_descriptor, tk.descriptor_load, tk.descriptor_store).
inline std::string memory_descriptor() {
  auto k = tk::jit("descriptor", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M,
                                    tk::i32 N, tk::i32 ld) {
    auto src = tk::make_tensor_descriptor(in, {M, N}, {ld, 1}, {16, 32});
    auto dst = tk::make_tensor_descriptor(out, {M, N}, {ld, 1}, {16, 32});
    auto row = tk::program_id(0) * 16;
    dst.store({row, 32}, src.load({row, 0}));
    dst.store({row, 0}, 0.0f);
  });
  return k.ir(buffers::f32, buffers::f32, 100, 64, 64);
}

// Block pointers: a block advanced through a loop with boundary checks and NaN padding, and a
// store checked along one dimension (tk.make_block_ptr, tk.advance, tk.block_load,
// tk.block_store).
inline std::string memory_block_pointer() {
  auto k = tk::jit("block_pointer", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 M,
                                       tk::i32 K, tk::i32 ld) {
    auto row = tk::program_id(0) * 16;
    auto a = tk::make_block_ptr(in, {M, K}, {ld, 1}, {row, 0}, {16, 32}, {1, 0});
    auto acc = tk::zeros<float>({16, 32});
    tk::for_range(0, K, 32, [&](tk::i32) {
      acc = tk::maximum(acc, tk::load(a, {0, 1}, tk::padding::nan));
      a = tk::advance(a, {0, 32});
    });
    auto o = tk::make_block_ptr(out, {M, 32}, {32, 1}, {row, 0}, {16, 32});
    tk::store(o, acc, {0});
  });
  return k.ir(buffers::f32, buffers::f32, 100, 64, 64);
}

// fp8: loads and stores of both fp8 types, casts with both rounding modes, arithmetic on fp8
// and the fp8 types meeting in f16.
inline std::string casts_fp8() {
  auto k = tk::jit("fp8", [](tk::ptr<tk::f8e4m3> out, tk::ptr<tk::half> mixed,
                             tk::ptr<const tk::f8e5m2> in, tk::ptr<const float> x) {
    auto offs = tk::arange(0, 64);
    auto a = tk::cast<tk::f8e4m3>(tk::load(x + offs), tk::rounding::rtz);
    auto b = tk::load(in + offs);
    tk::store(out + offs, a * 2.0f + tk::cast<tk::f8e4m3>(b));
    tk::store(mixed + offs, a + b);
  });
  alignas(64) static tk::f8e4m3 f8e4m3[8];
  alignas(64) static tk::f8e5m2 f8e5m2[8];
  return k.ir(f8e4m3, buffers::f16, f8e5m2, buffers::f32);
}

// fp8 reductions and scans: sum, max and argmax along each axis of an e4m3 block, cumsum of an
// e5m2 one (the backend reduces their f32 values, each step rounded to fp8).
inline std::string reductions_fp8() {
  auto k = tk::jit("reductions_fp8", [](tk::ptr<tk::f8e4m3> out, tk::ptr<std::int32_t> index,
                                        tk::ptr<tk::f8e5m2> scanned, tk::ptr<const tk::f8e4m3> x,
                                        tk::ptr<const tk::f8e5m2> y) {
    auto rows = tk::arange(0, 16);
    auto cols = tk::arange(0, 32);
    auto offs = rows(tk::_, tk::newaxis) * 32 + cols(tk::newaxis, tk::_);
    auto a = tk::load(x + offs);
    tk::store(out + rows, tk::sum(a, 1));
    tk::store(out + 16 + cols, tk::max(a, 0));
    tk::store(index + rows, tk::argmax(a, 1));
    tk::store(scanned + offs, tk::cumsum(tk::load(y + offs), 1));
  });
  alignas(64) static tk::f8e4m3 f8e4m3[512];
  alignas(64) static tk::f8e5m2 f8e5m2[512];
  return k.ir(f8e4m3, buffers::i32, f8e5m2, f8e4m3, f8e5m2);
}

// fp8 dots: e4m3 x e4m3 and e4m3 x e5m2 into f32 accumulators.
inline std::string dot_fp8() {
  auto k = tk::jit("dot_fp8", [](tk::ptr<float> out, tk::ptr<const tk::f8e4m3> pa,
                                 tk::ptr<const tk::f8e5m2> pb) {
    auto r = tk::arange(0, 32);
    auto offs = r(tk::_, tk::newaxis) * 32 + r(tk::newaxis, tk::_); // [32, 32]
    auto a = tk::load(pa + offs);
    auto b = tk::load(pb + offs);
    auto acc = tk::dot(a, tk::trans(a));
    tk::store(out + offs, tk::dot(a, b, acc));
  });
  alignas(64) static tk::f8e4m3 f8e4m3[8];
  alignas(64) static tk::f8e5m2 f8e5m2[8];
  return k.ir(buffers::f32, f8e4m3, f8e5m2);
}

// ---------------------------------------------------------------------------------------------
// atomics: tk.atomic_rmw of every kind (the operation and the pointee type choose it), masked and
// not, with every memory ordering and scope; tk.atomic_cas; scalar pointers and a spin lock.

inline std::string atomics_rmw() {
  auto k = tk::jit("atomic_rmw",
                   [](tk::ptr<float> f, tk::ptr<std::int32_t> i, tk::ptr<std::uint32_t> u,
                      tk::ptr<tk::half> h, tk::ptr<std::int64_t> l, tk::ptr<double> d, tk::i32 n) {
                     auto offs = tk::arange(0, 128);
                     auto mask = offs < n;
                     auto fp = f + offs;
                     auto ip = i + offs;
                     auto up = u + offs;
                     auto hp = h + offs;
                     auto lp = l + offs;
                     auto dp = d + offs;
                     auto x = tk::load(fp);
                     auto a = tk::atomic_add(fp, x);                         // fadd
                     auto b = tk::atomic_add(ip, 1, mask);                   // add, masked
                     auto c = tk::atomic_max(fp, a, mask, tk::sem::relaxed); // fmax
                     auto e = tk::atomic_max(ip, b, tk::sem::acquire, tk::scope::cta); // max
                     auto g = tk::atomic_max(up, 7u, tk::scope::sys);                  // umax
                     auto m1 = tk::atomic_min(fp, c);                                  // fmin
                     auto m2 = tk::atomic_min(ip, e);                                  // min
                     auto m3 = tk::atomic_min(up, g, mask, tk::sem::release);          // umin
                     auto o1 = tk::atomic_and(ip, m2);
                     auto o2 = tk::atomic_or(up, m3, mask, tk::scope::cta);
                     auto o3 = tk::atomic_xor(lp, 255);
                     auto o4 = tk::atomic_xchg(dp, 1.5, mask, tk::sem::acq_rel, tk::scope::gpu);
                     auto o5 = tk::atomic_add(hp, 0.5f); // fadd on f16: the value converted to f16
                     auto o6 = tk::atomic_xchg(fp, m1);
                     (void)o1, (void)o2, (void)o3, (void)o4, (void)o5, (void)o6;
                   });
  return k.ir(buffers::f32, buffers::i32, buffers::u32, buffers::f16, buffers::i64, buffers::f64,
              100);
}

inline std::string atomics_cas() {
  auto k = tk::jit("atomic_cas",
                   [](tk::ptr<std::int32_t> lock, tk::ptr<float> f, tk::ptr<std::uint64_t> u) {
                     tk::while_(
                         [&] {
                           auto held = tk::atomic_cas(lock, 0, 1, tk::sem::acquire);
                           return held == 1;
                         },
                         [] {});
                     auto offs = tk::arange(0, 16);
                     auto fp = f + offs;
                     auto x = tk::load(fp);
                     auto y = tk::atomic_cas(fp, x, 2.0f); // a block; the value splatted
                     auto total = tk::atomic_add(f, 1.0f); // a scalar pointer
                     auto z = tk::atomic_cas(u, 0, 5, tk::scope::cta);
                     tk::atomic_xchg(lock, 0, tk::sem::release);
                     (void)y, (void)total, (void)z;
                   });
  alignas(64) static std::uint64_t u64[8];
  return k.ir(buffers::i32, buffers::f32, u64);
}

// ---------------------------------------------------------------------------------------------
// math, continued: the math library (defined here, after the other families, so that adding it
// moved no other golden's locations)

inline std::string math_library() {
  auto k = tk::jit("library", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<double> pd) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto d = tk::load(pd + offs);
    auto r0 = tk::tanh(f);
    auto r1 = tk::tan(f);
    auto r2 = tk::asin(f);
    auto r3 = tk::acos(f);
    auto r4 = tk::atan(f);
    auto r5 = tk::sinh(f);
    auto r6 = tk::cosh(f);
    auto r7 = tk::asinh(f);
    auto r8 = tk::acosh(f);
    auto r9 = tk::atanh(f);
    auto r10 = tk::erfc(f);
    auto r11 = tk::cbrt(f);
    auto r12 = tk::log10(f);
    auto r13 = tk::log1p(f);
    auto r14 = tk::expm1(f);
    auto r15 = tk::trunc(f);
    auto r16 = tk::round(f); // half away from zero
    auto r17 = tk::rint(f);  // half to even: math.roundeven
    auto r18 = tk::sqrt_rn(f);
    auto r19 = tk::tanh(h); // f16 stays f16
    auto r20 = tk::exp10(f);
    auto r21 = tk::exp10(d); // __nv_exp10
    auto r22 = tk::exp10(h); // through f32
    auto r23 = tk::round(d);
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8,
        (void)r9, (void)r10, (void)r11, (void)r12, (void)r13, (void)r14, (void)r15, (void)r16,
        (void)r17, (void)r18, (void)r19, (void)r20, (void)r21, (void)r22, (void)r23;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::f64);
}

inline std::string math_library_binary() {
  auto k = tk::jit("library_binary", [](tk::ptr<float> pf, tk::ptr<tk::half> ph, tk::ptr<double> pd,
                                        tk::ptr<std::int32_t> pi, tk::f32 s) {
    auto offs = tk::arange(0, 16);
    auto f = tk::load(pf + offs);
    auto h = tk::load(ph + offs);
    auto d = tk::load(pd + offs);
    auto i = tk::load(pi + offs);
    auto r0 = tk::pow(f, f);
    auto r1 = tk::pow(f, 2);   // a literal exponent
    auto r2 = tk::pow(h, f);   // promoted to f32
    auto r3 = tk::atan2(f, s); // a scalar, splatted
    auto r4 = tk::hypot(f, f);
    auto r5 = tk::hypot(d, 1.0);
    auto r6 = tk::hypot(h, h); // through f32
    auto r7 = tk::fdiv(f, f);  // may be approximated
    auto r8 = tk::fdiv(f, f, true);
    auto r9 = tk::div_rn(f, 3.0f);
    auto r10 = f / f; // IEEE, no flag
    auto r11 = tk::sqrt(f);
    auto r12 = tk::maximum(f, 0.0f, tk::propagate_nan::all);
    auto r13 = tk::minimum(f, h, tk::propagate_nan::all);
    auto r14 = tk::maximum(f, 0.0f, tk::propagate_nan::none);
    auto r15 = tk::maximum(i, 3, tk::propagate_nan::all); // integers: maxsi
    auto r16 = tk::clamp(f, -1.0f, 1.0f, tk::propagate_nan::all);
    auto r17 = tk::clamp(h, 0, 6, tk::propagate_nan::all);
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6, (void)r7, (void)r8,
        (void)r9, (void)r10, (void)r11, (void)r12, (void)r13, (void)r14, (void)r15, (void)r16,
        (void)r17;
  });
  return k.ir(buffers::f32, buffers::f16, buffers::f64, buffers::i32, 2.0f);
}

inline std::string math_classify() {
  auto k = tk::jit("classify",
                   [](tk::ptr<float> pf, tk::ptr<tk::bfloat16> pb, tk::ptr<double> pd, tk::f32 s) {
                     auto offs = tk::arange(0, 16);
                     auto f = tk::load(pf + offs);
                     auto b = tk::load(pb + offs);
                     auto d = tk::load(pd + offs);
                     auto r0 = tk::isnan(f);
                     auto r1 = tk::isinf(f);
                     auto r2 = tk::signbit(f);
                     auto r3 = tk::isinf(b);
                     auto r4 = tk::signbit(b); // i16
                     auto r5 = tk::signbit(d); // i64
                     auto r6 = tk::isnan(s);   // a scalar: an i1
                     (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5, (void)r6;
                   });
  return k.ir(buffers::f32, buffers::bf16, buffers::f64, 1.0f);
}

inline std::string math_softmax() {
  auto k = tk::jit("softmax", [](tk::ptr<float> pf) {
    auto rows = tk::expand_dims(tk::arange(0, 4), 1);
    auto cols = tk::expand_dims(tk::arange(0, 8), 0);
    auto offs = rows * 8 + cols;
    auto x = tk::load(pf + offs);
    auto r0 = tk::softmax(x);                         // along axis 0
    auto r1 = tk::softmax(x, 1, tk::keep_dims, true); // along rows, IEEE division
    (void)r0, (void)r1;
  });
  return k.ir(buffers::f32);
}

// ---------------------------------------------------------------------------------------------
// debug: tk.print (blocks of several types, hex, several values, a scalar, no value),
// tk.debug_barrier, the hints and tk.assume, tk.inline_asm, and loads and stores with cache,
// eviction and volatile qualifiers. (tk.assert is left out: it needs TK_DEBUG=1 and names the
// source file by its full path; tests/unit/ir_golden.cpp checks that it parses.)

inline std::string debug_print() {
  auto k = tk::jit("print", [](tk::ptr<float> pf, tk::ptr<std::uint32_t> pu, tk::i64 n) {
    auto offs = tk::arange(0, 16);
    auto x = tk::load(pf + offs);
    auto u = tk::load(pu + offs);
    tk::device_print("x", x);                      // prefix " x: "
    tk::device_print(tk::hex, "bits", x, u, offs); // one shape; u unsigned
    tk::device_print("n=", n);                     // a scalar
    tk::device_print("done");                      // no value
    tk::debug_barrier();
  });
  return k.ir(buffers::f32, buffers::u32, std::int64_t(7));
}

inline std::string debug_hints() {
  auto k = tk::jit("hints", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 stride) {
    tk::assume(stride % 16 == 0); // stride a multiple of 16 for AxisInfo
    auto positive = stride > 0;
    tk::assume(positive);
    auto offs = tk::multiple_of(tk::arange(0, 64), 64);
    auto contiguous = tk::max_contiguous(offs, 64);
    auto rows = tk::arange(0, 4)(tk::_, tk::newaxis);
    auto cols = tk::arange(0, 64)(tk::newaxis, tk::_);
    auto rowoffs = rows * stride;
    auto tile = rowoffs + cols;
    auto hinted = tk::max_constancy(tk::multiple_of(tile, {16, 1}), {1, 1});
    auto s = tk::multiple_of(stride, 16);
    auto x = tk::load(in + hinted);
    auto y = tk::load(in + contiguous);
    auto row = tk::sum(x, 0);
    auto base = out + s;
    auto dst = base + contiguous;
    tk::store(dst, row + y);
  });
  return k.ir(buffers::f32, buffers::f32, 48);
}

inline std::string debug_inline_asm() {
  auto k = tk::jit(
      "inline_asm", [](tk::ptr<tk::half> ph, tk::ptr<std::int32_t> pi, tk::ptr<std::int64_t> pl) {
        auto offs = tk::arange(0, 32);
        auto h = tk::load(ph + offs);
        auto i = tk::load(pi + offs);
        auto l = tk::load(pl + offs);
        // Two halves a register: pack 2.
        auto sum = tk::inline_asm_elementwise<tk::half>("add.f16x2 $0, $1, $2;", "=r,r,r",
                                                        std::tuple{h, h}, true, 2);
        // A literal argument becomes an i32 block; not pure: kept if unused.
        auto product = tk::inline_asm_elementwise<std::int32_t>("mul.lo.u32 $0, $1, $2;", "=r,r,r",
                                                                std::tuple{i, 3}, false, 1);
        // Two results.
        auto [lo, hi] = tk::inline_asm_elementwise<std::int32_t, std::int32_t>(
            "mov.b64 {$0, $1}, $2;", "=r,=r,l", std::tuple{l}, true, 1);
        tk::store(ph + offs, sum);
        auto total = product + lo;
        auto pdst = pi + offs;
        tk::store(pdst, total + hi);
      });
  return k.ir(buffers::f16, buffers::i32, buffers::i64);
}

inline std::string debug_memory_hints() {
  auto k = tk::jit("memory_hints", [](tk::ptr<float> out, tk::ptr<const float> in, tk::i32 n) {
    auto offs = tk::arange(0, 128);
    auto mask = offs < n;
    auto pin = in + offs;
    auto pout = out + offs;
    auto a = tk::load(pin, {.cache_modifier = tk::cache_modifier::ca});
    auto b = tk::load(pin, mask, {.cache_modifier = tk::cache_modifier::cg});
    auto c = tk::load(pin, mask, 0.0f, {.cache_modifier = tk::cache_modifier::cs});
    auto d = tk::load(pin, {.cache_modifier = tk::cache_modifier::cv});
    auto e = tk::load(pin, mask, {.eviction_policy = tk::eviction_policy::evict_first});
    auto f = tk::load(pin, {.eviction_policy = tk::eviction_policy::evict_last});
    auto g = tk::load(in, {.is_volatile = true}); // a scalar
    auto h = tk::load(pin, mask, 1.0f, {.is_volatile = true});
    tk::store(pout, a, {.cache_modifier = tk::cache_modifier::wb});
    tk::store(pout, b, mask, {.cache_modifier = tk::cache_modifier::cg});
    tk::store(pout, c, {.cache_modifier = tk::cache_modifier::cs});
    tk::store(pout, d, mask, {.cache_modifier = tk::cache_modifier::wt});
    tk::store(pout, e, {.eviction_policy = tk::eviction_policy::evict_first});
    tk::store(pout, f, mask, {.eviction_policy = tk::eviction_policy::evict_last});
    tk::store(out, g, {.cache_modifier = tk::cache_modifier::cs}); // a scalar
    tk::store(pout, h, tk::memory_hints{});                        // no hint: a plain store
  });
  return k.ir(buffers::f32, buffers::f32, 100);
}

// ---------------------------------------------------------------------------------------------

inline const std::vector<kernel_case> &cases() {
  static const std::vector<kernel_case> all = {
      {"params", "pointer_types", params_pointer_types},
      {"params", "scalar_types", params_scalar_types},
      {"params", "divisibility", params_divisibility},
      {"params", "constants", params_constants},
      {"params", "generic_f32", params_generic_f32},
      {"params", "generic_f16", params_generic_f16},
      {"creation", "program_id", creation_program_id},
      {"creation", "arange", creation_arange},
      {"creation", "full", creation_full},
      {"memory", "load_store", memory_load_store},
      {"memory", "convert", memory_convert},
      {"memory", "pointer_arith", memory_pointer_arith},
      {"memory", "scalar", memory_scalar},
      {"memory", "pointer_select", memory_pointer_select},
      {"memory", "descriptor", memory_descriptor},
      {"memory", "block_pointer", memory_block_pointer},
      {"arith", "promotion", arith_promotion},
      {"arith", "integer", arith_integer},
      {"arith", "compare", arith_compare},
      {"arith", "logical", arith_logical},
      {"arith", "where", arith_where},
      {"casts", "float", casts_float},
      {"casts", "int", casts_int},
      {"casts", "bitcast", casts_bitcast},
      {"casts", "fp8", casts_fp8},
      {"math", "unary", math_unary},
      {"math", "binary", math_binary},
      {"math", "library", math_library},
      {"math", "library_binary", math_library_binary},
      {"math", "classify", math_classify},
      {"math", "softmax", math_softmax},
      {"shapes", "broadcast", shapes_broadcast},
      {"shapes", "expand_dims", shapes_expand_dims},
      {"shapes", "reshape_trans", shapes_reshape_trans},
      {"reductions", "basic", reductions_basic},
      {"reductions", "arg", reductions_arg},
      {"reductions", "combine", reductions_combine},
      {"reductions", "fp8", reductions_fp8},
      {"scans", "basic", scans_basic},
      {"scans", "associative", scans_associative},
      {"dot", "kinds", dot_kinds},
      {"dot", "fp8", dot_fp8},
      {"control", "for_plain", control_for_plain},
      {"control", "for_carried", control_for_carried},
      {"control", "for_matmul", control_for_matmul},
      {"control", "for_nested", control_for_nested},
      {"control", "if", control_if},
      {"control", "while", control_while},
      {"atomics", "rmw", atomics_rmw},
      {"atomics", "cas", atomics_cas},
      {"debug", "print", debug_print},
      {"debug", "hints", debug_hints},
      {"debug", "inline_asm", debug_inline_asm},
      {"debug", "memory_hints", debug_memory_hints},
  };
  return all;
}

/// The families, in the order of `cases()`.
inline std::vector<std::string> families() {
  std::vector<std::string> out;
  for (const auto &c : cases())
    if (out.empty() || out.back() != c.family)
      out.push_back(c.family);
  return out;
}

} // namespace tk_golden
