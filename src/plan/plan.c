/*
 * plan.c - the plan key table, value parsing, INI reading and writing.
 * See plan.h.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/bounds.h"
#include "plan/plan.h"
#include "util/ini.h"
#include "util/number.h"

/* Enums are stored through int (PS_INT). */
_Static_assert(sizeof(enum precision) == sizeof(int), "enum size");
_Static_assert(sizeof(enum recompute) == sizeof(int), "enum size");
_Static_assert(sizeof(enum model_attention) == sizeof(int), "enum size");
_Static_assert(sizeof(enum workload_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_mode) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_dtype) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_disagg) == sizeof(int), "enum size");
_Static_assert(sizeof(enum recipe_switch) == sizeof(int), "enum size");
_Static_assert(sizeof(enum cuda_graphs) == sizeof(int), "enum size");
_Static_assert(sizeof(enum moe_dispatcher) == sizeof(int), "enum size");
_Static_assert(sizeof(enum serve_pct) == sizeof(int), "enum size");

static const int grad_dtype_values[] = {PREC_FP32, PREC_BF16, PREC_FP16};

#define COUNT_MAX 16777216.0 /* 2^24: more GPUs/sequences than anyone has */
#define OFF(field) offsetof(struct scenario, field)

/* MUST stay in PLAN_KEY_LIST order (checked by the plan unit tests). */
static const struct plan_key_info keys[PLAN_KEY_COUNT] = {
    [PK_MODEL_PRESET] = {"model.preset", "model", "preset", PT_ID, 0, 0, 0,
                         NULL, NULL, CATALOG_MODELS, "none", PS_NONE, 0,
                         "start from a catalog model; keys below override it"},
    [PK_MODEL_PARAMS] = {"model.params", "model", "params", PT_COUNT, 0, 1,
                         B_MODEL_PARAMS_MAX, NULL, NULL, 0, "from the shape",
                         PS_U64, OFF(model.params),
                         "total parameters (the shape is derived where "
                         "missing)"},
    [PK_MODEL_LAYERS] = {"model.layers", "model", "layers", PT_COUNT, 0, 1,
                         B_MODEL_LAYERS_MAX, NULL, NULL, 0, "preset", PS_U64,
                         OFF(model.layers), "transformer layers"},
    [PK_MODEL_HIDDEN] = {"model.hidden", "model", "hidden", PT_COUNT, 0, 1,
                         B_MODEL_WIDTH_MAX, NULL, NULL, 0, "preset", PS_U64,
                         OFF(model.hidden), "hidden size"},
    [PK_MODEL_HEADS] = {"model.heads", "model", "heads", PT_COUNT, 0, 1,
                        B_MODEL_HEADS_MAX, NULL, NULL, 0, "preset", PS_U64,
                        OFF(model.heads), "attention heads"},
    [PK_MODEL_KV_HEADS] = {"model.kv_heads", "model", "kv_heads", PT_COUNT, 0,
                           1, B_MODEL_HEADS_MAX, NULL, NULL, 0, "heads", PS_U64,
                           OFF(model.kv_heads),
                           "key/value heads (< heads: GQA/MQA)"},
    [PK_MODEL_FFN] = {"model.ffn", "model", "ffn", PT_COUNT, 0, 1,
                      B_MODEL_FFN_MAX, NULL, NULL, 0, "preset", PS_U64,
                      OFF(model.ffn), "FFN inner width"},
    [PK_MODEL_VOCAB] = {"model.vocab", "model", "vocab", PT_COUNT, 0, 1,
                        B_MODEL_VOCAB_MAX, NULL, NULL, 0, "preset", PS_U64,
                        OFF(model.vocab), "vocabulary size"},
    [PK_MODEL_GATED_FFN] = {"model.gated_ffn", "model", "gated_ffn", PT_BOOL, 0,
                            0, 0, NULL, NULL, 0, "no", PS_BOOL,
                            OFF(model.gated_ffn), "SwiGLU-style 3-matrix FFN"},
    [PK_MODEL_TIED_EMBEDDINGS] = {"model.tied_embeddings", "model",
                                  "tied_embeddings", PT_BOOL, 0, 0, 0, NULL,
                                  NULL, 0, "no", PS_BOOL,
                                  OFF(model.tied_embeddings),
                                  "output layer shares the embedding matrix"},
    [PK_MODEL_EXPERTS] = {"model.experts", "model", "experts", PT_COUNT, 0, 0,
                          B_MODEL_HEADS_MAX, NULL, NULL, 0, "0, dense", PS_U64,
                          OFF(model.experts), "experts per MoE layer"},
    [PK_MODEL_EXPERTS_ACTIVE] = {"model.experts_active", "model",
                                 "experts_active", PT_COUNT, 0, 0,
                                 B_MODEL_HEADS_MAX, NULL, NULL, 0, "preset",
                                 PS_U64, OFF(model.experts_active),
                                 "experts per token (top-k)"},
    [PK_MODEL_SHARED_EXPERTS] = {"model.shared_experts", "model",
                                 "shared_experts", PT_COUNT, 0, 0,
                                 B_MODEL_HEADS_MAX, NULL, NULL, 0, "preset",
                                 PS_U64, OFF(model.shared_experts),
                                 "always-active shared experts"},
    [PK_MODEL_EXPERT_FFN] = {"model.expert_ffn", "model", "expert_ffn",
                             PT_COUNT, 0, 0, B_MODEL_FFN_MAX, NULL, NULL, 0,
                             "ffn", PS_U64, OFF(model.expert_ffn),
                             "FFN width of one expert"},
    [PK_MODEL_MOE_EVERY] = {"model.moe_every", "model", "moe_every", PT_COUNT,
                            0, 1, B_MODEL_MOE_EVERY_MAX, NULL, NULL, 0, "1",
                            PS_U64, OFF(model.moe_every),
                            "every n-th layer is MoE (1: all)"},
    [PK_MODEL_FIRST_DENSE_LAYERS] = {"model.first_dense_layers", "model",
                                     "first_dense_layers", PT_COUNT, 0, 0,
                                     B_MODEL_LAYERS_MAX, NULL, NULL, 0, "0", PS_U64,
                                     OFF(model.first_dense_layers),
                                     "the first n layers are dense, the rest MoE "
                                     "(DeepSeek first_k_dense_replace)"},
    [PK_MODEL_HEAD_DIM] = {"model.head_dim", "model", "head_dim", PT_COUNT, 0,
                           1, B_MODEL_HEADS_MAX, NULL, NULL, 0,
                           "hidden / heads", PS_U64, OFF(model.head_dim),
                           "width of one attention head"},
    [PK_MODEL_ATTENTION] = {"model.attention", "model", "attention", PT_ENUM, 0,
                            0, 0, "mha|gqa|mla", NULL, 0, "preset's, else mha",
                            PS_INT, OFF(model.attention),
                            "attention kind (mla: DeepSeek latent KV)"},
    [PK_MODEL_KV_LORA_RANK] = {"model.kv_lora_rank", "model", "kv_lora_rank",
                               PT_COUNT, 0, 1, B_MODEL_WIDTH_MAX, NULL, NULL, 0,
                               "preset's", PS_U64, OFF(model.kv_lora_rank),
                               "MLA: latent width of keys and values"},
    [PK_MODEL_Q_LORA_RANK] = {"model.q_lora_rank", "model", "q_lora_rank",
                              PT_COUNT, 0, 0, B_MODEL_WIDTH_MAX, NULL, NULL, 0,
                              "preset's, else 3 x kv_lora_rank", PS_U64,
                              OFF(model.q_lora_rank),
                              "MLA: latent width of queries"},
    [PK_MODEL_ROPE_HEAD_DIM] = {"model.rope_head_dim", "model", "rope_head_dim",
                                PT_COUNT, 0, 0, B_MODEL_HEADS_MAX, NULL, NULL,
                                0, "preset's", PS_U64, OFF(model.rope_head_dim),
                                "MLA: decoupled RoPE width per head"},
    [PK_WORKLOAD_KIND] = {"workload.kind", "workload", "kind", PT_ENUM, 0, 0, 0,
                          "train|serve", NULL, 0, "train", PS_INT,
                          OFF(workload),
                          "what the plan sizes: training or serving"},
    [PK_SOFTWARE_STACK] = {"software.stack", "software", "stack", PT_ID, 0, 0,
                           0, NULL, NULL, CATALOG_STACKS,
                           "the accelerator's own", PS_NONE, 0,
                           "training framework or serving engine: kernels, "
                           "FP8, overlap, allocator; the default is the "
                           "stack whose default_on names the accelerator's "
                           "vendor (NVIDIA, AMD: megatron-core; Google TPU: "
                           "maxtext; Intel Gaudi: megatron-deepspeed; "
                           "serving: vllm); one that does not run on it is "
                           "refused"},
    [PK_SOFTWARE_EFFICIENCY_SCALE] = {"software.efficiency_scale", "software",
                                      "efficiency_scale", PT_NUMBER, 0, 0.01,
                                      10, NULL, NULL, 0, "1", PS_F64,
                                      OFF(efficiency_scale),
                                      "x the stack's compute efficiency "
                                      "(GEMM, attention; capped at peak)"},
    [PK_SOFTWARE_MOE_A2A_OVERLAP] = {"software.moe_a2a_overlap", "software",
                                     "moe_a2a_overlap", PT_ENUM, 0, 0, 0,
                                     "stack|yes|no", NULL, 0, "stack",
                                     PS_INT, OFF(recipe.a2a_overlap),
                                     "MoE all-to-all overlapped with another "
                                     "microbatch's compute"},
    [PK_SOFTWARE_TP_COMM_OVERLAP] = {"software.tp_comm_overlap", "software",
                                "tp_comm_overlap", PT_ENUM, 0, 0, 0, "stack|yes|no",
                                NULL, 0, "stack", PS_INT,
                                OFF(recipe.tp_overlap),
                                "TP communication pipelined with the GEMMs"},
    [PK_SOFTWARE_CUDA_GRAPHS] = {"software.cuda_graphs", "software",
                                 "cuda_graphs", PT_ENUM, 0, 0, 0,
                                 "stack|none|router|attn|full", NULL, 0,
                                 "stack (none)", PS_INT, OFF(recipe.graphs),
                                 "kernels launched from CUDA graphs (no "
                                 "host dispatch)"},
    [PK_SOFTWARE_MOE_DISPATCHER] = {"software.moe_dispatcher", "software",
                                    "moe_dispatcher", PT_ENUM, 0, 0, 0,
                                    "stack|alltoall|deepep|hybridep", NULL, 0,
                                    "stack (alltoall)", PS_INT,
                                    OFF(recipe.dispatcher),
                                    "MoE token dispatcher"},
    /* new key: software.moe_force_balance (d19b) */
    [PK_SOFTWARE_MOE_FORCE_BALANCE] = {"software.moe_force_balance",
                                       "software", "moe_force_balance",
                                       PT_ENUM, 0, 0, 0, "stack|yes|no", NULL,
                                       0, "stack (no)", PS_INT,
                                       OFF(recipe.force_balance),
                                       "MoE router forced to an even split "
                                       "(benchmark runs)"},
    [PK_TRAIN_TOKENS] = {"train.tokens", "train", "tokens", PT_COUNT, 0, 1,
                         9e15, NULL, NULL, 0, "0 (run totals 0)", PS_F64,
                         OFF(train.tokens), "training tokens (15T)"},
    [PK_TRAIN_SEQ_LEN] = {"train.seq_len", "train", "seq_len", PT_COUNT, 0, 1,
                          COUNT_MAX, NULL, NULL, 0, "4096", PS_U64,
                          OFF(train.seq_len), "sequence length"},
    [PK_TRAIN_GLOBAL_BATCH] = {"train.global_batch", "train", "global_batch",
                               PT_COUNT, PKF_AUTO, 1, COUNT_MAX, NULL, NULL,
                               0, "1024; auto: by model size", PS_U64,
                               OFF(train.global_batch),
                               "sequences per optimizer step"},
    [PK_TRAIN_PRECISION] = {"train.precision", "train", "precision", PT_ENUM, 0,
                            0, 0, "fp32|tf32|bf16|fp16|fp8|mxfp8|fp4", NULL, 0,
                            "bf16 (else fp16)", PS_INT, OFF(train.precision),
                            "matmul precision"},
    [PK_TRAIN_OPTIMIZER] = {"train.optimizer", "train", "optimizer", PT_ENUM, 0,
                            0, 0, "adam|adam8bit|sgd", NULL, 0, "adam", PS_INT,
                            OFF(train.optimizer),
                            "optimizer (fp32 master weights)"},
    [PK_TRAIN_GRAD_DTYPE] = {"train.grad_dtype", "train", "grad_dtype", PT_ENUM,
                             0, 0, 0, "fp32|bf16|fp16", grad_dtype_values, 0,
                             "fp32", PS_INT, OFF(train.grad_dtype),
                             "gradient buffer precision"},
    [PK_TRAIN_ATTENTION] = {"train.attention", "train", "attention", PT_ENUM, 0,
                            0, 0, "auto|flash|standard", NULL, 0, "auto",
                            PS_INT, OFF(train.attention),
                            "attention kernel (flash keeps scores on chip)"},
    [PK_TRAIN_GPU_HOURS] =
        {"train.gpu_hours", "train", "gpu_hours", PT_COUNT, 0, 0, 9e15, NULL,
         NULL, 0, "0 (modelled)", PS_F64, OFF(train.gpu_hours),
         "known GPU-hours of the run, replacing the model's"},
    [PK_TRAIN_MOE_CAPACITY] =
        {"train.moe_capacity", "train", "moe_capacity", PT_NUMBER, 0, 0, 16,
         NULL, NULL, 0, "0 (dropless)", PS_F64, OFF(train.moe_capacity),
         "MoE token drop: expert capacity factor (0: dropless)"},
    [PK_SERVE_MODE] = {"serve.mode", "serve", "mode", PT_ENUM, 0, 0, 0,
                       "online|offline", NULL, 0, "online", PS_INT,
                       OFF(serve.mode),
                       "online: requests arrive; offline: all queued"},
    [PK_SERVE_INPUT_TOKENS] = {"serve.input_tokens", "serve", "input_tokens",
                               PT_COUNT, 0, 1, COUNT_MAX, NULL, NULL, 0, "1024",
                               PS_U64, OFF(serve.input_tokens),
                               "mean prompt length, tokens"},
    [PK_SERVE_OUTPUT_TOKENS] = {"serve.output_tokens", "serve", "output_tokens",
                                PT_COUNT, 0, 1, COUNT_MAX, NULL, NULL, 0, "256",
                                PS_U64, OFF(serve.output_tokens),
                                "mean generated length, tokens"},
    [PK_SERVE_REQUESTS_PER_S] = {"serve.requests_per_s", "serve",
                                 "requests_per_s", PT_NUMBER, 0, 0, 1e9, NULL,
                                 NULL, 0, "0 (from tokens_per_day)", PS_F64,
                                 OFF(serve.requests_per_s),
                                 "peak arrival rate, requests/s"},
    [PK_SERVE_TOKENS_PER_DAY] = {"serve.tokens_per_day", "serve",
                                 "tokens_per_day", PT_NUMBER, 0, 0, 1e18, NULL,
                                 NULL, 0, "0", PS_F64,
                                 OFF(serve.tokens_per_day),
                                 "demand: output tokens per day"},
    [PK_SERVE_PEAK_TO_AVG] = {"serve.peak_to_avg", "serve", "peak_to_avg",
                              PT_NUMBER, 0, 1, 100, NULL, NULL, 0, "1", PS_F64,
                              OFF(serve.peak_to_avg),
                              "peak hour over the daily mean"},
    [PK_SERVE_CONCURRENCY] = {"serve.concurrency", "serve", "concurrency",
                              PT_COUNT, 0, 0, COUNT_MAX, NULL, NULL, 0,
                              "0 (open arrivals)", PS_U64,
                              OFF(serve.concurrency),
                              "closed-loop users, one request each"},
    [PK_SERVE_TTFT_MS] = {"serve.ttft_ms", "serve", "ttft_ms", PT_NUMBER, 0, 0,
                          1e9, NULL, NULL, 0, "0 (none)", PS_F64,
                          OFF(serve.ttft_ms), "time-to-first-token target, ms"},
    [PK_SERVE_TPOT_MS] = {"serve.tpot_ms", "serve", "tpot_ms", PT_NUMBER, 0, 0,
                          1e9, NULL, NULL, 0, "0 (none)", PS_F64,
                          OFF(serve.tpot_ms),
                          "time-per-output-token target, ms"},
    [PK_SERVE_PERCENTILE] = {"serve.percentile", "serve", "percentile",
                             PT_ENUM, 0, 0, 0, "mean|p50|p90|p99", NULL, 0,
                             "p99", PS_INT, OFF(serve.percentile),
                             "statistic the TTFT and TPOT targets hold at"},
    [PK_SERVE_WINDOW_REQUESTS] = {"serve.window_requests", "serve",
                                  "window_requests", PT_COUNT, 0, 0, 1e9,
                                  NULL, NULL, 0, "1000", PS_U64,
                                  OFF(serve.window_requests),
                                  "requests of a load test above capacity "
                                  "(0: steady state, TTFT unbounded)"},
    [PK_SERVE_WEIGHTS] = {"serve.weights", "serve", "weights", PT_ENUM, 0, 0, 0,
                          "bf16|fp16|fp8|int8|int4|fp4|mxfp4", NULL, 0,
                          "bf16", PS_INT, OFF(serve.weights),
                          "weight precision (int8/int4 weight-only AWQ/GPTQ; "
                          "fp4 = NVFP4, mxfp4 = OCP MXFP4)"},
    [PK_SERVE_KV_CACHE] = {"serve.kv_cache", "serve", "kv_cache", PT_ENUM, 0, 0,
                           0, "bf16|fp16|fp8", NULL, 0, "bf16", PS_INT,
                           OFF(serve.kv_cache), "KV-cache precision"},
    [PK_SERVE_EXPERT_WEIGHTS] = {"serve.expert_weights", "serve",
                                 "expert_weights", PT_ENUM, 0, 0, 0,
                                 "same|bf16|fp16|fp8|int8|int4|fp4|mxfp4",
                                 NULL, 0, "same", PS_INT,
                                 OFF(serve.expert_weights),
                                 "routed experts' weight precision (same: "
                                 "serve.weights)"},
    [PK_SERVE_ATTENTION] = {"serve.attention", "serve", "attention", PT_ENUM,
                            0, 0, 0, "auto|bf16|fp8", NULL, 0, "auto", PS_INT,
                            OFF(serve.attention),
                            "attention math precision (auto: fp8 with an "
                            "fp8 KV cache and 8-bit weights)"},
    [PK_SERVE_PREFIX_HIT] = {"serve.prefix_hit", "serve", "prefix_hit",
                             PT_NUMBER, 0, 0, 0.999, NULL, NULL, 0, "0", PS_F64,
                             OFF(serve.prefix_hit_frac),
                             "share of prompt tokens from the prefix cache"},
    [PK_SERVE_DISAGGREGATED] = {"serve.disaggregated", "serve", "disaggregated",
                                PT_ENUM, 0, 0, 0, "no|yes|auto", NULL, 0, "no",
                                PS_INT, OFF(serve.disaggregated),
                                "separate prefill and decode pools"},
    [PK_SERVE_MAX_BATCH] = {"serve.max_batch", "serve", "max_batch", PT_COUNT,
                            PKF_AUTO, 1, COUNT_MAX, NULL, NULL, 0,
                            "auto (memory and engine)", PS_U64,
                            OFF(serve.max_batch),
                            "running sequences per replica: the engine's "
                            "cap (--max-num-seqs), above or below the "
                            "stack's"},
    [PK_SERVE_OWNED_GPUS] = {"serve.owned_gpus", "serve", "owned_gpus",
                             PT_COUNT, 0, 0, COUNT_MAX, NULL, NULL, 0,
                             "0 (all owned)", PS_U64, OFF(serve.owned_gpus),
                             "hybrid: owned base; the rest bursts to cloud"},
    [PK_SERVE_SPEC_TOKENS] = {"serve.spec_tokens", "serve", "spec_tokens",
                              PT_COUNT, 0, 0, 64, NULL, NULL, 0, "0 (off)",
                              PS_U64, OFF(serve.spec_tokens),
                              "speculative decoding: draft tokens per step"},
    [PK_SERVE_SPEC_ACCEPT] = {"serve.spec_accept", "serve", "spec_accept",
                              PT_NUMBER, 0, 0, 1, NULL, NULL, 0, "0", PS_F64,
                              OFF(serve.spec_accept),
                              "acceptance rate of one draft token"},
    [PK_SERVE_POOL] = {"serve.pool", "serve", "pool", PT_ENUM, 0, 0, 0,
        "both|prefill|decode", NULL, 0, "both", PS_INT, OFF(serve.pool),
        "both phases, or a prefill or decode pool measured alone"},
    [PK_SERVE_ATTENTION_DP] = {"serve.attention_dp", "serve", "attention_dp", PT_COUNT, 0, 1, COUNT_MAX,
        NULL, NULL, 0, "1", PS_U64, OFF(serve.attention_dp),
        "attention data-parallel ranks of a replica beside MoE EP"},
    [PK_SERVE_PREFILL_GPUS] = {"serve.prefill.gpus", "serve", "prefill.gpus", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (sized)", PS_U64, OFF(serve.prefill.gpus),
        "GPUs of the disaggregated prefill pool"},
    [PK_SERVE_PREFILL_TP] = {"serve.prefill.tp", "serve", "prefill.tp", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (parallel.tp)", PS_U64, OFF(serve.prefill.tp),
        "tensor-parallel degree of the prefill pool"},
    [PK_SERVE_PREFILL_EP] = {"serve.prefill.ep", "serve", "prefill.ep", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (parallel.ep)", PS_U64, OFF(serve.prefill.ep),
        "expert-parallel degree of the prefill pool"},
    [PK_SERVE_PREFILL_ATTENTION_DP] = {"serve.prefill.attention_dp", "serve", "prefill.attention_dp", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (serve.attention_dp)", PS_U64, OFF(serve.prefill.attention_dp),
        "attention data-parallel ranks of the prefill pool"},
    [PK_SERVE_DECODE_GPUS] = {"serve.decode.gpus", "serve", "decode.gpus", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (sized)", PS_U64, OFF(serve.decode.gpus),
        "GPUs of the disaggregated decode pool"},
    [PK_SERVE_DECODE_TP] = {"serve.decode.tp", "serve", "decode.tp", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (parallel.tp)", PS_U64, OFF(serve.decode.tp),
        "tensor-parallel degree of the decode pool"},
    [PK_SERVE_DECODE_EP] = {"serve.decode.ep", "serve", "decode.ep", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (parallel.ep)", PS_U64, OFF(serve.decode.ep),
        "expert-parallel degree of the decode pool"},
    [PK_SERVE_DECODE_ATTENTION_DP] = {"serve.decode.attention_dp", "serve", "decode.attention_dp", PT_COUNT, 0, 0, COUNT_MAX,
        NULL, NULL, 0, "0 (serve.attention_dp)", PS_U64, OFF(serve.decode.attention_dp),
        "attention data-parallel ranks of the decode pool"},
    [PK_HW_ACCELERATOR] = {"hardware.accelerator", "hardware", "accelerator",
                           PT_ID, 0, 0, 0, NULL, NULL, CATALOG_ACCELERATORS,
                           "required", PS_NONE, 0,
                           "accelerator, e.g. h100-sxm"},
    [PK_HW_GPUS] = {"hardware.gpus", "hardware", "gpus", PT_COUNT, PKF_AUTO, 1,
                    COUNT_MAX, NULL, NULL, 0, "required", PS_U64, OFF(gpus),
                    "accelerators in the job (serve: auto sizes the fleet)"},
    [PK_HW_SYSTEM] = {"hardware.system", "hardware", "system", PT_ID, 0, 0, 0,
                      NULL, NULL, CATALOG_SYSTEMS, "accelerator's", PS_NONE, 0,
                      "node type (per-node GPUs, scale-up domain, price)"},
    [PK_HW_FABRIC] = {"hardware.fabric", "hardware", "fabric", PT_ID, 0, 0, 0,
                      NULL, NULL, CATALOG_FABRICS, "system's", PS_NONE, 0,
                      "scale-out network, e.g. ib-ndr"},
    [PK_HW_OVERSUBSCRIPTION] = {"hardware.oversubscription", "hardware",
                                "oversubscription", PT_NUMBER, 0,
                                B_OVERSUBSCRIPTION_MIN, B_OVERSUBSCRIPTION_MAX,
                                NULL, NULL, 0, "1", PS_F64,
                                OFF(oversubscription),
                                "fat-tree oversubscription at the leaf"},
    [PK_HW_STORAGE] = {"hardware.storage", "hardware", "storage", PT_ID, 0, 0,
                       0, NULL, NULL, CATALOG_STORAGE, "parallel-fs", PS_NONE,
                       0, "shared storage tier"},
    [PK_HW_STORAGE_TB] = {"hardware.storage_tb", "hardware", "storage_tb",
                          PT_NUMBER, 0, 0, 1e9, NULL, NULL, 0,
                          "sized from the job", PS_F64,
                          OFF(storage.capacity_tb),
                          "provisioned shared storage, TB (10^12 B)"},
    [PK_PAR_TP] = {"parallel.tp", "parallel", "tp", PT_COUNT, PKF_AUTO, 1,
                   COUNT_MAX, NULL, NULL, 0, "auto", PS_U64, OFF(layout.tp),
                   "tensor-parallel degree"},
    [PK_PAR_PP] = {"parallel.pp", "parallel", "pp", PT_COUNT, PKF_AUTO, 1,
                   COUNT_MAX, NULL, NULL, 0, "auto", PS_U64, OFF(layout.pp),
                   "pipeline-parallel degree"},
    [PK_PAR_DP] = {"parallel.dp", "parallel", "dp", PT_COUNT, PKF_AUTO, 1,
                   COUNT_MAX, NULL, NULL, 0, "auto", PS_U64, OFF(layout.dp),
                   "data-parallel degree"},
    [PK_PAR_CP] = {"parallel.cp", "parallel", "cp", PT_COUNT, PKF_AUTO, 1,
                   COUNT_MAX, NULL, NULL, 0, "auto", PS_U64, OFF(layout.cp),
                   "context-parallel degree"},
    [PK_PAR_EP] = {"parallel.ep", "parallel", "ep", PT_COUNT, PKF_AUTO, 1,
                   COUNT_MAX, NULL, NULL, 0, "auto", PS_U64, OFF(layout.ep),
                   "expert-parallel degree"},
    [PK_PAR_MICROBATCH] = {"parallel.microbatch", "parallel", "microbatch",
                           PT_COUNT, PKF_AUTO, 1, COUNT_MAX, NULL, NULL, 0,
                           "auto", PS_U64, OFF(layout.microbatch),
                           "sequences per microbatch"},
    [PK_PAR_INTERLEAVE] = {"parallel.interleave", "parallel", "interleave",
                           PT_COUNT, PKF_AUTO, 1, 1024, NULL, NULL, 0,
                           "1; auto: 1 to (model.layers + 2) / pp", PS_U64,
                           OFF(layout.interleave),
                           "virtual pipeline stages per GPU (1: 1F1B)"},
    [PK_PAR_RECOMPUTE] = {"parallel.recompute", "parallel", "recompute",
                          PT_ENUM, PKF_AUTO, 0, 0, "none|selective|full", NULL,
                          0, "auto", PS_INT, OFF(layout.recompute),
                          "activation recomputation"},
    [PK_PAR_SEQUENCE_PARALLEL] = {"parallel.sequence_parallel", "parallel",
                                  "sequence_parallel", PT_BOOL, PKF_AUTO, 0, 0,
                                  NULL, NULL, 0, "yes when tp > 1", PS_BOOL,
                                  OFF(layout.sequence_parallel),
                                  "Megatron sequence parallelism with TP"},
    [PK_PAR_ZERO] = {"parallel.zero", "parallel", "zero", PT_COUNT, PKF_AUTO, 0,
                     3, NULL, NULL, 0, "auto", PS_INT, OFF(layout.zero),
                     "ZeRO/FSDP stage over the data-parallel group"},
    [PK_SITE_ID] = {"site.id", "site", "id", PT_ID, 0, 0, 0, NULL, NULL,
                    CATALOG_SITES, "us-average", PS_NONE, 0,
                    "power profile: PUE, electricity price, carbon"},
    [PK_SITE_PUE] = {"site.pue", "site", "pue", PT_NUMBER, 0, B_PUE_MIN,
                     B_PUE_MAX, NULL, NULL, 0, "site's", PS_F64, OFF(site.pue),
                     "power usage effectiveness"},
    [PK_SITE_USD_PER_KWH] = {"site.usd_per_kwh", "site", "usd_per_kwh",
                             PT_NUMBER, 0, 0, B_USD_PER_KWH_MAX, NULL, NULL, 0,
                             "site's", PS_F64, OFF(site.usd_per_kwh),
                             "electricity price, USD/kWh"},
    [PK_SITE_KGCO2_PER_KWH] = {"site.kgco2_per_kwh", "site", "kgco2_per_kwh",
                               PT_NUMBER, 0, 0, B_KGCO2_PER_KWH_MAX, NULL, NULL,
                               0, "site's", PS_F64, OFF(site.kgco2_per_kwh),
                               "carbon intensity, kg CO2e/kWh"},
    [PK_FIN_DEPRECIATION_YEARS] = {"finance.depreciation_years", "finance",
                                   "depreciation_years", PT_NUMBER, 0, 0.25, 30,
                                   NULL, NULL, 0, "5", PS_F64,
                                   OFF(finance.depreciation_years),
                                   "hardware depreciation period, years"},
    [PK_FIN_COST_OF_CAPITAL] = {"finance.cost_of_capital", "finance",
                                "cost_of_capital", PT_NUMBER, 0, 0, 1, NULL,
                                NULL, 0, "0.08", PS_F64,
                                OFF(finance.cost_of_capital),
                                "annual cost of capital"},
    [PK_FIN_UTILIZATION] = {"finance.utilization", "finance", "utilization",
                            PT_NUMBER, 0, 0.01, 1, NULL, NULL, 0, "0.8", PS_F64,
                            OFF(finance.utilization),
                            "fraction of the year the cluster is busy"},
    [PK_FIN_MAINTENANCE_FRAC] = {"finance.maintenance_frac", "finance",
                                 "maintenance_frac", PT_NUMBER, 0, 0, 1, NULL,
                                 NULL, 0, "0.05", PS_F64,
                                 OFF(finance.maintenance_frac),
                                 "hardware maintenance per year, fraction "
                                 "of IT CapEx"},
    [PK_FIN_FACILITY_YEARS] = {"finance.facility_years", "finance",
                               "facility_years", PT_NUMBER, 0, 1, 100, NULL,
                               NULL, 0, "15", PS_F64,
                               OFF(finance.facility_years),
                               "life of building, power and cooling plant, "
                               "years"},
    [PK_FIN_RESIDUAL_FRAC] = {"finance.residual_frac", "finance",
                              "residual_frac", PT_NUMBER, 0, 0, 1, NULL, NULL,
                              0, "0.15", PS_F64, OFF(finance.residual_frac),
                              "IT resale value at end of life, fraction of "
                              "its cost"},
    [PK_FIN_SPARES_FRAC] = {"finance.spares_frac", "finance", "spares_frac",
                            PT_NUMBER, 0, 0, 1, NULL, NULL, 0, "0.05", PS_F64,
                            OFF(finance.spares_frac),
                            "spare nodes bought, fraction of nodes"},
    [PK_FIN_SUPPORT_FRAC] = {"finance.support_frac", "finance", "support_frac",
                             PT_NUMBER, 0, 0, 1, NULL, NULL, 0, "0", PS_F64,
                             OFF(finance.support_frac),
                             "vendor support per year, fraction of server "
                             "CapEx"},
    [PK_FIN_INSURANCE_FRAC] = {"finance.insurance_frac", "finance",
                               "insurance_frac", PT_NUMBER, 0, 0, 1, NULL, NULL,
                               0, "0", PS_F64, OFF(finance.insurance_frac),
                               "insurance per year, fraction of CapEx"},
    [PK_FIN_STAFF_USD_PER_MW_YEAR] = {"finance.staff_usd_per_mw_year",
                                      "finance", "staff_usd_per_mw_year",
                                      PT_NUMBER, 0, 0, 1e9, NULL, NULL, 0, "0",
                                      PS_F64,
                                      OFF(finance.staff_usd_per_mw_year),
                                      "operations staff per MW of IT, "
                                      "USD/year"},
    [PK_FIN_SOFTWARE_USD_PER_GPU_YEAR] =
        {"finance.software_usd_per_gpu_year", "finance",
         "software_usd_per_gpu_year", PT_NUMBER, 0, 0, 1e6, NULL, NULL, 0, "0",
         PS_F64, OFF(finance.software_usd_per_gpu_year),
         "software licences per GPU, "
         "USD/year"},
    [PK_CLOUD_OFFER] = {"cloud.offer", "cloud", "offer", PT_ID, 0, 0, 0, NULL,
                        NULL, CATALOG_CLOUD, "cheapest for the accelerator",
                        PS_NONE, 0, "cloud offer to compare against"},
    [PK_CLOUD_TERM] = {"cloud.term", "cloud", "term", PT_ENUM, 0, 0, 0,
                       TERM_CHOICES, NULL, 0, "on_demand", PS_INT,
                       OFF(cloud_term), "pricing term"},
    [PK_CLOUD_USD_PER_GPU_HOUR] = {"cloud.usd_per_gpu_hour", "cloud",
                                   "usd_per_gpu_hour", PT_NUMBER, 0, 0,
                                   B_USD_PER_GPU_HOUR_MAX, NULL, NULL, 0,
                                   "offer's", PS_F64,
                                   OFF(cloud_usd_per_gpu_hour),
                                   "override the offer's price"},
    [PK_REL_NODE_MTBF_H] = {"reliability.node_mtbf_h", "reliability",
                            "node_mtbf_h", PT_NUMBER, 0, B_NODE_MTBF_H_MIN,
                            B_NODE_MTBF_H_MAX, NULL, NULL, 0, "system's",
                            PS_F64, OFF(reliability.node_mtbf_h),
                            "mean hours between node interruptions"},
    [PK_REL_RESTART_MIN] = {"reliability.restart_min", "reliability",
                            "restart_min", PT_NUMBER, 0, 0, 10080, NULL, NULL,
                            0, "10", PS_F64, OFF(reliability.restart_min),
                            "minutes to restart after a failure"},
};

