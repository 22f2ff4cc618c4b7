/*
 * serve.h - the serving workload: memory, step times, latency, fleet size
 * and money per token (README "Serving").
 *
 * Memory per GPU of a replica (tp x pp GPUs): weights at serve.weights
 * over tp x pp, the KV cache pool the engine keeps of what is left
 * (stack.kv_mem_frac of HBM less weights, activations and the runtime
 * reserve; vLLM gpu_memory_utilization, TensorRT-LLM
 * kv_cache_free_gpu_mem_fraction), and the largest batch whose KV at full
 * length (input + output) fits: max batch.
 *
 * KV bytes per token = 2 L a_kv d bytes(kv); MLA caches the latent and the
 * RoPE key, L (kv_lora + rope) bytes (DeepSeek-V2, Liu et al. 2024, Table
 * 1).  TP splits KV heads while tp <= a_kv, beyond that they are
 * duplicated; MLA's latent is held whole by every TP rank.
 *
 * Prefill is compute-bound (2 x active matmul params x tokens + causal
 * attention, over tp x peak x efficiency, floored by one read of the
 * weights); a decode step is bandwidth-bound at small batch, max(weights
 * read + KV read over HBM bandwidth x MBU, 2 x active params x batch over
 * the GEMM rate), plus 2 TP all-reduces per layer (latency-dominated) and
 * the engine's host overhead per step.  MoE decode reads the experts the
 * batch touches, E (1 - (1 - k/E)^B) per layer under uniform routing.
 *
 * Continuous batching (Yu et al. 2022, Orca; Kwon et al. 2023, vLLM) with
 * chunked prefill (Agrawal et al. 2024, Sarathi-Serve): prompts share the
 * GPU with decode steps, stretching TPOT by 1 / (1 - prefill share).
 * An iteration holds at most the stack's prefill_chunk tokens (vLLM
 * max_num_batched_tokens, 512 in vLLM 0.6 with chunked prefill): decodes
 * are scheduled first and prompt chunks fill what is left, so a load
 * whose batch plus the prompt tokens arriving over one iteration exceed
 * it is above capacity, and its queue grows.
 * TTFT = prefill + the wait for the running step + waiting for the
 * prefills ahead (M/M/1, conservative against M/D/1; Kingman); TPOT
 * varies over requests with the prompts that stall a request's decode
 * and, open loop, with the batch (Poisson around its mean, M/G/inf).
 * Both are reported as mean, p50, p90 and p99; the targets hold at
 * serve.percentile.  Per replica, Little's law: arrivals = batch / (TTFT
 * + (O - 1) TPOT).  Offered above capacity, throughput saturates at
 * capacity and the queue grows over the load test's requests
 * (serve.window_requests; 0: without bound, no latency): the batch fills
 * while its short requests finish, then admissions run at capacity
 * (serve_overload_waits).  A finite load
 * test (above or below capacity) or an offline burst of N requests whose
 * output lengths spread (serve.output_cv) ends in a drain: once the
 * queue is empty (below capacity: after the last arrival) the batch
 * shrinks while the longest requests finish, at the small-batch step
 * time.  Lengths are a shifted exponential of mean O and standard
 * deviation cv O; with j of the last batch left the next finishes after
 * cv O / j steps (Renyi's representation of exponential order
 * statistics), so the drain of n takes (1 - cv) O steps at batch n plus
 * cv O sum_j step(j) / j (above cv 1, the exponential's: ShareGPT's
 * longest outputs are capped below an exponential's), and the measured
 * throughput is N over the makespan (vLLM benchmark_serving.py:
 * completed requests / duration).
 * Speculative decoding accepts (1 - a^(g+1)) / (1 - a) tokens per step
 * (Leviathan et al. 2023) for g + 1 tokens of compute.
 *
 * Never: I/O, allocation, globals.  Every number it writes is finite and
 * non-negative; a plan that cannot meet its targets or whose KV never
 * fits is a result (serve.fits false, serve.reason says why).
 */
#ifndef LLMPLAN_CORE_SERVE_H
#define LLMPLAN_CORE_SERVE_H

