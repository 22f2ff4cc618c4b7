/*
 * result.h - everything scenario_eval() computes for one scenario.
 *
 * Plain data with fixed-size arrays: core never allocates.  Every double is
 * finite and non-negative after scenario_eval() (the fuzz target asserts
 * it).  Memory is per accelerator (the busiest one), in bytes; times in
 * seconds; energy in kWh; money in USD.  The exporters turn bytes into GiB
 * and so on through the metric table in export/metrics.c, so a field added
 * here is one table row away from JSON, CSV, the text table and the TUI.
 *
 * Infeasible plans are results, not errors: memory.fits is false and the
 * warnings say why.
 */
#ifndef LLMPLAN_CORE_RESULT_H
#define LLMPLAN_CORE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "spec.h"

#define RESULT_MAX_WARNINGS 16
#define RESULT_WARNING_MAX 160
#define RESULT_SERIES_MAX 61 /* months 0..60 of the cost-over-time series */
#define RESULT_YEARS_MAX 31  /* years 0..30 of the finance schedule */
#define RESULT_REASON_MAX 160
#define SERVE_CURVE_MAX 16 /* batches 1, 2, 4 ... of the serving curve */

struct model_result {
    double params;               /* total parameters */
    double active_params;        /* parameters used per token (MoE: top-k) */
    double flops_per_token;      /* model FLOPs per token, fwd+bwd (PaLM) */
    double attn_flops_per_token; /* the 12*L*a*d*s part of it */
    double layers, hidden, heads, ffn, vocab; /* the shape used (derived
                                                  when missing) */
};

struct memory_result {
    double weights_bytes;
    double gradients_bytes;
    double optimizer_bytes;
    double activations_bytes;
    double overhead_bytes; /* context, comm buffers, fragmentation, ZeRO-3
                              gathered layers and unsharded gradient */
    /* new key: memory.allocator_gib, memory.shard_buffers_gib (d19a) */
    double allocator_bytes; /* of overhead: the stack's reserve and the
                               allocator's slack (training and serving) */
    double buffers_bytes;   /* of overhead, training: ZeRO-3 / FSDP layers
                               gathered and unsharded gradient; 0 else */
    double total_bytes;     /* sum of the five above */
    double capacity_bytes;  /* accelerator HBM */
    bool fits;
    /* new key: memory.host_optimizer_gib (x19i) */
    double host_bytes; /* software.offload=optimizer: the optimizer states
                          this accelerator keeps in host memory; 0 else */
    /* new key: memory.host_weights_gib (w22g) */
    double host_weights_bytes; /* serve.offload=weights: the weight bytes
                                  this GPU leaves in host memory; 0 else */
};

struct time_result {
    double step_s;       /* one optimizer step */
    double compute_s;    /* compute on the critical path, incl. recompute */
    double bubble_s;     /* pipeline fill and drain */
    double tp_comm_s;    /* exposed tensor-parallel communication */
    double pp_comm_s;    /* exposed pipeline point-to-point */
    double dp_comm_s;    /* exposed data-parallel / ZeRO communication */
    double cp_comm_s;    /* exposed context-parallel communication */
    double ep_comm_s;    /* exposed expert-parallel all-to-all */
    double optimizer_s;  /* optimizer step (part of compute_s) */
    double microbatches; /* per pipeline per step, m */
    double tokens_per_s;
    double model_tflops_per_gpu;
    double hw_tflops_per_gpu;
    double mfu;
    double hfu;
    double steps;
    double train_days; /* steady state */
    double gpu_hours;  /* steady state */
};

struct reliability_result {
    double cluster_mtbf_h;
    double failures;                /* expected interruptions over the run */
    double checkpoint_interval_min; /* Young/Daly */
    double lost_frac;               /* 1 - goodput */
    double goodput;
    double effective_train_days;
    /* Failures outpace progress: the run never finishes; its time, cost
     * and energy are unknown (reason says why). */
    bool never;
    char reason[RESULT_REASON_MAX];
};

struct storage_result {
    double checkpoint_bytes;
    double checkpoint_write_s;
    double ingest_bytes_per_s;
    double capacity_bytes;    /* raw capacity the job needs (storage.h) */
    double checkpoints_bytes; /* the checkpoints kept */
    double dataset_bytes;     /* text and tokens */
    double scratch_bytes;
    double provisioned_bytes; /* what is bought and powered: the plan's
                                 hardware.storage_tb, else capacity */
};