const char *const plan_sections[] = {
    "model",    "workload", "software", "train", "serve",       "hardware",
    "parallel", "site",     "finance",  "cloud", "reliability", NULL,
};

const struct plan_key_info *plan_key_info(enum plan_key k)
{
    return (unsigned)k < PLAN_KEY_COUNT ? &keys[k] : NULL;
}

enum cp_status plan_key_find(const char *name, enum plan_key *out)
{
    size_t i;

    for (i = 0; i < PLAN_KEY_COUNT; i++) {
        if (keys[i].name && strcmp(keys[i].name, name) == 0) {
            *out = (enum plan_key)i;
            return CP_OK;
        }
    }
    return CP_ERR_NOT_FOUND;
}

void plan_init(struct plan *p, const char *name)
{
    memset(p, 0, sizeof(*p));
    snprintf(p->name, sizeof(p->name), "%s", name ? name : "plan");
}

size_t plan_enum_count(const struct plan_key_info *ki)
{
    size_t n = 1;
    const char *c;

    if (!ki->choices)
        return 0;
    for (c = ki->choices; *c; c++)
        n += *c == '|';
    return n;
}

const char *plan_enum_choice(const struct plan_key_info *ki, size_t i,
                             char *buf, size_t n)
{
    const char *c = ki->choices;
    size_t len;

    while (i-- > 0) {
        c = strchr(c, '|');
        if (!c) {
            buf[0] = '\0';
            return buf;
        }
        c++;
    }
    len = strcspn(c, "|");
    snprintf(buf, n, "%.*s", (int)len, c);
    return buf;
}

