/// @file gpu_descriptor.cpp
/// Tensor-descriptor loads and stores at any offset: blocks that start at coordinates that are
/// not multiples of anything, before the tensor (negative) and past its end, for elements of 1,
/// 2, 4 and 8 bytes; outside loops (one copy through two descriptors) and inside a pipelined
/// loop (a matmul whose A and B blocks are shifted along K and M/N, num_stages 1 to 4, where TMA
/// fills the ring on sm_90 when the shift along K keeps the innermost coordinates multiples of
/// 16 bytes). Each case runs on the interpreter against a host reference and, on
/// a GPU, on the GPU against the interpreter, bit for bit (the products are of small integers,
/// exact in f32 in any order).
///
///   tk_e2e_gpu_descriptor [--interpreter] [FILTER]
///
/// --interpreter: the interpreter side only (no GPU needed; CI runs it). FILTER: only the cases
/// whose description contains it. Otherwise, without a
/// usable GPU, prints `SKIPPED: <reason>` and exits 77. Prints a line per case; exits 1 on any
/// failure.
#include "../support/dot_cases.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

/// out[i, j] = in[i - di, j - dj] through descriptors (zero where that is outside the tensor);
/// with STORE_SHIFTED, out[i + di, j + dj] = in[i, j] instead (the store at the odd offset).
auto shifted_copy =
    tk::jit("shifted_copy",
            [](auto out, auto in, tk::i32 M, tk::i32 N, tk::i32 ld, tk::i32 di, tk::i32 dj,
               tk::constant<int> BM, tk::constant<int> BN, tk::constant<bool> STORE_SHIFTED) {
              auto din = tk::make_tensor_descriptor(in, {M, N}, {ld, 1}, {BM, BN});
              auto dout = tk::make_tensor_descriptor(out, {M, N}, {ld, 1}, {BM, BN});
              auto i = tk::program_id(0) * BM;
              auto j = tk::program_id(1) * BN;
              if (STORE_SHIFTED)
                dout.store({i + di, j + dj}, din.load({i, j}));
              else
                dout.store({i, j}, din.load({i - di, j - dj}));
            });

/// C = A' B'^T over K in BK steps, where A' is A shifted by (dm, dk) and B' (N x K, K
/// contiguous) by (dn, dk): the blocks start at odd coordinates inside the pipelined loop.
auto shifted_matmul = tk::jit(
    "shifted_matmul", [](tk::ptr<float> c, tk::ptr<const tk::half> a, tk::ptr<const tk::half> b,
                         tk::i32 M, tk::i32 N, tk::i32 K, tk::i32 dm, tk::i32 dn, tk::i32 dk,
                         tk::constant<int> BM, tk::constant<int> BN, tk::constant<int> BK) {
      auto da = tk::make_tensor_descriptor(a, {M, K}, {K, 1}, {BM, BK});
      auto db = tk::make_tensor_descriptor(b, {N, K}, {K, 1}, {BN, BK});
      auto m0 = tk::program_id(0) * BM, n0 = tk::program_id(1) * BN;
      auto acc = tk::zeros<float>({BM, BN});
      tk::for_range(0, tk::cdiv(K, BK), [&](tk::i32 k) {
        auto x = da.load({m0 - dm, k * BK - dk});
        auto y = db.load({n0 - dn, k * BK - dk});
        acc = tk::dot(x, tk::trans(y), acc);
      });
      auto rm = m0 + tk::arange(0, BM), rn = n0 + tk::arange(0, BN);
      tk::store(c + rm(tk::_, tk::newaxis) * N + rn(tk::newaxis, tk::_), acc,
                (rm(tk::_, tk::newaxis) < M) & (rn(tk::newaxis, tk::_) < N));
    });

int failures = 0, checks = 0;
std::string filter;

template <class T> double as_double(T x) {
  if constexpr (std::is_integral_v<T>)
    return double(x);
  else
    return double(float(x));
}

