/*
 * metrics.c - the metric table; see metrics.h.  Formulas are summaries of
 * the README's "The model", which has the sources.
 */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/serve.h"
#include "export/metrics.h"

#define GIB (1.0 / 1073741824.0)
#define OFF(f) offsetof(struct result, f)

static const char *recompute_text(const struct result *r)
{
    const char *s = recompute_name(r->layout.recompute);

    return s ? s : "";
}

static const char *cooling_text(const struct result *r)
{
    return cooling_name(r->energy.cooling);
}

static const char *cheaper_text(const struct result *r)
{
    switch (r->cost.verdict) {
    case VERDICT_BUILD:
        return "build";
    case VERDICT_CLOUD:
        return "cloud";
    default:
        return "";
    }
}

static const char *reason_text(const struct result *r)
{
    return r->cost.breakeven_reason;
}

static bool build_known(const struct result *r)
{
    return !(r->cost.unpriced & COST_UNPRICED_BUILD);
}

/* A system that is not sold has no build side at all. */
static bool sold(const struct result *r)
{
    return !(r->cost.unpriced & COST_UNPRICED_UNSOLD);
}

static bool cloud_known(const struct result *r)
{
    return !(r->cost.unpriced & COST_UNPRICED_CLOUD);
}

/* The run finishes (failures do not outpace progress, reliability.h):
 * its time, energy and cost exist. */
static bool finishes(const struct result *r)
{
    return !r->reliability.never;
}

static bool rented_finishes(const struct result *r)
{
    return finishes(r) && !r->cost.cloud.never;
}

static bool build_run_known(const struct result *r)
{
    return build_known(r) && finishes(r);
}

static bool cloud_run_known(const struct result *r)
{
    return cloud_known(r) && rented_finishes(r);
}

/* The running costs a finance team expects that the plan leaves at 0
 * (scenario.c finance_sources says why), "support, staff": every
 * output lists them as excluded. */
static const char *excluded_text(const struct result *r)
{
    static const struct {
        const char *name;
        size_t off;
    } lines[] = {
        {"support", OFF(cost.build.support_usd_per_year)},
        {"insurance", OFF(cost.build.insurance_usd_per_year)},
        {"staff", OFF(cost.build.staff_usd_per_year)},
        {"software", OFF(cost.build.software_usd_per_year)},
    };
    static char buf[64];
    size_t i, n = 0;
    double v;

    buf[0] = '\0';
    for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        memcpy(&v, (const char *)r + lines[i].off, sizeof(v));
        if (v > 0)
            continue;
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "",
                              lines[i].name);
    }
    return buf;
}

static bool excluded_known(const struct result *r)
{
    return build_known(r) && excluded_text(r)[0] != '\0';
}

/* Per million training tokens: a serving plan's per-token costs are
 * serve.usd_per_mtok_build and _cloud (one name, one meaning), so these
 * are null there. */
static bool build_train_known(const struct result *r)
{
    return build_run_known(r) && r->workload == WORKLOAD_TRAIN;
}

static bool cloud_train_known(const struct result *r)
{
    return cloud_run_known(r) && r->workload == WORKLOAD_TRAIN;
}

static bool nodes_known(const struct result *r)
{
    return !(r->cost.unpriced & (COST_UNPRICED_NODES | COST_UNPRICED_UNSOLD));
}

static bool network_known(const struct result *r)
{
    return !(r->cost.unpriced & (COST_UNPRICED_NETWORK | COST_UNPRICED_UNSOLD));
}

static bool storage_known(const struct result *r)
{
    return !(r->cost.unpriced & (COST_UNPRICED_STORAGE | COST_UNPRICED_UNSOLD));
}

static bool facility_known(const struct result *r)
{
    return !(r->cost.unpriced & (COST_UNPRICED_FACILITY | COST_UNPRICED_UNSOLD));
}

static bool verdict_known(const struct result *r)
{
    return r->cost.verdict != VERDICT_NONE;
}

/* An offer's published capacity; unknown (null) when it has none. */
static bool capacity_known(const struct result *r)
{
    return cloud_known(r) && r->cost.cloud.capacity_gpus > 0;
}

static bool be_util_known(const struct result *r)
{
    return r->cost.breakeven_utilization_known;
}

static bool be_months_known(const struct result *r)
{
    return r->cost.breakeven_months_known;
}

static bool reason_known(const struct result *r)
{
    return r->cost.breakeven_reason[0] != '\0';
}

static const char *offer_text(const struct result *r)
{
    return r->cost.cloud.offer;
}

static const char *term_text(const struct result *r)
{
    const char *s = term_name(r->cost.cloud.term);

    return s ? s : "";
}

static const char *serve_reason_text(const struct result *r)
{
    return r->serve.reason;
}

/* Latency exists unless the memory does not fit or the queue grows
 * without bound (serve.latency_known). */
static bool latency_known(const struct result *r)
{
    return r->serve.latency_known;
}

