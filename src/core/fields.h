/*
 * fields.h - every input field of a scenario, described once (README
 * "Plans"): its name, section, unit, kind, bounds, default, one line of
 * help and where its value lands in struct scenario.  Like tmux's
 * options_table, one row is read by everything that knows a field:
 *
 *   plan/plan.c       parsing (--set, plan files, shortcut options), the
 *                     INI writer; plan/echo.c the JSON/CSV/text echo
 *   plan/resolve.c    store() writes the value at `offset`; the default
 *                     catalog ids are the `def` of the ID fields
 *   core/scenario.c   scenario_validate() checks the resolved value
 *                     against the same [min, max] (check_field, with the
 *                     row's bounds as constants of that file)
 *   cli/cli_opts.c    --help and the man page's key list
 *   catalog           a column named like a field of the kind its section
 *                     overrides shares its bounds (the twins test in
 *                     tests/unit/app/check_plan.c); shared bounds are the
 *                     B_* constants of core/bounds.h
 *   tests/fuzz        set.dict and plan_ini.dict are `llmplan fields
 *                     --dict set|plan_ini`, llmplan.1's key list is
 *                     `llmplan fields --man` (tests/shell/test_fields.sh)
 *
 * To add a field:
 *   1. add its member to the struct in core/spec.h and its default (if not
 *      0) to scenario_defaults() in core/scenario.c;
 *   2. add ONE row to FIELD_LIST below, in its section (sections are
 *      contiguous and in field_sections order; the writer, the echo and
 *      --help print fields in this order): id, section, key, type, flags,
 *      min, max, unit, choices, enum values, catalog ref, default text,
 *      store, OFF(member), help.  A bound shared with a catalog column is
 *      a B_* constant of core/bounds.h, used by both;
 *   3. add its id to the X-list of the section core/scenario.c validates
 *      (MODEL_FIELDS, SERVE_FIELDS, FINANCE_FIELDS, ...): scenario_validate
 *      then checks it against the row's bounds (check_fields.c fails for
 *      a numeric field it does not refuse beyond them);
 *   4. run `make golden-update`: the --help and echo goldens grow by the
 *      row, and it rewrites tests/fuzz/set.dict, plan_ini.dict and
 *      llmplan.1's "Plan keys" block; say what the field means in README
 *      "Plans" or the section it belongs to if it needs more than a line.
 * Nothing else: the plan key enum (PK_<id>), parsing, storing, the INI
 * writer, echo, --help and the man page's list follow from the row
 * (an ENUM field also needs its name in plan/echo.c's enum_text).
 * tests/unit/app/check_fields_row.c checks that every row is parsed,
 * written, refused beyond its bounds and echoed; tests/shell/
 * test_fields.sh that it is in --help, llmplan.1 and the dictionaries.
 *
 * Porting a key written the old way (a branch's `new key: NAME (BRANCH)`
 * blocks in plan/plan_keys.h, plan/plan.c and core/scenario.c): its
 * PLAN_KEY_LIST entry goes; its plan.c row becomes one X() row here with
 * the name split into section and key, CATALOG_<KIND> as FIELD_REF_<KIND>,
 * COUNT_MAX as B_COUNT_MAX and a unit added; its count_in/real_in call in
 * scenario.c becomes its id in the section's X-list, with ONE bound in
 * the row (if plan and core disagreed, say which was kept).
 *
 * Pure core: no catalog or plan includes.  An ID field names the catalog
 * kind it refers to through enum field_ref (plan maps it to the catalog's
 * enum).
 */
#ifndef LLMPLAN_CORE_FIELDS_H
#define LLMPLAN_CORE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "core/diag.h"

/* How a field's text is read.  (The PT_/PS_/PKF_ names predate this file:
 * the plan layer, the exporters and the TUI use them.) */
enum field_type {
    PT_COUNT,  /* whole number >= 0, K/M/G/T suffixes ("15T") */
    PT_NUMBER, /* finite decimal number */
    PT_BOOL,   /* yes/no (also true/false, on/off, 1/0) */
    PT_ENUM,   /* one word of `choices` */
    PT_ID,     /* a catalog id of the kind `ref` */
};

enum field_flags {
    PKF_AUTO = 1 << 0, /* accepts "auto": the layout search decides */
    /* 0 in struct scenario means "not given" (from the shape, the
     * system's, the engine's): scenario_validate skips it, and a catalog
     * twin may hold 0 below min */
    PKF_ZERO_UNSET = 1 << 1,
};

/* Where a value lands in struct scenario (plan_resolve stores it). */
enum field_store {
    PS_NONE, /* catalog ids and keys resolve_plan handles by hand */
    PS_U64,  /* uint64_t */
    PS_F64,  /* double */
    PS_BOOL, /* bool */
    PS_INT,  /* int, or an enum through enum_values */
};

/* The catalog kind an ID field names (core does not see the catalog). */
enum field_ref {
    FIELD_REF_NONE,
    FIELD_REF_ACCELERATORS,
    FIELD_REF_SYSTEMS,
    FIELD_REF_FABRICS,
    FIELD_REF_STORAGE,
    FIELD_REF_SITES,
    FIELD_REF_CLOUD,
    FIELD_REF_MODELS,
    FIELD_REF_STACKS,
};

