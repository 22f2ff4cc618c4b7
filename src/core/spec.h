/*
 * spec.h - the plain-data inputs of the model: hardware, model, training job,
 * parallel layout, site, finance and cloud offer, gathered in struct scenario.
 *
 * A scenario is self-contained: the plan layer copies catalog rows into it,
 * so core never looks anything up.  Names carry units (_bytes, _bps for
 * bytes per second, _flops for FLOP/s, _w, _usd, _s, _h); ratios in [0,1]
 * end in _frac.  Counts given by people are uint64_t; everything derived
 * from them is double, because products of plan inputs (s * s * heads *
 * layers ...) can exceed 2^64 and a planner must never wrap around.
 *
 * Invariants after scenario_validate() returns CP_OK: every count is >= 1
 * where the model divides by it, every double is finite and within the
 * bounds of its row in the field table (fields.h), tp*pp*dp*cp == gpus,
 * and the layout divides the model (see layout.h).
 *
 * CHECKLIST: an input field added here needs its row in core/fields.h
 * (see the recipe there: it is its plan key, bounds and help) and, for
 * catalog-backed structs, a catalog column (catalog/catalog_kinds.c).
 */
#ifndef LLMPLAN_CORE_SPEC_H
#define LLMPLAN_CORE_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#define CP_ID_MAX 48    /* catalog ids: [a-z0-9.-], at most 47 chars */
#define CP_NAME_MAX 96  /* display names */
#define CP_TEXT_MAX 256 /* source, notes */
#define CP_DATE_MAX 16  /* as_of: YYYY, YYYY-MM or YYYY-MM-DD */

/* Matmul precisions; the order indexes accel_spec.peak_flops. */
#define PRECISION_LIST(X)                                                      \
    X(FP32, "fp32")                                                            \
    X(TF32, "tf32")                                                            \
    X(BF16, "bf16")                                                            \
    X(FP16, "fp16")                                                            \
    X(FP8, "fp8")                                                              \
    X(MXFP8, "mxfp8")                                                          \
    X(FP4, "fp4")                                                              \
    X(INT8, "int8")

enum precision {
#define PRECISION_ENUM(name, str) PREC_##name,
    PRECISION_LIST(PRECISION_ENUM)
#undef PRECISION_ENUM
        PREC_COUNT
};

/* Bytes per element of a precision (fp32/tf32 4, bf16/fp16 2, fp8/mxfp8/int8
 * 1, fp4 0.5; block scales are counted where they are used). */
double precision_bytes(enum precision p);

enum optimizer { OPT_ADAM, OPT_ADAM8BIT, OPT_SGD, OPT_COUNT };
enum recompute { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };

/*
 * How attention is computed.  FLASH: a fused kernel that keeps the s*s
 * scores on chip (Dao et al. 2022) - no scores in memory, no softmax traffic
 * in HBM.  STANDARD: scores materialised (Korthikanti et al. 2022, Table 2:
 * the 5as/h term).  AUTO: STANDARD for time under selective recompute,
 * FLASH otherwise; for memory with recompute=none and ZeRO < 3 the scores
 * are kept as Korthikanti accounts them.  See memory.c and steptime.c.
 */
enum attention { ATTN_AUTO, ATTN_FLASH, ATTN_STANDARD };

/* How a system can be had (systems.sale): bought and rented, only bought,
 * or only rented from the cloud that runs it (TPU pods, Trainium).  The
 * order is the catalog column's choices, "both|own|rent"; empty is both. */
enum system_sale { SALE_BOTH, SALE_OWN, SALE_RENT };

/* Cloud pricing terms; the order indexes cloud_offer.usd_per_gpu_hour. */
#define TERM_LIST(X)                                                           \
    X(ON_DEMAND, "on_demand")                                                  \
    X(RESERVED_1Y, "reserved_1y")                                              \
    X(RESERVED_3Y, "reserved_3y")                                              \
    X(SPOT, "spot")

enum cloud_term {
#define TERM_ENUM(name, str) TERM_##name,
    TERM_LIST(TERM_ENUM)
#undef TERM_ENUM
        TERM_COUNT
};

/* How racks are cooled, by density: room air, air-cooled servers behind a
 * rear-door heat exchanger, or direct-to-chip liquid (energy.h). */
enum cooling { COOLING_AIR, COOLING_LIQUID, COOLING_REAR_DOOR };

/* Attention of the model: MHA and GQA differ only by kv_heads; MLA
 * (DeepSeek-V2, Liu et al. 2024, section 2.1) projects keys and values
 * through a latent of kv_lora_rank and caches that latent plus one shared
 * RoPE key of rope_head_dim per token. */
enum model_attention { MATTN_MHA, MATTN_GQA, MATTN_MLA };