/* Tokens follow the first: not from a prefill pool measured alone
 * (serve.pool = prefill), which hands every request to a decode pool
 * after its first token, so it has no TPOT, decode step or end to end. */
static bool tpot_known(const struct result *r)
{
    return serve_tpot_known(&r->serve);
}

/* A decode step is taken: not by a prefill pool measured alone. */
static bool decodes(const struct result *r)
{
    return r->serve.pool != POOL_PREFILL;
}

/* Prompts are processed: not by a decode pool measured alone
 * (serve.pool = decode), which receives their KV and reports what it
 * does, output tokens. */
static bool prompts_known(const struct result *r)
{
    return r->serve.pool != POOL_DECODE;
}

static const char *bottleneck_text(const struct result *r)
{
    return r->bottleneck;
}

#define F(sec, key, unit, field, scale, better, formula)                       \
    {                                                                          \
        sec, key, unit, MK_F64, OFF(field), scale, NULL, better, formula, NULL \
    }
#define U(sec, key, unit, field, better, formula)                              \
    {                                                                          \
        sec, key, unit, MK_U64, OFF(field), 1, NULL, better, formula, NULL     \
    }
#define B(sec, key, field, formula)                                            \
    {                                                                          \
        sec, key, "", MK_BOOL, OFF(field), 1, NULL, MB_NONE, formula, NULL     \
    }
#define T(sec, key, fn, formula)                                               \
    {                                                                          \
        sec, key, "", MK_TEXT, 0, 1, fn, MB_NONE, formula, NULL                \
    }
/* A money metric that exists only when `known` says so. */
#define FK(sec, key, unit, field, better, known, formula)                      \
    {                                                                          \
        sec, key, unit, MK_F64, OFF(field), 1, NULL, better, formula, known    \
    }

