/*
 * plan_keys.h - the list of plan keys (README "Plans").
 *
 * PLAN_KEY_LIST expands to enum plan_key; the properties of each key (type,
 * bounds, default, help, where it lands in struct scenario) are the table
 * in plan.c, indexed by this enum.  Sections appear in schema order and
 * every key of a section is contiguous: the INI writer, the JSON echo and
 * --help print them in this order.
 *
 * CHECKLIST: a key added here needs its row in plan.c (a unit test checks
 * that every row is filled and named as here), and a field in core/spec.h
 * or a case in plan_resolve.c.
 */
#ifndef LLMPLAN_PLAN_PLAN_KEYS_H
#define LLMPLAN_PLAN_PLAN_KEYS_H

#define PLAN_KEY_LIST(X)                                                       \
    X(MODEL_PRESET, "model.preset")                                            \
    X(MODEL_PARAMS, "model.params")                                            \
    X(MODEL_LAYERS, "model.layers")                                            \
    X(MODEL_HIDDEN, "model.hidden")                                            \
    X(MODEL_HEADS, "model.heads")                                              \
    X(MODEL_KV_HEADS, "model.kv_heads")                                        \
    X(MODEL_FFN, "model.ffn")                                                  \
    X(MODEL_VOCAB, "model.vocab")                                              \
    X(MODEL_GATED_FFN, "model.gated_ffn")                                      \
    X(MODEL_TIED_EMBEDDINGS, "model.tied_embeddings")                          \
    X(MODEL_EXPERTS, "model.experts")                                          \
    X(MODEL_EXPERTS_ACTIVE, "model.experts_active")                            \
    X(MODEL_SHARED_EXPERTS, "model.shared_experts")                            \
    X(MODEL_EXPERT_FFN, "model.expert_ffn")                                    \
    X(MODEL_MOE_EVERY, "model.moe_every")                                      \
    X(MODEL_FIRST_DENSE_LAYERS, "model.first_dense_layers")                    \
    X(MODEL_HEAD_DIM, "model.head_dim")                                        \
    X(MODEL_ATTENTION, "model.attention")                                      \
    X(MODEL_KV_LORA_RANK, "model.kv_lora_rank")                                \
    X(MODEL_Q_LORA_RANK, "model.q_lora_rank")                                  \
    X(MODEL_ROPE_HEAD_DIM, "model.rope_head_dim")                              \
    X(WORKLOAD_KIND, "workload.kind")                                          \
    X(SOFTWARE_STACK, "software.stack")                                        \
    X(SOFTWARE_EFFICIENCY_SCALE, "software.efficiency_scale")                  \
    X(SOFTWARE_MOE_A2A_OVERLAP, "software.moe_a2a_overlap")                    \
    X(SOFTWARE_TP_COMM_OVERLAP, "software.tp_comm_overlap")                              \
    X(SOFTWARE_CUDA_GRAPHS, "software.cuda_graphs")                            \
    X(SOFTWARE_MOE_DISPATCHER, "software.moe_dispatcher")                      \
    /* new key: software.moe_force_balance (d19b) */                           \
    X(SOFTWARE_MOE_FORCE_BALANCE, "software.moe_force_balance")                \
    X(TRAIN_TOKENS, "train.tokens")                                            \
    X(TRAIN_SEQ_LEN, "train.seq_len")                                          \
    X(TRAIN_GLOBAL_BATCH, "train.global_batch")                                \
    X(TRAIN_PRECISION, "train.precision")                                      \
    X(TRAIN_OPTIMIZER, "train.optimizer")                                      \
    X(TRAIN_GRAD_DTYPE, "train.grad_dtype")                                    \
    X(TRAIN_ATTENTION, "train.attention")                                      \
    X(TRAIN_GPU_HOURS, "train.gpu_hours")                                      \
    X(TRAIN_MOE_CAPACITY, "train.moe_capacity")                                \
    X(SERVE_MODE, "serve.mode")                                                \
    X(SERVE_INPUT_TOKENS, "serve.input_tokens")                                \
    X(SERVE_OUTPUT_TOKENS, "serve.output_tokens")                              \
    X(SERVE_REQUESTS_PER_S, "serve.requests_per_s")                            \
    X(SERVE_TOKENS_PER_DAY, "serve.tokens_per_day")                            \
    X(SERVE_PEAK_TO_AVG, "serve.peak_to_avg")                                  \
    X(SERVE_CONCURRENCY, "serve.concurrency")                                  \
    X(SERVE_TTFT_MS, "serve.ttft_ms")                                          \
    X(SERVE_TPOT_MS, "serve.tpot_ms")                                          \
    X(SERVE_PERCENTILE, "serve.percentile")                                    \
    X(SERVE_WINDOW_REQUESTS, "serve.window_requests")                          \
    X(SERVE_WEIGHTS, "serve.weights")                                          \
    X(SERVE_KV_CACHE, "serve.kv_cache")                                        \
    X(SERVE_EXPERT_WEIGHTS, "serve.expert_weights")                            \
    X(SERVE_ATTENTION, "serve.attention")                                      \
    X(SERVE_PREFIX_HIT, "serve.prefix_hit")                                    \
    X(SERVE_DISAGGREGATED, "serve.disaggregated")                              \
    X(SERVE_MAX_BATCH, "serve.max_batch")                                      \
    X(SERVE_OWNED_GPUS, "serve.owned_gpus")                                    \
    X(SERVE_SPEC_TOKENS, "serve.spec_tokens")                                  \
    X(SERVE_SPEC_ACCEPT, "serve.spec_accept")                                  \
    X(SERVE_POOL, "serve.pool")                                                \
    X(SERVE_ATTENTION_DP, "serve.attention_dp")                                \
    X(SERVE_PREFILL_GPUS, "serve.prefill.gpus")                                \
    X(SERVE_PREFILL_TP, "serve.prefill.tp")                                    \
    X(SERVE_PREFILL_EP, "serve.prefill.ep")                                    \
    X(SERVE_PREFILL_ATTENTION_DP, "serve.prefill.attention_dp")                \
    X(SERVE_DECODE_GPUS, "serve.decode.gpus")                                  \
    X(SERVE_DECODE_TP, "serve.decode.tp")                                      \
    X(SERVE_DECODE_EP, "serve.decode.ep")                                      \
    X(SERVE_DECODE_ATTENTION_DP, "serve.decode.attention_dp")                  \
    X(HW_ACCELERATOR, "hardware.accelerator")                                  \
    X(HW_GPUS, "hardware.gpus")                                                \
    X(HW_SYSTEM, "hardware.system")                                            \
    X(HW_FABRIC, "hardware.fabric")                                            \
    X(HW_OVERSUBSCRIPTION, "hardware.oversubscription")                        \
    X(HW_STORAGE, "hardware.storage")                                          \
    X(HW_STORAGE_TB, "hardware.storage_tb")                                    \
    X(PAR_TP, "parallel.tp")                                                   \
    X(PAR_PP, "parallel.pp")                                                   \
    X(PAR_DP, "parallel.dp")                                                   \
    X(PAR_CP, "parallel.cp")                                                   \
    X(PAR_EP, "parallel.ep")                                                   \
    X(PAR_MICROBATCH, "parallel.microbatch")                                   \
    X(PAR_INTERLEAVE, "parallel.interleave")                                   \
    X(PAR_RECOMPUTE, "parallel.recompute")                                     \
    X(PAR_SEQUENCE_PARALLEL, "parallel.sequence_parallel")                     \
    X(PAR_ZERO, "parallel.zero")                                               \
    X(SITE_ID, "site.id")                                                      \
    X(SITE_PUE, "site.pue")                                                    \
    X(SITE_USD_PER_KWH, "site.usd_per_kwh")                                    \
    X(SITE_KGCO2_PER_KWH, "site.kgco2_per_kwh")                                \
    X(FIN_DEPRECIATION_YEARS, "finance.depreciation_years")                    \
    X(FIN_COST_OF_CAPITAL, "finance.cost_of_capital")                          \
    X(FIN_UTILIZATION, "finance.utilization")                                  \
    X(FIN_MAINTENANCE_FRAC, "finance.maintenance_frac")                        \
    X(FIN_FACILITY_YEARS, "finance.facility_years")                            \
    X(FIN_RESIDUAL_FRAC, "finance.residual_frac")                              \
    X(FIN_SPARES_FRAC, "finance.spares_frac")                                  \
    X(FIN_SUPPORT_FRAC, "finance.support_frac")                                \
    X(FIN_INSURANCE_FRAC, "finance.insurance_frac")                            \
    X(FIN_STAFF_USD_PER_MW_YEAR, "finance.staff_usd_per_mw_year")              \
    X(FIN_SOFTWARE_USD_PER_GPU_YEAR, "finance.software_usd_per_gpu_year")      \
    X(CLOUD_OFFER, "cloud.offer")                                              \
    X(CLOUD_TERM, "cloud.term")                                                \
    X(CLOUD_USD_PER_GPU_HOUR, "cloud.usd_per_gpu_hour")                        \
    X(REL_NODE_MTBF_H, "reliability.node_mtbf_h")                              \
    X(REL_RESTART_MIN, "reliability.restart_min")

enum plan_key {
#define PLAN_KEY_ENUM(id, name) PK_##id,
    PLAN_KEY_LIST(PLAN_KEY_ENUM)
#undef PLAN_KEY_ENUM
        PLAN_KEY_COUNT
};

#endif