/* Model architecture.  params == 0 means "derive from the shape". */
struct model_spec {
    char id[CP_ID_MAX];
    uint64_t params;   /* total parameters when given explicitly */
    uint64_t layers;   /* L */
    uint64_t hidden;   /* h */
    uint64_t heads;    /* a */
    uint64_t kv_heads; /* a_kv; < heads is GQA/MQA */
    uint64_t ffn;      /* f, FFN inner width */
    uint64_t vocab;    /* V */
    bool gated_ffn;    /* SwiGLU-style 3-matrix FFN */
    bool tied_embeddings;
    uint64_t experts;        /* 0 or 1: dense */
    uint64_t experts_active; /* top-k */
    uint64_t shared_experts;
    uint64_t expert_ffn; /* width of one expert's FFN; 0 = ffn */
    uint64_t moe_every;  /* 1: every layer is MoE; 2: every other ... */
    /* the first n layers are dense, the rest follow moe_every (DeepSeek's
     * first_k_dense_replace); 0: none */
    uint64_t first_dense_layers;
    /* multi-token prediction modules trained beside the model (DeepSeek-V3
     * num_nextn_predict_layers, Megatron-Core --mtp-num-layers); 0: none */
    uint64_t mtp_layers;
    /* group-limited routing (DeepSeek-V3 node-limited routing, Megatron-
     * Core --moe-router-num-groups / --moe-router-group-topk): the experts
     * in moe_groups equal contiguous groups, a token's experts from its
     * best moe_group_topk of them; 0: no limit */
    uint64_t moe_groups, moe_group_topk;
    /* gpt-oss's experts: biases on both expert linear layers (the second
     * added per expert outside its GEMM) and a clamped gated activation
     * (swiglu_limit), which Megatron-Core runs as separate element-wise
     * passes (steptime.c moe_eager_time) */
    bool expert_bias;
    bool act_clamp;
    uint64_t head_dim; /* width of one head; 0 = hidden / heads */
    enum model_attention attention;
    uint64_t kv_lora_rank;  /* MLA: latent width of K and V */
    uint64_t q_lora_rank;   /* MLA: latent width of Q; 0 = 3 x kv_lora_rank */
    uint64_t rope_head_dim; /* MLA: decoupled RoPE width of Q and K heads */
};

/* One accelerator (GPU, TPU chip, OAM).  Peaks are dense (no sparsity). */
struct accel_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    char vendor[CP_ID_MAX];
    double peak_flops[PREC_COUNT]; /* FLOP/s; 0 = precision unsupported */
    double hbm_bytes;              /* usable capacity */
    double hbm_bps;                /* HBM bandwidth, bytes/s */
    double scaleup_bps;            /* per-GPU unidirectional scale-up B/s */
    double tdp_w;
    double price_usd;
    /* Measured ceilings of the hardware, each from a public benchmark
     * (data/accelerators.csv names it; see steptime.h for their use).
     * What a framework reaches of them is its stack's business. */
    double gemm_frac;       /* best measured 16-bit matmul / peak (MAMF) */
    double fp8_gemm_frac;   /* best measured 8-bit matmul / 8-bit peak */
    double fp4_gemm_frac;   /* best measured 4-bit matmul / 4-bit peak;
                               0: fp8_gemm_frac */
    double gemm_half_flops; /* GEMM size (FLOP) at which efficiency halves */
    double attn_frac;       /* best fused attention kernel, fwd+bwd / peak */
    double attn_fa2_frac;   /* FlashAttention-2 (no Hopper/Blackwell paths) */
    double hbm_frac;        /* achievable fraction of HBM bandwidth */
    double kernel_s;        /* fixed cost per kernel launch, seconds */
    double power_frac;      /* mean power while training, fraction of TDP */
    /* NCCL all-reduce at serving message sizes (1-32 MB): latency and bus
     * bandwidth fitted to a measured nccl-tests size sweep; 0: unknown
     * (serve.c then keeps the stack's custom all-reduce). */
    double nccl_ar_s;
    double nccl_ar_bps;
};

enum workload_kind { WORKLOAD_TRAIN, WORKLOAD_SERVE };

/*
 * A software stack: the training framework (or serving engine) and what it
 * achieves on the hardware's measured ceilings.  The hardware rows say what
 * the silicon can do; a stack row says how close a framework's kernels,
 * overlap and allocator come to it.  Knobs are fitted once on all published
 * runs of the stack (README, Calibration), never per case.
 */