/* Network bill of materials for the scale-out fabric. */
struct network_result {
    uint64_t nodes;
    uint64_t racks;
    uint64_t tiers; /* 0 (no scale-out fabric), 1, 2 or 3 switch tiers */
    uint64_t nics;
    uint64_t leaf_switches;
    uint64_t spine_switches;
    uint64_t core_switches;
    uint64_t cables;
    uint64_t transceivers;
    double capex_usd;
    double power_w;
};

struct energy_result {
    double gpu_kw;  /* accelerators under training load */
    double host_kw; /* the rest of the nodes */
    double network_kw;
    double storage_kw;
    double it_kw;
    double facility_kw;
    double it_mwh; /* over effective_train_days */
    double facility_mwh;
    double tco2e;
    double rack_kw;
    enum cooling cooling;
    double nameplate_it_kw; /* provisioned draw: what the hall is built for */
    double idle_it_kw;      /* draw of the powered cluster when idle */
    double pue;             /* the PUE used (liquid halls: site.liquid_pue) */
};

struct build_cost {
    double capex_usd;   /* everything bought up front, the sum of the lines */
    double cash_usd;    /* the cash the build commits: capex_usd */
    uint64_t units;     /* whole purchasable units bought (servers, racks) */
    uint64_t unit_gpus; /* accelerators per unit (system.unit_gpus) */
    double capex_nodes_usd;
    double capex_spares_usd; /* spare nodes */
    double capex_network_usd;
    double capex_storage_usd;
    double capex_facility_usd; /* the hall, sized on nameplate IT power */
    double capex_cooling_usd;  /* rear doors or direct-liquid plant */
    double residual_usd;       /* value left at the end of the IT life */
    double annual_capital_usd; /* level payments that repay the capital */
    double opex_usd_per_year;  /* at finance.utilization */
    double electricity_usd_per_year;
    double maintenance_usd_per_year;
    double colocation_usd_per_year;
    double support_usd_per_year;
    double insurance_usd_per_year;
    double staff_usd_per_year;
    double software_usd_per_year;
    double usd_per_gpu_hour; /* per busy GPU-hour */
    double run_usd;          /* the run's share: capital recovery and running
                                costs of its busy hours at finance.utilization */
    double usd_per_mtok;     /* per million training tokens */
    double npv_usd;          /* present cost over the IT life */
};

struct cloud_cost {
    char offer[CP_ID_MAX];
    enum cloud_term term;
    double usd_per_gpu_hour;      /* the list rate for the term */
    uint64_t billed_gpus;         /* whole instances x gpus_per_instance */
    uint64_t instances;           /* whole instances rented */
    uint64_t capacity_gpus;       /* the offer's published capacity; 0 not
                                     published (unknown) */
    double usd_per_used_gpu_hour; /* what a busy GPU-hour costs at the
                                     plan's utilization */
    double commitment_usd;        /* one reserved term, used or not */
    bool never;      /* the rented run never finishes (spot preemptions and
                        failures outpace progress): run_usd unknown */
    double goodput;  /* spot: preemptions included */
    double cash_usd; /* the cash it commits: reserved, every term the run
                        starts in full; on demand and spot, the bill */
    double run_usd;  /* on demand, spot: the bill; reserved: the
                        commitment's share the run uses at
                        finance.utilization (the rest of the term is
                        reused), at most cash_usd */
    double usd_per_mtok;
    double usd_per_year; /* at finance.utilization */
    double npv_usd;      /* present cost over the IT life */
};

/* Inputs the money could not be priced from (cost_result.unpriced). */
enum cost_unpriced {
    COST_UNPRICED_NODES = 1 << 0,
    COST_UNPRICED_NETWORK = 1 << 1,
    COST_UNPRICED_STORAGE = 1 << 2,
    COST_UNPRICED_FACILITY = 1 << 3,
    COST_UNPRICED_CLOUD = 1 << 4,
    COST_UNPRICED_UNSOLD = 1 << 5, /* the system is rented only (sale) */
};
#define COST_UNPRICED_BUILD                                                    \
    (COST_UNPRICED_NODES | COST_UNPRICED_NETWORK | COST_UNPRICED_STORAGE |     \
     COST_UNPRICED_FACILITY | COST_UNPRICED_UNSOLD)

/* Verdict of the build-vs-cloud comparison. */
enum cost_verdict { VERDICT_NONE, VERDICT_BUILD, VERDICT_CLOUD };