#include "core/model.h"
#include "core/result.h"
#include "core/spec.h"

/* Hours of the daily demand profile are sampled this finely. */
#define SERVE_PROFILE_STEPS 96

/* Bytes per element: bf16/fp16 2, fp8/int8 1, int4/fp4 0.5, plus the
 * block scales of 4-bit formats (int4 AWQ/GPTQ: one fp16 scale per 128
 * weights; NVFP4: one fp8 scale per 16). */
double serve_dtype_bytes(enum serve_dtype t);

/* KV-cache bytes of one token for the whole model at precision kv. */
double serve_kv_bytes_per_token(const struct model_shape *m,
                                enum serve_dtype kv);

/* ... held by one GPU of a tp x pp replica (split or duplicated). */
double serve_kv_bytes_per_token_gpu(const struct model_shape *m,
                                    enum serve_dtype kv, double tp, double pp);

/* Expected tokens per decode step with g draft tokens accepted each with
 * probability a (Leviathan et al. 2023, eq. 1); 1 when g is 0. */
double serve_tokens_per_step(double a, double g);

/* The harmonic number H_n = 1 + 1/2 + ... + 1/n (n rounded down up to
 * 64, where the sum is exact; the asymptotic series ln n + gamma + 1/2n -
 * 1/12n^2 beyond, within 1e-9): the expected maximum of n exponentials of mean
 * 1 (Renyi 1953), which sets how long a batch of requests with exponentially
 * spread lengths takes to drain.  0 for n < 1. */
double serve_harmonic(double n);

/* A replica's iteration at batch b (seconds). */
typedef double (*serve_step_fn)(const void *arg, double b);

/* A load test of n requests offered at lambda requests/s to a replica of
 * capacity cap whose batch at capacity is `batch`, output lengths spread
 * with cv (serve.output_cv, a shifted exponential).  prefill_rate: the
 * prompts a second the replica can prefill with every iteration given to
 * prompts (1 / one prompt's batched prefill; 0: no bound), the fastest it
 * admits however much room its batch has. */
struct serve_load_test {
    double n, lambda, cap, batch, cv, prefill_rate;
};

/* Waits in the queue over a load test's requests: mean and percentiles. */
struct serve_waits {
    double mean, p50, p90, p99;
};

/* The queue of a load test offered above capacity (fluid, stepped in
 * time): request k arrives at k / lambda and waits until the engine
 * admits it into a batch held at `batch` (the batch at capacity, S =
 * batch / cap a request's time in it by Little's law); a request stays
 * (1 - cv) S, then completes at the rate 1 / (cv S) (memoryless; S
 * scaled by step(b) / step(batch)).  So the batch fills while short
 * requests already finish, then admissions settle at cap and the queue
 * grows by lambda - cap a second.  With a constant step and cv = 1 the
 * queue starts at t0 = S ln(lambda / (lambda - cap)) (the M/M/inf fill,
 * E N(t) = lambda S (1 - exp(-t / S))) and request k waits (k - lambda
 * t0) (1 / cap - 1 / lambda); with cv = 0 the first cohort completes
 * only after S, so the queue starts when the batch is full, at batch /
 * lambda.  Percentiles over requests (k uniform over
 * 1..n, waits non-decreasing in k): the wait of request q n; the mean is
 * the queue's area over n.  At most 64 S are stepped (2048 steps); past
 * that the batch has settled and the rest is admitted at cap.  While the
 * batch fills, admissions are at most prefill_rate a second: a prompt
 * joins only once prefilled, so an offered rate above what the replica
 * can prefill queues even with room in the batch (vLLM 0.6 with chunked
 * prefill off prefills every waiting prompt before the next decode: the
 * dstack Llama 3.1 405B Meta-FP8 MI300X runs, TTFT 1.9 s at 16 req/s and
 * 17.6 s at 32 with 1,000 prompts under --max-num-seqs 1024).  All 0
 * below capacity. */
void serve_overload_waits(const struct serve_load_test *lt, serve_step_fn step,
                          const void *arg, struct serve_waits *w /* OUT */);

