/// @file sampling.hpp
/// Top-k / top-p (nucleus) sampling of one token per row of logits, as a language model's decoder
/// draws its next token. One program instance per row:
/// 1. it walks the vocabulary in chunks of BLOCK_V and keeps the K largest logits seen so far with
///    `tk::topk`, each logit packed with its index into one i64 key (the float's bits made
///    order-preserving in the high half, the complement of the index in the low half, so that a
///    tie goes to the lower index);
/// 2. it turns the K candidates, largest first, into probabilities at `temperature`, keeps the
///    shortest prefix whose probability reaches `top_p` (`tk::cumsum`), and picks the candidate
///    where the running sum of the kept probabilities passes `uniform[row]` times their total.
///
/// Launch contract:
/// - grid: `tk::grid(rows)`;
/// - `tokens`: one i32 per row, the drawn index; `logits`: rows x V f32, row-major;
///   `uniform`: one f32 in [0, 1) per row (the random draw, from the caller's generator);
/// - `temperature` > 0; `top_p` in (0, 1] (1 keeps all K);
/// - constants: BLOCK_V and K, powers of two, K <= BLOCK_V and K <= V.
#pragma once

#include <tk/tk.hpp>

#include <cstdint>
#include <limits>

namespace examples {

inline auto sample_top_k_top_p = tk::jit(
    "sample_top_k_top_p", [](tk::ptr<std::int32_t> tokens, tk::ptr<const float> logits,
                             tk::ptr<const float> uniform, tk::i32 V, tk::f32 temperature,
                             tk::f32 top_p, tk::constant<int> BLOCK_V, tk::constant<int> K) {
      auto row = tk::program_id(0);
      auto row_logits = logits + tk::cast<std::int64_t>(row) * V;

      // 1. The K largest (logit, index) keys of the row.
      auto best = tk::full<std::int64_t>({K}, std::numeric_limits<std::int64_t>::min());
      tk::for_range(0, tk::cdiv(V, BLOCK_V), [&](tk::i32 chunk) {
        auto offs = chunk * BLOCK_V + tk::arange(0, BLOCK_V);
        auto x = tk::load(row_logits + offs, offs < V, -std::numeric_limits<float>::infinity());
        // Negative floats order backwards as integers: flip all but their sign bit.
        auto bits = tk::bitcast<std::int32_t>(x);
        auto ordered = bits ^ ((bits >> 31) & 0x7fffffff);
        auto low = tk::cast<std::int64_t>(tk::bitcast<std::uint32_t>(~offs));
        auto keys = (tk::cast<std::int64_t>(ordered) << 32) | low;
        best = tk::topk(tk::cat(best, tk::topk(keys, K)), K);
      });

      // 2. Unpack the candidates, largest first.
      auto high = tk::cast<std::int32_t>(best >> 32);
      auto values = tk::bitcast<float>(high ^ ((high >> 31) & 0x7fffffff));
      auto ids = ~tk::cast<std::int32_t>(best); // the low half, complemented back

      // Probabilities at the temperature; the smallest prefix reaching top_p.
      auto p = tk::exp((values - tk::max(values, 0)) / temperature);
      p = p / tk::sum(p, 0);
      auto kept = tk::where(tk::cumsum(p, 0) - p < top_p, p, 0.0f);

      // The first candidate whose running sum passes u * total.
      auto running = tk::cumsum(kept, 0);
      auto target = tk::load(uniform + row) * tk::sum(kept, 0);
      auto last = tk::sum(tk::cast<std::int32_t>(kept > 0.0f), 0) - 1;
      auto pick = tk::minimum(tk::sum(tk::cast<std::int32_t>(running <= target), 0), last);
      tk::store(tokens + row, tk::sum(tk::where(tk::arange(0, K) == pick, ids, 0), 0));
    });

} // namespace examples