/* One year of the finance schedule (year 0: the purchase). */
struct cost_year {
    double capex_usd;
    double depreciation_usd; /* straight line to the residual */
    double energy_usd;
    double other_opex_usd;
    double residual_usd; /* resale value recovered (last year) */
    double burst_usd;    /* cloud bill above an owned base (hybrid), in
                            both the build and the cloud cash */
    double build_usd;    /* cash out this year */
    double cloud_usd;
    double build_cumulative_usd;
    double cloud_cumulative_usd;
    double build_npv_usd; /* present value of the cash so far */
    double cloud_npv_usd;
};

struct cost_result {
    struct build_cost build;
    struct cloud_cost cloud;
    /* Utilization at which owning and renting cost the same over the
     * life, and the discounted payback; each is valid only when its
     * *_known flag is set, else breakeven_reason says why. */
    double breakeven_utilization;
    double breakeven_months;
    bool breakeven_utilization_known;
    bool breakeven_months_known;
    char breakeven_reason[RESULT_REASON_MAX];
    unsigned unpriced; /* enum cost_unpriced bits */
    enum cost_verdict verdict;
    bool build_cheaper;      /* verdict == VERDICT_BUILD */
    double horizon_months;   /* the IT life the NPVs cover */
    uint64_t schedule_years; /* rows used in schedule[] (years 0..n) */
    struct cost_year schedule[RESULT_YEARS_MAX];
    /* Cumulative cost of running the same work back to back, month by
     * month: build (CapEx up front + OpEx) and cloud. */
    uint64_t series_months;
    double series_build_usd[RESULT_SERIES_MAX];
    double series_cloud_usd[RESULT_SERIES_MAX];
};

/*
 * The load a workload puts on the fleet: the one description energy,
 * network, storage and cost read, whatever the workload.  Training fills
 * it from step time and reliability, serving from replicas and the daily
 * profile (scenario.c).  A reader never looks at time or reliability.
 */
struct load_result {
    double gpus;           /* accelerators provisioned (the fleet) */
    double nodes;          /* nodes holding them */
    double wall_h;         /* wall-clock hours the fleet draws power */
    double busy_gpu_hours; /* GPU-hours paid for, failures included */
    double goodput;        /* useful share of busy_gpu_hours, (0, 1] */
    double power_frac;     /* mean accelerator draw, fraction of TDP */
    double tokens;         /* tokens the work is for (per-token prices) */
    /* Share of the fleet's hours the work keeps it busy, (0, 1]: set by
     * a workload whose own profile knows it (serving: its daily demand);
     * 0 leaves the plan's finance.utilization. */
    double busy_frac;
    /* GPU-hours over wall_h the work rents from the cloud beyond the
     * fleet (a hybrid's burst above its owned base). */
    double burst_gpu_hours;
};

/* Why a serving plan is not met (serve_result.reason says it in words):
 * a target (the prompt alone or one decode step already too slow, or a
 * pool missing it), the load above capacity, memory, or something else
 * (an input, latency at a given load missing both targets). */
enum serve_miss {
    SERVE_MISS_NONE,
    SERVE_MISS_TTFT,
    SERVE_MISS_TPOT,
    SERVE_MISS_CAPACITY,
    SERVE_MISS_MEMORY,
    SERVE_MISS_OTHER,
};

/*
 * Serving (serve.c, README "Serving").  Memory per GPU of a replica;
 * latencies at the batch the plan runs as distributions over requests
 * (mean, p50, p90, p99; TTFT queueing included; TPOT the mean time between
 * output tokens of one request after the first); throughput of the whole
 * fleet at peak demand, or of the given fleet at the targets; money per
 * day over the daily profile.
 */