/* The first burst of a closed-loop load test (serve_burst.c): c users
 * with no think time (vLLM `bench serve --max-concurrency c
 * --request-rate inf`, SGLang bench_serving, benchmark_serving.py) send
 * their first requests at once, so the first min(c, n) of the test's n
 * requests queue at the prefill: on a server that prefills k of them one
 * after another, each `each_s` of prefill time, the i-th waits (i - 1)
 * each_s, uniform on [0, (k - 1) each_s] over the burst.  Their
 * completions are staggered by the same prefills, so the users come back
 * staggered and the requests after the first wave see the steady state
 * (the first wave's spacing persists with fixed lengths and spreads
 * further with spread ones).  Over the window, frac = min(c, n) / n of
 * the requests are the burst's; 0 with no window (n = 0: the steady
 * state).  The burst's TTFT is uniform on [lo, lo + span]: lo the
 * unloaded TTFT, span = serve_burst_span_s(k, each_s). */
struct serve_burst {
    double frac, lo, span;
};

/* The share of a window of n requests that c users' first burst is:
 * min(c, n) / n; 0 when n < 1 (steady state) or c < 1. */
double serve_burst_frac(double users, double window);

/* The spread of the burst's waits on one server that prefills k of its
 * prompts one after another, each_s each: (k - 1) each_s (0 for k <= 1). */
double serve_burst_span_s(double per_server, double each_s);

/* The mean over the window: (1 - frac) steady_mean + frac (lo + span / 2). */
double serve_burst_mean(const struct serve_burst *b, double steady_mean);

/* The steady state's latency at quantile p (0 <= p < 1), non-decreasing
 * in p. */
typedef double (*serve_quantile_fn)(const void *arg, double p);

/* The quantile p of the window's mixture: the least t with (1 - frac)
 * F_steady(t) + frac F_burst(t) >= p (F_steady by inverting q).  frac 0:
 * q(p); frac 1: lo + p span. */
double serve_burst_quantile(const struct serve_burst *b, serve_quantile_fn q,
                            const void *arg, double p);

/* The request rate a closed-loop window of n requests measures (vLLM
 * bench serve: completed over the run's duration): each of c users runs
 * its requests back to back, one every c / rps seconds at the steady
 * rate; the users with ceil(n / c) of them finish last, the last of
 * those having started `span` late (the first burst's stagger), so
 * n / (ceil(n / c) c / rps + span).  At most rps; rps itself when n < c
 * (a window that is all burst: not modelled) or n = 0 (steady state). */
double serve_window_rps(double users, double window, double rps, double span);

/* The window a closed loop replays: serve.window_requests when the plan
 * gives it (a load test, its first burst and makespan included), else 0,
 * the steady state a fleet of sv->concurrency users settles in, which is
 * what a planner sizes for (users do not all arrive at once in service). */
double serve_closed_window(const struct serve_spec *sv);

/* Distinct experts a batch of b tokens touches in one MoE layer under
 * uniform top-k routing: E (1 - (1 - k/E)^b). */
double serve_experts_touched(double experts, double k, double b);

/* The engine's token budget of one iteration: software.prefill_chunk as
 * the recipe launched it, else the stack's prefill_chunk, else 8192. */
double serve_prefill_chunk(const struct scenario *sc);

/* Attention data parallelism beside MoE expert parallelism runs the n
 * ranks of a replica in lock step (the MoE all-to-all of every layer), so
 * an iteration lasts as long as its slowest rank (TensorRT-LLM tech blog
 * 10, "ADP Balance Strategy": time_i = max over ranks; 54% balance in its
 * round-robin baseline).  A rank holding a whole prompt in an iteration
 * with probability p, independently of the others, stalls all n: the
 * prompt time each rank sees is stretched by (1 - (1 - p)^n) / p, from 1
 * (n = 1, or p = 1: every rank in a prompt) up to n (rare prompts). */
double serve_adp_wait_factor(double p, double n);

/* HBM bytes per token of a rank that the routed experts' activations move
 * on one of its GPUs (its L / pp layers) behind an all-to-all dispatcher
 * (wide EP: serve.attention_dp beside parallel.ep) in a decode step, or
 * with the permutation in a prefill pass; 0 without one
 * (serve_elemwise.c). */