struct field_info {
    const char *name;    /* "parallel.tp" */
    const char *section; /* "parallel" */
    const char *key;     /* "tp" */
    enum field_type type;
    unsigned flags;         /* enum field_flags */
    double min, max;        /* COUNT/NUMBER bounds, inclusive */
    const char *unit;       /* COUNT/NUMBER: "ms", "USD/kWh"; "" if none */
    const char *choices;    /* ENUM: "none|selective|full" */
    const int *enum_values; /* ENUM: the C value of each choice; NULL: index */
    enum field_ref ref;     /* ID: the catalog kind */
    const char *def;        /* default as shown in --help ("auto", "4096") */
    enum field_store store;
    size_t offset;    /* offsetof(struct scenario, ...) */
    const char *help; /* one line */
};

/* clang-format off */
#define FIELD_LIST(X) \
    /* [model] */ \
    X(MODEL_PRESET, "model", "preset", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_MODELS, "none", PS_NONE, 0, "start from a catalog model; keys below override it") \
    X(MODEL_PARAMS, "model", "params", PT_COUNT, PKF_ZERO_UNSET, B_MODEL_PARAMS_MIN, B_MODEL_PARAMS_MAX, "parameters", NULL, NULL, FIELD_REF_NONE, "from the shape", PS_U64, OFF(model.params), "total parameters (the shape is derived where missing)") \
    X(MODEL_LAYERS, "model", "layers", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_LAYERS_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.layers), "transformer layers") \
    X(MODEL_HIDDEN, "model", "hidden", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_WIDTH_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.hidden), "hidden size") \
    X(MODEL_HEADS, "model", "heads", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.heads), "attention heads") \
    X(MODEL_KV_HEADS, "model", "kv_heads", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "heads", PS_U64, OFF(model.kv_heads), "key/value heads (< heads: GQA/MQA)") \
    X(MODEL_FFN, "model", "ffn", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_FFN_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.ffn), "FFN inner width") \
    X(MODEL_VOCAB, "model", "vocab", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_VOCAB_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.vocab), "vocabulary size") \
    X(MODEL_GATED_FFN, "model", "gated_ffn", PT_BOOL, 0, 0, 0, "", NULL, NULL, FIELD_REF_NONE, "no", PS_BOOL, OFF(model.gated_ffn), "SwiGLU-style 3-matrix FFN") \
    X(MODEL_TIED_EMBEDDINGS, "model", "tied_embeddings", PT_BOOL, 0, 0, 0, "", NULL, NULL, FIELD_REF_NONE, "no", PS_BOOL, OFF(model.tied_embeddings), "output layer shares the embedding matrix") \
    X(MODEL_EXPERTS, "model", "experts", PT_COUNT, PKF_ZERO_UNSET, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "0, dense", PS_U64, OFF(model.experts), "experts per MoE layer") \
    X(MODEL_EXPERTS_ACTIVE, "model", "experts_active", PT_COUNT, 0, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.experts_active), "experts per token (top-k)") \
    X(MODEL_SHARED_EXPERTS, "model", "shared_experts", PT_COUNT, 0, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset", PS_U64, OFF(model.shared_experts), "always-active shared experts") \
    X(MODEL_EXPERT_FFN, "model", "expert_ffn", PT_COUNT, PKF_ZERO_UNSET, 0, B_MODEL_FFN_MAX, "", NULL, NULL, FIELD_REF_NONE, "ffn", PS_U64, OFF(model.expert_ffn), "FFN width of one expert") \
    X(MODEL_MOE_EVERY, "model", "moe_every", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_MOE_EVERY_MAX, "", NULL, NULL, FIELD_REF_NONE, "1", PS_U64, OFF(model.moe_every), "every n-th layer is MoE (1: all)") \
    X(MODEL_FIRST_DENSE_LAYERS, "model", "first_dense_layers", PT_COUNT, 0, 0, B_MODEL_LAYERS_MAX, "", NULL, NULL, FIELD_REF_NONE, "0", PS_U64, OFF(model.first_dense_layers), "the first n layers are dense, the rest MoE (DeepSeek first_k_dense_replace)") \
    X(MODEL_MTP_LAYERS, "model", "mtp_layers", PT_COUNT, 0, 0, 16, "", NULL, NULL, FIELD_REF_NONE, "0", PS_U64, OFF(model.mtp_layers), "multi-token prediction modules trained beside the model: each a layer, a projection and the output head once more (DeepSeek-V3 num_nextn_predict_layers); serving with serve.spec_tokens drafts with one, run once a draft token") \
    X(MODEL_MOE_GROUPS, "model", "moe_groups", PT_COUNT, 0, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "0, no limit", PS_U64, OFF(model.moe_groups), "experts in this many equal groups for group-limited routing (DeepSeek-V3 n_group)") \
    X(MODEL_MOE_GROUP_TOPK, "model", "moe_group_topk", PT_COUNT, 0, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "0, no limit", PS_U64, OFF(model.moe_group_topk), "a token's experts come from its best this many groups (DeepSeek-V3 topk_group: at most 4 nodes)") \
    X(MODEL_EXPERT_BIAS, "model", "expert_bias", PT_BOOL, 0, 0, 0, "", NULL, NULL, FIELD_REF_NONE, "no", PS_BOOL, OFF(model.expert_bias), "expert FFN layers carry biases, the second added per expert outside its GEMM (gpt-oss)") \
    X(MODEL_ACT_CLAMP, "model", "act_clamp", PT_BOOL, 0, 0, 0, "", NULL, NULL, FIELD_REF_NONE, "no", PS_BOOL, OFF(model.act_clamp), "experts' gated activation clamps its inputs, as separate passes (gpt-oss swiglu_limit)") \
    X(MODEL_HEAD_DIM, "model", "head_dim", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "hidden / heads", PS_U64, OFF(model.head_dim), "width of one attention head") \
    X(MODEL_ATTENTION, "model", "attention", PT_ENUM, 0, 0, 0, "", "mha|gqa|mla", NULL, FIELD_REF_NONE, "preset's, else mha", PS_INT, OFF(model.attention), "attention kind (mla: DeepSeek latent KV)") \
    X(MODEL_KV_LORA_RANK, "model", "kv_lora_rank", PT_COUNT, PKF_ZERO_UNSET, 1, B_MODEL_WIDTH_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset's", PS_U64, OFF(model.kv_lora_rank), "MLA: latent width of keys and values") \
    X(MODEL_Q_LORA_RANK, "model", "q_lora_rank", PT_COUNT, PKF_ZERO_UNSET, 0, B_MODEL_WIDTH_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset's, else 3 x kv_lora_rank", PS_U64, OFF(model.q_lora_rank), "MLA: latent width of queries") \
    X(MODEL_ROPE_HEAD_DIM, "model", "rope_head_dim", PT_COUNT, PKF_ZERO_UNSET, 0, B_MODEL_HEADS_MAX, "", NULL, NULL, FIELD_REF_NONE, "preset's", PS_U64, OFF(model.rope_head_dim), "MLA: decoupled RoPE width per head") \
    /* [workload] */ \
    X(WORKLOAD_KIND, "workload", "kind", PT_ENUM, 0, 0, 0, "", "train|serve", NULL, FIELD_REF_NONE, "train", PS_INT, OFF(workload), "what the plan sizes: training or serving") \
    /* [software] */ \
    X(SOFTWARE_STACK, "software", "stack", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_STACKS, "the accelerator's own", PS_NONE, 0, "training framework or serving engine: kernels, FP8, overlap, allocator; the default is the stack whose default_on names the accelerator's vendor (NVIDIA, AMD: megatron-core; Google TPU: maxtext; Intel Gaudi: megatron-deepspeed; serving: vllm); one that does not run on it is refused") \
    X(SOFTWARE_EFFICIENCY_SCALE, "software", "efficiency_scale", PT_NUMBER, PKF_ZERO_UNSET, 0.01, 10, "factor", NULL, NULL, FIELD_REF_NONE, "1", PS_F64, OFF(efficiency_scale), "x the stack's compute efficiency (GEMM, attention; capped at peak)") \
    X(SOFTWARE_MOE_A2A_OVERLAP, "software", "moe_a2a_overlap", PT_ENUM, 0, 0, 0, "", "stack|yes|no", NULL, FIELD_REF_NONE, "stack", PS_INT, OFF(recipe.a2a_overlap), "MoE all-to-all overlapped with another microbatch's compute") \
    X(SOFTWARE_TP_COMM_OVERLAP, "software", "tp_comm_overlap", PT_ENUM, 0, 0, 0, "", "stack|yes|no", NULL, FIELD_REF_NONE, "stack", PS_INT, OFF(recipe.tp_overlap), "TP communication pipelined with the GEMMs") \
    X(SOFTWARE_CUDA_GRAPHS, "software", "cuda_graphs", PT_ENUM, 0, 0, 0, "", "stack|none|router|attn|full", NULL, FIELD_REF_NONE, "stack (none)", PS_INT, OFF(recipe.graphs), "kernels launched from CUDA graphs (no host dispatch)") \
    X(SOFTWARE_MOE_DISPATCHER, "software", "moe_dispatcher", PT_ENUM, 0, 0, 0, "", "stack|alltoall|deepep|hybridep", NULL, FIELD_REF_NONE, "stack (alltoall)", PS_INT, OFF(recipe.dispatcher), "MoE token dispatcher") \
    X(SOFTWARE_MOE_FORCE_BALANCE, "software", "moe_force_balance", PT_ENUM, 0, 0, 0, "", "stack|yes|no", NULL, FIELD_REF_NONE, "stack (no)", PS_INT, OFF(recipe.force_balance), "MoE router forced to an even split (benchmark runs)") \
    X(SOFTWARE_PREFILL_CHUNK, "software", "prefill_chunk", PT_COUNT, PKF_ZERO_UNSET, 1, 1e9, "tokens", NULL, NULL, FIELD_REF_NONE, "the stack's", PS_U64, OFF(recipe.prefill_chunk), "serving: tokens one iteration takes, decodes and prompt chunks (--max-num-batched-tokens, --chunked-prefill-size, --max_num_tokens)") \
    X(SOFTWARE_PP_SCHEDULE, "software", "pp_schedule", PT_ENUM, 0, 0, 0, "", "stack|1f1b|dualpipe", NULL, FIELD_REF_NONE, "stack (1f1b)", PS_INT, OFF(recipe.schedule), "pipeline schedule: dualpipe runs two pipelines in opposite directions, overlapping each chunk's all-to-all and sends with the other's compute (DeepSeek-V3; needs an even parallel.pp, no interleave, 2x the parameters)") \
    X(SOFTWARE_FP8_SCALING, "software", "fp8_scaling", PT_ENUM, 0, 0, 0, "", "stack|tensor|row", NULL, FIELD_REF_NONE, "stack", PS_INT, OFF(recipe.fp8_scaling), "FP8 scaling recipe: the stack's, or torchao dynamic tensorwise / rowwise (its casts); serving: row = weights per channel, activations per token (Meta FP8)") \
    X(SOFTWARE_OFFLOAD, "software", "offload", PT_ENUM, 0, 0, 0, "", "stack|none|optimizer|optimizer_activations", NULL, FIELD_REF_NONE, "stack (none)", PS_INT, OFF(recipe.offload), "optimizer: fp32 master weights and Adam states in host memory, updated by the host CPU, gradients and weights over PCIe each step (ZeRO-Offload, DeepSpeed offload_optimizer); optimizer_activations: also the activation checkpoints of full recompute (DeepSpeed cpu_checkpointing)") \
    X(SOFTWARE_CHECKPOINT_EARLY_STOP, "software", "checkpoint_early_stop", PT_ENUM, 0, 0, 0, "", "stack|yes|no", NULL, FIELD_REF_NONE, "stack", PS_INT, OFF(recipe.ckpt_early_stop), "full recompute stops before each layer's last GEMM (PyTorch >= 2.1 non-reentrant checkpointing); no: the whole layer again (torch 1.13, Megatron)") \
    X(SOFTWARE_RECOMPUTE_MODULES, "software", "recompute_modules", PT_ENUM, 0, 0, 0, "", "stack|core_attn|moe_act|mla_up_proj|mla_up_proj+mlp|mla_up_proj+mlp+moe_act", NULL, FIELD_REF_NONE, "stack", PS_INT, OFF(recipe.recompute_modules), "what parallel.recompute=selective repeats (Megatron-Core --recompute-modules): the attention core, the experts' activation, MLA's up projections, the dense MLP") \
    /* [train] */ \
    X(TRAIN_TOKENS, "train", "tokens", PT_COUNT, PKF_ZERO_UNSET, 1, 9e15, "tokens", NULL, NULL, FIELD_REF_NONE, "0 (run totals 0)", PS_F64, OFF(train.tokens), "training tokens (15T)") \
    X(TRAIN_SEQ_LEN, "train", "seq_len", PT_COUNT, 0, 1, B_COUNT_MAX, "tokens", NULL, NULL, FIELD_REF_NONE, "4096", PS_U64, OFF(train.seq_len), "sequence length") \
    X(TRAIN_GLOBAL_BATCH, "train", "global_batch", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "sequences", NULL, NULL, FIELD_REF_NONE, "1024; auto: by model size", PS_U64, OFF(train.global_batch), "sequences per optimizer step") \
    X(TRAIN_PRECISION, "train", "precision", PT_ENUM, 0, 0, 0, "", "fp32|tf32|bf16|fp16|fp8|mxfp8|fp4", NULL, FIELD_REF_NONE, "bf16 (else fp16)", PS_INT, OFF(train.precision), "matmul precision") \
    X(TRAIN_OPTIMIZER, "train", "optimizer", PT_ENUM, 0, 0, 0, "", "adam|adam8bit|sgd", NULL, FIELD_REF_NONE, "adam", PS_INT, OFF(train.optimizer), "optimizer (fp32 master weights)") \
    X(TRAIN_GRAD_DTYPE, "train", "grad_dtype", PT_ENUM, 0, 0, 0, "", "fp32|bf16|fp16", grad_dtype_values, FIELD_REF_NONE, "fp32", PS_INT, OFF(train.grad_dtype), "gradient buffer precision") \
    X(TRAIN_ATTENTION, "train", "attention", PT_ENUM, 0, 0, 0, "", "auto|flash|standard", NULL, FIELD_REF_NONE, "auto", PS_INT, OFF(train.attention), "attention kernel (flash keeps scores on chip)") \
    X(TRAIN_GPU_HOURS, "train", "gpu_hours", PT_COUNT, 0, 0, 9e15, "GPU-hours", NULL, NULL, FIELD_REF_NONE, "0 (modelled)", PS_F64, OFF(train.gpu_hours), "known GPU-hours of the run, replacing the model's") \
    X(TRAIN_MOE_CAPACITY, "train", "moe_capacity", PT_NUMBER, 0, 0, 16, "factor", NULL, NULL, FIELD_REF_NONE, "0 (dropless)", PS_F64, OFF(train.moe_capacity), "MoE token drop: expert capacity factor (0: dropless)") \
    /* [serve] */ \
    X(SERVE_MODE, "serve", "mode", PT_ENUM, 0, 0, 0, "", "online|offline", NULL, FIELD_REF_NONE, "online", PS_INT, OFF(serve.mode), "online: requests arrive; offline: all queued") \
    X(SERVE_INPUT_TOKENS, "serve", "input_tokens", PT_COUNT, 0, 1, B_COUNT_MAX, "tokens", NULL, NULL, FIELD_REF_NONE, "1024", PS_U64, OFF(serve.input_tokens), "mean prompt length, tokens") \
    X(SERVE_OUTPUT_TOKENS, "serve", "output_tokens", PT_COUNT, 0, 1, B_COUNT_MAX, "tokens", NULL, NULL, FIELD_REF_NONE, "256", PS_U64, OFF(serve.output_tokens), "mean generated length, tokens") \
    X(SERVE_REQUESTS_PER_S, "serve", "requests_per_s", PT_NUMBER, 0, 0, 1e9, "requests/s", NULL, NULL, FIELD_REF_NONE, "0 (from tokens_per_day)", PS_F64, OFF(serve.requests_per_s), "peak arrival rate, requests/s") \
    X(SERVE_TOKENS_PER_DAY, "serve", "tokens_per_day", PT_NUMBER, 0, 0, 1e18, "tokens/day", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(serve.tokens_per_day), "demand: output tokens per day") \
    X(SERVE_PEAK_TO_AVG, "serve", "peak_to_avg", PT_NUMBER, 0, 1, 100, "factor", NULL, NULL, FIELD_REF_NONE, "1", PS_F64, OFF(serve.peak_to_avg), "peak hour over the daily mean") \
    X(SERVE_CONCURRENCY, "serve", "concurrency", PT_COUNT, 0, 0, B_COUNT_MAX, "users", NULL, NULL, FIELD_REF_NONE, "0 (open arrivals)", PS_U64, OFF(serve.concurrency), "closed-loop users, one request each") \
    X(SERVE_TTFT_MS, "serve", "ttft_ms", PT_NUMBER, 0, 0, 1e9, "ms", NULL, NULL, FIELD_REF_NONE, "0 (none)", PS_F64, OFF(serve.ttft_ms), "time-to-first-token target, ms") \
    X(SERVE_TPOT_MS, "serve", "tpot_ms", PT_NUMBER, 0, 0, 1e9, "ms", NULL, NULL, FIELD_REF_NONE, "0 (none)", PS_F64, OFF(serve.tpot_ms), "time-per-output-token target, ms") \
    X(SERVE_PERCENTILE, "serve", "percentile", PT_ENUM, 0, 0, 0, "", "mean|p50|p90|p99", NULL, FIELD_REF_NONE, "p99", PS_INT, OFF(serve.percentile), "statistic the TTFT and TPOT targets hold at") \
    X(SERVE_WINDOW_REQUESTS, "serve", "window_requests", PT_COUNT, 0, 0, 1e9, "requests", NULL, NULL, FIELD_REF_NONE, "1000", PS_U64, OFF(serve.window_requests), "requests of a load test: above capacity the queue grows over them; with serve.output_cv the run drains; stated, a closed loop replays that load test, its users' first burst in TTFT and its makespan in requests/s (unstated: the steady state); 0: steady state, TTFT unbounded") \
    X(SERVE_OUTPUT_CV, "serve", "output_cv", PT_NUMBER, 0, 0, 4, "ratio", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(serve.output_cv), "spread of the output lengths: standard deviation over the mean (0: all alike; 1: exponential; above 1: two-phase hyperexponential, ShareGPT-like 1.36)") \
    X(SERVE_SCHEDULER_STEPS, "serve", "scheduler_steps", PT_COUNT, 0, 1, 256, "steps", NULL, NULL, FIELD_REF_NONE, "1", PS_U64, OFF(serve.scheduler_steps), "decode iterations per scheduling round (vLLM --num-scheduler-steps): host work once a round, prompts join at its end") \
    X(SERVE_ASYNC_SCHEDULING, "serve", "async_scheduling", PT_ENUM, 0, 0, 0, "", "no|yes", NULL, FIELD_REF_NONE, "no", PS_INT, OFF(serve.async_scheduling), "the host prepares the next decode step while the GPU runs this one (vLLM --async-scheduling, SGLang's overlap scheduler): a step costs the longer of the two, not their sum") \
    X(SERVE_BATCH_WAIT_ITERS, "serve", "batch_wait_iters", PT_COUNT, 0, 0, 100000, "steps", NULL, NULL, FIELD_REF_NONE, "0 (none)", PS_U64, OFF(serve.batch_wait_iters), "decode iterations the scheduler holds new prompts to batch them (TensorRT-LLM batch_wait_timeout_iters; needs serve.batch_wait_tokens_frac)") \
    X(SERVE_BATCH_WAIT_TOKENS_FRAC, "serve", "batch_wait_tokens_frac", PT_NUMBER, 0, 0, 1, "ratio", NULL, NULL, FIELD_REF_NONE, "0 (none)", PS_F64, OFF(serve.batch_wait_frac), "... or until the iteration's tokens reach this share of its budget (TensorRT-LLM batch_wait_max_tokens_ratio)") \
    X(SERVE_WEIGHTS, "serve", "weights", PT_ENUM, 0, 0, 0, "", "bf16|fp16|fp8|int8|int4|fp4|mxfp4", NULL, FIELD_REF_NONE, "bf16", PS_INT, OFF(serve.weights), "weight precision (int8/int4 weight-only AWQ/GPTQ; fp4 = NVFP4, mxfp4 = OCP MXFP4)") \
    X(SERVE_KV_CACHE, "serve", "kv_cache", PT_ENUM, 0, 0, 0, "", "bf16|fp16|fp8", NULL, FIELD_REF_NONE, "bf16", PS_INT, OFF(serve.kv_cache), "KV-cache precision") \
    X(SERVE_EXPERT_WEIGHTS, "serve", "expert_weights", PT_ENUM, 0, 0, 0, "", "same|bf16|fp16|fp8|int8|int4|fp4|mxfp4", NULL, FIELD_REF_NONE, "same", PS_INT, OFF(serve.expert_weights), "routed experts' weight precision (same: serve.weights)") \
    X(SERVE_ATTENTION, "serve", "attention", PT_ENUM, 0, 0, 0, "", "auto|bf16|fp8", NULL, FIELD_REF_NONE, "auto", PS_INT, OFF(serve.attention), "attention math precision (auto: fp8 with an fp8 KV cache and 8-bit weights)") \
    X(SERVE_COMM, "serve", "comm", PT_ENUM, 0, 0, 0, "", "auto|bf16|fp8", NULL, FIELD_REF_NONE, "auto", PS_INT, OFF(serve.comm), "MoE dispatch precision (auto: fp8 with 8-bit or 4-bit weights; combine stays 16 bits)") \
    X(SERVE_PREFIX_HIT, "serve", "prefix_hit", PT_NUMBER, 0, 0, 0.999, "fraction", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(serve.prefix_hit_frac), "share of prompt tokens from the prefix cache") \
    X(SERVE_DISAGGREGATED, "serve", "disaggregated", PT_ENUM, 0, 0, 0, "", "no|yes|auto", NULL, FIELD_REF_NONE, "no", PS_INT, OFF(serve.disaggregated), "separate prefill and decode pools") \
    X(SERVE_MAX_BATCH, "serve", "max_batch", PT_COUNT, PKF_AUTO | PKF_ZERO_UNSET, 1, B_COUNT_MAX, "sequences", NULL, NULL, FIELD_REF_NONE, "auto (memory and engine)", PS_U64, OFF(serve.max_batch), "running sequences per replica: the engine's cap (--max-num-seqs), above or below the stack's") \
    X(SERVE_OWNED_GPUS, "serve", "owned_gpus", PT_COUNT, 0, 0, B_COUNT_MAX, "GPUs", NULL, NULL, FIELD_REF_NONE, "0 (all owned)", PS_U64, OFF(serve.owned_gpus), "hybrid: owned base; the rest bursts to cloud") \
    X(SERVE_SPEC_TOKENS, "serve", "spec_tokens", PT_COUNT, 0, 0, 64, "tokens", NULL, NULL, FIELD_REF_NONE, "0 (off)", PS_U64, OFF(serve.spec_tokens), "speculative decoding: draft tokens per step") \
    X(SERVE_SPEC_ACCEPT, "serve", "spec_accept", PT_NUMBER, 0, 0, 1, "fraction", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(serve.spec_accept), "acceptance rate of one draft token") \
    X(SERVE_POOL, "serve", "pool", PT_ENUM, 0, 0, 0, "", "both|prefill|decode", NULL, FIELD_REF_NONE, "both", PS_INT, OFF(serve.pool), "both phases, or a prefill or decode pool measured alone") \
    X(SERVE_ATTENTION_DP, "serve", "attention_dp", PT_COUNT, 0, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "1", PS_U64, OFF(serve.attention_dp), "attention data-parallel ranks of a replica beside MoE EP") \
    X(SERVE_PREFILL_GPUS, "serve", "prefill.gpus", PT_COUNT, 0, 0, B_COUNT_MAX, "GPUs", NULL, NULL, FIELD_REF_NONE, "0 (sized)", PS_U64, OFF(serve.prefill.gpus), "GPUs of the disaggregated prefill pool") \
    X(SERVE_PREFILL_TP, "serve", "prefill.tp", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (parallel.tp)", PS_U64, OFF(serve.prefill.tp), "tensor-parallel degree of the prefill pool") \
    X(SERVE_PREFILL_EP, "serve", "prefill.ep", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (parallel.ep)", PS_U64, OFF(serve.prefill.ep), "expert-parallel degree of the prefill pool") \
    X(SERVE_PREFILL_ATTENTION_DP, "serve", "prefill.attention_dp", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (serve.attention_dp)", PS_U64, OFF(serve.prefill.attention_dp), "attention data-parallel ranks of the prefill pool") \
    X(SERVE_DECODE_GPUS, "serve", "decode.gpus", PT_COUNT, 0, 0, B_COUNT_MAX, "GPUs", NULL, NULL, FIELD_REF_NONE, "0 (sized)", PS_U64, OFF(serve.decode.gpus), "GPUs of the disaggregated decode pool") \
    X(SERVE_DECODE_TP, "serve", "decode.tp", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (parallel.tp)", PS_U64, OFF(serve.decode.tp), "tensor-parallel degree of the decode pool") \
    X(SERVE_DECODE_EP, "serve", "decode.ep", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (parallel.ep)", PS_U64, OFF(serve.decode.ep), "expert-parallel degree of the decode pool") \
    X(SERVE_DECODE_ATTENTION_DP, "serve", "decode.attention_dp", PT_COUNT, 0, 0, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "0 (serve.attention_dp)", PS_U64, OFF(serve.decode.attention_dp), "attention data-parallel ranks of the decode pool") \
    X(SERVE_DECODE_MAX_BATCH, "serve", "decode.max_batch", PT_COUNT, 0, 0, B_COUNT_MAX, "sequences", NULL, NULL, FIELD_REF_NONE, "0 (serve.max_batch)", PS_U64, OFF(serve.decode.max_batch), "sequences one attention rank of the decode pool runs at most (the engine's per-rank max batch); needs serve.disaggregated=yes or serve.pool=decode") \
    X(SERVE_OFFLOAD, "serve", "offload", PT_ENUM, 0, 0, 0, "", "none|weights", NULL, FIELD_REF_NONE, "none", PS_INT, OFF(serve.offload), "weights: the weights HBM cannot hold beside one prefill chunk's KV stay in host memory and stream over the host link (systems.host_link_gb_s) every forward pass, prefetched a layer ahead") \
    /* [hardware] */ \
    X(HW_ACCELERATOR, "hardware", "accelerator", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_ACCELERATORS, "required", PS_NONE, 0, "accelerator, e.g. h100-sxm") \
    X(HW_GPUS, "hardware", "gpus", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "GPUs", NULL, NULL, FIELD_REF_NONE, "required", PS_U64, OFF(gpus), "accelerators in the job (serve: auto sizes the fleet)") \
    X(HW_SYSTEM, "hardware", "system", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_SYSTEMS, "accelerator's", PS_NONE, 0, "node type (per-node GPUs, scale-up domain, price)") \
    X(HW_FABRIC, "hardware", "fabric", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_FABRICS, "system's", PS_NONE, 0, "scale-out network, e.g. ib-ndr") \
    X(HW_POWER_LIMIT_W, "hardware", "power_limit_w", PT_NUMBER, PKF_ZERO_UNSET, 50, 1e5, "W", NULL, NULL, FIELD_REF_NONE, "the accelerator's TDP", PS_F64, OFF(power_limit_w), "board power cap (nvidia-smi -pl), at most the accelerator's tdp_w: below TDP the clocks, and the compute rates, fall as the cube root of cap / TDP; the draw is capped") \
    X(HW_OVERSUBSCRIPTION, "hardware", "oversubscription", PT_NUMBER, 0, B_OVERSUBSCRIPTION_MIN, B_OVERSUBSCRIPTION_MAX, "factor", NULL, NULL, FIELD_REF_NONE, "1", PS_F64, OFF(oversubscription), "fat-tree oversubscription at the leaf") \
    X(HW_STORAGE, "hardware", "storage", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_STORAGE, "parallel-fs", PS_NONE, 0, "shared storage tier") \
    X(HW_STORAGE_TB, "hardware", "storage_tb", PT_NUMBER, 0, 0, 1e9, "TB", NULL, NULL, FIELD_REF_NONE, "sized from the job", PS_F64, OFF(storage.capacity_tb), "provisioned shared storage, TB (10^12 B)") \
    /* [parallel] */ \
    X(PAR_TP, "parallel", "tp", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.tp), "tensor-parallel degree") \
    X(PAR_PP, "parallel", "pp", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.pp), "pipeline-parallel degree") \
    X(PAR_DP, "parallel", "dp", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.dp), "data-parallel degree") \
    X(PAR_CP, "parallel", "cp", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.cp), "context-parallel degree") \
    X(PAR_EP, "parallel", "ep", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.ep), "expert-parallel degree") \
    X(PAR_MICROBATCH, "parallel", "microbatch", PT_COUNT, PKF_AUTO, 1, B_COUNT_MAX, "sequences", NULL, NULL, FIELD_REF_NONE, "auto", PS_U64, OFF(layout.microbatch), "sequences per microbatch") \
    X(PAR_INTERLEAVE, "parallel", "interleave", PT_COUNT, PKF_AUTO, 1, 1024, "", NULL, NULL, FIELD_REF_NONE, "1; auto: 1 to (model.layers + 2) / pp", PS_U64, OFF(layout.interleave), "virtual pipeline stages per GPU (1: 1F1B)") \
    X(PAR_RECOMPUTE, "parallel", "recompute", PT_ENUM, PKF_AUTO, 0, 0, "", "none|selective|full", NULL, FIELD_REF_NONE, "auto", PS_INT, OFF(layout.recompute), "activation recomputation") \
    X(PAR_SEQUENCE_PARALLEL, "parallel", "sequence_parallel", PT_BOOL, PKF_AUTO, 0, 0, "", NULL, NULL, FIELD_REF_NONE, "yes when tp > 1", PS_BOOL, OFF(layout.sequence_parallel), "Megatron sequence parallelism with TP") \
    X(PAR_ZERO, "parallel", "zero", PT_COUNT, PKF_AUTO, 0, 3, "", NULL, NULL, FIELD_REF_NONE, "auto", PS_INT, OFF(layout.zero), "ZeRO/FSDP stage over the data-parallel group") \
    /* [site] */ \
    X(SITE_ID, "site", "id", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_SITES, "us-average", PS_NONE, 0, "power profile: PUE, electricity price, carbon") \
    X(SITE_PUE, "site", "pue", PT_NUMBER, 0, B_PUE_MIN, B_PUE_MAX, "factor", NULL, NULL, FIELD_REF_NONE, "site's", PS_F64, OFF(site.pue), "power usage effectiveness") \
    X(SITE_USD_PER_KWH, "site", "usd_per_kwh", PT_NUMBER, 0, 0, B_USD_PER_KWH_MAX, "USD/kWh", NULL, NULL, FIELD_REF_NONE, "site's", PS_F64, OFF(site.usd_per_kwh), "electricity price, USD/kWh") \
    X(SITE_KGCO2_PER_KWH, "site", "kgco2_per_kwh", PT_NUMBER, 0, 0, B_KGCO2_PER_KWH_MAX, "kg CO2e/kWh", NULL, NULL, FIELD_REF_NONE, "site's", PS_F64, OFF(site.kgco2_per_kwh), "carbon intensity, kg CO2e/kWh") \
    /* [finance] */ \
    X(FIN_DEPRECIATION_YEARS, "finance", "depreciation_years", PT_NUMBER, 0, 0.25, 30, "years", NULL, NULL, FIELD_REF_NONE, "5", PS_F64, OFF(finance.depreciation_years), "hardware depreciation period, years") \
    X(FIN_COST_OF_CAPITAL, "finance", "cost_of_capital", PT_NUMBER, 0, 0, 1, "fraction/year", NULL, NULL, FIELD_REF_NONE, "0.08", PS_F64, OFF(finance.cost_of_capital), "annual cost of capital") \
    X(FIN_UTILIZATION, "finance", "utilization", PT_NUMBER, 0, 0.01, 1, "fraction", NULL, NULL, FIELD_REF_NONE, "0.8", PS_F64, OFF(finance.utilization), "fraction of the year the cluster is busy") \
    X(FIN_MAINTENANCE_FRAC, "finance", "maintenance_frac", PT_NUMBER, 0, 0, 1, "fraction/year", NULL, NULL, FIELD_REF_NONE, "0.05", PS_F64, OFF(finance.maintenance_frac), "hardware maintenance per year, fraction of IT CapEx") \
    X(FIN_FACILITY_YEARS, "finance", "facility_years", PT_NUMBER, 0, 1, 100, "years", NULL, NULL, FIELD_REF_NONE, "15", PS_F64, OFF(finance.facility_years), "life of building, power and cooling plant, years") \
    X(FIN_RESIDUAL_FRAC, "finance", "residual_frac", PT_NUMBER, 0, 0, 1, "fraction", NULL, NULL, FIELD_REF_NONE, "0.15", PS_F64, OFF(finance.residual_frac), "IT resale value at end of life, fraction of its cost") \
    X(FIN_SPARES_FRAC, "finance", "spares_frac", PT_NUMBER, 0, 0, 1, "fraction", NULL, NULL, FIELD_REF_NONE, "0.05", PS_F64, OFF(finance.spares_frac), "spare nodes bought, fraction of nodes") \
    X(FIN_SUPPORT_FRAC, "finance", "support_frac", PT_NUMBER, 0, 0, 1, "fraction/year", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(finance.support_frac), "vendor support per year, fraction of server CapEx") \
    X(FIN_INSURANCE_FRAC, "finance", "insurance_frac", PT_NUMBER, 0, 0, 1, "fraction/year", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(finance.insurance_frac), "insurance per year, fraction of CapEx") \
    X(FIN_STAFF_USD_PER_MW_YEAR, "finance", "staff_usd_per_mw_year", PT_NUMBER, 0, 0, 1e9, "USD/MW-year", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(finance.staff_usd_per_mw_year), "operations staff per MW of IT, USD/year") \
    X(FIN_SOFTWARE_USD_PER_GPU_YEAR, "finance", "software_usd_per_gpu_year", PT_NUMBER, 0, 0, 1e6, "USD/GPU-year", NULL, NULL, FIELD_REF_NONE, "0", PS_F64, OFF(finance.software_usd_per_gpu_year), "software licences per GPU, USD/year") \
    /* [cloud] */ \
    X(CLOUD_OFFER, "cloud", "offer", PT_ID, 0, 0, 0, "", NULL, NULL, FIELD_REF_CLOUD, "cheapest for the accelerator", PS_NONE, 0, "cloud offer to compare against") \
    X(CLOUD_TERM, "cloud", "term", PT_ENUM, 0, 0, 0, "", TERM_CHOICES, NULL, FIELD_REF_NONE, "on_demand", PS_INT, OFF(cloud_term), "pricing term") \
    X(CLOUD_USD_PER_GPU_HOUR, "cloud", "usd_per_gpu_hour", PT_NUMBER, 0, 0, B_USD_PER_GPU_HOUR_MAX, "USD/GPU-hour", NULL, NULL, FIELD_REF_NONE, "offer's", PS_F64, OFF(cloud_usd_per_gpu_hour), "override the offer's price") \
    /* [reliability] */ \
    X(REL_NODE_MTBF_H, "reliability", "node_mtbf_h", PT_NUMBER, PKF_ZERO_UNSET, B_NODE_MTBF_H_MIN, B_NODE_MTBF_H_MAX, "hours", NULL, NULL, FIELD_REF_NONE, "system's", PS_F64, OFF(reliability.node_mtbf_h), "mean hours between node interruptions") \
    X(REL_RESTART_MIN, "reliability", "restart_min", PT_NUMBER, 0, 0, 10080, "minutes", NULL, NULL, FIELD_REF_NONE, "10", PS_F64, OFF(reliability.restart_min), "minutes to restart after a failure")
/* clang-format on */

enum field_id {
#define FIELD_ENUM(id, ...) FLD_##id,
    FIELD_LIST(FIELD_ENUM)
#undef FIELD_ENUM
        FIELD_COUNT
};

/* Sections in schema order, NULL-terminated ("model", "workload", ...). */
extern const char *const field_sections[];

/* The row of field f; NULL when f is out of range. */
const struct field_info *field_info(enum field_id f);

/* Look a field up by "section.key".  CP_ERR_NOT_FOUND when unknown. */
enum cp_status field_find(const char *name, enum field_id *out /* OUT */);

/* The number of choices of an ENUM field, and the i-th choice into buf
 * ("" past the end).  Returns buf. */
size_t field_enum_count(const struct field_info *fi);
const char *field_enum_choice(const struct field_info *fi, size_t i, char *buf,
                              size_t n);

/* A resolved value against the field's [min, max]: CP_OK, or CP_ERR_RANGE
 * with d->where the field's name and "V is out of range [MIN, MAX]". */
enum cp_status field_check_count(enum field_id f, uint64_t v, struct diag *d);
/* (A 0 of a PKF_ZERO_UNSET field passes.) */
enum cp_status field_check_real(enum field_id f, double v, struct diag *d);
/* An enum field's stored value against its choices (the row's
 * enum_values, else the choice index): "must be a, b or c". */
enum cp_status field_check_enum(enum field_id f, int v, struct diag *d);

#endif