struct stack_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    char attn_kernel[CP_ID_MAX]; /* fa2, fa3, cudnn, te, splash ...: a name */
    /* The kernels that cast to 8 bits: empty or te = Transformer
     * Engine's, fused into the op before; torchao = torchao.float8 and
     * mx_formats under torch.compile (torchtitan): dynamic tensorwise
     * float8 unless the run names a recipe, MXFP8 cast along each axis by
     * its own kernel (steptime_cast_bytes) */
    char cast_kernel[CP_ID_MAX];
    /* Accelerator vendors (accel_spec.vendor), space-separated: what it
     * runs on (empty: not stated) and where it is the default. */
    char runs_on[CP_NAME_MAX];
    char default_on[CP_NAME_MAX];
    enum workload_kind kind; /* what the stack runs */
    double gemm_eff;         /* of the measured matmul ceiling, inside a step */
    double attn_eff;         /* of the measured fused-attention ceiling */
    double fp8_eff;    /* 8-bit GEMMs: scaling recipe, relative to gemm_eff */
    double tp_overlap; /* share of TP communication hidden under GEMMs */
    double ep_overlap; /* share of the MoE all-to-all hidden (1F1B
                          overlap of one microbatch's dispatch with
                          another's compute) */
    double dp_overlap; /* share of DP gradient traffic under backward */
    double zero3_prefetch; /* ZeRO-3 layer gathers in flight ahead (0: none) */
    /* 1: the backward TP collectives run in order with the GEMMs, none
     * hidden (PyTorch DTensor TP without async TP); 0: Megatron's overlap
     * of each input-gradient reduction with the weight-gradient GEMM
     * (w19d) */
    double tp_bwd_exposed;
    /* 1: full recompute stops as soon as every tensor the backward saved
     * is back (PyTorch non-reentrant activation checkpointing, torch >=
     * 2.1 torch.utils.checkpoint early stop, on by default): a layer's
     * last GEMM, the FFN down projection, is not recomputed; 0: the whole
     * layer again (Megatron, torch < 2.1) */
    double ckpt_early_stop;
    /* share of an interleaved pipeline's sends and receives posted
     * asynchronously beside the next chunk's compute (Megatron-Core
     * --overlap-p2p-communication, on with parallel.interleave > 1); 0:
     * waited on in line (w19k) */
    double pp_overlap;
    /* ZeRO-3 at scale (w19o): DeepSpeed's cap on gathered parameters
     * resident per accelerator (stage3_max_live_parameters; 0: no cap,
     * whole layers as FSDP), and 1 when ZeRO-3 shards inside the scale-up
     * domain only, the domains being data-parallel replicas (MaxText's
     * ici_fsdp x dcn_data mesh) */
    double zero3_live_params;
    double dp_shard_domain;
    /* torchtitan's selective recompute and FSDP2 (x19a).  per_op_sac 1:
     * its selective recompute is a per-op save list (torchtitan
     * _save_list) that names the fused attention kernel's output (flash
     * and efficient SDPA) and the TP reduce-scatter, not the all-gather:
     * the attention core is not recomputed, except on Blackwell, where
     * the stack puts cuDNN SDPA first, which the list does not name
     * (spec_selective_saves_attention), and the forward's TP all-gathers
     * (all-reduces without SP) run again.  fp32_params 1: the sharded
     * parameters are the fp32 master weights and the 16-bit copy exists
     * only gathered (PyTorch FSDP2 MixedPrecisionPolicy param_dtype), so
     * under ZeRO-3 the weights are 4 bytes and the optimizer holds only
     * the moments. */
    double per_op_sac;
    double fp32_params;
    /* new key: dp_flat (d19a) */
    double dp_flat;  /* 1: data-parallel / ZeRO collectives run as one flat
                        ring over every rank of the group (DeepSpeed ZeRO,
                        PyTorch FSDP FULL_SHARD); 0: hierarchical, inside the
                        scale-up domain first, then across domains */
    double kernel_s; /* host dispatch per kernel on top of launch, s */
    double step_overhead_s;   /* framework work per step outside kernels, s */
    double mem_reserve_bytes; /* CUDA context, NCCL buffers, workspaces */
    double mem_frag_frac;     /* allocator slack, fraction of what it holds */
    double selective_keep;    /* activations kept by selective recompute,
                                 of what Megatron's keeps (1: Megatron) */
    double moe_imbalance;     /* dropless MoE: routed tokens of the busiest
                                 expert-parallel rank over the even share */
    /* 1: the grouped expert GEMM
     * is issued as one GEMM per local expert, each paying its own
     * dispatch (Transformer Engine GroupedLinear: nvte_multi_stream_
     * cublas_gemm loops cuBLAS over the experts on 4 streams); 0: one
     * grouped kernel (torch._grouped_mm, CUTLASS grouped GEMM). */
    double moe_gemm_per_expert;
    /* Serving engines (0 on training rows; serve.c).  Fitted once on the
     * published serving results (README, Calibration). */
    double mbu;            /* decode: share of the measured HBM ceiling */
    double kv_mem_frac;    /* share of free HBM the engine gives the KV */
    double max_seqs;       /* engine's cap on running sequences; 0: none */
    double allreduce_s;    /* one TP all-reduce at decode sizes, latency */
    double prefill_chunk;  /* tokens per forward pass (max_num_tokens) */
    double decode_overlap; /* share of the shorter of a step's compute and
                              memory time hidden under the longer */
    /* When the engine hands a TP all-reduce to NCCL (serve.c
     * tp_allreduce_s): at tp > 2 once tp x message bytes reach
     * ar_oneshot_bytes, at tp <= 2 once the message outgrows
     * ar_workspace_bytes; 0: never (always its custom all-reduce). */
    double ar_oneshot_bytes;
    double ar_workspace_bytes;
    /* Accelerator vendors (accel_spec.vendor), space-separated, on which
     * the serving engine runs its own TP all-reduce kernel and a fused
     * per-token x per-channel FP8 GEMM; empty: every vendor it runs on.
     * Elsewhere every all-reduce goes to the vendor's collective library
     * (serve.c tp_allreduce_s) and row-scaled FP8 GEMMs dequantise
     * unfused (serve_dequant.c).  vLLM 0.6 on ROCm: neither (x22b). */
    char custom_ar_on[CP_NAME_MAX];
    char fp8_row_fused_on[CP_NAME_MAX];
};

