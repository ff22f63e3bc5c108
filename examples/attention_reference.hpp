/// @file attention_reference.hpp
/// Flash attention's forward and backward on the host, in double precision, for checking the
/// kernels of kernels/attention.hpp and kernels/attention_backward.hpp: each output's exact
/// values and, per element, what bounds a correct kernel's error (the sum of the magnitudes of
/// its terms, times the unit roundoffs the kernel spends, plus an absolute floor). Used by
/// examples/from_triton/06-fused-attention.cpp and tests/unit/interpreter_attention_backward.cpp.
#pragma once

#include <tk/tk.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace example {

/// What the host expects of one output: the exact values and, per element, what bounds the
/// error: `units * scale + floor`.
struct expected {
  std::vector<double> want, scale, floor;
  explicit expected(std::size_t n) : want(n, 0), scale(n, 0), floor(n, 0) {}

  /// The largest |got - want| / (units * scale + floor) over the elements: at most 1 when every
  /// element is within its bound; NaN counts as infinitely wrong.
  template <class G> double worst_error(const std::vector<G> &got, double units) const {
    double worst = 0;
    for (std::size_t k = 0; k < got.size(); ++k) {
      const double err = std::fabs(double(float(got[k])) - want[k]) / (units * scale[k] + floor[k]);
      if (std::isnan(err) || err > worst)
        worst = err;
    }
    return worst;
  }
};