/* Choices as "a, b or c" for messages. */
static void choices_text(const struct plan_key_info *ki, char *buf, size_t n)
{
    size_t i, count = plan_enum_count(ki);
    size_t used = 0;
    char word[32];

    buf[0] = '\0';
    for (i = 0; i < count && used < n; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int w = snprintf(buf + used, n - used, "%s%s", sep,
                         plan_enum_choice(ki, i, word, sizeof(word)));

        if (w < 0)
            break;
        used += (size_t)w;
    }
    if ((ki->flags & PKF_AUTO) && used < n)
        snprintf(buf + used, n - used, " or auto");
}

/* "1e+06" style bounds read badly in messages; print whole numbers whole. */
static void bound_text(double v, char *buf, size_t n)
{
    if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%g", v);
}

static int valid_id(const char *s)
{
    size_t n = strlen(s), i;

    if (n == 0 || n >= CP_ID_MAX)
        return 0;
    for (i = 0; i < n; i++) {
        char c = s[i];

        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

static enum cp_status parse_bool(const char *s, uint64_t *out)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    size_t i;

    for (i = 0; i < 4; i++) {
        if (strcmp(s, yes[i]) == 0) {
            *out = 1;
            return CP_OK;
        }
        if (strcmp(s, no[i]) == 0) {
            *out = 0;
            return CP_OK;
        }
    }
    return CP_ERR_PARSE;
}

/* Quote user text in messages, cut to keep the line short. */
#define SHOWN(s) (int)(strlen(s) > 40 ? 40 : strlen(s)), (s)

/* serve.percentile was a number before it named a statistic; plans and
 * published case files still write 50, 90 or 99 for p50, p90, p99. */
static const char *percentile_alias(enum plan_key k, const char *value)
{
    if (k != PK_SERVE_PERCENTILE)
        return value;
    if (strcmp(value, "50") == 0)
        return "p50";
    if (strcmp(value, "90") == 0)
        return "p90";
    if (strcmp(value, "99") == 0)
        return "p99";
    return value;
}

enum cp_status plan_set_key(struct plan *p, enum plan_key k, const char *value,
                            const char *origin, struct diag *d)
{
    const struct plan_key_info *ki = plan_key_info(k);
    const char *where = origin ? origin : ki->name;
    struct plan_value v;
    char lo[32], hi[32], text[160], trimmed[256];
    enum cp_status st;
    size_t len;
    double x;

    memset(&v, 0, sizeof(v));
    v.set = true;
    v.origin = origin;
    while (*value == ' ' || *value == '\t')
        value++;
    /* Trailing blanks too ("--set 'train.precision=bf16 '"). */
    len = strlen(value);
    while (len && (value[len - 1] == ' ' || value[len - 1] == '\t'))
        len--;
    /* No value of the schema is this long; cutting it would validate a
     * prefix ("8", 300 blanks, "junk" read as 8). */
    if (len >= sizeof(trimmed))
        return diag_set(d, CP_ERR_RANGE, where,
                        "value longer than %zu characters",
                        sizeof(trimmed) - 1);
    snprintf(trimmed, sizeof(trimmed), "%.*s", (int)len, value);
    value = percentile_alias(k, trimmed);
    if ((ki->flags & PKF_AUTO) && strcmp(value, "auto") == 0) {
        v.is_auto = true;
        p->v[k] = v;
        return CP_OK;
    }
    switch (ki->type) {
    case PT_COUNT:
        st = number_parse(value, 1, &x);
        if (st == CP_ERR_PARSE)
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not a number",
                            SHOWN(value));
        bound_text(ki->min, lo, sizeof(lo));
        bound_text(ki->max, hi, sizeof(hi));
        if (st || x < ki->min || x > ki->max)
            return diag_set(d, CP_ERR_RANGE, where,
                            "'%.*s' is out of range (%s to %s)", SHOWN(value),
                            lo, hi);
        if (x != floor(x))
            return diag_set(d, CP_ERR_RANGE, where,
                            "'%.*s' is not a whole number", SHOWN(value));
        v.u = (uint64_t)x;
        break;
    case PT_NUMBER:
        st = number_parse(value, 0, &x);
        if (st == CP_ERR_PARSE)
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not a number",
                            SHOWN(value));
        bound_text(ki->min, lo, sizeof(lo));
        bound_text(ki->max, hi, sizeof(hi));
        if (st || x < ki->min || x > ki->max)
            return diag_set(d, CP_ERR_RANGE, where,
                            "'%.*s' is out of range (%s to %s)", SHOWN(value),
                            lo, hi);
        v.d = x;
        break;
    case PT_BOOL:
        if (parse_bool(value, &v.u) != CP_OK)
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not yes or no%s",
                            SHOWN(value),
                            (ki->flags & PKF_AUTO) ? " or auto" : "");
        break;
    case PT_ENUM: {
        size_t i, n = plan_enum_count(ki);
        char word[32];

        for (i = 0; i < n; i++)
            if (strcmp(plan_enum_choice(ki, i, word, sizeof(word)), value) == 0)
                break;
        if (i == n) {
            choices_text(ki, text, sizeof(text));
            return diag_set(d, CP_ERR_PARSE, where, "'%.*s' is not one of %s",
                            SHOWN(value), text);
        }
        v.u = i;
        break;
    }
    case PT_ID:
        if (!valid_id(value))
            return diag_set(d, CP_ERR_PARSE, where,
                            "'%.*s' is not a catalog id ([a-z0-9.-])",
                            SHOWN(value));
        snprintf(v.id, sizeof(v.id), "%s", value);
        break;
    }
    p->v[k] = v;
    return CP_OK;
}

