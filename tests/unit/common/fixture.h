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

/* Published model shapes: Llama 3 8B and 70B (Meta model cards), and
 * DeepSeek-V3 (DeepSeek-AI 2024, arXiv 2412.19437, Table 1 and 2.1) with
 * every layer MoE, as the calibration rows write it. */
void fixture_llama8b(struct model_spec *m);
void fixture_llama70b(struct model_spec *m);
void fixture_deepseek_v3(struct model_spec *m);

/* A serving scenario: Llama 3 70B in fp8 with an fp8 KV cache, 1000
 * tokens in and 1000 out, on one replica of `tp` fixture H100s (pp, dp,
 * cp, ep 1) under an engine like the TensorRT-LLM row. */
void fixture_serving(struct scenario *sc, uint64_t tp);

/* A wide expert-parallel serving scenario: DeepSeek-V3 in fp8 with a bf16
 * KV cache, 2000 tokens in and 500 out, on fixture H100s (8 a node, 400G
 * InfiniBand) under an SGLang-like engine; a node of 8 GPUs, tp and ep
 * 1, until the test sets its layout. */
void fixture_wide_ep(struct scenario *sc);

/* scenario_eval(sc, r), failing the test with the validator's message
 * when the scenario is not valid. */
void fixture_eval_ok(const struct scenario *sc, struct result *r);

#endif