/// The forward (O and M, the rows' base-2 log-sum-exp) and the backward (Delta, dQ, dK, dV) of
/// attention over `heads` contiguous [seq_len, D] heads of `T`, from the kernels' own inputs and
/// the O the forward stored (Delta is computed from it, as the backward kernel computes it).
template <class T> struct attention_reference {
  expected o, dq, dk, dv, delta;
  std::vector<double> lse;
  double u;   ///< T's unit roundoff: 2^-11 for f16, 2^-8 for bf16
  double eps; ///< an f32 sum of D products: within eps of the sum of their magnitudes

  attention_reference(const std::vector<T> &q, const std::vector<T> &k, const std::vector<T> &v,
                      const std::vector<T> &stored_o, const std::vector<T> &d_o, int heads,
                      int seq_len, int D, float sm_scale, bool causal)
      : o(q.size()), dq(q.size()), dk(q.size()), dv(q.size()),
        delta(std::size_t(heads) * std::size_t(seq_len)),
        lse(std::size_t(heads) * std::size_t(seq_len)) {
    // The host's forward and backward in double, from the same (rounded) inputs. Each element's
    // error is bounded by `units * scale + floor` (units below): `scale` is the sum of the
    // magnitudes of its terms, so that cancellation among them neither hides nor inflates an error;
    // `floor` holds the absolute errors that do not scale with it. Delta is computed from the O
    // that the forward stored, as the backward kernel computes it: the backward is checked on what
    // it is given, and O's own error is checked against the exact O.
    //
    // The relative part, in units of the type's unit roundoff u (2^-11 for f16, 2^-8 for bf16):
    // - O = P V and dV = Pᵀ dO: P rounded to T for the product (u on each term), the result rounded
    //   when stored (u of a value no larger than the scale): 2u.
    // - dK = sm_scale dSᵀ Q and dQ = sm_scale dS K: dS rounded to T (u on each term) and the result
    //   rounded when stored: 2u.
    // The rest is f32 (scores, exp2, Delta, the accumulators), near 2^-20 of the same scales, also
    // on a GPU with its approximate exp2. The bounds are nearly reached where one rounding decides
    // (a causal dV's or dK's last row has one term); the test allows 1.5 times the bound for the
    // f32 terms left out and the GPU's accumulation orders.
    //
    // The floor: f16 has subnormals below 2^-14, spaced 2^-24 apart, so a rounded P or dS term and
    // a stored result may be off by h = 2^-25 absolutely (e.g. a causal dK's last row, one small
    // term); bf16's subnormals are far below any value here. And dS = P (dP - Delta) subtracts two
    // f32 sums of D products, each within eps = D 2^-24 of the sum of their magnitudes, which a
    // rounding-level dS cannot hide (row 0 of causal attention: P = 1, O = V_0, dS = 0 exactly).
    // A wrong scale, mask or sign gives errors of 1% and more of the scale, far beyond these
    // (3u is 0.15% for f16, 1.2% for bf16).
    u = std::is_same_v<T, tk::half> ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
    const double h = std::is_same_v<T, tk::half> ? std::ldexp(1.0, -25) : std::ldexp(1.0, -134);
    eps = D * std::ldexp(1.0, -24);
    const auto L = std::size_t(seq_len), DD = std::size_t(D);
    std::vector<double> p(L);
    for (std::size_t h_index = 0; h_index < std::size_t(heads); ++h_index) {
      const std::size_t base = h_index * L * DD;
      auto at = [&](const std::vector<T> &x, std::size_t row, std::size_t col) {
        return double(float(x[base + row * DD + col]));
      };
      for (std::size_t i = 0; i < L; ++i) {
        const std::size_t r = h_index * L + i, keys = causal ? i + 1 : L;
        double mx = -INFINITY;
        for (std::size_t j = 0; j < keys; ++j) {
          double s = 0;
          for (std::size_t d = 0; d < DD; ++d)
            s += at(q, i, d) * at(k, j, d);
          p[j] = s * sm_scale;
          mx = std::max(mx, p[j]);
        }
        double sum = 0;
        for (std::size_t j = 0; j < keys; ++j)
          sum += (p[j] = std::exp(p[j] - mx));
        for (std::size_t j = 0; j < keys; ++j)
          p[j] /= sum;
        lse[r] = (mx + std::log(sum)) / std::log(2.0);
        for (std::size_t d = 0; d < DD; ++d) {
          const std::size_t e = base + i * DD + d;
          for (std::size_t j = 0; j < keys; ++j) {
            o.want[e] += p[j] * at(v, j, d);
            o.scale[e] += p[j] * std::fabs(at(v, j, d));
            o.floor[e] += h * std::fabs(at(v, j, d));
          }
          delta.want[r] += at(stored_o, i, d) * at(d_o, i, d);
          delta.scale[r] += std::fabs(at(stored_o, i, d) * at(d_o, i, d));
        }
        for (std::size_t j = 0; j < keys; ++j) {
          double dp = 0, dp_scale = 0;
          for (std::size_t d = 0; d < DD; ++d) {
            dp += at(d_o, i, d) * at(v, j, d);
            dp_scale += std::fabs(at(d_o, i, d) * at(v, j, d));
          }
          const double ds = p[j] * (dp - delta.want[r]);
          const double ds_floor = h + p[j] * eps * (dp_scale + delta.scale[r]);
          for (std::size_t d = 0; d < DD; ++d) {
            const std::size_t ej = base + j * DD + d, ei = base + i * DD + d;
            dv.want[ej] += p[j] * at(d_o, i, d);
            dv.scale[ej] += p[j] * std::fabs(at(d_o, i, d));
            dv.floor[ej] += h * std::fabs(at(d_o, i, d));
            dk.want[ej] += sm_scale * ds * at(q, i, d);
            dk.scale[ej] += sm_scale * std::fabs(ds * at(q, i, d));
            dk.floor[ej] += sm_scale * ds_floor * std::fabs(at(q, i, d));
            dq.want[ei] += sm_scale * ds * at(k, j, d);
            dq.scale[ei] += sm_scale * std::fabs(ds * at(k, j, d));
            dq.floor[ei] += sm_scale * ds_floor * std::fabs(at(k, j, d));
          }
        }
      }
    }
    for (auto *e : {&o, &dq, &dk, &dv})
      for (double &f : e->floor)
        f += h; // the rounding of the stored result
  }
};

} // namespace example