double serve_routed_act_bytes(const struct scenario *sc,
                              const struct model_shape *m, bool prefill);

/* HBM bytes per token on one GPU of the replica (its L / pp layers) that
 * FP8 GEMMs dequantised outside their kernels move: software.fp8_scaling
 * = row with fp8 weights where the stack's fp8_row_fused_on does not list
 * the accelerator's vendor (vLLM 0.6 on ROCm); 0 otherwise
 * (serve_dequant.c). */
double serve_dequant_bytes(const struct scenario *sc,
                           const struct model_shape *m);

/* The daily demand shape, n samples over 24 h of mean 1 and maximum
 * peak_to_avg (a von Mises bump, exp(kappa cos t), kappa solved for the
 * ratio).  f must hold n values; n >= 2. */
void serve_daily_profile(double peak_to_avg, double *f /* OUT */, int n);

/* serve.peak_to_avg, at least 1: the peak hour over the daily mean. */
double serve_peak_ratio(const struct serve_spec *sv);

/* The peak demand in requests/s the fleet is sized for: serve.
 * requests_per_s, or serve.tokens_per_day over the output length and
 * 86400 s, times serve_peak_ratio; 0 without a demand. */
double serve_peak_demand_rps(const struct serve_spec *sv);

/* A hybrid's owned base for fleet s (serve_estimate's) of sv's demand:
 * the GPUs busy at the average load (s->gpus x s->utilization over
 * serve_peak_ratio), in whole replicas of gpr GPUs (at least one), then
 * in whole purchase units of `unit` GPUs (servers, racks).  0 when the
 * demand has no peak (ratio 1: the base would be the fleet) or gpr < 1;
 * the caller compares the base with the fleet it would burst from. */
double serve_hybrid_base_gpus(const struct serve_spec *sv,
                              const struct serve_result *s, double gpr,
                              double unit);

/* Evaluate a validated serving scenario: fills r->serve, r->memory and
 * the fleet size in r->serve.gpus; m is the model shape.  Pure. */
void serve_estimate(const struct scenario *sc, const struct model_shape *m,
                    struct result *r /* IN/OUT */);

/* The TTFT and TPOT of s at statistic p (mean, p50, p90, p99), ms: what
 * the targets of serve.percentile are checked against.  0 when
 * s->latency_known is false. */
double serve_ttft_at_ms(const struct serve_result *s, enum serve_pct p);
double serve_tpot_at_ms(const struct serve_result *s, enum serve_pct p);

/* Whether s has a time per output token: its latency is known and it
 * generates tokens after the first (a prefill pool measured alone,
 * serve.pool = prefill, yields only the first: its TPOT, decode step and
 * end to end are unknown, exported null like an unfitting quote's). */
bool serve_tpot_known(const struct serve_result *s);

/* s->reason from fmt and s->miss = why: the words for a person, the
 * fact for a caller (size sorts misses by it, never by the words). */
void serve_miss(struct serve_result *s, enum serve_miss why, const char *fmt,
                ...) __attribute__((format(printf, 3, 4)));

/* The serving load (load.h) over the daily profile: of the whole fleet
 * serve_estimate sized (base false: every GPU owned) or of the owned base
 * of a hybrid (base true, serve.owned_gpus > 0), busy up to the demand
 * and idle above it.  load.busy_frac is the share of the fleet's hours
 * the profile keeps busy, the utilization cost.h prices both sides at. */
void serve_load(const struct scenario *sc, bool base,
                struct result *r /* IN/OUT */);

/* Money and energy per token, the hybrid burst, after energy and cost
 * have run on the load (of the owned base for a hybrid).
 * all_owned_usd_per_year is what owning the whole fleet costs a year
 * (annual capital + OpEx, cost.h, with the whole-fleet load): the day's
 * all-owned cost does not depend on the owned base. */
void serve_money(const struct scenario *sc, double all_owned_usd_per_year,
                 struct result *r /* IN/OUT */);

#endif