/* Serving inputs (README "Serving"). */
enum serve_mode { SERVE_ONLINE, SERVE_OFFLINE };

/* Weight and KV-cache precisions of a serving plan, each with the scales
 * it ships with (serve_dtype_bytes): int4/int8 are weight-only (AWQ/GPTQ:
 * the GEMMs still run in 16 bits); fp4 is NVFP4 (E2M1, an E4M3 scale per
 * 16 elements); mxfp4 is OCP MXFP4 (E2M1, an E8M0 scale per 32), run on
 * 4-bit tensor cores where the chip has them and dequantised to 16 bits
 * where it does not (gpt-oss on Hopper). */
#define SERVE_DTYPE_LIST(X)                                                    \
    X(BF16, "bf16")                                                            \
    X(FP16, "fp16")                                                            \
    X(FP8, "fp8")                                                              \
    X(INT8, "int8")                                                            \
    X(INT4, "int4")                                                            \
    X(FP4, "fp4")                                                              \
    X(MXFP4, "mxfp4")

enum serve_dtype {
#define SERVE_DTYPE_ENUM(name, str) SD_##name,
    SERVE_DTYPE_LIST(SERVE_DTYPE_ENUM)
#undef SERVE_DTYPE_ENUM
        SD_COUNT
};

enum serve_disagg { DISAGG_NO, DISAGG_YES, DISAGG_AUTO };

/* The statistic a latency target holds at: the mean, or the 50th, 90th or
 * 99th percentile over requests (SLAs and MLPerf Inference use p99). */
enum serve_pct { SERVE_PCT_MEAN, SERVE_PCT_P50, SERVE_PCT_P90, SERVE_PCT_P99 };

/* Which part of a serving deployment is measured: both phases on one
 * pool, or a prefill or decode pool alone (serve_pool.h). */
enum serve_pool { POOL_BOTH, POOL_PREFILL, POOL_DECODE };

/* serve.offload: weights keeps on the host the weight bytes that leave
 * too little HBM for the KV of one prefill chunk's requests and streams
 * them over the host link every forward pass, prefetched a layer ahead
 * (SGLang layer-wise weight offload on GB200, LMSYS blog 2025-09-25). */
enum serve_offload { SOFF_NONE, SOFF_WEIGHTS };

/* One pool's own parallelism (serve.prefill.* / serve.decode.*): 0 keeps
 * parallel.tp, parallel.ep and serve.attention_dp; gpus 0 leaves the pool
 * to be sized. */
struct serve_pool_spec {
    uint64_t gpus;
    uint64_t tp;
    uint64_t ep;
    uint64_t attention_dp;
    /* sequences one attention rank runs at most (decode pool: TensorRT-LLM
     * max_batch_size per attention-DP rank); 0: serve.max_batch's share */
    uint64_t max_batch;
};

/* The precision of the attention math (QK^T, softmax-V) in serving:
 * auto is fp8 when the KV cache is fp8 and the weights are 8 bits or
 * fewer on a chip with fp8 (TensorRT-LLM use_fp8_context_fmha), else 16
 * bits. */
enum serve_attn_prec { SATTN_AUTO, SATTN_BF16, SATTN_FP8 };

/* The precision of the MoE dispatch all-to-all (issue 22 item 3): auto
 * sends fp8 with one fp32 scale per 128 when the weights are 8 bits or
 * fewer (DeepEP low-latency and normal dispatch, SGLang and TensorRT-LLM
 * with fp8/fp4 checkpoints), else 16 bits; the combine is 16 bits either
 * way (DeepEP combines in bf16). */
enum serve_comm_prec { SCOMM_AUTO, SCOMM_BF16, SCOMM_FP8 };

