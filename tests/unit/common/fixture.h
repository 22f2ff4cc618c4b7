/*
 * fixture.h - scenarios for core tests without a catalog: published
 * hardware figures (A100 80GB / H100 SXM, DGX, InfiniBand) with the same
 * values as data/ CSVs where the tests depend on them.
 */
#ifndef LLMPLAN_TESTS_FIXTURE_H
#define LLMPLAN_TESTS_FIXTURE_H

#include "core/result.h"
#include "core/spec.h"

/* A valid scenario: `accel` is "a100-80gb" or "h100-sxm"; one DGX node of
 * 8 GPUs on InfiniBand, a GPT-style 22B model (Korthikanti 2022 Table 3),
 * tp 8, bf16, 1e12 tokens, US-average site and finance defaults. */
void fixture_scenario(struct scenario *sc, const char *accel);

/* Set a GPT shape: layers, hidden, heads (= kv heads), ffn 4h, vocab. */
void fixture_gpt(struct scenario *sc, uint64_t layers, uint64_t hidden,
                 uint64_t heads, uint64_t vocab);

/* A DGX H100 cluster of `gpus` on NDR InfiniBand at a US-average site with
 * default finance, and a result whose time section says 30 days for a 70B
 * model on 2T tokens: input for the sub-models after step time (netbom,
 * storage, reliability, energy, cost).  Plausible round prices, not
 * catalog values. */
void fixture_cluster(struct scenario *sc, struct result *r, uint64_t gpus);

#endif