template <class T>
void report(const std::string &what, const std::vector<T> &got, const std::vector<T> &want) {
  ++checks;
  std::size_t bad = 0, first = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (std::memcmp(&got[k], &want[k], sizeof(T)) != 0 && bad++ == 0)
      first = k;
  if (bad) {
    ++failures;
    std::printf("FAIL %s: %zu element(s) differ, first [%zu]: got %g, want %g\n", what.c_str(), bad,
                first, as_double(got[first]), as_double(want[first]));
  } else {
    std::printf("ok   %s\n", what.c_str());
  }
}

/// Runs `body(backend)` on the interpreter against `reference`, and on the GPU against the
/// interpreter; an exception is a failure of the case.
template <class T, class F>
void compare(const std::string &what, bool gpu, const std::vector<T> &reference, F &&body) {
  if (what.find(filter) == std::string::npos)
    return;
  try {
    const std::vector<T> interp = body(tk::backend::interpreter);
    report("interpreter vs host: " + what, interp, reference);
    if (gpu)
      report("GPU vs interpreter: " + what, body(tk::backend::gpu), interp);
  } catch (const std::exception &e) {
    ++checks;
    ++failures;
    std::printf("FAIL %s: %s\n", what.c_str(), e.what());
  }
}

template <class T> void copies(bool gpu, const char *type, int M, int N, int ld, int BM, int BN) {
  std::vector<T> in(std::size_t(M) * ld);
  for (std::size_t k = 0; k < in.size(); ++k)
    in[k] = T(float(int(k % 251) - 125)); // exact in every type, fp8 included
  const std::pair<int, int> shifts[] = {
      {0, 0}, {3, 5},  {-2, -7}, {70, -33}, {-64, 0},    {17, 1},  {1, 17},    {3, 0},
      {0, 8}, {0, 16}, {M, 0},   {0, -N},   {-M - 5, 3}, {BM, BN}, {-BM, -BN}, {31, 47}};
  for (bool store_shifted : {false, true})
    for (auto [di, dj] : shifts) {
      std::vector<T> want(in.size(), T(-1.0f));
      const int bi = tk::cdiv(M, BM), bj = tk::cdiv(N, BN);
      for (int i = 0; i < bi * BM; ++i)
        for (int j = 0; j < bj * BN; ++j) {
          // out[oi, oj] = in[si, sj] inside both tensors; zero from outside the source.
          const int oi = store_shifted ? i + di : i, oj = store_shifted ? j + dj : j;
          const int si = store_shifted ? i : i - di, sj = store_shifted ? j : j - dj;
          if (oi < 0 || oi >= M || oj < 0 || oj >= N)
            continue;
          const bool inside = si >= 0 && si < M && sj >= 0 && sj < N;
          want[std::size_t(oi) * ld + oj] = inside ? in[std::size_t(si) * ld + sj] : T(0.0f);
        }
      const std::string what = std::string(type) + " " + std::to_string(M) + "x" +
                               std::to_string(N) + " ld " + std::to_string(ld) + ", block " +
                               std::to_string(BM) + "x" + std::to_string(BN) +
                               (store_shifted ? ", store at" : ", load at") + " shift (" +
                               std::to_string(di) + ", " + std::to_string(dj) + ")";
      compare(what, gpu, want, [&](tk::backend backend) {
        std::vector<T> out(in.size(), T(-1.0f));
        dot_cases::launch(shifted_copy, tk::grid(bi, bj), {.backend = backend}, out, in, M, N, ld,
                          di, dj, tk::constant(BM), tk::constant(BN), tk::constant(store_shifted));
        return out;
      });
    }
}