enum cp_status plan_set_assignment(struct plan *p, const char *assignment,
                                   struct diag *d)
{
    const char *eq = strchr(assignment, '=');
    char name[96];
    size_t n;
    enum plan_key k;

    n = eq ? (size_t)(eq - assignment) : 0;
    while (n && (assignment[n - 1] == ' ' || assignment[n - 1] == '\t'))
        n--;
    /* no '=', or only blanks before it ("  = 8"): no key to name */
    if (!eq || n == 0)
        return diag_set(d, CP_ERR_USAGE, "--set",
                        "'%.*s' is not SECTION.KEY=VALUE", SHOWN(assignment));
    if (n >= sizeof(name))
        return diag_set(d, CP_ERR_USAGE, "--set", "'%.*s...' is not a key",
                        SHOWN(assignment));
    memcpy(name, assignment, n);
    name[n] = '\0';
    if (plan_key_find(name, &k) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, name, "unknown key");
    return plan_set_key(p, k, eq + 1, NULL, d);
}

static int section_known(const char *section)
{
    size_t i;

    for (i = 0; plan_sections[i]; i++)
        if (strcmp(plan_sections[i], section) == 0)
            return 1;
    return 0;
}

static enum cp_status ini_key(void *ctx, const char *section, const char *key,
                              const char *value, int line, struct diag *d)
{
    struct plan *p = ctx;
    char name[160];
    enum plan_key k;

    (void)line;
    if (!section[0])
        return diag_set(d, CP_ERR_PARSE, key, "key outside a [section]");
    if (!section_known(section))
        return diag_set(d, CP_ERR_USAGE, section, "unknown section");
    snprintf(name, sizeof(name), "%s.%s", section, key);
    if (plan_key_find(name, &k) != CP_OK)
        return diag_set(d, CP_ERR_USAGE, name, "unknown key");
    return plan_set_key(p, k, value, NULL, d);
}