/* MUST keep sections contiguous, in the JSON order of README "Output". */
static const struct metric table[] = {
    F("model", "params", "", model.params, 1, MB_NONE,
      "total parameters: embeddings + L x (attention + FFN/experts + norms)"),
    F("model", "active_params", "", model.active_params, 1, MB_NONE,
      "parameters used per token (MoE: top-k and shared experts)"),
    F("model", "flops_per_token", "FLOP", model.flops_per_token, 1, MB_NONE,
      "6 x matmul params + 12 x L x a x d x s (PaLM, fwd+bwd)"),

    U("layout", "tp", "", layout.tp, MB_NONE, "tensor-parallel degree"),
    U("layout", "pp", "", layout.pp, MB_NONE, "pipeline-parallel degree"),
    U("layout", "dp", "", layout.dp, MB_NONE, "data-parallel degree"),
    U("layout", "cp", "", layout.cp, MB_NONE, "context-parallel degree"),
    U("layout", "ep", "", layout.ep, MB_NONE, "expert-parallel degree"),
    U("layout", "microbatch", "seq", layout.microbatch, MB_NONE,
      "sequences per microbatch"),
    F("layout", "microbatches", "", time.microbatches, 1, MB_NONE,
      "m = global_batch / (dp x microbatch), per pipeline per step"),
    U("layout", "interleave", "", layout.interleave, MB_NONE,
      "virtual pipeline stages per GPU"),
    T("layout", "recompute", recompute_text, "activation recomputation"),
    B("layout", "sequence_parallel", layout.sequence_parallel,
      "Megatron sequence parallelism"),
    {"layout", "zero", "", MK_INT, OFF(layout.zero), 1, NULL, MB_NONE,
     "ZeRO stage over the data-parallel group", NULL},

    F("memory", "weights_gib", "GiB", memory.weights_bytes, GIB, MB_LOWER,
      "params per GPU x bytes per weight (sharded by tp, pp, ep, ZeRO-3; "
      "4 where the shards are the fp32 master, stack fp32_params)"),
    F("memory", "gradients_gib", "GiB", memory.gradients_bytes, GIB, MB_LOWER,
      "params per GPU x gradient bytes (sharded by ZeRO-2+)"),
    F("memory", "optimizer_gib", "GiB", memory.optimizer_bytes, GIB, MB_LOWER,
      "fp32 master weights + moments (12 B/param for Adam; ZeRO-1+ shards; "
      "moments only under stack fp32_params)"),
    F("memory", "activations_gib", "GiB", memory.activations_bytes, GIB,
      MB_LOWER,
      "s b h L/pp x (34 + 5 a s/h) / tp, less with recompute/SP "
      "(Korthikanti 2022)"),
    F("memory", "overhead_gib", "GiB", memory.overhead_bytes, GIB, MB_LOWER,
      "CUDA context, communication buffers, fragmentation; serving: the "
      "runtime reserve + the KV the largest batch uses (serve.kv_gib is the "
      "pool) + the free memory the engine keeps back"),
    /* new key: memory.allocator_gib, memory.shard_buffers_gib (d19a) */
    F("memory", "allocator_gib", "GiB", memory.allocator_bytes, GIB, MB_LOWER,
      "of overhead: the stack's reserve (mem_reserve_gib) + the caching "
      "allocator's slack (mem_frag_frac x activations)"),
    F("memory", "shard_buffers_gib", "GiB", memory.buffers_bytes, GIB,
      MB_LOWER,
      "of overhead, ZeRO-3/FSDP: (1 + zero3_prefetch) gathered layers in 16 "
      "bits + one unsharded layer gradient"),
    F("memory", "total_gib", "GiB", memory.total_bytes, GIB, MB_LOWER,
      "weights + gradients + optimizer + activations + overhead, on the "
      "busiest accelerator"),
    F("memory", "capacity_gib", "GiB", memory.capacity_bytes, GIB, MB_NONE,
      "accelerator HBM capacity"),
    B("memory", "fits", memory.fits, "total_gib <= capacity_gib"),
    /* new key: memory.host_optimizer_gib (x19i) */
    F("memory", "host_optimizer_gib", "GiB", memory.host_bytes, GIB, MB_LOWER,
      "software.offload=optimizer: the optimizer states (12 B/param for "
      "Adam; ZeRO-1+ shards) this GPU keeps in host memory; 0 else"),
    /* new key: memory.host_weights_gib (w22g) */
    F("memory", "host_weights_gib", "GiB", memory.host_weights_bytes, GIB,
      MB_LOWER,
      "serve.offload=weights: the weights this GPU leaves in host memory and "
      "streams over the host link every forward pass; 0 else"),

    F("serve", "kv_bytes_per_token", "B", serve.kv_bytes_per_token, 1, MB_LOWER,
      "2 x layers x kv_heads x head_dim x bytes(kv); MLA: layers x "
      "(kv_lora_rank + rope_head_dim) x bytes"),
    F("serve", "kv_bytes_per_token_gpu", "B", serve.kv_bytes_per_token_gpu, 1,
      MB_LOWER, "per GPU: split by tp while tp <= kv_heads, else duplicated"),
    F("serve", "weights_gib", "GiB", serve.weights_bytes, GIB, MB_LOWER,
      "params x bytes(weights) / (tp x pp); embeddings in 16 bits"),
    F("serve", "kv_gib", "GiB", serve.kv_bytes, GIB, MB_HIGHER,
      "KV pool per GPU: kv_mem_frac x (HBM - weights - activations - "
      "reserve)"),
    F("serve", "max_batch", "seq", serve.max_batch, 1, MB_HIGHER,
      "kv_gib / (KV per token per GPU x (input + output)), engine cap"),
    F("serve", "batch", "seq", serve.batch, 1, MB_NONE,
      "running sequences per replica at the operating point (Little)"),
    F("serve", "prefill_ms", "ms", serve.prefill_ms, 1, MB_LOWER,
      "one prompt alone: (2 x active params x tokens + attention) / "
      "(tp x GEMM rate), at least one weight read, + all-reduces"),
    FK("serve", "decode_step_ms", "ms", serve.decode_step_ms, MB_LOWER,
       decodes,
       "max((weights + batch x context x KV) / (HBM x MBU), GEMMs) + 2 x "
       "layers all-reduces + host overhead"),
    FK("serve", "queue_ms", "ms", serve.queue_ms, MB_LOWER, latency_known,
       "mean wait before the prefill (M/M/1) + half a step, + the load "
       "test's queue above capacity"),
    FK("serve", "ttft_ms", "ms", serve.ttft_ms, MB_LOWER, latency_known,
       "time to first token = queueing + prefill, mean over requests"),
    FK("serve", "ttft_p50_ms", "ms", serve.ttft_p50_ms, MB_LOWER,
       latency_known, "TTFT median: M/M/1 wait quantile + prefill"),
    FK("serve", "ttft_p90_ms", "ms", serve.ttft_p90_ms, MB_LOWER,
       latency_known, "TTFT 90th percentile"),
    FK("serve", "ttft_p99_ms", "ms", serve.ttft_p99_ms, MB_LOWER,
       latency_known, "TTFT 99th percentile"),
    FK("serve", "tpot_ms", "ms", serve.tpot_ms, MB_LOWER, tpot_known,
       "mean time between output tokens of one request after the first: "
       "decode step / tokens per step / (1 - prefill share)"),
    FK("serve", "tpot_p50_ms", "ms", serve.tpot_p50_ms, MB_LOWER,
       tpot_known, "TPOT median over requests (normal approximation)"),
    FK("serve", "tpot_p90_ms", "ms", serve.tpot_p90_ms, MB_LOWER,
       tpot_known,
       "TPOT 90th percentile: mean + 1.28 sd (prompt stalls, batch)"),
    FK("serve", "tpot_p99_ms", "ms", serve.tpot_p99_ms, MB_LOWER,
       tpot_known, "TPOT 99th percentile: mean + 2.33 sd"),
    FK("serve", "e2e_s", "s", serve.e2e_s, MB_LOWER, tpot_known,
       "end to end = ttft + (output_tokens - 1) x tpot, means"),
    F("serve", "tokens_per_step", "", serve.tokens_per_step, 1, MB_HIGHER,
      "speculative decoding: (1 - a^(g+1)) / (1 - a); 1 without"),
    F("serve", "output_tokens_per_s", "tok/s", serve.output_tokens_per_s, 1,
      MB_HIGHER, "requests_per_s x output_tokens, the whole fleet"),
    F("serve", "output_tokens_per_s_per_gpu", "tok/s",
      serve.output_tokens_per_s_per_gpu, 1, MB_HIGHER,
      "output_tokens_per_s / gpus"),
    FK("serve", "input_tokens_per_s", "tok/s", serve.input_tokens_per_s,
       MB_HIGHER, prompts_known,
       "requests_per_s x input_tokens (none on a decode pool alone)"),
    F("serve", "requests_per_s", "req/s", serve.requests_per_s, 1, MB_HIGHER,
      "peak demand served, or the fleet's capacity at the targets"),
    F("serve", "demand_requests_per_s", "req/s", serve.demand_requests_per_s, 1,
      MB_NONE,
      "serve.requests_per_s, or tokens_per_day / output_tokens / 86400 x "
      "peak_to_avg"),
    F("serve", "capacity_requests_per_s", "req/s",
      serve.capacity_requests_per_s, 1, MB_HIGHER,
      "open arrivals: the most the fleet serves, no target (0: a fleet "
      "sized for the demand at its targets, below it by construction)"),
    B("serve", "saturated", serve.saturated,
      "offered rate above capacity: throughput = capacity, queue grows"),
    F("serve", "utilization", "", serve.utilization, 1, MB_NONE,
      "peak demand / (replicas x capacity of a replica at the targets)"),
    F("serve", "replicas", "", serve.replicas, 1, MB_LOWER,
      "ceil(peak demand / capacity of a replica), or gpus / (tp x pp)"),
    F("serve", "gpus_per_replica", "", serve.gpus_per_replica, 1, MB_NONE,
      "tp x pp"),
    F("serve", "gpus", "", serve.gpus, 1, MB_LOWER,
      "replicas x gpus_per_replica (prefill + decode pools)"),
    F("serve", "prefill_gpus", "", serve.prefill_gpus, 1, MB_NONE,
      "disaggregated prefill pool (0: not disaggregated)"),
    F("serve", "decode_gpus", "", serve.decode_gpus, 1, MB_NONE,
      "disaggregated decode pool (0: not disaggregated)"),
    B("serve", "fits", serve.fits, "memory and latency targets can be met"),
    T("serve", "reason", serve_reason_text,
      "why it does not fit (empty when it does)"),
    T("serve", "bottleneck", bottleneck_text,
      "prefill when prompts take most of the GPU time, else decode"),
    F("serve", "prefill_time_frac", "", serve.prefill_time_frac, 1, MB_NONE,
      "share of GPU time spent on prompts"),
    F("serve", "fleet_gpu_hours_per_day", "GPU h/day",
      serve.fleet_gpu_hours_per_day, 1, MB_LOWER,
      "GPU-hours the daily profile needs"),
    F("serve", "usd_per_mtok_build", "USD/Mtok", serve.usd_per_mtok_build, 1,
      MB_LOWER, "owned $/day x decode share / M output tokens a day"),
    F("serve", "usd_per_mtok_cloud", "USD/Mtok", serve.usd_per_mtok_cloud, 1,
      MB_LOWER, "cloud $/day x decode share / M output tokens a day"),
    FK("serve", "usd_per_mtok_input_build", "USD/Mtok",
       serve.usd_per_mtok_input_build, MB_LOWER, prompts_known,
       "owned $/day x prefill share / M input tokens a day"),
    FK("serve", "usd_per_mtok_input_cloud", "USD/Mtok",
       serve.usd_per_mtok_input_cloud, MB_LOWER, prompts_known,
       "cloud $/day x prefill share / M input tokens a day"),
    F("serve", "wh_per_mtok", "Wh/Mtok", serve.wh_per_mtok, 1, MB_LOWER,
      "facility kW x 24 h / M output tokens a day"),
    F("serve", "usd_per_day_build", "USD/day", serve.usd_per_day_build, 1,
      MB_LOWER, "(capital recovery + OpEx a year) / 365 of the whole owned "
      "fleet, busy or not"),
    F("serve", "usd_per_day_cloud", "USD/day", serve.usd_per_day_cloud, 1,
      MB_LOWER,
      "cloud price x GPU-hours of whole instances (on demand, spot: the "
      "profile; reserved: the fleet all day)"),
    F("serve", "usd_per_day_hybrid", "USD/day", serve.usd_per_day_hybrid, 1,
      MB_LOWER, "owned base per day + burst"),
    F("serve", "instances", "", serve.instances, 1, MB_LOWER,
      "rented: whole instances, ceil(gpus / gpus_per_instance)"),
    F("serve", "cash_usd_build", "USD", serve.cash_usd_build, 1, MB_LOWER,
      "cash owning commits: the capex of whole units"),
    F("serve", "cash_usd_cloud", "USD", serve.cash_usd_cloud, 1, MB_LOWER,
      "cash renting commits: reserved, a term of the fleet; on demand, "
      "spot, a day's bill"),
    F("serve", "cash_usd_hybrid", "USD", serve.cash_usd_hybrid, 1, MB_LOWER,
      "hybrid: the base's capex + a day's burst bill"),
    F("serve", "owned_gpus", "", serve.owned_gpus, 1, MB_NONE,
      "hybrid: owned base (serve.owned_gpus)"),
    F("serve", "burst_gpu_hours_per_day", "GPU h/day",
      serve.burst_gpu_hours_per_day, 1, MB_LOWER,
      "GPU-hours of the profile above the owned base"),
    F("serve", "owned_idle_gpu_hours_per_day", "GPU h/day",
      serve.owned_idle_gpu_hours_per_day, 1, MB_NONE,
      "owned GPU-hours below the profile: free for training"),
    F("serve", "burst_usd_per_day", "USD/day", serve.burst_usd_per_day, 1,
      MB_LOWER, "burst GPU-hours x cloud price"),

    F("time", "step_s", "s", time.step_s, 1, MB_LOWER,
      "compute + bubble + exposed communication, per optimizer step"),
    F("time", "compute_s", "s", time.compute_s, 1, MB_LOWER,
      "FLOPs per GPU / (peak x achieved GEMM efficiency), incl. recompute"),
    F("time", "bubble_s", "s", time.bubble_s, 1, MB_LOWER,
      "(pp - 1) / (interleave x microbatches) x compute (1F1B)"),
    F("time", "tp_comm_s", "s", time.tp_comm_s, 1, MB_LOWER,
      "exposed tensor-parallel all-reduce / all-gather time"),
    F("time", "pp_comm_s", "s", time.pp_comm_s, 1, MB_LOWER,
      "exposed pipeline send/receive time"),
    F("time", "dp_comm_s", "s", time.dp_comm_s, 1, MB_LOWER,
      "exposed gradient all-reduce / ZeRO reduce-scatter + all-gather"),
    F("time", "cp_comm_s", "s", time.cp_comm_s, 1, MB_LOWER,
      "exposed context-parallel ring attention traffic"),
    F("time", "ep_comm_s", "s", time.ep_comm_s, 1, MB_LOWER,
      "exposed expert-parallel all-to-all"),
    F("time", "tokens_per_s", "tok/s", time.tokens_per_s, 1, MB_HIGHER,
      "global_batch x seq_len / step_s"),
    F("time", "model_tflops_per_gpu", "TFLOP/s", time.model_tflops_per_gpu, 1,
      MB_HIGHER, "flops_per_token x tokens_per_s / gpus"),
    F("time", "hw_tflops_per_gpu", "TFLOP/s", time.hw_tflops_per_gpu, 1,
      MB_HIGHER, "model TFLOP/s plus recomputation"),
    F("time", "mfu", "", time.mfu, 1, MB_HIGHER,
      "model_tflops_per_gpu / dense peak of train.precision"),
    F("time", "hfu", "", time.hfu, 1, MB_HIGHER,
      "hw_tflops_per_gpu / dense peak of train.precision"),
    F("time", "train_days", "d", time.train_days, 1, MB_LOWER,
      "steps x step_s / 86400 (steady state)"),
    F("time", "gpu_hours", "GPU h", time.gpu_hours, 1, MB_LOWER,
      "gpus x steps x step_s / 3600"),
    F("time", "optimizer_s", "s", time.optimizer_s, 1, MB_LOWER,
      "optimizer update (part of compute_s)"),
    F("time", "steps", "", time.steps, 1, MB_NONE,
      "train.tokens / (global_batch x seq_len)"),
    T("time", "bottleneck", bottleneck_text, "the largest part of the step"),

    FK("reliability", "failures", "", reliability.failures, MB_LOWER, finishes,
       "run hours / cluster MTBF"),
    F("reliability", "checkpoint_interval_min", "min",
      reliability.checkpoint_interval_min, 1, MB_NONE,
      "sqrt(2 x checkpoint write time x cluster MTBF) (Young/Daly)"),
    FK("reliability", "goodput", "", reliability.goodput, MB_HIGHER, finishes,
       "1 - (checkpoint stalls + lost work + restarts) / wall time"),
    FK("reliability", "effective_train_days", "d",
       reliability.effective_train_days, MB_LOWER, finishes,
       "train_days / goodput (none when failures outpace progress)"),
    F("reliability", "cluster_mtbf_h", "h", reliability.cluster_mtbf_h, 1,
      MB_HIGHER, "node_mtbf_h / nodes"),

    F("storage", "checkpoint_gib", "GiB", storage.checkpoint_bytes, GIB,
      MB_LOWER, "weights + optimizer state of the whole model"),
    F("storage", "checkpoint_write_s", "s", storage.checkpoint_write_s, 1,
      MB_LOWER, "checkpoint bytes / storage write bandwidth"),
    F("storage", "ingest_gb_per_s", "GB/s", storage.ingest_bytes_per_s, 1e-9,
      MB_NONE, "tokens_per_s x bytes per token"),
    F("storage", "capacity_tb", "TB", storage.capacity_bytes, 1e-12, MB_NONE,
      "(checkpoints kept + dataset + scratch) / 0.8 usable"),
    F("storage", "provisioned_tb", "TB", storage.provisioned_bytes, 1e-12,
      MB_NONE, "hardware.storage_tb when given, else capacity_tb"),
    F("storage", "checkpoints_tb", "TB", storage.checkpoints_bytes, 1e-12,
      MB_NONE, "2 checkpoints kept"),
    F("storage", "dataset_tb", "TB", storage.dataset_bytes, 1e-12, MB_NONE,
      "tokens x (bytes per token + 4 bytes of text)"),
    F("storage", "scratch_tb", "TB", storage.scratch_bytes, 1e-12, MB_NONE,
      "0.2 x (checkpoints + dataset)"),

    U("network", "nodes", "", network.nodes, MB_NONE, "gpus / gpus_per_node"),
    U("network", "racks", "", network.racks, MB_NONE,
      "nodes / nodes_per_rack (power permitting)"),
    U("network", "tiers", "", network.tiers, MB_NONE,
      "switch tiers of the fat tree for this many NICs"),
    U("network", "nics", "", network.nics, MB_NONE, "one per accelerator"),
    U("network", "leaf_switches", "", network.leaf_switches, MB_NONE,
      "NICs / (radix / 2 x oversubscription)"),
    U("network", "spine_switches", "", network.spine_switches, MB_NONE,
      "uplinks / radix"),
    U("network", "core_switches", "", network.core_switches, MB_NONE,
      "third tier when two do not reach"),
    U("network", "cables", "", network.cables, MB_NONE, "every link"),
    U("network", "transceivers", "", network.transceivers, MB_NONE,
      "two per optical link"),
    F("network", "capex_usd", "USD", network.capex_usd, 1, MB_LOWER,
      "switches + NICs + transceivers + cables"),
    F("network", "power_kw", "kW", network.power_w, 1e-3, MB_LOWER,
      "switches + NICs + transceivers"),

    F("energy", "gpu_kw", "kW", energy.gpu_kw, 1, MB_LOWER,
      "gpus x TDP x power_frac"),
    F("energy", "it_kw", "kW", energy.it_kw, 1, MB_LOWER,
      "gpu + host + network + storage"),
    F("energy", "facility_kw", "kW", energy.facility_kw, 1, MB_LOWER,
      "it_kw x PUE"),
    FK("energy", "it_mwh", "MWh", energy.it_mwh, MB_LOWER, finishes,
       "it_kw x effective_train_days x 24 / 1000"),
    FK("energy", "facility_mwh", "MWh", energy.facility_mwh, MB_LOWER, finishes,
      "it_mwh x PUE"),
    FK("energy", "tco2e", "tCO2e", energy.tco2e, MB_LOWER, finishes,
       "facility_mwh x kgCO2/kWh"),
    F("energy", "rack_kw", "kW", energy.rack_kw, 1, MB_NONE,
      "nodes_per_rack x node power"),
    T("energy", "cooling", cooling_text,
      "air up to the site's air limit per rack, else liquid"),
    F("energy", "host_kw", "kW", energy.host_kw, 1, MB_LOWER,
      "nodes x host power"),
    F("energy", "network_kw", "kW", energy.network_kw, 1, MB_LOWER,
      "fabric power"),
    F("energy", "storage_kw", "kW", energy.storage_kw, 1, MB_LOWER,
      "TB x W/TB"),
    F("energy", "nameplate_it_kw", "kW", energy.nameplate_it_kw, 1, MB_LOWER,
      "nodes x (GPUs x TDP + host) + network + storage: what the hall is "
      "built for"),
    F("energy", "idle_it_kw", "kW", energy.idle_it_kw, 1, MB_LOWER,
      "nameplate x 0.3 (Barroso et al. 2013)"),
    F("energy", "pue", "", energy.pue, 1, MB_LOWER,
      "site PUE; site liquid_pue for a direct-liquid hall when lower"),

    FK("cost.build", "capex_usd", "USD", cost.build.capex_usd, MB_LOWER,
       build_known,
       "servers + spares + network + storage + facility + cooling"),
    FK("cost.build", "cash_usd", "USD", cost.build.cash_usd, MB_LOWER,
       build_known, "the cash owning commits: capex_usd, before the run"),
    {"cost.build", "units", "", MK_U64, OFF(cost.build.units), 1, NULL,
     MB_LOWER, "whole purchasable units: ceil(gpus / unit_gpus)", sold},
    {"cost.build", "unit_gpus", "", MK_U64, OFF(cost.build.unit_gpus), 1,
     NULL, MB_NONE, "accelerators per unit (a server, a whole NVL72 rack)",
     sold},
    FK("cost.build", "opex_usd_per_year", "USD/y", cost.build.opex_usd_per_year,
       MB_LOWER, build_known,
       "electricity + maintenance + support + insurance + staff + software + "
       "colocation per year"),
    FK("cost.build", "usd_per_gpu_hour", "USD/GPU h", cost.build.usd_per_gpu_hour,
       MB_LOWER, build_known,
       "(capital payments + opex) / (gpus x 8760 x utilization)"),
    FK("cost.build", "run_usd", "USD", cost.build.run_usd, MB_LOWER,
       build_run_known,
       "run cost: usd_per_gpu_hour x gpus x effective run hours (the run's "
       "share of capital recovery and running costs at utilization)"),
    FK("cost.build", "capex_nodes_usd", "USD", cost.build.capex_nodes_usd,
       MB_LOWER, nodes_known, "nodes x node price (GPUs and servers)"),
    FK("cost.build", "capex_spares_usd", "USD", cost.build.capex_spares_usd,
       MB_LOWER, nodes_known, "round(nodes x spares_frac) x node price"),
    FK("cost.build", "capex_network_usd", "USD", cost.build.capex_network_usd,
       MB_LOWER, network_known, "the fabric's bill of materials"),
    FK("cost.build", "capex_storage_usd", "USD", cost.build.capex_storage_usd,
       MB_LOWER, storage_known, "TB x USD/TB"),
    FK("cost.build", "capex_facility_usd", "USD", cost.build.capex_facility_usd,
       MB_LOWER, facility_known,
       "nameplate IT MW x build cost per MW (0 in colocation)"),
    FK("cost.build", "capex_cooling_usd", "USD", cost.build.capex_cooling_usd,
       MB_LOWER, build_known,
       "nameplate IT kW x rear-door or direct-liquid USD/kW"),
    FK("cost.build", "residual_usd", "USD", cost.build.residual_usd, MB_NONE,
       build_known,
       "IT x residual_frac + the unpaid part of the hall at end of life"),
    FK("cost.build", "annual_capital_usd", "USD/y",
       cost.build.annual_capital_usd, MB_LOWER, build_known,
       "12 x level monthly payments: IT net of residual over its life, the "
       "hall over facility_years"),
    FK("cost.build", "electricity_usd_per_year", "USD/y",
       cost.build.electricity_usd_per_year, MB_LOWER, sold,
       "(facility_kw x utilization + idle x PUE x (1 - utilization)) x 8760 "
       "x USD/kWh"),
    FK("cost.build", "maintenance_usd_per_year", "USD/y",
       cost.build.maintenance_usd_per_year, MB_LOWER, build_known,
       "IT capex x maintenance_frac"),
    FK("cost.build", "support_usd_per_year", "USD/y",
       cost.build.support_usd_per_year, MB_LOWER, build_known,
       "server capex x support_frac"),
    FK("cost.build", "insurance_usd_per_year", "USD/y",
       cost.build.insurance_usd_per_year, MB_LOWER, build_known,
       "capex x insurance_frac"),
    FK("cost.build", "staff_usd_per_year", "USD/y",
       cost.build.staff_usd_per_year, MB_LOWER, sold,
       "nameplate IT MW x staff USD per MW-year"),
    FK("cost.build", "software_usd_per_year", "USD/y",
       cost.build.software_usd_per_year, MB_LOWER, sold,
       "gpus x software USD per GPU-year"),
    FK("cost.build", "colocation_usd_per_year", "USD/y",
       cost.build.colocation_usd_per_year, MB_LOWER, sold,
       "nameplate IT kW x colocation USD/kW-month x 12"),
    {"cost.build", "excluded", "", MK_TEXT, 0, 1, excluded_text, MB_NONE,
     "running costs left at 0, so not counted (set finance.support_frac, "
     "insurance_frac, staff_usd_per_mw_year, software_usd_per_gpu_year)",
     excluded_known},
    FK("cost.build", "usd_per_mtok", "USD/Mtok", cost.build.usd_per_mtok, MB_LOWER,
       build_train_known,
       "run_usd / (train.tokens / 1e6); serving: serve.usd_per_mtok_build"),
    FK("cost.build", "npv_usd", "USD", cost.build.npv_usd, MB_LOWER,
       build_known,
       "present cost over the IT life at cost_of_capital, net of residual"),

    T("cost.cloud", "offer", offer_text, "cloud offer compared against"),
    T("cost.cloud", "term", term_text, "pricing term"),
    FK("cost.cloud", "usd_per_gpu_hour", "USD/GPU h", cost.cloud.usd_per_gpu_hour,
       MB_LOWER, cloud_known,
       "the offer's list rate for the term (or cloud.usd_per_gpu_hour)"),
    FK("cost.cloud", "cash_usd", "USD", cost.cloud.cash_usd, MB_LOWER,
       cloud_known,
       "the cash it commits: on demand, spot: the bill; reserved: every "
       "term started x commitment"),
    FK("cost.cloud", "run_usd", "USD", cost.cloud.run_usd, MB_LOWER,
       cloud_run_known,
       "run cost: billed GPUs x run hours x rate; reserved: / utilization "
       "(the rest of the term is reused), at most cash_usd"),
    U("cost.cloud", "instances", "", cost.cloud.instances, MB_LOWER,
      "whole instances: ceil(gpus / gpus_per_instance)"),
    {"cost.cloud", "capacity_gpus", "", MK_U64, OFF(cost.cloud.capacity_gpus),
     1, NULL, MB_NONE,
     "the offer's published capacity (cloud.capacity_gpus, its "
     "capacity_source); null: not published, unknown",
     capacity_known},
    FK("cost.cloud", "usd_per_mtok", "USD/Mtok", cost.cloud.usd_per_mtok, MB_LOWER,
       cloud_train_known,
       "run_usd / (train.tokens / 1e6); serving: serve.usd_per_mtok_cloud"),
    U("cost.cloud", "billed_gpus", "", cost.cloud.billed_gpus, MB_LOWER,
      "whole instances: ceil(gpus / gpus_per_instance) x gpus_per_instance"),
    FK("cost.cloud", "usd_per_used_gpu_hour", "USD/GPU h",
       cost.cloud.usd_per_used_gpu_hour, MB_LOWER, cloud_known,
       "rate x billed / gpus; reserved / utilization; spot x goodput loss"),
    FK("cost.cloud", "commitment_usd", "USD", cost.cloud.commitment_usd,
       MB_LOWER, cloud_known,
       "reserved: billed GPUs x term hours x rate, used or not"),
    FK("cost.cloud", "goodput", "", cost.cloud.goodput, MB_HIGHER,
       rented_finishes,
       "reliability goodput; spot adds preemptions as interruptions"),
    FK("cost.cloud", "usd_per_year", "USD/y", cost.cloud.usd_per_year, MB_LOWER,
       cloud_known, "cloud spend a year at the plan's utilization"),
    FK("cost.cloud", "npv_usd", "USD", cost.cloud.npv_usd, MB_LOWER,
       cloud_known, "present cost over the IT life at cost_of_capital"),

    FK("cost", "breakeven_utilization", "", cost.breakeven_utilization, MB_NONE,
       be_util_known,
       "utilization at which owning and renting cost the same over the life"),
    FK("cost", "breakeven_months", "months", cost.breakeven_months, MB_NONE,
       be_months_known,
       "discounted payback: months until the saving repays the net capital"),
    {"cost", "breakeven_reason", "", MK_TEXT, 0, 1, reason_text, MB_NONE,
     "why there is no break-even (empty when both exist)", reason_known},
    {"cost", "cheaper", "", MK_TEXT, 0, 1, cheaper_text, MB_NONE,
     "build when its cost per busy GPU-hour is below the cloud's at the "
     "same utilization",
     verdict_known},
    F("cost", "horizon_months", "months", cost.horizon_months, 1, MB_NONE,
      "the IT life the present values cover"),
};