struct serve_spec {
    enum serve_mode mode;
    uint64_t input_tokens;     /* mean prompt length */
    uint64_t output_tokens;    /* mean generated length */
    double requests_per_s;     /* peak arrival rate; 0: from tokens_per_day */
    double tokens_per_day;     /* output tokens per day */
    double peak_to_avg;        /* peak hour / daily mean, >= 1 */
    uint64_t concurrency;      /* closed-loop users; 0: open arrivals */
    double ttft_ms, tpot_ms;   /* targets; 0: none */
    enum serve_pct percentile; /* the targets' statistic (TTFT and TPOT) */
    uint64_t window_requests;  /* requests of a load test above capacity
                                  (the queue grows over them); 0: steady
                                  state, unbounded */
    bool window_stated;        /* the plan gives serve.window_requests: a
                                  closed loop replays that load test, its
                                  first burst included (serve_closed_window) */
    double output_cv;          /* output lengths' standard deviation over their
                                  mean: 0 all alike, 1 exponential (ShareGPT) */
    uint64_t scheduler_steps;  /* decode iterations per scheduling round
                                  (vLLM --num-scheduler-steps), >= 1 */
    int async_scheduling;      /* 1: the host's work of the next decode step
                                  runs beside this one's GPU work */
    uint64_t batch_wait_iters; /* iterations new prompts are held to batch
                                  them (0: none) */
    double batch_wait_frac;    /* ... or until the iteration's tokens reach
                                  this share of its budget */
    enum serve_dtype weights;
    /* the routed experts' weights: 0 as weights, else 1 + enum serve_dtype
     * (experts-only quantization: gpt-oss MXFP4 experts, DeepSeek-R1
     * NVFP4 experts with the rest in fp8 or bf16) */
    int expert_weights;
    enum serve_dtype kv_cache;
    enum serve_attn_prec attention; /* attention math precision */
    enum serve_comm_prec comm;      /* MoE dispatch precision (d22b) */
    double prefix_hit_frac; /* prompt share served from the prefix cache */
    enum serve_disagg disaggregated;
    uint64_t max_batch;    /* running sequences per replica; 0: auto */
    uint64_t owned_gpus;   /* hybrid: the owned base; 0: all owned */
    bool gpus_auto;        /* hardware.gpus = auto: size for the peak */
    uint64_t spec_tokens;  /* speculative draft tokens per step; 0: off */
    double spec_accept;    /* acceptance rate of one draft token */
    enum serve_pool pool;  /* both phases, or one pool measured alone */
    uint64_t attention_dp; /* attention data-parallel ranks beside MoE EP */
    struct serve_pool_spec prefill, decode; /* disaggregated pools */
    enum serve_offload offload; /* weights in host memory, streamed */
};

/* A node type (server or rack-scale system). */
struct system_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    char accel_id[CP_ID_MAX];  /* the accelerator it is built from */
    char fabric_id[CP_ID_MAX]; /* its usual scale-out fabric */
    uint64_t gpus_per_node;    /* accelerators per node */
    uint64_t scaleup_domain;   /* accelerators sharing the scale-up fabric */
    double scaleup_bps;        /* per-GPU unidirectional; 0 = accelerator's */
    double scaleup_frac;       /* achieved fraction of scale-up bandwidth */
    double host_power_w;       /* node power excluding accelerators */
    double node_price_usd;     /* whole node incl. accelerators */
    uint64_t nodes_per_rack;
    double node_mtbf_h;    /* mean time between node interruptions */
    bool nics_included;    /* node_price_usd includes the scale-out NICs */
    enum system_sale sale; /* whether it can be owned */
    uint64_t unit_gpus;    /* accelerators per purchasable unit (a server,
                              a whole NVL72 rack); 0 = gpus_per_node */
    /* the host side of ZeRO-Offload (software.offload): each accelerator's
     * achieved link to host memory, bytes/s per direction, and the node's
     * CPU cores; 0 = not stated */
    double host_link_bps;
    uint64_t host_cores;
    /* the node's CPU memory, where serve.offload=weights keeps what HBM
     * cannot hold; 0 = not stated */
    double host_mem_bytes;
};

/* Scale-out fabric. */
struct fabric_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    double gbps_per_gpu;   /* NIC bandwidth per accelerator, Gbit/s per dir */
    double latency_s;      /* end-to-end message latency (alpha) */
    double bw_frac;        /* achieved fraction of link bandwidth (NCCL) */
    uint64_t switch_radix; /* ports per switch at gbps_per_gpu */
    double switch_price_usd;
    double switch_power_w;
    double nic_price_usd;
    double nic_power_w;
    double transceiver_price_usd;
    double transceiver_power_w;
    double cable_price_usd;
    bool rail_optimized;
};

/* Shared storage tier. */
struct storage_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    double read_bps;
    double write_bps;
    double usd_per_tb;
    double watts_per_tb;
    double capacity_tb; /* provisioned capacity; 0 = sized from the job */
};

/* Site: power profile and facility costs. */
struct site_spec {
    char id[CP_ID_MAX];
    char name[CP_NAME_MAX];
    double pue;
    double usd_per_kwh;
    double kgco2_per_kwh;
    double air_kw_per_rack;    /* most an air-cooled rack may draw */
    double liquid_kw_per_rack; /* most a liquid-cooled rack may draw; 0 none */
    double colo_usd_per_kw_month; /* 0: the owner builds the facility */
    double build_usd_per_mw;      /* facility build cost per MW of IT load */
    double rear_door_kw_per_rack; /* most a rear-door-cooled rack may draw;
                                     0 = site_defaults */
    double rear_door_usd_per_kw;  /* rear-door CapEx per kW of nameplate IT */
    double liquid_usd_per_kw;     /* direct-liquid CapEx per kW (CDUs, loops) */
    double liquid_pue;            /* PUE of a direct-liquid hall; 0 = pue */
};

/* A cloud instance offer, all terms; 0 = term not offered. */
struct cloud_offer {
    char id[CP_ID_MAX];
    char provider[CP_NAME_MAX];
    char instance[CP_NAME_MAX];
    char accel_id[CP_ID_MAX];
    char region[CP_NAME_MAX];
    uint64_t gpus_per_instance;
    double usd_per_gpu_hour[TERM_COUNT];
    uint64_t capacity_gpus; /* most GPUs the offer can supply; 0 unknown */
    double spot_mtbi_h;     /* mean hours between spot preemptions of one
                               instance; 0 = COST_SPOT_MTBI_H */
};