enum cp_status plan_parse_ini(struct plan *p, const char *name,
                              const char *text, struct diag *d)
{
    struct plan tmp = *p;
    enum cp_status st = ini_parse_text(name, text, ini_key, &tmp, d);

    if (st == CP_OK)
        *p = tmp;
    return st;
}

/* Unset every model.* key of p. */
static void clear_model(struct plan *p)
{
    int k;

    for (k = 0; k < PLAN_KEY_COUNT; k++)
        if (strcmp(keys[k].section, "model") == 0)
            p->v[k].set = false;
}

enum cp_status plan_set_model(struct plan *p, const struct model_spec *m,
                              const char *origin, struct diag *d)
{
    struct plan *tmp = malloc(sizeof(*tmp));
    enum cp_status st = CP_OK;
    char buf[32];
    int k;

    if (!tmp)
        return diag_set(d, CP_ERR_NOMEM, origin, "out of memory");
    *tmp = *p;
    clear_model(tmp);
    tmp->model_replaced = true;
    for (k = PK_MODEL_LAYERS; !st && k < PLAN_KEY_COUNT; k++) {
        const struct plan_key_info *ki = &keys[k];
        const char *at;
        uint64_t u = 0;
        bool b;
        int e;

        if (strcmp(ki->section, "model") != 0)
            break;
        at = (const char *)m + (ki->offset - OFF(model));
        if (ki->store == PS_U64) {
            memcpy(&u, at, sizeof(u));
        } else if (ki->store == PS_BOOL) {
            memcpy(&b, at, sizeof(b));
            u = b;
        } else {
            assert(ki->store == PS_INT && !ki->enum_values);
            memcpy(&e, at, sizeof(e));
            u = (uint64_t)e;
        }
        if (ki->type == PT_ENUM) {
            plan_enum_choice(ki, (size_t)u, buf, sizeof(buf));
        } else if (ki->type == PT_BOOL) {
            snprintf(buf, sizeof(buf), "%s", u ? "yes" : "no");
        } else {
            if ((double)u < ki->min)
                continue;
            snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
        }
        st = plan_set_key(tmp, (enum plan_key)k, buf, origin, d);
    }
    if (!st)
        *p = *tmp;
    free(tmp);
    return st;
}