const struct metric *metrics_table(size_t *n)
{
    *n = sizeof(table) / sizeof(table[0]);
    return table;
}

double metric_value(const struct metric *m, const struct result *r)
{
    const char *base = (const char *)r + m->offset;
    double x = 0;
    uint64_t u;
    int i;
    bool b;

    switch (m->kind) {
    case MK_F64:
        memcpy(&x, base, sizeof(x));
        x *= m->scale;
        break;
    case MK_U64:
        memcpy(&u, base, sizeof(u));
        x = (double)u;
        break;
    case MK_INT:
        memcpy(&i, base, sizeof(i));
        x = i;
        break;
    case MK_BOOL:
        memcpy(&b, base, sizeof(b));
        x = b;
        break;
    case MK_TEXT:
        break;
    }
    assert(isfinite(x));
    return x;
}

bool metric_known(const struct metric *m, const struct result *r)
{
    return !m->known || m->known(r);
}

const char *metric_text(const struct metric *m, const struct result *r)
{
    const char *s = m->kind == MK_TEXT && m->text ? m->text(r) : NULL;

    return s ? s : "";
}

bool metric_section_applies(const char *section, enum workload_kind w)
{
    static const char *const train_only[] = {"time", "reliability", "train"};
    size_t i;

    if (strcmp(section, "serve") == 0)
        return w == WORKLOAD_SERVE;
    for (i = 0; i < sizeof(train_only) / sizeof(train_only[0]); i++)
        if (strcmp(section, train_only[i]) == 0)
            return w == WORKLOAD_TRAIN;
    return true;
}