struct serve_result {
    double kv_bytes_per_token;     /* one token's KV, whole model */
    double kv_bytes_per_token_gpu; /* ... held by one GPU (TP split or
                                      duplicated) */
    double weights_bytes;          /* per GPU */
    double kv_bytes;               /* KV cache pool per GPU */
    double max_batch;      /* running sequences memory and engine allow */
    double batch;          /* running sequences at the operating point */
    double prefill_ms;     /* one prompt's prefill, no queueing */
    double decode_step_ms; /* one decode iteration at the batch */
    double queue_ms;       /* TTFT queueing, mean */
    double ttft_ms;        /* prefill + queueing (+ KV transfer), mean */
    double ttft_p50_ms;    /* ... over requests: median */
    double ttft_p90_ms;    /* ... 90th percentile */
    double ttft_p99_ms;    /* ... 99th percentile */
    double tpot_ms;        /* per output token after the first, mean */
    double tpot_p50_ms;    /* one request's TPOT over requests */
    double tpot_p90_ms;
    double tpot_p99_ms;
    double e2e_s; /* ttft + (output - 1) x tpot, means */
    /* false when there is no latency to report: the memory does not fit,
     * or the offered rate exceeds capacity with no window
     * (serve.window_requests = 0: the queue grows without bound).  The
     * latencies above are then 0 and exporters show null. */
    bool latency_known;
    bool saturated; /* offered rate above capacity: throughput = capacity */
    double capacity_requests_per_s; /* the fleet at no target (open loop) */
    double tokens_per_step;         /* speculative decoding: accepted + 1 */
    double output_tokens_per_s;     /* the fleet */
    double output_tokens_per_s_per_gpu;
    double input_tokens_per_s;
    double requests_per_s;        /* the fleet's, at the operating point */
    double demand_requests_per_s; /* peak demand; 0: none given */
    double utilization;           /* peak demand / fleet capacity */
    double replicas;
    double gpus_per_replica;
    double gpus;         /* prefill + decode */
    double prefill_gpus; /* disaggregated prefill pool; else 0 */
    double decode_gpus;  /* disaggregated decode pool; else 0 */
    bool disaggregated;
    /* POOL_BOTH, or the one pool measured alone (serve.pool): a decode
     * pool takes no prompts (their KV arrives), so it has no input
     * tokens of its own */
    enum serve_pool pool;
    bool prefill_bound; /* own pools (serve_pool.h): prefill limits the rate */
    bool fits;          /* the targets and memory can be met */
    double prefill_time_frac;            /* share of GPU time on prompts */
    double fleet_gpu_hours_per_day;      /* GPU-hours the demand needs a day */
    double usd_per_day_build;            /* all-owned fleet, per day */
    double usd_per_day_cloud;            /* the same fleet rented, per day */
    double usd_per_mtok_build;           /* output tokens, owned */
    double usd_per_mtok_cloud;           /* output tokens, rented */
    double usd_per_mtok_input_build;     /* prompt tokens, owned */
    double usd_per_mtok_input_cloud;     /* prompt tokens, rented */
    double wh_per_mtok;                  /* facility energy per M output tok */
    double owned_gpus;                   /* hybrid: owned base (0: none) */
    double burst_gpu_hours_per_day;      /* above the owned base */
    double owned_idle_gpu_hours_per_day; /* owned base left idle */
    double burst_usd_per_day;            /* burst x cloud price */
    double usd_per_day_hybrid;           /* owned base + burst */
    /* Whole units: the owned fleet in purchasable units (cost.build.units
     * x unit_gpus GPUs are priced), the rented one in instances. */
    double instances;                /* ceil(gpus / gpus_per_instance) */
    double billed_gpu_hours_per_day; /* the cloud's, whole instances */
    /* Cash committed: owned, the capex; reserved, the whole commitment
     * of the fleet for one term; on demand and spot, a day's bill;
     * hybrid, the base's capex and a day's burst bill. */
    double cash_usd_build, cash_usd_cloud, cash_usd_hybrid;
    char reason[RESULT_WARNING_MAX]; /* why it does not fit; "" if it does */
    enum serve_miss miss;            /* the same, as a fact a caller can test */
    /* The throughput-latency curve of one replica: closed-loop batches
     * 1, 2, 4 ... up to max_batch, output tokens/s per GPU against one
     * user's tokens/s (1 / TPOT). */
    uint64_t curve_n;
    double curve_batch[SERVE_CURVE_MAX];
    double curve_tok_s_gpu[SERVE_CURVE_MAX];
    double curve_user_tok_s[SERVE_CURVE_MAX];
};

struct result {
    enum workload_kind workload; /* what was evaluated */
    struct layout layout;        /* the layout evaluated */
    struct model_result model;
    struct memory_result memory;
    struct time_result time;
    struct reliability_result reliability;
    struct storage_result storage;
    struct network_result network;
    struct energy_result energy;
    struct cost_result cost;
    struct load_result load;
    struct serve_result serve;
    char bottleneck[32]; /* "compute", "tp_comm", "memory", ... */
    uint64_t nwarnings;
    char warnings[RESULT_MAX_WARNINGS][RESULT_WARNING_MAX];
};

/* Append a warning (printf-style); silently drops past the maximum and
 * never duplicates an identical text. */
void result_warn(struct result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