struct train_spec {
    double tokens;         /* training tokens */
    uint64_t seq_len;      /* s */
    uint64_t global_batch; /* B, sequences per optimizer step */
    enum precision precision;
    enum optimizer optimizer;
    enum precision grad_dtype; /* FP32, BF16 or FP16 */
    enum attention attention;
    double gpu_hours;    /* known wall-clock GPU-hours of the run (e.g. a
                            published figure); 0: modelled */
    double moe_capacity; /* MoE token drop: each expert takes at most this
                            times its even share, padded to it; 0: dropless
                            (every token routed, the busiest rank sets the
                            pace: stack moe_imbalance) */
    bool batch_auto;     /* global_batch was picked by train.global_batch =
                            auto (model_auto_global_batch) */
};

/* The parallel layout.  Every degree is >= 1 once resolved. */
struct layout {
    uint64_t tp, pp, dp, cp, ep;
    uint64_t microbatch; /* b, sequences per microbatch */
    uint64_t interleave; /* v, virtual stages per GPU; 1 = plain 1F1B */
    enum recompute recompute;
    bool sequence_parallel;
    int zero; /* 0..3 */
};

struct finance_spec {
    double depreciation_years; /* life of the IT equipment */
    double cost_of_capital;    /* annual rate, e.g. 0.08 */
    double utilization;        /* in (0, 1] */
    double maintenance_frac;   /* of CapEx per year */
    double facility_years;     /* life of building, power and cooling plant */
    double residual_frac;      /* IT resale value at end of life, of its cost */
    double support_frac;       /* vendor support per year, of server CapEx */
    double insurance_frac;     /* property insurance per year, of CapEx */
    double spares_frac;        /* spare nodes bought up front, of nodes */
    double staff_usd_per_mw_year;     /* operations staff per MW of IT */
    double software_usd_per_gpu_year; /* licences (cluster manager, OS) */
};

struct reliability_spec {
    double node_mtbf_h; /* 0 = the system's */
    double restart_min;
};

/* A fraction of peak frac scaled by sc->efficiency_scale (0: 1) and
 * capped at 1: nothing runs faster than the accelerator's peak. */
static inline double spec_scaled_eff(double frac, double scale)
{
    double x = frac * (scale > 0 ? scale : 1);

    return x < 1 ? x : 1;
}

/* The routed-token load of the busiest expert-parallel rank over its even
 * share, for `experts` experts of which each token picks `top_k`, over
 * `ep` ranks.  Token drop pads every expert to its capacity factor (on
 * any number of ranks), but never beyond every token.  Dropless routing
 * leaves the busiest rank the stack's imbalance (0: balanced) when the
 * experts are spread over ranks (with ep 1 every rank has every routed
 * token), and no rank can receive more than its experts' share of every
 * token: ep min(E/ep, k) / k. */
static inline double spec_moe_load(double capacity, double imbalance,
                                   double experts, double top_k, double ep)
{
    double local = ep > 0 ? experts / ep : experts;
    double most;

    if (!(experts > 0 && top_k > 0))
        return 1;
    if (capacity > 0) {
        most = experts / top_k;
        return capacity < most ? capacity : most;
    }
    if (!(ep > 1 && imbalance > 1))
        return 1;
    most = ep * (local < top_k ? local : top_k) / top_k;
    return imbalance < most ? imbalance : most;
}

/* software.* recipe facts; each 0 is "as the stack does" (steptime.c). */
enum recipe_switch { RECIPE_STACK, RECIPE_YES, RECIPE_NO };
enum cuda_graphs {
    GRAPHS_STACK,
    GRAPHS_NONE,
    GRAPHS_ROUTER,
    GRAPHS_ATTN,
    GRAPHS_FULL
};
enum moe_dispatcher {
    DISPATCH_STACK,
    DISPATCH_ALLTOALL,
    DISPATCH_DEEPEP,
    DISPATCH_HYBRIDEP
};
/* How an 8-bit recipe scales its tensors (software.fp8_scaling): as the
 * stack's own recipe does (Transformer Engine: the scale is known before
 * the cast, which fuses into the op before), or torchao's dynamic
 * tensorwise and rowwise float8 (torchao.float8 recipes "tensorwise" and
 * "rowwise"), whose casts steptime.c prices per the torchao roofline. */
enum fp8_scaling { FP8_SCALING_STACK, FP8_SCALING_TENSOR, FP8_SCALING_ROW };

/* software.pp_schedule: the pipeline schedule; stack is the stack's 1F1B
 * (interleaved with parallel.interleave > 1). */
enum pp_schedule { SCHED_STACK, SCHED_1F1B, SCHED_DUALPIPE };

/* software.offload: where the optimizer lives.  optimizer is ZeRO-Offload
 * (Ren et al. 2021, arXiv 2101.06840; DeepSpeed offload_optimizer
 * device=cpu): the fp32 master weights and Adam's moments stay in host
 * memory, the host's CPU-Adam updates them, and every step the 16-bit
 * gradients go to the host and the updated 16-bit weights come back over
 * PCIe.  stack: the stack's (no stack offloads by default: none). */