enum cp_status plan_load_file(struct plan *p, const char *path, struct diag *d)
{
    struct strbuf sb;
    enum cp_status st;
    const char *base, *dot;
    struct stat sbuf;
    FILE *fp;
    int e;

    /* Opened once: a FIFO or a pipe has no second chance.  A missing file
     * or a directory is a usage error (2); a file that exists but cannot
     * be read (permissions, I/O) is a runtime one (1). */
    fp = fopen(path, "r");
    if (!fp)
        return diag_set(d,
                        errno == ENOENT || errno == ENOTDIR ? CP_ERR_NOT_FOUND
                                                            : CP_ERR_IO,
                        path, "cannot read plan file: %s", strerror(errno));
    if (fstat(fileno(fp), &sbuf) == 0 && S_ISDIR(sbuf.st_mode)) {
        fclose(fp);
        return diag_set(d, CP_ERR_USAGE, path,
                        "cannot read plan file: is a directory");
    }
    strbuf_init(&sb, 1 << 20);
    st = strbuf_read_stream(&sb, fp);
    e = errno;
    fclose(fp);
    if (st) {
        strbuf_release(&sb);
        return diag_set(d, st == CP_ERR_RANGE ? CP_ERR_RANGE : CP_ERR_IO, path,
                        "cannot read plan file: %s",
                        st == CP_ERR_RANGE ? "larger than 1 MiB"
                                           : strerror(e ? e : EIO));
    }
    if (memchr(sb.buf, '\0', sb.len)) {
        strbuf_release(&sb);
        return diag_set(d, CP_ERR_PARSE, path, "not a text file");
    }
    st = plan_parse_ini(p, path, sb.buf, d);
    strbuf_release(&sb);
    if (st)
        return st;
    base = strrchr(path, '/');
    base = base ? base + 1 : path;
    dot = strrchr(base, '.');
    snprintf(p->name, sizeof(p->name), "%.*s",
             (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)),
             base);
    return CP_OK;
}