void matmuls(bool gpu) {
  const int M = 150, N = 136, K = 208; // rows of 416 bytes: tensor maps on sm_90
  std::vector<tk::half> a(std::size_t(M) * K), b(std::size_t(N) * K);
  for (std::size_t k = 0; k < a.size(); ++k)
    a[k] = tk::half(float(int(k * 7 % 5) - 2));
  for (std::size_t k = 0; k < b.size(); ++k)
    b[k] = tk::half(float(int(k * 3 % 7) - 3));
  struct shift {
    int dm, dn, dk;
  };
  // k shifts of 0, 16 and 32 keep the blocks' innermost coordinates multiples of 16 bytes (the
  // ring of TMA copies, any row); 7, -13 and 33 do not (checked at run time, pointer path).
  for (shift s : {shift{0, 0, 0}, shift{3, 5, 16}, shift{-2, 9, 32}, shift{3, 5, 7},
                  shift{-2, 9, -13}, shift{40, -17, 33}})
    for (int stages : {1, 2, 3, 4}) {
      const int BM = 64, BN = 64, BK = 32;
      std::vector<float> want(std::size_t(M) * N);
      const int kb = tk::cdiv(K, BK) * BK;
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
          double sum = 0;
          for (int k = 0; k < kb; ++k) {
            const int ai = i - s.dm, bj = j - s.dn, kk = k - s.dk;
            if (ai >= 0 && ai < M && bj >= 0 && bj < N && kk >= 0 && kk < K)
              sum += double(float(a[std::size_t(ai) * K + kk])) *
                     double(float(b[std::size_t(bj) * K + kk]));
          }
          want[std::size_t(i) * N + j] = float(sum);
        }
      const std::string what = "f16 matmul through descriptors, shift (m " + std::to_string(s.dm) +
                               ", n " + std::to_string(s.dn) + ", k " + std::to_string(s.dk) +
                               "), num_stages " + std::to_string(stages);
      compare(what, gpu, want, [&](tk::backend backend) {
        std::vector<float> c(want.size(), -1.0f);
        dot_cases::launch(shifted_matmul, tk::grid(tk::cdiv(M, BM), tk::cdiv(N, BN)),
                          {.num_stages = stages, .backend = backend}, c, a, b, M, N, K, s.dm, s.dn,
                          s.dk, tk::constant(BM), tk::constant(BN), tk::constant(BK));
        return c;
      });
    }
}

void run_all(bool gpu) {
  // Rows of 1040 elements: 16-byte aligned for every type; tensor maps where TMA exists. The
  // N = 1030 tensors store through pointers (their rows are not whole 16-byte pieces).
  copies<tk::f8e4m3>(gpu, "f8e4m3", 200, 1030, 1040, 64, 64);
  copies<std::int8_t>(gpu, "i8", 130, 272, 1040, 32, 64);
  copies<tk::half>(gpu, "f16", 1000, 1030, 1040, 64, 64);
  copies<tk::half>(gpu, "f16", 128, 128, 128, 64, 64);
  copies<tk::bfloat16>(gpu, "bf16", 100, 272, 1040, 16, 32);
  copies<float>(gpu, "f32", 190, 260, 1040, 32, 32);
  copies<double>(gpu, "f64", 90, 130, 1040, 16, 16);
  copies<std::int64_t>(gpu, "i64", 66, 48, 1040, 32, 16);
  matmuls(gpu);
}

} // namespace

int main(int argc, char **argv) {
  bool interpreter_only = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--interpreter") == 0)
      interpreter_only = true;
    else
      filter = argv[i];
  }
  if (interpreter_only) {
    run_all(false);
    std::printf("%d failure(s) in %d checks on the interpreter\n", failures, checks);
    return failures ? 1 : 0;
  }
  if (const std::string why = tk::gpu_unavailable_reason(); !why.empty()) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return 77;
  }
  const std::string gpu = tk::gpu_name();
  std::printf("running on %s\n", gpu.c_str());
  run_all(true);
  std::printf("%d failure(s) in %d checks on %s\n", failures, checks, gpu.c_str());
  return failures ? 1 : 0;
}