enum offload {
    OFFLOAD_STACK,
    OFFLOAD_NONE,
    OFFLOAD_OPTIMIZER,
    /* optimizer_activations: the optimizer as above, and the activation
     * checkpoints of full recomputation in host memory too (DeepSpeed
     * activation checkpointing cpu_checkpointing): each layer's input goes
     * to the host in the forward and comes back for its recomputation */
    OFFLOAD_OPTIMIZER_ACTIVATIONS
};

/* software.recompute_modules: what selective recomputation
 * (parallel.recompute=selective) repeats, as Megatron-Core's
 * --recompute-modules names the sets the Megatron-Bridge recipes use
 * (megatron/core/transformer/transformer_config.py, recompute_modules):
 * core_attn the attention core (Megatron-Core's default); moe_act the
 * routed experts' activation function; mla_up_proj MLA's query and
 * key-value up projections and the RoPE applied to them; mlp the dense
 * layers' MLP.  stack: the stack's selective policy (the attention core
 * and what its selective_keep drops of the rest).  Other settings of
 * parallel.recompute ignore it, as Megatron-Core does. */
enum recompute_modules {
    RECMOD_STACK,
    RECMOD_CORE_ATTN,
    RECMOD_MOE_ACT,
    RECMOD_MLA_UP,
    RECMOD_MLA_UP_MLP,
    RECMOD_MLA_UP_MLP_MOE_ACT
};
/* the modules of a set, as bits (spec_recompute_mask) */
#define RECMOD_BIT_CORE_ATTN 1u
#define RECMOD_BIT_MOE_ACT 2u
#define RECMOD_BIT_MLA_UP 4u
#define RECMOD_BIT_MLP 8u

struct recipe {
    enum recipe_switch a2a_overlap; /* overlap of the MoE all-to-all */
    enum recipe_switch tp_overlap;  /* TP communication overlap */
    enum cuda_graphs graphs;        /* what CUDA graphs capture */
    enum moe_dispatcher dispatcher; /* MoE token dispatcher */
    enum fp8_scaling fp8_scaling;   /* FP8 scaling recipe (w19d) */
    /* yes: the router hands
     * every expert its even share (Megatron-Core --moe-router-force-load-
     * balancing, which benchmark recipes set), so dropless routing leaves
     * no rank busier than its share; stack and no: the stack's
     * moe_imbalance. */
    enum recipe_switch force_balance;
    /* software.prefill_chunk: the serving engine's token budget of one
     * iteration as launched (vLLM --max-num-batched-tokens, SGLang
     * --chunked-prefill-size, TensorRT-LLM --max_num_tokens); 0: the
     * stack's prefill_chunk. */
    uint64_t prefill_chunk;
    /* DualPipe (DeepSeek-V3 report section 3.2.1): two pipelines in
     * opposite directions, each device holding a stage of each */
    enum pp_schedule schedule;
    enum offload offload; /* optimizer in host memory (ZeRO-Offload) */
    /* software.checkpoint_early_stop: the run's PyTorch checkpointing
     * stops recomputing early (yes: torch >= 2.1 non-reentrant) or not
     * (no: torch 1.13, reentrant); stack: the stack's ckpt_early_stop */
    enum recipe_switch ckpt_early_stop;
    enum recompute_modules recompute_modules; /* selective recompute set */
};

/* Whether full recomputation stops before the layer's last GEMM: the
 * recipe's switch, else the stack's ckpt_early_stop. */
static inline bool spec_ckpt_early_stop(const struct recipe *r,
                                        double stack_early_stop)
{
    return r->ckpt_early_stop == RECIPE_YES ||
           (r->ckpt_early_stop == RECIPE_STACK && stack_early_stop > 0.5);
}

/* The RECMOD_BIT_* modules a recipe's selective recompute repeats; 0 for
 * RECMOD_STACK (the stack's own policy). */
static inline unsigned spec_recompute_mask(const struct recipe *r)
{
    switch (r->recompute_modules) {
    case RECMOD_CORE_ATTN:
        return RECMOD_BIT_CORE_ATTN;
    case RECMOD_MOE_ACT:
        return RECMOD_BIT_MOE_ACT;
    case RECMOD_MLA_UP:
        return RECMOD_BIT_MLA_UP;
    case RECMOD_MLA_UP_MLP:
        return RECMOD_BIT_MLA_UP | RECMOD_BIT_MLP;
    case RECMOD_MLA_UP_MLP_MOE_ACT:
        return RECMOD_BIT_MLA_UP | RECMOD_BIT_MLP | RECMOD_BIT_MOE_ACT;
    default:
        return 0;
    }
}

/* true when the optimizer states and update live on the host */
static inline bool spec_offloads_optimizer(const struct recipe *r)
{
    return r->offload == OFFLOAD_OPTIMIZER ||
           r->offload == OFFLOAD_OPTIMIZER_ACTIVATIONS;
}

/* true when the activation checkpoints live on the host */
static inline bool spec_offloads_activations(const struct recipe *r)
{
    return r->offload == OFFLOAD_OPTIMIZER_ACTIVATIONS;
}