void plan_merge(struct plan *dst, const struct plan *src)
{
    size_t i;

    if (src->model_replaced) {
        clear_model(dst);
        dst->model_replaced = true;
    }
    for (i = 0; i < PLAN_KEY_COUNT; i++)
        if (src->v[i].set)
            dst->v[i] = src->v[i];
}

void plan_format_number(double v, char *buf, size_t n)
{
    int prec;
    char *c;

    for (prec = 6; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    /* '.' whatever LC_NUMERIC says (the CLI sets "C"; this is the guard). */
    for (c = buf; *c; c++)
        if (*c == ',')
            *c = '.';
}

const char *plan_format_value(const struct plan *p, enum plan_key k, char *buf,
                              size_t n)
{
    const struct plan_key_info *ki = plan_key_info(k);
    const struct plan_value *v = &p->v[k];

    buf[0] = '\0';
    if (!v->set)
        return buf;
    if (v->is_auto) {
        snprintf(buf, n, "auto");
        return buf;
    }
    switch (ki->type) {
    case PT_COUNT:
        snprintf(buf, n, "%llu", (unsigned long long)v->u);
        break;
    case PT_NUMBER:
        plan_format_number(v->d, buf, n);
        break;
    case PT_BOOL:
        snprintf(buf, n, "%s", v->u ? "yes" : "no");
        break;
    case PT_ENUM:
        plan_enum_choice(ki, (size_t)v->u, buf, n);
        break;
    case PT_ID:
        snprintf(buf, n, "%s", v->id);
        break;
    }
    return buf;
}

enum cp_status plan_write_ini(const struct plan *p, struct strbuf *out)
{
    size_t s, i;
    char buf[64];
    enum cp_status st = CP_OK;

    for (s = 0; plan_sections[s] && !st; s++) {
        int header = 0;

        for (i = 0; i < PLAN_KEY_COUNT && !st; i++) {
            if (strcmp(keys[i].section, plan_sections[s]) != 0 || !p->v[i].set)
                continue;
            if (!header) {
                st = strbuf_addf(out, "%s[%s]\n", out->len ? "\n" : "",
                                 plan_sections[s]);
                header = 1;
            }
            if (!st)
                st = strbuf_addf(
                    out, "%s = %s\n", keys[i].key,
                    plan_format_value(p, (enum plan_key)i, buf, sizeof(buf)));
        }
    }
    return st;
}

bool plan_equal(const struct plan *a, const struct plan *b)
{
    size_t i;

    for (i = 0; i < PLAN_KEY_COUNT; i++) {
        const struct plan_value *x = &a->v[i], *y = &b->v[i];

        if (x->set != y->set)
            return false;
        if (!x->set)
            continue;
        if (x->is_auto != y->is_auto || x->u != y->u || x->d != y->d ||
            strcmp(x->id, y->id) != 0)
            return false;
    }
    return true;
}