/* The busiest expert-parallel rank's share of routed tokens over the even
 * share before any capacity: 1 when the recipe forces an even split, else
 * the stack's dropless imbalance. */
static inline double spec_routing_imbalance(const struct recipe *r,
                                            double stack_imbalance)
{
    return r->force_balance == RECIPE_YES ? 1 : stack_imbalance;
}

struct scenario {
    enum workload_kind workload;
    struct model_spec model;
    struct stack_spec stack;
    /* software.efficiency_scale: x the stack's achieved compute efficiency
     * (GEMM and attention, training and serving), for what-if ranges
     * (quote --vary mfu=LO:HI); 1 is the calibrated model.  The scaled
     * efficiency is capped at the accelerator's peak (spec_scaled_eff), so
     * MFU stays <= 1. */
    double efficiency_scale;
    /* Recipe facts (software.*): what a run turns on beyond its stack's
     * typical recipe.  0 everywhere is the stack's own behaviour (its
     * fitted overlap knobs, no CUDA graphs, the all-to-all dispatcher). */
    struct recipe recipe;
    struct train_spec train;
    struct serve_spec serve;
    struct accel_spec accel;
    struct system_spec system;
    struct fabric_spec fabric;
    struct storage_spec storage;
    struct site_spec site;
    struct cloud_offer cloud;
    enum cloud_term cloud_term;
    double cloud_usd_per_gpu_hour; /* resolved price for the term */
    uint64_t gpus;
    double oversubscription; /* >= 1 */
    /* hardware.power_limit_w: the board power cap the run set (nvidia-smi
     * -pl), W; 0: the accelerator's TDP (spec_power_clock) */
    double power_limit_w;
    struct layout layout;
    struct finance_spec finance;
    struct reliability_spec reliability;
};

/* True when the attention core writes the s x s scores to memory (timed as
 * two batched GEMMs and softmax/dropout passes, kept for backward when not
 * recomputed): train.attention standard, or auto under a stack whose
 * kernel is `unfused` (Megatron-LM 2021-22, Korthikanti et al. 2022). */
bool attention_materialised(const struct scenario *sc);

/* True when the stack's own selective recompute (parallel.recompute =
 * selective, no software.recompute_modules) keeps the fused attention
 * output rather than recomputing the attention core: stack per_op_sac,
 * a fused kernel, and not on an NVIDIA Blackwell
 * accelerator (one with MXFP8 tensor cores), where torchtitan runs cuDNN
 * SDPA (torchtitan @e7c0cae models/attention.py: CUDNN_ATTENTION first
 * when has_cuda_capability(10, 0)), whose op its _save_list does not
 * name. */
bool spec_selective_saves_attention(const struct scenario *sc);

/* The share of its TDP clocks an accelerator keeps under the run's power
 * cap (hardware.power_limit_w): dynamic power goes as C V^2 f and DVFS
 * lowers the voltage with the clock, so power goes as f^3 and the clock
 * as the cube root of cap / TDP (Hennessy & Patterson, Computer
 * Architecture 6th ed., section 1.5); static power is left out, so this
 * is the most a capped chip keeps.  1 without a cap, or one at or above
 * TDP. */
double spec_power_clock(const struct scenario *sc);

/* Expert tensor parallelism (Megatron-Core MoE "parallel folding", Liu et
 * al. 2025, arXiv 2504.14960): the expert layers regroup the tp*dp*cp
 * ranks of a stage as etp x ep x edp.  Experts split like the dense layers
 * (etp = tp) when ep divides dp*cp; otherwise EP folds over the TP ranks
 * and each expert is whole on its rank (etp = 1). */
double layout_expert_tp(const struct layout *lay);
/* The expert-data-parallel group: tp*dp*cp / (etp * ep). */
double layout_expert_dp(const struct layout *lay);

/* Names for enums (lower case, as in plan files); NULL when out of range. */
const char *precision_name(enum precision p);
const char *optimizer_name(enum optimizer o);
const char *recompute_name(enum recompute r);
const char *attention_name(enum attention a);
const char *term_name(enum cloud_term t);
const char *cooling_name(enum cooling c);
const char *model_attention_name(enum model_attention a);
const char *workload_name(enum workload_kind w);
const char *serve_dtype_name(enum serve_dtype t);
const char *serve_mode_name(enum serve_mode m);
const char *serve_disagg_name(enum serve_disagg g);
const char *recipe_switch_name(enum recipe_switch r);
const char *cuda_graphs_name(enum cuda_graphs g);
const char *moe_dispatcher_name(enum moe_dispatcher m);
const char *pp_schedule_name(enum pp_schedule s);
const char *fp8_scaling_name(enum fp8_scaling f);

/* Whether a space-separated vendor list names vendor; an empty list names
 * every vendor (a catalog row that does not say). */
bool spec_vendor_listed(const char *list, const char *vendor);
const char *offload_name(enum offload o);
const char *recompute_modules_name(enum recompute_modules r);
const char *serve_pct_name(enum serve_pct p);
const char *serve_pool_name(enum serve_pool p);
const char *serve_offload_name(enum serve_offload o);

#endif
